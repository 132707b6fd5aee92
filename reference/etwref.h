/*
 * reference/etwref.h - the etwconf reference implementation: the ETW APIs in scope over a
 * modelled kernel, plus a small control API that sets up its state.
 *
 * build/libetwref.so exports every function below under these names (the API functions under
 * their Windows names, with the Windows types of spec/abi.h); build/libetwref.a holds the same
 * code for static linking. A third-party implementation tested with `etwconf run --target X.so`
 * exports the same API names; the EtwRef_* control functions are optional there, and the cases
 * that need one are skipped, with the reason, when it is missing.
 *
 * Control functions return 0 on success and -1 on a bad argument.
 */
#ifndef ETWCONF_ETWREF_H
#define ETWCONF_ETWREF_H

#include "spec/abi.h"

#if defined(_WIN32)
#define ETWREF_EXPORT __declspec(dllexport)
#else
#define ETWREF_EXPORT __attribute__((visibility("default")))
#endif

/* ---------------------------------------------------------------- the API (Windows names) */
ETWREF_EXPORT etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                       etw_u32 InformationLength, etw_u32 *ReturnLength);
ETWREF_EXPORT etw_u32 ETW_WINAPI TraceSetInformation(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                     etw_u32 InformationLength);
ETWREF_EXPORT etw_status ETW_WINAPI NtQuerySystemInformation(etw_u32 SystemInformationClass, void *SystemInformation,
                                                             etw_u32 SystemInformationLength, etw_u32 *ReturnLength);
ETWREF_EXPORT etw_status ETW_WINAPI NtSetSystemInformation(etw_u32 SystemInformationClass, void *SystemInformation,
                                                           etw_u32 SystemInformationLength);
ETWREF_EXPORT etw_status ETW_WINAPI NtQueryIntervalProfile(etw_u32 ProfileSource, etw_u32 *Interval);
ETWREF_EXPORT etw_status ETW_WINAPI NtSetIntervalProfile(etw_u32 Interval, etw_u32 Source);
ETWREF_EXPORT etw_status ETW_WINAPI NtTraceControl(etw_u32 FunctionCode, void *InBuffer, etw_u32 InBufferLen, void *OutBuffer,
                                                   etw_u32 OutBufferLen, etw_u32 *ReturnSize);
ETWREF_EXPORT etw_u32 ETW_WINAPI EtwCreateTraceInstanceId(etw_handle RegHandle, ETW_EVENT_INSTANCE_INFO *InstInfo);
ETWREF_EXPORT etw_u32 ETW_WINAPI CreateTraceInstanceId(etw_handle RegHandle, ETW_EVENT_INSTANCE_INFO *InstInfo);
ETWREF_EXPORT etw_u32 ETW_WINAPI RegisterTraceGuidsW(etw_wmidprequest RequestAddress, void *RequestContext, const etw_guid *ControlGuid,
                                                     etw_u32 GuidCount, ETW_TRACE_GUID_REGISTRATION *TraceGuidReg,
                                                     const etw_wchar *MofImagePath, const etw_wchar *MofResourceName,
                                                     etw_tracehandle *RegistrationHandle);
ETWREF_EXPORT etw_u32 ETW_WINAPI UnregisterTraceGuids(etw_tracehandle RegistrationHandle);
ETWREF_EXPORT etw_u32 ETW_WINAPI EventRegister(const etw_guid *ProviderId, etw_enablecallback EnableCallback, void *CallbackContext,
                                               etw_reghandle *RegHandle);
ETWREF_EXPORT etw_u32 ETW_WINAPI EventUnregister(etw_reghandle RegHandle);
ETWREF_EXPORT etw_u32 ETW_WINAPI EventSetInformation(etw_reghandle RegHandle, etw_u32 InformationClass, void *EventInformation,
                                                     etw_u32 InformationLength);
ETWREF_EXPORT etw_u32 ETW_WINAPI EtwEventSetInformation(etw_reghandle RegHandle, etw_u32 InformationClass, void *EventInformation,
                                                        etw_u32 InformationLength);
ETWREF_EXPORT etw_u32 ETW_WINAPI GetLastError(void);
ETWREF_EXPORT void ETW_WINAPI SetLastError(etw_u32 code);

/* ---------------------------------------------------------------- control API */
enum etwref_logger_kind {
    ETWREF_LOGGER_KERNEL = 1, /* NT Kernel Logger: system-logger mode, selected by id 0xFFFF */
    ETWREF_LOGGER_SYSTEM = 2, /* session with EVENT_TRACE_SYSTEM_LOGGER_MODE, full access */
    ETWREF_LOGGER_PLAIN = 3, /* session without system-logger mode */
    ETWREF_LOGGER_NOACCESS = 4, /* system-logger session without TRACELOG_GUID_ENABLE access */
    ETWREF_LOGGER_PRIVATE = 5, /* EVENT_TRACE_PRIVATE_LOGGER_MODE session */
};
enum etwref_privilege { ETWREF_PRIV_SYSTEM_PROFILE = 1 };

/* Forget all state (loggers, registrations, faults); privileges held; version kept. */
ETWREF_EXPORT int EtwRef_Reset(void);
/* Emulate an NT version (ETW_V6_1 ...) at a build (0: the build of the entry named by the NT version,
 * spec/versions.def), or an entry named by its build (ETW_V10_0_26100, ETW_V6_1_7601_ESI; build 0). A
 * build the table does not name behaves as the last entry before it. -1 for an unknown version. */
ETWREF_EXPORT int EtwRef_SetVersion(unsigned version, unsigned build);
ETWREF_EXPORT unsigned EtwRef_GetVersion(void);
/* GetProcAddress as the emulated version's MODULE.dll would answer it ("advapi32", "ntdll"...). */
ETWREF_EXPORT void *EtwRef_GetProcAddress(const char *module, const char *name);
/* Any exported symbol of the library by name (API or control), whatever the version. */
ETWREF_EXPORT void *EtwRef_Symbol(const char *name);
ETWREF_EXPORT int EtwRef_StartLogger(unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle);
ETWREF_EXPORT int EtwRef_StopLogger(etw_tracehandle handle);
ETWREF_EXPORT int EtwRef_GetLoggerMasks(etw_tracehandle handle, etw_u32 masks[8]);
/* A handle whose logger id names no session. */
ETWREF_EXPORT etw_tracehandle EtwRef_MissingLoggerHandle(void);
ETWREF_EXPORT int EtwRef_SetPrivilege(unsigned privilege, int held);
/* The nth allocation from now fails (1 = the next one); 0 disarms. */
ETWREF_EXPORT int EtwRef_FailAllocation(unsigned nth);
ETWREF_EXPORT int EtwRef_SetClassCounter(etw_handle class_handle, etw_u32 value);
ETWREF_EXPORT int EtwRef_SetClassProcessId(etw_handle class_handle, etw_u32 pid);
/* Joining this provider group needs a permission the caller lacks. */
ETWREF_EXPORT int EtwRef_RestrictGroup(const etw_guid *group);
/* Enable a provider group on a session; *enabled = member registrations enabled. Win32 code. Each
 * enabled member's enable callback (EventRegister's) has been called before it returns, with
 * IsEnabled 1, ETW_GROUP_ENABLE_LEVEL and ETW_GROUP_ENABLE_KEYWORDS (spec/abi.h), MatchAllKeyword 0. */
ETWREF_EXPORT etw_u32 EtwRef_EnableGroup(etw_tracehandle session, const etw_guid *group, etw_u32 *enabled);
/* the handle of the registration object behind a REGHANDLE, as NtTraceControl 0x1A, 0x1E and 0x1F take
 * it (in the model the two are the same value; user mode on Windows has no public way to it) */
ETWREF_EXPORT int EtwRef_RegEntryHandle(etw_reghandle reg, etw_u64 *handle);
/* the EVENT_HEADER_EXT_TYPE_PROV_TRAITS data an event written now by this registration would carry
 * (*size bytes into out; 0 bytes when it carries none): what a real-time consumer reads on Windows.
 * 0, or a Win32 code. */
ETWREF_EXPORT int EtwRef_EventTraits(etw_reghandle reg, etw_u8 *out, etw_u32 cap, etw_u32 *size);

#endif
