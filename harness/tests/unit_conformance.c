/* harness/tests/unit_conformance.c - the example cases against the reference, in process,
 * with the codes they return. (Every case at every version: the conformance stage.) */
#define UNIT_SUITE "conformance of the reference"
#include "unit.h"

TEST(card_examples, "the issue's examples hold")
{
    static const struct {
        const char *id;
        unsigned v;
        etw_u32 rc;
    } ex[] = {
        {"tqi.0b.short", ETW_V10_0, ETW_ERROR_BAD_LENGTH}, /* exact-size ERROR_BAD_LENGTH */
        {"tqi.05.handle", ETW_V6_2, ETW_ERROR_INVALID_PARAMETER}, /* non-zero handle */
        {"tqi.class.unsupported-3", ETW_V10_0, ETW_ERROR_NOT_SUPPORTED}, /* unsupported class */
        {"gmi.set-before-62", ETW_V6_1, (etw_u32)ETW_STATUS_NOT_IMPLEMENTED}, /* set rejected before 6.2 */
    };
    struct etw_runner r = {0};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        const struct etw_case *c = etw_case_find(ex[i].id);
        CHECKF(c != NULL, "no case %s", ex[i].id);
        if (!c)
            continue;
        unit_runner_at(&r, ex[i].v);
        struct etw_result res;
        etw_run_case(&r, c, &res);
        CHECKF(res.status == R_PASS, "%s: %s %s", ex[i].id, etw_status_name(res.status), res.message);
        char want[64];
        etw_format_code(want, sizeof want, ex[i].rc, etw_fn_returns_ntstatus(c->fn));
        CHECKF(res.nchecks > 0 && !strcmp(res.checks[0].got, want), "%s: return %s, expected %s", ex[i].id,
               res.nchecks ? res.checks[0].got : "-", want);
    }
}

