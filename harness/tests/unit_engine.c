/*
 * harness/tests/unit_engine.c - the call engine on its own (harness/core/fixture.c, call.c):
 * fixture status and reason, handles from the fixture state, a row's call and its outcome.
 */
#define UNIT_SUITE "call engine"
#include "unit.h"
#include <stdlib.h>

/* each test's fixture state and the reason its setup gave (the tests run one at a time) */
static struct etw_fixture_state st;
static char why[256];

TEST(fixture_status_and_reason,
     "fixture setup returns its status and reason; handles come from its state")
{
    struct etw_target *ref = unit_reference_at(ETW_V10_0), t = *ref;
    const struct etw_fixture logger = {.logger = LG_SYSTEM};
    /* no control function: a need the caller checks first (harness/core/needs.c); set up without
     * it, BROKEN with the reason, nothing half set up */
    t.start_logger = NULL;
    CU_ASSERT_EQUAL(etw_needs_check(&t, etw_fixture_needs(&logger), why, sizeof why), NEED_SYSTEM_SESSION);
    CU_ASSERT_EQUAL(etw_fixture_setup(&t, NULL, &logger, false, &st, why, sizeof why), ETW_FX_BROKEN);
    CHECKF(strstr(why, "EtwRef_StartLogger") && strstr(why, "system-logger session"), "why: %s", why);
    CU_ASSERT(!st.have_logger);
    /* the reference sets it up; the handle selectors read the state */
    CU_ASSERT_EQUAL_FATAL(etw_fixture_setup(ref, NULL, &logger, false, &st, why, sizeof why), ETW_FX_OK);
    CU_ASSERT(st.have_logger && !st.have_logger2);
    CU_ASSERT_EQUAL(etw_call_handle(ref, &st, H_LOGGER, 0), st.logger);
    CU_ASSERT_EQUAL(etw_call_handle(ref, &st, H_LOGGER_HIGH, 0x10000), st.logger | 0x10000);
    CU_ASSERT_EQUAL(etw_call_handle(ref, &st, H_LOGGER2, 0), 0);
    CU_ASSERT_EQUAL(etw_call_handle(ref, &st, H_VALUE, 0x1234), 0x1234);
    etw_fixture_teardown(ref, &st);
    CU_ASSERT(!st.have_logger);
    CU_ASSERT_EQUAL(etw_call_handle(ref, &st, H_LOGGER, 0), 0);
    /* a function the fixture calls is missing: MISSING names it (the runner records the export failure) */
    void *fns[FN_COUNT] = {0};
    const struct etw_fixture dal = {.logger = LG_SYSTEM, .disallow = &etw_fixture_provider_guid, .ndisallow = 1};
    CU_ASSERT_EQUAL(etw_fixture_setup(ref, fns, &dal, false, &st, why, sizeof why), ETW_FX_MISSING);
    CU_ASSERT_EQUAL(st.missing, FN_TSI);
    etw_fixture_teardown(ref, &st);
}

TEST(fixture_classes, "fixture classes: handles, counter preset, nothing dangling after teardown")
{
    struct etw_target *t = unit_reference_at(ETW_V10_0);
    const struct etw_fixture fx = {.classes = 2, .set_counter = true, .counter = 7};
    CU_ASSERT_EQUAL_FATAL(etw_fixture_setup(t, NULL, &fx, false, &st, why, sizeof why), ETW_FX_OK);
    CU_ASSERT(st.have_classic && st.nclasses == 2 && st.regs[0].RegHandle && st.regs[1].RegHandle);
    CU_ASSERT_EQUAL(etw_call_handle(t, &st, H_CLASS, 1), (etw_u64)(uintptr_t)st.regs[1].RegHandle);
    CU_ASSERT_EQUAL(etw_call_handle(t, &st, H_CLASS, 2), 0); /* past the classes: no dangling handle */
    /* the counter preset holds: the next instance id follows it */
    ETW_EVENT_INSTANCE_INFO info;
    etw_pfn_CreateTraceInstanceId cti = (etw_pfn_CreateTraceInstanceId)etw_resolve(t, FN_CTI, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cti);
    EQ_U32(cti(st.regs[0].RegHandle, &info), 0);
    EQ_U32(info.InstanceId, 8);
    etw_fixture_teardown(t, &st);
    CU_ASSERT_EQUAL(etw_call_handle(t, &st, H_CLASS, 0), 0);
}

/* guarded buffers for etw_call as the runner hands them out: kept in a case's context */
static struct etw_result gres;
static struct etw_ctx gctx = {.res = &gres};
static struct etw_guard *guard(void *arg, size_t len)
{
    return etw_guarded(&gctx, len) ? gctx.guards[gctx.nguards - 1] : NULL;
}

TEST(call_outcome, "a row's call: return code, ReturnLength, buffers and their before-images")
{
    struct etw_target *t = unit_reference_at(ETW_V10_0);
    const struct etw_fixture none = {0};
    CU_ASSERT_EQUAL_FATAL(etw_fixture_setup(t, NULL, &none, false, &st, why, sizeof why), ETW_FX_OK);
    void *tqi = etw_resolve(t, FN_TQI, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tqi);
    /* TraceVersionInfo with its exact size: success, ReturnLength 8, the buffer written */
    struct etw_args a = {.cls = ETW_TraceVersionInfo, .len = 0, .len_rel = true};
    struct etw_outcome o;
    CU_ASSERT_FATAL(etw_call(t, &st, &none, FN_TQI, tqi, &a, guard, NULL, &o, why, sizeof why));
    EQ_U32(o.rc, ETW_ERROR_SUCCESS);
    CU_ASSERT(o.retlen_passed && o.retlen_written);
    EQ_U32(o.retlen, 8);
    CU_ASSERT(o.buf && o.len == 8 && !o.out && o.before);
    CU_ASSERT(o.before && !memcmp(o.before, "\xDE\xAD\xBE\xEF\xDE\xAD\xBE\xEF", 8)); /* the sentinel before the call */
    CU_ASSERT(o.buf && memcmp(o.buf->buf, o.before, 8) != 0);
    etw_outcome_free(&o);
    /* one byte short: the error, ReturnLength written, the input bytes kept in the before-image */
    struct etw_args s = {.cls = ETW_TraceVersionInfo, .len = -1, .len_rel = true, .in = (const etw_u8[]){0x42}, .in_len = 1};
    CU_ASSERT_FATAL(etw_call(t, &st, &none, FN_TQI, tqi, &s, guard, NULL, &o, why, sizeof why));
    EQ_U32(o.rc, ETW_ERROR_BAD_LENGTH);
    CU_ASSERT(o.len == 7 && o.before && o.before[0] == 0x42 && o.before[1] == 0xAD);
    etw_outcome_free(&o);
    /* ReturnLength NULL: not passed, so not written */
    s.retlen_null = true;
    CU_ASSERT_FATAL(etw_call(t, &st, &none, FN_TQI, tqi, &s, guard, NULL, &o, why, sizeof why));
    CU_ASSERT(!o.retlen_passed && !o.retlen_written);
    etw_outcome_free(&o);
    /* a function rows cannot call: false, with the reason */
    CU_ASSERT(!etw_call(t, &st, &none, FN_EVENTREGISTER, tqi, &a, guard, NULL, &o, why, sizeof why));
    CHECKF(strstr(why, "cannot be called from a data row") != NULL, "why: %s", why);
    etw_outcome_free(&o);
    etw_fixture_teardown(t, &st);
    while (gctx.nguards) {
        etw_guard_free(gctx.guards[--gctx.nguards]);
        free(gctx.guards[gctx.nguards]);
    }
}
