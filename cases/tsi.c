/* cases/tsi.c - TraceSetInformation (spec/rules/tsi.def; research notes section B). */
#include "cases/common.h"

#define TSI_UNSUPPORTED(k)                                                                                                  \
    CASE(.id = "tsi.class.unsupported-" #k, .rules = "TSI.CLASS.SET", .title = "class " #k " cannot be set: ERROR_NOT_SUPPORTED", \
         .fn = FN_TSI, .args = {.cls = k, .len = 8}, .expect = {FROM(V6_1, .rc = ERR(NOT_SUPPORTED))})

static void tsi04_partial(struct etw_ctx *c);
static void tsi05_set(struct etw_ctx *c);
static void tsi05_set_source(struct etw_ctx *c);
static void tsi0a_roundtrip(struct etw_ctx *c);

static const struct etw_case cases[] = {
    TSI_UNSUPPORTED(0) TSI_UNSUPPORTED(1) TSI_UNSUPPORTED(2) TSI_UNSUPPORTED(7) TSI_UNSUPPORTED(11) TSI_UNSUPPORTED(12)
    TSI_UNSUPPORTED(13) TSI_UNSUPPORTED(14) TSI_UNSUPPORTED(15) TSI_UNSUPPORTED(255)
    CASE(.id = "tsi.class.05-from-62", .rules = "TSI.CLASS.SET", .title = "class 0x05 can be set from 6.2 only", .fn = FN_TSI,
         .args = {.cls = 5, .len = 8}, .expect = {AT(V6_1, V6_1, .rc = ERR(NOT_SUPPORTED))})
    CASE(.id = "tsi.class.0a-from-10", .rules = "TSI.CLASS.SET", .title = "class 0x0A (TraceSetDisallowList) can be set from 10.0 only",
         .fn = FN_TSI, .args = {.cls = 0x0A, .len = 16}, .expect = {AT(V6_1, V6_3, .rc = ERR(NOT_SUPPORTED))})
    /* 0x03 TraceStackTracingInfo */
    CASE(.id = "tsi.03.partial-entry", .rules = "TSI.03.SIZE", .title = "23 bytes is not a whole CLASSIC_EVENT_ID: ERROR_INCORRECT_SIZE",
         .fn = FN_TSI, .args = {.cls = 3, .len = EXACT(-1)}, .expect = {FROM(V6_1, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.03.entry-and-a-byte", .rules = "TSI.03.SIZE", .title = "25 bytes is not a whole number of entries: ERROR_INCORRECT_SIZE",
         .fn = FN_TSI, .args = {.cls = 3, .len = EXACT(1)}, .expect = {FROM(V6_1, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.03.too-many", .rules = "TSI.03.SIZE", .title = "257 entries are more than 256: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 3, .len = 257 * 24}, .expect = {FROM(V6_1, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.03.empty-with-buffer", .rules = "TSI.03.EMPTY", .title = "length 0 with a buffer: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 3, .len = 0}, .expect = {FROM(V6_1, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.03.empty-null", .rules = "TSI.03.EMPTY", .title = "length 0 with a NULL buffer turns stack tracing off", .fn = FN_TSI,
         .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 3, .buf = B_NULL, .len = 0},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    /* 0x04 TraceSystemTraceEnableFlagsInfo */
    CASE(.id = "tsi.04.partial-mask", .rules = "TSI.04.LENGTH", .title = "3 bytes is not a whole ULONG: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .fx = {.logger = LG_KERNEL}, .args = {.handle = H_LOGGER, .cls = 4, .len = 3}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.04.nine-masks", .rules = "TSI.04.LENGTH", .title = "nine masks are more than eight: ERROR_INVALID_PARAMETER, not ERROR_BAD_LENGTH",
         .fn = FN_TSI, .fx = {.logger = LG_KERNEL}, .args = {.handle = H_LOGGER, .cls = 4, .len = 36},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.04.partial", .rules = "TSI.04.PARTIAL", .title = "setting one mask sets the other seven to 0", .fn = FN_CUSTOM,
         .run = tsi04_partial, .fx = {.logger = LG_KERNEL, .masks = {0x1, 0x10, 0x20, 0x40, 0x8000, 0, 0, 0}}, .expect = {FROM(V6_2)})
    CASE(.id = "tsi.04.no-access", .rules = "TSI.04.KERNEL GMI.SET_ACCESS", .title = "no TRACELOG_GUID_ENABLE access: ERROR_ACCESS_DENIED",
         .fn = FN_TSI, .fx = {.logger = LG_NOACCESS}, .args = {.handle = H_LOGGER, .cls = 4, .len = 32},
         .expect = {FROM(V6_2, .rc = ERR(ACCESS_DENIED))})
    CASE(.id = "tsi.04.no-privilege", .rules = "TSI.04.KERNEL GMI.PROFILE_PRIVILEGE",
         .title = "PERF_PROFILE without SeSystemProfilePrivilege: ERROR_PRIVILEGE_NOT_HELD", .fn = FN_TSI,
         .fx = {.logger = LG_KERNEL, .profile_priv = PRIV_NOT_HELD},
         .args = {.handle = H_LOGGER, .cls = 4, .len = 8, IN(U32(0), U32(ETW_PERF_MASK_BIT(ETW_PERF_PROFILE)))},
         .expect = {FROM(V6_2, .rc = ERR(PRIVILEGE_NOT_HELD))})
    /* 0x05 TraceSampledProfileIntervalInfo */
    CASE(.id = "tsi.05.handle", .rules = "TSI.05.HANDLE_ZERO", .title = "class 0x05 with a non-zero SessionHandle: ERROR_INVALID_PARAMETER",
         .fn = FN_TSI, .args = {.handle = H_VALUE, .value = 1, .cls = 5, .len = EXACT(0)}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.05.short", .rules = "TSI.05.EXACT_SIZE", .title = "7 bytes for class 0x05: ERROR_BAD_LENGTH", .fn = FN_TSI,
         .args = {.cls = 5, .len = EXACT(-1)}, .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tsi.05.long", .rules = "TSI.05.EXACT_SIZE", .title = "9 bytes for class 0x05: ERROR_BAD_LENGTH", .fn = FN_TSI,
         .args = {.cls = 5, .len = EXACT(1)}, .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tsi.05.set", .rules = "TSI.05.SET", .title = "a timer interval that is set is what a query returns", .fn = FN_CUSTOM,
         .run = tsi05_set, .fx = {.profile_priv = PRIV_HELD}, .expect = {FROM(V6_2)})
    CASE(.id = "tsi.05.set-source", .rules = "TSI.05.SET",
         .title = "an interval set for a profile source other than the timer is what a query for that source returns", .fn = FN_CUSTOM,
         .run = tsi05_set_source, .fx = {.profile_priv = PRIV_HELD}, .expect = {FROM(V6_2)})
    /* 0x06 TraceProfileSourceConfigInfo */
    CASE(.id = "tsi.06.partial", .rules = "TSI.06.SIZE", .title = "2 bytes is not a whole ULONG: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 6, .len = 2}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.06.five", .rules = "TSI.06.SIZE", .title = "five sources are more than four: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 6, .len = 20}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.06.zero", .rules = "TSI.06.SIZE", .title = "no sources: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 6, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.06.null", .rules = "TSI.06.SIZE", .title = "a NULL buffer with a length: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 6, .buf = B_NULL, .len = 4}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.06.privilege", .rules = "TSI.06.PRIVILEGE", .title = "configuring a profile source without SeSystemProfilePrivilege fails",
         .fn = FN_TSI, .fx = {.profile_priv = PRIV_NOT_HELD}, .args = {.cls = 6, .len = 4, IN(U32(ETW_ProfileTotalIssues))},
         .expect = {FROM(V6_2, .rc = ERR(PRIVILEGE_NOT_HELD))})
    /* 0x08 TracePmcEventListInfo, 0x09 TracePmcCounterListInfo */
    CASE(.id = "tsi.08.partial", .rules = "TSI.08.SIZE", .title = "23 bytes is not a whole CLASSIC_EVENT_ID: ERROR_INCORRECT_SIZE",
         .fn = FN_TSI, .args = {.cls = 8, .len = 23}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.08.five", .rules = "TSI.08.SIZE", .title = "five events are more than four: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 8, .len = 5 * 24}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.08.empty-with-buffer", .rules = "TSI.08.SIZE", .title = "an empty list with a buffer: ERROR_INVALID_PARAMETER",
         .fn = FN_TSI, .args = {.cls = 8, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.09.partial", .rules = "TSI.09.SIZE", .title = "3 bytes is not a whole ULONG: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 9, .len = 3}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.09.five", .rules = "TSI.09.SIZE", .title = "five counters are more than four: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 9, .len = 20}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.09.zero", .rules = "TSI.09.SIZE", .title = "no counters: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 9, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.09.null", .rules = "TSI.09.SIZE", .title = "a NULL buffer with a length: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 9, .buf = B_NULL, .len = 8}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    /* 0x0A TraceSetDisallowList */
    CASE(.id = "tsi.0a.roundtrip", .rules = "TSI.0A.DISALLOW", .title = "a disallow list that is set is what class 0x0E returns",
         .fn = FN_CUSTOM, .run = tsi0a_roundtrip, .fx = {.logger = LG_SYSTEM}, .expect = {FROM(V10_0)})
    /* added for mutation testing (tools/mutate): a non-zero handle with an input that would succeed */
    CASE(.id = "tsi.05.handle-valid-input", .rules = "TSI.05.HANDLE_ZERO",
         .title = "class 0x05 with a non-zero SessionHandle and a valid timer interval: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.handle = H_VALUE, .value = 1, .cls = 5, .len = EXACT(0), IN(U32(ETW_ProfileTime), U32(10000))},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
};
CASE_TABLE(cases_tsi, cases);

static bool query_masks(struct etw_ctx *c, etw_tracehandle h, etw_u32 masks[8])
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    if (!tqi)
        return false;
    etw_u32 rc = tqi(h, ETW_TraceSystemTraceEnableFlagsInfo, masks, 32, NULL);
    return etw_check_code(c, "query back: return", NULL, 0, rc, false);
}

static void tsi04_partial(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    if (!tsi)
        return;
    etw_u32 one = 0x3, m[8];
    etw_u32 rc = tsi(c->logger, ETW_TraceSystemTraceEnableFlagsInfo, &one, 4);
    if (!etw_check_code(c, "return", NULL, 0, rc, false) || !query_masks(c, c->logger, m))
        return;
    etw_check_u32(c, "state: Masks[0]", NULL, 3, m[0]);
    etw_u32 rest = 0;
    for (int i = 1; i < 8; i++)
        rest |= m[i];
    etw_check_u32(c, "state: Masks[1..7] ORed", NULL, 0, rest);
}

static void tsi05_set(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    etw_pfn_TraceQueryInformation tqi = tsi ? API(c, etw_pfn_TraceQueryInformation, FN_TQI) : NULL;
    if (!tqi)
        return;
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 20000}, q = {ETW_ProfileTime, 0};
    etw_u32 rc = tsi(0, ETW_TraceSampledProfileIntervalInfo, &pi, sizeof pi);
    if (!etw_check_code(c, "return", NULL, 0, rc, false))
        return;
    rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, &q, sizeof q, NULL);
    etw_check_code(c, "query back: return", NULL, 0, rc, false);
    etw_check_u32(c, "state: Interval", NULL, 20000, q.Interval);
}

/* ProfileTotalIssues goes through NtSetIntervalProfile(Interval, Source): the arguments in that
 * order. The source's interval is system-wide: the case puts back the value it found. */
static void tsi05_set_source(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    etw_pfn_TraceQueryInformation tqi = tsi ? API(c, etw_pfn_TraceQueryInformation, FN_TQI) : NULL;
    if (!tqi)
        return;
    ETW_TRACE_PROFILE_INTERVAL old = {ETW_ProfileTotalIssues, 0}, q = {ETW_ProfileTotalIssues, 0};
    etw_u32 rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, &old, sizeof old, NULL);
    if (!etw_check_code(c, "query before: return", NULL, 0, rc, false))
        return;
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTotalIssues, old.Interval == 131072 ? 262144 : 131072};
    rc = tsi(0, ETW_TraceSampledProfileIntervalInfo, &pi, sizeof pi);
    if (!etw_check_code(c, "return", NULL, 0, rc, false))
        return;
    rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, &q, sizeof q, NULL);
    etw_check_code(c, "query back: return", NULL, 0, rc, false);
    etw_check_u32(c, "state: Interval", NULL, pi.Interval, q.Interval);
    rc = tsi(0, ETW_TraceSampledProfileIntervalInfo, &old, sizeof old);
    etw_check_code(c, "restore: return", NULL, 0, rc, false);
}

static void tsi0a_roundtrip(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    etw_pfn_TraceQueryInformation tqi = tsi ? API(c, etw_pfn_TraceQueryInformation, FN_TQI) : NULL;
    if (!tqi)
        return;
    etw_u32 rc = tsi(c->logger, ETW_TraceSetDisallowList, (void *)dal_two, sizeof dal_two);
    if (!etw_check_code(c, "return", NULL, 0, rc, false))
        return;
    etw_guid got[4];
    etw_u32 len = 0;
    rc = tqi(c->logger, ETW_TraceDisallowListQuery, got, sizeof got, &len);
    etw_check_code(c, "query back: return", NULL, 0, rc, false);
    etw_check_u32(c, "query back: length", NULL, sizeof dal_two, len);
    etw_check(c, "state: the list", NULL, len == sizeof dal_two && !memcmp(got, dal_two, sizeof dal_two), "the two GUIDs set", "%s",
              len == sizeof dal_two && !memcmp(got, dal_two, sizeof dal_two) ? "the two GUIDs set" : "other GUIDs");
}
