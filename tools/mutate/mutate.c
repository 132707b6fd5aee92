/*
 * tools/mutate/mutate.c - applies the mutants of tools/mutate/mutants.def to the reference.
 *
 * A mutant is anchored to a tag, "@TQI.04.MIN_SIZE" in a comment on the reference line that
 * implements a rule of the catalogue (spec/rules.def), and changes that line, not a piece of
 * surrounding text: renaming a parameter, editing a comment or moving a function breaks no
 * mutant. See tools/mutate/README.md for the format and what 'check' verifies.
 *
 * Exit status: 0 ok, 1 a mutant, tag or rule is broken (the message says which and what to do),
 * 2 usage or an unreadable file.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: mutate [--ref DIR] [--rules FILE] COMMAND DEF [ARGS]\n"
    "  check DEF            every tag in DIR names a catalogue rule and occurs once; every mutant applies\n"
    "                       exactly once on its tagged line; every counted rule has a mutant\n"
    "  list DEF             one line per mutant: id TAB file TAB kind TAB equivalent(0|1) TAB description\n"
    "  apply DEF ID OUT     write the file of mutant ID, with the mutation applied, to OUT\n"
    "  show DEF ID          the mutant as a small diff\n"
    "  why DEF ID           the equivalence reason (empty when the mutant is not equivalent)\n"
    "  tags DEF             every tag: tag TAB file:line TAB the ids of the mutants anchored on its line\n"
    "  coverage DEF         every counted rule and the mutants anchored on a line tagged with it\n"
    "options: --ref DIR     the reference sources (default: reference)\n"
    "         --rules FILE  the rule catalogue (default: spec/rules.def)\n"
    "A counted rule is one of strength MUST whose provenance is not INFERRED.\n";

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "mutate: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = xrealloc(NULL, cap);
    for (;;) {
        n += fread(b + n, 1, cap - n - 1, f);
        if (n + 1 < cap)
            break;
        cap *= 2;
        b = xrealloc(b, cap);
    }
    fclose(f);
    b[n] = 0;
    return b;
}

/* ---------------------------------------------------------------- the rule catalogue */
struct rule {
    char *id;
    bool counted;
};
static struct rule *rules;
static size_t nrules;

static const struct rule *rule_find(const char *id, size_t len)
{
    for (size_t i = 0; i < nrules; i++)
        if (strlen(rules[i].id) == len && !memcmp(rules[i].id, id, len))
            return &rules[i];
    return NULL;
}

/* the next comma-separated token after p (skipping blanks); its length in *n */
static const char *next_token(const char *p, size_t *n)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    const char *e = p;
    while (*e && *e != ',' && *e != ' ' && *e != '\n' && *e != ')')
        e++;
    *n = (size_t)(e - p);
    return p;
}

/* read RULE("ID", STRENGTH, PROVENANCE, ...) entries of FILE and of the files it #includes */
static void read_rules(const char *path, int depth)
{
    char *text = read_file(path);
    if (!text || depth > 4) {
        fprintf(stderr, "mutate: cannot read the rule catalogue %s (give it with --rules FILE)\n", path);
        exit(2);
    }
    for (char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, "#include \"", 10)) {
            const char *name = p + 10, *end = strchr(name, '"');
            const char *slash = strrchr(path, '/');
            if (!end)
                continue;
            size_t dl = slash ? (size_t)(slash - path + 1) : 0;
            char *inc = xrealloc(NULL, dl + (size_t)(end - name) + 1);
            memcpy(inc, path, dl);
            memcpy(inc + dl, name, (size_t)(end - name));
            inc[dl + (size_t)(end - name)] = 0;
            read_rules(inc, depth + 1);
            free(inc);
            continue;
        }
        if (strncmp(p, "RULE(\"", 6))
            continue;
        const char *id = p + 6, *end = strchr(id, '"');
        if (!end)
            continue;
        size_t sl, pl;
        const char *s = next_token(end + 2, &sl);
        const char *pv = next_token(s + sl + 1, &pl);
        rules = xrealloc(rules, (nrules + 1) * sizeof *rules);
        rules[nrules].id = xstrndup(id, (size_t)(end - id));
        rules[nrules].counted = sl == 4 && !memcmp(s, "MUST", 4) && !(pl == 8 && !memcmp(pv, "INFERRED", 8));
        nrules++;
    }
    free(text);
}

/* ---------------------------------------------------------------- reference sources and tags */
struct src {
    char *path, *text;
};
static struct src *srcs;
static size_t nsrcs;
static const char *ref_dir = "reference";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_sources(void)
{
    DIR *d = opendir(ref_dir);
    if (!d) {
        fprintf(stderr, "mutate: cannot open the reference directory %s (give it with --ref DIR)\n", ref_dir);
        exit(2);
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 2 && !strcmp(e->d_name + l - 2, ".c")) {
            names = xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    srcs = xrealloc(NULL, n * sizeof *srcs);
    for (size_t i = 0; i < n; i++) {
        size_t pl = strlen(ref_dir) + strlen(names[i]) + 2;
        srcs[i].path = xrealloc(NULL, pl);
        snprintf(srcs[i].path, pl, "%s/%s", ref_dir, names[i]);
        if (!(srcs[i].text = read_file(srcs[i].path))) {
            fprintf(stderr, "mutate: cannot read %s\n", srcs[i].path);
            exit(2);
        }
        free(names[i]);
    }
    free(names);
    nsrcs = n;
}

/* A copy of TEXT with every comment (delimiters included) replaced by 0x01 bytes, newlines kept:
 * code is matched in it, so no mutant reaches into a comment and comment edits break none. */
static char *code_only(const char *text)
{
    size_t n = strlen(text);
    char *c = xstrndup(text, n);
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '"' || text[i] == '\'') {
            char q = text[i];
            for (i++; i < n && text[i] != q && text[i] != '\n'; i++)
                if (text[i] == '\\')
                    i++;
        } else if (text[i] == '/' && text[i + 1] == '*') {
            const char *e = strstr(text + i + 2, "*/");
            size_t end = e ? (size_t)(e - text) + 2 : n;
            for (; i < end; i++)
                if (c[i] != '\n')
                    c[i] = 1;
            i--;
        } else if (text[i] == '/' && text[i + 1] == '/') {
            for (; i < n && text[i] != '\n'; i++)
                c[i] = 1;
            i--;
        }
    }
    return c;
}

struct tag {
    char *name; /* RULE.ID or RULE.ID:suffix */
    size_t rule_len; /* length of the RULE.ID part */
    size_t src, line_start, line_end; /* the tagged line: [line_start, line_end) in the text, '\n' excluded */
    int line;
};

static bool tag_char(char ch, bool suffix)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
           (suffix && ((ch >= 'a' && ch <= 'z') || ch == '-'));
}

/* the tags of TEXT (inside comments only); returns their number */
static size_t find_tags(const char *text, size_t src, struct tag **out)
{
    char *code = code_only(text);
    struct tag *t = NULL;
    size_t n = 0, ls = 0;
    int line = 1;
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == '\n') {
            ls = i + 1;
            line++;
            continue;
        }
        if (text[i] != '@' || code[i] != 1 || !(text[i + 1] >= 'A' && text[i + 1] <= 'Z'))
            continue;
        size_t j = i + 1;
        while (tag_char(text[j], false))
            j++;
        while (j > i + 1 && text[j - 1] == '.')
            j--; /* a sentence's full stop is not part of the tag */
        size_t rl = j - i - 1;
        if (text[j] == ':' && tag_char(text[j + 1], true)) {
            j++;
            while (tag_char(text[j], true))
                j++;
        }
        if (!memchr(text + i + 1, '.', rl))
            continue; /* not a rule id (FAMILY.NAME at least) */
        const char *le = strchr(text + i, '\n');
        t = xrealloc(t, (n + 1) * sizeof *t);
        t[n] = (struct tag){xstrndup(text + i + 1, j - i - 1), rl, src, ls, le ? (size_t)(le - text) : strlen(text), line};
        n++;
        i = j - 1;
    }
    free(code);
    *out = t;
    return n;
}

static struct tag *tags;
static size_t ntags;

static void collect_tags(void)
{
    for (size_t s = 0; s < nsrcs; s++) {
        struct tag *t;
        size_t n = find_tags(srcs[s].text, s, &t);
        tags = xrealloc(tags, (ntags + n) * sizeof *tags);
        memcpy(tags + ntags, t, n * sizeof *t);
        ntags += n;
        free(t);
    }
}

/* ---------------------------------------------------------------- mutants */
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
static struct mutant *mutants;
static size_t nmutants;

/* parse DEF; returns the number of problems */
static int parse(const char *path)
{
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "mutate: cannot read %s\n", path);
        exit(2);
    }
    int problems = 0, lineno = 0;
    struct mutant *m = NULL;
    char **block = NULL; /* the field that '|' lines append to */
    int block_lines = 0;
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
            size_t old = strlen(*block), add = strlen(line + 1);
            char *s = xrealloc(*block, old + add + 2);
            if (block_lines++)
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
            mutants = xrealloc(mutants, (nmutants + 1) * sizeof *mutants);
            m = &mutants[nmutants++];
            memset(m, 0, sizeof *m);
            m->id = xstrndup(line + 1, (size_t)(end - line - 1));
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
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        char **f = NULL;
        struct edit *e = m->nedits ? &m->edits[m->nedits - 1] : NULL;
        if (!strcmp(line, "at")) {
            m->edits = xrealloc(m->edits, (m->nedits + 1) * sizeof *m->edits);
            e = &m->edits[m->nedits++];
            memset(e, 0, sizeof *e);
            e->line = lineno;
            f = &e->at;
        } else if (!strcmp(line, "kind"))
            f = &m->kind;
        else if (!strcmp(line, "desc"))
            f = &m->desc;
        else if (!strcmp(line, "equivalent"))
            f = &m->equivalent;
        else if (!strcmp(line, "from") || !strcmp(line, "to") || !strcmp(line, "move-after")) {
            if (!e) {
                fprintf(stderr, "%s:%d: '%s' before any 'at:' in mutant %s\n", path, lineno, line, m->id);
                problems++;
                continue;
            }
            f = line[0] == 'f' ? &e->from : line[0] == 't' ? &e->to : &e->after;
        } else {
            fprintf(stderr, "%s:%d: unknown field '%s' (at kind desc from to move-after equivalent)\n", path, lineno, line);
            problems++;
            continue;
        }
        if (*f) {
            fprintf(stderr, "%s:%d: field '%s' given twice in mutant %s (a second change starts with its own 'at:')\n", path, lineno,
                    line, m->id);
            problems++;
            continue;
        }
        *f = xstrdup(v);
        block_lines = 0;
        if (!*v)
            block = f; /* multi-line value may follow */
    }
    free(text);
    for (size_t i = 0; i < nmutants; i++) {
        m = &mutants[i];
        const char *missing = !m->kind ? "kind" : !m->desc ? "desc" : !m->nedits ? "at" : NULL;
        if (missing) {
            fprintf(stderr, "%s:%d: mutant %s has no '%s'\n", path, m->line, m->id, missing);
            problems++;
        }
        for (size_t k = 0; k < m->nedits; k++) {
            struct edit *e = &m->edits[k];
            const char *bad = !*e->at ? "'at' is empty"
                              : e->after ? (e->from || e->to ? "'move-after' goes without 'from' and 'to'" : NULL)
                              : !e->from || !e->to ? "a change needs 'from' and 'to' (or 'move-after')"
                              : !*e->from ? "'from' is empty"
                              : !strcmp(e->from, e->to) ? "'to' is the same as 'from'"
                                                        : NULL;
            if (bad) {
                fprintf(stderr, "%s:%d: mutant %s: %s\n", path, e->line, m->id, bad);
                problems++;
            }
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(mutants[j].id, m->id)) {
                fprintf(stderr, "%s:%d: duplicate mutant id %s (first at line %d)\n", path, m->line, m->id, mutants[j].line);
                problems++;
            }
    }
    return problems;
}

/* the line of the one tag NAME in TEXT, or a message and false */
static bool locate(const char *text, const char *name, const char *def, const struct mutant *m, const struct edit *e, struct tag *out)
{
    struct tag *t;
    size_t n = find_tags(text, 0, &t), hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(t[i].name, name) && !hits++)
            *out = t[i];
        free(t[i].name);
    }
    free(t);
    out->name = NULL;
    if (hits == 1)
        return true;
    fprintf(stderr, "%s:%d: mutant %s: the tag @%s occurs %zu times in its file (must be exactly once)%s\n", def, e->line, m->id, name,
            hits, hits ? "" : "; tag the reference line or fix 'at:'");
    return false;
}

/* end of the statement that begins on the line starting at LS: after its ';' or its block's '}'; then to the
 * end of that line (its newline included) */
static size_t statement_end(const char *text, const char *code, size_t ls)
{
    int depth = 0;
    size_t i = ls;
    for (; text[i]; i++) {
        char ch = code[i];
        if (ch == '"' || ch == '\'') {
            for (i++; text[i] && text[i] != ch; i++)
                if (text[i] == '\\')
                    i++;
        } else if (ch == '(' || ch == '[' || ch == '{')
            depth++;
        else if (ch == ')' || ch == ']' || ch == '}') {
            if (--depth <= 0 && ch == '}') {
                size_t j = i + 1;
                while (code[j] == ' ' || code[j] == '\t' || code[j] == '\n' || code[j] == 1)
                    j++;
                if (code[j] != ';' && code[j] != ',' && code[j] != ')')
                    break;
            }
        } else if (ch == ';' && depth == 0)
            break;
    }
    while (text[i] && text[i] != '\n')
        i++;
    return text[i] ? i + 1 : i;
}

/* apply edit E of M to *TEXT (the file's current text); false and a message when it does not apply */
static bool apply_edit(char **text, const struct mutant *m, const struct edit *e, const char *def)
{
    struct tag t;
    if (!locate(*text, e->at, def, m, e, &t))
        return false;
    char *src = *text, *code = code_only(src);
    size_t len = strlen(src), at = 0, fl = 0, tl = 0;
    const char *to = "";
    bool ok = false;
    if (e->after) {
        struct tag u;
        if (locate(src, e->after, def, m, e, &u)) {
            size_t a0 = t.line_start, a1 = statement_end(src, code, a0), b0 = u.line_start, b1 = statement_end(src, code, b0);
            if (a1 > b0 && b1 > a0)
                fprintf(stderr, "%s:%d: mutant %s: the statements at @%s and @%s overlap\n", def, e->line, m->id, e->at, e->after);
            else {
                /* A moves to just after B: swap the pieces [lo, mid) and [mid, hi) */
                size_t lo = a0 < b0 ? a0 : b1, mid = a0 < b0 ? a1 : a0, hi = a0 < b0 ? b1 : a1;
                char *out = xrealloc(NULL, len + 1);
                memcpy(out, src, lo);
                memcpy(out + lo, src + mid, hi - mid);
                memcpy(out + lo + hi - mid, src + lo, mid - lo);
                memcpy(out + hi, src + hi, len - hi + 1);
                free(src);
                *text = out;
                ok = true;
            }
        }
        free(code);
        return ok;
    }
    fl = strlen(e->from), tl = strlen(e->to), to = e->to;
    size_t hits = 0;
    if (!strchr(e->from, '\n')) {
        /* one line: FROM must occur exactly once in the code of the tagged line */
        for (size_t i = t.line_start; i + fl <= t.line_end; i++)
            if (!memcmp(code + i, e->from, fl) && !hits++)
                at = i;
        if (hits != 1)
            fprintf(stderr, "%s:%d: mutant %s: 'from' occurs %zu times in the code of the line tagged @%s (must be exactly once)%s\n", def,
                    e->line, m->id, hits, e->at, hits ? "; make it longer" : "; the tagged line changed: update the mutant");
    } else {
        /* several lines, verbatim: exactly once in the file, and covering the tagged line */
        for (const char *p = strstr(src, e->from); p; p = strstr(p + 1, e->from))
            if (!hits++)
                at = (size_t)(p - src);
        if (hits != 1)
            fprintf(stderr, "%s:%d: mutant %s: the multi-line 'from' occurs %zu times in the file (must be exactly once)\n", def, e->line,
                    m->id, hits);
        else if (at > t.line_end || at + fl < t.line_start) {
            fprintf(stderr, "%s:%d: mutant %s: the multi-line 'from' does not cover the line tagged @%s\n", def, e->line, m->id, e->at);
            hits = 0;
        }
    }
    free(code);
    if (hits != 1)
        return false;
    char *out = xrealloc(NULL, len - fl + tl + 1);
    memcpy(out, src, at);
    memcpy(out + at, to, tl);
    memcpy(out + at + tl, src + at + fl, len - at - fl + 1);
    free(src);
    *text = out;
    return true;
}

/* the index of the source holding the first tag of M (every change of a mutant is in one file) */
static long mutant_src(const struct mutant *m, const char *def)
{
    long s = -1;
    for (size_t k = 0; k < m->nedits; k++) {
        for (size_t i = 0; i < ntags; i++)
            if (!strcmp(tags[i].name, m->edits[k].at)) {
                if (s >= 0 && (size_t)s != tags[i].src) {
                    fprintf(stderr, "%s:%d: mutant %s: its changes are in two files (%s, %s)\n", def, m->edits[k].line, m->id,
                                srcs[s].path, srcs[tags[i].src].path);
                    return -2;
                }
                s = (long)tags[i].src;
            }
    }
    if (s == -1)
        fprintf(stderr, "%s:%d: mutant %s: no tag @%s in %s/*.c%s\n", def, m->line, m->id, m->nedits ? m->edits[0].at : "?", ref_dir,
                "; tag the reference line or fix 'at:'");
    return s;
}

/* the mutated text of M's file (NULL and a message when it does not apply) */
static char *mutated(const struct mutant *m, const char *def, long *src_out)
{
    long s = mutant_src(m, def);
    if (s < 0)
        return NULL;
    char *text = xstrdup(srcs[s].text);
    for (size_t k = 0; k < m->nedits; k++)
        if (!apply_edit(&text, m, &m->edits[k], def)) {
            free(text);
            return NULL;
        }
    if (src_out)
        *src_out = s;
    return text;
}

static void one_line(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

/* the rules of the tags on the lines that mutant M's changes are anchored to; calls FN for each */
static void mutant_rules(const struct mutant *m, void (*fn)(const struct tag *, const struct mutant *, void *), void *arg)
{
    for (size_t k = 0; k < m->nedits; k++)
        for (size_t i = 0; i < ntags; i++)
            if (!strcmp(tags[i].name, m->edits[k].at))
                for (size_t j = 0; j < ntags; j++)
                    if (tags[j].src == tags[i].src && tags[j].line == tags[i].line)
                        fn(&tags[j], m, arg);
}

static void mark_rule(const struct tag *t, const struct mutant *m, void *arg)
{
    const struct rule *r = rule_find(t->name, t->rule_len);
    if (r)
        ((size_t *)arg)[r - rules]++;
}

static void print_tag_mutant(const struct tag *t, const struct mutant *m, void *arg)
{
    if (t == arg)
        printf(" %s", m->id);
}

static void print_rule_mutant(const struct tag *t, const struct mutant *m, void *arg)
{
    const struct rule *r = arg;
    if (rule_find(t->name, t->rule_len) == r)
        printf(" %s", m->id);
}

static int check(const char *def, int problems)
{
    /* tags: each names a catalogue rule and occurs once */
    for (size_t i = 0; i < ntags; i++) {
        const struct tag *t = &tags[i];
        if (!rule_find(t->name, t->rule_len)) {
            fprintf(stderr, "%s:%d: tag @%s: no rule %.*s in the catalogue; use a rule id of spec/rules/*.def\n", srcs[t->src].path,
                    t->line, t->name, (int)t->rule_len, t->name);
            problems++;
        }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(tags[j].name, t->name)) {
                fprintf(stderr, "%s:%d: tag @%s also at %s:%d; make it unique with a suffix (@%s:NAME)\n", srcs[t->src].path, t->line,
                        t->name, srcs[tags[j].src].path, tags[j].line, t->name);
                problems++;
                break;
            }
    }
    /* mutants: each applies exactly once and changes its file */
    for (size_t i = 0; i < nmutants; i++) {
        long s;
        if (!mutants[i].nedits)
            continue; /* reported by parse() */
        char *t = mutated(&mutants[i], def, &s);
        if (!t)
            problems++;
        else if (!strcmp(t, srcs[s].text)) {
            fprintf(stderr, "%s:%d: mutant %s changes nothing\n", def, mutants[i].line, mutants[i].id);
            problems++;
        }
        free(t);
    }
    /* rules: every counted rule has a mutant on a line tagged with it */
    size_t *hits = xrealloc(NULL, (nrules + 1) * sizeof *hits), counted = 0;
    memset(hits, 0, (nrules + 1) * sizeof *hits);
    for (size_t i = 0; i < nmutants; i++)
        mutant_rules(&mutants[i], mark_rule, hits);
    for (size_t r = 0; r < nrules; r++) {
        counted += rules[r].counted;
        if (rules[r].counted && !hits[r]) {
            fprintf(stderr, "%s: counted rule %s has no mutant: tag the reference line that implements it and add a mutant 'at:' it\n",
                    def, rules[r].id);
            problems++;
        }
    }
    free(hits);
    if (problems) {
        fprintf(stderr, "mutate check: %d problem(s) in %s against %s/*.c\n", problems, def, ref_dir);
        return 1;
    }
    size_t eq = 0;
    for (size_t i = 0; i < nmutants; i++)
        eq += mutants[i].equivalent != NULL;
    printf("mutate check: %zu mutants (%zu listed as equivalent), each applies exactly once to %s/*.c; %zu tags, each names a rule; "
           "%zu counted rules, each with a mutant\n",
           nmutants, eq, ref_dir, ntags, counted);
    return 0;
}

int main(int argc, char **argv)
{
    const char *rules_path = "spec/rules.def";
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a += 2) {
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (a + 1 >= argc || (strcmp(argv[a], "--ref") && strcmp(argv[a], "--rules"))) {
            fprintf(stderr, "mutate: unknown option '%s'\n%s", argv[a], usage);
            return 2;
        }
        *(!strcmp(argv[a], "--ref") ? &ref_dir : &rules_path) = argv[a + 1];
    }
    if (argc - a < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[a], *def = argv[a + 1];
    read_rules(rules_path, 0);
    read_sources();
    collect_tags();
    int problems = parse(def);
    if (!strcmp(cmd, "check"))
        return check(def, problems);
    if (problems) {
        fprintf(stderr, "mutate: %d problem(s) in %s (run 'mutate check %s')\n", problems, def, def);
        return 1;
    }
    if (!strcmp(cmd, "list")) {
        for (size_t i = 0; i < nmutants; i++) {
            const struct mutant *m = &mutants[i];
            long s = mutant_src(m, def);
            if (s < 0)
                return 1;
            printf("%s\t%s\t%s\t%d\t", m->id, srcs[s].path, m->kind, m->equivalent != NULL);
            one_line(m->desc);
            putchar('\n');
        }
        return 0;
    }
    if (!strcmp(cmd, "tags") || !strcmp(cmd, "coverage")) {
        if (cmd[0] == 't')
            for (size_t i = 0; i < ntags; i++) {
                printf("%s\t%s:%d\t", tags[i].name, srcs[tags[i].src].path, tags[i].line);
                for (size_t k = 0; k < nmutants; k++)
                    mutant_rules(&mutants[k], print_tag_mutant, &tags[i]);
                putchar('\n');
            }
        else
            for (size_t r = 0; r < nrules; r++) {
                if (!rules[r].counted)
                    continue;
                printf("%s\t", rules[r].id);
                for (size_t k = 0; k < nmutants; k++)
                    mutant_rules(&mutants[k], print_rule_mutant, &rules[r]);
                putchar('\n');
            }
        return 0;
    }
    if (argc - a < 3) {
        fprintf(stderr, "mutate %s: needs a mutant id\n", cmd);
        return 2;
    }
    struct mutant *m = NULL;
    for (size_t i = 0; i < nmutants && !m; i++)
        m = strcmp(mutants[i].id, argv[a + 2]) ? NULL : &mutants[i];
    if (!m) {
        fprintf(stderr, "mutate: no mutant '%s' in %s\n", argv[a + 2], def);
        return 2;
    }
    if (!strcmp(cmd, "why")) {
        if (m->equivalent)
            printf("%s\n", m->equivalent);
        return 0;
    }
    long s = -1;
    char *t = mutated(m, def, &s);
    if (!t)
        return 1;
    if (!strcmp(cmd, "show")) {
        /* the lines that differ, between the common head and tail */
        const char *o = srcs[s].text, *n = t;
        size_t ol = strlen(o), nl = strlen(n), h = 0, tl = 0;
        while (h < ol && h < nl && o[h] == n[h])
            h++;
        while (h > 0 && o[h - 1] != '\n')
            h--;
        while (tl < ol - h && tl < nl - h && o[ol - 1 - tl] == n[nl - 1 - tl])
            tl++;
        while (tl > 0 && o[ol - tl] != '\n')
            tl--;
        printf("%s (%s, at @%s in %s): %s\n", m->id, m->kind, m->edits[0].at, srcs[s].path, m->desc);
        for (int side = 0; side < 2; side++) {
            const char *p = side ? n + h : o + h, *end = side ? n + nl - tl : o + ol - tl;
            while (p < end) {
                const char *e = memchr(p, '\n', (size_t)(end - p));
                size_t k = e ? (size_t)(e - p) : (size_t)(end - p);
                printf("  %c %.*s\n", side ? '+' : '-', (int)k, p);
                p += k + 1;
            }
        }
        free(t);
        return 0;
    }
    if (!strcmp(cmd, "apply")) {
        if (argc - a < 4) {
            fprintf(stderr, "mutate apply: needs an output file\n");
            return 2;
        }
        FILE *f = fopen(argv[a + 3], "wb");
        if (!f || fputs(t, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "mutate: cannot write %s\n", argv[a + 3]);
            return 1;
        }
        free(t);
        return 0;
    }
    fprintf(stderr, "mutate: unknown command '%s'\n%s", cmd, usage);
    return 2;
}
