/*
 * harness/twin/rename.h - the reference's API functions under other names inside the twin.
 *
 * The twin compiles the files of reference/ with this header given first (-include): the model's
 * TraceQueryInformation becomes twref_TraceQueryInformation, and so on, so that the twin's own
 * functions, which take the kernel lock and keep the model's kernel state shared between the
 * processes of a run (state.c), are what the live target gets under the Windows names. The twin's
 * files include it after <windows.h> and before reference/internal.h, then take back GetLastError
 * and SetLastError, which they mean as kernel32's.
 */
#define TraceQueryInformation twref_TraceQueryInformation
#define TraceSetInformation twref_TraceSetInformation
#define NtQuerySystemInformation twref_NtQuerySystemInformation
#define NtSetSystemInformation twref_NtSetSystemInformation
#define NtQueryIntervalProfile twref_NtQueryIntervalProfile
#define NtSetIntervalProfile twref_NtSetIntervalProfile
#define NtTraceControl twref_NtTraceControl
#define EtwCreateTraceInstanceId twref_EtwCreateTraceInstanceId
#define CreateTraceInstanceId twref_CreateTraceInstanceId
#define RegisterTraceGuidsW twref_RegisterTraceGuidsW
#define UnregisterTraceGuids twref_UnregisterTraceGuids
#define EventRegister twref_EventRegister
#define EventUnregister twref_EventUnregister
#define EventSetInformation twref_EventSetInformation
#define EtwEventSetInformation twref_EtwEventSetInformation
#define GetLastError twref_GetLastError
#define SetLastError twref_SetLastError
