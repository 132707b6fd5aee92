/*
 * harness/check.h - what a custom case body (.fn = FN_CUSTOM, .run = fn) may call.
 *
 * Every check names the rule it enforces (a typed id, RID_PRIMARY for the case's first rule) and
 * the aspect of the outcome it looks at, and records its own file and line, so a failure points
 * at the check and a misspelt rule id does not compile:
 *
 *   CHECK_WIN32(c, RID_CTI_LAST_ERROR, A_LASTERR, "last error after the failure", rc, le);
 *   CHECK_U32(c, RID_CTI_COUNTER, A_OUTPUT, "output: InstanceId", 1, info.InstanceId);
 *   CHECK(c, RID_CTI_OUTPUT, A_OUTPUT, "output: RegHandle", ok, "the RegHandle given", "%p", h);
 *
 * A check returns whether it held. SKIP and BROKEN end the case with a reason.
 */
#ifndef ETWCONF_CHECK_H
#define ETWCONF_CHECK_H

#include "harness/case.h"
#include <stdbool.h>

struct etw_ctx;

/* what a check looks at; a failure's "mode" (harness/RESULTS.md) is the aspect of its first failed check */
#define ETW_ASPECTS(X)                                                                                                      \
    X(A_RETURN, "return")              /* the return value */                                                              \
    X(A_RETLEN, "return-length")       /* *ReturnLength / *ReturnSize */                                                   \
    X(A_OUTPUT, "output")              /* bytes the call wrote */                                                          \
    X(A_SENTINEL, "sentinel")          /* bytes the call must not have written */                                          \
    X(A_BOUNDS, "overrun")             /* writes outside the buffer */                                                     \
    X(A_EXPORT, "missing-export")      /* a module's export */                                                             \
    X(A_LASTERR, "last-error")         /* GetLastError() after the call */                                                \
    X(A_STATE, "state")                /* state read back by later calls */
enum etw_aspect {
#define ETW_ASPECT_ENUM(sym, mode) sym,
    ETW_ASPECTS(ETW_ASPECT_ENUM)
#undef ETW_ASPECT_ENUM
};
const char *etw_aspect_mode(enum etw_aspect a);

bool etw_check_at(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp, const char *what,
                  bool ok, const char *expected, const char *got_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;
bool etw_check_u32_at(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp,
                      const char *what, etw_u32 expected, etw_u32 got);
bool etw_check_code_at(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp,
                       const char *what, etw_u32 expected, etw_u32 got, bool ntstatus);

#define CHECK(c, rule, asp, what, ok, expected, ...) \
    etw_check_at((c), __FILE__, __LINE__, (rule), (asp), (what), (ok), (expected), __VA_ARGS__)
#define CHECK_U32(c, rule, asp, what, expected, got) \
    etw_check_u32_at((c), __FILE__, __LINE__, (rule), (asp), (what), (expected), (got))
/* a Win32 error code (as returned by advapi32 functions or GetLastError) */
#define CHECK_WIN32(c, rule, asp, what, expected, got) \
    etw_check_code_at((c), __FILE__, __LINE__, (rule), (asp), (what), (expected), (got), false)
/* an NTSTATUS (as returned by ntdll functions) */
#define CHECK_NTSTATUS(c, rule, asp, what, expected, got) \
    etw_check_code_at((c), __FILE__, __LINE__, (rule), (asp), (what), (expected), (got), true)

void etw_skip(struct etw_ctx *c, const char *fmt, ...);
void etw_broken(struct etw_ctx *c, const char *fmt, ...);
/* the API function for fn, or NULL: then the case has FAILed (missing export) or SKIPped */
void *etw_api(struct etw_ctx *c, enum etw_fn fn);
void *etw_guarded(struct etw_ctx *c, size_t len); /* sentinel-filled buffer ending at a guard page */
/* start a session of kind (enum etw_logger_kind) through the target's control API; SKIP with the
 * reason when the target does not meet its needs (etw_logger_needs) */
bool etw_start_logger(struct etw_ctx *c, enum etw_logger_kind kind, const etw_u32 masks[8], etw_tracehandle *h);
/* the target's fixture functions a case body calls (struct etw_target .enable_group, .event_traits),
 * made within the fixture's time budget, not the call's (etw_phase) */
etw_u32 etw_enable_group(struct etw_ctx *c, etw_tracehandle session, const etw_guid *group, etw_u32 *enabled);
enum etw_fx etw_event_traits(struct etw_ctx *c, etw_tracehandle session, const etw_guid *provider, etw_reghandle reg, etw_u8 *out,
                             etw_u32 cap, etw_u32 *size, const char **absent, char *why, size_t len);

#endif
