/*
 * harness/twin/twin.h - the Windows twin: a DLL, built with mingw-w64, that stands in for the
 * system's modules under the live target (harness/targets/win_live/), so that etwconf.exe's live
 * mode runs end to end under Wine against a model of Windows, at any build of spec/versions.def.
 *
 *   state.c        the kernel: state shared by every process of a run, the kernel lock, the model's
 *                  kernel state kept in step with it, versions, personalities, the state report
 *   controller.c   the controller functions the live target calls: sessions (StartTraceW,
 *                  ControlTraceW, QueryAllTracesW), security (EventAccessControl/Remove/Query),
 *                  enabling (EnableTraceEx2), RtlGetVersion
 *   consumer.c     real-time consumers (OpenTraceW, ProcessTrace, CloseTrace) and EventWrite
 *   api.c          the reference's API under the kernel lock, and Twin_GetProcAddress: what each
 *                  module of the emulated version exports
 *   ctl.c          twinctl.exe: prints a run's state (what is left behind), for the twin stage
 *   rename.h       the reference's API renamed inside the twin
 *   personalities.def  the scripted behaviours
 *
 * The model is the reference's (reference/ compiled into the twin). Its per-process parts
 * (provider and classic registrations, enable callbacks, the last error) stay in each process, as
 * on Windows; its kernel parts (loggers with their mode, masks and disallow lists, the profile
 * intervals) and what the twin adds to them (the sessions' names, GUIDs, owners and log files; the
 * GUIDs' security entries, which Windows keeps as registry values, and which the twin also writes
 * there: controller.c) live in a file mapping that
 * every process of the run maps: the state file. Every call that reads or changes them takes the
 * kernel lock (a byte-range lock on the state file, released by Windows when a process dies), copies
 * the shared state into the model, calls it, and copies it back.
 *
 * The environment chooses (each process reads it when the twin loads; workers inherit it):
 *   ETWCONF_TWIN=PATH.dll            the live target loads the twin (harness/targets/win_live/bind.h)
 *   ETWCONF_TWIN_VERSION=NAME        the version emulated: a name of spec/versions.def ("6.1",
 *                                    "10.0.19045"); default 10.0
 *   ETWCONF_TWIN_PERSONALITY=NAME    a personality of personalities.def; default "windows"
 *   ETWCONF_TWIN_STATE=PATH          the state file; when unset, the first process makes
 *                                    %TEMP%\etwconf-twin-<pid>.state and sets the variable for the
 *                                    processes it starts. The file outlives the run, and PATH.txt
 *                                    beside it, rewritten whenever a session or a security entry
 *                                    comes or goes, says what the run left behind (Twin_Report's
 *                                    lines; twinctl.exe prints them too).
 * Nothing of this is Windows: the twin exists so that nothing of the suite needs Windows to test.
 */
#ifndef ETWCONF_TWIN_H
#define ETWCONF_TWIN_H

#include <windows.h>
#include <wmistr.h>
#include <evntrace.h>
#include <evntprov.h>
#include <evntcons.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "harness/twin/rename.h"
#include "reference/internal.h"
#undef GetLastError
#undef SetLastError

#define TW_EXPORT __declspec(dllexport)
/* the Windows 10 SDK's values that mingw-w64's headers lack */
#define TW_ENABLE_PROPERTY_PROVIDER_GROUP 0x00000020u /* EVENT_ENABLE_PROPERTY_PROVIDER_GROUP (evntrace.h) */
#define TW_EXT_TYPE_PROV_TRAITS 0x000Cu /* EVENT_HEADER_EXT_TYPE_PROV_TRAITS (evntcons.h) */

/* ---------------------------------------------------------------- personalities */
enum tw_path_form { TW_PATH_AS_GIVEN, TW_PATH_LONG, TW_PATH_SHORT, TW_PATH_NT };
enum tw_overrun { TW_OVERRUN_NONE, TW_OVERRUN_STATUS, TW_OVERRUN_RAISE };
struct tw_personality {
    const char *name, *what;
    enum tw_path_form path;
    bool foreign_kernel, ace_after_allow, refuse_private, no_pmc, kill_worker_after_acl;
    int event_delay_ms; /* 0: at once; -1: never */
    enum tw_overrun overrun;
};
extern const struct tw_personality *tw_p; /* the run's */

/* ---------------------------------------------------------------- the shared state */
#define TW_MAGIC 0x314E5754u /* "TWN1" */
#define TW_DISALLOW 32
#define TW_ACL 32
#define TW_FOREIGN_PID 4u /* the owner of a personality's foreign session */
enum { TW_S_PRIVATE = 1, TW_S_FOREIGN = 2 };
extern const GUID tw_system_trace_control; /* SystemTraceControlGuid: the NT Kernel Logger's */

struct tw_logger { /* a ref_logger, without pointers */
    uint32_t active, cswitch, id, mode, masks[8], ndisallow;
    etw_guid disallow[TW_DISALLOW];
};
struct tw_session { /* what the kernel knows of a running session besides the model's logger */
    uint32_t used, owner, flags, log_file_mode, enable_flags;
    uint64_t handle;
    GUID guid;
    WCHAR name[64];
    WCHAR file[MAX_PATH + 96];
};
struct tw_acl { /* an entry EventAccessControl added: a registry value under WMI\Security on Windows */
    uint32_t used, owner, rights, allow;
    GUID guid;
    BYTE sid[SECURITY_MAX_SID_SIZE];
};
struct tw_shared {
    uint32_t magic, size;
    char personality[32];
    uint32_t version, build, kills;
    uint32_t timer_interval, source_interval[REF_PROFILE_SOURCES];
    struct tw_logger loggers[REF_MAX_LOGGERS];
    struct tw_session sessions[REF_MAX_LOGGERS]; /* by logger id; slot 0 the NT Kernel Logger */
    struct tw_acl acl[TW_ACL];
};
extern struct tw_shared *tw;

/* the kernel lock, with the model in step with the shared state in between */
void tw_enter(void);
void tw_leave(void);
/* the access the calling process has to a GUID's TRACELOG_GUID_ENABLE right, by its entries */
bool tw_enable_allowed(const GUID *g);
bool tw_process_alive(uint32_t pid);
/* the session of a handle (low 16 bits the logger id; 0xFFFF the kernel logger), visible to this
 * process (a private one only to its owner); NULL if none. Under the lock. */
struct tw_session *tw_session_by_handle(uint64_t h);
struct tw_session *tw_session_by_name(const WCHAR *name);
uint32_t tw_session_id(const struct tw_session *s);
bool tw_in_worker(void); /* a worker process of the runner (its command line says __worker) */
void tw_changed(void); /* a session or a security entry came or went (the report is rewritten) */

/* consumer.c: end the consumers of a session that stops (this process's) */
void tw_consumers_session_stopped(uint32_t id);
/* enablements of a provider on a session, for EventWrite: this process's */
void tw_enabled_set(uint32_t id, const GUID *provider, UCHAR level, bool on);

/* the exports: controller.c and consumer.c */
ULONG WINAPI tw_StartTraceW(PTRACEHANDLE h, LPCWSTR name, PEVENT_TRACE_PROPERTIES p);
ULONG WINAPI tw_ControlTraceW(TRACEHANDLE h, LPCWSTR name, PEVENT_TRACE_PROPERTIES p, ULONG code);
ULONG WINAPI tw_QueryAllTracesW(PEVENT_TRACE_PROPERTIES *ps, ULONG count, PULONG got);
ULONG WINAPI tw_EnableTraceEx2(TRACEHANDLE h, LPCGUID provider, ULONG code, UCHAR level, ULONGLONG any, ULONGLONG all, ULONG timeout,
                               PENABLE_TRACE_PARAMETERS params);
ULONG WINAPI tw_EventAccessControl(LPGUID guid, ULONG operation, PSID sid, ULONG rights, BOOLEAN allow);
ULONG WINAPI tw_EventAccessRemove(LPGUID guid);
ULONG WINAPI tw_EventAccessQuery(LPGUID guid, PSECURITY_DESCRIPTOR sd, PULONG size);
LONG WINAPI tw_RtlGetVersion(OSVERSIONINFOEXW *vi);
ULONG WINAPI tw_EventWrite(REGHANDLE reg, PCEVENT_DESCRIPTOR d, ULONG n, PEVENT_DATA_DESCRIPTOR data);
TRACEHANDLE WINAPI tw_OpenTraceW(PEVENT_TRACE_LOGFILEW lf);
ULONG WINAPI tw_ProcessTrace(PTRACEHANDLE hs, ULONG count, LPFILETIME start, LPFILETIME end);
ULONG WINAPI tw_CloseTrace(TRACEHANDLE h);

/* the control API of the DLL */
TW_EXPORT void *__cdecl Twin_GetProcAddress(const char *module, const char *name);
TW_EXPORT const char *__cdecl Twin_Model(void);
/* what the state file holds now, one line per item (twinctl.exe prints it) */
TW_EXPORT int __cdecl Twin_Report(char *out, int cap);

#endif
