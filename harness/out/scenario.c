/* harness/out/scenario.c - the scenario fields of a record (harness/RESULTS.md) and of
 * `etwconf list --json`: the program, and the steps. */
#include "harness/out/out.h"
#include "harness/scenario.h"

static void program_json(struct etw_json *j, const struct etw_scenario *sc)
{
    const struct etw_program *p = etw_program_find(sc->program);
    char src[512];
    snprintf(src, sizeof src, "%s: %s", p ? p->repo : "?", sc->source && *sc->source ? sc->source : p ? p->source : "?");
    etw_json_obj(j, "program");
    ETW_JSON_STRS(j, "id", sc->program, "name", p ? p->name : NULL, "source", src);
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
            const struct etw_scenario_step *st = &sc->steps[step - 1];
            ETW_JSON_STRS(j, "step_what", st->what, "consequence", st->consequence);
        } else {
            /* the fault happened where the step could not be followed (before the program's first
             * call, or in a process whose memory the runner cannot read) */
            etw_json_raw(j, "step", "null");
            ETW_JSON_STRS(j, "step_what",
                          "unknown: the step reached was not passed back from where the case ran",
                          "consequence", "unknown");
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
        ETW_JSON_STRS(j, "what", sc->steps[i].what, "consequence", sc->steps[i].consequence);
        etw_json_end(j);
    }
    etw_json_end(j);
}
