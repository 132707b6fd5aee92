/*
 * tools/mutate/model.c - the mutate tool's reading and applying: the rule catalogue, the tags of the
 * reference sources, the mutants of tools/mutate/mutants.def, and a mutant applied to its file's
 * text (tools/mutate/README.md). The commands are in mutate.c.
 */
#include "tools/mutate/mutate.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xrealloc(void *p, size_t n)
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
struct rule *rules;
size_t nrules;

const struct rule *rule_find(const char *id, size_t len)
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
void read_rules(const char *path, int depth)
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
struct src *srcs;
size_t nsrcs;
const char *ref_dir = "reference";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void read_sources(void)
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

struct tag *tags;
size_t ntags;

void collect_tags(void)
{
    for (size_t s = 0; s < nsrcs; s++) {
        struct tag *t;
        size_t n = find_tags(srcs[s].text, s, &t);
        if (!n)
            continue; /* a file without tags (t is NULL) */
        tags = xrealloc(tags, (ntags + n) * sizeof *tags);
        memcpy(tags + ntags, t, n * sizeof *t);
        ntags += n;
        free(t);
    }
}

/* ---------------------------------------------------------------- mutants */
struct mutant *mutants;
size_t nmutants;

/* a problem with line LINENO of DEF: reported and counted */
static void bad_line(const char *path, int lineno, const char *what, int *problems)
{
    fprintf(stderr, "%s:%d: %s\n", path, lineno, what);
    (*problems)++;
}

/* an edit line's text after "at ": TAG: `FROM` -> `TO`, or TAG: move after TAG2; false when malformed */
static bool parse_edit(char *v, struct edit *e)
{
    char *sep = strstr(v, ": ");
    if (!sep)
        return false;
    e->at = xstrndup(v, (size_t)(sep - v));
    v = sep + 2;
    if (!strncmp(v, "move after ", 11)) {
        e->after = xstrdup(v + 11);
        return *e->after != 0;
    }
    size_t n = strlen(v);
    char *arrow = strstr(v, "` -> `");
    if (v[0] != '`' || !arrow || n < 8 || v[n - 1] != '`' || arrow + 6 > v + n - 1)
        return false;
    e->from = xstrndup(v + 1, (size_t)(arrow - v - 1));
    e->to = xstrndup(arrow + 6, (size_t)(v + n - 1 - (arrow + 6)));
    return true;
}

/* parse DEF (one header line per mutant, its changes and its equivalence reason indented under it);
 * returns the number of problems */
int parse(const char *path)
{
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "mutate: cannot read %s\n", path);
        exit(2);
    }
    int problems = 0, lineno = 0;
    struct mutant *m = NULL;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r')
            line[--ll] = 0;
        char *v = line;
        while (*v == ' ' || *v == '\t')
            v++;
        if (line[0] == '#' || *v == 0)
            continue;
        if (line[0] == '[') {
            /* [ID] KIND: DESCRIPTION */
            char *end = strchr(line, ']'), *colon = end ? strstr(end, ": ") : NULL;
            if (!end || end[1] != ' ' || !colon || colon == end + 2 || !colon[2]) {
                bad_line(path, lineno, "a mutant starts with '[id] kind: description'", &problems);
                m = NULL;
                continue;
            }
            mutants = xrealloc(mutants, (nmutants + 1) * sizeof *mutants);
            m = &mutants[nmutants++];
            memset(m, 0, sizeof *m);
            m->id = xstrndup(line + 1, (size_t)(end - line - 1));
            m->kind = xstrndup(end + 2, (size_t)(colon - end - 2));
            m->desc = xstrdup(colon + 2);
            m->line = lineno;
            continue;
        }
        if (!m || v == line) {
            bad_line(path, lineno, "expected '[id] kind: description' or an indented line under it", &problems);
            continue;
        }
        if (!strncmp(v, "equivalent: ", 12)) {
            if (m->equivalent)
                bad_line(path, lineno, "a second 'equivalent:' line", &problems);
            else
                m->equivalent = xstrdup(v + 12);
            continue;
        }
        if (strncmp(v, "at ", 3)) {
            bad_line(path, lineno, "expected 'at TAG: `FROM` -> `TO`', 'at TAG: move after TAG2' or 'equivalent: REASON'", &problems);
            continue;
        }
        m->edits = xrealloc(m->edits, (m->nedits + 1) * sizeof *m->edits);
        struct edit *e = &m->edits[m->nedits++];
        memset(e, 0, sizeof *e);
        e->line = lineno;
        if (!parse_edit(v + 3, e)) {
            bad_line(path, lineno, "a change is 'at TAG: `FROM` -> `TO`' or 'at TAG: move after TAG2'", &problems);
            m->nedits--;
        }
    }
    free(text);
    for (size_t i = 0; i < nmutants; i++) {
        m = &mutants[i];
        if (!m->nedits) {
            fprintf(stderr, "%s:%d: mutant %s has no change ('at TAG: ...' under it)\n", path, m->line, m->id);
            problems++;
        }
        for (size_t k = 0; k < m->nedits; k++) {
            struct edit *e = &m->edits[k];
            const char *bad = !*e->at ? "the tag after 'at' is empty"
                              : e->after ? NULL
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
            hits, hits ? "" : "; tag the reference line or fix its 'at' line");
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
    /* FROM must occur exactly once in the code of the tagged line */
    for (size_t i = t.line_start; i + fl <= t.line_end; i++)
        if (!memcmp(code + i, e->from, fl) && !hits++)
            at = i;
    if (hits != 1)
        fprintf(stderr, "%s:%d: mutant %s: 'from' occurs %zu times in the code of the line tagged @%s (must be exactly once)%s\n", def,
                e->line, m->id, hits, e->at, hits ? "; make it longer" : "; the tagged line changed: update the mutant");
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
long mutant_src(const struct mutant *m, const char *def)
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
                "; tag the reference line or fix its 'at' line");
    return s;
}

/* the mutated text of M's file (NULL and a message when it does not apply) */
char *mutated(const struct mutant *m, const char *def, long *src_out)
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

/* the rules of the tags on the lines that mutant M's changes are anchored to; calls FN for each */
void mutant_rules(const struct mutant *m, void (*fn)(const struct tag *, const struct mutant *, void *), void *arg)
{
    for (size_t k = 0; k < m->nedits; k++)
        for (size_t i = 0; i < ntags; i++)
            if (!strcmp(tags[i].name, m->edits[k].at))
                for (size_t j = 0; j < ntags; j++)
                    if (tags[j].src == tags[i].src && tags[j].line == tags[i].line)
                        fn(&tags[j], m, arg);
}

