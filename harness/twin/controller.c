/* harness/twin/controller.c - the controller functions the live target calls: sessions, the
 * security of GUIDs, enabling providers and groups, the version (twin.h). What Windows documents
 * for each is modelled; what it leaves open is a personality's choice (personalities.def). */
#include "harness/twin/twin.h"
#include <stdlib.h>
#include <string.h>

static WCHAR *props_str(PEVENT_TRACE_PROPERTIES p, ULONG off, size_t *cap)
{
    if (!off || off >= p->Wnode.BufferSize)
        return NULL;
    *cap = (p->Wnode.BufferSize - off) / sizeof(WCHAR);
    return (WCHAR *)((char *)p + off);
}

static void put_str(PEVENT_TRACE_PROPERTIES p, ULONG off, const WCHAR *s)
{
    size_t cap = 0;
    WCHAR *d = props_str(p, off, &cap);
    if (d && cap) {
        wcsncpy(d, s, cap - 1);
        d[cap - 1] = 0;
    }
}

/* the log file's path as this personality's Windows reports it */
static void path_form(const WCHAR *file, WCHAR *out, size_t cap)
{
    DWORD n = 0;
    out[0] = 0;
    switch (file[0] ? tw_p->path : TW_PATH_AS_GIVEN) {
    case TW_PATH_LONG: n = GetLongPathNameW(file, out, (DWORD)cap); break;
    case TW_PATH_SHORT: n = GetShortPathNameW(file, out, (DWORD)cap); break;
    case TW_PATH_NT: _snwprintf(out, cap - 1, L"\\??\\%ls", file), out[cap - 1] = 0, n = (DWORD)wcslen(out); break;
    default: break;
    }
    if (!n || n >= cap) {
        wcsncpy(out, file, cap - 1);
        out[cap - 1] = 0;
    }
}

/* what QUERY, STOP, UPDATE, FLUSH and QueryAllTracesW write into the caller's properties */
static void describe(const struct tw_session *s, PEVENT_TRACE_PROPERTIES p)
{
    WCHAR file[MAX_PATH + 100];
    p->Wnode.HistoricalContext = s->handle;
    p->Wnode.Guid = s->guid;
    p->BufferSize = 64;
    p->MinimumBuffers = p->NumberOfBuffers = 4;
    p->MaximumBuffers = 22;
    p->FlushTimer = 1;
    p->LogFileMode = s->log_file_mode;
    p->EnableFlags = s->enable_flags;
    p->LoggerThreadId = (HANDLE)(ULONG_PTR)s->owner;
    put_str(p, p->LoggerNameOffset, s->name);
    path_form(s->file, file, sizeof file / sizeof file[0]);
    put_str(p, p->LogFileNameOffset, file);
}

static bool props_ok(PEVENT_TRACE_PROPERTIES p)
{
    return p && p->Wnode.BufferSize >= sizeof *p;
}

ULONG WINAPI tw_StartTraceW(PTRACEHANDLE h, LPCWSTR name, PEVENT_TRACE_PROPERTIES p)
{
    if (!h || !name || !name[0] || !props_ok(p))
        return ERROR_INVALID_PARAMETER;
    bool kernel = !_wcsicmp(name, KERNEL_LOGGER_NAMEW) || !memcmp(&p->Wnode.Guid, &tw_system_trace_control, sizeof(GUID));
    bool priv = (p->LogFileMode & EVENT_TRACE_PRIVATE_LOGGER_MODE) != 0;
    if (priv && tw_p->refuse_private)
        return ERROR_INVALID_PARAMETER;
    size_t cap = 0;
    const WCHAR *file = props_str(p, p->LogFileNameOffset, &cap);
    if (wcslen(name) >= 64 || (file && wcsnlen(file, cap) >= MAX_PATH + 96))
        return ERROR_BAD_LENGTH;
    unsigned kind = kernel ? ETWREF_LOGGER_KERNEL
                    : priv ? ETWREF_LOGGER_PRIVATE
                    : (p->LogFileMode & EVENT_TRACE_SYSTEM_LOGGER_MODE) ? ETWREF_LOGGER_SYSTEM
                                                                        : ETWREF_LOGGER_PLAIN;
    tw_enter();
    ULONG rc = ERROR_SUCCESS;
    etw_tracehandle th = 0;
    if ((kernel && tw->sessions[REF_KERNEL_LOGGER_SLOT].used) || (!kernel && !priv && tw_session_by_name(name)))
        rc = ERROR_ALREADY_EXISTS;
    else if (EtwRef_StartLogger(kind, NULL, &th) != 0)
        rc = ERROR_NO_SYSTEM_RESOURCES;
    if (rc == ERROR_SUCCESS) {
        uint32_t id = kernel ? REF_KERNEL_LOGGER_SLOT : (uint32_t)(th & 0xFFFF);
        struct tw_session *s = &tw->sessions[id];
        memset(s, 0, sizeof *s);
        s->used = 1;
        s->owner = GetCurrentProcessId();
        s->flags = priv ? TW_S_PRIVATE : 0;
        s->log_file_mode = p->LogFileMode;
        s->enable_flags = kernel ? p->EnableFlags : 0;
        s->handle = th;
        s->guid = kernel ? tw_system_trace_control : p->Wnode.Guid;
        wcsncpy(s->name, name, 63);
        if (file)
            wcsncpy(s->file, file, MAX_PATH + 95);
        if (kernel)
            ref.loggers[REF_KERNEL_LOGGER_SLOT].masks[0] = p->EnableFlags;
        if (s->file[0]) { /* the logger writes to its file: created when missing, as Windows does */
            HANDLE f = CreateFileW(s->file, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_ALWAYS,
                                   FILE_ATTRIBUTE_NORMAL, NULL);
            if (f == INVALID_HANDLE_VALUE) {
                rc = GetLastError();
                EtwRef_StopLogger(th);
                memset(s, 0, sizeof *s);
            } else
                CloseHandle(f);
        }
        if (rc == ERROR_SUCCESS) {
            *h = th;
            describe(s, p);
            tw_changed();
        }
    }
    tw_leave();
    return rc;
}

/* the session a control call names: by name (not a private one), else by handle */
static struct tw_session *named(TRACEHANDLE h, LPCWSTR name)
{
    return name && name[0] ? tw_session_by_name(name) : tw_session_by_handle(h);
}

ULONG WINAPI tw_ControlTraceW(TRACEHANDLE h, LPCWSTR name, PEVENT_TRACE_PROPERTIES p, ULONG code)
{
    if (!props_ok(p))
        return ERROR_INVALID_PARAMETER;
    if (code > EVENT_TRACE_CONTROL_FLUSH)
        return ERROR_INVALID_PARAMETER;
    tw_enter();
    struct tw_session *s = named(h, name);
    ULONG rc = ERROR_SUCCESS;
    if (!s)
        rc = ERROR_WMI_INSTANCE_NOT_FOUND;
    else {
        describe(s, p);
        if (code == EVENT_TRACE_CONTROL_STOP) {
            uint32_t id = tw_session_id(s);
            EtwRef_StopLogger(id == REF_KERNEL_LOGGER_SLOT ? ETW_KERNEL_LOGGER_ID : id);
            memset(s, 0, sizeof *s);
            tw_consumers_session_stopped(id);
            tw_changed();
        }
    }
    tw_leave();
    return rc;
}

ULONG WINAPI tw_QueryAllTracesW(PEVENT_TRACE_PROPERTIES *ps, ULONG count, PULONG got)
{
    if (!ps || !got || !count)
        return ERROR_INVALID_PARAMETER;
    for (ULONG i = 0; i < count; i++)
        if (!props_ok(ps[i]))
            return ERROR_INVALID_PARAMETER;
    tw_enter();
    ULONG n = 0;
    for (unsigned i = 0; i < REF_MAX_LOGGERS; i++) {
        const struct tw_session *s = &tw->sessions[i];
        if (!s->used || (s->flags & TW_S_PRIVATE))
            continue;
        if (n < count)
            describe(s, ps[n]);
        n++;
    }
    tw_leave();
    *got = n < count ? n : count;
    return n > count ? ERROR_MORE_DATA : ERROR_SUCCESS;
}

ULONG WINAPI tw_EnableTraceEx2(TRACEHANDLE h, LPCGUID provider, ULONG code, UCHAR level, ULONGLONG any, ULONGLONG all, ULONG timeout,
                               PENABLE_TRACE_PARAMETERS params)
{
    (void)timeout;
    if (!provider || code > EVENT_CONTROL_CODE_CAPTURE_STATE)
        return ERROR_INVALID_PARAMETER;
    tw_enter();
    struct tw_session *s = tw_session_by_handle(h);
    ULONG rc = ERROR_SUCCESS;
    if (!s)
        rc = ERROR_INVALID_HANDLE;
    else if (!tw_enable_allowed(&s->guid))
        rc = ERROR_ACCESS_DENIED;
    else if (params && (params->EnableProperty & TW_ENABLE_PROPERTY_PROVIDER_GROUP)) {
        etw_u32 n = 0;
        etw_guid g;
        memcpy(&g, provider, sizeof g);
        /* the members' callbacks run before the call returns (EtwRef_EnableGroup) */
        rc = code == EVENT_CONTROL_CODE_ENABLE_PROVIDER ? EtwRef_EnableGroup(tw_session_id(s), &g, &n) : ERROR_SUCCESS;
    } else {
        bool on = code == EVENT_CONTROL_CODE_ENABLE_PROVIDER;
        if (code != EVENT_CONTROL_CODE_CAPTURE_STATE)
            tw_enabled_set(tw_session_id(s), provider, level, on);
        /* a registration of this process is told through its enable callback */
        for (unsigned i = 0; i < REF_MAX_PROVIDERS && code != EVENT_CONTROL_CODE_CAPTURE_STATE; i++) {
            struct ref_provider *p = &ref.providers[i];
            if (p->used && p->callback && !memcmp(&p->guid, provider, sizeof(GUID)))
                p->callback((const etw_guid *)&s->guid, on, level, any, all, NULL, p->callback_context);
        }
    }
    tw_leave();
    return rc;
}

/* ---------------------------------------------------------------- the security of GUIDs */
/* Windows keeps a GUID's security as a value named by the GUID ("0811c1af-7a07-...", no braces)
 * under this key (the EventAccessControl page), which is what a cleanup of the suite lists: the
 * twin keeps the value in step with its entries, the GUID's security descriptor as its data */
#define TW_SECURITY_KEY L"SYSTEM\\CurrentControlSet\\Control\\WMI\\Security"

static void guid_value_name(const GUID *g, WCHAR *out, size_t cap)
{
    _snwprintf(out, cap - 1, L"%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0],
               g->Data4[1], g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
    out[cap - 1] = 0;
}

/* the registry value of a GUID's security: written with its descriptor, or deleted (NULL) */
static void security_value(const GUID *g, const void *sd, DWORD size)
{
    HKEY k;
    WCHAR name[40];
    guid_value_name(g, name, sizeof name / sizeof name[0]);
    if (RegCreateKeyExW(HKEY_LOCAL_MACHINE, TW_SECURITY_KEY, 0, NULL, 0, KEY_SET_VALUE, NULL, &k, NULL) != ERROR_SUCCESS)
        return;
    if (sd)
        RegSetValueExW(k, name, 0, REG_BINARY, sd, size);
    else
        RegDeleteValueW(k, name);
    RegCloseKey(k);
}

ULONG WINAPI tw_EventAccessControl(LPGUID guid, ULONG operation, PSID sid, ULONG rights, BOOLEAN allow)
{
    if (!guid || !sid || !IsValidSid(sid) || operation > 3 /* EventSecurityAddSACL */)
        return ERROR_INVALID_PARAMETER;
    if (operation == 1 || operation == 3) /* SACLs: not modelled */
        return ERROR_SUCCESS;
    tw_enter();
    ULONG rc = ERROR_SUCCESS;
    if (operation == 0) /* EventSecuritySetDACL: the entry replaces the GUID's entries */
        for (unsigned i = 0; i < TW_ACL; i++)
            if (tw->acl[i].used && !memcmp(&tw->acl[i].guid, guid, sizeof *guid))
                memset(&tw->acl[i], 0, sizeof tw->acl[i]);
    struct tw_acl *a = NULL;
    for (unsigned i = 0; i < TW_ACL && !a; i++)
        if (!tw->acl[i].used)
            a = &tw->acl[i];
    if (!a)
        rc = ERROR_NOT_ENOUGH_MEMORY;
    else {
        a->used = 1;
        a->owner = GetCurrentProcessId();
        a->rights = rights;
        a->allow = allow != 0;
        a->guid = *guid;
        CopySid(sizeof a->sid, (PSID)a->sid, sid);
        tw_changed();
    }
    bool kill = a && tw_p->kill_worker_after_acl && tw_in_worker() && tw->kills == 0;
    if (kill)
        tw->kills++;
    if (a) { /* the registry value, under the kernel lock: no other process sees the entry without it */
        static BYTE sd[4096];
        ULONG size = sizeof sd;
        if (tw_EventAccessQuery(guid, sd, &size) == ERROR_SUCCESS)
            security_value(guid, sd, size);
    }
    tw_leave();
    if (kill) /* the personality's kill, as a runner's at a timeout: nothing of this process runs on */
        TerminateProcess(GetCurrentProcess(), 0xC000013Au /* STATUS_CONTROL_C_EXIT */);
    return rc;
}

ULONG WINAPI tw_EventAccessRemove(LPGUID guid)
{
    if (!guid)
        return ERROR_INVALID_PARAMETER;
    tw_enter();
    for (unsigned i = 0; i < TW_ACL; i++)
        if (tw->acl[i].used && !memcmp(&tw->acl[i].guid, guid, sizeof *guid))
            memset(&tw->acl[i], 0, sizeof tw->acl[i]);
    security_value(guid, NULL, 0);
    tw_changed();
    tw_leave();
    return ERROR_SUCCESS;
}

/* the GUID's security descriptor (self-relative): its entries in the order they are evaluated,
 * and the default allow-all for everyone (before them under ace-no-effect) */
ULONG WINAPI tw_EventAccessQuery(LPGUID guid, PSECURITY_DESCRIPTOR sd, PULONG size)
{
    if (!guid || !size)
        return ERROR_INVALID_PARAMETER;
    BYTE everyone[SECURITY_MAX_SID_SIZE], aclbuf[4096], abs[SECURITY_DESCRIPTOR_MIN_LENGTH];
    DWORD es = sizeof everyone;
    if (!CreateWellKnownSid(WinWorldSid, NULL, everyone, &es))
        return GetLastError();
    PACL acl = (PACL)aclbuf;
    InitializeAcl(acl, sizeof aclbuf, ACL_REVISION);
    const DWORD all = 0x1FFF; /* every TRACELOG_* and WMIGUID_* right */
    if (tw_p->ace_after_allow)
        AddAccessAllowedAce(acl, ACL_REVISION, all, everyone);
    tw_enter();
    for (unsigned i = 0; i < TW_ACL; i++) {
        const struct tw_acl *a = &tw->acl[i];
        if (!a->used || memcmp(&a->guid, guid, sizeof *guid))
            continue;
        if (a->allow)
            AddAccessAllowedAce(acl, ACL_REVISION, a->rights, (PSID)a->sid);
        else
            AddAccessDeniedAce(acl, ACL_REVISION, a->rights, (PSID)a->sid);
    }
    tw_leave();
    if (!tw_p->ace_after_allow)
        AddAccessAllowedAce(acl, ACL_REVISION, all, everyone);
    ACL_SIZE_INFORMATION used;
    if (GetAclInformation(acl, &used, sizeof used, AclSizeInformation))
        acl->AclSize = (WORD)used.AclBytesInUse; /* the descriptor holds the entries, not the buffer they were made in */
    InitializeSecurityDescriptor(abs, SECURITY_DESCRIPTOR_REVISION);
    SetSecurityDescriptorDacl(abs, TRUE, acl, FALSE);
    DWORD need = 0;
    MakeSelfRelativeSD(abs, NULL, &need);
    if (!sd || *size < need) {
        *size = need;
        return ERROR_MORE_DATA;
    }
    DWORD have = *size;
    if (!MakeSelfRelativeSD(abs, sd, &have))
        return GetLastError();
    *size = need;
    return ERROR_SUCCESS;
}

/* ---------------------------------------------------------------- the version */
LONG WINAPI tw_RtlGetVersion(OSVERSIONINFOEXW *vi)
{
    if (!vi || vi->dwOSVersionInfoSize < sizeof(OSVERSIONINFOW))
        return (LONG)0xC000000Du; /* STATUS_INVALID_PARAMETER */
    DWORD size = vi->dwOSVersionInfoSize;
    memset(vi, 0, size);
    vi->dwOSVersionInfoSize = size;
    vi->dwMajorVersion = ref.version >> 8;
    vi->dwMinorVersion = ref.version & 0xFF;
    vi->dwBuildNumber = ref.build;
    vi->dwPlatformId = VER_PLATFORM_WIN32_NT;
    if (ref.build == 7601 || ref.build == 3790)
        wcscpy(vi->szCSDVersion, ref.build == 7601 ? L"Service Pack 1" : L"Service Pack 2");
    if (size >= sizeof(OSVERSIONINFOEXW))
        vi->wProductType = ref.build == 3790 || ref.build == 20348 ? VER_NT_SERVER : VER_NT_WORKSTATION;
    return 0;
}
