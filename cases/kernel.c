/* cases/kernel.c - NtQuerySystemInformation / NtSetSystemInformation class 0x1F (spec/rules/kernel.def). */
#include "cases/common.h"

#define SPTI ETW_SystemPerformanceTraceInformation
#define KM {0x00000003, 0, 0x00001000, 0, 0x00008000, 0, 0, 0}
#define KM_BYTES U32(3), U32(0), U32(0x1000), U32(0), U32(0x8000), U32(0), U32(0), U32(0)
#define PBIT(p) ETW_PERF_MASK_BIT(p)

static void gmi_set_roundtrip(struct etw_ctx *c);
static void gmi_flags_set(struct etw_ctx *c);
static void tpi_set_roundtrip(struct etw_ctx *c);
static void gmi_verbatim(struct etw_ctx *c);
static void gmi_query_header(struct etw_ctx *c);

static const struct etw_case cases[] = {
    /* ---- the 0x1F buffer in general */
    CASE(.id = "ksi.short-query", .rules = RULES(RID_KSI_SHORT), .title = "a 3-byte buffer has no room for the class: STATUS_INVALID_PARAMETER",
         .fn = FN_NTQSI, .args = {.cls = SPTI, .len = 3, IN(U32(1))}, .expect = {FROM(V6_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ksi.short-set", .rules = RULES(RID_KSI_SHORT), .title = "a 3-byte set buffer: STATUS_INVALID_PARAMETER", .fn = FN_NTSSI,
         .args = {.cls = SPTI, .len = 3, IN(U32(1))}, .expect = {FROM(V6_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ksi.unknown-class-query", .rules = RULES(RID_KSI_BAD_CLASS), .title = "an unknown EVENT_TRACE_INFORMATION_CLASS: STATUS_NOT_IMPLEMENTED",
         .fn = FN_NTQSI, .args = {.cls = SPTI, .len = 0x30, IN(U32(0x7F))}, .expect = {FROM(V6_0, .rc = ST(NOT_IMPLEMENTED))})
    CASE(.id = "ksi.set-only-class-query", .rules = RULES(RID_KSI_BAD_CLASS), .title = "querying a set-only class (0x0B) is not implemented",
         .fn = FN_NTQSI, .args = {.cls = SPTI, .len = 0x30, IN(U32(0x0B))}, .expect = {FROM(V6_0, .rc = ST(NOT_IMPLEMENTED))})
    CASE(.id = "ksi.query-only-class-set", .rules = RULES(RID_KSI_BAD_CLASS), .title = "setting a query-only class (0x00) is not implemented",
         .fn = FN_NTSSI, .args = {.cls = SPTI, .len = 8, IN(U32(0), U32(0))}, .expect = {FROM(V6_0, .rc = ST(NOT_IMPLEMENTED))})
    CASE(.id = "ksi.query-only-list-set", .rules = RULES(RID_KSI_BAD_CLASS), .title = "setting the profile source list (0x0D) is not implemented",
         .fn = FN_NTSSI, .args = {.cls = SPTI, .len = 0x28, IN(U32(0x0D))}, .expect = {FROM(V6_0, .rc = ST(NOT_IMPLEMENTED))})
    /* ---- the later EVENT_TRACE_INFORMATION_CLASS values (spec/later-builds.md) */
    CASE(.id = "ksi.later-12-query", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "soft restart (0x12) is not implemented before 1607", .fn = FN_NTQSI, .args = {.cls = SPTI, .len = 0x30, IN(U32(0x12))},
         .expect = {AT(V6_0, B_1511_LAST, .rc = ST(NOT_IMPLEMENTED)), UNKNOWN(V10_0_14393, ETW_VMAX)})
    CASE(.id = "ksi.later-13-set", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "last branch record configuration (0x13) cannot be set before 1709", .fn = FN_NTSSI,
         .args = {.cls = SPTI, .len = 0x30, IN(U32(0x13))}, .expect = {AT(V6_0, B_1703_LAST, .rc = ST(NOT_IMPLEMENTED)), UNKNOWN(B_1709, ETW_VMAX)})
    CASE(.id = "ksi.later-13-query", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "last branch record configuration (0x13) is set-only: a query is not implemented at any build", .fn = FN_NTQSI,
         .args = {.cls = SPTI, .len = 0x30, IN(U32(0x13))}, .expect = {FROM(V6_0, .rc = ST(NOT_IMPLEMENTED))})
    CASE(.id = "ksi.later-15-set", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "adding a profile source (0x15) cannot be done before 1803", .fn = FN_NTSSI,
         .args = {.cls = SPTI, .len = 0x30, IN(U32(0x15))}, .expect = {AT(V6_0, B_1709_LAST, .rc = ST(NOT_IMPLEMENTED)), UNKNOWN(V10_0_17763, ETW_VMAX)})
    CASE(.id = "ksi.later-16-query", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "removing a profile source (0x16) is set-only: a query is not implemented at any build", .fn = FN_NTQSI,
         .args = {.cls = SPTI, .len = 0x30, IN(U32(0x16))}, .expect = {FROM(V6_0, .rc = ST(NOT_IMPLEMENTED))})
    CASE(.id = "ksi.later-19-query", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "the coverage sampler (0x19) is not implemented before 1803", .fn = FN_NTQSI, .args = {.cls = SPTI, .len = 0x30, IN(U32(0x19))},
         .expect = {AT(V6_0, B_1709_LAST, .rc = ST(NOT_IMPLEMENTED)), UNKNOWN(V10_0_17763, ETW_VMAX)})
    CASE(.id = "ksi.later-1a-set", .rules = RULES(RID_KSI_LATER_CLASSES, RID_KSI_BAD_CLASS),
         .title = "unified stack caching (0x1A) cannot be set before 21H1", .fn = FN_NTSSI, .args = {.cls = SPTI, .len = 0x30, IN(U32(0x1A))},
         .expect = {AT(V6_0, B_19H2_LAST, .rc = ST(NOT_IMPLEMENTED)), UNKNOWN(ETW_VHI(B_19H2_LAST) + 1, ETW_VMAX)})
    /* ---- EVENT_TRACE_GROUPMASK_INFORMATION */
    CASE(.id = "gmi.set-before-62", .rules = RULES(RID_GMI_SET_BEFORE_62, RID_GMI_SET),
         .title = "setting group masks: STATUS_NOT_IMPLEMENTED before 6.2, success from 6.2", .fn = FN_NTSSI,
         .fx = {.logger = LG_KERNEL}, .args = {.cls = SPTI, .len = EXACT(0), GM_IN(1, 0, 0, 0, 0, 0, 0, 0), .handle = H_LOGGER},
         .expect = {AT(V6_0, V6_1, .rc = ST(NOT_IMPLEMENTED)), FROM(V6_2, .rc = ST(SUCCESS), RC_RULE(RID_GMI_SET))})
    CASE(.id = "gmi.size", .rules = RULES(RID_GMI_SIZE, RID_GMI_QUERY), .title = "a 0x30-byte query returns the masks at offset 0x10", .fn = FN_NTQSI,
         .fx = {.logger = LG_KERNEL, .masks = KM}, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(SUCCESS), RETLEN(0x30, RID_GMI_SIZE), OUTPUT_AT(0x10, RID_GMI_QUERY, KM_BYTES))})
    CASE(.id = "gmi.short", .rules = RULES(RID_GMI_EXACT_SIZE, RID_GMI_RETLEN_FIRST, RID_GMI_EXACT_SIZE_CODE), .title = "0x2F bytes: STATUS_INFO_LENGTH_MISMATCH, length 0x30 reported",
         .fn = FN_NTQSI, .fx = {.logger = LG_KERNEL}, .args = {.cls = SPTI, .len = EXACT(-1), GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(INFO_LENGTH_MISMATCH), RC_RULE(RID_GMI_EXACT_SIZE_CODE), FAILS(RID_GMI_EXACT_SIZE), RETLEN(0x30, RID_GMI_RETLEN_FIRST))})
    CASE(.id = "gmi.i386-sysv-size", .rules = RULES(RID_GMI_EXACT_SIZE, RID_GMI_SIZE, RID_GMI_EXACT_SIZE_CODE),
         .title = "0x2C bytes, the size a naive i386 SysV layout gives, is rejected", .fn = FN_NTQSI, .fx = {.logger = LG_KERNEL},
         .args = {.cls = SPTI, .len = 0x2C, GM_QUERY, .handle = H_LOGGER}, .expect = {FROM(V6_0, .rc = ST(INFO_LENGTH_MISMATCH), RC_RULE(RID_GMI_EXACT_SIZE_CODE), FAILS(RID_GMI_EXACT_SIZE))})
    CASE(.id = "gmi.long", .rules = RULES(RID_GMI_EXACT_SIZE, RID_GMI_RETLEN_FIRST, RID_GMI_EXACT_SIZE_CODE), .title = "0x31 bytes: STATUS_INFO_LENGTH_MISMATCH", .fn = FN_NTQSI,
         .fx = {.logger = LG_KERNEL}, .args = {.cls = SPTI, .len = EXACT(1), GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(INFO_LENGTH_MISMATCH), RC_RULE(RID_GMI_EXACT_SIZE_CODE), FAILS(RID_GMI_EXACT_SIZE), RETLEN(0x30, RID_GMI_RETLEN_FIRST))})
    CASE(.id = "gmi.set-long", .rules = RULES(RID_GMI_EXACT_SIZE, RID_GMI_EXACT_SIZE_CODE), .title = "setting with 0x31 bytes: STATUS_INFO_LENGTH_MISMATCH", .fn = FN_NTSSI,
         .fx = {.logger = LG_KERNEL}, .args = {.cls = SPTI, .len = EXACT(1), GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(INFO_LENGTH_MISMATCH), RC_RULE(RID_GMI_EXACT_SIZE_CODE), FAILS(RID_GMI_EXACT_SIZE))})
    CASE(.id = "gmi.logger-id-low-bits", .rules = RULES(RID_GMI_LOGGER_ID, RID_GMI_QUERY), .title = "bits above the low 16 of TraceHandle are ignored",
         .fn = FN_NTQSI, .fx = {.logger = LG_KERNEL, .masks = KM},
         .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_LOGGER_HIGH, .value = 0xABCD12340000ull},
         .expect = {FROM(V6_0, .rc = ST(SUCCESS), OUTPUT_AT(0x10, RID_GMI_QUERY, KM_BYTES))})
    CASE(.id = "gmi.kernel-logger-id", .rules = RULES(RID_GMI_KERNEL_LOGGER), .title = "logger id 0xFFFF selects the NT Kernel Logger", .fn = FN_NTQSI,
         .fx = {.logger = LG_KERNEL, .masks = KM}, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_VALUE, .value = 0xFFFF},
         .expect = {FROM(V6_0, .rc = ST(SUCCESS), OUTPUT_AT(0x10, RID_GMI_QUERY, KM_BYTES))})
    CASE(.id = "gmi.not-found-query", .rules = RULES(RID_GMI_NOT_FOUND), .title = "querying a logger id with no session: STATUS_WMI_INSTANCE_NOT_FOUND",
         .fn = FN_NTQSI, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_MISSING},
         .expect = {FROM(V6_0, .rc = ST(WMI_INSTANCE_NOT_FOUND))})
    CASE(.id = "gmi.not-found-kernel", .rules = RULES(RID_GMI_NOT_FOUND, RID_GMI_KERNEL_LOGGER),
         .title = "0xFFFF when no NT Kernel Logger runs: STATUS_WMI_INSTANCE_NOT_FOUND", .fn = FN_NTQSI,
         .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_VALUE, .value = 0xFFFF},
         .expect = {FROM(V6_0, .rc = ST(WMI_INSTANCE_NOT_FOUND))})
    CASE(.id = "gmi.logger-id-low-bits-set", .rules = RULES(RID_GMI_LOGGER_ID, RID_GMI_SET),
         .title = "setting: bits above the low 16 of TraceHandle are ignored", .fn = FN_NTSSI, .fx = {.logger = LG_KERNEL},
         .args = {.cls = SPTI, .len = 0x30, GM_IN(1, 0, 0, 0, 0, 0, 0, 0), .handle = H_LOGGER_HIGH, .value = 0xABCD12340000ull},
         .expect = {FROM(V6_2, .rc = ST(SUCCESS))})
    CASE(.id = "gmi.kernel-logger-id-set", .rules = RULES(RID_GMI_KERNEL_LOGGER, RID_GMI_SET), .title = "setting: logger id 0xFFFF selects the NT Kernel Logger",
         .fn = FN_NTSSI, .fx = {.logger = LG_KERNEL}, .args = {.cls = SPTI, .len = 0x30, GM_IN(1, 0, 0, 0, 0, 0, 0, 0), .handle = H_VALUE, .value = 0xFFFF},
         .expect = {FROM(V6_2, .rc = ST(SUCCESS))})
    CASE(.id = "gmi.not-found-kernel-set", .rules = RULES(RID_GMI_NOT_FOUND, RID_GMI_KERNEL_LOGGER),
         .title = "setting 0xFFFF when no NT Kernel Logger runs: STATUS_WMI_INSTANCE_NOT_FOUND", .fn = FN_NTSSI,
         .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_VALUE, .value = 0xFFFF}, .expect = {FROM(V6_2, .rc = ST(WMI_INSTANCE_NOT_FOUND))})
    CASE(.id = "gmi.not-found-set", .rules = RULES(RID_GMI_NOT_FOUND), .title = "setting on a logger id with no session: STATUS_WMI_INSTANCE_NOT_FOUND",
         .fn = FN_NTSSI, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_MISSING},
         .expect = {FROM(V6_2, .rc = ST(WMI_INSTANCE_NOT_FOUND))})
    CASE(.id = "gmi.system-mode-query", .rules = RULES(RID_GMI_SYSTEM_MODE), .title = "a session without system-logger mode: STATUS_INVALID_PARAMETER",
         .fn = FN_NTQSI, .fx = {.logger = LG_PLAIN}, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "gmi.system-mode-set", .rules = RULES(RID_GMI_SYSTEM_MODE, RID_GMI_SET_ORDER),
         .title = "setting on a session without system-logger mode: STATUS_INVALID_PARAMETER", .fn = FN_NTSSI,
         .fx = {.logger = LG_PLAIN}, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "gmi.set-order-length-first", .rules = RULES(RID_GMI_SET_ORDER), .title = "a bad length is reported before a missing logger",
         .fn = FN_NTSSI, .args = {.cls = SPTI, .len = 0x2F, GM_QUERY, .handle = H_MISSING},
         .expect = {FROM(V6_2, .rc = ST(INFO_LENGTH_MISMATCH))})
    CASE(.id = "gmi.query-no-access", .rules = RULES(RID_GMI_QUERY_NO_ACCESS), .title = "a query needs no TRACELOG_GUID_ENABLE access", .fn = FN_NTQSI,
         .fx = {.logger = LG_NOACCESS, .masks = KM}, .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(SUCCESS), OUTPUT_AT(0x10, RID_GMI_QUERY_NO_ACCESS, KM_BYTES))})
    CASE(.id = "gmi.set-access", .rules = RULES(RID_GMI_SET_ACCESS, RID_GMI_SET_ACCESS_CODE),
         .title = "a set without TRACELOG_GUID_ENABLE access fails: STATUS_ACCESS_DENIED",
         .fn = FN_NTSSI, .fx = {.logger = LG_NOACCESS}, .args = {.cls = SPTI, .len = 0x30, GM_IN(1, 0, 0, 0, 0, 0, 0, 0), .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(ACCESS_DENIED), RC_RULE(RID_GMI_SET_ACCESS_CODE), FAILS(RID_GMI_SET_ACCESS))})
    CASE(.id = "gmi.set-roundtrip", .rules = RULES(RID_GMI_SET), .title = "masks that are set are what a query returns", .fn = FN_CUSTOM,
         .run = gmi_set_roundtrip, .fx = {.logger = LG_KERNEL}, .expect = {FROM(V6_2)})
    CASE(.id = "gmi.verbatim", .rules = RULES(RID_GMI_VERBATIM, RID_GMI_SET),
         .title = "a mask word with its top bits (PERF_OB_HANDLE 0x80000040 in word 4) reads back verbatim", .fn = FN_CUSTOM,
         .run = gmi_verbatim, .fx = {.logger = LG_SYSTEM}, .expect = {FROM(V6_2)})
    CASE(.id = "gmi.query-header", .rules = RULES(RID_GMI_QUERY_HEADER, RID_GMI_QUERY),
         .title = "a query leaves EventTraceInformationClass and TraceHandle as given", .fn = FN_CUSTOM, .run = gmi_query_header,
         .fx = {.logger = LG_KERNEL, .masks = KM}, .expect = {FROM(V6_0)})
    CASE(.id = "gmi.profile-privilege", .rules = RULES(RID_GMI_PROFILE_PRIVILEGE),
         .title = "enabling PERF_PROFILE without SeSystemProfilePrivilege: STATUS_PRIVILEGE_NOT_HELD", .fn = FN_NTSSI,
         .fx = {.logger = LG_KERNEL, .profile_priv = PRIV_NOT_HELD},
         .args = {.cls = SPTI, .len = 0x30, GM_IN(0, PBIT(ETW_PERF_PROFILE), 0, 0, 0, 0, 0, 0), .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(PRIVILEGE_NOT_HELD))})
    CASE(.id = "gmi.pmc-profile-privilege", .rules = RULES(RID_GMI_PROFILE_PRIVILEGE),
         .title = "enabling PERF_PMC_PROFILE without SeSystemProfilePrivilege: STATUS_PRIVILEGE_NOT_HELD", .fn = FN_NTSSI,
         .fx = {.logger = LG_KERNEL, .profile_priv = PRIV_NOT_HELD},
         .args = {.cls = SPTI, .len = 0x30, GM_IN(0, PBIT(ETW_PERF_PMC_PROFILE), 0, 0, 0, 0, 0, 0), .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(PRIVILEGE_NOT_HELD))})
    CASE(.id = "gmi.profile-with-privilege", .rules = RULES(RID_GMI_PROFILE_PRIVILEGE), .title = "with the privilege, PERF_PROFILE can be enabled",
         .fn = FN_NTSSI, .fx = {.logger = LG_KERNEL, .profile_priv = PRIV_HELD},
         .args = {.cls = SPTI, .len = 0x30, GM_IN(0, PBIT(ETW_PERF_PROFILE), 0, 0, 0, 0, 0, 0), .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(SUCCESS))})
    CASE(.id = "gmi.cswitch-no-memory", .rules = RULES(RID_GMI_CSWITCH_MEMORY),
         .title = "turning on both context-switch groups without memory for their buffers: STATUS_NO_MEMORY", .fn = FN_NTSSI,
         .fx = {.logger = LG_KERNEL, .fail_alloc = 1},
         .args = {.cls = SPTI, .len = 0x30, GM_IN(0, PBIT(ETW_PERF_CONTEXT_SWITCH) | PBIT(ETW_PERF_COMPACT_CSWITCH), 0, 0, 0, 0, 0, 0),
                  .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(NO_MEMORY))})
    CASE(.id = "gmi.cswitch-already-on", .rules = RULES(RID_GMI_CSWITCH_ALREADY_ON),
         .title = "when both context-switch groups are already on, no buffers are needed", .fn = FN_NTSSI,
         .fx = {.logger = LG_KERNEL, .fail_alloc = 1, .masks = {0, PBIT(ETW_PERF_CONTEXT_SWITCH) | PBIT(ETW_PERF_COMPACT_CSWITCH)}},
         .args = {.cls = SPTI, .len = 0x30, GM_IN(0, PBIT(ETW_PERF_CONTEXT_SWITCH) | PBIT(ETW_PERF_COMPACT_CSWITCH), 0, 0, 0, 0, 0, 0),
                  .handle = H_LOGGER},
         .expect = {FROM(V6_2, .rc = ST(SUCCESS))})
    CASE(.id = "gmi.enable-flags-query", .rules = RULES(RID_GMI_ENABLE_FLAGS), .title = "PERF_CONTEXT_SWITCH shows as the CSWITCH EnableFlags bit",
         .fn = FN_NTQSI, .fx = {.logger = LG_KERNEL, .masks = {0, PBIT(ETW_PERF_CONTEXT_SWITCH)}},
         .args = {.cls = SPTI, .len = 0x30, GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(SUCCESS), PREFIX_AT(0x10, RID_GMI_ENABLE_FLAGS, U32(ETW_EVENT_TRACE_FLAG_CSWITCH), U32(4)))})
    CASE(.id = "gmi.enable-flags-set", .rules = RULES(RID_GMI_ENABLE_FLAGS), .title = "setting the CSWITCH EnableFlags bit turns PERF_CONTEXT_SWITCH on",
         .fn = FN_CUSTOM, .run = gmi_flags_set, .fx = {.logger = LG_KERNEL}, .expect = {FROM(V6_2)})
    /* ---- EVENT_TRACE_TIME_PROFILE_INFORMATION and the profile source list */
    CASE(.id = "tpi.query", .rules = RULES(RID_TPI_QUERY), .title = "the timer interval query takes 8 bytes and reports 8", .fn = FN_NTQSI,
         .args = {.cls = SPTI, .len = 8, IN(U32(3), U32(0))}, .expect = {FROM(V6_0, .rc = ST(SUCCESS), RETLEN(8, RID_TPI_QUERY))})
    /* the call krabsetw saw fail on Windows 11: the group-mask structure's size (0x30) for class 3 */
    CASE(.id = "tpi.query-long", .rules = RULES(RID_TPI_QUERY_SIZE, RID_TPI_QUERY),
         .title = "the timer interval query with 0x30 bytes: STATUS_INFO_LENGTH_MISMATCH", .fn = FN_NTQSI,
         .args = {.cls = SPTI, .len = 0x30, IN(U32(3), U32(0))},
         .expect = {AT(V6_0, V6_3, .rc = ST(INFO_LENGTH_MISMATCH), RC_RULE(RID_TPI_QUERY)), FROM(V10_0, .rc = ST(INFO_LENGTH_MISMATCH))})
    CASE(.id = "tpi.set-roundtrip", .rules = RULES(RID_TPI_SET), .title = "a timer interval that is set is what a query returns", .fn = FN_CUSTOM,
         .run = tpi_set_roundtrip, .fx = {.profile_priv = PRIV_HELD}, .expect = {FROM(V6_0)})
    CASE(.id = "psl.kernel-min", .rules = RULES(RID_PSL_KERNEL_MIN), .title = "the profile source list needs at least 0x28 bytes", .fn = FN_NTQSI,
         .args = {.cls = SPTI, .len = 0x27, IN(U32(0x0D))}, .expect = {FROM(V6_2, .rc = ST(INFO_LENGTH_MISMATCH))})
};
CASE_TABLE(cases_kernel, cases);

static bool gm_call(struct etw_ctx *c, bool set, etw_tracehandle h, etw_u32 masks[8])
{
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION gm = {.EventTraceInformationClass = ETW_EventTraceGroupMaskInformation, .TraceHandle = h};
    etw_status st;
    if (set) {
        etw_pfn_NtSetSystemInformation f = API(c, etw_pfn_NtSetSystemInformation, FN_NTSSI);
        if (!f)
            return false;
        memcpy(gm.EventTraceGroupMasks.Masks, masks, 32);
        st = f(SPTI, &gm, sizeof gm);
    } else {
        etw_pfn_NtQuerySystemInformation f = API(c, etw_pfn_NtQuerySystemInformation, FN_NTQSI);
        if (!f)
            return false;
        st = f(SPTI, &gm, sizeof gm, NULL);
        memcpy(masks, gm.EventTraceGroupMasks.Masks, 32);
    }
    return CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, set ? "return (set)" : "return (query back)", 0, (etw_u32)st);
}

static void gmi_set_roundtrip(struct etw_ctx *c)
{
    etw_u32 in[8] = {0x3, PBIT(ETW_PERF_MEMORY), 0, 0, 0x8000, 0, 0, 0}, out[8];
    if (!gm_call(c, true, c->fixture.logger, in) || !gm_call(c, false, c->fixture.logger, out))
        return;
    CHECK(c, RID_PRIMARY, A_STATE, "state: masks read back", !memcmp(in, out, 32), "the masks set", "%08x %08x %08x %08x %08x", out[0], out[1], out[2],
              out[3], out[4]);
}

static void gmi_flags_set(struct etw_ctx *c)
{
    etw_u32 in[8] = {ETW_EVENT_TRACE_FLAG_CSWITCH}, out[8];
    if (!gm_call(c, true, c->fixture.logger, in) || !gm_call(c, false, c->fixture.logger, out))
        return;
    CHECK(c, RID_PRIMARY, A_STATE, "state: PERF_CONTEXT_SWITCH in Masks[1]", (out[1] & PBIT(ETW_PERF_CONTEXT_SWITCH)) != 0, "bit 0x4 set", "0x%08x",
              out[1]);
}

static void tpi_set_roundtrip(struct etw_ctx *c)
{
    etw_pfn_NtSetSystemInformation set = API(c, etw_pfn_NtSetSystemInformation, FN_NTSSI);
    etw_pfn_NtQuerySystemInformation query = set ? API(c, etw_pfn_NtQuerySystemInformation, FN_NTQSI) : NULL;
    if (!query)
        return;
    ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, 20000}, q = {ETW_EventTraceTimeProfileInformation, 0};
    etw_status st = set(SPTI, &tp, sizeof tp);
    if (!CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (set)", 0, (etw_u32)st))
        return;
    st = query(SPTI, &q, sizeof q, NULL);
    CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (query back)", 0, (etw_u32)st);
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: ProfileInterval", 20000, q.ProfileInterval);
}

static void gmi_verbatim(struct etw_ctx *c)
{
    etw_u32 in[8] = {0, 0, 0, 0, 0x80000040u, 0, 0, 0}, out[8];
    if (!gm_call(c, true, c->fixture.logger, in) || !gm_call(c, false, c->fixture.logger, out))
        return;
    CHECK_U32(c, RID_GMI_VERBATIM, A_STATE, "state: word 4 read back", 0x80000040u, out[4]);
    CHECK(c, RID_GMI_VERBATIM, A_STATE, "state: masks read back", !memcmp(in, out, 32), "the words set, verbatim", "%08x %08x %08x %08x %08x %08x %08x %08x",
              out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]);
}

static void gmi_query_header(struct etw_ctx *c)
{
    etw_pfn_NtQuerySystemInformation f = API(c, etw_pfn_NtQuerySystemInformation, FN_NTQSI);
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION *gm = f ? etw_guarded(c, sizeof *gm) : NULL;
    if (!gm)
        return;
    memset(gm, 0, sizeof *gm);
    gm->EventTraceInformationClass = ETW_EventTraceGroupMaskInformation;
    gm->TraceHandle = c->fixture.logger;
    etw_status st = f(SPTI, gm, sizeof *gm, NULL);
    if (!CHECK_NTSTATUS(c, RID_GMI_QUERY, A_RETURN, "return", 0, (etw_u32)st))
        return;
    CHECK_U32(c, RID_GMI_QUERY_HEADER, A_SENTINEL, "untouched: EventTraceInformationClass", ETW_EventTraceGroupMaskInformation, gm->EventTraceInformationClass);
    CHECK(c, RID_GMI_QUERY_HEADER, A_SENTINEL, "untouched: TraceHandle", gm->TraceHandle == c->fixture.logger, "the handle given", "0x%llx (given 0x%llx)",
              (unsigned long long)gm->TraceHandle, (unsigned long long)c->fixture.logger);
}
