/*
 * tools/export_wine/export_wine.c - `etwconf export-wine`: the case table written out as a
 * standalone Wine conformance test (README "Wine's test formats" and "Dropping the exported test
 * into a Wine tree"): per family (the case id up to its first dot) a table of the data rows, their
 * fields and expectations per version range, and a test function; the runner (runtime.inc) copied
 * in. With --todo, the check a known Wine divergence names is under todo_wine_if at that version.
 * Custom rows (FN_CUSTOM, several calls in C) are left out; the file names them.
 */
#include "tools/tools.h"
#include "harness/suite/suite.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ETWCONF_PROG
#define ETWCONF_PROG "etwconf"
#endif

static const char runtime[] =
#include "export_wine_runtime.h"
    ;

/* ---------------------------------------------------------------- output with line numbers */
static struct {
    FILE *f;
    int line; /* the line the next character goes on */
    bool bad; /* a write failed, or memory ran out */
} O;

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void em(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!s) {
        O.bad = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    for (int i = 0; i < n; i++)
        O.line += s[i] == '\n';
    O.bad |= fwrite(s, 1, (size_t)n, O.f) != (size_t)n;
    free(s);
}

/* s as a C string literal, in one of four buffers that the next calls reuse */
static const char *q(const char *s)
{
    static char ring[4][4096];
    static int next;
    char *start = ring[next++ % 4], *o = start, *end = o + sizeof ring[0] - 10;
    if (!s)
        return "NULL";
    *o++ = '"';
    for (; *s && o < end; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            o += sprintf(o, "\\%c", c);
        else if (c == '\n')
            o += sprintf(o, "\\n");
        else if (c < 0x20 || c >= 0x7f)
            o += sprintf(o, "\\%03o", c);
        else
            *o++ = (char)c;
    }
    strcpy(o, *s ? "...\"" : "\"");
    return start;
}

/* a byte array in the row, after the text pre; more than 12 bytes on lines of their own */
static void em_bytes(const char *pre, const etw_u8 *p, size_t n)
{
    em("%s(const BYTE[]){", pre);
    for (size_t i = 0; i < n; i++) {
        em("%s", i ? "," : "");
        em("%s0x%02x", n > 12 && i % 12 == 0 ? "\n                " : i ? " " : "", p[i]);
    }
    em("}");
}

/* ---------------------------------------------------------------- the rows */
/* the generated test's F_* name of a function a data row calls: FN_TQI is F_TQI */
static const char *fn_tag(enum etw_fn fn)
{
    static char tag[32];
    snprintf(tag, sizeof tag, "F_%s", etw_fn_enum_name(fn) + 3);
    return tag;
}

/* each function and the modules the harness looks it up in, in order */
static void em_function_table(void)
{
    static const enum etw_fn order[] = {FN_TQI,    FN_TSI, FN_NTQSI, FN_NTSSI,  FN_NTC,
                                        FN_ETWCTI, FN_CTI, FN_ESI,   FN_ETWESI, FN_NTQIP};
    em("/* each function, and the modules it is looked up in (the first that exports it) */\n"
       "static const struct\n{\n    const char *name;\n    const char *modules[4];\n} functions[] =\n{\n");
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        em("    [%s] = {\"%s\", {", fn_tag(order[i]), etw_fn_name(order[i]));
        for (int k = 0; etw_fn_module(order[i], k); k++)
            em("\"%s\", ", etw_fn_module(order[i], k));
        em("NULL}},\n");
    }
    em("};\n\n");
}

/* ---------------------------------------------------------------- the known divergences (--todo) */
struct todo {
    char case_id[96], version[16], status[16], mode[40];
};
static struct {
    struct todo *v;
    size_t n;
    char source[256]; /* the expectations file they come from */
} X;

/* read the lines of `etwconf-report winetest-todo`; false and err filled when it is not such a list */
static bool todo_load(const char *path, char *err, size_t errlen)
{
#define MAKE_IT "; make it with reports/etwconf-report winetest-todo reports/expectations/wine.json"
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        snprintf(err, errlen, "cannot open %s" MAKE_IT, path);
        return false;
    }
    char line[512], impl[32] = "";
    int ln = 0;
    *err = 0;
    while (!*err && fgets(line, sizeof line, f)) {
        struct todo t, *nv = NULL;
        if (++ln == 1 && sscanf(line, "# etwconf-todo/1 %31s %255s", impl, X.source) != 2)
            snprintf(err, errlen, "%s is not a list of `etwconf-report winetest-todo` (its first line is not \"# etwconf-todo/1 IMPL FILE\")", path);
        else if (ln == 1 && strcmp(impl, "wine"))
            snprintf(err, errlen, "%s lists the divergences of %s, not Wine: make it from Wine's (reports/expectations/wine.json)", path, impl);
        else if (ln == 1 || line[0] == '#' || line[0] == '\n')
            continue;
        else if (sscanf(line, "%95s %15s %15s %39s", t.case_id, t.version, t.status, t.mode) != 4)
            snprintf(err, errlen, "%s:%d: not CASE VERSION STATUS MODE", path, ln);
        else if (!(nv = realloc(X.v, (X.n + 1) * sizeof *nv)))
            snprintf(err, errlen, "out of memory");
        else
            (X.v = nv)[X.n++] = t;
    }
    if (!*err && ln == 0)
        snprintf(err, errlen, "%s is empty" MAKE_IT, path);
    if (f != stdin)
        fclose(f);
    return !*err;
}

/* the command's end: what it holds freed or closed, its exit status */
static int done(int rc)
{
    free(X.v);
    memset(&X, 0, sizeof X);
    if (O.f && O.f != stdout)
        fclose(O.f);
    memset(&O, 0, sizeof O);
    return rc;
}

/* the check a known divergence names: its status and mode */
static const char *at_of(const struct todo *e, const struct etw_case *c)
{
    if (!strcmp(e->status, "CRASH") || !strcmp(e->status, "TIMEOUT"))
        return "AT_CRASH";
    if (!strcmp(e->status, "BROKEN"))
        return "AT_FIXTURE";
    if (!strcmp(e->status, "SKIP"))
        return NULL;
    static const struct {
        const char *mode, *at;
    } m[] = {{"return", "AT_RETURN"},     {"return-length", "AT_RETLEN"},     {"output", "AT_OUTPUT"},
             {"sentinel", "AT_SENTINEL"}, {"overrun", "AT_BOUNDS"},          {"missing-export", "AT_EXPORT"},
             {"unexpected-export", "AT_EXPORT"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(e->mode, m[i].mode))
            return m[i].at;
    fprintf(stderr, ETWCONF_PROG " export-wine: %s: the entry for %s has mode %s, which no check of a data row has; its return check is todo\n",
            X.source, c->id, e->mode);
    return "AT_RETURN";
}

/* the check the first known divergence of case c at version names, or NULL */
static const char *todo_at(const struct etw_case *c, const char *version)
{
    const char *at = NULL;
    for (size_t i = 0; i < X.n && !at; i++)
        if (!strcmp(X.v[i].case_id, c->id) && !strcmp(X.v[i].version, version))
            at = at_of(&X.v[i], c);
    return at;
}

static const char *cannot_reason(const struct etw_case *c)
{
    const struct etw_fixture *fx = &c->fx;
    if (fx->logger == LG_NOACCESS || fx->logger2 == LG_NOACCESS)
        return "needs a session this process has no TRACELOG_GUID_ENABLE access to, which this test does not set up";
    if (fx->logger == LG_PRIVATE || fx->logger2 == LG_PRIVATE)
        return "needs a private logger session, which this test does not set up";
    if (fx->profile_priv)
        return "needs SeSystemProfilePrivilege held or not held, which this test does not change";
    if (fx->fail_alloc)
        return "needs an allocation inside the call to fail, which only the reference implementation can arrange";
    if (fx->foreign_pid)
        return "needs a classic registration made by another process";
    if (fx->set_counter)
        return "needs the instance-id counter of a class preset, which only the reference implementation can arrange";
    if (c->needs & NEED_PMC_SOURCES)
        return "needs a profile source besides the timer listed by the system, which this test does not check";
    return NULL;
}

/* whether c is a data row; its family in fam: the case id up to its first dot, as an identifier */
static bool data_row(const struct etw_case *c, char fam[24])
{
    size_t n = 0;
    for (const char *id = c->id; id[n] && id[n] != '.' && n < 23; n++)
        fam[n] = (id[n] >= 'a' && id[n] <= 'z') || (id[n] >= '0' && id[n] <= '9') ? id[n] : '_';
    fam[n] = 0;
    return etw_call_row_fn(c->fn) || c->fn == FN_EXPORT;
}

static void em_row(const struct etw_case *c, bool todo_on)
{
#define NAME_(name, ...) #name,
    static const char *const kinds[] = {ETW_XKIND_LIST(NAME_)};
    static const char *const rls[] = {ETW_RLKIND_LIST(NAME_)};
    static const char *const outs[] = {ETW_OUTKIND_LIST(NAME_)};
#undef NAME_
    const struct etw_args *a = &c->args;
    const struct etw_fixture *fx = &c->fx;
    em("    /* %s */\n", c->title);
    em("    {\n        .id = %s, .line = %d,\n        .rules = \"", q(c->id), O.line + 1);
    for (int k = 0; etw_case_rule(c, k); k++)
        em("%s%s", k ? " " : "", etw_rule_name(etw_case_rule(c, k)));
    em("\",\n        .fn = %s,", fn_tag(c->fn));
    if (c->fn == FN_EXPORT)
        em(" .module = %s, .export_name = %s,", q(a->module), q(a->export_name));
    em("\n");
    const char *cannot = cannot_reason(c);
    if (cannot)
        em("        .cannot = %s,\n", q(cannot));
    else if (c->fn != FN_EXPORT) {
        static const etw_u32 no_masks[8];
        bool masks = memcmp(fx->masks, no_masks, sizeof no_masks) != 0;
        if (fx->logger || fx->logger2 || fx->classes || fx->provider || fx->ndisallow) {
            em("       ");
            if (fx->logger)
                em(" .logger = %s,", etw_logger_enum_name(fx->logger));
            if (fx->logger2)
                em(" .logger2 = %s,", etw_logger_enum_name(fx->logger2));
            if (masks)
                em(" .masks = {0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x},", fx->masks[0], fx->masks[1], fx->masks[2],
                   fx->masks[3], fx->masks[4], fx->masks[5], fx->masks[6], fx->masks[7]);
            if (fx->ndisallow)
                em(" .ndisallow = %d, .disallow = (const GUID[]){", fx->ndisallow);
            for (int i = 0; i < fx->ndisallow; i++) {
                const etw_guid *g = &fx->disallow[i];
                em("\n            {0x%08x, 0x%04x, 0x%04x, {", g->Data1, g->Data2, g->Data3);
                for (int k = 0; k < 8; k++)
                    em("%s0x%02x", k ? ", " : "", g->Data4[k]);
                em("}}%s", i + 1 < fx->ndisallow ? "," : "},");
            }
            if (fx->classes)
                em(" .classes = %d,", fx->classes);
            if (fx->provider)
                em(" .provider = TRUE,");
            em("\n");
        }
        int len = a->len + (a->len_rel ? etw_call_natural_size(c->fn, a) : 0);
        em("        .handle = %s, .value = 0x%llx, .cls = 0x%x, .len = %d,%s%s",
           etw_hsel_enum_name(a->handle), (unsigned long long)a->value, a->cls, len < 0 ? 0 : len,
           a->buf == B_NULL ? " .null_buf = TRUE," : "", a->retlen_null ? " .retlen_null = TRUE," : "");
        if (a->in_len) {
            em(" .in_size = %lu,", (unsigned long)a->in_len);
            em_bytes(" .in = ", a->in, a->in_len);
            em(",");
        }
        if (a->patch)
            em(" .patch = %s, .patch_off = %d,", etw_patch_enum_name(a->patch), a->patch_off);
        if (c->fn == FN_NTC)
            em(" .out_len = %d,%s", a->out_len, a->out_buf == B_NULL ? " .null_out = TRUE," : "");
        em("\n");
    }
    em("        .x = {\n");
    for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin; k++) {
        const struct etw_expect *e = &c->expect[k];
        em("            {0x%08x, 0x%08x, %s", e->vmin, e->vmax, kinds[e->kind]);
        if (e->kind == XK_SKIP)
            em(", .why = %s", q(e->why));
        if (e->kind == XK_CALL) {
            em(", .rc = 0x%x", e->rc);
            if (e->rc_alt_ok)
                em(", .rc_alt_ok = TRUE, .rc_alt = 0x%x", e->rc_alt);
            if (e->rl)
                em(", .rl = %s, .rl_value = 0x%x", rls[e->rl], e->rl_value);
            if (e->out) {
                em(", .out = %s", outs[e->out]);
                if (e->out_len && !cannot) {
                    em(", .out_size = %lu, .out_off = %lu", (unsigned long)e->out_len,
                       (unsigned long)e->out_off);
                    em_bytes(", .out_bytes = ", e->out_bytes, e->out_len);
                }
            }
        }
        em("},\n");
    }
    em("        },\n");
    /* the known divergences, per NT version: versions[] of the runner */
    const char *todo[32];
    size_t nf = 0;
    bool any = false;
    for (size_t vi = 0; todo_on && vi < etw_version_count && nf < 32; vi++)
        if (ETW_VIS_NT(etw_versions[vi].id))
            any |= (todo[nf++] = todo_at(c, etw_versions[vi].name)) != NULL;
    if (any) {
        em("        .todo = {");
        for (size_t vi = 0; vi < nf; vi++)
            em("%s%s", vi ? ", " : "", todo[vi] ? todo[vi] : "AT_NONE");
        em("},  /* Wine: %s */\n", X.source);
    }
    em("    },\n");
}

static const char help[] =
    "usage: " ETWCONF_PROG " export-wine [--out FILE] [--todo FILE] [--unit NAME]\n"
    "\n"
    "Write the case table as a standalone Wine conformance test (C, Wine's wine/test.h API): one\n"
    "unit, a table and a test function per family, every function through GetProcAddress.\n"
    "\n"
    "  --out FILE     write the source to FILE (default: stdout)\n"
    "  --todo FILE    the known Wine divergences, todo_wine for the versions listed: the output of\n"
    "                 reports/etwconf-report winetest-todo reports/expectations/wine.json ('-': stdin)\n"
    "  --unit NAME    the unit name for START_TEST (default etwconf; use the file's base name)\n"
    "\n"
    "Build it outside a Wine tree with the small compatible header of this suite:\n"
    "  x86_64-w64-mingw32-gcc -DSTANDALONE -I harness/windows/winetest -o etwconf_test.exe etwconf.c\n"
    "In a Wine tree: README, \"Dropping the exported test into a Wine tree\".\n"
    "\n"
    "exit status: 0 written, 2 usage error, 3 the output or the --todo list could not be used\n";

int etw_cmd_export_wine(int argc, char **argv)
{
    const char *opt[3] = {NULL, NULL, "etwconf"}, *const names[3] = {"--out", "--todo", "--unit"};
    for (int i = 2; i < argc; i++) {
        int k = 0;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(help, stdout);
            return 0;
        }
        while (k < 3 && strcmp(argv[i], names[k]))
            k++;
        if (k == 3 || i + 1 == argc) {
            fprintf(stderr, k == 3 ? ETWCONF_PROG " export-wine: unknown option '%s'\n"
                                   : ETWCONF_PROG " export-wine: %s needs a value\n", argv[i]);
            fputs("Try '" ETWCONF_PROG " export-wine --help'.\n", stderr);
            return 2;
        }
        opt[k] = argv[++i];
    }
    const char *out = opt[0], *todo = opt[1], *unit = opt[2];
    for (const char *p = unit; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) {
            fprintf(stderr, ETWCONF_PROG " export-wine: --unit takes a C identifier in lower case (the test file's base name), not '%s'\n", unit);
            return 2;
        }
    char err[512];
    if (todo && !todo_load(todo, err, sizeof err)) {
        fprintf(stderr, ETWCONF_PROG " export-wine: --todo: %s\n", err);
        return done(3);
    }

    O.f = out && strcmp(out, "-") ? fopen(out, "wb") : stdout;
    if (!O.f) {
        fprintf(stderr, ETWCONF_PROG " export-wine: cannot write '%s'\n", out);
        return done(3);
    }
    size_t n = etw_case_total(), ndata = 0, ncustom = 0, ncannot = 0;
    O.line = 1;
    em("/*\n * Conformance tests for the ETW information APIs: TraceQueryInformation, TraceSetInformation,\n"
       " * NtQuerySystemInformation/NtSetSystemInformation (0x1F), NtTraceControl, EtwCreateTraceInstanceId,\n"
       " * CreateTraceInstanceId, EventSetInformation, and which module exports them.\n *\n"
       " * Generated by `etwconf export-wine` from etwconf %s (%lu rules, %lu cases): each row is a case of\n"
       " * the suite, its id names the case and .rules the documented rules it checks (`etwconf rules`).\n",
       ETWCONF_VERSION, (unsigned long)etw_rule_count, (unsigned long)n);
    if (todo)
        em(" * Known Wine divergences (todo_wine) come from %s.\n", X.source);
    em(" *\n * Wine's tests carry a copyright line and the LGPL 2.1+ notice: whoever submits this file adds them.\n *\n"
       " * Left out (custom cases: several calls, written in C in etwconf's cases/):");
    int col = 80;
    for (size_t i = 0; i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        if (c->fn != FN_CUSTOM)
            continue;
        ncustom++;
        if (col + strlen(c->id) > 96) {
            em("\n *  ");
            col = 4;
        }
        em(" %s", c->id);
        col += (int)strlen(c->id) + 1;
    }
    em("\n */\n\n#include <stdarg.h>\n#include <stdio.h>\n#include <string.h>\n\n#include \"windef.h\"\n#include \"winbase.h\"\n"
       "#include \"wmistr.h\"\n#include \"evntrace.h\"\n\n#include \"wine/test.h\"\n\n");
    em("#define EVENT_TRACE_SYSTEM_LOGGER_MODE_ 0x%08xu\n\n", ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE);
    em("/* the NT versions of the known divergences, oldest first (major << 8 | minor) */\nstatic const WORD versions[] = {");
    for (size_t i = 0, k = 0; i < etw_version_count; i++)
        if (ETW_VIS_NT(etw_versions[i].id))
            em("%s0x%04x", k++ ? ", " : "", etw_versions[i].nt);
    em("};\n\n");
    /* the runner, with the table of functions where it says */
    const char *mark = strstr(runtime, "/* @FUNCTIONS@");
    const char *after = mark ? strchr(mark, '\n') : NULL;
    if (!after) {
        fprintf(stderr, ETWCONF_PROG " export-wine: the runner has no @FUNCTIONS@ line (tools/export_wine/runtime.inc)\n");
        return done(3);
    }
    em("%.*s", (int)(mark - runtime), runtime);
    em_function_table();
    em("%s\n", after + 1);

    /* families, in table order */
    char fams[64][24], fam[24];
    int nfam = 0;
    for (size_t i = 0; i < n; i++) {
        if (!data_row(etw_case_at(i), fam))
            continue;
        int k = 0;
        while (k < nfam && strcmp(fams[k], fam))
            k++;
        if (k == nfam && nfam < 64)
            memcpy(fams[nfam++], fam, sizeof fam);
    }
    for (int k = 0; k < nfam; k++) {
        em("/* ------------------------------------------------------------------ %s */\n\n", fams[k]);
        em("static const struct row rows_%s[] =\n{\n", fams[k]);
        for (size_t i = 0; i < n; i++) {
            const struct etw_case *c = etw_case_at(i);
            if (!data_row(c, fam) || strcmp(fam, fams[k]))
                continue;
            em_row(c, todo != NULL);
            ndata++;
            ncannot += cannot_reason(c) != NULL;
        }
        em("};\n\nstatic void test_%s(void)\n{\n    run_rows(rows_%s, ARRAY_SIZE(rows_%s));\n}\n\n", fams[k], fams[k], fams[k]);
    }
    em("START_TEST(%s)\n{\n", unit);
    em("#ifdef __GNUC__\n    AddVectoredExceptionHandler(1, stub_handler);\n#endif\n");
    em("    init_version();\n");
    for (int k = 0; k < nfam; k++)
        em("    test_%s();\n", fams[k]);
    em("    trace(\"%lu rows; %%d did not apply to this version\\n\", not_applicable);\n}\n", (unsigned long)ndata);
    bool bad = O.bad || ferror(O.f);
    bad |= (O.f == stdout ? fflush(stdout) : fclose(O.f)) != 0;
    O.f = NULL;
    if (bad) {
        fprintf(stderr, ETWCONF_PROG " export-wine: writing '%s' failed\n", out ? out : "stdout");
        return done(3);
    }
    fprintf(stderr, ETWCONF_PROG " export-wine: %lu rows in %d families (%lu skip with the fixture they need), %lu custom cases left out%s%s\n",
            (unsigned long)ndata, nfam, (unsigned long)ncannot, (unsigned long)ncustom, out ? " -> " : "", out ? out : "");
    return done(0);
}
