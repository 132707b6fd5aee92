/* harness/core/scenario.c - client scenarios (harness/scenario.h): the program table of
 * spec/programs.def, the step slot, running a scenario. */
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
