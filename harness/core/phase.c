/* harness/core/phase.c - where a running case is (fixture or calls) and so which budget holds;
 * below both run.c and check.c, which move a case between phases. */
#include "harness/core/core.h"

unsigned etw_phase_budget_ms(const struct etw_runner *r, enum etw_phase p)
{
    if (p == ETW_PHASE_FIXTURE)
        return r->fixture_ms ? r->fixture_ms : ETW_FIXTURE_BUDGET_MS;
    return r->timeout_ms;
}

void etw_phase(struct etw_ctx *ctx, enum etw_phase p)
{
    struct etw_runner *r = ctx->r;
    if (!r)
        return;
    r->phase_now = (int)p;
    plat_deadline_ms(etw_phase_budget_ms(r, p));
    if (r->on_phase)
        r->on_phase(r->phase_arg, p);
}
