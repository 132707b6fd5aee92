/*
 * harness/core/core.h - the core: one case run against a target (README "How it fits together").
 * Case files see its part in harness/case.h, check.h and scenario.h. It uses only itself and the
 * platform (harness/plat/plat.h).
 */
#ifndef ETWCONF_CORE_H
#define ETWCONF_CORE_H

#include "harness/case.h"
#include "harness/check.h"
#include "harness/plat/plat.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct etw_json; /* harness/out/out.h: a target's fingerprint fields are written into one */

#define ETWCONF_VERSION "0.1.0"
#define ETWCONF_SCHEMA "etwconf-results/1"

/* ---------------------------------------------------------------- rules (harness/core/rules.c) */
enum etw_strength { S_MUST, S_SHOULD, S_MAY, S_INFO };
enum etw_provenance { P_SEED, P_DOC, P_OBSERVED, P_INFERRED };
struct etw_rule {
    const char *id;
    enum etw_strength strength;
    enum etw_provenance provenance;
    const char *versions, *function, *codes, *source, *text, *note;
};
extern const struct etw_rule etw_rules[];
extern const size_t etw_rule_count;
const struct etw_rule *etw_rule_get(enum etw_rule_id id); /* NULL for RID_NONE */
const char *etw_rule_name(enum etw_rule_id id); /* "TQI.0B.EXACT_SIZE"; "?" for RID_NONE */
bool etw_rule_counted(const struct etw_rule *r); /* MUST and not INFERRED */
const char *etw_strength_name(enum etw_strength s);
const char *etw_provenance_name(enum etw_provenance p);

/* the n-th rule of a case's .rules; RID_NONE past the end (harness/core/rules.c) */
enum etw_rule_id etw_case_rule(const struct etw_case *c, int n);

/* ---------------------------------------------------------------- the row printer (harness/core/rowprint.c) */
/* a row that has no custom body (.run, .data) prints as source */
bool etw_row_printable(const struct etw_case *c);
/* print c as the CASE(...) source that compiles back to it, each line after indent; false (and
 * nothing printed) when it is not printable */
bool etw_row_print(FILE *f, const struct etw_case *c, const char *indent);

/* ---------------------------------------------------------------- codes (harness/core/codes.c) */
const char *etw_win32_name(etw_u32 code);
const char *etw_ntstatus_name(etw_u32 status);
void etw_format_code(char *buf, size_t len, etw_u32 v, bool ntstatus); /* "24 (ERROR_BAD_LENGTH)" */
/* ---------------------------------------------------------------- versions (harness/core/versions.c) */
/* the version table (spec/versions.def), oldest first */
struct etw_version_info {
    unsigned nt, build, update;
    unsigned key; /* ETW_VKEY(nt, build, update) */
    unsigned id; /* ETW_<sym>: nt for the entries named by their NT version, else key */
    const char *sym, *name, *wine, *label, *aliases, *kb;
};
extern const struct etw_version_info etw_versions[];
extern const size_t etw_version_count;
/* by id (ETW_V6_1: the entry named "6.1"; ETW_V10_0_17763), NULL if unknown */
const struct etw_version_info *etw_version_info(unsigned id);
/* the entry of exactly this key, NULL if none */
const struct etw_version_info *etw_version_by_key(unsigned key);
const char *etw_version_name(unsigned id); /* "6.1", "10.0.26100" */
/* a key's name: its entry's name, else "10.0.18363" (update > 0: "6.1.7601+1") */
void etw_version_key_name(unsigned key, char *buf, size_t len);
/* a range bound's name ("6.1" for ETW_VLO(V6_1) or ETW_VHI(V6_1), "10.0.17763"); the number if no entry */
void etw_version_bound_name(unsigned key, bool hi, char *buf, size_t len);
/* "6.1", "win7", "win7-sp1", "10.0.26100", "10.0.26100" -> the entry's id; "10" -> 10.0; 0 if unknown */
unsigned etw_version_parse(const char *s);

/* ---------------------------------------------------------------- what the core asks of a target (harness/targets/ makes them) */
/* what setting a fixture up (or a target's fixture function) gave: ready, or why not (the
 * reason goes into why) */
enum etw_fx {
    ETW_FX_OK,
    ETW_FX_SKIP, /* the target cannot provide it (a control function is missing): SKIP */
    ETW_FX_BROKEN, /* the target refused to set it up: BROKEN */
    ETW_FX_MISSING, /* the target does not export st->missing, which the fixture calls */
};
/* in a fixture function with why and len: say why, and return ETW_FX_BROKEN */
#define FX_BROKEN(...) return (snprintf(why, len, __VA_ARGS__), ETW_FX_BROKEN)
#define ETW_ENABLED_UNKNOWN 0xFFFFFFFFu /* enable_group's count when the target cannot count */
struct etw_target {
    const char *spec; /* what the user gave: "reference" or a path */
    const char *impl; /* reference | thirdparty | windows | wine */
    const char *name; /* for target_id: "reference", file name, "windows", "wine" */
    const char *arch;
    void *handle; /* dlopen / LoadLibrary handle */
    /* any symbol of the target by name, NULL when absent */
    void *(*sym)(struct etw_target *t, const char *name);
    /* GetProcAddress(module, name) as the target's Windows (or emulated Windows) answers it;
     * NULL when the target has no per-module export model (then sym() decides) */
    void *(*proc)(const char *module, const char *name);
    bool emulates; /* set_version works */
    unsigned version, build; /* the version expectations are chosen for: NT version (ETW_V6_1), build */
    unsigned update; /* and update level (spec/versions.def): the key is ETW_VKEY(version, build, update) */
    const char *version_label; /* target_id version part (wine: "win10"); NULL = etw_version_name */
    /* control API (reference/etwref.h), NULL where the target lacks it; the fixture functions say
     * why they failed (a library's EtwRef_* functions are adapted: harness/targets/target.c) */
    int (*reset)(void);
    int (*set_version)(unsigned version, unsigned build);
    enum etw_fx (*start_logger)(struct etw_target *t, unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle, char *why, size_t len);
    int (*stop_logger)(etw_tracehandle handle);
    etw_tracehandle (*missing_logger)(void);
    enum etw_fx (*set_privilege)(struct etw_target *t, unsigned privilege, int held, char *why, size_t len);
    int (*fail_alloc)(unsigned nth);
    int (*set_class_counter)(etw_handle h, etw_u32 value);
    int (*set_class_pid)(etw_handle h, etw_u32 pid);
    int (*restrict_group)(const etw_guid *group);
    /* enable a provider group on a session with ETW_GROUP_ENABLE_LEVEL and _KEYWORDS (spec/abi.h):
     * a Win32 code, the members' enable callbacks called by its return; *enabled: how many, or
     * ETW_ENABLED_UNKNOWN (live Windows: the callbacks show it) */
    etw_u32 (*enable_group)(etw_tracehandle session, const etw_guid *group, etw_u32 *enabled);
    /* the provider traits an event of reg, read back by a real-time consumer of session, carries:
     * ETW_FX_OK with its PROV_TRAITS data in out (*size bytes), or *size 0 and *absent saying why;
     * SKIP or BROKEN with why. NULL: the target does not model events (no EtwRef_EventTraits). */
    enum etw_fx (*event_traits)(struct etw_target *t, etw_tracehandle session, const etw_guid *provider, etw_reghandle reg, etw_u8 *out,
                                etw_u32 cap, etw_u32 *size, const char **absent, char *why, size_t len);
    /* platform extras: fingerprint fields for the results header (may be NULL) */
    void (*fingerprint)(struct etw_target *t, struct etw_json *j);
    /* the target's own answer on a need (one bit of enum etw_need) whose portable check passed (the
     * live system: rights, session kinds, the kernel logger, its token): false to SKIP, why filled
     * or left empty for the need's reason. May be NULL. */
    bool (*need)(struct etw_target *t, unsigned need, char *why, size_t len);
    /* a target that changes system-wide state takes it for the whole run (the runner calls this
     * once, workers do not): false, why filled, when another run holds it. May be NULL. */
    bool (*claim)(struct etw_target *t, char *why, size_t len);
    /* a worker process that ran cases of this target ended abnormally: undo what it may have left
     * on the system (the live Windows target stops that process's sessions); may be NULL */
    void (*worker_died)(struct etw_target *t, unsigned long pid);
    /* the EtwRef_* functions a library exports, behind the adapters above */
    int (*ref_start_logger)(unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle);
    int (*ref_set_privilege)(unsigned privilege, int held);
    int (*ref_event_traits)(etw_reghandle reg, etw_u8 *out, etw_u32 cap, etw_u32 *size);
};

/* ---------------------------------------------------------------- the API functions (harness/core/functions.c) */
const char *etw_fn_name(enum etw_fn fn);
bool etw_fn_returns_ntstatus(enum etw_fn fn);
/* the export rule whose function fn depends on (EXP.*) */
enum etw_rule_id etw_fn_export_rule(enum etw_fn fn);
/* the i-th module etw_resolve() looks fn up in (NULL past the last) */
const char *etw_fn_module(enum etw_fn fn, int i);
/* resolve an API function for fn on t: the first module that exports it; *where gets "module!name" */
void *etw_resolve(struct etw_target *t, enum etw_fn fn, const char **where);

/* ---------------------------------------------------------------- results */
enum etw_status_kind { R_PASS, R_FAIL, R_SKIP, R_BROKEN, R_CRASH, R_TIMEOUT, R_COUNT };
const char *etw_status_name(enum etw_status_kind s);

#define ETW_MAX_CHECKS 40
struct etw_check_rec {
    char what[64]; /* copied: custom cases build labels in stack buffers */
    enum etw_rule_id rule;
    enum etw_aspect aspect;
    const char *file; /* NULL: a check of the row's expectation (the row's file and line) */
    int line;
    char expected[112];
    char got[112];
    bool ok;
};
struct etw_result {
    const struct etw_case *c;
    enum etw_status_kind status;
    bool counted;
    const char *mode; /* RESULTS.md "mode" */
    char reason[256]; /* SKIP / BROKEN */
    char message[512]; /* first failure, or crash description */
    char exception[48]; /* CRASH: "0x80000100", "SIGSEGV" */
    struct etw_check_rec checks[ETW_MAX_CHECKS];
    int nchecks;
    uint64_t duration_us;
};

/* ---------------------------------------------------------------- the call engine (harness/core/fixture.c, call.c)
 * One engine for rows, custom cases and the fuzzer: a fixture set up into a state, a call made
 * from struct etw_args against it, its outcome kept for expect.c or for comparison (tools/fuzz). */
struct etw_fixture_state {
    etw_tracehandle logger, logger2; /* the sessions of .logger and .logger2 */
    bool have_logger, have_logger2;
    etw_tracehandle classic; /* the RegisterTraceGuidsW registration of .classes */
    bool have_classic;
    int nclasses;
    ETW_TRACE_GUID_REGISTRATION regs[4];
    etw_guid reg_guids[4];
    etw_reghandle reg; /* the EventRegister provider of .provider */
    bool have_reg;
    etw_reghandle stale_reg; /* a provider registered and unregistered again (H_REG_STALE) */
    enum etw_fn missing; /* ETW_FX_MISSING: the function the target does not export */
};
/* the GUIDs a fixture registers: the classic control GUID (class i: last byte 0x10 + i) and the provider */
extern const etw_guid etw_fixture_control_guid, etw_fixture_provider_guid;
/* set fx up on t (its current version); fns: the target's API by enum etw_fn, or NULL to resolve
 * through etw_resolve(); stale_reg: also make the stale provider handle of H_REG_STALE */
enum etw_fx etw_fixture_setup(struct etw_target *t, void *const *fns, const struct etw_fixture *fx, bool stale_reg,
                              struct etw_fixture_state *st, char *why, size_t len);
void etw_fixture_teardown(struct etw_target *t, struct etw_fixture_state *st);
/* start a session of kind through the target's control API (the fixture's loggers, custom cases) */
enum etw_fx etw_fixture_logger(struct etw_target *t, enum etw_logger_kind kind, const etw_u32 masks[8], etw_tracehandle *h,
                               char *why, size_t len);

/* the prerequisites (harness/case.h ETW_NEED_LIST, harness/core/needs.c), checked before a
 * fixture is set up: etw_fixture_setup() assumes them and fails BROKEN where one is missing */
struct etw_need_info {
    unsigned bit; /* NEED_THREADS */
    const char *sym; /* "NEED_THREADS", as rows write it */
    const char *name; /* "threads" */
    const char *reason; /* the SKIP reason when the target lacks it */
};
extern const struct etw_need_info etw_need_infos[ETW_NEED_COUNT]; /* in checking order */
const struct etw_need_info *etw_need_info(unsigned bit); /* NULL unless bit is one need */
unsigned etw_fixture_needs(const struct etw_fixture *fx); /* what setting fx up takes */
unsigned etw_logger_needs(enum etw_logger_kind kind, const etw_u32 masks[8]); /* a session of kind */
bool etw_masks_set(const etw_u32 masks[8]); /* any of the eight group masks non-zero (NULL: none) */
/* a case's needs: its fixture's, its row's .needs, and what its arguments imply (a case that
 * names the NT Kernel Logger by its id 0xFFFF without starting one expects none to run) */
unsigned etw_case_needs(const struct etw_case *c);
/* the first of needs (in the list's order) that t does not meet: its bit, and the SKIP reason in
 * why; 0 when every need is met */
unsigned etw_needs_check(struct etw_target *t, unsigned needs, char *why, size_t len);

/* the handle a selector names, in a fixture state (NULL state: no fixture) */
etw_u64 etw_call_handle(struct etw_target *t, const struct etw_fixture_state *st, enum etw_hsel h, etw_u64 value);
/* the exact size of the class, for EXACT(d) lengths */
int etw_call_natural_size(enum etw_fn fn, const struct etw_args *a);
/* the input bytes and the handle patch, written over a sentinel-filled buffer of len bytes */
void etw_call_fill(etw_u8 *buf, size_t len, const etw_u8 *in, size_t in_len, enum etw_patch patch, int patch_off, etw_u64 h);
/* can a data row call fn (the functions etw_call_invoke makes)? */
bool etw_call_row_fn(enum etw_fn fn);
/* make the call: false when fn cannot be called from a row */
bool etw_call_invoke(enum etw_fn fn, void *fnp, etw_u64 h, etw_u32 cls, etw_u8 *buf, etw_u32 len, etw_u8 *out, etw_u32 out_len,
                     etw_u32 *retlen, etw_u32 *rc);
/* what a row's call did */
struct etw_outcome {
    etw_u32 rc;
    etw_u32 retlen; /* what the call left in ReturnLength (ETW_SENTINEL32: not written) */
    bool retlen_passed; /* a ReturnLength pointer was passed */
    bool retlen_written;
    struct etw_guard *buf, *out; /* the buffer and the NtTraceControl output buffer (NULL: none) */
    size_t len, out_len;
    etw_u8 *before, *out_before; /* their bytes before the call (malloc'd: etw_outcome_free) */
};
/* where a row's guarded buffers come from (the running case keeps and frees them); NULL: failed */
typedef struct etw_guard *(*etw_guard_fn)(void *arg, size_t len);
/* prepare the handle and buffers of a row's call, make it and fill o; false with why (BROKEN) when
 * the buffers could not be made or fn cannot be called from a row */
bool etw_call(struct etw_target *t, const struct etw_fixture_state *st, const struct etw_fixture *fx, enum etw_fn fn, void *fnp,
              const struct etw_args *a, etw_guard_fn guard, void *guard_arg, struct etw_outcome *o, char *why, size_t len);
void etw_outcome_free(struct etw_outcome *o);
struct etw_ctx;
/* may the system have refused, from kernel mode, an access past the end of the row's guarded
 * buffer? Windows reads a caller's buffer in kernel mode inside try/except ("Drivers must call
 * ProbeForRead inside a try/except block", the "ProbeForRead" and "ProbeForWrite" pages), so the
 * guard page shows as STATUS_ACCESS_VIOLATION (ERROR_NOACCESS for the Win32 functions). True when
 * the call had a guarded buffer and returned that code unexpected; core/run.c then proves it. */
bool etw_kernel_refused_overrun(enum etw_fn fn, const struct etw_outcome *o, const struct etw_expect *x);
/* the checks of a row's expectation x against the outcome of its call (harness/core/expect.c) */
void etw_expect_call(struct etw_ctx *ctx, const struct etw_expect *x, enum etw_fn fn, const struct etw_outcome *o);
/* FN_EXPORT rows: a->module!a->export_name present or absent as x says */
void etw_expect_export(struct etw_ctx *ctx, const struct etw_expect *x, const struct etw_args *a);

/* ---------------------------------------------------------------- running (harness/core/run.c) */
/* how cases are isolated from the runner, the same on every host (harness/exec/runner.c) */
enum etw_isolation { ISO_BATCH, ISO_CHILD, ISO_INPROC };
/* which time budget holds for a running case: its calls under test (--timeout-ms: a TIMEOUT,
 * counted) or its fixture (reset, setup, teardown, a session, a group enable, events read back):
 * a fixture past its budget proves nothing about the target, the case is BROKEN. */
enum etw_phase { ETW_PHASE_CALL, ETW_PHASE_FIXTURE };
/* the fixture budget: longer than the longest wait a fixture makes (a live consumer waits up to
 * 10 s for an event, its enable calls up to 5 s each: harness/tests/unit_livefx.c checks it) */
#define ETW_FIXTURE_BUDGET_MS 60000u
struct etw_runner {
    struct etw_target *t;
    unsigned version; /* the version table entry's id (ETW_V6_1, ETW_V10_0_26100): expectations, names */
    const struct etw_case **plan;
    size_t nplan;
    enum etw_isolation isolation;
    bool fallback; /* in process until a CRASH or TIMEOUT, then batch workers for the rest */
    bool fell_back; /* set by the runner when that happened */
    unsigned timeout_ms;
    unsigned fixture_ms; /* the fixture budget; 0: ETW_FIXTURE_BUDGET_MS */
    volatile int phase_now; /* enum etw_phase of the case running in this process */
    /* told of every phase change of the case running (a worker sends it to the runner) */
    void (*on_phase)(void *arg, enum etw_phase p);
    void *phase_arg;
    const char *rerun_prefix; /* "build/etwconf run --target reference --emulate 6.1" */
    /* output */
    FILE *out;
    int out_errno; /* the first error writing out (errno value): the run stops, exit 3 */
    bool quiet, verbose, progress; /* progress: a live counter on a terminal */
    unsigned long counts[R_COUNT];
    unsigned long counted_failures;
    unsigned long seq;
    uint64_t started_us;
};

/* the state of one running case (custom cases get it as their argument) */
struct etw_ctx {
    struct etw_runner *r;
    struct etw_target *t;
    const struct etw_case *c;
    const struct etw_expect *x; /* the expectation in force */
    struct etw_result *res;
    unsigned version;
    struct etw_fixture_state fixture; /* what the row's .fx set up (custom cases read its handles) */
    /* guarded buffers handed out during the case, released after it */
    struct etw_guard *guards[8];
    int nguards;
    bool stop; /* a SKIP/BROKEN/missing export ended the case */
};

/* the key expectations are picked by: the entry's, or a live target's reported build and update */
unsigned etw_runner_key(const struct etw_runner *r);
/* run one case to a result: fixture, call, checks, teardown (isolation: harness/exec/) */
void etw_run_case(struct etw_runner *r, const struct etw_case *c, struct etw_result *res);
/* the budget of phase p in r, in ms (0: none) */
unsigned etw_phase_budget_ms(const struct etw_runner *r, enum etw_phase p);
/* the case enters phase p: its deadline is p's budget from now, and r->on_phase hears of it */
void etw_phase(struct etw_ctx *ctx, enum etw_phase p);
/* a case ended because phase p passed budget_ms: TIMEOUT in the call, BROKEN (mode
 * "fixture-timeout") in the fixture; how says what was done ("the worker was killed") */
void etw_result_unfinished(struct etw_result *res, const struct etw_case *c, enum etw_phase p, unsigned budget_ms, const char *how);
/* results of a case the platform had to end: CRASH or TIMEOUT */
void etw_result_abnormal(struct etw_result *res, const struct etw_case *c, enum etw_status_kind st,
                         const char *exception, const char *message);
/* finish a result: status from the checks, counted, mode, message */
void etw_result_finish(struct etw_result *res);

/* a check of the row's expectation, through the path of the check API (harness/check.h) */
bool etw_check_row(struct etw_ctx *c, enum etw_rule_id rule, enum etw_aspect asp, const char *what, bool ok, const char *expected,
                   const char *got);

/* ---------------------------------------------------------------- guarded buffers and calls (harness/core/guard.c) */
#define ETW_SENTINEL32 0xDEADBEEFu
extern const etw_u8 etw_sentinel[4]; /* DE AD BE EF, repeated through every buffer */

struct etw_guard {
    etw_u8 *map; /* whole mapping */
    size_t map_len;
    etw_u8 *buf; /* the caller's buffer: buf + len is the guard page */
    size_t len;
    etw_u8 *guard; /* first byte of the guard page */
    size_t guard_len;
};
#define ETW_PRE_ZONE 64 /* sentinel bytes before each buffer, checked for underruns */
/* a sentinel-filled buffer of len bytes ending at an inaccessible page (plat_map_guarded) */
bool etw_guard_alloc(struct etw_guard *g, size_t len);
void etw_guard_free(struct etw_guard *g);
/* fn(ctx) under plat_guarded_call() with ctx->guards' guard pages: 0 returned, 1 a write into a
 * guard page (*fault_offset past the buffer), 2 another fault (exception filled), 3 a hang */
int etw_guarded_call(struct etw_ctx *ctx, void (*fn)(struct etw_ctx *), char *exception, size_t exlen, long *fault_offset);

#endif
