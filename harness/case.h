/*
 * harness/case.h - the case-row format. A case is one behaviour: a call (or a short custom
 * sequence) against a fixture, and the expected outcome for each version. Rows live in cases/ files.
 *
 *   CASE(.id = "tqi.0b.short", .rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_TQI_RETLEN_FAILURE, RID_TQI_NO_WRITE_ON_FAILURE),
 *        .title = "TraceVersionInfo with 7 bytes: ERROR_BAD_LENGTH", .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(-1)},
 *        .expect = {FROM(V10_0, .rc = ERR(BAD_LENGTH), RETLEN(8, RID_TQI_RETLEN_FAILURE), UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE))})
 *
 * CASE() records __FILE__ and __LINE__ (musl libc-test style), so every result names its row.
 * Expectations are tried in order; the first whose version range holds the target's version is
 * used. A version with no expectation makes the case SKIP ("does not apply to 6.1").
 * Checks cite rules: the return-code check cites .rc_rule, or the first rule of .rules. Rules are
 * cited by their typed ids (harness/rule_id.h): RID_ + the id with '.' written '_'.
 */
#ifndef ETWCONF_CASE_H
#define ETWCONF_CASE_H

#include "harness/rule_id.h"
#include "spec/abi.h"
#include <stdbool.h>

/*
 * The enumerations of the format are X-lists: X(NAME, ...) once here gives the enum and the names
 * that the row printer, `etwconf list --json` and the fuzzer print (etw_fn_enum_name() and the
 * other lookups below, harness/core/rowprint.c). The version names come from spec/versions.def.
 */
/* the function under test */
#define ETW_FN_LIST(X)                                                                                                  \
    X(FN_NONE)                                                                                                          \
    X(FN_TQI) /* TraceQueryInformation(handle, cls, buf, len, retlen) */                                                \
    X(FN_TSI) /* TraceSetInformation(handle, cls, buf, len) */                                                          \
    X(FN_NTQSI) /* NtQuerySystemInformation(cls, buf, len, retlen) */                                                   \
    X(FN_NTSSI) /* NtSetSystemInformation(cls, buf, len) */                                                             \
    X(FN_NTC) /* NtTraceControl(cls, buf, len, out, out_len, retlen) */                                                 \
    X(FN_ETWCTI) /* EtwCreateTraceInstanceId(handle, buf) */                                                            \
    X(FN_CTI) /* CreateTraceInstanceId(handle, buf) */                                                                  \
    X(FN_ESI) /* EventSetInformation(handle, cls, buf, len) */                                                          \
    X(FN_NTQIP) /* NtQueryIntervalProfile(cls, buf) */                                                                  \
    X(FN_REGISTERTRACEGUIDS) /* used by custom cases */                                                                 \
    X(FN_UNREGISTERTRACEGUIDS)                                                                                          \
    X(FN_EVENTREGISTER)                                                                                                 \
    X(FN_EVENTUNREGISTER)                                                                                               \
    X(FN_GETLASTERROR)                                                                                                  \
    X(FN_SETLASTERROR)                                                                                                  \
    X(FN_ETWESI) /* EtwEventSetInformation */                                                                           \
    X(FN_EXPORT) /* is args.export_name exported by args.module? */                                                     \
    X(FN_CUSTOM) /* .run does the work */
#define ETW_ENUM_ITEM_(name) name,
#define ETW_ENUM_ITEM2_(name, text) name,
enum etw_fn { ETW_FN_LIST(ETW_ENUM_ITEM_) FN_COUNT };

/* handle argument */
#define ETW_HSEL_LIST(X)                                                                                                \
    X(H_ZERO) /* 0 (the default) */                                                                                     \
    X(H_LOGGER) /* the fixture's session */                                                                             \
    X(H_LOGGER_HIGH) /* the fixture's session with args.value ORed into the high bits */                                \
    X(H_LOGGER2) /* the fixture's second session */                                                                     \
    X(H_MISSING) /* a logger id that names no session */                                                                \
    X(H_VALUE) /* args.value as is */                                                                                   \
    X(H_REG) /* the fixture's EventRegister handle */                                                                   \
    X(H_REG_STALE) /* an EventRegister handle after EventUnregister */                                                  \
    X(H_CLASS) /* the fixture's classic registration, class handle args.value */
enum etw_hsel { ETW_HSEL_LIST(ETW_ENUM_ITEM_) };

/* buffer argument */
#define ETW_BSEL_LIST(X)                                                                                                \
    X(B_GUARDED) /* a buffer of args.len bytes, ending at a guard page, sentinel-filled */                              \
    X(B_NULL) /* NULL */
enum etw_bsel { ETW_BSEL_LIST(ETW_ENUM_ITEM_) };

/* length: absolute, or relative to the natural size of the class */
#define EXACT(d) (d), .len_rel = true
/* what to write into the buffer before the call, besides args.in */
#define ETW_PATCH_LIST(X)                                                                                               \
    X(PATCH_NONE)                                                                                                       \
    X(PATCH_HANDLE64) /* the selected handle, 8 bytes, at args.patch_off */                                             \
    X(PATCH_LOGGER32) /* the selected handle's logger id, 4 bytes, at args.patch_off */
enum etw_patch { ETW_PATCH_LIST(ETW_ENUM_ITEM_) };

struct etw_args {
    enum etw_hsel handle;
    etw_u64 value; /* H_VALUE / H_LOGGER_HIGH / H_CLASS */
    etw_u32 cls; /* information class or function code */
    enum etw_bsel buf;
    int len; /* InformationLength (bytes), or relative with EXACT(d) */
    bool len_rel;
    bool retlen_null; /* pass NULL for ReturnLength / ReturnSize */
    const etw_u8 *in; /* bytes copied to the start of the buffer */
    size_t in_len;
    enum etw_patch patch;
    int patch_off;
    enum etw_bsel out_buf; /* NtTraceControl only: output buffer */
    int out_len;
    const char *module; /* FN_EXPORT: "advapi32" ... ; else: resolve from this module only */
    const char *export_name; /* FN_EXPORT */
};

/* bytes helpers for args.in / expected output */
#define U8(x) (etw_u8)(x)
#define U16(x) (etw_u8)((x)&0xFF), (etw_u8)(((x) >> 8) & 0xFF)
#define U32(x) (etw_u8)((x)&0xFF), (etw_u8)(((x) >> 8) & 0xFF), (etw_u8)(((x) >> 16) & 0xFF), (etw_u8)(((x) >> 24) & 0xFF)
#define U64(x) U32((etw_u64)(x)&0xFFFFFFFFu), U32(((etw_u64)(x) >> 32) & 0xFFFFFFFFu)
#define GUIDB_(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) U32(a), U16(b), U16(c), d0, d1, d2, d3, d4, d5, d6, d7
#define GUIDB(...) GUIDB_(__VA_ARGS__) /* a GUID as its 16 bytes */
#define IN(...) .in = (const etw_u8[]){__VA_ARGS__}, .in_len = sizeof((const etw_u8[]){__VA_ARGS__})

/* fixture: the state a case needs before its call */
#define ETW_LOGGER_LIST(X)                                                                                              \
    X(LG_NONE, "")                                                                                                      \
    X(LG_KERNEL, "NT Kernel Logger") /* system logger, logger id selected by 0xFFFF */                                  \
    X(LG_SYSTEM, "system-logger session") /* a private session with EVENT_TRACE_SYSTEM_LOGGER_MODE (6.2+) */            \
    X(LG_PLAIN, "plain session") /* a session without system-logger mode */                                             \
    X(LG_NOACCESS, "no-access session") /* a system-logger session without TRACELOG_GUID_ENABLE access */               \
    X(LG_PRIVATE, "private session") /* a private (EVENT_TRACE_PRIVATE_LOGGER_MODE) session */
enum etw_logger_kind { ETW_LOGGER_LIST(ETW_ENUM_ITEM2_) };
#define ETW_PRIV_LIST(X) X(PRIV_ANY) X(PRIV_HELD) X(PRIV_NOT_HELD)
enum etw_priv { ETW_PRIV_LIST(ETW_ENUM_ITEM_) };

struct etw_fixture {
    enum etw_logger_kind logger;
    enum etw_logger_kind logger2;
    etw_u32 masks[8]; /* initial group masks of the logger */
    const etw_guid *disallow; /* initial disallow list of the logger */
    int ndisallow;
    int classes; /* RegisterTraceGuids with this many event classes */
    bool provider; /* EventRegister a provider (H_REG) */
    enum etw_priv profile_priv; /* SeSystemProfilePrivilege */
    int fail_alloc; /* the n-th allocation inside the call fails (1 = first) */
    bool foreign_pid; /* the classic registration records another process id */
    bool set_counter; /* the class counter of class 0 is set to counter before the call */
    etw_u32 counter;
};

/*
 * What a case needs from the target beyond its function (LTP's .needs_*), checked before the
 * fixture is set up (harness/core/needs.c); the first unmet need, in this order, SKIPs the case.
 * X(NAME, "name" for `etwconf list --json`, "the SKIP reason"). A case's needs are those its
 * fixture implies (etw_case_needs) and those its row declares in .needs (NEED_THREADS for a body
 * that starts threads). Adding one: an entry here, its check in need_met (core/needs.c), where
 * it comes from, and what a live target says (win_live/needs.c).
 */
#define ETW_NEED_LIST(X)                                                                                                                   \
    X(NEED_PRIVATE_SESSION, "private-session", "needs a private session, and the target has no EtwRef_StartLogger control function")       \
    X(NEED_NOACCESS_SESSION, "noaccess-session", "needs a no-access session, and the target has no EtwRef_StartLogger control function")   \
    X(NEED_SYSTEM_SESSION, "system-session", "needs a system-logger session, and the target has no EtwRef_StartLogger control function")   \
    X(NEED_PLAIN_SESSION, "plain-session", "needs a plain session, and the target has no EtwRef_StartLogger control function")             \
    X(NEED_KERNEL_LOGGER, "kernel-logger", "needs a NT Kernel Logger, and the target has no EtwRef_StartLogger control function")          \
    X(NEED_GROUP_MASKS, "group-masks",                                                                                                     \
      "needs group masks set on its session, which takes "                                                                                 \
      "TraceSetInformation(TraceSystemTraceEnableFlagsInfo): Windows 8 (6.2) and later")                                                   \
    X(NEED_NO_KERNEL_LOGGER, "no-kernel-logger",                                                                                           \
      "needs the NT Kernel Logger not to run "                                                                                             \
      "(the case names logger id 0xFFFF and expects it missing)")                                                                          \
    X(NEED_PROFILE_HELD, "profile-privilege", "needs SeSystemProfilePrivilege held: the target has no EtwRef_SetPrivilege")                \
    X(NEED_PROFILE_DROPPED, "no-profile-privilege", "needs SeSystemProfilePrivilege not held: the target has no EtwRef_SetPrivilege")      \
    X(NEED_FOREIGN_REGISTRATION, "foreign-registration",                                                                                   \
      "needs a registration from another process: the target has no EtwRef_SetClassProcessId")                                             \
    X(NEED_CLASS_COUNTER, "class-counter", "needs to preset the class counter: the target has no EtwRef_SetClassCounter")                  \
    X(NEED_FAULT_INJECTION, "fault-injection", "needs allocation fault injection: the target has no EtwRef_FailAllocation")                \
    X(NEED_RESTRICT_GROUP, "restricted-group", "needs a group the caller may not join: the target has no EtwRef_RestrictGroup")            \
    X(NEED_ENABLE_GROUP, "group-enable", "needs to enable a provider group on a session: the target has no EtwRef_EnableGroup")          \
    X(NEED_EVENTS, "events",                                                                                                               \
      "needs a live Windows (a real-time consumer reads the events a provider writes) "                                                    \
      "or a target that models them (EtwRef_EventTraits)")                                                                                 \
    X(NEED_REG_ENTRY_HANDLE, "registration-object",                                                                                        \
      "needs the handle of the registration object behind a REGHANDLE, which user mode cannot get "                                        \
      "through a public API; the target does not name it (EtwRef_RegEntryHandle)")                                                         \
    X(NEED_PMC_SOURCES, "pmc-sources",                                                                                                     \
      "needs a profile source besides the timer listed by the system (hardware counters; a Hyper-V guest lists none)")                   \
    X(NEED_THREADS, "threads", "needs threads, and this process cannot start them")
/* the position of a need in the list (ETW_NEED_I_NEED_THREADS) and its bit (NEED_THREADS) */
#define ETW_NEED_INDEX_(name, text, reason) ETW_NEED_I_##name,
enum etw_need_index { ETW_NEED_LIST(ETW_NEED_INDEX_) ETW_NEED_COUNT };
#define ETW_NEED_BIT_(name, text, reason) name = 1u << ETW_NEED_I_##name,
enum etw_need { NEED_NONE = 0, ETW_NEED_LIST(ETW_NEED_BIT_) };

/* expected outcome at a range of versions */
#define ETW_XKIND_LIST(X)                                                                                               \
    X(XK_CALL, "call") /* the call's outcome is checked */                                                              \
    X(XK_SKIP, "skip") /* the case does not apply here: .why says why */                                                \
    X(XK_PRESENT, "present") /* FN_EXPORT: the export must be there */                                                  \
    X(XK_ABSENT, "absent") /* FN_EXPORT: the export must not be there */
enum etw_xkind { ETW_XKIND_LIST(ETW_ENUM_ITEM2_) };
#define ETW_RLKIND_LIST(X)                                                                                              \
    X(RL_ANY) /* not checked */                                                                                         \
    X(RL_EQ) /* *ReturnLength == value */                                                                               \
    X(RL_UNTOUCHED) /* *ReturnLength still holds the sentinel */
enum etw_rlkind { ETW_RLKIND_LIST(ETW_ENUM_ITEM_) };
#define ETW_OUTKIND_LIST(X)                                                                                             \
    X(OUT_ANY) /* not checked */                                                                                        \
    X(OUT_BYTES) /* the buffer holds these bytes at out_off; the rest after them is untouched */                        \
    X(OUT_PREFIX) /* the buffer holds these bytes at out_off; the rest is not checked */                                \
    X(OUT_UNTOUCHED) /* the buffer still holds the sentinel (or the input) */
enum etw_outkind { ETW_OUTKIND_LIST(ETW_ENUM_ITEM_) };

struct etw_expect {
    unsigned vmin, vmax; /* version keys (spec/abi.h ETW_VKEY), inclusive; 0 ends the list */
    enum etw_xkind kind;
    const char *why; /* XK_SKIP */
    etw_u32 rc; /* expected return value (Win32 code or NTSTATUS) */
    bool rc_alt_ok; /* rc_alt is accepted too (documentation and implementation differ) */
    etw_u32 rc_alt;
    enum etw_rule_id rc_rule;
    enum etw_rule_id fail_rule; /* FAILS(rule): the call fails, whatever its code (the code is .rc_rule's) */
    enum etw_rlkind rl;
    etw_u32 rl_value;
    enum etw_rule_id rl_rule;
    enum etw_outkind out;
    const etw_u8 *out_bytes;
    size_t out_len;
    size_t out_off;
    enum etw_rule_id out_rule;
};

/* the versions by their short names, V6_1 for ETW_V6_1 (spec/versions.def). A range bound is an
 * NT version (V6_1: every 6.1 build) or a build (V10_0_17763: that build and its updates); the range
 * holds the keys from ETW_VLO(lo) to ETW_VHI(hi) (spec/abi.h). Where a later build may behave
 * otherwise and no source says how, UNKNOWN(lo, hi) makes the case SKIP "unknown for 10.0.N". */
enum etw_version_short {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) sym = ETW_##sym,
#include "spec/versions.def"
#undef VERSION
};
extern const char etw_why_unknown[]; /* the reason UNKNOWN() gives: "unknown for <the version run>" */
#define AT(lo, hi, ...) {.vmin = ETW_VLO(lo), .vmax = ETW_VHI(hi), __VA_ARGS__}
#define FROM(lo, ...) AT(lo, ETW_VMAX, __VA_ARGS__)
#define ALL(...) AT(ETW_VMIN, ETW_VMAX, __VA_ARGS__)
#define NA(lo, hi, reason) {.vmin = ETW_VLO(lo), .vmax = ETW_VHI(hi), .kind = XK_SKIP, .why = (reason)}
#define UNKNOWN(lo, hi) NA(lo, hi, etw_why_unknown)
#define ERR(name) ETW_ERROR_##name
#define ST(name) (etw_u32) ETW_STATUS_##name
#define RC_RULE(r) .rc_rule = (r)
/* a rule that states the refusal but not the code: RC_RULE names the code's rule, FAILS the refusal's */
#define FAILS(r) .fail_rule = (r)
#define ALSO(code) .rc_alt_ok = true, .rc_alt = (code)
#define RETLEN(n, rule) .rl = RL_EQ, .rl_value = (n), .rl_rule = (rule)
#define RETLEN_KEPT(rule) .rl = RL_UNTOUCHED, .rl_rule = (rule)
#define UNTOUCHED(rule) .out = OUT_UNTOUCHED, .out_rule = (rule)
#define OUTPUT(rule, ...) .out = OUT_BYTES, .out_rule = (rule), .out_bytes = (const etw_u8[]){__VA_ARGS__}, \
                          .out_len = sizeof((const etw_u8[]){__VA_ARGS__})
#define OUTPUT_AT(off, rule, ...) OUTPUT(rule, __VA_ARGS__), .out_off = (off)
#define PREFIX(rule, ...) .out = OUT_PREFIX, .out_rule = (rule), .out_bytes = (const etw_u8[]){__VA_ARGS__}, \
                          .out_len = sizeof((const etw_u8[]){__VA_ARGS__})
#define PREFIX_AT(off, rule, ...) PREFIX(rule, __VA_ARGS__), .out_off = (off)
#define PRESENT .kind = XK_PRESENT
#define ABSENT .kind = XK_ABSENT

/* names from the X-lists: "FN_TQI", "H_CLASS", "LG_SYSTEM", ...; NULL when out of range
 * (harness/core/rowprint.c) */
const char *etw_fn_enum_name(enum etw_fn v);
const char *etw_hsel_enum_name(enum etw_hsel v);
const char *etw_bsel_enum_name(enum etw_bsel v);
const char *etw_patch_enum_name(enum etw_patch v);
const char *etw_logger_enum_name(enum etw_logger_kind v);
const char *etw_logger_kind_title(enum etw_logger_kind v); /* "system-logger session" */
const char *etw_priv_enum_name(enum etw_priv v);
const char *etw_xkind_name(enum etw_xkind v); /* "call", "skip", "present", "absent" (etwconf list --json) */
/* a range bound's name in rows: "V6_1" (ETW_VLO(V6_1) as lo, ETW_VHI(V6_1) as hi), "V10_0_17763";
 * NULL when no entry gives that bound */
const char *etw_version_enum_name(unsigned key, bool hi);

struct etw_ctx; /* the running case (harness/core/core.h) */
typedef void (*etw_custom_fn)(struct etw_ctx *c);

#define ETW_MAX_EXPECT 6
#define ETW_MAX_RULES 6
#define RULES(...) {__VA_ARGS__}
struct etw_case {
    const char *file;
    int line;
    const char *id; /* unique, lower-case, dotted: "tqi.0b.short" */
    enum etw_rule_id rules[ETW_MAX_RULES]; /* RULES(RID_A, RID_B): the first is the primary rule */
    const char *title; /* one line: the behaviour checked */
    enum etw_fn fn;
    struct etw_args args;
    struct etw_fixture fx;
    unsigned needs; /* enum etw_need bits the fixture does not imply (NEED_THREADS); etw_case_needs() adds the rest */
    struct etw_expect expect[ETW_MAX_EXPECT];
    etw_custom_fn run; /* FN_CUSTOM: the case body (uses the check API of harness/check.h) */
    const void *data; /* FN_CUSTOM: data for .run */
};

#define CASE(...) {.file = __FILE__, .line = __LINE__, __VA_ARGS__},

/* every file in cases/ defines one table and registers it in harness/suite/registry.c */
struct etw_case_table {
    const char *name;
    const struct etw_case *cases;
    size_t count;
};
#define CASE_TABLE(name, arr) const struct etw_case_table name = {#name, arr, sizeof(arr) / sizeof((arr)[0])}

#endif
