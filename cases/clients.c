/*
 * cases/clients.c - client scenarios: each row replays, in order and with the same arguments, the
 * calls a real program makes (spec/programs.def; evidence ../shared/notes/clients.md section 1),
 * and checks only what that program relies on. A failing check says which step broke; the step
 * table says what the program then does (harness/scenario.h).
 */
#include "cases/common.h"
#include "harness/scenario.h"

#define TQI_FN(c) API(c, etw_pfn_TraceQueryInformation, FN_TQI)
#define TSI_FN(c) API(c, etw_pfn_TraceSetInformation, FN_TSI)

static const etw_guid thread_guid = MK_GUID(THREAD_GUID), perfinfo_guid = MK_GUID(PERFINFO_GUID);

static ETW_CLASSIC_EVENT_ID event_id(const etw_guid *g, etw_u8 type)
{
    ETW_CLASSIC_EVENT_ID e;
    memset(&e, 0, sizeof e);
    e.EventGuid = *g;
    e.Type = type;
    return e;
}

/* ---------------------------------------------------------------- shared by the PMC programs */
/* the second call of the usual two-call list query: a buffer of the probed size; the chain parsed */
static etw_u8 *sized_list(struct etw_ctx *c, etw_pfn_TraceQueryInformation tqi, etw_u32 size, bool retlen, struct src_rec *recs, int *n)
{
    etw_u8 *buf = etw_guarded(c, size);
    if (!buf)
        return NULL;
    etw_u32 got = size;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, size, retlen ? &got : NULL);
    if (!CHECK_WIN32(c, retlen ? RID_TQI_07_NULL_PROBE : RID_TQI_RETLEN_OPTIONAL, A_RETURN, retlen ? "return (sized buffer)" : "return (sized buffer, NULL ReturnLength)",
                        ETW_ERROR_SUCCESS, rc))
        return NULL;
    *n = source_chain(buf, retlen ? got : size, recs, 32);
    if (!CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", *n > 0, "a well-formed chain", "%s", *n > 0 ? "well formed" : "broken"))
        return NULL;
    return buf;
}

/* the probe of a client that does not initialise the size: it must be written (TQI.07.NULL_PROBE) */
static bool probe_writes_size(struct etw_ctx *c, etw_pfn_TraceQueryInformation tqi, etw_u32 *size)
{
    *size = ETW_SENTINEL32; /* what the uninitialised variable happens to hold */
    tqi(0, ETW_TraceProfileSourceListInfo, NULL, 0, size); /* the return code is not examined */
    return CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (probe)", *size != ETW_SENTINEL32 && *size >= 0x1A && *size < 0x10000,
                     "the size needed (0x1A..0xFFFF)", *size == ETW_SENTINEL32 ? "not written (still 0x%08X)" : "%u", *size);
}

/* the listed sources other than the timer, at most max (the ids a client selects) */
static int pmc_ids(const struct src_rec *recs, int n, etw_u32 *ids, int max)
{
    int k = 0;
    for (int i = 0; i < n && k < max; i++)
        if (recs[i].source != ETW_ProfileTime)
            ids[k++] = recs[i].source;
    return k;
}

static bool tsi_ok(struct etw_ctx *c, const char *what, enum etw_rule_id rule, etw_tracehandle h, etw_u32 cls, const void *buf, etw_u32 len)
{
    etw_pfn_TraceSetInformation tsi = TSI_FN(c);
    return tsi && CHECK_WIN32(c, rule, A_RETURN, what, ETW_ERROR_SUCCESS, tsi(h, cls, (void *)buf, len));
}

/* ---------------------------------------------------------------- PerfView / TraceEvent */
static void perfview_sources(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    if (!tqi)
        return;
    etw_u32 len = 0;
    tqi(0, ETW_TraceProfileSourceListInfo, NULL, 0, &len); /* the return code is not examined */
    if (!CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (probe)", len >= 24, "the size needed (>= 24)", "%u", len))
        return;
    if (!etw_step(c, 2))
        return;
    struct src_rec recs[32];
    int n = 0;
    etw_u8 *buf = etw_guarded(c, len);
    if (!buf)
        return;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, len, &len);
    if (!CHECK_WIN32(c, RID_TQI_07_NULL_PROBE, A_RETURN, "return (sized buffer)", ETW_ERROR_SUCCESS, rc))
        return;
    if (!etw_step(c, 3))
        return;
    n = source_chain(buf, len, recs, 32);
    if (!CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", n > 0, "a well-formed chain", "%s", n > 0 ? "well formed" : "broken"))
        return;
    bool dup = false;
    for (int i = 0; i < n && !dup; i++)
        for (int k = 0; k < i && !dup; k++) {
            const char *a = recs[i].name, *b = recs[k].name;
            while (*a && (*a | 32) == (*b | 32))
                a++, b++;
            dup = !*a && !*b;
        }
    if (!CHECK(c, RID_TQI_07_UNIQUE_NAMES, A_OUTPUT, "output: names distinct (case-insensitive)", !dup, "distinct names", "%s", dup ? "a name twice" : "distinct"))
        return;
    if (!etw_step(c, 4))
        return;
    for (int i = 0; i < n; i++) {
        ETW_TRACE_PROFILE_INTERVAL pi = {recs[i].source, 0};
        etw_u32 l = 0;
        char what[64];
        snprintf(what, sizeof what, "return (interval of %.32s)", recs[i].name);
        if (!CHECK_WIN32(c, RID_TQI_05_LISTED_SOURCES, A_RETURN, what, ETW_ERROR_SUCCESS, tqi(0, ETW_TraceSampledProfileIntervalInfo, &pi, 8, &l)))
            return;
    }
}

static void perfview_select(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u32 len = 0;
    if (!tqi)
        return;
    tqi(0, ETW_TraceProfileSourceListInfo, NULL, 0, &len);
    struct src_rec recs[32];
    int n = 0;
    if (!CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (probe)", len >= 24, "the size needed (>= 24)", "%u", len) ||
        !sized_list(c, tqi, len, true, recs, &n))
        return;
    etw_u32 ids[4];
    int k = pmc_ids(recs, n, ids, 4);
    if (!k) {
        etw_skip(c, "the target lists no profile source besides the timer: there is nothing to select");
        return;
    }
    if (!etw_step(c, 2))
        return;
    for (int i = 0; i < k; i++) {
        ETW_TRACE_PROFILE_INTERVAL pi = {ids[i], 65536};
        if (!tsi_ok(c, "return (source interval)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8))
            return;
    }
    if (!etw_step(c, 3))
        return;
    tsi_ok(c, "return (profile sources)", RID_TSI_06_SET, 0, ETW_TraceProfileSourceConfigInfo, ids, 4u * (etw_u32)k);
}

static void perfview_kernel(struct etw_ctx *c)
{
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 5000}; /* CpuSampleIntervalMSec = 0.5 */
    if (!tsi_ok(c, "return (sampling interval)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8))
        return;
    if (!etw_step(c, 2))
        return;
    ETW_CLASSIC_EVENT_ID stack_ids[96]; /* allocated for the stack-capture list; none requested */
    memset(stack_ids, 0, sizeof stack_ids);
    if (!tsi_ok(c, "return (empty stack list, non-NULL)", RID_TSI_03_EMPTY_BUFFER, c->fixture.logger, ETW_TraceStackTracingInfo, stack_ids, 0))
        return;
    if (!etw_step(c, 3))
        return;
    etw_u64 flags = ETW_EVENT_TRACE_FLAG_PROCESS | ETW_EVENT_TRACE_FLAG_THREAD | ETW_EVENT_TRACE_FLAG_PROFILE;
    tsi_ok(c, "return (kernel keywords, 8 bytes)", RID_TSI_04_LENGTH, c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, &flags, 8);
}

/* ---------------------------------------------------------------- pmctrace */
static void pmctrace_trace(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u32 size;
    if (!tqi || !probe_writes_size(c, tqi, &size))
        return;
    if (!etw_step(c, 2))
        return;
    struct src_rec recs[32];
    int n = 0;
    if (!sized_list(c, tqi, size, true, recs, &n))
        return;
    etw_u32 ids[4];
    int k = pmc_ids(recs, n, ids, 4); /* found by comparing Description */
    if (!k) {
        etw_skip(c, "the target lists no profile source besides the timer: pmctrace would find no PMC to select");
        return;
    }
    if (!etw_step(c, 3))
        return;
    if (!tsi_ok(c, "return (PMC counters)", RID_TSI_09_SET, c->fixture.logger, ETW_TracePmcCounterListInfo, ids, 4u * (etw_u32)k))
        return;
    if (!etw_step(c, 4))
        return;
    ETW_CLASSIC_EVENT_ID ev[3] = {event_id(&thread_guid, 36), event_id(&perfinfo_guid, 51), event_id(&perfinfo_guid, 52)};
    tsi_ok(c, "return (PMC events)", RID_TSI_08_SET, c->fixture.logger, ETW_TracePmcEventListInfo, ev, sizeof ev);
}

/* ---------------------------------------------------------------- miniperf.h */
static const char *const miniperf_names[] = {"UnhaltedCoreCyclesFixed", "InstructionsRetiredFixed", "BranchMispredictions",
                                             "TotalCycles", "TotalIssues"}; /* Intel, then AMD */

static void miniperf_h(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    if (!tqi)
        return;
    etw_u32 size = 0;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, NULL, 0, &size);
    if (!CHECK_WIN32(c, RID_TQI_07_PROBE_RC, A_RETURN, "return (probe) asserted", ETW_ERROR_BAD_LENGTH, rc) ||
        !CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (probe)", size >= 0x1A && size < 0x10000, "the size needed", "%u", size))
        return;
    if (!etw_step(c, 2))
        return;
    struct src_rec recs[32];
    int n = 0;
    if (!sized_list(c, tqi, size, true, recs, &n))
        return;
    etw_u32 ids[4];
    int k = 0;
    for (int i = 0; i < n && k < 4; i++)
        for (size_t m = 0; m < sizeof miniperf_names / sizeof *miniperf_names; m++)
            if (!strcmp(recs[i].name, miniperf_names[m]))
                ids[k++] = recs[i].source;
    if (!k) {
        etw_skip(c, "the target lists none of the Intel or AMD counters miniperf.h looks for");
        return;
    }
    if (!etw_step(c, 3))
        return;
    if (!tsi_ok(c, "return (PMC counters) asserted", RID_TSI_09_SET, c->fixture.logger, ETW_TracePmcCounterListInfo, ids, 4u * (etw_u32)k))
        return;
    if (!etw_step(c, 4))
        return;
    ETW_CLASSIC_EVENT_ID ev = event_id(&thread_guid, 0x24);
    tsi_ok(c, "return (PMC events) asserted", RID_TSI_08_SET, c->fixture.logger, ETW_TracePmcEventListInfo, &ev, sizeof ev);
}

/* ---------------------------------------------------------------- DTrace for Windows, ETW back end */
static void dtrace_pmc_info(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u32 len;
    if (!tqi || !probe_writes_size(c, tqi, &len))
        return;
    if (!etw_step(c, 2))
        return;
    struct src_rec recs[32];
    int n = 0;
    if (!sized_list(c, tqi, len, false, recs, &n))
        return;
    if (!etw_step(c, 3))
        return;
    for (int i = 0; i < n; i++) {
        ETW_TRACE_PROFILE_INTERVAL pi = {recs[i].source, ETW_SENTINEL32};
        tqi(0, ETW_TraceSampledProfileIntervalInfo, &pi, 8, NULL); /* code ignored; Interval read */
        char what[64];
        snprintf(what, sizeof what, "output: Interval of %.32s", recs[i].name);
        if (!CHECK(c, RID_TQI_05_LISTED_SOURCES, A_OUTPUT, what, pi.Interval != ETW_SENTINEL32, "written", "%s",
                       pi.Interval == ETW_SENTINEL32 ? "not written (stale)" : "written"))
            return;
    }
    if (!etw_step(c, 4))
        return;
    etw_u32 max = 0;
    tqi(0, 22 /* TraceMaxPmcCounterQuery */, &max, 4, NULL); /* ignored: a later-Windows 10 class */
}

static void dtrace_pmc_sampling(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u32 len;
    if (!tqi || !probe_writes_size(c, tqi, &len))
        return;
    struct src_rec recs[32];
    int n = 0;
    if (!sized_list(c, tqi, len, false, recs, &n))
        return;
    etw_u32 ids[2];
    int k = pmc_ids(recs, n, ids, 2);
    if (!k) {
        etw_skip(c, "the target lists no profile source besides the timer: nothing to sample");
        return;
    }
    if (!etw_step(c, 2))
        return;
    for (int i = 0; i < k; i++) {
        ETW_TRACE_PROFILE_INTERVAL pi = {ids[i], 65536};
        if (!tsi_ok(c, "return (source interval)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8))
            return;
    }
    if (!tsi_ok(c, "return (profile sources)", RID_TSI_06_SET, 0, ETW_TraceProfileSourceConfigInfo, ids, 4u * (etw_u32)k))
        return;
    if (!etw_step(c, 3))
        return;
    ETW_CLASSIC_EVENT_ID ev = event_id(&perfinfo_guid, 46);
    if (!tsi_ok(c, "return (PMC counters)", RID_TSI_09_SET, c->fixture.logger, ETW_TracePmcCounterListInfo, ids, 4u * (etw_u32)k) ||
        !tsi_ok(c, "return (PMC events)", RID_TSI_08_SET, c->fixture.logger, ETW_TracePmcEventListInfo, &ev, 24))
        return;
    if (!etw_step(c, 4))
        return;
    etw_u32 flags[8];
    memset(flags, 0xA5, sizeof flags);
    etw_u32 rc = tqi(c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, flags, 32, NULL);
    if (!CHECK_WIN32(c, RID_TQI_04_OUTPUT, A_RETURN, "return (group masks read)", ETW_ERROR_SUCCESS, rc))
        return;
    etw_u32 want0 = flags[0];
    flags[ETW_PERF_MASK_INDEX(ETW_PERF_PMC_PROFILE)] |= ETW_PERF_MASK_BIT(ETW_PERF_PMC_PROFILE);
    if (!etw_step(c, 5))
        return;
    if (!tsi_ok(c, "return (group masks written)", RID_TSI_04_KERNEL, c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, flags, 32))
        return;
    etw_u32 back[8];
    if (!CHECK_WIN32(c, RID_TQI_04_OUTPUT, A_RETURN, "return (group masks read back)", ETW_ERROR_SUCCESS, tqi(c->fixture.logger, 4, back, 32, NULL)))
        return;
    CHECK(c, RID_GMI_SET, A_STATE, "state: EnableFlags kept and PERF_PMC_PROFILE on", (back[0] & want0) == want0 && (back[1] & ETW_PERF_MASK_BIT(ETW_PERF_PMC_PROFILE)),
              "word 0 kept, PERF_PMC_PROFILE in word 1", "word 0 %08x, word 1 %08x", back[0], back[1]);
    if (!etw_step(c, 6))
        return;
    ETW_TRACE_PROFILE_INTERVAL t = {ETW_ProfileTime, 10000 * 1000 / 997}; /* 997 Hz */
    tsi_ok(c, "return (timer frequency)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &t, 8);
}

/* ---------------------------------------------------------------- krabsetw */
static void krabsetw_groups(struct etw_ctx *c)
{
    etw_pfn_NtQuerySystemInformation q = API(c, etw_pfn_NtQuerySystemInformation, FN_NTQSI);
    if (!q)
        return;
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION *gm = etw_guarded(c, sizeof *gm);
    if (!gm)
        return;
    memset(gm, 0, sizeof *gm);
    gm->EventTraceInformationClass = ETW_EventTraceGroupMaskInformation;
    gm->TraceHandle = c->fixture.logger;
    etw_status st = q(ETW_SystemPerformanceTraceInformation, gm, 0x30, NULL);
    if (!CHECK_NTSTATUS(c, RID_GMI_QUERY, A_RETURN, "return (query)", 0, (etw_u32)st) ||
        !CHECK(c, RID_GMI_QUERY_HEADER, A_SENTINEL, "untouched: class and TraceHandle",
                   gm->EventTraceInformationClass == ETW_EventTraceGroupMaskInformation && gm->TraceHandle == c->fixture.logger, "as given",
                   "class %u, handle 0x%llx", gm->EventTraceInformationClass, (unsigned long long)gm->TraceHandle))
        return;
    if (!etw_step(c, 2))
        return;
    gm->EventTraceGroupMasks.Masks[4] |= 0x80000040u; /* an object-manager provider: PERF_OB_HANDLE */
    etw_pfn_NtSetSystemInformation s = API(c, etw_pfn_NtSetSystemInformation, FN_NTSSI);
    if (!s)
        return;
    st = s(ETW_SystemPerformanceTraceInformation, gm, 0x30);
    CHECK_NTSTATUS(c, RID_GMI_SET, A_RETURN, "return (set, same structure)", 0, (etw_u32)st);
}

/* ---------------------------------------------------------------- ferrisetw family */
static void ferrisetw_query(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    if (!tqi)
        return;
    ETW_TRACE_PROFILE_INTERVAL pi = {0, 0};
    if (!CHECK_WIN32(c, RID_TQI_RETLEN_OPTIONAL, A_RETURN, "return (sample_interval)", ETW_ERROR_SUCCESS,
                        tqi(0, ETW_TraceSampledProfileIntervalInfo, &pi, 8, NULL)))
        return;
    CHECK(c, RID_TQI_05_TIMER, A_OUTPUT, "output: Interval", pi.Interval > 0, "the timer interval (non-zero)", "%u", pi.Interval);
    if (!etw_step(c, 2))
        return;
    etw_u32 max = 0;
    tqi(0, 22 /* TraceMaxPmcCounterQuery */, &max, 4, NULL); /* an Err is tolerated (max_pmc) */
}

static void ferrisetw_pr44(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u8 *buf = tqi ? etw_guarded(c, 8192) : NULL;
    if (!buf)
        return;
    etw_u32 rl = 0;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, 8192, &rl);
    if (!CHECK_WIN32(c, RID_TQI_07_LARGER, A_RETURN, "return (8192 bytes)", ETW_ERROR_SUCCESS, rc) ||
        !CHECK(c, RID_TQI_07_LARGER, A_RETLEN, "return length: the chain's size", rl >= 0x1A && rl <= 8192, "the chain's size", "%u", rl))
        return;
    if (!etw_step(c, 2))
        return;
    struct src_rec recs[32];
    int n = source_chain(buf, rl, recs, 32);
    bool ok = n > 0;
    for (int i = 0; ok && i < n; i++)
        ok = recs[i].off + 32 <= rl; /* read through a 32-byte view */
    CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: records readable as 32 bytes within ReturnLength", ok, "every record inside ReturnLength", "%s",
              n <= 0 ? "a broken chain" : ok ? "inside" : "a record ends past ReturnLength");
}

static void ferrisetw2(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u8 *buf = tqi ? etw_guarded(c, 4096) : NULL;
    if (!buf)
        return;
    etw_u32 n = 0;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, 4096, &n);
    if (!CHECK_WIN32(c, RID_TQI_07_LARGER, A_RETURN, "return (4096 bytes)", ETW_ERROR_SUCCESS, rc) ||
        !CHECK(c, RID_TQI_07_LARGER, A_RETLEN, "return length: the chain's size", n >= 0x1A && n <= 4096, "the chain's size", "%u", n))
        return;
    struct src_rec recs[32];
    if (!CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: PROFILE_SOURCE_INFO chain", source_chain(buf, n, recs, 32) > 0, "a well-formed chain in ReturnLength bytes",
                   "broken"))
        return;
    if (!etw_step(c, 2))
        return;
    ETW_TRACE_VERSION_INFO vi = {0, 0};
    n = 0;
    if (!CHECK_WIN32(c, RID_TQI_CLASS_SET, A_RETURN, "return (trace_version)", ETW_ERROR_SUCCESS, tqi(0, ETW_TraceVersionInfo, &vi, 8, &n)))
        return;
    if (!etw_step(c, 3))
        return;
    etw_u32 m[8];
    n = 0;
    if (!CHECK_WIN32(c, RID_TQI_04_OUTPUT, A_RETURN, "return (kernel groups read)", ETW_ERROR_SUCCESS, tqi(c->fixture.logger, 4, m, 32, &n)))
        return;
    if (!etw_step(c, 4))
        return;
    m[ETW_PERF_MASK_INDEX(ETW_PERF_MEMORY)] |= ETW_PERF_MASK_BIT(ETW_PERF_MEMORY);
    tsi_ok(c, "return (kernel groups written)", RID_TSI_04_KERNEL, c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, m, 32);
}

/* ---------------------------------------------------------------- fibratus */
static void fibratus_flags(struct etw_ctx *c)
{
    etw_u32 zero[8] = {0};
    if (!tsi_ok(c, "return (zero masks: rundown)", RID_TSI_04_PARTIAL, c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, zero, 32))
        return;
    if (!etw_step(c, 2))
        return;
    etw_u32 m[8] = {0x6038203u, 0, 0, 0, 0x80000040u, 0, 0, 0};
    if (!tsi_ok(c, "return (EnableFlags and PERF_OB_HANDLE)", RID_TSI_04_KERNEL, c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, m, 32))
        return;
    if (!etw_step(c, 3))
        return;
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    etw_u32 back[8];
    if (!tqi || !CHECK_WIN32(c, RID_TQI_04_OUTPUT, A_RETURN, "return (read back)", ETW_ERROR_SUCCESS, tqi(c->fixture.logger, 4, back, 32, NULL)))
        return;
    CHECK_U32(c, RID_TQI_04_OUTPUT, A_OUTPUT, "output: word 0 (the flags)", 0x6038203u, back[0]);
    CHECK_U32(c, RID_GMI_VERBATIM, A_OUTPUT, "output: word 4 verbatim", 0x80000040u, back[4]);
}

/* ---------------------------------------------------------------- Tracy, Optick, Orbit */
static void tracy_systrace(struct etw_ctx *c)
{
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 1250}; /* 125 us: 8 kHz */
    if (!tsi_ok(c, "return (sampling interval)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8))
        return;
    if (!etw_step(c, 2))
        return;
    ETW_CLASSIC_EVENT_ID ids[2] = {event_id(&perfinfo_guid, 46), event_id(&thread_guid, 36)};
    tsi_ok(c, "return (stack tracing, 2 events)", RID_TSI_03_SET, c->fixture.logger, ETW_TraceStackTracingInfo, ids, sizeof ids);
}

static void tracy_etw(struct etw_ctx *c)
{
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 1250}; /* EnableCPUProfiling: 125 us */
    if (!tsi_ok(c, "return (sampling interval)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8))
        return;
    if (!etw_step(c, 2))
        return;
    ETW_CLASSIC_EVENT_ID id = event_id(&perfinfo_guid, 46);
    if (!tsi_ok(c, "return (stack walk: SampledProfile)", RID_TSI_03_SET, c->fixture.logger, ETW_TraceStackTracingInfo, &id, 24))
        return;
    if (!etw_step(c, 3))
        return;
    id = event_id(&thread_guid, 36);
    tsi_ok(c, "return (stack walk: CSwitch)", RID_TSI_03_SET, c->fixture.logger, ETW_TraceStackTracingInfo, &id, 24);
}

static void optick_capture(struct etw_ctx *c)
{
    ETW_CLASSIC_EVENT_ID ids[2] = {event_id(&perfinfo_guid, 46), event_id(&perfinfo_guid, 51)}; /* SampledProfile, SysCallEnter */
    if (!tsi_ok(c, "return (stack samples)", RID_TSI_03_SET, c->fixture.logger, ETW_TraceStackTracingInfo, ids, sizeof ids))
        return;
    if (!etw_step(c, 2))
        return;
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 10000 * 1000 / 1000}; /* frequency 1000 Hz */
    tsi_ok(c, "return (sampling frequency) asserted", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8);
}

static void orbit_stacks(struct etw_ctx *c)
{
    ETW_TRACE_PROFILE_INTERVAL pi = {ETW_ProfileTime, 10000}; /* 1 ms */
    if (!tsi_ok(c, "return (sampling interval, handle 0)", RID_TSI_05_SET, 0, ETW_TraceSampledProfileIntervalInfo, &pi, 8))
        return;
    if (!etw_step(c, 2))
        return;
    ETW_CLASSIC_EVENT_ID id = event_id(&perfinfo_guid, 46);
    tsi_ok(c, "return (stack tracing)", RID_TSI_03_SET, c->fixture.logger, ETW_TraceStackTracingInfo, &id, 24);
}

/* ---------------------------------------------------------------- frontiers-labs/miniperf */
static void miniperf_rs(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = TQI_FN(c);
    if (!tqi)
        return;
    etw_u32 needed = 0;
    etw_u32 rc = tqi(0, ETW_TraceProfileSourceListInfo, NULL, 0, &needed);
    if (!CHECK(c, RID_TQI_07_PROBE_RC, A_RETURN, "return (probe): 0, 24 or 122", rc == 0 || rc == 24 || rc == 122, "0, 24 or 122", "%u", rc) ||
        !CHECK(c, RID_TQI_07_NULL_PROBE, A_RETLEN, "return length (probe)", needed != 0, "non-zero", "%u", needed))
        return;
    if (!etw_step(c, 2))
        return;
    etw_u32 size = (needed + 7) & ~7u;
    etw_u8 *buf = etw_guarded(c, size);
    if (!buf)
        return;
    etw_u32 got = size;
    rc = tqi(0, ETW_TraceProfileSourceListInfo, buf, size, &got);
    if (!CHECK_WIN32(c, RID_TQI_07_LARGER, A_RETURN, "return (buffer rounded up to 8)", ETW_ERROR_SUCCESS, rc) ||
        !CHECK(c, RID_TQI_07_LARGER, A_RETLEN, "return length <= buffer", got <= size, "at most the buffer", "%u", got))
        return;
    struct src_rec recs[32];
    int n = source_chain(buf, got, recs, 32);
    bool ok = n > 0;
    for (int i = 0; ok && i < n; i++)
        ok = !recs[i].next || recs[i].next > 24;
    if (!CHECK(c, RID_TQI_07_FORMAT, A_OUTPUT, "output: records of 26+ bytes, NextEntryOffset > 24", ok, "a well-formed chain", "%s", ok ? "well formed" : "broken"))
        return;
    if (!etw_step(c, 3))
        return;
    etw_u32 kept[4];
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (recs[i].source == ETW_ProfileTime)
            continue;
        ETW_TRACE_PROFILE_INTERVAL pi = {recs[i].source, 0};
        etw_u32 ret = 0;
        rc = tqi(0, ETW_TraceSampledProfileIntervalInfo, &pi, 8, &ret);
        char what[64];
        snprintf(what, sizeof what, "output: Interval of %.24s (kept if > 0)", recs[i].name);
        if (!CHECK(c, RID_TQI_05_LISTED_INTERVAL, A_OUTPUT, what, rc == 0 && pi.Interval > 0, "success and a non-zero Interval", "return %u, Interval %u", rc, pi.Interval))
            return;
        if (k < 4)
            kept[k++] = recs[i].source;
    }
    if (!etw_step(c, 4))
        return;
    etw_u32 max = 0, ret = 0;
    tqi(0, 22 /* TraceMaxPmcCounterQuery */, &max, 4, &ret); /* trusted only on success */
    if (!k) {
        etw_skip(c, "the target lists no profile source besides the timer: nothing to sample");
        return;
    }
    if (!etw_step(c, 5))
        return;
    etw_pfn_TraceSetInformation tsi = TSI_FN(c);
    if (!tsi)
        return;
    ETW_CLASSIC_EVENT_ID st[2] = {event_id(&perfinfo_guid, 46), event_id(&perfinfo_guid, 47)};
    tsi(c->fixture.logger, ETW_TraceStackTracingInfo, st, sizeof st); /* result ignored */
    if (!tsi_ok(c, "return (profile sources)", RID_TSI_06_SET, 0, ETW_TraceProfileSourceConfigInfo, kept, 4u * (etw_u32)k))
        return;
    if (!etw_step(c, 6))
        return;
    etw_u32 masks[8] = {ETW_EVENT_TRACE_FLAG_PROFILE, ETW_PERF_MASK_BIT(ETW_PERF_PMC_PROFILE), 0, 0, 0, 0, 0, 0};
    tsi_ok(c, "return (group masks)", RID_TSI_04_KERNEL, c->fixture.logger, ETW_TraceSystemTraceEnableFlagsInfo, masks, 32);
}

/* ---------------------------------------------------------------- provider-traits producers */
/* EventRegister, then EventSetInformation(EventProviderSetTraits) with the producer's exact blob */
struct traits_blob {
    const etw_u8 *bytes;
    etw_u32 len;
};
#define BLOB(...) &(const struct traits_blob){(const etw_u8[]){__VA_ARGS__}, sizeof((const etw_u8[]){__VA_ARGS__})}
#define S_MYCOMPANY 'M', 'y', 'C', 'o', 'm', 'p', 'a', 'n', 'y', '.', 'M', 'y', 'C', 'o', 'm', 'p', 'o', 'n', 'e', 'n', 't'
#define GROUP_TELEMETRY 0x1a, 0x73, 0x50, 0x4f, 0xcf, 0x89, 0x82, 0x47, 0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x04, 0x76, 0xba
static const struct traits_blob *const blob_tracelogging_rust =
    BLOB(0x2b, 0x00, S_MYCOMPANY, 0x00, 0x13, 0x00, 0x01, 0x92, 0x82, 0x3b, 0xf7, 0x10, 0xf6, 0xa7, 0x4f, 0xba, 0x62, 0x70, 0x83, 0x53, 0xd1,
         0x62, 0xc4);
static const struct traits_blob *const blob_tracelogging_dynamic = BLOB(0x18, 0x00, S_MYCOMPANY, 0x00);
static const struct traits_blob *const blob_go_winio =
    BLOB(0x22, 0x00, 'M', 'i', 'c', 'r', 'o', 's', 'o', 'f', 't', '.', 'V', 'i', 'r', 't', 'u', 'a', 'l', 'i', 'z', 'a', 't', 'i', 'o', 'n',
         '.', 'R', 'u', 'n', 'H', 'C', 'S', 0x00);
static const struct traits_blob *const blob_chromium = BLOB(0x10, 0x00, 'G', 'o', 'o', 'g', 'l', 'e', '.', 'C', 'h', 'r', 'o', 'm', 'e', 0x00);
static const struct traits_blob *const blob_eventsource =
    BLOB(0x29, 0x00, 'M', 'i', 'c', 'r', 'o', 's', 'o', 'f', 't', '.', 'P', 'o', 'w', 'e', 'r', 'T', 'o', 'y', 's', 0x00, 0x13, 0x00, 0x01,
         GROUP_TELEMETRY);
static const struct traits_blob *const blob_telemetry = BLOB(0x16, 0x00, 0x00, 0x13, 0x00, 0x01, GROUP_TELEMETRY);

static const etw_guid producer_guid = {0xE7C0F0CC, 0x7E57, 0x4E7C, {0x9a, 0x11, 0, 0, 0xc0, 0xf0, 0xcc, 0x01}};

static void traits_producer(struct etw_ctx *c, const struct traits_blob *b, enum etw_rule_id rule)
{
    etw_pfn_EventRegister er = API(c, etw_pfn_EventRegister, FN_EVENTREGISTER);
    if (!er)
        return;
    etw_reghandle h = 0;
    if (!CHECK_WIN32(c, RID_ER_SUCCESS, A_RETURN, "return (EventRegister)", ETW_ERROR_SUCCESS, er(&producer_guid, NULL, NULL, &h)))
        return;
    if (!etw_step(c, 2))
        return;
    etw_pfn_EventSetInformation esi = API(c, etw_pfn_EventSetInformation, FN_ESI);
    etw_u8 *buf = esi ? etw_guarded(c, b->len) : NULL;
    if (buf) {
        memcpy(buf, b->bytes, b->len);
        CHECK_WIN32(c, rule, A_RETURN, "return (provider traits)", ETW_ERROR_SUCCESS, esi(h, ETW_EventProviderSetTraits, buf, b->len));
    }
    etw_pfn_EventUnregister eu = (etw_pfn_EventUnregister)etw_resolve(c->t, FN_EVENTUNREGISTER, NULL);
    if (eu)
        eu(h);
}
static void tl_rust(struct etw_ctx *c) { traits_producer(c, blob_tracelogging_rust, RID_TRAITS_GROUP); }
static void tl_dynamic(struct etw_ctx *c) { traits_producer(c, blob_tracelogging_dynamic, RID_TRAITS_NAME_ONLY); }
static void go_winio(struct etw_ctx *c) { traits_producer(c, blob_go_winio, RID_TRAITS_NAME_ONLY); }
static void chromium(struct etw_ctx *c) { traits_producer(c, blob_chromium, RID_TRAITS_NAME_ONLY); }
static void eventsource(struct etw_ctx *c) { traits_producer(c, blob_eventsource, RID_TRAITS_GROUP); }
static void telemetry(struct etw_ctx *c) { traits_producer(c, blob_telemetry, RID_TRAITS_EMPTY_NAME); }

/* ---------------------------------------------------------------- classic instance ids */
static etw_u32 ETW_WINAPI classic_cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    (void)code, (void)ctx, (void)size, (void)buf;
    return 0;
}
static const etw_guid classic_ctl = {0xE7C0F0DD, 0x7E57, 0x4E7C, {0x9a, 0x11, 0, 0, 0xc0, 0xf0, 0xdd, 0x01}};
static const etw_guid classic_cls[2] = {{0xE7C0F0DD, 0x7E57, 0x4E7C, {0x9a, 0x11, 0, 0, 0xc0, 0xf0, 0xdd, 0x02}},
                                        {0xE7C0F0DD, 0x7E57, 0x4E7C, {0x9a, 0x11, 0, 0, 0xc0, 0xf0, 0xdd, 0x03}}};

static void classic_ids(struct etw_ctx *c)
{
    etw_pfn_RegisterTraceGuidsW rtg = API(c, etw_pfn_RegisterTraceGuidsW, FN_REGISTERTRACEGUIDS);
    if (!rtg)
        return;
    ETW_TRACE_GUID_REGISTRATION regs[2] = {{&classic_cls[0], NULL}, {&classic_cls[1], NULL}};
    etw_tracehandle reg = 0;
    etw_u32 rc = rtg(classic_cb, NULL, &classic_ctl, 2, regs, NULL, NULL, &reg);
    if (!CHECK_WIN32(c, RID_RTG_REGHANDLES, A_RETURN, "return (RegisterTraceGuids)", ETW_ERROR_SUCCESS, rc))
        return;
    etw_pfn_UnregisterTraceGuids ug = (etw_pfn_UnregisterTraceGuids)etw_resolve(c->t, FN_UNREGISTERTRACEGUIDS, NULL);
    if (!CHECK(c, RID_RTG_REGHANDLES, A_OUTPUT, "output: RegHandle per class", regs[0].RegHandle && regs[1].RegHandle && regs[0].RegHandle != regs[1].RegHandle,
                   "two distinct non-NULL RegHandles", "%p, %p", regs[0].RegHandle, regs[1].RegHandle))
        goto done;
    etw_step(c, 2);
    etw_pfn_CreateTraceInstanceId cti = API(c, etw_pfn_CreateTraceInstanceId, FN_CTI);
    if (!cti)
        goto done;
    ETW_EVENT_INSTANCE_INFO parent, child[2];
    memset(&parent, 0, sizeof parent);
    rc = cti(regs[0].RegHandle, &parent);
    if (!CHECK_WIN32(c, RID_CTI_COUNTER, A_RETURN, "return (parent)", ETW_ERROR_SUCCESS, rc) ||
        !CHECK(c, RID_CTI_OUTPUT, A_OUTPUT, "output: parent id non-zero, RegHandle echoed", parent.InstanceId && parent.RegHandle == regs[0].RegHandle,
                   "a non-zero id and the RegHandle", "id %u", parent.InstanceId))
        goto done;
    etw_step(c, 3);
    for (int i = 0; i < 2; i++) {
        memset(&child[i], 0, sizeof child[i]);
        rc = cti(regs[1].RegHandle, &child[i]);
        if (!CHECK_WIN32(c, RID_CTI_COUNTER, A_RETURN, "return (child)", ETW_ERROR_SUCCESS, rc) ||
            !CHECK(c, RID_CTI_OUTPUT, A_OUTPUT, "output: child id non-zero, RegHandle echoed", child[i].InstanceId && child[i].RegHandle == regs[1].RegHandle,
                       "a non-zero id and the RegHandle", "id %u", child[i].InstanceId))
            goto done;
    }
    CHECK(c, RID_CTI_COUNTER, A_OUTPUT, "output: child ids distinct", child[0].InstanceId != child[1].InstanceId, "distinct ids", "%u, %u", child[0].InstanceId,
              child[1].InstanceId);
done:
    if (ug)
        ug(reg);
}

/* ================================================================ the scenarios */
#define NA_BEFORE_62(what) NA(V5_2, V6_1, what " needs Windows 8 (6.2) or later")
#define NA_BEFORE_10(what) NA(V5_2, V6_3, what " needs Windows 10")
#define PROBE_UNINIT "TQI(0, 0x07, NULL, 0, &size), size uninitialised, return code ignored"

static const struct etw_case cases[] = {
    /* ---- PerfView / TraceEvent (and BenchmarkDotNet) */
    CASE(.id = "client.perfview.profile-sources", .rules = RULES(RID_TQI_07_NULL_PROBE, RID_TQI_07_FORMAT, RID_TQI_07_UNIQUE_NAMES, RID_TQI_05_LISTED_SOURCES),
         .title = "TraceEventProfileSources.GetInfo: probe, list, names, the interval of every source",
         SCENARIO("perfview", "src/TraceEvent/TraceEventSession.cs", perfview_sources,
                  STEPS(STEP("TQI(0, 0x07, NULL, 0, &len) with len = 0; return code not examined",
                       "len stays 0, read as 'no profile sources': PerfView and BenchmarkDotNet offer no hardware counter (a debug build asserts len >= 24)"),
                  STEP("TQI(0, 0x07, buf, len, &len)", "any non-zero code is thrown as an exception: profile-source discovery fails"),
                  STEP("walk the PROFILE_SOURCE_INFO chain (name at 0x18) into a case-insensitive dictionary",
                       "a record outside the buffer asserts; a duplicate name throws ArgumentException"),
                  STEP("TQI(0, 0x05, {Source, 0}, 8, &l) for every listed source", "any failure throws: GetInfo fails for all sources"))),
         .expect = {NA_BEFORE_62("TraceEvent's profile-source discovery"), FROM(V6_2)})
    CASE(.id = "client.perfview.pmc-select", .rules = RULES(RID_TSI_05_SET, RID_TSI_06_SET, RID_TQI_07_NULL_PROBE),
         .title = "TraceEventProfileSources.Set: an interval per selected source, then the source list", .fx = {.profile_priv = PRIV_HELD},
         SCENARIO("perfview", "src/TraceEvent/TraceEventSession.cs", perfview_select,
                  STEPS(STEP("GetInfo: TQI(0, 0x07, NULL, 0, &len), TQI(0, 0x07, buf, len, &len)",
                       "no source ids to select: BenchmarkDotNet's hardware counters are unavailable"),
                  STEP("TSI(0, 0x05, {id, 65536}, 8) for each selected PMC source (SeSystemProfilePrivilege held)",
                       "throws: the PMC selection fails and no counter is collected"),
                  STEP("TSI(0, 0x06, ids, 4*n)", "throws: the PMC selection fails and no counter is collected"))),
         .expect = {NA_BEFORE_62("TraceEvent's PMC selection"), FROM(V6_2)})
    CASE(.id = "client.perfview.kernel-session", .rules = RULES(RID_TSI_03_EMPTY_BUFFER, RID_TSI_05_SET, RID_TSI_04_LENGTH),
         .title = "EnableKernelProvider on a Windows 8+ system-logger session: interval, empty stack list, keywords",
         .fx = {.profile_priv = PRIV_HELD},
         SCENARIO("perfview", "src/TraceEvent/TraceEventSession.cs, src/TraceEvent/Samples/31_KernelAndClrMonitor.cs", perfview_kernel,
                  .logger = LG_SYSTEM, .logger_step = 2,
                  STEPS(STEP("TSI(0, 0x05, {0, 5000}, 8): CpuSampleIntervalMSec = 0.5", "throws (a failure is tolerated only for the default 1 ms)"),
                  STEP("TSI(h, 0x03, ids[96], 0): a non-NULL stack-id array of length 0 (no stack capture)",
                       "throws: EnableKernelProvider fails and no kernel event is collected (the Windows 8 sample stops here)"),
                  STEP("TSI(h, 0x04, &keywords, 8): the kernel keywords as one 64-bit value", "throws: EnableKernelProvider fails"))),
         .expect = {NA_BEFORE_62("a system-logger kernel session"), FROM(V6_2)})
    /* ---- pmctrace */
    CASE(.id = "client.pmctrace.pmc-trace", .rules = RULES(RID_TQI_07_NULL_PROBE, RID_TQI_07_FORMAT, RID_TSI_09_SET, RID_TSI_08_SET),
         .title = "StartTracing: on its system-logger session, find PMCs by name (Win32FindPMCIndexes), select counters and events",
         .fx = {.logger = LG_SYSTEM},
         SCENARIO("pmctrace", "pmctrace_server.cpp", pmctrace_trace,
                  STEPS(STEP(PROBE_UNINIT, "size keeps its garbage: the allocation and the sized call fail, no PMC is found and nothing is counted"),
                  STEP("TQI(0, 0x07, buf, size, &size); walk the chain comparing Description",
                       "the list is used only on success: no PMC index is found and nothing is counted"),
                  STEP("TSI(h, 0x09, ids, count*4)", "reported as a trace error: no counter is collected"),
                  STEP("TSI(h, 0x08, {Thread/36 CSwitch, PerfInfo/51, PerfInfo/52}, 72)", "reported as a trace error: no counter is attached to events"))),
         .expect = {NA_BEFORE_62("a system-logger session with PMCs"), FROM(V6_2)})
    /* ---- miniperf.h */
    CASE(.id = "client.miniperf-h.pmc-session", .rules = RULES(RID_TQI_07_PROBE_RC, RID_TQI_07_NULL_PROBE, RID_TSI_09_SET, RID_TSI_08_SET),
         .title = "MiniPerf: probe asserted ERROR_BAD_LENGTH, list, counters and the CSwitch event, all asserted",
         SCENARIO("miniperf-h", "miniperf.h", miniperf_h,
                  .logger = LG_SYSTEM, .logger_step = 3,
                  STEPS(STEP("TQI(0, 0x07, NULL, 0, &size), asserted == ERROR_BAD_LENGTH", "__debugbreak: the program stops (crashes without a debugger)"),
                  STEP("TQI(0, 0x07, buf, size, &size), asserted == ERROR_SUCCESS; names matched (TotalCycles, TotalIssues...)",
                       "__debugbreak: the program stops"),
                  STEP("TSI(h, 0x09, sources, n*4), asserted", "__debugbreak: the program stops"),
                  STEP("TSI(h, 0x08, {Thread, 0x24}, 24), asserted", "__debugbreak: the program stops"))),
         .expect = {NA_BEFORE_62("a system-logger session with PMCs"), FROM(V6_2)})
    /* ---- DTrace for Windows, ETW back end */
    CASE(.id = "client.dtrace-etw.pmc-info", .rules = RULES(RID_TQI_07_NULL_PROBE, RID_TQI_RETLEN_OPTIONAL, RID_TQI_05_LISTED_SOURCES),
         .title = "dtrace_etw_pmc_info: probe, list with a NULL ReturnLength, every interval, the PMC maximum",
         SCENARIO("dtrace-etw", "drivers/etw/etw.cpp", dtrace_pmc_info,
                  STEPS(STEP(PROBE_UNINIT, "len keeps its garbage: the PMC list cannot be read and DTrace reports no PMC source"),
                  STEP("TQI(0, 0x07, buf, len, NULL): NULL ReturnLength, must return 0", "the PMC list is not read: no PMC source is offered"),
                  STEP("TQI(0, 0x05, {Source}, 8, NULL) per source, code ignored, Interval read",
                       "a stale Interval is reported for the source (silently wrong)"),
                  STEP("TQI(0, 22 TraceMaxPmcCounterQuery, &max, 4, NULL), result ignored", "ignored: nothing breaks"))),
         .expect = {NA_BEFORE_62("the PMC source list"), FROM(V6_2)})
    CASE(.id = "client.dtrace-etw.pmc-sampling", .rules = RULES(RID_TSI_05_SET, RID_TSI_06_SET, RID_TSI_09_SET, RID_TSI_08_SET, RID_TQI_04_OUTPUT, RID_TSI_04_KERNEL),
         .title = "etw_pmc_samples, etw_pmc_counters, etw_prov_enable_gm (read-OR-write), etw_set_freqTSI on a system session",
         .fx = {.profile_priv = PRIV_HELD},
         SCENARIO("dtrace-etw", "drivers/etw/etw.cpp", dtrace_pmc_sampling,
                  .logger = LG_SYSTEM, .logger_step = 3,
                  STEPS(STEP(PROBE_UNINIT "; then TQI(0, 0x07, buf, len, NULL)", "no PMC source to sample"),
                  STEP("TSI(0, 0x05, {src, 65536}, 8) per source, then TSI(0, 0x06, ids, 4*n)", "PMC sampling is not set up: the provider fails"),
                  STEP("TSI(h, 0x09, ids, 4*n), TSI(h, 0x08, {PerfInfo/46}, 24)", "no PMC counter is attached: the provider fails"),
                  STEP("TQI(h, 0x04, flags[8], 32, NULL): read the group masks", "the masks are not read: the groups cannot be enabled"),
                  STEP("OR PERF_PMC_PROFILE into word 1, TSI(h, 0x04, flags, 32); the suite reads the masks back (groups kept)",
                       "the PMC profile group stays off, or the EnableFlags groups are lost: no PMC samples or kernel events arrive"),
                  STEP("TSI(0, 0x05, {0, 10000*1000/997}, 8): the sampling frequency", "the frequency is not applied: samples come at the old rate"))),
         .expect = {NA_BEFORE_62("PMC sampling on a system-logger session"), FROM(V6_2)})
    /* ---- krabsetw */
    CASE(.id = "client.krabsetw.kernel-groups", .rules = RULES(RID_GMI_QUERY_HEADER, RID_GMI_QUERY, RID_GMI_SET),
         .title = "kt::enable_providers: query the masks, OR a PERF group, set with the same structure", .fx = {.logger = LG_SYSTEM},
         SCENARIO("krabsetw", "krabs/krabs/kt.hpp", krabsetw_groups,
                  STEPS(STEP("NtQuerySystemInformation(0x1F, {class 1, TraceHandle}, 0x30, NULL)",
                       "throws (every non-zero status is an exception); a changed class or handle makes the next set fail"),
                  STEP("OR PERF_OB_HANDLE into word 4; NtSetSystemInformation(0x1F, same structure, 0x30)",
                       "throws: the kernel trace does not start"))),
         .expect = {NA_BEFORE_62("setting group masks on a named kernel session"), FROM(V6_2)})
    /* ---- ferrisetw family */
    CASE(.id = "client.ferrisetw.query-info", .rules = RULES(RID_TQI_RETLEN_OPTIONAL, RID_TQI_05_TIMER),
         .title = "ferrisetw query.rs: sample_interval with a NULL ReturnLength, then max_pmc",
         SCENARIO("ferrisetw", "src/query.rs, src/native/evntrace.rs", ferrisetw_query,
                  STEPS(STEP("TQI(0, 0x05, {0, 0}, 8, NULL) (sample_interval)", "returns Err: the caller gets no sampling interval"),
                  STEP("TQI(0, 22, &u32, 4, NULL) (max_pmc)", "an Err is tolerated"))),
         .expect = {NA_BEFORE_62("TraceQueryInformation"), FROM(V6_2)})
    CASE(.id = "client.ferrisetw.pr44-profile-sources", .rules = RULES(RID_TQI_07_LARGER, RID_TQI_07_FORMAT),
         .title = "ferrisetw PR #44 profile_sources: one 8192-byte call, ReturnLength as the chain length",
         SCENARIO("ferrisetw", "src/query.rs (refs/pull/44)", ferrisetw_pr44,
                  STEPS(STEP("TQI(0, 0x07, buf, 8192, &rl)", "returns Err: no profile source is listed"),
                  STEP("read records through a 32-byte view up to rl", "records past ReturnLength are read as garbage"))),
         .expect = {NA_BEFORE_62("TraceQueryInformation"), FROM(V6_2)})
    CASE(.id = "client.ferrisetw.ferrisetw2", .rules = RULES(RID_TQI_07_LARGER, RID_TQI_CLASS_SET, RID_TQI_04_OUTPUT, RID_TSI_04_KERNEL),
         .title = "ferrisetw2: profile sources in 4096 bytes, trace_version, kernel groups read-modify-write", 
         SCENARIO("ferrisetw", "lxl66566/ferrisetw2: src/native/evntrace.rs, src/query.rs", ferrisetw2,
                  .logger = LG_SYSTEM, .logger_step = 3,
                  STEPS(STEP("TQI(0, 0x07, buf, 4096, &n) (query_array_info); truncate to n",
                       "an error other than ERROR_INSUFFICIENT_BUFFER is returned as Err: no profile source"),
                  STEP("TQI(0, 0x0B, 8 bytes, &n) (trace_version)", "returns Err"),
                  STEP("TQI(h, 0x04, 32 bytes, &n) (set_extended_kernel_groups: read)", "returns Err: the extended groups are not enabled"),
                  STEP("OR PERF_MEMORY, TSI(h, 0x04, 32 bytes)", "returns Err: the extended groups are not enabled"))),
         .expect = {NA_BEFORE_10("TraceVersionInfo (trace_version)"), FROM(V10_0)})
    /* ---- fibratus */
    CASE(.id = "client.fibratus.kernel-flags", .rules = RULES(RID_TSI_04_PARTIAL, RID_TSI_04_KERNEL, RID_GMI_VERBATIM, RID_TQI_04_OUTPUT),
         .title = "Trace.Start kernel branch: zero masks (rundown), flags with PERF_OB_HANDLE, read back verbatim (source_test.go)",
         .fx = {.logger = LG_KERNEL},
         SCENARIO("fibratus", "internal/etw/trace.go, pkg/sys/etw/etw.go, internal/etw/source_test.go", fibratus_flags,
                  STEPS(STEP("TSI(h, 0x04, 8 zero masks, 32): trigger the rundown events", "the trace runs without kernel flags: no rundown events (silently)"),
                  STEP("TSI(h, 0x04, {0x6038203, 0, 0, 0, 0x80000040, 0, 0, 0}, 32)", "the trace runs without kernel flags: no handle or file events (silently)"),
                  STEP("TQI(h, 0x04, 32, NULL): word 0 = 0x6038203, word 4 = 0x80000040", "TestEventSourceStartTraces fails; handle events are off"))),
         .expect = {NA_BEFORE_62("setting group masks"), FROM(V6_2)})
    /* ---- Tracy */
    CASE(.id = "client.tracy.systrace", .rules = RULES(RID_TSI_05_SET, RID_TSI_03_SET),
         .title = "SysTraceStart: 8 kHz sampling interval, the NT Kernel Logger, stack tracing for samples and context switches",
         SCENARIO("tracy", "public/client/TracySysTrace.cpp", tracy_systrace, .logger = LG_KERNEL, .logger_step = 2,
                  STEPS(STEP("TSI(0, 0x05, {0, 1250}, 8)", "SysTraceStart returns false: no system tracing at all (no sampling, no context switches)"),
                        STEP("TSI(h, 0x03, {PerfInfo/46 SampledProfile, Thread/36 CSwitch}, 48)",
                             "SysTraceStart returns false: no system tracing at all"))),
         .expect = {NA_BEFORE_62("setting the sampling interval"), FROM(V6_2)})
    CASE(.id = "client.tracy.etw-session", .rules = RULES(RID_TSI_05_SET, RID_TSI_03_SET),
         .title = "TracyETW: a private system-logger session, EnableCPUProfiling, then one stack-walk event per call",
         .fx = {.logger = LG_SYSTEM},
         SCENARIO("tracy", "public/client/windows/TracyETW.cpp", tracy_etw,
                  STEPS(STEP("TSI(0, 0x05, {0, 1250}, 8): 'must be zero for TraceSampledProfileIntervalInfo'",
                             "EnableCPUProfiling returns the error: no CPU sampling"),
                        STEP("TSI(h, 0x03, {PerfInfo/46}, 24)", "the error is logged: samples have no call stacks"),
                        STEP("TSI(h, 0x03, {Thread/36}, 24)", "the error is logged: context switches have no call stacks"))),
         .expect = {NA_BEFORE_62("a system-logger session"), FROM(V6_2)})
    /* ---- Optick */
    CASE(.id = "client.optick.capture", .rules = RULES(RID_TSI_03_SET, RID_TSI_05_SET),
         .title = "ETW::Start on the NT Kernel Logger: stack samples, then the sampling frequency (asserted)", .fx = {.logger = LG_KERNEL},
         SCENARIO("optick", "src/optick_core.win.h", optick_capture,
                  STEPS(STEP("TSI(h, 0x03, {PerfInfo/46 SampledProfile, PerfInfo/51 SysCallEnter}, 48)", "ERR_TRACER_FAILED: the capture is aborted"),
                  STEP("TSI(0, 0x05, {0, 10000*1000/1000}, 8) (auto-sampling at 1000 Hz), asserted", "OPTICK_ASSERT fires: the capture runs without the sampling rate"))),
         .expect = {NA_BEFORE_62("setting the sampling interval"), FROM(V6_2)})
    /* ---- Orbit */
    CASE(.id = "client.orbit.stack-tracing", .rules = RULES(RID_TSI_05_SET, RID_TSI_03_SET),
         .title = "SetupStackTracing: sampling interval with handle 0 (CHECK), then stack tracing through krabsetw",
         .fx = {.logger = LG_KERNEL},
         SCENARIO("orbit", "src/WindowsTracing/KrabsTracer.cpp", orbit_stacks,
                  STEPS(STEP("TSI(0, 0x05, {0, 10000}, 8)", "CHECK fails: Orbit aborts"),
                  STEP("TSI(kernel logger, 0x03, {PerfInfo/46}, 24) through krabsetw", "krabsetw throws: no call stacks are captured"))),
         .expect = {NA_BEFORE_62("setting the sampling interval"), FROM(V6_2)})
    /* ---- frontiers-labs/miniperf */
    CASE(.id = "client.miniperf-rs.sampling", .rules = RULES(RID_TQI_07_PROBE_RC, RID_TQI_07_NULL_PROBE, RID_TQI_07_LARGER, RID_TQI_05_LISTED_INTERVAL, RID_TSI_06_SET, RID_TSI_04_KERNEL),
         .title = "profile_sources, interval filter, WindowsSamplingDriver::start on a system session",
         .fx = {.profile_priv = PRIV_HELD},
         SCENARIO("miniperf-rs", "libprof/src/driver/windows.rs", miniperf_rs,
                  .logger = LG_SYSTEM, .logger_step = 5,
                  STEPS(STEP("TQI(0, 0x07, NULL, 0, &needed): code 0, 24 or 122 and needed != 0", "an error: no profile source"),
                  STEP("TQI(0, 0x07, buf, round8(needed), &needed); records >= 26 bytes, NextEntryOffset > 24", "an error: no profile source"),
                  STEP("TQI(0, 0x05, {src, 0}, 8, &ret) per non-timer source: kept if 0 and Interval > 0",
                       "the source is silently dropped from the counters offered"),
                  STEP("TQI(0, 22, &max, 4, &ret), trusted only on success", "ignored: a default maximum is used"),
                  STEP("TSI(h, 0x03, {PerfInfo/46, /47}) (ignored), TSI(0, 0x06, kept ids)", "an error: sampling does not start"),
                  STEP("TSI(h, 0x04, {EVENT_TRACE_FLAG_PROFILE, PERF_PMC_PROFILE, 0...}, 32)", "an error: sampling does not start"))),
         .expect = {NA_BEFORE_62("PMC sampling on a system-logger session"), FROM(V6_2)})
    /* ---- provider-traits producers: EventRegister, then the exact blob */
    CASE(.id = "client.tracelogging-rust.group-traits", .rules = RULES(RID_TRAITS_GROUP, RID_TRAITS_SET, RID_ER_SUCCESS),
         .title = "register_impl: 'MyCompany.MyComponent' with group_id f73b8292-... (43 bytes)",
         SCENARIO("tracelogging-rust", "etw/rust/tracelogging/src/provider.rs", tl_rust,
                  STEPS(STEP("EventRegister(provider)", "the provider does not register: no event is written"),
                  STEP("EventSetInformation(h, 2, 43-byte blob with the group trait, 43)",
                       "ignored: events are written, but the provider is in no group (group-enabled sessions miss it)"))),
         .expect = {NA_BEFORE_10("EventProviderSetTraits"), FROM(V10_0)})
    CASE(.id = "client.tracelogging-dynamic.name-traits", .rules = RULES(RID_TRAITS_NAME_ONLY, RID_TRAITS_SET, RID_ER_SUCCESS),
         .title = "TraceLoggingDynamic RegisterProvider: 'MyCompany.MyComponent' without group (24 bytes)",
         SCENARIO("tracelogging-dynamic", "etw/cpp/traceloggingdynamic/TraceLoggingDynamic.h", tl_dynamic,
                  STEPS(STEP("EventRegister(provider)", "the provider does not register: no event is written"),
                  STEP("EventSetInformation(h, 2, 24-byte name-only blob, 24)", "ignored ('Ignore any failures'): the provider traits are missing"))),
         .expect = {NA_BEFORE_10("EventProviderSetTraits"), FROM(V10_0)})
    CASE(.id = "client.go-winio.provider-traits", .rules = RULES(RID_TRAITS_NAME_ONLY, RID_TRAITS_SET, RID_ER_SUCCESS),
         .title = "NewProviderWithOptions: a 34-byte name-only blob",
         SCENARIO("go-winio", "pkg/etw/newprovider.go", go_winio,
                  STEPS(STEP("EventRegister(provider)", "NewProviderWithOptions returns the error: no provider"),
                  STEP("EventSetInformation(h, 2, 34-byte blob 'Microsoft.Virtualization.RunHCS', 34)",
                       "NewProviderWithOptions returns the error: the provider is unusable"))),
         .expect = {NA_BEFORE_10("EventProviderSetTraits"), FROM(V10_0)})
    CASE(.id = "client.chromium.provider-traits", .rules = RULES(RID_TRAITS_NAME_ONLY, RID_TRAITS_SET, RID_ER_SUCCESS),
         .title = "TlmProvider::Register: a 16-byte name-only blob",
         SCENARIO("chromium", "base/trace_event/trace_logging_minimal_win.cc", chromium,
                  STEPS(STEP("EventRegister(provider)", "Register returns the error; the constructor logs it"),
                  STEP("EventSetInformation(h, 2, 16-byte blob 'Google.Chrome', 16)", "Register returns the error; the constructor logs it"))),
         .expect = {NA_BEFORE_10("EventProviderSetTraits"), FROM(V10_0)})
    CASE(.id = "client.dotnet-eventsource.group-traits", .rules = RULES(RID_TRAITS_GROUP, RID_TRAITS_SET, RID_ER_SUCCESS),
         .title = "EventSource.InitializeProviderMetadata: 'Microsoft.PowerToys' with ETW_GROUP {4f50731a-...} (41 bytes)",
         SCENARIO("dotnet-eventsource", "src/libraries/System.Private.CoreLib/src/System/Diagnostics/Tracing/EventSource.cs", eventsource,
                  STEPS(STEP("EventRegister(provider)", "the EventSource is not enabled: no event is written"),
                  STEP("EventSetInformation(h, 2, 41-byte blob with ETW_GROUP, 41)",
                       "ignored: events are written, but the provider is not in the telemetry group (silently not collected)"))),
         .expect = {NA_BEFORE_10("EventProviderSetTraits"), FROM(V10_0)})
    CASE(.id = "client.microsoft-telemetry.telemetry-group", .rules = RULES(RID_TRAITS_EMPTY_NAME, RID_TRAITS_SET, RID_ER_SUCCESS),
         .title = "EnableManifestedProviderForMicrosoftTelemetry: empty name and the telemetry group (22 bytes)",
         SCENARIO("microsoft-telemetry", "MicrosoftTelemetry.h", telemetry,
                  STEPS(STEP("EventRegister(provider)", "the provider does not register: no event is written"),
                  STEP("EventSetInformation(h, 2, 22-byte blob, 22): empty name + Microsoft Telemetry group",
                       "the error is returned to the caller: the provider's telemetry is not collected"))),
         .expect = {NA_BEFORE_10("EventProviderSetTraits"), FROM(V10_0)})
    /* ---- classic instance ids (the documented pattern) */
    CASE(.id = "client.classic-instance-ids.parent-children", .rules = RULES(RID_RTG_REGHANDLES, RID_CTI_COUNTER, RID_CTI_OUTPUT),
         .title = "RegisterTraceGuids with two event classes, then instance ids for a parent and two children",
         SCENARIO("classic-instance-ids", "desktop-src/ETW/tracing-event-instances.md", classic_ids,
                  STEPS(STEP("RegisterTraceGuids(2 event classes): a RegHandle per class", "the classes cannot be used for instance events"),
                  STEP("CreateTraceInstanceId(RegHandle[0], &parent) with the info zeroed", "TraceEventInstance cannot be called: no instance events"),
                  STEP("CreateTraceInstanceId(RegHandle[1], &child) twice", "children cannot be related to their parent"))),
         .expect = {ALL()})
};
CASE_TABLE(cases_clients, cases);
