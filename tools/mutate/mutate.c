/*
 * tools/mutate/mutate.c - applies the mutants of tools/mutate/mutants.def to the reference.
 *
 * A mutant is anchored to a tag, "@TQI.04.MIN_SIZE" in a comment on the reference line that
 * implements a rule of the catalogue (spec/rules.def), and changes that line, not a piece of
 * surrounding text: renaming a parameter, editing a comment or moving a function breaks no
 * mutant. See tools/mutate/README.md for the format and what 'check' verifies. This file has the
 * commands; model.c reads the catalogue, the sources and the mutants, and applies a mutant.
 *
 * Exit status: 0 ok, 1 a mutant, tag or rule is broken (the message says which and what to do),
 * 2 usage or an unreadable file.
 */
#include <errno.h>
#include "tools/mutate/mutate.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: mutate [--ref DIR] [--rules FILE] COMMAND DEF [ARGS]\n"
    "  check DEF            every tag in DIR names a catalogue rule and occurs once; every mutant applies\n"
    "                       exactly once on its tagged line; every counted rule has a mutant\n"
    "  list DEF             one line per mutant: id TAB file TAB kind TAB equivalent(0|1) TAB description\n"
    "  apply DEF ID OUT     write the file of mutant ID, with the mutation applied, to OUT\n"
    "  apply-each DEF DIR [ID...]  the same for each mutant (or each ID) into DIR/ID/FILE.c\n"
    "  show DEF ID          the mutant as a small diff\n"
    "  why DEF ID           the equivalence reason (empty when the mutant is not equivalent)\n"
    "  tags DEF             every tag: tag TAB file:line TAB the ids of the mutants anchored on its line\n"
    "  coverage DEF         every counted rule and the mutants anchored on a line tagged with it\n"
    "options: --ref DIR     the reference sources (default: reference)\n"
    "         --rules FILE  the rule catalogue (default: spec/rules.def)\n"
    "A counted rule is one of strength MUST whose provenance is not INFERRED.\n";

static void one_line(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
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
            fprintf(stderr, "%s: counted rule %s has no mutant: tag the reference line that implements it and add a mutant with an 'at' line on it\n",
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

static bool write_text(const char *path, const char *t)
{
    FILE *f = fopen(path, "wb");
    if (!f || fputs(t, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "mutate: cannot write %s\n", path);
        return false;
    }
    return true;
}

/* apply-each DEF DIR [ID...]: each mutant (or each one named) to DIR/ID/FILE.c, one process for all */
static int apply_each(const char *def, int n, char **arg)
{
    int bad = 0, found = 0;
    for (size_t i = 0; i < nmutants; i++) {
        int k = 1;
        while (k < n && strcmp(arg[k], mutants[i].id))
            k++;
        if (n > 1 && k == n)
            continue;
        found++;
        long s = -1;
        char *t = mutated(&mutants[i], def, &s), out[4096];
        snprintf(out, sizeof out, "%s/%s", arg[0], mutants[i].id);
        if (t && (mkdir(out, 0777) == 0 || errno == EEXIST)) {
            const char *base = strrchr(srcs[s].path, '/');
            snprintf(out, sizeof out, "%s/%s/%s", arg[0], mutants[i].id, base ? base + 1 : srcs[s].path);
        }
        bad += !t || !write_text(out, t);
        free(t);
    }
    if (n > 1 && found < n - 1)
        fprintf(stderr, "mutate: %d of the ids given are not in %s\n", n - 1 - found, def);
    return bad || (n > 1 && found < n - 1) ? 1 : 0;
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
    if (!strcmp(cmd, "apply-each")) {
        if (argc - a > 2)
            return apply_each(def, argc - a - 2, argv + a + 2);
        fprintf(stderr, "mutate apply-each: needs an output directory\n");
        return 2;
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
        bool ok = write_text(argv[a + 3], t);
        free(t);
        return ok ? 0 : 1;
    }
    fprintf(stderr, "mutate: unknown command '%s'\n%s", cmd, usage);
    return 2;
}
