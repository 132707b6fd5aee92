/* harness/twin/api.c - the reference's API under the kernel lock, and what each module of the
 * emulated version exports (twin.h). */
#include "harness/twin/twin.h"
#include <string.h>

/* the reference's functions, each called with the model in step with the shared kernel state */
#define TW_API(ret, name, params, args)                                                                                              \
    static ret ETW_WINAPI tw_##name params                                                                                           \
    {                                                                                                                                \
        tw_enter();                                                                                                                  \
        ret rv = twref_##name args;                                                                                                  \
        tw_leave();                                                                                                                  \
        return rv;                                                                                                                   \
    }
TW_API(etw_u32, TraceSetInformation, (etw_tracehandle h, etw_u32 c, void *b, etw_u32 n), (h, c, b, n))
TW_API(etw_status, NtQuerySystemInformation, (etw_u32 c, void *b, etw_u32 n, etw_u32 *r), (c, b, n, r))
TW_API(etw_status, NtSetSystemInformation, (etw_u32 c, void *b, etw_u32 n), (c, b, n))
TW_API(etw_status, NtQueryIntervalProfile, (etw_u32 s, etw_u32 *i), (s, i))
TW_API(etw_status, NtSetIntervalProfile, (etw_u32 i, etw_u32 s), (i, s))
TW_API(etw_status, NtTraceControl, (etw_u32 f, void *in, etw_u32 inlen, void *out, etw_u32 outlen, etw_u32 *r),
       (f, in, inlen, out, outlen, r))
/* the process's own state (registrations, instance ids): no kernel lock, as the model keeps it per process */
#define TW_LOCAL(ret, name, params, args)                                                                                            \
    static ret ETW_WINAPI tw_##name params                                                                                           \
    {                                                                                                                                \
        return twref_##name args;                                                                                                    \
    }
TW_LOCAL(etw_u32, EtwCreateTraceInstanceId, (etw_handle h, ETW_EVENT_INSTANCE_INFO *i), (h, i))
TW_LOCAL(etw_u32, CreateTraceInstanceId, (etw_handle h, ETW_EVENT_INSTANCE_INFO *i), (h, i))
TW_LOCAL(etw_u32, RegisterTraceGuidsW,
       (etw_wmidprequest a, void *c, const etw_guid *g, etw_u32 n, ETW_TRACE_GUID_REGISTRATION *r, const etw_wchar *m,
        const etw_wchar *res, etw_tracehandle *h),
       (a, c, g, n, r, m, res, h))
TW_LOCAL(etw_u32, UnregisterTraceGuids, (etw_tracehandle h), (h))
TW_LOCAL(etw_u32, EventRegister, (const etw_guid *g, etw_enablecallback cb, void *c, etw_reghandle *h), (g, cb, c, h))
TW_LOCAL(etw_u32, EventUnregister, (etw_reghandle h), (h))
TW_LOCAL(etw_u32, EventSetInformation, (etw_reghandle h, etw_u32 c, void *b, etw_u32 n), (h, c, b, n))
TW_LOCAL(etw_u32, EtwEventSetInformation, (etw_reghandle h, etw_u32 c, void *b, etw_u32 n), (h, c, b, n))
#undef TW_API
#undef TW_LOCAL

static etw_u32 ETW_WINAPI tw_GetLastError(void)
{
    return twref_GetLastError();
}

static void ETW_WINAPI tw_SetLastError(etw_u32 code)
{
    twref_SetLastError(code);
}

/* one byte past the caller's buffer, as a kernel that overruns writes it: probed first (a fault in
 * kernel mode comes back to the caller as a status) or written as it is (an access violation) */
static bool overrun_byte(etw_u8 *at)
{
    MEMORY_BASIC_INFORMATION mi;
    if (tw_p->overrun == TW_OVERRUN_STATUS &&
        (!VirtualQuery(at, &mi, sizeof mi) || mi.State != MEM_COMMIT ||
         !(mi.Protect & (PAGE_READWRITE | PAGE_WRITECOPY | PAGE_EXECUTE_READWRITE)) || (mi.Protect & PAGE_GUARD)))
        return false;
    *(volatile etw_u8 *)at = 0xA5;
    return true;
}

/* TraceQueryInformation, with an overrun of TraceVersionInfo's buffer (overrun-status, overrun-raise) */
static etw_u32 ETW_WINAPI tw_TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 n, etw_u32 *r)
{
    tw_enter();
    etw_u32 rc = twref_TraceQueryInformation(h, c, b, n, r);
    bool over = rc == ETW_ERROR_SUCCESS && tw_p->overrun != TW_OVERRUN_NONE && c == ETW_TraceVersionInfo && b;
    tw_leave(); /* before the overrun: an access violation must not leave the kernel lock taken */
    if (over && !overrun_byte((etw_u8 *)b + n)) {
        rc = ETW_ERROR_NOACCESS;
        twref_SetLastError(rc);
    }
    return rc;
}

/* ---------------------------------------------------------------- exports by module and version */
struct tw_export {
    const char *module, *name;
    void *fn;
};
#define FN(f) (void *)tw_##f
/* the controller functions, by the modules that export them from a version on (the reference's
 * table, EtwRef_GetProcAddress, answers for the API under test) */
static const struct {
    const char *module, *name;
    void *fn;
    unsigned from;
} controller[] = {
    {"advapi32", "StartTraceW", FN(StartTraceW), ETW_V5_2},
    {"advapi32", "ControlTraceW", FN(ControlTraceW), ETW_V5_2},
    {"advapi32", "QueryAllTracesW", FN(QueryAllTracesW), ETW_V5_2},
    {"advapi32", "OpenTraceW", FN(OpenTraceW), ETW_V5_2},
    {"advapi32", "ProcessTrace", FN(ProcessTrace), ETW_V5_2},
    {"advapi32", "CloseTrace", FN(CloseTrace), ETW_V5_2},
    {"advapi32", "EventWrite", FN(EventWrite), ETW_V6_0},
    {"advapi32", "EventAccessControl", FN(EventAccessControl), ETW_V6_0},
    {"advapi32", "EventAccessRemove", FN(EventAccessRemove), ETW_V6_0},
    {"advapi32", "EventAccessQuery", FN(EventAccessQuery), ETW_V6_0},
    {"advapi32", "EnableTraceEx2", FN(EnableTraceEx2), ETW_V6_1},
    {"sechost", "EnableTraceEx2", FN(EnableTraceEx2), ETW_V6_2},
    {"ntdll", "RtlGetVersion", FN(RtlGetVersion), ETW_V5_2},
};
static const struct tw_export api[] = {
    {NULL, "TraceQueryInformation", FN(TraceQueryInformation)},
    {NULL, "TraceSetInformation", FN(TraceSetInformation)},
    {NULL, "NtQuerySystemInformation", FN(NtQuerySystemInformation)},
    {NULL, "NtSetSystemInformation", FN(NtSetSystemInformation)},
    {NULL, "NtQueryIntervalProfile", FN(NtQueryIntervalProfile)},
    {NULL, "NtSetIntervalProfile", FN(NtSetIntervalProfile)},
    {NULL, "NtTraceControl", FN(NtTraceControl)},
    {NULL, "EtwCreateTraceInstanceId", FN(EtwCreateTraceInstanceId)},
    {NULL, "CreateTraceInstanceId", FN(CreateTraceInstanceId)},
    {NULL, "RegisterTraceGuidsW", FN(RegisterTraceGuidsW)},
    {NULL, "UnregisterTraceGuids", FN(UnregisterTraceGuids)},
    {NULL, "EventRegister", FN(EventRegister)},
    {NULL, "EventUnregister", FN(EventUnregister)},
    {NULL, "EventSetInformation", FN(EventSetInformation)},
    {NULL, "EtwEventSetInformation", FN(EtwEventSetInformation)},
    {NULL, "GetLastError", FN(GetLastError)},
    {NULL, "SetLastError", FN(SetLastError)},
};
#undef FN

static bool same_module(const char *a, const char *b)
{
    size_t n = strlen(b);
    return !_strnicmp(a, b, n) && (!a[n] || !_stricmp(a + n, ".dll"));
}

TW_EXPORT void *__cdecl Twin_GetProcAddress(const char *module, const char *name)
{
    if (!module || !name)
        return NULL;
    for (size_t i = 0; i < sizeof controller / sizeof controller[0]; i++)
        if (!strcmp(controller[i].name, name) && same_module(module, controller[i].module))
            return ref.version >= controller[i].from ? controller[i].fn : NULL;
    if (!EtwRef_GetProcAddress(module, name)) /* not exported there at this version */
        return NULL;
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++)
        if (!strcmp(api[i].name, name))
            return api[i].fn;
    return NULL;
}
