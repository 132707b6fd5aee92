/*
 * harness/core/fixture.c - a row's fixture (struct etw_fixture) set up on a target and torn down.
 * Its needs are checked before (needs.c); the setup says what happened (enum etw_fx): BROKEN when a
 * step fails, MISSING when the target lacks a function it calls, SKIP only when the target's own
 * fixture function says the system cannot give it now. The caller (core/run.c, tools/fuzz) decides.
 */
#include "harness/core/core.h"
#include <string.h>

const etw_guid etw_fixture_control_guid = {0xE7C0F000, 0x7E57, 0x4E7C, {0x9a, 0x11, 0x00, 0x00, 0xc0, 0xf0, 0x00, 0x01}};
const etw_guid etw_fixture_provider_guid = {0xE7C0F001, 0x7E57, 0x4E7C, {0x9a, 0x11, 0x00, 0x00, 0xc0, 0xf0, 0x00, 0x02}};

static etw_u32 ETW_WINAPI request_cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    return 0;
}

enum etw_fx etw_fixture_logger(struct etw_target *t, enum etw_logger_kind kind, const etw_u32 masks[8], etw_tracehandle *h,
                               char *why, size_t len)
{
    if (!t->start_logger) /* a need (etw_logger_needs) the caller checks first */
        FX_BROKEN("suite: a %s was set up without checking its needs: the target has no EtwRef_StartLogger",
                  etw_logger_kind_title(kind));
    why[0] = 0;
    enum etw_fx st = t->start_logger(t, (unsigned)kind, masks, h, why, len); /* a live target says why */
    if (st != ETW_FX_OK && !why[0])
        FX_BROKEN("fixture: could not start a %s", etw_logger_kind_title(kind));
    return st;
}

/* the target's function fn: from the caller's table, or resolved; NULL sets st->missing */
static void *api(struct etw_target *t, void *const *fns, enum etw_fn fn, struct etw_fixture_state *st)
{
    void *p = fns ? fns[fn] : etw_resolve(t, fn, NULL);
    if (!p)
        st->missing = fn;
    return p;
}

enum etw_fx etw_fixture_setup(struct etw_target *t, void *const *fns, const struct etw_fixture *fx, bool stale_reg,
                              struct etw_fixture_state *st, char *why, size_t len)
{
    enum etw_fx r;
    memset(st, 0, sizeof *st);
    if (fx->logger) {
        if ((r = etw_fixture_logger(t, fx->logger, fx->masks, &st->logger, why, len)) != ETW_FX_OK)
            return r;
        st->have_logger = true;
    }
    if (fx->logger2) {
        static const etw_u32 none[8];
        if ((r = etw_fixture_logger(t, fx->logger2, none, &st->logger2, why, len)) != ETW_FX_OK)
            return r;
        st->have_logger2 = true;
    }
    if (fx->ndisallow) {
        /* fixtures use the target's own API: a missing export is the target's failure */
        etw_pfn_TraceSetInformation tsi = (etw_pfn_TraceSetInformation)api(t, fns, FN_TSI, st);
        if (!tsi)
            return ETW_FX_MISSING;
        etw_u32 rc = tsi(st->logger, ETW_TraceSetDisallowList, (void *)fx->disallow, 16u * (etw_u32)fx->ndisallow);
        if (rc)
            FX_BROKEN("fixture: TraceSetInformation(TraceSetDisallowList, %d GUIDs) returned %u",
                      fx->ndisallow, rc);
    }
    if (fx->classes) {
        etw_pfn_RegisterTraceGuidsW rtg = (etw_pfn_RegisterTraceGuidsW)api(t, fns, FN_REGISTERTRACEGUIDS, st);
        if (!rtg)
            return ETW_FX_MISSING;
        int n = fx->classes > 4 ? 4 : fx->classes;
        for (int i = 0; i < n; i++) {
            st->reg_guids[i] = etw_fixture_control_guid;
            st->reg_guids[i].Data4[7] = (etw_u8)(0x10 + i);
            st->regs[i].Guid = &st->reg_guids[i];
            st->regs[i].RegHandle = NULL;
        }
        /* a RequestContext, as real callers pass one (dotnet/wpf ETWtrace.cpp passes `this`): ReactOS's
         * ntdll rejects a NULL one with 87, which would leave every instance-id case BROKEN there; the
         * NULL context itself is the case rtg.null-context (RTG.NULL_CONTEXT) */
        etw_u32 rc = rtg(request_cb, st, &etw_fixture_control_guid, (etw_u32)n, st->regs, NULL, NULL, &st->classic);
        if (rc)
            FX_BROKEN("fixture: RegisterTraceGuidsW with %d classes returned %u", n, rc);
        st->have_classic = true;
        st->nclasses = n;
        etw_handle class0 = st->regs[0].RegHandle;
        if (fx->foreign_pid && (!t->set_class_pid || t->set_class_pid(class0, 0x4242)))
            FX_BROKEN("fixture: EtwRef_SetClassProcessId failed");
        if (fx->set_counter && (!t->set_class_counter || t->set_class_counter(class0, fx->counter)))
            FX_BROKEN("fixture: EtwRef_SetClassCounter failed");
    }
    if (fx->provider) {
        etw_pfn_EventRegister er = (etw_pfn_EventRegister)api(t, fns, FN_EVENTREGISTER, st);
        etw_pfn_EventUnregister eu = er ? (etw_pfn_EventUnregister)api(t, fns, FN_EVENTUNREGISTER, st) : NULL;
        if (!eu)
            return ETW_FX_MISSING;
        etw_u32 rc = er(&etw_fixture_provider_guid, NULL, NULL, &st->reg);
        if (rc)
            FX_BROKEN("fixture: EventRegister returned %u", rc);
        st->have_reg = true;
        if (stale_reg && ((rc = er(&etw_fixture_provider_guid, NULL, NULL, &st->stale_reg)) || (rc = eu(st->stale_reg))))
            FX_BROKEN("fixture: registering and unregistering a second provider failed with %u", rc);
    }
    if (fx->profile_priv) {
        why[0] = 0;
        enum etw_fx ps = !t->set_privilege ? ETW_FX_BROKEN
                                           : t->set_privilege(t, 1 /* ETWREF_PRIV_SYSTEM_PROFILE */, fx->profile_priv == PRIV_HELD, why, len);
        if (ps != ETW_FX_OK && why[0])
            return ps;
        if (ps != ETW_FX_OK)
            FX_BROKEN("fixture: EtwRef_SetPrivilege failed");
    }
    if (fx->fail_alloc && !t->fail_alloc) /* armed by the call engine (core/call.c) right before the call */
        FX_BROKEN("suite: allocation fault injection was set up without checking its need: the target has no "
                  "EtwRef_FailAllocation");
    return ETW_FX_OK;
}

void etw_fixture_teardown(struct etw_target *t, struct etw_fixture_state *st)
{
    if (t->fail_alloc)
        t->fail_alloc(0);
    if (st->have_reg) {
        etw_pfn_EventUnregister eu = (etw_pfn_EventUnregister)etw_resolve(t, FN_EVENTUNREGISTER, NULL);
        if (eu)
            eu(st->reg);
        st->have_reg = false;
    }
    if (st->have_classic) {
        etw_pfn_UnregisterTraceGuids ug = (etw_pfn_UnregisterTraceGuids)etw_resolve(t, FN_UNREGISTERTRACEGUIDS, NULL);
        if (ug)
            ug(st->classic);
        st->have_classic = false;
    }
    if (st->have_logger2 && t->stop_logger)
        t->stop_logger(st->logger2);
    if (st->have_logger && t->stop_logger)
        t->stop_logger(st->logger);
    st->have_logger = st->have_logger2 = false;
}
