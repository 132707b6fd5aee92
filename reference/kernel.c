/*
 * reference/kernel.c - the modelled kernel: loggers, NtQuerySystemInformation and
 * NtSetSystemInformation for SystemPerformanceTraceInformation (0x1F), and the profile interval.
 * Rules: spec/rules/kernel.def (seed 001/004 and research notes section C).
 */
#include "reference/internal.h"
#include <string.h>

/* ---------------------------------------------------------------- loggers */
void ref_logger_free(struct ref_logger *lg)
{
    ref_free(lg->cswitch_buffers);
    ref_free(lg->disallow);
    memset(lg, 0, sizeof *lg);
}

/* Group-mask path (seed 001): the low 16 bits are the logger id; 0xFFFF is the NT Kernel Logger. */
struct ref_logger *ref_logger_for_groupmask(etw_tracehandle h)
{
    etw_u32 id = (etw_u32)(h & 0xFFFF); /* @GMI.LOGGER_ID */
    if (id == ETW_KERNEL_LOGGER_ID) /* @GMI.KERNEL_LOGGER */
        id = REF_KERNEL_LOGGER_SLOT;
    else if (id == REF_KERNEL_LOGGER_SLOT || id >= REF_MAX_LOGGERS)
        return NULL;
    return ref.loggers[id].active ? &ref.loggers[id] : NULL;
}

/* NtTraceControl paths: the id as given, no kernel-logger translation (notes TQI-53). */
struct ref_logger *ref_logger_exact(etw_u32 id)
{
    if (id == REF_KERNEL_LOGGER_SLOT || id >= REF_MAX_LOGGERS)
        return NULL;
    return ref.loggers[id].active ? &ref.loggers[id] : NULL;
}

ETWREF_EXPORT int EtwRef_StartLogger(unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle)
{
    struct ref_logger *lg = NULL;
    if (!handle)
        return -1;
    if (kind == ETWREF_LOGGER_KERNEL) {
        lg = &ref.loggers[REF_KERNEL_LOGGER_SLOT];
        if (lg->active)
            return -1;
    } else {
        for (unsigned i = 1; i < REF_MAX_LOGGERS && !lg; i++)
            if (!ref.loggers[i].active)
                lg = &ref.loggers[i];
        if (!lg)
            return -1;
    }
    memset(lg, 0, sizeof *lg);
    lg->active = true;
    lg->id = (etw_u32)(lg - ref.loggers);
    lg->access = ETW_TRACELOG_GUID_ENABLE;
    switch (kind) {
    case ETWREF_LOGGER_KERNEL:
    case ETWREF_LOGGER_SYSTEM: lg->mode = ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE; break;
    case ETWREF_LOGGER_PLAIN: lg->mode = 0; break;
    case ETWREF_LOGGER_NOACCESS:
        lg->mode = ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE;
        lg->access = 0;
        break;
    case ETWREF_LOGGER_PRIVATE: lg->mode = ETW_EVENT_TRACE_PRIVATE_LOGGER_MODE; break;
    default: lg->active = false; return -1;
    }
    if (masks)
        memcpy(lg->masks, masks, sizeof lg->masks);
    *handle = kind == ETWREF_LOGGER_KERNEL ? ETW_KERNEL_LOGGER_ID : lg->id;
    return 0;
}

ETWREF_EXPORT int EtwRef_StopLogger(etw_tracehandle handle)
{
    struct ref_logger *lg = ref_logger_for_groupmask(handle);
    if (!lg)
        return -1;
    ref_logger_free(lg);
    return 0;
}

ETWREF_EXPORT int EtwRef_GetLoggerMasks(etw_tracehandle handle, etw_u32 masks[8])
{
    struct ref_logger *lg = ref_logger_for_groupmask(handle);
    if (!lg || !masks)
        return -1;
    memcpy(masks, lg->masks, sizeof lg->masks);
    return 0;
}

ETWREF_EXPORT etw_tracehandle EtwRef_MissingLoggerHandle(void)
{
    for (unsigned i = REF_MAX_LOGGERS - 1; i > 0; i--)
        if (!ref.loggers[i].active)
            return i;
    return 0xFFFE; /* beyond the table: never a logger */
}

/* ---------------------------------------------------------------- EnableFlags translation */
/* EnableFlags bits of Masks[0] that stand for PERF groups elsewhere (Chappell, PERFINFO_GROUPMASK). */
static const struct {
    etw_u32 flag, perf;
} flag_map[] = {
    {ETW_EVENT_TRACE_FLAG_CSWITCH, ETW_PERF_CONTEXT_SWITCH}, {ETW_EVENT_TRACE_FLAG_DPC, ETW_PERF_DPC},
    {ETW_EVENT_TRACE_FLAG_INTERRUPT, ETW_PERF_INTERRUPT}, {ETW_EVENT_TRACE_FLAG_SYSTEMCALL, ETW_PERF_SYSCALL},
    {ETW_EVENT_TRACE_FLAG_DISPATCHER, ETW_PERF_DISPATCHER}, {ETW_EVENT_TRACE_FLAG_VIRTUAL_ALLOC, ETW_PERF_VIRTUAL_ALLOC},
    {ETW_EVENT_TRACE_FLAG_DRIVER, ETW_PERF_DRIVERS}, {ETW_EVENT_TRACE_FLAG_PROFILE, ETW_PERF_PROFILE},
};

static bool perf_on(const etw_u32 m[8], etw_u32 perf)
{
    return (m[ETW_PERF_MASK_INDEX(perf)] & ETW_PERF_MASK_BIT(perf)) == ETW_PERF_MASK_BIT(perf);
}

/* set direction: an EnableFlags bit in Masks[0] turns its PERF group on */
static void flags_to_groups(etw_u32 m[8])
{
    for (size_t i = 0; i < REF_COUNT_OF(flag_map); i++)
        if (m[0] & flag_map[i].flag)
            m[ETW_PERF_MASK_INDEX(flag_map[i].perf)] |= ETW_PERF_MASK_BIT(flag_map[i].perf);
}

/* query direction: Masks[0] reflects the PERF groups that have an EnableFlags bit */
static void groups_to_flags(etw_u32 m[8])
{
    for (size_t i = 0; i < REF_COUNT_OF(flag_map); i++)
        if (perf_on(m, flag_map[i].perf))
            m[0] |= flag_map[i].flag;
}

/* ---------------------------------------------------------------- kernel class validity */
enum { Q = 1, S = 2 };
/* EVENT_TRACE_INFORMATION_CLASS by direction and first version (Chappell, G-CLS; notes (b)) */
static bool kclass_valid(etw_u32 k, int dir)
{
    static const struct {
        etw_u32 k;
        int q;
        unsigned qmin;
        int s;
        unsigned smin;
    } t[] = {
        {0x00, Q, ETW_V6_0, 0, 0},         {0x01, Q, ETW_V6_0, S, ETW_V6_2}, {0x02, Q, ETW_V6_0, 0, 0}, /* @KSI.BAD_CLASS:00 @GMI.SET_BEFORE_62 */
        {0x03, Q, ETW_V6_0, S, ETW_V6_0},  {0x04, Q, ETW_V6_0, 0, 0},        {0x05, Q, ETW_V6_1, S, ETW_V6_1},
        {0x06, Q, ETW_V6_1, S, ETW_V6_1},  {0x07, Q, ETW_V6_1, S, ETW_V6_1}, {0x08, Q, ETW_V6_1, 0, 0},
        {0x09, Q, ETW_V6_1, 0, 0},         {0x0A, Q, ETW_V6_1, S, ETW_V6_1}, {0x0B, 0, 0, S, ETW_V6_2},
        {0x0C, 0, 0, S, ETW_V6_2},         {0x0D, Q, ETW_V6_2, 0, 0},        {0x0E, 0, 0, S, ETW_V6_2}, /* @KSI.BAD_CLASS:0d */
        {0x0F, 0, 0, S, ETW_V6_2},         {0x10, 0, 0, S, ETW_V6_2},        {0x11, 0, 0, S, ETW_V6_2},
        /* the later classes, from the builds that added them (Chappell; phnt for 0x1A, its direction unknown) */
        {0x12, Q, REF_B_1607, S, REF_B_1607}, /* @KSI.LATER_CLASSES:12 */
        {0x13, 0, 0, S, REF_B_1709}, /* @KSI.LATER_CLASSES:13 */
        {0x14, 0, 0, S, REF_B_1709},
        {0x15, 0, 0, S, REF_B_1803}, /* @KSI.LATER_CLASSES:15 */
        {0x16, 0, 0, S, REF_B_1803}, /* @KSI.LATER_CLASSES:16 */
        {0x17, 0, 0, S, REF_B_1803},
        {0x18, 0, 0, S, REF_B_1803},
        {0x19, Q, REF_B_1803, S, REF_B_1803}, /* @KSI.LATER_CLASSES:19 */
        {0x1A, 0, 0, S, REF_B_21H1}, /* @KSI.LATER_CLASSES:1a */
    };
    for (size_t i = 0; i < REF_COUNT_OF(t); i++)
        if (t[i].k == k) /* a version or a build: compared as keys */
            return dir == Q ? (t[i].q && ref_at_least_key(t[i].qmin)) : (t[i].s && ref_at_least_key(t[i].smin));
    return false;
}

/* ---------------------------------------------------------------- profile sources (HAL model) */
/* The sources a real HAL lists, as `tracelog -profilesources Help` printed them on an AMD Zen 2
 * machine (dotnet/BenchmarkDotNet#1520): the timer (default 10000, 1221..1000000) and PMC sources
 * with a default interval of 65536 (4096..0x7FFFFFFF), ids above ProfileMaximum (24) included;
 * TotalCycles (19) is the name Intel HALs give, which clients look up. */
#define PMC(id, name) {id, 4096, 0x7FFFFFFF, name}
static const struct {
    etw_u32 source, min, max;
    const char *name;
} sources[] = {
    {ETW_ProfileTime, 1221, 1000000, "Timer"},
    PMC(ETW_ProfileTotalIssues, "TotalIssues"),
    PMC(6, "BranchInstructions"),
    PMC(8, "DcacheMisses"),
    PMC(9, "IcacheMisses"),
    PMC(11, "BranchMispredictions"),
    PMC(13, "FpInstructions"),
    PMC(19, "TotalCycles"),
    PMC(20, "IcacheIssues"),
    PMC(21, "DcacheAccesses"),
    PMC(25, "FPDispatchedFPUOps"),
    PMC(26, "FPDispatchedFPUOpsAddExcludeJunk"),
    PMC(27, "FPDispatchedFPUOpsMulExcludeJunk"),
    PMC(28, "FPDispatchedFPUOpsStoreExcludeJunk"),
    PMC(29, "FPDispatchedFPUOpsAddJunk"),
    PMC(30, "FPDispatchedFPUOpsMulJunk"),
};
#undef PMC

void ref_profile_reset(void)
{
    for (size_t i = 0; i < REF_COUNT_OF(ref.source_interval); i++)
        ref.source_interval[i] = 0;
    for (size_t i = 1; i < REF_COUNT_OF(sources); i++)
        ref.source_interval[sources[i].source] = 65536; /* every listed PMC source (TQI.05.LISTED_INTERVAL) */
}

static etw_u32 source_record_size(size_t i)
{
    etw_u32 n = (etw_u32)(offsetof(ETW_PROFILE_SOURCE_INFO, Description) + 2 * (strlen(sources[i].name) + 1));
    return (n + 7) & ~7u; /* @TQI.07.FORMAT:padding */
}

/* the records, as the kernel writes them at offset 8 of its buffer; returns their total size */
static etw_u32 write_source_records(etw_u8 *out)
{
    etw_u32 off = 0;
    for (size_t i = 0; i < REF_COUNT_OF(sources); i++) {
        etw_u32 sz = source_record_size(i);
        if (out) {
            ETW_PROFILE_SOURCE_INFO r = {0};
            r.NextEntryOffset = i + 1 < REF_COUNT_OF(sources) ? sz : 0; /* @TQI.07.FORMAT */
            r.Source = sources[i].source;
            r.MinInterval = sources[i].min;
            r.MaxInterval = sources[i].max;
            memset(out + off, 0, sz);
            memcpy(out + off, &r, offsetof(ETW_PROFILE_SOURCE_INFO, Description));
            etw_u8 *d = out + off + offsetof(ETW_PROFILE_SOURCE_INFO, Description);
            for (const char *s = sources[i].name; *s; s++, d += 2)
                d[0] = (etw_u8)*s, d[1] = 0;
        }
        off += sz;
    }
    return off;
}

/* a source the model keeps an interval for: a listed one, or any below ProfileMaximum */
static bool source_known(etw_u32 s)
{
    for (size_t i = 0; i < REF_COUNT_OF(sources); i++)
        if (sources[i].source == s)
            return true;
    return s < ETW_ProfileMaximum;
}

ETWREF_EXPORT etw_status ETW_WINAPI NtQueryIntervalProfile(etw_u32 ProfileSource, etw_u32 *Interval)
{
    if (!Interval)
        return ETW_STATUS_ACCESS_VIOLATION;
    if (ProfileSource == ETW_ProfileTime)
        *Interval = ref.timer_interval;
    else if (source_known(ProfileSource))
        *Interval = ref.source_interval[ProfileSource];
    else
        *Interval = 0; /* inferred: unknown sources report 0, as the HAL does for unsupported ones */
    return ETW_STATUS_SUCCESS;
}

ETWREF_EXPORT etw_status ETW_WINAPI NtSetIntervalProfile(etw_u32 Interval, etw_u32 Source)
{
    if (Source == ETW_ProfileTime) {
        ref.timer_interval = Interval < sources[0].min ? sources[0].min : Interval > sources[0].max ? sources[0].max : Interval;
        return ETW_STATUS_SUCCESS;
    }
    if (!source_known(Source)) /* @TSI.05.HAL_SOURCES */
        return ETW_STATUS_INVALID_PARAMETER; /* inferred: a source the HAL does not list */
    ref.source_interval[Source] = Interval;
    return ETW_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- NtQuerySystemInformation */
static etw_status query_groupmask(void *buf, etw_u32 len, etw_u32 *retlen)
{
    if (retlen) /* written before the size check (notes GMI-02, decompilation) */ /* @GMI.RETLEN_FIRST */
        *retlen = sizeof(ETW_EVENT_TRACE_GROUPMASK_INFORMATION);
    if (len != sizeof(ETW_EVENT_TRACE_GROUPMASK_INFORMATION)) /* @GMI.EXACT_SIZE:query @GMI.SIZE */
        return ETW_STATUS_INFO_LENGTH_MISMATCH;
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION gm;
    memcpy(&gm, buf, sizeof gm); /* @GMI.SIZE:query-read */
    struct ref_logger *lg = ref_logger_for_groupmask(gm.TraceHandle);
    if (!lg)
        return ETW_STATUS_WMI_INSTANCE_NOT_FOUND; /* @GMI.NOT_FOUND:query */
    if (!(lg->mode & ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE)) /* @GMI.SYSTEM_MODE:query @TQI.04.SYSTEM_LOGGER */
        return ETW_STATUS_INVALID_PARAMETER; /* @GMI.SYSTEM_MODE:query-code */
    /* no access check for a query (notes GMI-06) */ /* @GMI.QUERY_NO_ACCESS */
    memcpy(gm.EventTraceGroupMasks.Masks, lg->masks, sizeof lg->masks);
    groups_to_flags(gm.EventTraceGroupMasks.Masks); /* @GMI.ENABLE_FLAGS:query */
    memcpy((etw_u8 *)buf + offsetof(ETW_EVENT_TRACE_GROUPMASK_INFORMATION, EventTraceGroupMasks), &gm.EventTraceGroupMasks, /* @GMI.QUERY @GMI.QUERY_HEADER */
           sizeof gm.EventTraceGroupMasks);
    return ETW_STATUS_SUCCESS;
}

ETWREF_EXPORT etw_status ETW_WINAPI NtQuerySystemInformation(etw_u32 SystemInformationClass, void *SystemInformation,
                                                             etw_u32 SystemInformationLength, etw_u32 *ReturnLength)
{
    if (SystemInformationClass != ETW_SystemPerformanceTraceInformation)
        return ETW_STATUS_INVALID_INFO_CLASS; /* other classes are outside the model */
    if (!ref_at_least(ETW_V6_0)) /* @KSI.BAD_CLASS:version */
        return ETW_STATUS_INVALID_INFO_CLASS; /* inferred: the 5.x layout of 0x1F is not modelled */
    if (SystemInformationLength < 4 || !SystemInformation) /* @KSI.SHORT:query */
        return ETW_STATUS_INVALID_PARAMETER;
    etw_u32 k;
    memcpy(&k, SystemInformation, 4);
    if (!kclass_valid(k, Q)) /* @KSI.BAD_CLASS:query */
        return ETW_STATUS_NOT_IMPLEMENTED; /* @KSI.BAD_CLASS */
    etw_u8 *b = SystemInformation;
    switch (k) {
    case ETW_EventTraceGroupMaskInformation: return query_groupmask(SystemInformation, SystemInformationLength, ReturnLength);
    case ETW_EventTraceTimeProfileInformation:
        if (ReturnLength)
            *ReturnLength = sizeof(ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION); /* @TPI.QUERY:retlen */
        if (SystemInformationLength != sizeof(ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION)) /* @TPI.QUERY @TPI.QUERY_SIZE */
            return ETW_STATUS_INFO_LENGTH_MISMATCH;
        memcpy(b + offsetof(ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION, ProfileInterval), &ref.timer_interval, 4);
        return ETW_STATUS_SUCCESS;
    case ETW_EventTraceKernelVersionInformation: {
        /* kernel event versions (Chappell, EVENT_TRACE_VERSION_INFORMATION) */
        etw_u32 v = ref.version >= ETW_V10_0 ? 60 : ref.version >= ETW_V6_3 ? 53 : ref.version >= ETW_V6_2 ? 42 : ref.version >= ETW_V6_1 ? 25 : 14;
        if (ReturnLength)
            *ReturnLength = 8;
        if (SystemInformationLength != 8)
            return ETW_STATUS_INFO_LENGTH_MISMATCH;
        memcpy(b + 4, &v, 4);
        return ETW_STATUS_SUCCESS;
    }
    case ETW_EventTraceProfileSourceListInformation: {
        if (SystemInformationLength < sizeof(ETW_EVENT_TRACE_PROFILE_LIST_INFORMATION)) /* @PSL.KERNEL_MIN */
            return ETW_STATUS_INFO_LENGTH_MISMATCH; /* notes TQI-34 */
        etw_u32 need = 8 + write_source_records(NULL);
        if (ReturnLength)
            *ReturnLength = need;
        if (SystemInformationLength < need)
            return ETW_STATUS_BUFFER_TOO_SMALL; /* inferred */
        write_source_records(b + 8);
        return ETW_STATUS_SUCCESS;
    }
    default:
        /* valid for query but outside the model: nothing in scope depends on it */
        return ETW_STATUS_INVALID_PARAMETER;
    }
}

/* ---------------------------------------------------------------- NtSetSystemInformation */
static etw_status set_groupmask(const void *buf, etw_u32 len)
{
    /* order (notes GMI-07): length, logger, system-logger mode, access, then the update */
    if (len != sizeof(ETW_EVENT_TRACE_GROUPMASK_INFORMATION)) /* @GMI.EXACT_SIZE:set @GMI.SET_ORDER */
        return ETW_STATUS_INFO_LENGTH_MISMATCH;
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION gm;
    memcpy(&gm, buf, sizeof gm);
    struct ref_logger *lg = ref_logger_for_groupmask(gm.TraceHandle);
    if (!lg) /* @GMI.NOT_FOUND:set */
        return ETW_STATUS_WMI_INSTANCE_NOT_FOUND; /* @TSI.04.SYSTEM_LOGGER */
    if (!(lg->mode & ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE)) /* @GMI.SYSTEM_MODE:set */
        return ETW_STATUS_INVALID_PARAMETER;
    if (!(lg->access & ETW_TRACELOG_GUID_ENABLE)) /* @GMI.SET_ACCESS */
        return ETW_STATUS_ACCESS_DENIED;
    etw_u32 m[8];
    memcpy(m, gm.EventTraceGroupMasks.Masks, sizeof m);
    flags_to_groups(m); /* @GMI.ENABLE_FLAGS:set */
    if ((perf_on(m, ETW_PERF_PROFILE) || perf_on(m, ETW_PERF_PMC_PROFILE)) && !ref.profile_privilege) /* @GMI.PROFILE_PRIVILEGE */
        return ETW_STATUS_PRIVILEGE_NOT_HELD; /* @GMI.PROFILE_PRIVILEGE:code */
    bool want_cs = perf_on(m, ETW_PERF_CONTEXT_SWITCH) && perf_on(m, ETW_PERF_COMPACT_CSWITCH);
    bool have_cs = perf_on(lg->masks, ETW_PERF_CONTEXT_SWITCH) && perf_on(lg->masks, ETW_PERF_COMPACT_CSWITCH);
    if (want_cs && !have_cs && !lg->cswitch_buffers) { /* @GMI.CSWITCH_MEMORY:when @GMI.CSWITCH_ALREADY_ON */
        /* per-processor buffers for batching context switches (seed 001) */
        lg->cswitch_buffers = ref_alloc(REF_CPUS * 4096);
        if (!lg->cswitch_buffers)
            return ETW_STATUS_NO_MEMORY; /* @GMI.CSWITCH_MEMORY */
    }
    memcpy(lg->masks, m, sizeof m); /* @GMI.SET */
    return ETW_STATUS_SUCCESS;
}

ETWREF_EXPORT etw_status ETW_WINAPI NtSetSystemInformation(etw_u32 SystemInformationClass, void *SystemInformation,
                                                           etw_u32 SystemInformationLength)
{
    if (SystemInformationClass != ETW_SystemPerformanceTraceInformation)
        return ETW_STATUS_INVALID_INFO_CLASS;
    if (!ref_at_least(ETW_V6_0))
        return ETW_STATUS_INVALID_INFO_CLASS;
    if (SystemInformationLength < 4 || !SystemInformation) /* @KSI.SHORT:set */
        return ETW_STATUS_INVALID_PARAMETER;
    etw_u32 k;
    memcpy(&k, SystemInformation, 4);
    if (!kclass_valid(k, S)) /* @KSI.BAD_CLASS:set */
        return ETW_STATUS_NOT_IMPLEMENTED; /* before 6.2 this includes the group mask (seed 001) */
    const etw_u8 *b = SystemInformation;
    switch (k) {
    case ETW_EventTraceGroupMaskInformation: return set_groupmask(SystemInformation, SystemInformationLength);
    case ETW_EventTraceTimeProfileInformation: {
        if (SystemInformationLength != sizeof(ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION))
            return ETW_STATUS_INFO_LENGTH_MISMATCH;
        etw_u32 iv;
        memcpy(&iv, b + 4, 4);
        return NtSetIntervalProfile(iv, ETW_ProfileTime); /* @TPI.SET */
    }
    case ETW_EventTraceProfileConfigInformation: /* profile sources for a session: needs the privilege */
        if (SystemInformationLength < offsetof(ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION, ProfileSource))
            return ETW_STATUS_INVALID_PARAMETER;
        if (!ref.profile_privilege) /* @TSI.06.PRIVILEGE */
            return ETW_STATUS_PRIVILEGE_NOT_HELD;
        if ((SystemInformationLength - 0x10) / 4 > 8) /* @TSI.06.SET */
            return ETW_STATUS_INVALID_PARAMETER;
        return ETW_STATUS_SUCCESS;
    case ETW_EventTraceStackTracingInformation:
    case ETW_EventTraceProfileEventListInformation:
    case ETW_EventTraceProfileCounterListInformation: {
        if (SystemInformationLength < 0x10)
            return ETW_STATUS_INVALID_PARAMETER;
        etw_u64 h;
        memcpy(&h, b + 8, 8);
        return h == 0 || ref_logger_for_groupmask(h) ? ETW_STATUS_SUCCESS : ETW_STATUS_WMI_INSTANCE_NOT_FOUND; /* @TSI.03.SET @TSI.08.SET @TSI.09.SET */
    }
    default: return ETW_STATUS_INVALID_PARAMETER; /* valid for set but outside the model */
    }
}
