/* cases/tsi.c - TraceSetInformation (spec/rules/tsi.def; research notes section B). */
#include "cases/common.h"

#define TSI_UNSUPPORTED(k)                                                                                                  \
    CASE(.id = "tsi.class.unsupported-" #k, .rules = RULES(RID_TSI_CLASS_SET), .title = "class " #k " cannot be set: ERROR_NOT_SUPPORTED", \
         .fn = FN_TSI, .args = {.cls = k, .len = 8}, .expect = {FROM(V6_1, .rc = ERR(NOT_SUPPORTED))})

/* a later class (spec/later-builds.md): not supported up to `absent`; from there on nothing states
 * its argument checks */
#define TSI_LATER(k, absent)                                                                                                 \
    CASE(.id = "tsi.class.later-" #k, .rules = RULES(RID_TSI_CLASS_LATER, RID_TSI_CLASS_SET),                                  \
         .title = "class " #k " cannot be set before the build that added it: ERROR_NOT_SUPPORTED", .fn = FN_TSI,             \
         .args = {.cls = k, .len = 8}, .expect = {AT(V6_1, absent, .rc = ERR(NOT_SUPPORTED)), UNKNOWN(ETW_VHI(absent) + 1, ETW_VMAX)})

static void tsi04_partial(struct etw_ctx *c);
static void tsi05_set(struct etw_ctx *c);
static void tsi0a_roundtrip(struct etw_ctx *c);

static const struct etw_case cases[] = {
    TSI_UNSUPPORTED(0) TSI_UNSUPPORTED(1) TSI_UNSUPPORTED(2) TSI_UNSUPPORTED(7) TSI_UNSUPPORTED(11) TSI_UNSUPPORTED(12)
    TSI_UNSUPPORTED(13) TSI_UNSUPPORTED(14) TSI_UNSUPPORTED(15) TSI_UNSUPPORTED(255)
    TSI_LATER(16, B_1703_LAST) TSI_LATER(17, B_1703_LAST) TSI_LATER(18, B_1703_LAST) TSI_LATER(19, B_1703_LAST)
    TSI_LATER(20, V10_0_17763) TSI_LATER(21, V10_0_17763) TSI_LATER(22, V10_0_17763)
    TSI_LATER(23, B_19H2_LAST) TSI_LATER(24, B_19H2_LAST) TSI_LATER(25, B_19H2_LAST) TSI_LATER(26, B_19H2_LAST)
    TSI_LATER(27, B_19H2_LAST) TSI_LATER(28, B_19H2_LAST)
    CASE(.id = "tsi.class.05-from-62", .rules = RULES(RID_TSI_CLASS_SET), .title = "class 0x05 can be set from 6.2 only", .fn = FN_TSI,
         .args = {.cls = 5, .len = 8}, .expect = {AT(V6_1, V6_1, .rc = ERR(NOT_SUPPORTED))})
    CASE(.id = "tsi.class.0a-from-10", .rules = RULES(RID_TSI_CLASS_SET), .title = "class 0x0A (TraceSetDisallowList) can be set from 10.0 only",
         .fn = FN_TSI, .args = {.cls = 0x0A, .len = 16}, .expect = {AT(V6_1, V6_3, .rc = ERR(NOT_SUPPORTED))})
    /* 0x03 TraceStackTracingInfo */
    CASE(.id = "tsi.03.partial-entry", .rules = RULES(RID_TSI_03_SIZE), .title = "23 bytes is not a whole CLASSIC_EVENT_ID: ERROR_INCORRECT_SIZE",
         .fn = FN_TSI, .args = {.cls = 3, .len = EXACT(-1)}, .expect = {FROM(V6_1, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.03.entry-and-a-byte", .rules = RULES(RID_TSI_03_SIZE), .title = "25 bytes is not a whole number of entries: ERROR_INCORRECT_SIZE",
         .fn = FN_TSI, .args = {.cls = 3, .len = EXACT(1)}, .expect = {FROM(V6_1, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.03.too-many", .rules = RULES(RID_TSI_03_SIZE), .title = "257 entries are more than 256: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 3, .len = 257 * 24}, .expect = {FROM(V6_1, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.03.empty-with-buffer", .rules = RULES(RID_TSI_03_EMPTY_BUFFER),
         .title = "length 0 with a non-NULL buffer turns stack tracing off, as TraceEvent relies on", .fn = FN_TSI,
         .args = {.cls = 3, .len = 0}, .expect = {FROM(V6_1, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.03.one-entry", .rules = RULES(RID_TSI_03_SET), .title = "one CLASSIC_EVENT_ID (SampledProfile) on a session: stack tracing on",
         .fn = FN_TSI, .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 3, .len = 24, IN(EVENT_ID(PERFINFO_GUID, 46))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.03.two-entries", .rules = RULES(RID_TSI_03_SET), .title = "two CLASSIC_EVENT_IDs (SampledProfile, CSwitch) on a session: stack tracing on",
         .fn = FN_TSI, .fx = {.logger = LG_KERNEL},
         .args = {.handle = H_LOGGER, .cls = 3, .len = 48, IN(EVENT_ID(PERFINFO_GUID, 46), EVENT_ID(THREAD_GUID, 36))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.03.empty-null", .rules = RULES(RID_TSI_03_EMPTY), .title = "length 0 with a NULL buffer turns stack tracing off", .fn = FN_TSI,
         .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 3, .buf = B_NULL, .len = 0},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    /* 0x04 TraceSystemTraceEnableFlagsInfo */
    CASE(.id = "tsi.04.partial-mask", .rules = RULES(RID_TSI_04_LENGTH), .title = "3 bytes is not a whole ULONG: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .fx = {.logger = LG_KERNEL}, .args = {.handle = H_LOGGER, .cls = 4, .len = 3}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.04.nine-masks", .rules = RULES(RID_TSI_04_LENGTH), .title = "nine masks are more than eight: ERROR_INVALID_PARAMETER, not ERROR_BAD_LENGTH",
         .fn = FN_TSI, .fx = {.logger = LG_KERNEL}, .args = {.handle = H_LOGGER, .cls = 4, .len = 36},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.04.two-masks", .rules = RULES(RID_TSI_04_LENGTH, RID_TSI_04_PARTIAL),
         .title = "8 bytes (two masks as one 64-bit value, as TraceEvent sends) are accepted", .fn = FN_TSI, .fx = {.logger = LG_SYSTEM},
         .args = {.handle = H_LOGGER, .cls = 4, .len = 8, IN(U32(ETW_EVENT_TRACE_FLAG_PROCESS | ETW_EVENT_TRACE_FLAG_THREAD), U32(0))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.04.all-zero", .rules = RULES(RID_TSI_04_LENGTH, RID_TSI_04_PARTIAL), .title = "eight zero masks (32 bytes) are accepted",
         .fn = FN_TSI, .fx = {.logger = LG_KERNEL, .masks = {0x3, 0x4}},
         .args = {.handle = H_LOGGER, .cls = 4, .len = 32, IN(U64(0), U64(0), U64(0), U64(0))}, .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.04.partial", .rules = RULES(RID_TSI_04_PARTIAL), .title = "setting one mask sets the other seven to 0", .fn = FN_CUSTOM,
         .run = tsi04_partial, .fx = {.logger = LG_KERNEL, .masks = {0x1, 0x10, 0x20, 0x40, 0x8000, 0, 0, 0}}, .expect = {FROM(V6_2)})
    CASE(.id = "tsi.04.no-access", .rules = RULES(RID_TSI_04_KERNEL, RID_GMI_SET_ACCESS, RID_GMI_SET_ACCESS_CODE),
         .title = "no TRACELOG_GUID_ENABLE access fails: ERROR_ACCESS_DENIED",
         .fn = FN_TSI, .fx = {.logger = LG_NOACCESS}, .args = {.handle = H_LOGGER, .cls = 4, .len = 32},
         .expect = {FROM(V6_2, .rc = ERR(ACCESS_DENIED), RC_RULE(RID_GMI_SET_ACCESS_CODE), FAILS(RID_GMI_SET_ACCESS))})
    /* the kernel's refusals fail the call (counted); their Win32 codes are the translation's (inferred) */
    CASE(.id = "tsi.04.no-privilege", .rules = RULES(RID_TSI_04_KERNEL, RID_GMI_PROFILE_PRIVILEGE, RID_TSI_04_KERNEL_CODE),
         .title = "PERF_PROFILE without SeSystemProfilePrivilege: ERROR_PRIVILEGE_NOT_HELD", .fn = FN_TSI,
         .fx = {.logger = LG_KERNEL, .profile_priv = PRIV_NOT_HELD},
         .args = {.handle = H_LOGGER, .cls = 4, .len = 8, IN(U32(0), U32(ETW_PERF_MASK_BIT(ETW_PERF_PROFILE)))},
         .expect = {FROM(V6_2, .rc = ERR(PRIVILEGE_NOT_HELD), RC_RULE(RID_TSI_04_KERNEL_CODE), FAILS(RID_GMI_PROFILE_PRIVILEGE))})
    CASE(.id = "tsi.04.missing-session", .rules = RULES(RID_TSI_04_SYSTEM_LOGGER, RID_TSI_04_KERNEL, RID_TSI_04_KERNEL_CODE),
         .title = "a handle naming no session: ERROR_WMI_INSTANCE_NOT_FOUND, not the NTSTATUS", .fn = FN_TSI,
         .args = {.handle = H_MISSING, .cls = 4, .len = 32},
         .expect = {FROM(V6_2, .rc = ERR(WMI_INSTANCE_NOT_FOUND), RC_RULE(RID_TSI_04_KERNEL_CODE), FAILS(RID_TSI_04_SYSTEM_LOGGER))})
    CASE(.id = "tsi.04.plain-session", .rules = RULES(RID_TSI_04_SYSTEM_LOGGER, RID_TSI_04_KERNEL, RID_TSI_04_KERNEL_CODE),
         .title = "a session without system-logger mode: ERROR_INVALID_PARAMETER", .fn = FN_TSI, .fx = {.logger = LG_PLAIN},
         .args = {.handle = H_LOGGER, .cls = 4, .len = 32},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER), RC_RULE(RID_TSI_04_KERNEL_CODE), FAILS(RID_TSI_04_SYSTEM_LOGGER))})
    CASE(.id = "tsi.04.logger-id-high", .rules = RULES(RID_TSI_04_HANDLE, RID_GMI_LOGGER_ID),
         .title = "bits above the low 16 of the SessionHandle do not change the session", .fn = FN_TSI, .fx = {.logger = LG_KERNEL},
         .args = {.handle = H_LOGGER_HIGH, .value = 0xABCD12340000ull, .cls = 4, .len = 8, IN(U32(3), U32(0))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.04.kernel-logger-id", .rules = RULES(RID_TSI_04_HANDLE, RID_GMI_KERNEL_LOGGER), .title = "SessionHandle 0xFFFF selects the NT Kernel Logger",
         .fn = FN_TSI, .fx = {.logger = LG_KERNEL}, .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 4, .len = 8, IN(U32(3), U32(0))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.04.kernel-id-no-logger", .rules = RULES(RID_TSI_04_SYSTEM_LOGGER, RID_GMI_KERNEL_LOGGER, RID_TSI_04_KERNEL_CODE),
         .title = "SessionHandle 0xFFFF when no NT Kernel Logger runs: ERROR_WMI_INSTANCE_NOT_FOUND", .fn = FN_TSI,
         .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 4, .len = 8, IN(U32(3), U32(0))},
         .expect = {FROM(V6_2, .rc = ERR(WMI_INSTANCE_NOT_FOUND), RC_RULE(RID_TSI_04_KERNEL_CODE), FAILS(RID_TSI_04_SYSTEM_LOGGER))})
    /* 0x05 TraceSampledProfileIntervalInfo */
    CASE(.id = "tsi.05.handle", .rules = RULES(RID_TSI_05_HANDLE_ZERO), .title = "class 0x05 with a non-zero SessionHandle: ERROR_INVALID_PARAMETER",
         .fn = FN_TSI, .args = {.handle = H_VALUE, .value = 1, .cls = 5, .len = EXACT(0)}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.05.handle-kernel", .rules = RULES(RID_TSI_05_HANDLE_ZERO), .title = "class 0x05 with the kernel logger's handle 0xFFFF: ERROR_INVALID_PARAMETER",
         .fn = FN_TSI, .fx = {.profile_priv = PRIV_HELD}, .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 5, .len = 8, IN(U32(ETW_ProfileTime), U32(10000))},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.05.handle-session", .rules = RULES(RID_TSI_05_HANDLE_ZERO),
         .title = "class 0x05 with a running session's handle, as google/orbit#2823 tried: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .fx = {.logger = LG_SYSTEM, .profile_priv = PRIV_HELD}, .args = {.handle = H_LOGGER, .cls = 5, .len = 8, IN(U32(ETW_ProfileTime), U32(10000))},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.05.short", .rules = RULES(RID_TSI_05_EXACT_SIZE), .title = "7 bytes for class 0x05: ERROR_BAD_LENGTH", .fn = FN_TSI,
         .args = {.cls = 5, .len = EXACT(-1)}, .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tsi.05.long", .rules = RULES(RID_TSI_05_EXACT_SIZE), .title = "9 bytes for class 0x05: ERROR_BAD_LENGTH", .fn = FN_TSI,
         .args = {.cls = 5, .len = EXACT(1)}, .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tsi.05.set", .rules = RULES(RID_TSI_05_SET), .title = "a timer interval that is set is what a query returns", .fn = FN_CUSTOM,
         .run = tsi05_set, .fx = {.profile_priv = PRIV_HELD}, .expect = {FROM(V6_2)})
    CASE(.id = "tsi.05.pmc-source", .rules = RULES(RID_TSI_05_SET), .needs = NEED_PMC_SOURCES, .title = "an interval for a profile source other than the timer is accepted",
         .fn = FN_TSI, .fx = {.profile_priv = PRIV_HELD}, .args = {.cls = 5, .len = 8, IN(U32(ETW_ProfileTotalIssues), U32(65536))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.05.source-above-24", .rules = RULES(RID_TSI_05_HAL_SOURCES, RID_TSI_05_SET), .needs = NEED_PMC_SOURCES,
         .title = "an interval for a listed profile source above ProfileMaximum (26) is accepted", .fn = FN_TSI,
         .fx = {.profile_priv = PRIV_HELD}, .args = {.cls = 5, .len = 8, IN(U32(26), U32(8192))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    /* 0x06 TraceProfileSourceConfigInfo */
    CASE(.id = "tsi.06.set", .rules = RULES(RID_TSI_06_SET), .needs = NEED_PMC_SOURCES, .title = "two profile sources with the privilege held are accepted", .fn = FN_TSI,
         .fx = {.profile_priv = PRIV_HELD}, .args = {.cls = 6, .len = 8, IN(U32(ETW_ProfileTotalIssues), U32(19))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.06.partial", .rules = RULES(RID_TSI_06_SIZE), .title = "2 bytes is not a whole ULONG: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 6, .len = 2}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.06.five", .rules = RULES(RID_TSI_06_SIZE), .title = "five sources are more than four: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 6, .len = 20}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.06.zero", .rules = RULES(RID_TSI_06_SIZE), .title = "no sources: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 6, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.06.null", .rules = RULES(RID_TSI_06_SIZE), .title = "a NULL buffer with a length: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 6, .buf = B_NULL, .len = 4}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.06.privilege", .rules = RULES(RID_TSI_06_PRIVILEGE), .title = "configuring a profile source without SeSystemProfilePrivilege fails",
         .fn = FN_TSI, .fx = {.profile_priv = PRIV_NOT_HELD}, .args = {.cls = 6, .len = 4, IN(U32(ETW_ProfileTotalIssues))},
         .expect = {FROM(V6_2, .rc = ERR(PRIVILEGE_NOT_HELD))})
    /* 0x08 TracePmcEventListInfo, 0x09 TracePmcCounterListInfo */
    CASE(.id = "tsi.08.partial", .rules = RULES(RID_TSI_08_SIZE), .title = "23 bytes is not a whole CLASSIC_EVENT_ID: ERROR_INCORRECT_SIZE",
         .fn = FN_TSI, .args = {.cls = 8, .len = 23}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.08.five", .rules = RULES(RID_TSI_08_SIZE), .title = "five events are more than four: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 8, .len = 5 * 24}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.08.empty-with-buffer", .rules = RULES(RID_TSI_08_EMPTY_BUFFER), .title = "an empty list with a buffer: ERROR_INVALID_PARAMETER",
         .fn = FN_TSI, .args = {.cls = 8, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.08.set", .rules = RULES(RID_TSI_08_SET), .title = "three PMC events (CSwitch, system call enter and exit) on a system session",
         .fn = FN_TSI, .fx = {.logger = LG_SYSTEM},
         .args = {.handle = H_LOGGER, .cls = 8, .len = 72, IN(EVENT_ID(THREAD_GUID, 36), EVENT_ID(PERFINFO_GUID, 51), EVENT_ID(PERFINFO_GUID, 52))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.09.set", .rules = RULES(RID_TSI_09_SET), .title = "two PMC counters on a system session are accepted", .fn = FN_TSI,
         .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 9, .len = 8, IN(U32(ETW_ProfileTotalIssues), U32(19))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "tsi.09.partial", .rules = RULES(RID_TSI_09_SIZE), .title = "3 bytes is not a whole ULONG: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 9, .len = 3}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.09.five", .rules = RULES(RID_TSI_09_SIZE), .title = "five counters are more than four: ERROR_INCORRECT_SIZE", .fn = FN_TSI,
         .args = {.cls = 9, .len = 20}, .expect = {FROM(V6_2, .rc = ERR(INCORRECT_SIZE))})
    CASE(.id = "tsi.09.zero", .rules = RULES(RID_TSI_09_SIZE), .title = "no counters: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 9, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.09.null", .rules = RULES(RID_TSI_09_SIZE), .title = "a NULL buffer with a length: ERROR_INVALID_PARAMETER", .fn = FN_TSI,
         .args = {.cls = 9, .buf = B_NULL, .len = 8}, .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    /* 0x0A TraceSetDisallowList */
    CASE(.id = "tsi.0a.roundtrip", .rules = RULES(RID_TSI_0A_DISALLOW), .title = "a disallow list that is set is what class 0x0E returns",
         .fn = FN_CUSTOM, .run = tsi0a_roundtrip, .fx = {.logger = LG_SYSTEM}, .expect = {FROM(V10_0)})
    CASE(.id = "tsi.0a.bad-logger", .rules = RULES(RID_TSI_0A_BAD_LOGGER), .title = "class 0x0A for a handle naming no session: ERROR_INVALID_PARAMETER",
         .fn = FN_TSI, .args = {.handle = H_MISSING, .cls = 0x0A, .len = 16, IN(GUIDB(DAL_G1))}, .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tsi.0a.no-kernel-alias", .rules = RULES(RID_TSI_0A_BAD_LOGGER),
         .title = "class 0x0A does not read SessionHandle 0xFFFF as the NT Kernel Logger", .fn = FN_TSI, .fx = {.logger = LG_KERNEL},
         .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 0x0A, .len = 16, IN(GUIDB(DAL_G1))}, .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER))})
    /* added for mutation testing (tools/mutate): a non-zero handle with an input that would succeed */
    CASE(.id = "tsi.05.handle-valid-input", .rules = RULES(RID_TSI_05_HANDLE_ZERO),
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
    return CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "query back: return", 0, rc);
}

static void tsi04_partial(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    if (!tsi)
        return;
    etw_u32 one = 0x3, m[8];
    etw_u32 rc = tsi(c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, &one, 4);
    if (!CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 0, rc) || !query_masks(c, c->fixture.logger, m))
        return;
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: Masks[0]", 3, m[0]);
    etw_u32 rest = 0;
    for (int i = 1; i < 8; i++)
        rest |= m[i];
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: Masks[1..7] ORed", 0, rest);
}

static void tsi05_set(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    etw_pfn_TraceQueryInformation tqi = tsi ? API(c, etw_pfn_TraceQueryInformation, FN_TQI) : NULL;
    if (!tqi)
        return;
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 20000}, q = {ETW_ProfileTime, 0};
    etw_u32 rc = tsi(0, ETW_TraceSampledProfileIntervalInfo, &pi, sizeof pi);
    if (!CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 0, rc))
        return;
    rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, &q, sizeof q, NULL);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "query back: return", 0, rc);
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: Interval", 20000, q.Interval);
}

static void tsi0a_roundtrip(struct etw_ctx *c)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    etw_pfn_TraceQueryInformation tqi = tsi ? API(c, etw_pfn_TraceQueryInformation, FN_TQI) : NULL;
    if (!tqi)
        return;
    etw_u32 rc = tsi(c->fixture.logger, ETW_TraceSetDisallowList, (void *)dal_two, sizeof dal_two);
    if (!CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 0, rc))
        return;
    etw_guid got[4];
    etw_u32 len = 0;
    rc = tqi(c->fixture.logger, ETW_TraceDisallowListQuery, got, sizeof got, &len);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "query back: return", 0, rc);
    CHECK_U32(c, RID_PRIMARY, A_STATE, "query back: length", sizeof dal_two, len);
    CHECK(c, RID_PRIMARY, A_STATE, "state: the list", len == sizeof dal_two && !memcmp(got, dal_two, sizeof dal_two), "the two GUIDs set", "%s",
              len == sizeof dal_two && !memcmp(got, dal_two, sizeof dal_two) ? "the two GUIDs set" : "other GUIDs");
}
