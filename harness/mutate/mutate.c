/*
 * harness/mutate/mutate.c - applies the mutants of harness/mutate/mutants.def to the reference.
 *
 *   mutate check DEF            every mutant is well formed, its id unique, and its original text
 *                               occurs exactly once in its file (so mutants cannot rot silently)
 *   mutate list DEF             one line per mutant: id TAB file TAB kind TAB equivalent(0|1) TAB description
 *   mutate apply DEF ID OUT     write ID's file, with the mutation applied, to OUT
 *   mutate show DEF ID          the mutant as a small diff (for reports)
 *   mutate why DEF ID           the equivalence reason (empty when the mutant is not equivalent)
 *
 * Format of DEF: records start with "[id]"; fields are "name: value" lines. A field whose value
 * is empty takes the following lines that start with '|' (the rest of each line, verbatim, joined
 * with newlines): that is how multi-line original and replacement texts are written. Lines that
 * start with '#' and blank lines outside a '|' block are ignored.
 *   file: reference/X.c       (required) the file, relative to the repository root
 *   kind: KIND                (required) error-code, size-off-by-one, size-exact-to-min, check-dropped,
 *                             checks-swapped, version-threshold, retlen, output, counter, traits-once, ...
 *   desc: TEXT                (required) what the mutant does, in one line
 *   from: TEXT                (required) the original text; must occur exactly once in the file
 *   to: TEXT                  (required, may be empty) the replacement
 *   equivalent: REASON        (optional) the mutant cannot be told apart from the reference: why
 *
 * Exit status: 0 ok, 1 a mutant is broken (not found, found twice, bad record), 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mutant {
    char *id, *file, *kind, *desc, *from, *to, *equivalent;
    int line;
};

static struct mutant *mutants;
static size_t nmutants;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "mutate: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = xrealloc(NULL, cap);
    for (;;) {
        size_t k = fread(b + n, 1, cap - n - 1, f);
        n += k;
        if (n + 1 < cap)
            break;
        cap *= 2;
        b = xrealloc(b, cap);
    }
    fclose(f);
    b[n] = 0;
    if (len)
        *len = n;
    return b;
}

static char **field_of(struct mutant *m, const char *name)
{
    if (!strcmp(name, "file"))
        return &m->file;
    if (!strcmp(name, "kind"))
        return &m->kind;
    if (!strcmp(name, "desc"))
        return &m->desc;
    if (!strcmp(name, "from"))
        return &m->from;
    if (!strcmp(name, "to"))
        return &m->to;
    if (!strcmp(name, "equivalent"))
        return &m->equivalent;
    return NULL;
}

/* parse DEF; returns the number of problems */
static int parse(const char *path)
{
    char *text = read_file(path, NULL);
    if (!text) {
        fprintf(stderr, "mutate: cannot read %s\n", path);
        exit(2);
    }
    int problems = 0, lineno = 0;
    struct mutant *m = NULL;
    char **block = NULL; /* the field that '|' lines append to */
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r')
            line[--ll] = 0;
        if (line[0] == '|') {
            if (!block) {
                fprintf(stderr, "%s:%d: a '|' line outside a multi-line field\n", path, lineno);
                problems++;
                continue;
            }
            size_t old = *block ? strlen(*block) : 0, add = strlen(line + 1);
            bool first = *block == NULL || **block == 0;
            char *s = xrealloc(*block, old + add + 2);
            if (!*block)
                s[0] = 0;
            if (!first)
                strcat(s, "\n");
            strcat(s, line + 1);
            *block = s;
            continue;
        }
        block = NULL;
        if (line[0] == '#' || line[0] == 0)
            continue;
        if (line[0] == '[') {
            char *end = strchr(line, ']');
            if (!end || end[1]) {
                fprintf(stderr, "%s:%d: a record starts with [id]\n", path, lineno);
                problems++;
                continue;
            }
            *end = 0;
            mutants = xrealloc(mutants, (nmutants + 1) * sizeof *mutants);
            m = &mutants[nmutants++];
            memset(m, 0, sizeof *m);
            m->id = xstrdup(line + 1);
            m->line = lineno;
            continue;
        }
        char *colon = strchr(line, ':');
        if (!m || !colon) {
            fprintf(stderr, "%s:%d: expected '[id]' or 'field: value'\n", path, lineno);
            problems++;
            continue;
        }
        *colon = 0;
        char **f = field_of(m, line);
        if (!f) {
            fprintf(stderr, "%s:%d: unknown field '%s' (file kind desc from to equivalent)\n", path, lineno, line);
            problems++;
            continue;
        }
        if (*f) {
            fprintf(stderr, "%s:%d: field '%s' given twice in mutant %s\n", path, lineno, line, m->id);
            problems++;
            continue;
        }
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        *f = xstrdup(v);
        if (!*v)
            block = f; /* multi-line value may follow */
    }
    free(text);
    for (size_t i = 0; i < nmutants; i++) {
        m = &mutants[i];
        const char *missing = !m->file ? "file" : !m->kind ? "kind" : !m->desc ? "desc" : !m->from ? "from" : !m->to ? "to" : NULL;
        if (missing) {
            fprintf(stderr, "%s:%d: mutant %s has no '%s'\n", path, m->line, m->id, missing);
            problems++;
        } else if (!*m->from) {
            fprintf(stderr, "%s:%d: mutant %s: 'from' is empty\n", path, m->line, m->id);
            problems++;
        } else if (!strcmp(m->from, m->to)) {
            fprintf(stderr, "%s:%d: mutant %s: 'to' is the same as 'from'\n", path, m->line, m->id);
            problems++;
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(mutants[j].id, m->id)) {
                fprintf(stderr, "%s:%d: duplicate mutant id %s (first at line %d)\n", path, m->line, m->id, mutants[j].line);
                problems++;
            }
    }
    return problems;
}

static struct mutant *find(const char *id)
{
    for (size_t i = 0; i < nmutants; i++)
        if (!strcmp(mutants[i].id, id))
            return &mutants[i];
    return NULL;
}

static size_t count_occurrences(const char *hay, const char *needle, const char **first)
{
    size_t n = 0, nl = strlen(needle);
    *first = NULL;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
        if (!n)
            *first = p;
        n++;
        if (!nl)
            break;
    }
    return n;
}

/* the mutated text of m's file (NULL and a message when the mutant does not apply) */
static char *mutated(const struct mutant *m, const char *def)
{
    size_t len;
    char *src = read_file(m->file, &len);
    if (!src) {
        fprintf(stderr, "%s:%d: mutant %s: cannot read %s\n", def, m->line, m->id, m->file);
        return NULL;
    }
    const char *at;
    size_t n = count_occurrences(src, m->from, &at);
    if (n != 1) {
        fprintf(stderr, "%s:%d: mutant %s: the original text occurs %zu times in %s (must be exactly once)%s\n", def, m->line, m->id, n,
                m->file, n ? "; add context to 'from'" : "; the reference changed: update the mutant");
        free(src);
        return NULL;
    }
    size_t pre = (size_t)(at - src), fl = strlen(m->from), tl = strlen(m->to);
    char *out = xrealloc(NULL, len - fl + tl + 1);
    memcpy(out, src, pre);
    memcpy(out + pre, m->to, tl);
    memcpy(out + pre + tl, at + fl, len - pre - fl + 1);
    free(src);
    return out;
}

static void print_prefixed(const char *prefix, const char *text)
{
    const char *p = text;
    do {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        printf("%s%.*s\n", prefix, (int)n, p);
        p = e ? e + 1 : NULL;
    } while (p);
}

static void one_line(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mutate check|list DEF | apply DEF ID OUT | show DEF ID | why DEF ID\n");
        return 2;
    }
    const char *cmd = argv[1], *def = argv[2];
    int problems = parse(def);
    if (!strcmp(cmd, "check")) {
        for (size_t i = 0; i < nmutants; i++) {
            char *t = mutants[i].file && mutants[i].from && mutants[i].to ? mutated(&mutants[i], def) : NULL;
            if (!t && mutants[i].file && mutants[i].from && mutants[i].to)
                problems++;
            free(t);
        }
        if (problems) {
            fprintf(stderr, "mutate check: %d problem(s) in %s\n", problems, def);
            return 1;
        }
        size_t eq = 0;
        for (size_t i = 0; i < nmutants; i++)
            eq += mutants[i].equivalent != NULL;
        printf("mutate check: %zu mutants (%zu listed as equivalent), each applies exactly once\n", nmutants, eq);
        return 0;
    }
    if (problems) {
        fprintf(stderr, "mutate: %d problem(s) in %s (run 'mutate check %s')\n", problems, def, def);
        return 1;
    }
    if (!strcmp(cmd, "list")) {
        for (size_t i = 0; i < nmutants; i++) {
            const struct mutant *m = &mutants[i];
            printf("%s\t%s\t%s\t%d\t", m->id, m->file, m->kind, m->equivalent != NULL);
            one_line(m->desc);
            putchar('\n');
        }
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "mutate %s: needs a mutant id\n", cmd);
        return 2;
    }
    struct mutant *m = find(argv[3]);
    if (!m) {
        fprintf(stderr, "mutate: no mutant '%s' in %s\n", argv[3], def);
        return 2;
    }
    if (!strcmp(cmd, "why")) {
        if (m->equivalent)
            printf("%s\n", m->equivalent);
        return 0;
    }
    if (!strcmp(cmd, "show")) {
        printf("%s (%s, %s:%d): %s\n", m->id, m->kind, m->file, m->line, m->desc);
        print_prefixed("  - ", m->from);
        if (*m->to)
            print_prefixed("  + ", m->to);
        else
            printf("  + (deleted)\n");
        return 0;
    }
    if (!strcmp(cmd, "apply")) {
        if (argc < 5) {
            fprintf(stderr, "mutate apply: needs an output file\n");
            return 2;
        }
        char *t = mutated(m, def);
        if (!t)
            return 1;
        FILE *f = fopen(argv[4], "wb");
        if (!f || fputs(t, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "mutate: cannot write %s\n", argv[4]);
            return 1;
        }
        free(t);
        return 0;
    }
    fprintf(stderr, "mutate: unknown command '%s'\n", cmd);
    return 2;
}
