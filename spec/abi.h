/*
 * spec/abi.h - the etwconf ABI: every constant, type and structure the suite uses.
 *
 * Nothing here is taken from the mingw-w64 or Wine headers: several of their values are wrong or
 * missing (EVENT_INFO_CLASS numbering, SystemPerformanceTraceInformation = 0x1F, the
 * TRACE_QUERY_INFO_CLASS tail). Every value below carries its source (see
 * ../shared/notes/spec-research.md section (b)). Layouts are the Windows (MS ABI) layouts for both
 * x86 and x64, and are asserted at the bottom of this file. The header is freestanding: it needs
 * only <stdint.h> and <stddef.h>, so it can be compiled for i386 SysV, i686/x86_64 mingw and
 * x86_64 Linux alike (the "abi" test stage does exactly that).
 *
 * i386 SysV trap: there a 64-bit member is only 4-aligned, which would put
 * EVENT_TRACE_GROUPMASK_INFORMATION.TraceHandle at 4 and make the structure 0x2C bytes.
 * ETW_ALIGN8 forces the Windows alignment on every 64-bit member.
 */
#ifndef ETWCONF_ABI_H
#define ETWCONF_ABI_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define ETW_WINAPI __stdcall
#else
#define ETW_WINAPI
#endif
#define ETW_ALIGN8 _Alignas(8)

typedef uint8_t etw_u8;
typedef uint16_t etw_u16;
typedef uint32_t etw_u32; /* ULONG, DWORD, UINT: 32 bits on every Windows ABI */
typedef uint64_t etw_u64; /* ULONG64, TRACEHANDLE, REGHANDLE */
typedef int32_t etw_status; /* NTSTATUS */
typedef void *etw_handle; /* HANDLE: pointer-sized */
typedef uint64_t etw_tracehandle;
typedef uint64_t etw_reghandle;
typedef uint16_t etw_wchar; /* WCHAR: UTF-16 code unit, never wchar_t (4 bytes on Linux) */

typedef struct etw_guid {
    etw_u32 Data1;
    etw_u16 Data2;
    etw_u16 Data3;
    etw_u8 Data4[8];
} etw_guid;

/* ---------------------------------------------------------------- versions: spec/versions.def
 * A version key orders every build: NT version, build, update level (0 or 1). An entry named by its
 * NT version ("6.1": sizeof "6.1" <= 5) is ETW_<sym> = its NT version (major << 8 | minor), and
 * stands for the whole NT version in a range; any other entry is ETW_<sym> = its key. */
#define ETW_VKEY(nt, build, update) ((unsigned)(nt) << 20 | (unsigned)(build) << 4 | (unsigned)(update))
#define ETW_VKEY_NT(key) ((key) >> 20)
#define ETW_VKEY_BUILD(key) (((key) >> 4) & 0xFFFFu)
#define ETW_VKEY_UPDATE(key) ((key)&0xFu)
#define ETW_VIS_NT(v) ((unsigned)(v) <= 0xFFFFu) /* an NT version, not a key */
#define ETW_VNT(v) (ETW_VIS_NT(v) ? (unsigned)(v) : ETW_VKEY_NT(v)) /* the NT version of an id or key */
/* the keys a range bound stands for: an NT version from its first to its last build, a build
 * from its first to its last update */
#define ETW_VLO(v) (ETW_VIS_NT(v) ? ETW_VKEY((v), 0, 0) : (unsigned)(v))
#define ETW_VHI(v) (ETW_VIS_NT(v) ? ETW_VKEY((v), 0xFFFF, 0xF) : ((unsigned)(v) | 0xFu))
enum etw_version {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) ETW_##sym = sizeof(name) <= 5 ? (nt) : ETW_VKEY(nt, build, update),
#include "spec/versions.def"
#undef VERSION
};
enum {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) ETW_VINDEX_##sym,
#include "spec/versions.def"
#undef VERSION
    ETW_VERSION_COUNT
};
#define ETW_VMIN ETW_V5_2
#define ETW_VMAX ETW_V10_0

/* ---------------------------------------------------------------- Win32 error codes (winerror.h) */
#define ETW_ERROR_SUCCESS 0u
#define ETW_ERROR_INVALID_FUNCTION 1u
#define ETW_ERROR_ACCESS_DENIED 5u
#define ETW_ERROR_INVALID_HANDLE 6u
#define ETW_ERROR_NOT_ENOUGH_MEMORY 8u
#define ETW_ERROR_OUTOFMEMORY 14u
#define ETW_ERROR_BAD_LENGTH 24u
#define ETW_ERROR_GEN_FAILURE 31u
#define ETW_ERROR_NOT_SUPPORTED 50u
#define ETW_ERROR_INVALID_PARAMETER 87u
#define ETW_ERROR_CALL_NOT_IMPLEMENTED 120u
#define ETW_ERROR_INSUFFICIENT_BUFFER 122u
#define ETW_ERROR_MORE_DATA 234u
#define ETW_ERROR_NOACCESS 998u
#define ETW_ERROR_PRIVILEGE_NOT_HELD 1314u
#define ETW_ERROR_FILE_CORRUPT 1392u
#define ETW_ERROR_NO_SYSTEM_RESOURCES 1450u
#define ETW_ERROR_INCORRECT_SIZE 1462u
#define ETW_ERROR_WMI_GUID_NOT_FOUND 4200u
#define ETW_ERROR_WMI_INSTANCE_NOT_FOUND 4201u
/* Seed 001/004 says "ERROR_NOT_IMPLEMENTED": no Win32 code of that name exists. The kernel returns
 * STATUS_NOT_IMPLEMENTED (below), which RtlNtStatusToDosError maps to ERROR_INVALID_FUNCTION. */

/* ---------------------------------------------------------------- NTSTATUS values (ntstatus.h) */
#define ETW_STATUS_SUCCESS ((etw_status)0x00000000)
#define ETW_STATUS_MORE_ENTRIES ((etw_status)0x00000105)
#define ETW_STATUS_WINE_STUB ((etw_status)0x80000100) /* EXCEPTION_WINE_STUB: raised, never returned */
#define ETW_STATUS_BUFFER_OVERFLOW ((etw_status)0x80000005)
#define ETW_STATUS_UNSUCCESSFUL ((etw_status)0xC0000001)
#define ETW_STATUS_NOT_IMPLEMENTED ((etw_status)0xC0000002)
#define ETW_STATUS_INVALID_INFO_CLASS ((etw_status)0xC0000003)
#define ETW_STATUS_INFO_LENGTH_MISMATCH ((etw_status)0xC0000004)
#define ETW_STATUS_ACCESS_VIOLATION ((etw_status)0xC0000005)
#define ETW_STATUS_INVALID_HANDLE ((etw_status)0xC0000008)
#define ETW_STATUS_INVALID_PARAMETER ((etw_status)0xC000000D)
#define ETW_STATUS_INVALID_DEVICE_REQUEST ((etw_status)0xC0000010)
#define ETW_STATUS_NO_MEMORY ((etw_status)0xC0000017)
#define ETW_STATUS_ACCESS_DENIED ((etw_status)0xC0000022)
#define ETW_STATUS_BUFFER_TOO_SMALL ((etw_status)0xC0000023)
#define ETW_STATUS_PRIVILEGE_NOT_HELD ((etw_status)0xC0000061)
#define ETW_STATUS_INSUFFICIENT_RESOURCES ((etw_status)0xC000009A)
#define ETW_STATUS_NOT_SUPPORTED ((etw_status)0xC00000BB)
#define ETW_STATUS_FILE_CORRUPT_ERROR ((etw_status)0xC0000102)
#define ETW_STATUS_WMI_GUID_NOT_FOUND ((etw_status)0xC0000295)
/* 0xC0000296, not 0xC0000295 (that is the GUID variant, 4200). */
#define ETW_STATUS_WMI_INSTANCE_NOT_FOUND ((etw_status)0xC0000296)

/* ---------------------------------------------------------------- TRACE_QUERY_INFO_CLASS (SDK numbering) */
#define ETW_TraceGuidQueryList 0x00u
#define ETW_TraceGuidQueryInfo 0x01u
#define ETW_TraceGuidQueryProcess 0x02u
#define ETW_TraceStackTracingInfo 0x03u
#define ETW_TraceSystemTraceEnableFlagsInfo 0x04u
#define ETW_TraceSampledProfileIntervalInfo 0x05u
#define ETW_TraceProfileSourceConfigInfo 0x06u
#define ETW_TraceProfileSourceListInfo 0x07u
#define ETW_TracePmcEventListInfo 0x08u
#define ETW_TracePmcCounterListInfo 0x09u
#define ETW_TraceSetDisallowList 0x0Au
#define ETW_TraceVersionInfo 0x0Bu
#define ETW_TraceGroupQueryList 0x0Cu
#define ETW_TraceGroupQueryInfo 0x0Du
#define ETW_TraceDisallowListQuery 0x0Eu
#define ETW_TraceInfoReserved15 0x0Fu /* "TraceCompressionInfo" in mingw, Wine and old SDKs */
/* the later classes (Microsoft's TRACE_QUERY_INFO_CLASS page and the SDK's evntrace.h; first builds
 * in spec/later-builds.md) */
#define ETW_TracePeriodicCaptureStateListInfo 0x10u
#define ETW_TracePeriodicCaptureStateInfo 0x11u
#define ETW_TraceProviderBinaryTracking 0x12u
#define ETW_TraceMaxLoggersQuery 0x13u
#define ETW_TraceLbrConfigurationInfo 0x14u
#define ETW_TraceLbrEventListInfo 0x15u
#define ETW_TraceMaxPmcCounterQuery 0x16u
#define ETW_TraceStreamCount 0x17u
#define ETW_TraceStackCachingInfo 0x18u
#define ETW_TracePmcCounterOwners 0x19u
#define ETW_TraceUnifiedStackCachingInfo 0x1Au
#define ETW_TracePmcSessionInformation 0x1Bu
#define ETW_TraceContextRegisterInfo 0x1Cu

/* ---------------------------------------------------------------- kernel side */
#define ETW_SystemPerformanceTraceInformation 0x1Fu /* missing from mingw's winternl.h */

/* EVENT_TRACE_INFORMATION_CLASS: first DWORD of the 0x1F buffer (Chappell, G-CLS) */
#define ETW_EventTraceKernelVersionInformation 0x00u
#define ETW_EventTraceGroupMaskInformation 0x01u
#define ETW_EventTracePerformanceInformation 0x02u
#define ETW_EventTraceTimeProfileInformation 0x03u
#define ETW_EventTraceSessionSecurityInformation 0x04u
#define ETW_EventTraceSpinlockInformation 0x05u
#define ETW_EventTraceStackTracingInformation 0x06u
#define ETW_EventTraceExecutiveResourceInformation 0x07u
#define ETW_EventTraceHeapTracingInformation 0x08u
#define ETW_EventTraceHeapSummaryTracingInformation 0x09u
#define ETW_EventTracePoolTagFilterInformation 0x0Au
#define ETW_EventTracePebsTracingInformation 0x0Bu
#define ETW_EventTraceProfileConfigInformation 0x0Cu
#define ETW_EventTraceProfileSourceListInformation 0x0Du
#define ETW_EventTraceProfileEventListInformation 0x0Eu
#define ETW_EventTraceProfileCounterListInformation 0x0Fu
#define ETW_EventTraceStackCachingInformation 0x10u
#define ETW_EventTraceObjectTypeFilterInformation 0x11u

/* NtTraceControl function codes used here (Chappell, G-NTC; names from decompilation) */
#define ETW_NTC_TRACK_PROVIDER_BINARY 0x1Au
#define ETW_NTC_UPDATE_DISALLOW_LIST 0x1Cu
#define ETW_NTC_SET_PROVIDER_TRAITS 0x1Eu
#define ETW_NTC_USE_DESCRIPTOR_TYPE 0x1Fu
#define ETW_NTC_GET_DISALLOW_LIST 0x22u

/* EVENT_INFO_CLASS: current SDK and implementation numbering. Wine's evntprov.h and old MSDN
 * have SetTraits = 1 and UseDescriptorType = 2; mingw has only BinaryTrackInfo. */
#define ETW_EventProviderBinaryTrackInfo 0u
#define ETW_EventProviderSetReserved1 1u
#define ETW_EventProviderSetTraits 2u
#define ETW_EventProviderUseDescriptorType 3u
#define ETW_MaxEventInfo 4u

#define ETW_EtwProviderTraitTypeGroup 1u
#define ETW_EtwProviderTraitTypeMax 2u

/* TRACE_LEVEL_* (evntrace.h) and EnableTraceEx2's control codes (EVENT_CONTROL_CODE_*, evntrace.h):
 * the values an enable callback's IsEnabled and Level carry */
#define ETW_TRACE_LEVEL_INFORMATION 4u
#define ETW_TRACE_LEVEL_VERBOSE 5u
#define ETW_EVENT_CONTROL_CODE_DISABLE_PROVIDER 0u
#define ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER 1u
/* The suite's choice, not Windows': the level and MatchAnyKeyword a provider group is enabled
 * with (EtwRef_EnableGroup in a library, EnableTraceEx2 on live Windows), so that a member's enable
 * callback can be checked to carry the session's values. MatchAllKeyword is 0. */
#define ETW_GROUP_ENABLE_LEVEL ETW_TRACE_LEVEL_INFORMATION
#define ETW_GROUP_ENABLE_KEYWORDS 0x0000A5A500000F0Full

/* KPROFILE_SOURCE (wdm.h) */
#define ETW_ProfileTime 0u
#define ETW_ProfileAlignmentFixup 1u
#define ETW_ProfileTotalIssues 2u
#define ETW_ProfileMaximum 24u

#define ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE 0x02000000u
#define ETW_EVENT_TRACE_PRIVATE_LOGGER_MODE 0x00000800u
#define ETW_KERNEL_LOGGER_ID 0xFFFFu
#define ETW_TRACELOG_GUID_ENABLE 0x80u
#define ETW_TRACELOG_REGISTER_GUIDS 0x800u

/* PERFINFO group masks: index = v >> 29, bit = v & 0x1FFFFFFF (Chappell, G-PGM) */
#define ETW_PERF_MASK_INDEX(v) ((etw_u32)(v) >> 29)
#define ETW_PERF_MASK_BIT(v) ((etw_u32)(v)&0x1FFFFFFFu)
#define ETW_PERF_MEMORY 0x20000001u
#define ETW_PERF_PROFILE 0x20000002u
#define ETW_PERF_CONTEXT_SWITCH 0x20000004u
#define ETW_PERF_DRIVERS 0x20000010u
#define ETW_PERF_DPC 0x20000080u
#define ETW_PERF_COMPACT_CSWITCH 0x20000100u
#define ETW_PERF_DISPATCHER 0x20000200u
#define ETW_PERF_PMC_PROFILE 0x20000400u
#define ETW_PERF_INTERRUPT 0x20004000u
#define ETW_PERF_VIRTUAL_ALLOC 0x20008000u
#define ETW_PERF_SYSCALL 0x40000040u
/* EnableFlags bits of Masks[0] that the kernel maps onto other groups */
#define ETW_EVENT_TRACE_FLAG_PROCESS 0x00000001u
#define ETW_EVENT_TRACE_FLAG_THREAD 0x00000002u
#define ETW_EVENT_TRACE_FLAG_CSWITCH 0x00000010u
#define ETW_EVENT_TRACE_FLAG_DPC 0x00000020u
#define ETW_EVENT_TRACE_FLAG_INTERRUPT 0x00000040u
#define ETW_EVENT_TRACE_FLAG_SYSTEMCALL 0x00000080u
#define ETW_EVENT_TRACE_FLAG_DISPATCHER 0x00000800u
#define ETW_EVENT_TRACE_FLAG_VIRTUAL_ALLOC 0x00004000u
#define ETW_EVENT_TRACE_FLAG_DRIVER 0x00800000u
#define ETW_EVENT_TRACE_FLAG_PROFILE 0x01000000u

/* ---------------------------------------------------------------- structures (MS layouts) */
typedef struct ETW_PERFINFO_GROUPMASK {
    etw_u32 Masks[8];
} ETW_PERFINFO_GROUPMASK;

typedef struct ETW_EVENT_TRACE_GROUPMASK_INFORMATION {
    etw_u32 EventTraceInformationClass;
    ETW_ALIGN8 etw_tracehandle TraceHandle;
    ETW_PERFINFO_GROUPMASK EventTraceGroupMasks;
} ETW_EVENT_TRACE_GROUPMASK_INFORMATION;

typedef struct ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION {
    etw_u32 EventTraceInformationClass;
    etw_u32 ProfileInterval;
} ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION;

typedef struct ETW_EVENT_TRACE_VERSION_INFORMATION {
    etw_u32 EventTraceInformationClass;
    etw_u32 EventTraceKernelVersion;
} ETW_EVENT_TRACE_VERSION_INFORMATION;

typedef struct ETW_TRACE_PROFILE_INTERVAL {
    etw_u32 Source;
    etw_u32 Interval;
} ETW_TRACE_PROFILE_INTERVAL;

typedef struct ETW_TRACE_VERSION_INFO {
    etw_u32 EtwTraceProcessingVersion;
    etw_u32 Reserved;
} ETW_TRACE_VERSION_INFO;

typedef struct ETW_PROFILE_SOURCE_INFO {
    etw_u32 NextEntryOffset;
    etw_u32 Source;
    etw_u32 MinInterval;
    etw_u32 MaxInterval;
    ETW_ALIGN8 etw_u64 Reserved;
    etw_wchar Description[1];
} ETW_PROFILE_SOURCE_INFO;

typedef struct ETW_EVENT_TRACE_PROFILE_LIST_INFORMATION {
    etw_u32 EventTraceInformationClass;
    etw_u32 Spare;
    ETW_PROFILE_SOURCE_INFO Profile[1];
} ETW_EVENT_TRACE_PROFILE_LIST_INFORMATION;

typedef struct ETW_CLASSIC_EVENT_ID {
    etw_guid EventGuid;
    etw_u8 Type;
    etw_u8 Reserved[7];
} ETW_CLASSIC_EVENT_ID;

typedef struct ETW_EVENT_INSTANCE_INFO {
    etw_handle RegHandle;
    etw_u32 InstanceId;
} ETW_EVENT_INSTANCE_INFO;

typedef struct ETW_TRACE_GUID_REGISTRATION {
    const etw_guid *Guid;
    etw_handle RegHandle;
} ETW_TRACE_GUID_REGISTRATION;

/* EVENT_TRACE_PROFILE_COUNTER_INFORMATION and EVENT_TRACE_SYSTEM_EVENT_INFORMATION share a shape */
typedef struct ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION {
    etw_u32 EventTraceInformationClass;
    ETW_ALIGN8 etw_tracehandle TraceHandle;
    etw_u32 ProfileSource[1];
} ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION;

/* NtTraceControl 0x1C input header: logger id, GUID count, then count GUIDs */
typedef struct ETW_NTC_DISALLOW_LIST_HEADER {
    etw_u32 LoggerId;
    etw_u32 Count;
} ETW_NTC_DISALLOW_LIST_HEADER;

/* NtTraceControl 0x1E input: registration handle, traits pointer, traits size (pointers padded to 8) */
typedef struct ETW_NTC_SET_TRAITS_INPUT {
    ETW_ALIGN8 etw_u64 RegEntryHandle;
    ETW_ALIGN8 etw_u64 Traits;
    etw_u16 TraitsSize;
} ETW_NTC_SET_TRAITS_INPUT;

/* ---------------------------------------------------------------- callbacks used by the APIs */
typedef etw_u32(ETW_WINAPI *etw_wmidprequest)(etw_u32 RequestCode, void *Context, etw_u32 *BufferSize, void *Buffer);
typedef void(ETW_WINAPI *etw_enablecallback)(const etw_guid *SourceId, etw_u32 IsEnabled, etw_u8 Level, etw_u64 MatchAnyKeyword,
                                            etw_u64 MatchAllKeyword, void *FilterData, void *CallbackContext);

/* ---------------------------------------------------------------- the API functions under test */
typedef etw_u32(ETW_WINAPI *etw_pfn_TraceQueryInformation)(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                          etw_u32 InformationLength, etw_u32 *ReturnLength);
typedef etw_u32(ETW_WINAPI *etw_pfn_TraceSetInformation)(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                        etw_u32 InformationLength);
typedef etw_status(ETW_WINAPI *etw_pfn_NtQuerySystemInformation)(etw_u32 SystemInformationClass, void *SystemInformation,
                                                                etw_u32 SystemInformationLength, etw_u32 *ReturnLength);
typedef etw_status(ETW_WINAPI *etw_pfn_NtSetSystemInformation)(etw_u32 SystemInformationClass, void *SystemInformation,
                                                              etw_u32 SystemInformationLength);
typedef etw_status(ETW_WINAPI *etw_pfn_NtQueryIntervalProfile)(etw_u32 ProfileSource, etw_u32 *Interval);
typedef etw_status(ETW_WINAPI *etw_pfn_NtTraceControl)(etw_u32 FunctionCode, void *InBuffer, etw_u32 InBufferLen, void *OutBuffer,
                                                      etw_u32 OutBufferLen, etw_u32 *ReturnSize);
typedef etw_u32(ETW_WINAPI *etw_pfn_CreateTraceInstanceId)(etw_handle RegHandle, ETW_EVENT_INSTANCE_INFO *InstInfo);
typedef etw_u32(ETW_WINAPI *etw_pfn_RegisterTraceGuidsW)(etw_wmidprequest RequestAddress, void *RequestContext, const etw_guid *ControlGuid,
                                                        etw_u32 GuidCount, ETW_TRACE_GUID_REGISTRATION *TraceGuidReg,
                                                        const etw_wchar *MofImagePath, const etw_wchar *MofResourceName,
                                                        etw_tracehandle *RegistrationHandle);
typedef etw_u32(ETW_WINAPI *etw_pfn_UnregisterTraceGuids)(etw_tracehandle RegistrationHandle);
typedef etw_u32(ETW_WINAPI *etw_pfn_EventRegister)(const etw_guid *ProviderId, etw_enablecallback EnableCallback, void *CallbackContext,
                                                  etw_reghandle *RegHandle);
typedef etw_u32(ETW_WINAPI *etw_pfn_EventUnregister)(etw_reghandle RegHandle);
typedef etw_u32(ETW_WINAPI *etw_pfn_EventSetInformation)(etw_reghandle RegHandle, etw_u32 InformationClass, void *EventInformation,
                                                        etw_u32 InformationLength);
typedef etw_u32(ETW_WINAPI *etw_pfn_GetLastError)(void);
typedef void(ETW_WINAPI *etw_pfn_SetLastError)(etw_u32 code);

/* ---------------------------------------------------------------- layout assertions, x86 and x64 */
#define ETW_PTR_PICK(x86, x64) (sizeof(void *) == 8 ? (x64) : (x86))
#define ETW_ASSERT_LAYOUT(t, size) _Static_assert(sizeof(t) == (size), #t " has the wrong size")
#define ETW_ASSERT_OFFSET(t, m, off) _Static_assert(offsetof(t, m) == (off), #t "." #m " is at the wrong offset")

ETW_ASSERT_LAYOUT(etw_guid, 16);
ETW_ASSERT_LAYOUT(ETW_PERFINFO_GROUPMASK, 0x20);
ETW_ASSERT_LAYOUT(ETW_EVENT_TRACE_GROUPMASK_INFORMATION, 0x30); /* seed 001: 0x30 on both */
ETW_ASSERT_OFFSET(ETW_EVENT_TRACE_GROUPMASK_INFORMATION, TraceHandle, 0x08);
ETW_ASSERT_OFFSET(ETW_EVENT_TRACE_GROUPMASK_INFORMATION, EventTraceGroupMasks, 0x10);
ETW_ASSERT_LAYOUT(ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION, 8);
ETW_ASSERT_OFFSET(ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION, ProfileInterval, 4);
ETW_ASSERT_LAYOUT(ETW_EVENT_TRACE_VERSION_INFORMATION, 8);
ETW_ASSERT_LAYOUT(ETW_TRACE_PROFILE_INTERVAL, 8);
ETW_ASSERT_OFFSET(ETW_TRACE_PROFILE_INTERVAL, Interval, 4);
ETW_ASSERT_LAYOUT(ETW_TRACE_VERSION_INFO, 8);
ETW_ASSERT_OFFSET(ETW_TRACE_VERSION_INFO, Reserved, 4);
ETW_ASSERT_LAYOUT(ETW_PROFILE_SOURCE_INFO, 0x20);
ETW_ASSERT_OFFSET(ETW_PROFILE_SOURCE_INFO, Reserved, 0x10);
ETW_ASSERT_OFFSET(ETW_PROFILE_SOURCE_INFO, Description, 0x18);
ETW_ASSERT_OFFSET(ETW_EVENT_TRACE_PROFILE_LIST_INFORMATION, Profile, 0x08);
ETW_ASSERT_LAYOUT(ETW_EVENT_TRACE_PROFILE_LIST_INFORMATION, 0x28); /* kernel minimum for class 0x0D */
ETW_ASSERT_LAYOUT(ETW_CLASSIC_EVENT_ID, 0x18);
ETW_ASSERT_OFFSET(ETW_CLASSIC_EVENT_ID, Type, 0x10);
ETW_ASSERT_LAYOUT(ETW_EVENT_INSTANCE_INFO, ETW_PTR_PICK(8, 0x10));
ETW_ASSERT_OFFSET(ETW_EVENT_INSTANCE_INFO, InstanceId, ETW_PTR_PICK(4, 8));
ETW_ASSERT_LAYOUT(ETW_TRACE_GUID_REGISTRATION, ETW_PTR_PICK(8, 0x10));
ETW_ASSERT_OFFSET(ETW_TRACE_GUID_REGISTRATION, RegHandle, ETW_PTR_PICK(4, 8));
ETW_ASSERT_LAYOUT(ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION, 0x18);
ETW_ASSERT_OFFSET(ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION, TraceHandle, 0x08);
ETW_ASSERT_OFFSET(ETW_EVENT_TRACE_PROFILE_COUNTER_INFORMATION, ProfileSource, 0x10);
ETW_ASSERT_LAYOUT(ETW_NTC_DISALLOW_LIST_HEADER, 8);
ETW_ASSERT_LAYOUT(ETW_NTC_SET_TRAITS_INPUT, 0x18);
ETW_ASSERT_OFFSET(ETW_NTC_SET_TRAITS_INPUT, TraitsSize, 0x10);
_Static_assert(sizeof(etw_tracehandle) == 8 && sizeof(etw_reghandle) == 8, "TRACEHANDLE and REGHANDLE are 64-bit everywhere");
_Static_assert(sizeof(etw_handle) == ETW_PTR_PICK(4, 8), "HANDLE is pointer-sized");

#endif /* ETWCONF_ABI_H */
