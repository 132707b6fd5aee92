/*
 * harness/out/winetest.h - Wine's test formats: the output of `etwconf run --format winetest`
 * (harness/out/winetest.c), the known-divergence (expectations) files it reads
 * (harness/out/expect.c, schema etwconf-expectations/1, read as reports/etwconf_report/expectations.py
 * reads them), and the small JSON reader both use.
 */
#ifndef ETWCONF_WINETEST_H
#define ETWCONF_WINETEST_H

#include "harness/etwconf.h"

/* ---------------------------------------------------------------- JSON reader (harness/out/expect.c) */
enum etw_jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct etw_jval {
    enum etw_jtype type;
    bool b;
    double num;
    char *str; /* J_STR: UTF-8, NUL-terminated */
    char *key; /* the member name, inside an object */
    struct etw_jval *kids; /* J_ARR / J_OBJ */
    size_t nkids;
};
/* parse text; NULL and err filled ("line 3: ...") on bad JSON */
struct etw_jval *etw_jparse(const char *text, char *err, size_t errlen);
void etw_jfree(struct etw_jval *v);
const struct etw_jval *etw_jget(const struct etw_jval *obj, const char *key); /* NULL if absent */
const char *etw_jstr(const struct etw_jval *obj, const char *key); /* NULL unless a string */

/* ---------------------------------------------------------------- expectations */
struct etw_xentry {
    const char *case_id, *status, *mode, *observed, *why;
    const struct etw_jval *versions; /* NULL: every version; else a string or a list of strings */
    int line; /* in the file, 0 if unknown */
};
struct etw_xfile {
    char *path;
    char *text;
    struct etw_jval *doc;
    const char *impl, *arch; /* the target the file is for (arch may be NULL) */
    struct etw_xentry *entries;
    size_t nentries;
};
/* load and validate an expectations file; NULL and err filled (with what to do) when it is not one */
struct etw_xfile *etw_xfile_load(const char *path, char *err, size_t errlen);
void etw_xfile_free(struct etw_xfile *x);
/* does the entry name the version v of a target of this impl (version label as the target gives it)? */
/* does e name the run: version v (a table entry's id), key (the run's version key, etw_runner_key),
 * label (the run's version label: "win10") */
bool etw_xentry_names(const struct etw_xentry *e, const char *impl, unsigned v, unsigned key, const char *label);
/* "FAIL, mode return, observed \"0\"" */
void etw_xentry_describe(const struct etw_xentry *e, char *buf, size_t len);

/* ---------------------------------------------------------------- --format winetest (harness/out/winetest.c) */
/* switch the format on for this process; expect may be NULL (then nothing is todo) */
void etw_winetest_enable(struct etw_xfile *expect);
bool etw_winetest_enabled(void);
/* one finished case, from its serialised record body (every isolation mode ends in etw_emit_body) */
void etw_winetest_result(struct etw_runner *r, enum etw_status_kind st, const char *body, const struct etw_case *c);
/* the run of one version has ended: the last unit's closing line */
void etw_winetest_end(struct etw_runner *r);
/* the exit status of a Wine test: failures plus successes inside todo blocks, capped at 255 */
int etw_winetest_status(void);

/* ---------------------------------------------------------------- etwconf export-wine (tools/export_wine/) */
int etw_cmd_export_wine(int argc, char **argv);

#endif
