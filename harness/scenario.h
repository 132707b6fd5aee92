/*
 * harness/scenario.h - client scenarios: a case that replays, in order, the calls a real program
 * makes (spec/programs.def names the programs, cases/clients.c holds the scenarios).
 *
 * A scenario is an ordinary FN_CUSTOM row whose .run is etw_scenario_run and whose .data is a
 * struct etw_scenario: the program, its public source file, the body, and the steps as data (what
 * call is made, and what the program does when that call does not behave as it relies on):
 *
 *   CASE(.id = "client.perfview.profile-sources", .rules = RULES(RID_TQI_07_NULL_PROBE, ...), .title = "...",
 *        SCENARIO("perfview", "src/TraceEvent/TraceEventSession.cs", perfview_sources,
 *                 STEPS(STEP("TQI(0, 0x07, NULL, 0, &len) with len = 0", "len 0 means no sources: no PMC is offered"),
 *                       STEP("TQI(0, 0x07, buf, len, &len)", "throws"))),
 *        .expect = {FROM(V6_2)})
 *
 * The body says where it is with etw_step(c, n) (1-based; the body starts at step 1) and makes its
 * checks with the ordinary check API. The step reached is kept in a slot that outlives a fault (in
 * process, and on POSIX in memory shared with the parent of a worker process); the record's
 * scenario fields: harness/RESULTS.md.
 */
#ifndef ETWCONF_SCENARIO_H
#define ETWCONF_SCENARIO_H

#include "harness/core/core.h"

struct etw_program {
    const char *id, *name, *repo, *source, *note;
};
extern const struct etw_program etw_programs[]; /* spec/programs.def */
extern const size_t etw_program_count;
const struct etw_program *etw_program_find(const char *id);

struct etw_scenario_step {
    const char *what; /* the call made at this step, with its arguments */
    const char *consequence; /* what the program does when the call does not behave as it relies on */
};
struct etw_scenario {
    const char *program; /* an id of spec/programs.def */
    const char *source; /* the program's public source file this scenario replays (path in its repository) */
    etw_custom_fn body;
    const struct etw_scenario_step *steps; /* ends with {NULL} */
    /* the session the program starts itself, after its first calls: the harness starts it when
     * the body reaches step logger_step (a session needed from the start is the row's .fx) */
    enum etw_logger_kind logger;
    int logger_step;
};
#define STEP(what, consequence) {(what), (consequence)}
#define STEPS(...) .steps = (const struct etw_scenario_step[]){__VA_ARGS__, {NULL, NULL}}
/* SCENARIO(program, source, body, [.logger = LG_..., .logger_step = n,] STEPS(STEP(...), ...)) */
#define SCENARIO(prog, src, body_fn, ...)                                                                                  \
    .fn = FN_CUSTOM, .run = etw_scenario_run,                                                                             \
    .data = &(const struct etw_scenario){.program = (prog), .source = (src), .body = (body_fn), __VA_ARGS__}

/* the .run of every scenario row: starts step 1, runs the body, notes the step of the first failure */
void etw_scenario_run(struct etw_ctx *c);
/* the body is at step n (1-based); false when the case has ended (the scenario's session could not
 * be started there: BROKEN) */
bool etw_step(struct etw_ctx *c, int n);
/* the scenario of a case, or NULL for an ordinary row */
const struct etw_scenario *etw_scenario_of(const struct etw_case *c);
int etw_scenario_nsteps(const struct etw_scenario *s);

/* the step a running scenario has reached, kept where a fault cannot lose it */
struct etw_step_slot {
    const struct etw_case *c; /* the scenario running (or last run and not yet recorded), NULL if none */
    int step; /* the step reached */
    int fail_step; /* the step of the first failed check, 0 if none */
};
/* points at process memory by default; a platform may point it at memory its workers share */
extern struct etw_step_slot *volatile etw_step_slot;

/* their JSON fields: harness/out/out.h; their lint: etw_lint (harness/suite/suite.h) */

#endif
