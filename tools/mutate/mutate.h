/* tools/mutate/mutate.h - what the mutate tool knows once read: the rule catalogue, the reference
 * sources and their tags, the mutants (model.c reads and applies them; mutate.c has the commands). */
#ifndef ETWCONF_MUTATE_H
#define ETWCONF_MUTATE_H
#include <stdbool.h>
#include <stddef.h>

struct rule {
    char *id;
    bool counted;
};
struct src {
    char *path, *text;
};
struct tag {
    char *name; /* RULE.ID or RULE.ID:suffix */
    size_t rule_len; /* length of the RULE.ID part */
    size_t src, line_start, line_end; /* the tagged line: [line_start, line_end) in the text, '\n' excluded */
    int line;
};
struct edit {
    char *at, *from, *to, *after;
    int line;
};
struct mutant {
    char *id, *kind, *desc, *equivalent;
    struct edit *edits;
    size_t nedits;
    int line;
};

extern struct rule *rules;
extern size_t nrules;
extern struct src *srcs;
extern size_t nsrcs;
extern const char *ref_dir;
extern struct tag *tags;
extern size_t ntags;
extern struct mutant *mutants;
extern size_t nmutants;

void *xrealloc(void *p, size_t n); /* exits (2) when out of memory */
const struct rule *rule_find(const char *id, size_t len); /* NULL: no such rule */
void read_rules(const char *path, int depth); /* spec/rules.def and the files it includes */
void read_sources(void); /* the .c files of ref_dir, sorted by name */
void collect_tags(void); /* the @RULE.ID tags of the sources */
int parse(const char *path); /* the mutants of DEF; returns the number of problems (reported) */
long mutant_src(const struct mutant *m, const char *def); /* the source its edits are in; -1 (reported) */
char *mutated(const struct mutant *m, const char *def, long *src_out); /* its file's text, mutated; NULL (reported) */
/* the rules of the tags on the lines that mutant M's changes are anchored to; calls FN for each */
void mutant_rules(const struct mutant *m, void (*fn)(const struct tag *, const struct mutant *, void *), void *arg);

#endif
