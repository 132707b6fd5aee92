/* cases/tqi.c - TraceQueryInformation (spec/rules/tqi.def; seed 000). */
#include "cases/common.h"

const etw_guid dal_two[2] = {MK_GUID(DAL_G1), MK_GUID(DAL_G2)};
const etw_guid dal_one[1] = {MK_GUID(DAL_G3)};

/* classes no version in scope supports for query (the later classes 0x10 to 0x1C: TQI_LATER) */
#define UNSUPPORTED(k)                                                                                                      \
    CASE(.id = "tqi.class.unsupported-" #k, .rules = RULES(RID_TQI_CLASS_UNSUPPORTED, RID_TQI_NO_WRITE_ON_FAILURE),                      \
         .title = "class " #k " is not a query class: ERROR_NOT_SUPPORTED", .fn = FN_TQI, .args = {.cls = k, .len = 64},  \
         .expect = {FROM(V6_2, .rc = ERR(NOT_SUPPORTED), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})

/* a later class (spec/later-builds.md): not supported up to `absent`, the last build that shares no
 * binaries with the build that added it; from there on nothing states its behaviour */
#define TQI_LATER(k, absent)                                                                                                 \
    CASE(.id = "tqi.class.later-" #k, .rules = RULES(RID_TQI_CLASS_LATER, RID_TQI_CLASS_UNSUPPORTED, RID_TQI_NO_WRITE_ON_FAILURE), \
         .title = "class " #k " does not exist before the build that added it: ERROR_NOT_SUPPORTED", .fn = FN_TQI,              \
         .args = {.cls = k, .len = 64},                                                                                     \
         .expect = {AT(V6_2, absent, .rc = ERR(NOT_SUPPORTED), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE)),                   \
                    UNKNOWN(ETW_VHI(absent) + 1, ETW_VMAX)})

/* the masks the NT Kernel Logger fixture starts with (no EnableFlags translation involved) */
#define KMASKS {0x00000003, 0, 0x00001000, 0, 0x00008000, 0, 0, 0}
#define KMASKS_BYTES U32(3), U32(0), U32(0x1000), U32(0), U32(0x8000), U32(0), U32(0), U32(0)

static void tqi05_timer(struct etw_ctx *c);
static void tqi05_source(struct etw_ctx *c);
static void tqi07_probe(struct etw_ctx *c);
static void tqi0e_ntc22(struct etw_ctx *c);
static void tqi07_null_zero(struct etw_ctx *c);
static void tqi07_larger(struct etw_ctx *c);
static void tqi07_retlen_null(struct etw_ctx *c);
static void tqi07_names_unique(struct etw_ctx *c);
static void tqi05_listed(struct etw_ctx *c);
static void tqi13_ulong(struct etw_ctx *c);
static void tqi16_ulong(struct etw_ctx *c);

static const struct etw_case cases[] = {
    /* ---- class set and order */
    UNSUPPORTED(0) UNSUPPORTED(1) UNSUPPORTED(2) UNSUPPORTED(3) UNSUPPORTED(6) UNSUPPORTED(8) UNSUPPORTED(9)
    UNSUPPORTED(10) UNSUPPORTED(12) UNSUPPORTED(13) UNSUPPORTED(15)
    UNSUPPORTED(29) UNSUPPORTED(255) UNSUPPORTED(65540) UNSUPPORTED(4294967295)
    TQI_LATER(16, B_1703_LAST) TQI_LATER(17, B_1703_LAST) TQI_LATER(18, B_1703_LAST) TQI_LATER(19, B_1703_LAST)
    TQI_LATER(20, V10_0_17763) TQI_LATER(21, V10_0_17763) TQI_LATER(22, V10_0_17763)
    TQI_LATER(23, B_19H2_LAST) TQI_LATER(24, B_19H2_LAST) TQI_LATER(25, B_19H2_LAST) TQI_LATER(26, B_19H2_LAST) TQI_LATER(27, B_19H2_LAST)
    TQI_LATER(28, B_19H2_LAST)
    /* ---- the later ULONG query classes */
    CASE(.id = "tqi.13.ulong", .rules = RULES(RID_TQI_13_OUTPUT),
         .title = "TraceMaxLoggersQuery (0x13): a 4-byte query with handle 0 succeeds with a non-zero count", .fn = FN_CUSTOM,
         .run = tqi13_ulong, .expect = {NA(V6_2, B_1703_LAST, "TraceMaxLoggersQuery exists from 10.0.16299 on"), FROM(B_1709)})
    CASE(.id = "tqi.16.ulong", .rules = RULES(RID_TQI_16_OUTPUT, RID_TQI_16_NONZERO), .needs = NEED_PMC_SOURCES,
         .title = "TraceMaxPmcCounterQuery (0x16): a 4-byte query with handle 0 succeeds with a non-zero count", .fn = FN_CUSTOM,
         .run = tqi16_ulong, .expect = {NA(V6_2, V10_0_17763, "TraceMaxPmcCounterQuery exists from 10.0.18362 on"), FROM(B_19H1)})
    CASE(.id = "tqi.13.any-handle", .rules = RULES(RID_TQI_LATER_HANDLE_UNUSED),
         .title = "TraceMaxLoggersQuery does not use the handle: 0x1234 still succeeds", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 0x1234, .cls = 0x13, .len = 4}, .expect = {FROM(B_1709, .rc = ERR(SUCCESS))})
    CASE(.id = "tqi.16.any-handle", .rules = RULES(RID_TQI_LATER_HANDLE_UNUSED),
         .title = "TraceMaxPmcCounterQuery does not use the handle: 0x1234 still succeeds", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 0x1234, .cls = 0x16, .len = 4}, .expect = {FROM(B_19H1, .rc = ERR(SUCCESS))})
    CASE(.id = "tqi.13.short", .rules = RULES(RID_TQI_LATER_SHORT), .title = "TraceMaxLoggersQuery with a 2-byte buffer fails",
         .fn = FN_TQI, .args = {.cls = 0x13, .len = 2}, .expect = {FROM(B_1709, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tqi.16.short", .rules = RULES(RID_TQI_LATER_SHORT), .title = "TraceMaxPmcCounterQuery with a 2-byte buffer fails",
         .fn = FN_TQI, .args = {.cls = 0x16, .len = 2}, .expect = {FROM(B_19H1, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tqi.class.0b-from-10", .rules = RULES(RID_TQI_CLASS_SET, RID_TQI_CLASS_UNSUPPORTED), .title = "TraceVersionInfo (0x0B) is a query class from 10.0 only",
         .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(0)},
         .expect = {AT(V6_2, V6_3, .rc = ERR(NOT_SUPPORTED), RC_RULE(RID_TQI_CLASS_UNSUPPORTED)), AT(V10_0, V10_0_17763, .rc = ERR(SUCCESS), PREFIX(RID_TQI_0B_VERSION, U32(1))),
                    FROM(B_19H1, .rc = ERR(SUCCESS), RC_RULE(RID_TQI_CLASS_SET), PREFIX(RID_TQI_0B_VERSION_LATER, U32(1)))})
    CASE(.id = "tqi.class.0e-from-10", .rules = RULES(RID_TQI_CLASS_SET, RID_TQI_CLASS_UNSUPPORTED), .title = "TraceDisallowListQuery (0x0E) is a query class from 10.0 only",
         .fn = FN_TQI, .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 0x0E, .len = 64},
         .expect = {AT(V6_2, V6_3, .rc = ERR(NOT_SUPPORTED), RC_RULE(RID_TQI_CLASS_UNSUPPORTED)), FROM(V10_0, .rc = ERR(SUCCESS))})
    CASE(.id = "tqi.class.first", .rules = RULES(RID_TQI_CLASS_FIRST),
         .title = "an unsupported class with a bad handle and a NULL buffer still gives ERROR_NOT_SUPPORTED", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 0x1234, .cls = 3, .buf = B_NULL, .len = 1},
         .expect = {FROM(V6_2, .rc = ERR(NOT_SUPPORTED))})
    CASE(.id = "tqi.class.first-0b-before-10", .rules = RULES(RID_TQI_CLASS_FIRST, RID_TQI_CLASS_SET),
         .title = "before 10.0, class 0x0B with a bad handle and length gives ERROR_NOT_SUPPORTED", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 7, .cls = 0x0B, .len = 3}, .expect = {AT(V6_2, V6_3, .rc = ERR(NOT_SUPPORTED))})

    /* ---- TraceSystemTraceEnableFlagsInfo (0x04) */
    CASE(.id = "tqi.04.exact", .rules = RULES(RID_TQI_04_OUTPUT, RID_TQI_04_RETLEN, RID_TQI_04_HANDLE),
         .title = "the NT Kernel Logger's group masks come back in a 0x20-byte buffer", .fn = FN_TQI,
         .fx = {.logger = LG_KERNEL, .masks = KMASKS}, .args = {.handle = H_LOGGER, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), RETLEN(0x20, RID_TQI_04_RETLEN), OUTPUT(RID_TQI_04_OUTPUT, KMASKS_BYTES))})
    CASE(.id = "tqi.04.short", .rules = RULES(RID_TQI_04_MIN_SIZE, RID_TQI_RETLEN_FAILURE, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "0x1F bytes for class 0x04 is too small: ERROR_BAD_LENGTH", .fn = FN_TQI,
         .fx = {.logger = LG_KERNEL, .masks = KMASKS}, .args = {.handle = H_LOGGER, .cls = 4, .len = EXACT(-1)},
         .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH), RETLEN(0x20, RID_TQI_RETLEN_FAILURE), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.04.eight-bytes", .rules = RULES(RID_TQI_04_MIN_SIZE, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "4 bytes (the old EnableFlags size) is too small for class 0x04", .fn = FN_TQI,
         .fx = {.logger = LG_KERNEL, .masks = KMASKS}, .args = {.handle = H_LOGGER, .cls = 4, .len = 4},
         .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.04.null-zero", .rules = RULES(RID_TQI_04_MIN_SIZE), .title = "a NULL buffer of length 0 for class 0x04: ERROR_BAD_LENGTH",
         .fn = FN_TQI, .fx = {.logger = LG_KERNEL}, .args = {.handle = H_LOGGER, .cls = 4, .buf = B_NULL, .len = 0},
         .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tqi.04.larger", .rules = RULES(RID_TQI_04_LARGER, RID_TQI_04_OUTPUT),
         .title = "a 0x28-byte buffer is accepted and only 0x20 bytes are written", .fn = FN_TQI,
         .fx = {.logger = LG_KERNEL, .masks = KMASKS}, .args = {.handle = H_LOGGER, .cls = 4, .len = EXACT(8)},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), RC_RULE(RID_TQI_04_LARGER), RETLEN(0x20, RID_TQI_04_RETLEN),
                         OUTPUT(RID_TQI_04_LARGER, KMASKS_BYTES))})
    CASE(.id = "tqi.04.retlen-null", .rules = RULES(RID_TQI_RETLEN_OPTIONAL, RID_TQI_04_OUTPUT),
         .title = "class 0x04 works with a NULL ReturnLength", .fn = FN_TQI, .fx = {.logger = LG_KERNEL, .masks = KMASKS},
         .args = {.handle = H_LOGGER, .cls = 4, .len = EXACT(0), .retlen_null = true},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), OUTPUT(RID_TQI_04_OUTPUT, KMASKS_BYTES))})
    CASE(.id = "tqi.04.system-session", .rules = RULES(RID_TQI_04_HANDLE, RID_TQI_04_OUTPUT),
         .title = "a system-logger session's own handle selects its masks", .fn = FN_TQI,
         .fx = {.logger = LG_SYSTEM, .masks = {0x1, 0, 0, 0, 0, 0, 0, 0x2}}, .args = {.handle = H_LOGGER, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), OUTPUT(RID_TQI_04_OUTPUT, U32(1), U32(0), U32(0), U32(0), U32(0), U32(0), U32(0), U32(2)))})
    /* the seeds give the kernel's refusals; their Win32 codes are the translation's (inferred) */
    CASE(.id = "tqi.04.missing-session",
         .rules = RULES(RID_TQI_04_SYSTEM_LOGGER, RID_TQI_KERNEL_FAILURE, RID_TQI_RC_WIN32, RID_TQI_NO_WRITE_ON_FAILURE, RID_TQI_04_SYSTEM_LOGGER_CODE),
         .title = "a handle naming no session: ERROR_WMI_INSTANCE_NOT_FOUND, not the NTSTATUS", .fn = FN_TQI,
         .args = {.handle = H_MISSING, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(WMI_INSTANCE_NOT_FOUND), RC_RULE(RID_TQI_04_SYSTEM_LOGGER_CODE), FAILS(RID_TQI_04_SYSTEM_LOGGER),
                         UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.04.plain-session",
         .rules = RULES(RID_TQI_04_SYSTEM_LOGGER, RID_TQI_KERNEL_FAILURE, RID_TQI_NO_WRITE_ON_FAILURE, RID_TQI_04_SYSTEM_LOGGER_CODE),
         .title = "a session without system-logger mode: ERROR_INVALID_PARAMETER", .fn = FN_TQI, .fx = {.logger = LG_PLAIN},
         .args = {.handle = H_LOGGER, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER), RC_RULE(RID_TQI_04_SYSTEM_LOGGER_CODE), FAILS(RID_TQI_04_SYSTEM_LOGGER),
                         UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})

    CASE(.id = "tqi.04.logger-id-high", .rules = RULES(RID_TQI_04_HANDLE, RID_GMI_LOGGER_ID, RID_TQI_04_OUTPUT),
         .title = "bits above the low 16 of the SessionHandle do not change the session", .fn = FN_TQI, .fx = {.logger = LG_KERNEL, .masks = KMASKS},
         .args = {.handle = H_LOGGER_HIGH, .value = 0xABCD12340000ull, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), OUTPUT(RID_TQI_04_OUTPUT, KMASKS_BYTES))})
    CASE(.id = "tqi.04.kernel-logger-id", .rules = RULES(RID_TQI_04_HANDLE, RID_GMI_KERNEL_LOGGER, RID_TQI_04_OUTPUT),
         .title = "SessionHandle 0xFFFF selects the NT Kernel Logger", .fn = FN_TQI, .fx = {.logger = LG_KERNEL, .masks = KMASKS},
         .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), OUTPUT(RID_TQI_04_OUTPUT, KMASKS_BYTES))})
    CASE(.id = "tqi.04.kernel-id-no-logger",
         .rules = RULES(RID_TQI_04_SYSTEM_LOGGER, RID_GMI_KERNEL_LOGGER, RID_TQI_NO_WRITE_ON_FAILURE, RID_TQI_04_SYSTEM_LOGGER_CODE),
         .title = "SessionHandle 0xFFFF when no NT Kernel Logger runs: ERROR_WMI_INSTANCE_NOT_FOUND", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 4, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(WMI_INSTANCE_NOT_FOUND), RC_RULE(RID_TQI_04_SYSTEM_LOGGER_CODE), FAILS(RID_TQI_04_SYSTEM_LOGGER),
                         UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})

    /* ---- TraceSampledProfileIntervalInfo (0x05) */
    CASE(.id = "tqi.05.handle", .rules = RULES(RID_TQI_05_HANDLE_ZERO, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "class 0x05 with a non-zero SessionHandle: ERROR_INVALID_PARAMETER", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 1, .cls = 5, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.05.handle-kernel", .rules = RULES(RID_TQI_05_HANDLE_ZERO), .title = "class 0x05 with the kernel logger's handle 0xFFFF: ERROR_INVALID_PARAMETER",
         .fn = FN_TQI, .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 5, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tqi.05.handle-session", .rules = RULES(RID_TQI_05_HANDLE_ZERO), .title = "class 0x05 with a running session's handle: ERROR_INVALID_PARAMETER",
         .fn = FN_TQI, .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 5, .len = EXACT(0)},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tqi.05.short", .rules = RULES(RID_TQI_05_EXACT_SIZE, RID_TQI_RETLEN_FAILURE, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "7 bytes for class 0x05: ERROR_BAD_LENGTH", .fn = FN_TQI, .args = {.cls = 5, .len = EXACT(-1)},
         .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH), RETLEN(8, RID_TQI_RETLEN_FAILURE), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.05.long", .rules = RULES(RID_TQI_05_EXACT_SIZE, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "9 bytes for class 0x05: ERROR_BAD_LENGTH, not an exact fit", .fn = FN_TQI, .args = {.cls = 5, .len = EXACT(1)},
         .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.05.order", .rules = RULES(RID_TQI_05_ORDER), .title = "class 0x05 with a bad handle and a bad length: the handle is checked first",
         .fn = FN_TQI, .args = {.handle = H_VALUE, .value = 2, .cls = 5, .len = 3},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tqi.05.retlen", .rules = RULES(RID_TQI_05_RETLEN, RID_TQI_05_TIMER), .title = "class 0x05 sets the return length to 8 and keeps Source",
         .fn = FN_TQI, .args = {.cls = 5, .len = EXACT(0), IN(U32(0), U32(0xFFFFFFFF))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), RETLEN(8, RID_TQI_05_RETLEN), PREFIX(RID_TQI_05_TIMER, U32(0)))})
    CASE(.id = "tqi.05.timer", .rules = RULES(RID_TQI_05_TIMER), .title = "Source ProfileTime gives the kernel's timer profile interval",
         .fn = FN_CUSTOM, .run = tqi05_timer, .expect = {FROM(V6_2)})
    CASE(.id = "tqi.05.source-above-24", .rules = RULES(RID_TSI_05_HAL_SOURCES, RID_TQI_05_LISTED_INTERVAL), .needs = NEED_PMC_SOURCES,
         .title = "a listed profile source above ProfileMaximum (30) reports its default interval, 65536", .fn = FN_TQI,
         .args = {.cls = 5, .len = EXACT(0), IN(U32(30), U32(0))},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), OUTPUT_AT(4, RID_TQI_05_LISTED_INTERVAL, U32(65536)))})
    CASE(.id = "tqi.05.source", .rules = RULES(RID_TQI_05_SOURCE), .title = "a non-zero Source gives what NtQueryIntervalProfile gives",
         .fn = FN_CUSTOM, .run = tqi05_source, .expect = {FROM(V6_2)})
    CASE(.id = "tqi.05.retlen-null", .rules = RULES(RID_TQI_RETLEN_OPTIONAL, RID_TQI_05_TIMER), .title = "class 0x05 works with a NULL ReturnLength",
         .fn = FN_TQI, .args = {.cls = 5, .len = EXACT(0), IN(U32(0), U32(0)), .retlen_null = true},
         .expect = {FROM(V6_2, .rc = ERR(SUCCESS), PREFIX(RID_TQI_05_TIMER, U32(0)))})
    CASE(.id = "tqi.05.listed-sources", .rules = RULES(RID_TQI_05_LISTED_SOURCES, RID_TQI_05_LISTED_INTERVAL), .needs = NEED_PMC_SOURCES,
         .title = "every source class 0x07 lists can be queried; those other than the timer report a non-zero Interval",
         .fn = FN_CUSTOM, .run = tqi05_listed, .expect = {FROM(V6_2)})

    /* ---- TraceProfileSourceListInfo (0x07) */
    CASE(.id = "tqi.07.handle", .rules = RULES(RID_TQI_07_HANDLE_ZERO), .title = "class 0x07 with a non-zero SessionHandle: ERROR_INVALID_PARAMETER",
         .fn = FN_TQI, .args = {.handle = H_VALUE, .value = 1, .cls = 7, .len = 0x400},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tqi.07.probe", .rules = RULES(RID_TQI_07_NULL_PROBE, RID_TQI_07_FORMAT, RID_TQI_07_KERNEL, RID_TQI_07_SHORT_RC),
         .title = "a NULL probe tells the size; a buffer of that size gets the chain the kernel reports", .fn = FN_CUSTOM,
         .run = tqi07_probe, .expect = {FROM(V6_2)})
    CASE(.id = "tqi.07.short", .rules = RULES(RID_TQI_07_SHORT_RC), .title = "a 16-byte buffer for class 0x07 is too small and is left alone",
         .fn = FN_TQI, .args = {.cls = 7, .len = 16},
         .expect = {FROM(V6_2, .rc = ERR(BAD_LENGTH), UNTOUCHED(RID_TQI_07_SHORT_RC))})
    CASE(.id = "tqi.07.probe-null-zero", .rules = RULES(RID_TQI_07_NULL_PROBE, RID_TQI_07_PROBE_RC),
         .title = "the (NULL, 0) probe returns ERROR_BAD_LENGTH and the size, which a sized call then fills", .fn = FN_CUSTOM,
         .run = tqi07_null_zero, .expect = {FROM(V6_2)})
    CASE(.id = "tqi.07.larger", .rules = RULES(RID_TQI_07_LARGER, RID_TQI_07_FORMAT),
         .title = "a 4096-byte buffer gets the chain, and ReturnLength is the chain's size", .fn = FN_CUSTOM, .run = tqi07_larger,
         .expect = {FROM(V6_2)})
    CASE(.id = "tqi.07.retlen-null", .rules = RULES(RID_TQI_RETLEN_OPTIONAL, RID_TQI_07_FORMAT), .title = "class 0x07 works with a NULL ReturnLength",
         .fn = FN_CUSTOM, .run = tqi07_retlen_null, .expect = {FROM(V6_2)})
    CASE(.id = "tqi.07.names-unique", .rules = RULES(RID_TQI_07_UNIQUE_NAMES), .title = "no two listed sources share a name, ignoring case",
         .fn = FN_CUSTOM, .run = tqi07_names_unique, .expect = {FROM(V6_2)})
    CASE(.id = "tqi.07.oom", .rules = RULES(RID_TQI_07_OOM), .title = "no memory for the double buffer: ERROR_OUTOFMEMORY", .fn = FN_TQI,
         .fx = {.fail_alloc = 1}, .args = {.cls = 7, .len = 0x400}, .expect = {FROM(V6_2, .rc = ERR(OUTOFMEMORY))})

    /* ---- TraceVersionInfo (0x0B) */
    CASE(.id = "tqi.0b.exact", .rules = RULES(RID_TQI_0B_VERSION, RID_TQI_0B_RETLEN, RID_TQI_0B_VERSION_LATER), .title = "TraceVersionInfo returns version 1 in 8 bytes",
         .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(0)},
         .expect = {AT(V10_0, V10_0_17763, .rc = ERR(SUCCESS), RETLEN(8, RID_TQI_0B_RETLEN), PREFIX(RID_TQI_0B_VERSION, U32(1))),
                    FROM(B_19H1, .rc = ERR(SUCCESS), RC_RULE(RID_TQI_CLASS_SET), RETLEN(8, RID_TQI_0B_RETLEN), PREFIX(RID_TQI_0B_VERSION_LATER, U32(1)))})
    CASE(.id = "tqi.0b.reserved", .rules = RULES(RID_TQI_0B_RESERVED), .title = "TraceVersionInfo leaves Reserved as the caller had it",
         .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(0), IN(U32(0), U32(0x5A5A5A5A))},
         .expect = {FROM(V10_0, .rc = ERR(SUCCESS), PREFIX_AT(4, RID_TQI_0B_RESERVED, U32(0x5A5A5A5A)))})
    CASE(.id = "tqi.0b.short", .rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_TQI_RETLEN_FAILURE, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "TraceVersionInfo with 7 bytes: ERROR_BAD_LENGTH", .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(-1)},
         .expect = {FROM(V10_0, .rc = ERR(BAD_LENGTH), RETLEN(8, RID_TQI_RETLEN_FAILURE), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.0b.long", .rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_TQI_NO_WRITE_ON_FAILURE), .title = "TraceVersionInfo with 16 bytes: ERROR_BAD_LENGTH",
         .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(8)},
         .expect = {FROM(V10_0, .rc = ERR(BAD_LENGTH), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.0b.null-zero", .rules = RULES(RID_TQI_0B_EXACT_SIZE), .title = "TraceVersionInfo with a NULL buffer of length 0: ERROR_BAD_LENGTH",
         .fn = FN_TQI, .args = {.cls = 0x0B, .buf = B_NULL, .len = 0}, .expect = {FROM(V10_0, .rc = ERR(BAD_LENGTH))})
    CASE(.id = "tqi.0b.handle", .rules = RULES(RID_TQI_0B_HANDLE_ZERO, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "TraceVersionInfo with a non-zero SessionHandle: ERROR_INVALID_PARAMETER", .fn = FN_TQI,
         .args = {.handle = H_VALUE, .value = 1, .cls = 0x0B, .len = EXACT(0)},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.0b.retlen-null", .rules = RULES(RID_TQI_RETLEN_OPTIONAL, RID_TQI_0B_VERSION), .title = "TraceVersionInfo works with a NULL ReturnLength",
         .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(0), .retlen_null = true},
         .expect = {AT(V10_0, V10_0_17763, .rc = ERR(SUCCESS), PREFIX(RID_TQI_0B_VERSION, U32(1))),
                    FROM(B_19H1, .rc = ERR(SUCCESS), PREFIX(RID_TQI_0B_VERSION_LATER, U32(1)))})

    /* ---- TraceDisallowListQuery (0x0E) */
    CASE(.id = "tqi.0e.empty", .rules = RULES(RID_TQI_0E_EMPTY), .title = "a new session's disallow list is empty: success with 0 bytes",
         .fn = FN_TQI, .fx = {.logger = LG_SYSTEM}, .args = {.handle = H_LOGGER, .cls = 0x0E, .len = 64},
         .expect = {FROM(V10_0, .rc = ERR(SUCCESS), RETLEN(0, RID_TQI_0E_EMPTY), UNTOUCHED(RID_TQI_0E_EMPTY))})
    CASE(.id = "tqi.0e.list", .rules = RULES(RID_TQI_0E_OUTPUT), .title = "the disallow list comes back as an array of GUIDs", .fn = FN_TQI,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2}, .args = {.handle = H_LOGGER, .cls = 0x0E, .len = 32},
         .expect = {FROM(V10_0, .rc = ERR(SUCCESS), RETLEN(32, RID_TQI_0E_OUTPUT), OUTPUT(RID_TQI_0E_OUTPUT, GUIDB(DAL_G1), GUIDB(DAL_G2)))})
    /* room for four GUIDs: a length that is not a whole number of GUIDs is open (OQ-1) */
    CASE(.id = "tqi.0e.larger", .rules = RULES(RID_TQI_0E_OUTPUT), .title = "a larger buffer gets the list and nothing more", .fn = FN_TQI,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2}, .args = {.handle = H_LOGGER, .cls = 0x0E, .len = 64},
         .expect = {FROM(V10_0, .rc = ERR(SUCCESS), RETLEN(32, RID_TQI_0E_OUTPUT), OUTPUT(RID_TQI_0E_OUTPUT, GUIDB(DAL_G1), GUIDB(DAL_G2)))})
    CASE(.id = "tqi.0e.small", .rules = RULES(RID_TQI_0E_SMALL, RID_TQI_0E_RETLEN_FAIL, RID_TQI_NO_WRITE_ON_FAILURE),
         .title = "room for one GUID of two: ERROR_INSUFFICIENT_BUFFER, and the size needed", .fn = FN_TQI,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2}, .args = {.handle = H_LOGGER, .cls = 0x0E, .len = 16},
         .expect = {FROM(V10_0, .rc = ERR(INSUFFICIENT_BUFFER), RETLEN(32, RID_TQI_0E_RETLEN_FAIL), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
    CASE(.id = "tqi.0e.null", .rules = RULES(RID_TQI_0E_SMALL, RID_TQI_0E_RETLEN_FAIL), .title = "a NULL buffer with a length asks for the size",
         .fn = FN_TQI, .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2},
         .args = {.handle = H_LOGGER, .cls = 0x0E, .buf = B_NULL, .len = 64},
         .expect = {FROM(V10_0, .rc = ERR(INSUFFICIENT_BUFFER), RETLEN(32, RID_TQI_0E_RETLEN_FAIL))})
    CASE(.id = "tqi.0e.bad-logger", .rules = RULES(RID_TQI_0E_BAD_LOGGER), .title = "a handle naming no session: ERROR_INVALID_PARAMETER",
         .fn = FN_TQI, .args = {.handle = H_MISSING, .cls = 0x0E, .len = 64},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER), UNTOUCHED(RID_TQI_0E_BAD_LOGGER))})
    CASE(.id = "tqi.0e.no-kernel-alias", .rules = RULES(RID_TQI_0E_BAD_LOGGER, RID_NTC_22_BAD_LOGGER),
         .title = "SessionHandle 0xFFFF is not read as the NT Kernel Logger: ERROR_INVALID_PARAMETER", .fn = FN_TQI, .fx = {.logger = LG_KERNEL},
         .args = {.handle = H_VALUE, .value = 0xFFFF, .cls = 0x0E, .len = 64}, .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "tqi.0e.ntc22", .rules = RULES(RID_TQI_0E_NTC22), .title = "class 0x0E returns what NtTraceControl 0x22 returns", .fn = FN_CUSTOM,
         .run = tqi0e_ntc22, .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2}, .expect = {FROM(V10_0)})
};
CASE_TABLE(cases_tqi, cases);

/* ---------------------------------------------------------------- custom cases */
static void tqi05_timer(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_pfn_NtQuerySystemInformation nt = tqi ? API(c, etw_pfn_NtQuerySystemInformation, FN_NTQSI) : NULL;
    if (!nt)
        return;
    ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, 0};
    etw_status st = nt(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp, NULL);
    if (st) {
        etw_broken(c, "reference value: NtQuerySystemInformation(0x1F, EventTraceTimeProfileInformation) failed with 0x%08X", (unsigned)st);
        return;
    }
    ETW_TRACE_PROFILE_INTERVAL *pi = etw_guarded(c, sizeof *pi);
    if (!pi)
        return;
    pi->Source = ETW_ProfileTime;
    etw_u32 rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, pi, sizeof *pi, NULL);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", ETW_ERROR_SUCCESS, rc);
    CHECK_U32(c, RID_PRIMARY, A_OUTPUT, "output: Interval", tp.ProfileInterval, pi->Interval);
}

static void tqi05_source(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    if (!tqi)
        return;
    etw_pfn_NtQueryIntervalProfile qip = (etw_pfn_NtQueryIntervalProfile)etw_resolve(c->t, FN_NTQIP, NULL);
    if (!qip) {
        etw_skip(c, "NtQueryIntervalProfile is not exported by the target: nothing to compare with");
        return;
    }
    etw_u32 want = 0;
    etw_status st = qip(ETW_ProfileTotalIssues, &want);
    if (st) {
        etw_skip(c, "NtQueryIntervalProfile(ProfileTotalIssues) failed with 0x%08X: the source is not supported here", (unsigned)st);
        return;
    }
    ETW_TRACE_PROFILE_INTERVAL *pi = etw_guarded(c, sizeof *pi);
    if (!pi)
        return;
    pi->Source = ETW_ProfileTotalIssues;
    etw_u32 rl = ETW_SENTINEL32;
    etw_u32 rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, pi, sizeof *pi, &rl);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", ETW_ERROR_SUCCESS, rc);
    CHECK_U32(c, RID_PRIMARY, A_OUTPUT, "output: Interval", want, pi->Interval);
    CHECK_U32(c, RID_PRIMARY, A_OUTPUT, "output: Source kept", ETW_ProfileTotalIssues, pi->Source);
}

/* the class 0x07 probe (NULL buffer, probe_len bytes), then the call with the size it gave: the
 * probe's code is checked against probe_rule, its size and the sized call against TQI.07.NULL_PROBE.
 * Returns the filled buffer (need bytes), or NULL when a check failed or a buffer could not be had. */
static etw_u8 *probe_then_list(struct etw_ctx *c, etw_pfn_TraceQueryInformation tqi, etw_u32 probe_len, enum etw_rule_id probe_rule,
                               const char *tag, etw_u32 *need)
{
    char what[48];
    *need = ETW_SENTINEL32;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, NULL, probe_len, need);
    snprintf(what, sizeof what, "return (%s)", tag);
    CHECK_WIN32(c, probe_rule, A_RETURN, what, ETW_ERROR_BAD_LENGTH, rc);
    snprintf(what, sizeof what, "return length (%s)", tag);
    if (!CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, what, *need != ETW_SENTINEL32 && *need >= 0x1A && *need < 0x10000,
               "the size needed (0x1A..0xFFFF)", *need == ETW_SENTINEL32 ? "not written (still 0x%08X)" : "%u", *need))
        return NULL;
    etw_u8 *buf = etw_guarded(c, *need);
    if (!buf)
        return NULL;
    etw_u32 got = ETW_SENTINEL32;
    rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, *need, &got);
    CHECK_WIN32(c, RID_TQI_07_NULL_PROBE, A_RETURN, "return (sized buffer)", ETW_ERROR_SUCCESS, rc);
    CHECK_U32(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (sized buffer)", *need, got);
    return rc ? NULL : buf;
}

static void tqi07_probe(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    if (!tqi)
        return;
    etw_u32 need;
    etw_u8 *buf = probe_then_list(c, tqi, 0x1000, RID_TQI_07_SHORT_RC, "NULL probe", &need);
    if (!buf)
        return;
    /* walk the chain: every record inside the buffer, a NUL-terminated Description, 0 ends it */
    etw_u32 off = 0, n = 0;
    bool ok = true;
    for (;;) {
        ETW_PROFILE_SOURCE_INFO r;
        if (off + 0x18 > need) {
            ok = false;
            break;
        }
        memcpy(&r, buf + off, 0x18);
        etw_u32 end = r.NextEntryOffset ? off + r.NextEntryOffset : need;
        bool nul = false;
        for (etw_u32 p = off + 0x18; p + 1 < end && p + 1 < need && !nul; p += 2)
            nul = !buf[p] && !buf[p + 1];
        n++;
        if (!nul || (r.NextEntryOffset && r.NextEntryOffset < 0x1A)) {
            ok = false;
            break;
        }
        if (!r.NextEntryOffset)
            break;
        off += r.NextEntryOffset;
    }
    CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", ok && n > 0, "a well-formed chain", "%s after %u record(s)",
              ok ? "well formed" : "broken", n);
    /* the same records as the kernel's class 0x0D, after its 8-byte header */
    etw_pfn_NtQuerySystemInformation nt = (etw_pfn_NtQuerySystemInformation)etw_resolve(c->t, FN_NTQSI, NULL);
    if (!nt)
        return;
    etw_u8 *k = etw_guarded(c, need + 8);
    if (!k)
        return;
    etw_u32 cls = ETW_EventTraceProfileSourceListInformation, klen = 0;
    memcpy(k, &cls, 4);
    etw_status st = nt(ETW_SystemPerformanceTraceInformation, k, need + 8, &klen);
    CHECK(c, RID_TQI_07_KERNEL, A_OUTPUT, "output: same records as kernel class 0x0D", st == 0 && klen == need + 8 && !memcmp(k + 8, buf, need),
              "identical records", "status 0x%08X, %u bytes, %s", (unsigned)st, klen, st == 0 && !memcmp(k + 8, buf, need) ? "same" : "different");
}

static void tqi0e_ntc22(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_pfn_NtTraceControl ntc = tqi ? API(c, etw_pfn_NtTraceControl, FN_NTC) : NULL;
    if (!ntc)
        return;
    etw_u8 *a = etw_guarded(c, 64), *b = etw_guarded(c, 64);
    if (!a || !b)
        return;
    etw_u32 la = ETW_SENTINEL32, lb = ETW_SENTINEL32;
    etw_u32 rc = tqi(c->fixture.logger, ETW_TraceDisallowListQuery, a, 64, &la);
    etw_tracehandle h = c->fixture.logger;
    etw_status st = ntc(ETW_NTC_GET_DISALLOW_LIST, &h, sizeof h, b, 64, &lb);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", ETW_ERROR_SUCCESS, rc);
    CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "NtTraceControl(0x22) status", 0, (etw_u32)st);
    CHECK_U32(c, RID_PRIMARY, A_RETLEN, "return length = ReturnSize of 0x22", lb, la);
    CHECK(c, RID_PRIMARY, A_OUTPUT, "output = output of 0x22", !memcmp(a, b, 64), "the same bytes", "%s", memcmp(a, b, 64) ? "different" : "the same");
}

/* ---------------------------------------------------------------- what clients rely on (0x05, 0x07) */
/* the (NULL, 0) probe's size, or 0 (the case has failed) */
static etw_u32 probe_size(struct etw_ctx *c, etw_pfn_TraceQueryInformation tqi)
{
    etw_u32 need = ETW_SENTINEL32;
    tqi(0, ETW_TraceProfileSourceListInfo, NULL, 0, &need);
    if (!CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (probe)", need != ETW_SENTINEL32 && need >= 0x1A && need < 0x10000,
                   "the size needed (0x1A..0xFFFF)", "%u", need))
        return 0;
    return need;
}

/* the list in a guarded buffer of its exact size, *n records parsed into recs; NULL if the case has failed */
static etw_u8 *source_list(struct etw_ctx *c, etw_pfn_TraceQueryInformation tqi, etw_u32 *len, struct src_rec *recs, int *n)
{
    etw_u32 need = probe_size(c, tqi);
    etw_u8 *buf = need ? etw_guarded(c, need) : NULL;
    if (!buf)
        return NULL;
    etw_u32 got = ETW_SENTINEL32;
    if (!CHECK_WIN32(c, RID_TQI_07_NULL_PROBE, A_RETURN, "return (sized buffer)", ETW_ERROR_SUCCESS, tqi(0, ETW_TraceProfileSourceListInfo, buf, need, &got)))
        return NULL;
    *n = source_chain(buf, need, recs, 32);
    if (!CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", *n > 0, "a well-formed chain", "%s", *n > 0 ? "well formed" : "broken"))
        return NULL;
    *len = need;
    return buf;
}

static void tqi07_null_zero(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_u32 need;
    if (tqi)
        probe_then_list(c, tqi, 0, RID_TQI_07_PROBE_RC, "NULL, 0", &need);
}

static void tqi07_larger(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_u32 need = tqi ? probe_size(c, tqi) : 0;
    etw_u8 *big = need ? etw_guarded(c, 4096) : NULL;
    if (!big)
        return;
    etw_u32 got = ETW_SENTINEL32;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, big, 4096, &got);
    CHECK_WIN32(c, RID_TQI_07_LARGER, A_RETURN, "return (4096 bytes)", ETW_ERROR_SUCCESS, rc);
    CHECK_U32(c, RID_TQI_07_LARGER, A_RETLEN, "return length (4096 bytes): the chain's size", need, got);
    struct src_rec recs[32];
    int n = rc ? 0 : source_chain(big, need <= 4096 ? need : 4096, recs, 32);
    CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", n > 0, "a well-formed chain in the first ReturnLength bytes", "%s",
              n > 0 ? "well formed" : "broken");
}

static void tqi07_retlen_null(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_u32 need = tqi ? probe_size(c, tqi) : 0;
    etw_u8 *buf = need ? etw_guarded(c, need) : NULL;
    if (!buf)
        return;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, need, NULL);
    CHECK_WIN32(c, RID_TQI_RETLEN_OPTIONAL, A_RETURN, "return (NULL ReturnLength)", ETW_ERROR_SUCCESS, rc);
    struct src_rec recs[32];
    int n = rc ? 0 : source_chain(buf, need, recs, 32);
    CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", n > 0, "a well-formed chain", "%s", n > 0 ? "well formed" : "broken");
}

static bool same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = (*a >= 'A' && *a <= 'Z') ? (char)(*a + 32) : *a, y = (*b >= 'A' && *b <= 'Z') ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

static void tqi07_names_unique(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    struct src_rec recs[32];
    int n = 0;
    etw_u32 len = 0;
    if (!tqi || !source_list(c, tqi, &len, recs, &n))
        return;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i; k++)
            if (same_name(recs[i].name, recs[k].name)) {
                CHECK(c, RID_PRIMARY, A_OUTPUT, "output: names distinct", false, "distinct names", "'%s' twice (sources %u and %u)", recs[i].name,
                          recs[k].source, recs[i].source);
                return;
            }
    CHECK(c, RID_PRIMARY, A_OUTPUT, "output: names distinct", true, "distinct names", "%d distinct names", n);
}

static void tqi05_listed(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    struct src_rec recs[32];
    int n = 0;
    etw_u32 len = 0;
    if (!tqi || !source_list(c, tqi, &len, recs, &n))
        return;
    for (int i = 0; i < n; i++) {
        ETW_TRACE_PROFILE_INTERVAL pi = {recs[i].source, 0};
        char what[64];
        snprintf(what, sizeof what, "return (source %u %.24s)", recs[i].source, recs[i].name);
        if (!CHECK_WIN32(c, RID_TQI_05_LISTED_SOURCES, A_RETURN, what, ETW_ERROR_SUCCESS, tqi(0, ETW_TraceSampledProfileIntervalInfo, &pi, sizeof pi, NULL)))
            continue;
        if (recs[i].source != ETW_ProfileTime) {
            snprintf(what, sizeof what, "output: Interval of %.32s", recs[i].name);
            CHECK(c, RID_TQI_05_LISTED_INTERVAL, A_OUTPUT, what, pi.Interval > 0, "non-zero", "%u", pi.Interval);
        }
    }
}

/* a ULONG query class: handle 0, a guarded 4-byte buffer; the answer is a count that is not 0 */
static void later_ulong(struct etw_ctx *c, etw_u32 cls, enum etw_rule_id rc_rule, enum etw_rule_id value_rule)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    if (!tqi)
        return;
    etw_u32 *v = etw_guarded(c, sizeof *v);
    if (!v)
        return;
    *v = 0;
    etw_u32 rc = tqi(0, cls, v, sizeof *v, NULL);
    CHECK_WIN32(c, rc_rule, A_RETURN, "return", ETW_ERROR_SUCCESS, rc);
    if (rc == ETW_ERROR_SUCCESS)
        CHECK(c, value_rule, A_OUTPUT, "output: the count", *v != 0, "not 0", "%u", (unsigned)*v);
}

static void tqi13_ulong(struct etw_ctx *c) { later_ulong(c, ETW_TraceMaxLoggersQuery, RID_TQI_13_OUTPUT, RID_TQI_13_OUTPUT); }
static void tqi16_ulong(struct etw_ctx *c) { later_ulong(c, ETW_TraceMaxPmcCounterQuery, RID_TQI_16_OUTPUT, RID_TQI_16_NONZERO); }
