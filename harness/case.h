/*
 * harness/case.h - the case-row format. A case is one behaviour: a call (or a short custom
 * sequence) against a fixture, and the expected outcome for each version. Rows live in cases/ files.
 *
 *   CASE(.id = "tqi.0b.len-short", .rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_TQI_RETLEN_FAILURE),
 *        .title = "TraceVersionInfo with 7 bytes is rejected",
 *        .fn = FN_TQI, .args = { .cls = 0x0B, .len = EXACT(-1) },
 *        .expect = { AT(V10_0, V10_0, .rc = ERR(BAD_LENGTH), RETLEN(8, RID_TQI_RETLEN_FAILURE),
 *                       UNTOUCHED(RID_TQI_NO_WRITE_ON_FAILURE)),
 *                    AT(V6_2, V6_3, .rc = ERR(NOT_SUPPORTED)) })
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

/* the function under test */
enum etw_fn {
    FN_NONE,
    FN_TQI, /* TraceQueryInformation(handle, cls, buf, len, retlen) */
    FN_TSI, /* TraceSetInformation(handle, cls, buf, len) */
    FN_NTQSI, /* NtQuerySystemInformation(cls, buf, len, retlen) */
    FN_NTSSI, /* NtSetSystemInformation(cls, buf, len) */
    FN_NTC, /* NtTraceControl(cls, buf, len, out, out_len, retlen) */
    FN_ETWCTI, /* EtwCreateTraceInstanceId(handle, buf) */
    FN_CTI, /* CreateTraceInstanceId(handle, buf) */
    FN_ESI, /* EventSetInformation(handle, cls, buf, len) */
    FN_NTQIP, /* NtQueryIntervalProfile(cls, buf) */
    FN_REGISTERTRACEGUIDS, /* used by custom cases */
    FN_UNREGISTERTRACEGUIDS,
    FN_EVENTREGISTER,
    FN_EVENTUNREGISTER,
    FN_GETLASTERROR,
    FN_SETLASTERROR,
    FN_ETWESI, /* EtwEventSetInformation */
    FN_EXPORT, /* is args.export_name exported by args.module? */
    FN_CUSTOM, /* .run does the work */
    FN_COUNT
};

/* handle argument */
enum etw_hsel {
    H_ZERO = 0, /* 0 (the default) */
    H_LOGGER, /* the fixture's session */
    H_LOGGER_HIGH, /* the fixture's session with args.value ORed into the high bits */
    H_LOGGER2, /* the fixture's second session */
    H_MISSING, /* a logger id that names no session */
    H_VALUE, /* args.value as is */
    H_REG, /* the fixture's EventRegister handle */
    H_REG_STALE, /* an EventRegister handle after EventUnregister */
    H_CLASS, /* the fixture's classic registration, class handle args.value */
};

/* buffer argument */
enum etw_bsel {
    B_GUARDED = 0, /* a buffer of args.len bytes, ending at a guard page, sentinel-filled */
    B_NULL, /* NULL */
};

/* length: absolute, or relative to the natural size of the class */
#define EXACT(d) (d), .len_rel = true
/* what to write into the buffer before the call, besides args.in */
enum etw_patch {
    PATCH_NONE = 0,
    PATCH_HANDLE64, /* the selected handle, 8 bytes, at args.patch_off */
    PATCH_LOGGER32, /* the selected handle's logger id, 4 bytes, at args.patch_off */
};

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
enum etw_logger_kind {
    LG_NONE = 0,
    LG_KERNEL, /* the NT Kernel Logger (system logger, logger id selected by 0xFFFF) */
    LG_SYSTEM, /* a private session with EVENT_TRACE_SYSTEM_LOGGER_MODE (6.2+) */
    LG_PLAIN, /* a session without system-logger mode */
    LG_NOACCESS, /* a system-logger session the caller has no TRACELOG_GUID_ENABLE access to */
    LG_PRIVATE, /* a private (EVENT_TRACE_PRIVATE_LOGGER_MODE) session */
};
enum etw_priv { PRIV_ANY = 0, PRIV_HELD, PRIV_NOT_HELD };

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

/* what a case needs from the target beyond its function; missing => SKIP with the reason */
enum etw_need {
    NEED_NONE = 0,
    NEED_THREADS = 1 << 0,
};

/* expected outcome at a range of versions */
enum etw_xkind {
    XK_CALL = 0, /* the call's outcome is checked */
    XK_SKIP, /* the case does not apply here: .why says why */
    XK_PRESENT, /* FN_EXPORT: the export must be there */
    XK_ABSENT, /* FN_EXPORT: the export must not be there */
};
enum etw_rlkind {
    RL_ANY = 0, /* not checked */
    RL_EQ, /* *ReturnLength == value */
    RL_UNTOUCHED, /* *ReturnLength still holds the sentinel */
};
enum etw_outkind {
    OUT_ANY = 0, /* not checked */
    OUT_BYTES, /* the buffer holds these bytes at out_off; the rest after them is untouched */
    OUT_PREFIX, /* the buffer holds these bytes at out_off; the rest is not checked */
    OUT_UNTOUCHED, /* the buffer still holds the sentinel (or the input) */
};

struct etw_expect {
    unsigned vmin, vmax; /* 0 ends the list */
    enum etw_xkind kind;
    const char *why; /* XK_SKIP */
    etw_u32 rc; /* expected return value (Win32 code or NTSTATUS) */
    bool rc_alt_ok; /* rc_alt is accepted too (documentation and implementation differ) */
    etw_u32 rc_alt;
    enum etw_rule_id rc_rule;
    enum etw_rlkind rl;
    etw_u32 rl_value;
    enum etw_rule_id rl_rule;
    enum etw_outkind out;
    const etw_u8 *out_bytes;
    size_t out_len;
    size_t out_off;
    enum etw_rule_id out_rule;
};

/* the versions by their short names, V6_1 for ETW_V6_1 (spec/versions.def) */
enum etw_version_short {
#define VERSION(sym, nt, build, name, wine, label) sym = nt,
#include "spec/versions.def"
#undef VERSION
};
#define AT(lo, hi, ...) {.vmin = (lo), .vmax = (hi), __VA_ARGS__}
#define FROM(lo, ...) AT(lo, ETW_VMAX, __VA_ARGS__)
#define ALL(...) AT(ETW_VMIN, ETW_VMAX, __VA_ARGS__)
#define NA(lo, hi, reason) {.vmin = (lo), .vmax = (hi), .kind = XK_SKIP, .why = (reason)}
#define ERR(name) ETW_ERROR_##name
#define ST(name) (etw_u32) ETW_STATUS_##name
#define RC_RULE(r) .rc_rule = (r)
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

struct etw_ctx; /* the running case (harness/etwconf.h) */
typedef void (*etw_custom_fn)(struct etw_ctx *c);

#define ETW_MAX_EXPECT 6
#define ETW_MAX_RULES 6
#define RULES(...) {__VA_ARGS__}
struct etw_case {
    const char *file;
    int line;
    const char *id; /* unique, lower-case, dotted: "tqi.0b.len-short" */
    enum etw_rule_id rules[ETW_MAX_RULES]; /* RULES(RID_A, RID_B): the first is the primary rule */
    const char *title; /* one line: the behaviour checked */
    enum etw_fn fn;
    struct etw_args args;
    struct etw_fixture fx;
    unsigned needs; /* enum etw_need bits */
    struct etw_expect expect[ETW_MAX_EXPECT];
    etw_custom_fn run; /* FN_CUSTOM: the case body (uses the check API in etwconf.h) */
    const void *data; /* FN_CUSTOM: data for .run */
};

#define CASE(...) {.file = __FILE__, .line = __LINE__, __VA_ARGS__},

/* every file in cases/ defines one table and registers it in harness/core/registry.c */
struct etw_case_table {
    const char *name;
    const struct etw_case *cases;
    size_t count;
};
#define CASE_TABLE(name, arr) const struct etw_case_table name = {#name, arr, sizeof(arr) / sizeof((arr)[0])}

#endif
