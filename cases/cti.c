/* cases/cti.c - EtwCreateTraceInstanceId, CreateTraceInstanceId, RegisterTraceGuids (spec/rules/cti.def). */
#include "cases/common.h"
#include <stdlib.h>

static void cti_counter(struct etw_ctx *c);
static void cti_wrap(struct etw_ctx *c);
static void cti_restart(struct etw_ctx *c);
static void cti_per_class(struct etw_ctx *c);
static void cti_last_error(struct etw_ctx *c);
static void cti_reghandle_first(struct etw_ctx *c);
static void cti_forward(struct etw_ctx *c);
static void cti_atomic(struct etw_ctx *c);
static void rtg_null_args(struct etw_ctx *c);
static void rtg_null_context(struct etw_ctx *c);
static void rtg_null_regs(struct etw_ctx *c);
static void rtg_count_limit(struct etw_ctx *c);
static void rtg_reghandles(struct etw_ctx *c);

static const struct etw_case cases[] = {
    CASE(.id = "cti.null-handle", .rules = RULES(RID_CTI_NULL_HANDLE), .title = "a NULL RegHandle: ERROR_INVALID_PARAMETER", .fn = FN_ETWCTI,
         .args = {.handle = H_ZERO, .len = EXACT(0)}, .expect = {ALL(.rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "cti.null-info", .rules = RULES(RID_CTI_NULL_INFO), .title = "a NULL InstInfo: ERROR_INVALID_PARAMETER", .fn = FN_ETWCTI,
         .fx = {.classes = 1}, .args = {.handle = H_CLASS, .buf = B_NULL}, .expect = {ALL(.rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "cti.foreign-process", .rules = RULES(RID_CTI_FOREIGN_PROCESS), .title = "a class registered by another process: ERROR_INVALID_PARAMETER",
         .fn = FN_ETWCTI, .fx = {.classes = 1, .foreign_pid = true}, .args = {.handle = H_CLASS, .len = EXACT(0)},
         .expect = {ALL(.rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "cti.counter", .rules = RULES(RID_CTI_COUNTER, RID_CTI_OUTPUT), .title = "a fresh class gives ids 1, 2, 3 and echoes RegHandle",
         .fn = FN_CUSTOM, .run = cti_counter, .fx = {.classes = 1}, .expect = {ALL()})
    CASE(.id = "cti.wrap", .rules = RULES(RID_CTI_WRAP), .title = "after 0xFFFFFFFF the next id is 1: zero is skipped", .fn = FN_CUSTOM,
         .run = cti_wrap, .fx = {.classes = 1, .set_counter = true, .counter = 0xFFFFFFFE}, .expect = {ALL()})
    CASE(.id = "cti.restart", .rules = RULES(RID_CTI_RESTART), .title = "after unregistering and registering again the ids restart at 1",
         .fn = FN_CUSTOM, .run = cti_restart, .expect = {ALL()})
    CASE(.id = "cti.per-class", .rules = RULES(RID_CTI_PER_CLASS), .title = "each class has its own counter", .fn = FN_CUSTOM, .run = cti_per_class,
         .fx = {.classes = 2}, .expect = {ALL()})
    CASE(.id = "cti.last-error", .rules = RULES(RID_CTI_LAST_ERROR, RID_CTI_LAST_ERROR_SUCCESS),
         .title = "a failure sets the last error; a success leaves it alone", .fn = FN_CUSTOM, .run = cti_last_error,
         .fx = {.classes = 1}, .expect = {ALL()})
    CASE(.id = "cti.reghandle-first", .rules = RULES(RID_CTI_REGHANDLE_FIRST), .title = "a foreign-process failure has already written InstInfo->RegHandle",
         .fn = FN_CUSTOM, .run = cti_reghandle_first, .fx = {.classes = 1, .foreign_pid = true}, .expect = {ALL()})
    CASE(.id = "cti.forward", .rules = RULES(RID_CTI_FORWARD), .title = "ADVAPI32's CreateTraceInstanceId counts and checks as NTDLL's does",
         .fn = FN_CUSTOM, .run = cti_forward, .fx = {.classes = 1}, .expect = {ALL()})
    CASE(.id = "cti.atomic", .rules = RULES(RID_CTI_ATOMIC), .title = "4 threads x 5000 ids on one class: no id twice, none lost", .fn = FN_CUSTOM,
         .run = cti_atomic, .fx = {.classes = 1}, .needs = NEED_THREADS, .expect = {ALL()})
    CASE(.id = "rtg.null-args", .rules = RULES(RID_RTG_NULL_ARGS), .title = "NULL RequestAddress, ControlGuid or RegistrationHandle: ERROR_INVALID_PARAMETER",
         .fn = FN_CUSTOM, .run = rtg_null_args, .expect = {ALL()})
    CASE(.id = "rtg.null-context", .rules = RULES(RID_RTG_NULL_CONTEXT, RID_RTG_REGHANDLES),
         .title = "a NULL RequestContext is optional: the registration succeeds", .fn = FN_CUSTOM, .run = rtg_null_context,
         .expect = {ALL()})
    CASE(.id = "rtg.null-regs", .rules = RULES(RID_RTG_NULL_REGS), .title = "GuidCount 1 with a NULL TraceGuidReg: ERROR_INVALID_PARAMETER",
         .fn = FN_CUSTOM, .run = rtg_null_regs, .expect = {ALL()})
    CASE(.id = "rtg.count-limit", .rules = RULES(RID_RTG_COUNT_LIMIT), .title = "GuidCount 0x10001 is above 64K: ERROR_INVALID_PARAMETER",
         .fn = FN_CUSTOM, .run = rtg_count_limit, .expect = {ALL()})
    CASE(.id = "rtg.reghandles", .rules = RULES(RID_RTG_REGHANDLES), .title = "registration fills a distinct RegHandle for every class",
         .fn = FN_CUSTOM, .run = rtg_reghandles, .fx = {.classes = 3}, .expect = {ALL()})
};
CASE_TABLE(cases_cti, cases);

static etw_u32 ETW_WINAPI cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    (void)code, (void)ctx, (void)size, (void)buf;
    return 0;
}
static const etw_guid ctl = {0xE7C0F0AA, 0x7E57, 0x4E7C, {0x9a, 0x11, 0, 0, 0xc0, 0xf0, 0xaa, 0x01}};
static const etw_guid cls0 = {0xE7C0F0AA, 0x7E57, 0x4E7C, {0x9a, 0x11, 0, 0, 0xc0, 0xf0, 0xaa, 0x02}};
/* the RequestContext of every registration but rtg.null-context's: the context is optional, and an
 * implementation that rejects NULL (ReactOS) must fail that case only, not every case that registers */
static int rtg_context;
#define CTX ((void *)&rtg_context)

/* n ids from class h; checks each against want[i] */
static void expect_ids(struct etw_ctx *c, etw_pfn_CreateTraceInstanceId f, etw_handle h, const etw_u32 *want, int n, enum etw_rule_id rule)
{
    for (int i = 0; i < n; i++) {
        ETW_EVENT_INSTANCE_INFO info = {(etw_handle)(uintptr_t)0x5A5A5A5A, 0};
        etw_u32 rc = f(h, &info);
        char what[48];
        snprintf(what, sizeof what, "return (call %d)", i + 1);
        if (!CHECK_WIN32(c, rule, A_RETURN, what, 0, rc))
            return;
        snprintf(what, sizeof what, "output: InstanceId (call %d)", i + 1);
        CHECK_U32(c, rule, A_OUTPUT, what, want[i], info.InstanceId);
    }
}

static void cti_counter(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    if (!f)
        return;
    static const etw_u32 want[] = {1, 2, 3};
    expect_ids(c, f, c->fixture.regs[0].RegHandle, want, 3, RID_CTI_COUNTER);
    ETW_EVENT_INSTANCE_INFO info = {NULL, 0};
    f(c->fixture.regs[0].RegHandle, &info);
    CHECK(c, RID_CTI_OUTPUT, A_OUTPUT, "output: RegHandle", info.RegHandle == c->fixture.regs[0].RegHandle, "the RegHandle given", "%p (given %p)",
              info.RegHandle, c->fixture.regs[0].RegHandle);
    CHECK_U32(c, RID_CTI_OUTPUT, A_OUTPUT, "output: InstanceId", 4, info.InstanceId);
}

static void cti_wrap(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    static const etw_u32 want[] = {0xFFFFFFFF, 1, 2};
    if (f)
        expect_ids(c, f, c->fixture.regs[0].RegHandle, want, 3, RID_PRIMARY);
}

static void cti_restart(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    etw_pfn_RegisterTraceGuidsW reg = f ? API(c, etw_pfn_RegisterTraceGuidsW, FN_REGISTERTRACEGUIDS) : NULL;
    etw_pfn_UnregisterTraceGuids unreg = reg ? API(c, etw_pfn_UnregisterTraceGuids, FN_UNREGISTERTRACEGUIDS) : NULL;
    if (!unreg)
        return;
    static const etw_u32 first[] = {1, 2}, again[] = {1};
    for (int round = 0; round < 2; round++) {
        ETW_TRACE_GUID_REGISTRATION r = {&cls0, NULL};
        etw_tracehandle h = 0;
        etw_u32 rc = reg(cb, CTX, &ctl, 1, &r, NULL, NULL, &h);
        if (rc) {
            etw_broken(c, "RegisterTraceGuidsW returned %u (round %d)", rc, round + 1);
            return;
        }
        expect_ids(c, f, r.RegHandle, round ? again : first, round ? 1 : 2, RID_PRIMARY);
        unreg(h);
    }
}

static void cti_per_class(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    if (!f)
        return;
    static const etw_u32 a[] = {1, 2, 3}, b[] = {1, 2};
    expect_ids(c, f, c->fixture.regs[0].RegHandle, a, 3, RID_PRIMARY);
    expect_ids(c, f, c->fixture.regs[1].RegHandle, b, 2, RID_PRIMARY);
}

static void cti_last_error(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    if (!f)
        return;
    etw_pfn_GetLastError get = (etw_pfn_GetLastError)etw_resolve(c->t, FN_GETLASTERROR, NULL);
    etw_pfn_SetLastError set = (etw_pfn_SetLastError)etw_resolve(c->t, FN_SETLASTERROR, NULL);
    if (!get || !set) {
        etw_skip(c, "the target exports no GetLastError/SetLastError: the last error cannot be read");
        return;
    }
    set(0xDEADBEEF);
    etw_u32 rc = f(c->fixture.regs[0].RegHandle, NULL);
    etw_u32 le = get();
    CHECK_WIN32(c, RID_CTI_NULL_INFO, A_RETURN, "return (NULL InstInfo)", ETW_ERROR_INVALID_PARAMETER, rc);
    CHECK_WIN32(c, RID_CTI_LAST_ERROR, A_LASTERR, "last error after the failure", rc, le);
    set(0x1234);
    ETW_EVENT_INSTANCE_INFO info;
    rc = f(c->fixture.regs[0].RegHandle, &info);
    le = get();
    CHECK_WIN32(c, RID_CTI_COUNTER, A_RETURN, "return (success)", 0, rc);
    CHECK_U32(c, RID_CTI_LAST_ERROR_SUCCESS, A_LASTERR, "last error after a success", 0x1234, le);
}

static void cti_reghandle_first(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    if (!f)
        return;
    ETW_EVENT_INSTANCE_INFO info = {(etw_handle)(uintptr_t)0x5A5A5A5A, 0x77};
    etw_u32 rc = f(c->fixture.regs[0].RegHandle, &info);
    CHECK_WIN32(c, RID_CTI_FOREIGN_PROCESS, A_RETURN, "return", ETW_ERROR_INVALID_PARAMETER, rc);
    CHECK(c, RID_PRIMARY, A_OUTPUT, "output: RegHandle written before the process check", info.RegHandle == c->fixture.regs[0].RegHandle, "the RegHandle given",
              "%p", info.RegHandle);
}

static void cti_forward(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_CTI);
    if (!f)
        return;
    static const etw_u32 want[] = {1, 2};
    expect_ids(c, f, c->fixture.regs[0].RegHandle, want, 2, RID_PRIMARY);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (NULL RegHandle)", ETW_ERROR_INVALID_PARAMETER, f(NULL, &(ETW_EVENT_INSTANCE_INFO){0}));
}

struct atomic_run {
    etw_pfn_CreateTraceInstanceId f;
    etw_handle h;
    etw_u32 *ids;
    int per;
    etw_u32 failures;
};
#define ATOMIC_THREADS 4
#define ATOMIC_PER 5000

static void atomic_worker(void *p, int i)
{
    struct atomic_run *a = p;
    for (int k = 0; k < a->per; k++) {
        ETW_EVENT_INSTANCE_INFO info;
        if (a->f(a->h, &info))
            __atomic_fetch_add(&a->failures, 1, __ATOMIC_RELAXED);
        a->ids[i * a->per + k] = info.InstanceId;
    }
}

static int cmp_u32(const void *x, const void *y)
{
    etw_u32 a = *(const etw_u32 *)x, b = *(const etw_u32 *)y;
    return a < b ? -1 : a > b;
}

static void cti_atomic(struct etw_ctx *c)
{
    etw_pfn_CreateTraceInstanceId f = API(c, etw_pfn_CreateTraceInstanceId, FN_ETWCTI);
    if (!f)
        return;
    struct atomic_run a = {f, c->fixture.regs[0].RegHandle, calloc(ATOMIC_THREADS * ATOMIC_PER, sizeof(etw_u32)), ATOMIC_PER, 0};
    if (!a.ids) {
        etw_broken(c, "out of memory");
        return;
    }
    if (!plat_threads(ATOMIC_THREADS, atomic_worker, &a)) {
        free(a.ids);
        etw_broken(c, "could not start %d threads", ATOMIC_THREADS);
        return;
    }
    qsort(a.ids, ATOMIC_THREADS * ATOMIC_PER, sizeof(etw_u32), cmp_u32);
    int dups = 0;
    for (int i = 1; i < ATOMIC_THREADS * ATOMIC_PER; i++)
        dups += a.ids[i] == a.ids[i - 1];
    CHECK_U32(c, RID_PRIMARY, A_STATE, "calls that failed", 0, a.failures);
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: ids given twice", 0, (etw_u32)dups);
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: highest id", ATOMIC_THREADS * ATOMIC_PER, a.ids[ATOMIC_THREADS * ATOMIC_PER - 1]);
    free(a.ids);
}

static void rtg_null_args(struct etw_ctx *c)
{
    etw_pfn_RegisterTraceGuidsW reg = API(c, etw_pfn_RegisterTraceGuidsW, FN_REGISTERTRACEGUIDS);
    if (!reg)
        return;
    ETW_TRACE_GUID_REGISTRATION r = {&cls0, NULL};
    etw_tracehandle h = 0;
    /* only the argument under test is NULL: with a NULL context too, an implementation that rejects
     * the context instead of RequestAddress would pass */
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (NULL RequestAddress)", 87, reg(NULL, CTX, &ctl, 1, &r, NULL, NULL, &h));
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (NULL ControlGuid)", 87, reg(cb, CTX, NULL, 1, &r, NULL, NULL, &h));
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (NULL RegistrationHandle)", 87, reg(cb, CTX, &ctl, 1, &r, NULL, NULL, NULL));
}

static void rtg_null_context(struct etw_ctx *c)
{
    etw_pfn_RegisterTraceGuidsW reg = API(c, etw_pfn_RegisterTraceGuidsW, FN_REGISTERTRACEGUIDS);
    etw_pfn_UnregisterTraceGuids unreg = reg ? API(c, etw_pfn_UnregisterTraceGuids, FN_UNREGISTERTRACEGUIDS) : NULL;
    if (!unreg)
        return;
    ETW_TRACE_GUID_REGISTRATION r = {&cls0, NULL};
    etw_tracehandle h = 0;
    etw_u32 rc = reg(cb, NULL, &ctl, 1, &r, NULL, NULL, &h);
    if (CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (NULL RequestContext)", ETW_ERROR_SUCCESS, rc))
        CHECK(c, RID_RTG_REGHANDLES, A_OUTPUT, "output: RegHandle of the class", r.RegHandle != NULL, "a non-NULL handle", "%p", r.RegHandle);
    if (rc == ETW_ERROR_SUCCESS)
        unreg(h);
}

static void rtg_null_regs(struct etw_ctx *c)
{
    etw_pfn_RegisterTraceGuidsW reg = API(c, etw_pfn_RegisterTraceGuidsW, FN_REGISTERTRACEGUIDS);
    etw_tracehandle h = 0;
    if (reg)
        CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 87, reg(cb, CTX, &ctl, 1, NULL, NULL, NULL, &h));
}

static void rtg_count_limit(struct etw_ctx *c)
{
    etw_pfn_RegisterTraceGuidsW reg = API(c, etw_pfn_RegisterTraceGuidsW, FN_REGISTERTRACEGUIDS);
    etw_pfn_UnregisterTraceGuids unreg = reg ? API(c, etw_pfn_UnregisterTraceGuids, FN_UNREGISTERTRACEGUIDS) : NULL;
    if (!unreg)
        return;
    enum { N = 0x10001 }; /* one above 64K: the limit is open (OQ-8), the rule says above 64K */
    /* a real array, so that an implementation without the limit registers instead of crashing */
    ETW_TRACE_GUID_REGISTRATION *r = etw_guarded(c, N * sizeof *r);
    if (!r)
        return;
    for (int i = 0; i < N; i++)
        r[i] = (ETW_TRACE_GUID_REGISTRATION){&cls0, NULL};
    etw_tracehandle h = 0;
    etw_u32 rc = reg(cb, CTX, &ctl, N, r, NULL, NULL, &h);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 87, rc);
    if (rc == 0)
        unreg(h);
}

static void rtg_reghandles(struct etw_ctx *c)
{
    bool distinct = c->fixture.regs[0].RegHandle != c->fixture.regs[1].RegHandle && c->fixture.regs[1].RegHandle != c->fixture.regs[2].RegHandle &&
                    c->fixture.regs[0].RegHandle != c->fixture.regs[2].RegHandle;
    bool set = c->fixture.regs[0].RegHandle && c->fixture.regs[1].RegHandle && c->fixture.regs[2].RegHandle;
    CHECK(c, RID_PRIMARY, A_OUTPUT, "output: RegHandle of each class", set && distinct, "three distinct non-NULL handles", "%p %p %p",
              c->fixture.regs[0].RegHandle, c->fixture.regs[1].RegHandle, c->fixture.regs[2].RegHandle);
}
