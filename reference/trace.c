/*
 * reference/trace.c - TraceQueryInformation and TraceSetInformation as SECHOST implements them.
 * Rules: spec/rules/tqi.def (seed 000) and spec/rules/tsi.def (research notes, section B).
 */
#include "reference/internal.h"
#include <string.h>

static etw_u32 kernel_groupmask_query(etw_tracehandle h, etw_u32 masks[8])
{
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION gm = {.EventTraceInformationClass = ETW_EventTraceGroupMaskInformation, .TraceHandle = h};
    etw_status st = NtQuerySystemInformation(ETW_SystemPerformanceTraceInformation, &gm, sizeof gm, NULL);
    if (st != ETW_STATUS_SUCCESS) /* @TQI.KERNEL.FAILURE */
        return ref_status_to_win32(st); /* @TQI.RC.WIN32 */
    memcpy(masks, gm.EventTraceGroupMasks.Masks, 32);
    return ETW_ERROR_SUCCESS;
}

static etw_u32 query_profile_source_list(void *info, etw_u32 len, etw_u32 *retlen)
{
    /* The size is not known in advance: double-buffer, growing the kernel buffer as told. */
    etw_u32 klen = 0x1000; /* room for the modelled HAL's list: one allocation as a rule */
    for (int tries = 0; tries < 4; tries++) {
        etw_u8 *k = ref_alloc(klen);
        if (!k)
            return ETW_ERROR_OUTOFMEMORY; /* seed 000 */ /* @TQI.07.OOM */
        etw_u32 cls = ETW_EventTraceProfileSourceListInformation, need = 0; /* @TQI.07.KERNEL:class */
        memcpy(k, &cls, 4);
        etw_status st = NtQuerySystemInformation(ETW_SystemPerformanceTraceInformation, k, klen, &need);
        if (st == ETW_STATUS_BUFFER_TOO_SMALL && need > klen) {
            ref_free(k);
            klen = need;
            continue;
        }
        if (st != ETW_STATUS_SUCCESS) {
            ref_free(k);
            return ref_status_to_win32(st);
        }
        etw_u32 out = need - 8;
        if (retlen)
            *retlen = out; /* @TQI.07.NULL_PROBE */
        etw_u32 rc = ETW_ERROR_SUCCESS;
        if (!info || len < out) /* @TQI.07.NULL_PROBE:size */
            rc = ETW_ERROR_BAD_LENGTH; /* inferred (OQ-3); the size is in *ReturnLength */ /* @TQI.07.SHORT_RC */
        else
            memcpy(info, k + 8, out); /* @TQI.07.KERNEL @GEN.BUFFER_BOUNDS:07 */
        ref_free(k);
        return rc;
    }
    return ETW_ERROR_GEN_FAILURE;
}

/* The classes later builds added (spec/later-builds.md, from Microsoft's TRACE_QUERY_INFO_CLASS
 * page): the build that added each, 0 for any other class. */
static unsigned later_class_build(etw_u32 k)
{
    if (k >= ETW_TracePeriodicCaptureStateListInfo && k <= ETW_TraceMaxLoggersQuery)
        return REF_B_1709; /* @TQI.CLASS.LATER:1709 @TSI.CLASS.LATER:1709 */
    if (k >= ETW_TraceLbrConfigurationInfo && k <= ETW_TraceMaxPmcCounterQuery)
        return REF_B_19H1; /* @TQI.CLASS.LATER:19h1 @TSI.CLASS.LATER:19h1 */
    if (k == ETW_TraceStackCachingInfo) /* "only supported on Windows 10 19582+" (microsoft/perfview PR #1802): 20H1 */
        return REF_B_20H1; /* @TSI.CLASS.LATER:20h1 */
    if (k >= ETW_TraceStreamCount && k <= ETW_TraceUnifiedStackCachingInfo)
        return REF_B_21H2; /* @TQI.CLASS.LATER:21h2 @TSI.CLASS.LATER:21h2 */
    if (k == ETW_TracePmcSessionInformation)
        return REF_B_22H2; /* @TQI.CLASS.LATER:22h2 */
    if (k == ETW_TraceContextRegisterInfo)
        return REF_B_SERVER_23H2; /* @TSI.CLASS.LATER:23h2 */
    return 0;
}

/* a later class the emulated build has */
static bool later_class(etw_u32 k)
{
    unsigned first = later_class_build(k);
    return first && ref_at_least_key(first); /* @TQI.CLASS.LATER:exists */
}

/* TraceMaxLoggersQuery and TraceMaxPmcCounterQuery: a ULONG; "Does not use the TraceId parameter"
 * (SDK evntrace.h) */
static etw_u32 query_later_ulong(etw_tracehandle h, etw_u32 k, void *info, etw_u32 len, etw_u32 *retlen)
{
    (void)h; /* @TQI.LATER.HANDLE_UNUSED */
    if (len < 4)
        return ETW_ERROR_BAD_LENGTH; /* inferred, as for the fixed-size classes */ /* @TQI.LATER.SHORT */
    /* 64 loggers by default; 8 PMCs, the limit of TraceProfileSourceConfigInfo in this model */
    etw_u32 v = k == ETW_TraceMaxLoggersQuery ? REF_MAX_LOGGERS : 8; /* @TQI.13.OUTPUT @TQI.16.NONZERO */
    memcpy(info, &v, 4);
    if (retlen)
        *retlen = 4; /* inferred */
    return ETW_ERROR_SUCCESS; /* @TQI.16.OUTPUT */
}

ETWREF_EXPORT etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                       etw_u32 InformationLength, etw_u32 *ReturnLength)
{
    etw_u8 *info = TraceInformation;
    if (!info) /* @TQI.07.NULL_PROBE:null */
        InformationLength = 0; /* inferred: as for class 0x07 (TQI-33), a NULL buffer has no room */
    switch (InformationClass) { /* @TQI.CLASS.UNSUPPORTED:switch */
    case ETW_TraceSystemTraceEnableFlagsInfo: {
        if (!ref_at_least(ETW_V6_2)) /* @TQI.CLASS.SET:04 */
            break;
        /* the handle is passed on unchanged: no zero check for this class */
        if (ReturnLength) /* @TQI.RETLEN.OPTIONAL:04 */
            *ReturnLength = sizeof(ETW_PERFINFO_GROUPMASK); /* @TQI.04.RETLEN @TQI.RETLEN.FAILURE:04 */
        if (InformationLength < sizeof(ETW_PERFINFO_GROUPMASK)) /* @TQI.04.MIN_SIZE @TQI.04.LARGER */
            return ETW_ERROR_BAD_LENGTH; /* @TQI.04.MIN_SIZE:code */
        etw_u32 masks[8];
        etw_u32 rc = kernel_groupmask_query(SessionHandle, masks); /* @TQI.04.HANDLE */
        if (rc == ETW_ERROR_SUCCESS) /* @TQI.NO_WRITE_ON_FAILURE:04 */
            memcpy(info, masks, sizeof masks); /* only 0x20 bytes, however large the buffer */ /* @TQI.04.OUTPUT @TQI.04.LARGER:copy */
        return rc;
    }
    case ETW_TraceSampledProfileIntervalInfo: {
        if (!ref_at_least(ETW_V6_2)) /* @TQI.CLASS.SET:05 */
            break;
        if (SessionHandle != 0) /* @TQI.05.HANDLE_ZERO */
            return ETW_ERROR_INVALID_PARAMETER;
        if (ReturnLength) /* @TQI.RETLEN.OPTIONAL:05 */
            *ReturnLength = sizeof(ETW_TRACE_PROFILE_INTERVAL); /* @TQI.05.RETLEN @TQI.RETLEN.FAILURE:05 */
        if (InformationLength != sizeof(ETW_TRACE_PROFILE_INTERVAL)) /* @TQI.05.EXACT_SIZE */
            return ETW_ERROR_BAD_LENGTH; /* @TQI.05.EXACT_SIZE:code */
        etw_u32 source, interval;
        memcpy(&source, info, 4);
        if (source == ETW_ProfileTime) { /* @TQI.05.TIMER:select @TQI.05.SOURCE:select */
            ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {.EventTraceInformationClass = ETW_EventTraceTimeProfileInformation};
            etw_status st = NtQuerySystemInformation(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp, NULL);
            if (st != ETW_STATUS_SUCCESS)
                return ref_status_to_win32(st);
            interval = tp.ProfileInterval; /* @TQI.05.TIMER */
        } else {
            etw_status st = NtQueryIntervalProfile(source, &interval); /* @TQI.05.SOURCE @TQI.05.LISTED_SOURCES */
            if (st != ETW_STATUS_SUCCESS)
                return ref_status_to_win32(st);
        }
        memcpy(info + 4, &interval, 4); /* @TQI.05.TIMER:output @TQI.05.SOURCE:output */
        return ETW_ERROR_SUCCESS;
    }
    case ETW_TraceProfileSourceListInfo:
        if (!ref_at_least(ETW_V6_2)) /* @TQI.CLASS.SET:07 */
            break;
        if (SessionHandle != 0) /* @TQI.07.HANDLE_ZERO */
            return ETW_ERROR_INVALID_PARAMETER;
        return query_profile_source_list(TraceInformation, InformationLength, ReturnLength);
    case ETW_TraceVersionInfo: {
        if (!ref_at_least(ETW_V10_0)) /* @TQI.CLASS.SET:0b */
            break;
        if (SessionHandle != 0) /* @TQI.0B.HANDLE_ZERO */
            return ETW_ERROR_INVALID_PARAMETER;
        if (ReturnLength) /* @TQI.RETLEN.OPTIONAL:0b */
            *ReturnLength = sizeof(ETW_TRACE_VERSION_INFO); /* @TQI.0B.RETLEN @TQI.RETLEN.FAILURE:0b */
        if (InformationLength != sizeof(ETW_TRACE_VERSION_INFO)) /* @TQI.0B.EXACT_SIZE */
            return ETW_ERROR_BAD_LENGTH; /* @TQI.0B.EXACT_SIZE:code */
        etw_u32 v = 1; /* chosen by the function itself (seed 000); Reserved is left alone */ /* @TQI.0B.VERSION */
        memcpy(info, &v, 4); /* @TQI.0B.RESERVED */
        return ETW_ERROR_SUCCESS;
    }
    case ETW_TraceDisallowListQuery: {
        if (!ref_at_least(ETW_V10_0)) /* @TQI.CLASS.SET:0e */
            break;
        etw_u32 size = 0;
        etw_status st = NtTraceControl(ETW_NTC_GET_DISALLOW_LIST, &SessionHandle, sizeof SessionHandle, TraceInformation, /* @TQI.0E.NTC22 */
                                       InformationLength, &size);
        if (ReturnLength) /* @TQI.RETLEN.OPTIONAL:0e */
            *ReturnLength = size; /* the kernel's size, on failure too (inferred, OQ-1) */ /* @TQI.0E.RETLEN_FAIL */
        return ref_status_to_win32(st);
    }
    case ETW_TraceMaxLoggersQuery:
    case ETW_TraceMaxPmcCounterQuery:
        if (!later_class(InformationClass))
            break;
        return query_later_ulong(SessionHandle, InformationClass, info, InformationLength, ReturnLength);
    default:
        if (later_class(InformationClass))
            return ETW_ERROR_INVALID_PARAMETER; /* a class of this build outside the model: its cases SKIP */
        break;
    }
    return ETW_ERROR_NOT_SUPPORTED; /* @TQI.CLASS.UNSUPPORTED */
}

/* ---------------------------------------------------------------- TraceSetInformation */
static etw_u32 kernel_set(void *buf, etw_u32 len)
{
    return ref_status_to_win32(NtSetSystemInformation(ETW_SystemPerformanceTraceInformation, buf, len));
}

/* kernel buffer {class, handle, ULONG array} for classes 0x06, 0x0C, 0x0E, 0x0F */
static etw_u32 kernel_set_array(etw_u32 kclass, etw_tracehandle h, const void *data, etw_u32 len)
{
    etw_u32 klen = (etw_u32)offsetof(ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION, ProfileSource) + len;
    etw_u8 *k = ref_alloc(klen);
    if (!k)
        return ETW_ERROR_OUTOFMEMORY;
    memcpy(k, &kclass, 4);
    memcpy(k + 8, &h, 8);
    if (len)
        memcpy(k + 0x10, data, len);
    etw_u32 rc = kernel_set(k, klen);
    ref_free(k);
    return rc;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI TraceSetInformation(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                     etw_u32 InformationLength)
{
    const etw_u8 *info = TraceInformation;
    switch (InformationClass) {
    case ETW_TraceStackTracingInfo: {
        if (!ref_at_least(ETW_V6_1)) /* @TSI.CLASS.SET:03 */
            break;
        if (InformationLength == 0) /* an empty list turns stack tracing off, whatever the pointer (TSI.03.EMPTY_BUFFER) */ /* @TSI.03.EMPTY */
            return kernel_set_array(ETW_EventTraceStackTracingInformation, SessionHandle, NULL, 0); /* @TSI.03.EMPTY_BUFFER */
        if (!info)
            return ETW_ERROR_INVALID_PARAMETER; /* inferred */
        if (InformationLength % sizeof(ETW_CLASSIC_EVENT_ID) || InformationLength / sizeof(ETW_CLASSIC_EVENT_ID) > 256) /* @TSI.03.SIZE */
            return ETW_ERROR_INCORRECT_SIZE; /* @TSI.03.SIZE:code */
        etw_u32 n = InformationLength / sizeof(ETW_CLASSIC_EVENT_ID), hooks[256], nh = 0;
        for (etw_u32 i = 0; i < n; i++) {
            ETW_CLASSIC_EVENT_ID e;
            memcpy(&e, info + i * sizeof e, sizeof e);
            /* hook id = group byte of the kernel event GUID << 8 | type; GUIDs that name no kernel
             * event group are skipped. The model treats only the all-zero GUID as unknown (inferred). */
            static const etw_guid zero;
            if (!memcmp(&e.EventGuid, &zero, sizeof zero))
                continue;
            hooks[nh++] = ((e.EventGuid.Data1 & 0xFF) << 8) | e.Type;
        }
        return kernel_set_array(ETW_EventTraceStackTracingInformation, SessionHandle, hooks, nh * 4);
    }
    case ETW_TraceSystemTraceEnableFlagsInfo: {
        if (!ref_at_least(ETW_V6_2)) /* @TSI.CLASS.SET:04 */
            break;
        if (!info || InformationLength == 0 || InformationLength % 4 || InformationLength > 32) /* @TSI.04.LENGTH */
            return ETW_ERROR_INVALID_PARAMETER; /* not ERROR_BAD_LENGTH as for the query (C-8) */ /* @TSI.04.LENGTH:code */
        ETW_EVENT_TRACE_GROUPMASK_INFORMATION gm = {.EventTraceInformationClass = ETW_EventTraceGroupMaskInformation,
                                                    .TraceHandle = SessionHandle}; /* @TSI.04.HANDLE */
        memcpy(gm.EventTraceGroupMasks.Masks, info, InformationLength); /* the rest stays 0 */ /* @TSI.04.PARTIAL @TSI.04.KERNEL:masks */
        return kernel_set(&gm, sizeof gm); /* @TSI.04.KERNEL */
    }
    case ETW_TraceSampledProfileIntervalInfo: {
        if (!ref_at_least(ETW_V6_2)) /* @TSI.CLASS.SET:05 */
            break;
        if (SessionHandle != 0) /* @TSI.05.HANDLE_ZERO */
            return ETW_ERROR_INVALID_PARAMETER;
        if (InformationLength != sizeof(ETW_TRACE_PROFILE_INTERVAL) || !info) /* @TSI.05.EXACT_SIZE */
            return ETW_ERROR_BAD_LENGTH; /* @TSI.05.EXACT_SIZE:code */
        ETW_TRACE_PROFILE_INTERVAL pi;
        memcpy(&pi, info, sizeof pi);
        if (pi.Source == ETW_ProfileTime) { /* @TSI.05.SET:select */
            ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, pi.Interval};
            return kernel_set(&tp, sizeof tp);
        }
        return ref_status_to_win32(NtSetIntervalProfile(pi.Interval, pi.Source)); /* @TSI.05.SET */
    }
    case ETW_TraceProfileSourceConfigInfo:
    case ETW_TracePmcCounterListInfo: {
        if (!ref_at_least(ETW_V6_2)) /* @TSI.CLASS.SET:06 */
            break;
        if (!info || InformationLength == 0) /* @TSI.06.SIZE:empty @TSI.09.SIZE:empty */
            return ETW_ERROR_INVALID_PARAMETER;
        if (InformationLength % 4 || InformationLength / 4 > 4) /* @TSI.06.SIZE @TSI.09.SIZE */
            return ETW_ERROR_INCORRECT_SIZE; /* @TSI.06.SIZE:code @TSI.09.SIZE:code */
        etw_u32 k = InformationClass == ETW_TraceProfileSourceConfigInfo ? ETW_EventTraceProfileConfigInformation
                                                                          : ETW_EventTraceProfileCounterListInformation;
        return kernel_set_array(k, SessionHandle, info, InformationLength);
    }
    case ETW_TracePmcEventListInfo: {
        if (!ref_at_least(ETW_V6_2)) /* @TSI.CLASS.SET:08 */
            break;
        if (InformationLength == 0)
            return info ? ETW_ERROR_INVALID_PARAMETER : kernel_set_array(ETW_EventTraceProfileEventListInformation, SessionHandle, NULL, 0); /* @TSI.08.SIZE:empty */
        if (!info)
            return ETW_ERROR_INVALID_PARAMETER;
        if (InformationLength % sizeof(ETW_CLASSIC_EVENT_ID) || InformationLength / sizeof(ETW_CLASSIC_EVENT_ID) > 4) /* @TSI.08.SIZE */
            return ETW_ERROR_INCORRECT_SIZE;
        return kernel_set_array(ETW_EventTraceProfileEventListInformation, SessionHandle, info, InformationLength);
    }
    case ETW_TraceSetDisallowList: {
        if (!ref_at_least(ETW_V10_0)) /* @TSI.CLASS.SET:0a */
            break;
        if (InformationLength % 16 || (InformationLength && !info)) /* @TSI.0A.DISALLOW:length */
            return ETW_ERROR_INVALID_PARAMETER; /* inferred: whole GUIDs only */
        etw_u32 klen = 8 + InformationLength, size = 0;
        etw_u8 *k = ref_alloc(klen);
        if (!k)
            return ETW_ERROR_OUTOFMEMORY;
        ETW_NTC_DISALLOW_LIST_HEADER h = {(etw_u32)(SessionHandle & 0xFFFF), InformationLength / 16}; /* @TSI.0A.DISALLOW */
        memcpy(k, &h, sizeof h);
        if (InformationLength)
            memcpy(k + 8, info, InformationLength);
        etw_status st = NtTraceControl(ETW_NTC_UPDATE_DISALLOW_LIST, k, klen, NULL, 0, &size);
        ref_free(k);
        return ref_status_to_win32(st);
    }
    default:
        if (later_class(InformationClass))
            return ETW_ERROR_INVALID_PARAMETER; /* a class of this build outside the model: its cases SKIP */
        break;
    }
    return ETW_ERROR_NOT_SUPPORTED; /* @TSI.CLASS.SET:unsupported */
}
