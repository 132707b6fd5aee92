/* harness/suite/registry.c - every case table, and the cross-checks between rules, cases and
 * scenarios. */
#include "harness/suite/suite.h"
#include "harness/scenario.h"
#include <ctype.h>
#include <string.h>

/* Adding a case file: declare its table here and list it below. */
extern const struct etw_case_table cases_exports, cases_tqi, cases_tsi, cases_kernel, cases_ntc, cases_cti, cases_provider,
    cases_general, cases_clients;
static const struct etw_case_table *const etw_case_tables[] = {
    &cases_exports, &cases_tqi, &cases_tsi, &cases_kernel, &cases_ntc, &cases_cti, &cases_provider, &cases_general, &cases_clients, NULL,
};

size_t etw_case_total(void)
{
    size_t n = 0;
    for (int i = 0; etw_case_tables[i]; i++)
        n += etw_case_tables[i]->count;
    return n;
}

const struct etw_case *etw_case_at(size_t k)
{
    for (int i = 0; etw_case_tables[i]; i++) {
        if (k < etw_case_tables[i]->count)
            return &etw_case_tables[i]->cases[k];
        k -= etw_case_tables[i]->count;
    }
    return NULL;
}

const struct etw_case *etw_case_find(const char *id)
{
    for (size_t i = 0, n = etw_case_total(); i < n; i++)
        if (!strcmp(etw_case_at(i)->id, id))
            return etw_case_at(i);
    return NULL;
}

static bool rule_cited_by(enum etw_rule_id id, const struct etw_case *c)
{
    for (int k = 0; etw_case_rule(c, k); k++)
        if (etw_case_rule(c, k) == id)
            return true;
    for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin; k++) {
        const struct etw_expect *x = &c->expect[k];
        if (x->rc_rule == id || x->rl_rule == id || x->out_rule == id)
            return true;
    }
    return false;
}

/* one problem of etw_lint's, printed to f and counted */
#define PROBLEM(...) (fprintf(f, __VA_ARGS__), problems++)

static int scenario_lint(FILE *f);

int etw_lint(FILE *f)
{
    int problems = 0;
    size_t n = etw_case_total();
    for (size_t i = 0; i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        if (!c->id || !*c->id || !c->title) {
            PROBLEM("%s:%d: case needs .id, .title and .rules\n", c->file, c->line);
            continue;
        }
        for (const char *p = c->id; *p; p++)
            if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '_')) {
                PROBLEM("%s:%d: case id %s: use lower case, digits, '.', '-' and '_'\n", c->file, c->line, c->id);
                break;
            }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(etw_case_at(j)->id, c->id))
                PROBLEM("%s:%d: duplicate case id %s (first at %s:%d)\n", c->file, c->line, c->id, etw_case_at(j)->file,
                        etw_case_at(j)->line);
        if (!etw_case_rule(c, 0))
            PROBLEM("%s:%d: case %s cites no rule\n", c->file, c->line, c->id);
        if (!c->expect[0].vmin)
            PROBLEM("%s:%d: case %s has no expectation\n", c->file, c->line, c->id);
        if ((c->fn == FN_CUSTOM) != (c->run != NULL))
            PROBLEM("%s:%d: case %s: .run goes with .fn = FN_CUSTOM\n", c->file, c->line, c->id);
        for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin; k++) {
            const struct etw_expect *x = &c->expect[k];
            if (x->vmin > x->vmax)
                PROBLEM("%s:%d: case %s: expectation %d has an empty version range\n", c->file, c->line, c->id, k + 1);
            /* ranges may overlap only where an earlier one lies inside a later one: the build
             * (6.1.7601 with an update) before the NT version that holds it (6.1) */
            for (int m = 0; m < k; m++)
                if (!(x->vmax < c->expect[m].vmin || x->vmin > c->expect[m].vmax) &&
                    !(c->expect[m].vmin >= x->vmin && c->expect[m].vmax <= x->vmax))
                    PROBLEM("%s:%d: case %s: expectations %d and %d overlap (a narrower range may come first)\n", c->file, c->line,
                            c->id, m + 1, k + 1);
        }
    }
    /* the generated ids must name the catalogue's rules in its order (harness/rule_id.h) */
    static const char *const generated[] = {
#define RULE_ID(sym, str) str,
#include "rule_ids.def"
#undef RULE_ID
    };
    for (size_t i = 0; i < etw_rule_count; i++) {
        const struct etw_rule *r = &etw_rules[i];
        if (i >= sizeof generated / sizeof generated[0] || strcmp(generated[i], r->id))
            PROBLEM("spec: rule %s: the generated rule ids are out of date (make clean, then make)\n", r->id);
        bool cited = false;
        for (size_t k = 0; k < n && !cited; k++)
            cited = rule_cited_by((enum etw_rule_id)(i + 1), etw_case_at(k));
        bool exempt = r->strength == S_INFO && !strncmp(r->note, "Not testable", 12);
        if (!cited && !exempt)
            PROBLEM("spec: rule %s has no case; add one in cases/ that cites it\n", r->id);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(etw_rules[j].id, r->id))
                PROBLEM("spec: duplicate rule id %s\n", r->id);
    }
    problems += scenario_lint(f); /* client scenarios: programs, ids, steps */
    return problems;
}

static int scenario_lint(FILE *f)
{
    int problems = 0;
    size_t n = etw_case_total();
    for (size_t i = 0; i < etw_program_count; i++) {
        const struct etw_program *p = &etw_programs[i];
        bool has = false;
        for (size_t k = 0; k < n && !has; k++) {
            const struct etw_scenario *sc = etw_scenario_of(etw_case_at(k));
            has = sc && sc->program && !strcmp(sc->program, p->id);
        }
        if (!has)
            PROBLEM("spec/programs.def: program %s has no scenario; add one in cases/clients.c\n", p->id);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(etw_programs[k].id, p->id))
                PROBLEM("spec/programs.def: duplicate program id %s\n", p->id);
    }
    for (size_t k = 0; k < n; k++) {
        const struct etw_case *c = etw_case_at(k);
        const struct etw_scenario *sc = etw_scenario_of(c);
        bool client_id = c->id && !strncmp(c->id, "client.", 7);
        if (!sc) {
            if (client_id)
                PROBLEM("%s:%d: case %s: a client.* case must be a SCENARIO(...) row\n", c->file, c->line, c->id);
            continue;
        }
        char prefix[96];
        snprintf(prefix, sizeof prefix, "client.%s.", sc->program ? sc->program : "?");
        if (!etw_program_find(sc->program))
            PROBLEM("%s:%d: case %s: program '%s' is not in spec/programs.def\n", c->file, c->line, c->id, sc->program ? sc->program : "");
        else if (strncmp(c->id, prefix, strlen(prefix)))
            PROBLEM("%s:%d: case %s: a scenario id starts with %s\n", c->file, c->line, c->id, prefix);
        if (!sc->source || !*sc->source || etw_scenario_nsteps(sc) == 0)
            PROBLEM("%s:%d: case %s: a scenario needs its source file and at least one STEP\n", c->file, c->line, c->id);
        if (sc->logger && (sc->logger_step < 2 || sc->logger_step > etw_scenario_nsteps(sc)))
            PROBLEM("%s:%d: case %s: .logger_step must name a step from 2 on (a session needed from step 1 is the row's .fx)\n", c->file,
                    c->line, c->id);
        for (int i = 0; sc->steps[i].what; i++)
            if (!sc->steps[i].consequence || !*sc->steps[i].consequence)
                PROBLEM("%s:%d: case %s: step %d says no consequence\n", c->file, c->line, c->id, i + 1);
    }
    return problems;
}
