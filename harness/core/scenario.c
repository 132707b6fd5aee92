/*
 * harness/core/scenario.c - client scenarios (harness/scenario.h): the program table of
 * spec/programs.def, the step slot, and the scenario fields of records, lists and lint.
 */
#include "harness/scenario.h"
#include <string.h>

#define PROGRAM(id, name, repo, source, note) {id, name, repo, source, note},
const struct etw_program etw_programs[] = {
#include "spec/programs.def"
};
#undef PROGRAM
const size_t etw_program_count = sizeof etw_programs / sizeof etw_programs[0];

const struct etw_program *etw_program_find(const char *id)
{
    for (size_t i = 0; id && i < etw_program_count; i++)
        if (!strcmp(etw_programs[i].id, id))
            return &etw_programs[i];
    return NULL;
}

static struct etw_step_slot own_slot;
struct etw_step_slot *volatile etw_step_slot = &own_slot;

const struct etw_scenario *etw_scenario_of(const struct etw_case *c)
{
    return c && c->fn == FN_CUSTOM && c->run == etw_scenario_run ? (const struct etw_scenario *)c->data : NULL;
}

int etw_scenario_nsteps(const struct etw_scenario *s)
{
    int n = 0;
    while (s->steps[n].what)
        n++;
    return n;
}

static bool has_failure(const struct etw_result *res)
{
    for (int i = 0; i < res->nchecks; i++)
        if (!res->checks[i].ok)
            return true;
    return false;
}

bool etw_step(struct etw_ctx *c, int n)
{
    struct etw_step_slot *s = etw_step_slot;
    const struct etw_scenario *sc = etw_scenario_of(c->c);
    if (s->c != c->c || !sc)
        return !c->stop; /* not run through etw_scenario_run */
    if (!s->fail_step && has_failure(c->res))
        s->fail_step = s->step;
    s->step = n;
    if (sc->logger && n == sc->logger_step && !c->fixture.have_logger) {
        static const etw_u32 none[8];
        if (!etw_start_logger(c, sc->logger, none, &c->fixture.logger))
            return false;
        c->fixture.have_logger = true; /* stopped with the fixture */
    }
    return !c->stop;
}

void etw_scenario_run(struct etw_ctx *c)
{
    const struct etw_scenario *sc = etw_scenario_of(c->c);
    struct etw_step_slot *s = etw_step_slot;
    if (!sc || !sc->body) {
        etw_broken(c, "suite: scenario row %s has no body", c->c->id);
        return;
    }
    s->fail_step = 0;
    s->step = 1;
    s->c = c->c;
    sc->body(c);
    if (!s->fail_step && has_failure(c->res))
        s->fail_step = s->step;
}

static void program_json(struct etw_json *j, const struct etw_scenario *sc)
{
    const struct etw_program *p = etw_program_find(sc->program);
    char src[512];
    snprintf(src, sizeof src, "%s: %s", p ? p->repo : "?", sc->source && *sc->source ? sc->source : p ? p->source : "?");
    etw_json_obj(j, "program");
    etw_json_str(j, "id", sc->program);
    etw_json_str(j, "name", p ? p->name : NULL);
    etw_json_str(j, "source", src);
    etw_json_end(j);
}

void etw_scenario_record(struct etw_json *j, const struct etw_result *res)
{
    const struct etw_scenario *sc = etw_scenario_of(res->c);
    if (!sc)
        return;
    struct etw_step_slot *s = etw_step_slot;
    bool mine = s->c == res->c;
    program_json(j, sc);
    if (res->status == R_FAIL || res->status == R_CRASH || res->status == R_TIMEOUT) {
        int step = !mine ? 0 : res->status == R_FAIL && s->fail_step ? s->fail_step : s->step;
        if (step >= 1 && step <= etw_scenario_nsteps(sc)) {
            etw_json_int(j, "step", step);
            etw_json_str(j, "step_what", sc->steps[step - 1].what);
            etw_json_str(j, "consequence", sc->steps[step - 1].consequence);
        } else {
            /* the fault happened where the step could not be followed (before the program's first
             * call, or in a process whose memory the runner cannot read) */
            etw_json_raw(j, "step", "null");
            etw_json_str(j, "step_what", "unknown: the step reached was not passed back from where the case ran");
            etw_json_str(j, "consequence", "unknown");
        }
    }
    if (mine)
        s->c = NULL; /* recorded: a later fault must not reuse this step */
}

void etw_scenario_list_json(struct etw_json *j, const struct etw_case *c)
{
    const struct etw_scenario *sc = etw_scenario_of(c);
    if (!sc)
        return;
    program_json(j, sc);
    etw_json_arr(j, "steps");
    for (int i = 0; sc->steps[i].what; i++) {
        etw_json_obj(j, NULL);
        etw_json_str(j, "what", sc->steps[i].what);
        etw_json_str(j, "consequence", sc->steps[i].consequence);
        etw_json_end(j);
    }
    etw_json_end(j);
}

int etw_scenario_lint(FILE *f)
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
        if (!has) {
            fprintf(f, "spec/programs.def: program %s has no scenario; add one in cases/clients.c\n", p->id);
            problems++;
        }
        for (size_t k = 0; k < i; k++)
            if (!strcmp(etw_programs[k].id, p->id)) {
                fprintf(f, "spec/programs.def: duplicate program id %s\n", p->id);
                problems++;
            }
    }
    for (size_t k = 0; k < n; k++) {
        const struct etw_case *c = etw_case_at(k);
        const struct etw_scenario *sc = etw_scenario_of(c);
        bool client_id = c->id && !strncmp(c->id, "client.", 7);
        if (!sc) {
            if (client_id) {
                fprintf(f, "%s:%d: case %s: a client.* case must be a SCENARIO(...) row\n", c->file, c->line, c->id);
                problems++;
            }
            continue;
        }
        char prefix[96];
        snprintf(prefix, sizeof prefix, "client.%s.", sc->program ? sc->program : "?");
        if (!etw_program_find(sc->program)) {
            fprintf(f, "%s:%d: case %s: program '%s' is not in spec/programs.def\n", c->file, c->line, c->id, sc->program ? sc->program : "");
            problems++;
        } else if (strncmp(c->id, prefix, strlen(prefix))) {
            fprintf(f, "%s:%d: case %s: a scenario id starts with %s\n", c->file, c->line, c->id, prefix);
            problems++;
        }
        if (!sc->source || !*sc->source || etw_scenario_nsteps(sc) == 0) {
            fprintf(f, "%s:%d: case %s: a scenario needs its source file and at least one STEP\n", c->file, c->line, c->id);
            problems++;
        }
        if (sc->logger && (sc->logger_step < 2 || sc->logger_step > etw_scenario_nsteps(sc))) {
            fprintf(f, "%s:%d: case %s: .logger_step must name a step from 2 on (a session needed from step 1 is the row's .fx)\n", c->file,
                    c->line, c->id);
            problems++;
        }
        for (int i = 0; sc->steps[i].what; i++)
            if (!sc->steps[i].consequence || !*sc->steps[i].consequence) {
                fprintf(f, "%s:%d: case %s: step %d says no consequence\n", c->file, c->line, c->id, i + 1);
                problems++;
            }
    }
    return problems;
}
