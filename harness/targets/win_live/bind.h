/*
 * harness/targets/win_live/bind.h - the Windows functions the live target looks up at run time,
 * bound through one table (bind.def) and called by their plain names: after this header,
 * StartTraceW(...) calls the bound pointer.
 *
 * lb_bind() resolves the table once, at startup: from the system's modules (GetProcAddress in the
 * module the table names, then its other module), or, when the environment names a twin, from the
 * twin for the entries marked TWIN:
 *
 *   ETWCONF_TWIN=PATH.dll   the Windows twin (harness/twin/): a model of Windows's ETW kernel and
 *                           controller functions, built with mingw-w64, that stands in for the
 *                           system's modules. Worker processes inherit the variable, so a run and its
 *                           workers see the same twin (and its state: harness/twin/twin.h).
 *
 * The cases' own API (live_sym, the proc hook) goes through the same place (lb_proc), so under a
 * twin the whole run sees one model of one Windows version. A function the system (or the twin's
 * version) does not export is bound to a stub that returns the table's missing value and sets last
 * error ERROR_PROC_NOT_FOUND; LB_HAVE(name) says whether it was found.
 */
#ifndef ETWCONF_WIN_LIVE_BIND_H
#define ETWCONF_WIN_LIVE_BIND_H

#include <windows.h>
#include <wmistr.h>
#include <evntrace.h>
#include <evntprov.h>
#include <evntcons.h>
#include <stdbool.h>
#include <stddef.h>

enum lb_id {
#define LB_FN(from, module, other, cc, ret, name, params, missing) LB_ID_##name,
#include "harness/targets/win_live/bind.def"
#undef LB_FN
    LB_COUNT
};

struct lb_fns {
#define LB_FN(from, module, other, cc, ret, name, params, missing) ret(cc *p_##name) params;
#include "harness/targets/win_live/bind.def"
#undef LB_FN
};
extern struct lb_fns lb;
extern bool lb_present[LB_COUNT];
#define LB_HAVE(name) (lb_present[LB_ID_##name])

/* resolve the table (the twin first, when ETWCONF_TWIN names one); false and err when the twin
 * named cannot be used. The modules must be loaded (open_common). Once per process. */
bool lb_bind(char *err, size_t len);
/* GetProcAddress(module, name) as the bound system answers it: the twin's answer under a twin */
void *lb_proc(const char *module, const char *name);
/* the twin's path and what it models ("10.0.19045, personality windows"), NULL without a twin */
const char *lb_twin(void);
const char *lb_twin_model(void);

/* the plain names (one line per entry of bind.def) */
#define StartTraceW (lb.p_StartTraceW)
#define ControlTraceW (lb.p_ControlTraceW)
#define QueryAllTracesW (lb.p_QueryAllTracesW)
#define EnableTraceEx2 (lb.p_EnableTraceEx2)
#define TraceSetInformation (lb.p_TraceSetInformation)
#define EventAccessControl (lb.p_EventAccessControl)
#define EventAccessRemove (lb.p_EventAccessRemove)
#define EventAccessQuery (lb.p_EventAccessQuery)
#define EventWrite (lb.p_EventWrite)
#define EventRegister (lb.p_EventRegister)
#define EventUnregister (lb.p_EventUnregister)
#define OpenTraceW (lb.p_OpenTraceW)
#define ProcessTrace (lb.p_ProcessTrace)
#define CloseTrace (lb.p_CloseTrace)
#define NtQuerySystemInformation (lb.p_NtQuerySystemInformation)
#define NtSetSystemInformation (lb.p_NtSetSystemInformation)
#define RtlGetVersion (lb.p_RtlGetVersion)
#define wine_get_version (lb.p_wine_get_version)
#define wine_get_host_version (lb.p_wine_get_host_version)
#define IsWow64Process (lb.p_IsWow64Process)
#define IsWow64Process2 (lb.p_IsWow64Process2)
#define GetFinalPathNameByHandleW (lb.p_GetFinalPathNameByHandleW)
#define SystemFunction036 (lb.p_SystemFunction036)
#define BCryptGenRandom (lb.p_BCryptGenRandom)

#endif
