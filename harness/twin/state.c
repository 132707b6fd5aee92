/* harness/twin/state.c - the twin's kernel: the state every process of a run shares, the kernel
 * lock, the model kept in step with it, the emulated version and the personality (twin.h). */
#include "harness/twin/twin.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tw_shared *tw;
const struct tw_personality *tw_p;
/* the NT Kernel Logger's GUID: the state names the kernel session by it, the controller matches it */
const GUID tw_system_trace_control = {0x9e814aad, 0x3204, 0x11d2, {0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39}};

static const struct tw_personality personalities[] = {
#define TW_PERSONALITY(name, what, ...) {name, what, __VA_ARGS__},
#include "harness/twin/personalities.def"
#undef TW_PERSONALITY
};

static const struct {
    unsigned id;
    const char *name;
} versions[] = {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) {ETW_##sym, name},
#include "spec/versions.def"
#undef VERSION
};

static struct {
    HANDLE file, map;
    BYTE user[SECURITY_MAX_SID_SIZE]; /* this process's user */
    HANDLE token;
    LUID profile;
    bool worker;
    char model[160];
    int depth; /* the lock is taken once per thread: calls from inside the model (callbacks) nest */
    DWORD owner_thread;
    bool changed; /* a session or a security entry came or went: the report is written again */
    WCHAR report[MAX_PATH + 80]; /* the state file's name + ".txt" */
} K;

static int report(char *out, int cap);

void tw_changed(void)
{
    K.changed = true;
}

/* the state's report beside the state file, rewritten whenever a session or a security entry comes
 * or goes (under the lock): what a run left behind is there when its last process ends */
static void write_report(void)
{
    static char text[65536];
    int n = report(text, sizeof text);
    HANDLE f = n >= 0 ? CreateFileW(K.report, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, CREATE_ALWAYS,
                                    FILE_ATTRIBUTE_NORMAL, NULL)
                      : INVALID_HANDLE_VALUE;
    if (f == INVALID_HANDLE_VALUE)
        return;
    DWORD w = 0;
    WriteFile(f, text, (DWORD)n, &w, NULL);
    CloseHandle(f);
}

/* ---------------------------------------------------------------- the lock and the model in step */
static void lock_file(bool on)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.Offset = 0x7FFFFFF0u; /* beyond the state: a lock only, not a region anyone reads */
    if (on)
        LockFileEx(K.file, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ov);
    else
        UnlockFileEx(K.file, 0, 1, 0, &ov);
}

/* the caller's SeSystemProfilePrivilege, enabled or not, as the kernel checks it */
static bool profile_enabled(void)
{
    char buf[4096];
    DWORD got = 0;
    if (!K.token || !GetTokenInformation(K.token, TokenPrivileges, buf, sizeof buf, &got))
        return false;
    TOKEN_PRIVILEGES *tp = (TOKEN_PRIVILEGES *)buf;
    for (DWORD i = 0; i < tp->PrivilegeCount; i++)
        if (tp->Privileges[i].Luid.LowPart == K.profile.LowPart && tp->Privileges[i].Luid.HighPart == K.profile.HighPart)
            return (tp->Privileges[i].Attributes & SE_PRIVILEGE_ENABLED) != 0;
    return false;
}

bool tw_process_alive(uint32_t pid)
{
    if (pid == GetCurrentProcessId())
        return true;
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, pid);
    if (!h)
        return GetLastError() == ERROR_ACCESS_DENIED;
    bool alive = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
    CloseHandle(h);
    return alive;
}

static void model_in(void)
{
    for (unsigned i = 0; i < REF_MAX_LOGGERS; i++) {
        struct tw_logger *s = &tw->loggers[i];
        struct ref_logger *lg = &ref.loggers[i];
        /* a private session goes with its process (Windows ends it when the process ends) */
        if (s->active && (tw->sessions[i].flags & TW_S_PRIVATE) && !tw_process_alive(tw->sessions[i].owner)) {
            memset(s, 0, sizeof *s);
            memset(&tw->sessions[i], 0, sizeof tw->sessions[i]);
            K.changed = true;
        }
        if (!s->active) {
            if (lg->active)
                ref_logger_free(lg);
            continue;
        }
        lg->active = true;
        lg->id = s->id;
        lg->mode = s->mode;
        memcpy(lg->masks, s->masks, sizeof lg->masks);
        lg->access = tw_enable_allowed(&tw->sessions[i].guid) ? ETW_TRACELOG_GUID_ENABLE : 0;
        if (s->cswitch && !lg->cswitch_buffers)
            lg->cswitch_buffers = calloc(1, REF_CPUS * 4096);
        else if (!s->cswitch && lg->cswitch_buffers) {
            free(lg->cswitch_buffers);
            lg->cswitch_buffers = NULL;
        }
        if (lg->ndisallow != s->ndisallow || (s->ndisallow && memcmp(lg->disallow, s->disallow, s->ndisallow * sizeof(etw_guid)))) {
            free(lg->disallow);
            lg->disallow = s->ndisallow ? calloc(s->ndisallow, sizeof(etw_guid)) : NULL;
            lg->ndisallow = lg->disallow ? s->ndisallow : 0;
            if (lg->disallow)
                memcpy(lg->disallow, s->disallow, s->ndisallow * sizeof(etw_guid));
        }
    }
    ref.timer_interval = tw->timer_interval;
    memcpy(ref.source_interval, tw->source_interval, sizeof ref.source_interval);
    ref.profile_privilege = profile_enabled();
}

static void model_out(void)
{
    for (unsigned i = 0; i < REF_MAX_LOGGERS; i++) {
        struct tw_logger *s = &tw->loggers[i];
        const struct ref_logger *lg = &ref.loggers[i];
        if (!lg->active) {
            memset(s, 0, sizeof *s);
            continue;
        }
        s->active = 1;
        s->id = lg->id;
        s->mode = lg->mode;
        memcpy(s->masks, lg->masks, sizeof s->masks);
        s->cswitch = lg->cswitch_buffers != NULL;
        s->ndisallow = lg->ndisallow < TW_DISALLOW ? lg->ndisallow : TW_DISALLOW;
        if (lg->disallow)
            memcpy(s->disallow, lg->disallow, s->ndisallow * sizeof(etw_guid));
    }
    tw->timer_interval = ref.timer_interval;
    memcpy(tw->source_interval, ref.source_interval, sizeof tw->source_interval);
}

void tw_enter(void)
{
    if (K.depth && K.owner_thread == GetCurrentThreadId()) {
        K.depth++;
        return;
    }
    lock_file(true);
    K.owner_thread = GetCurrentThreadId();
    K.depth = 1;
    model_in();
}

void tw_leave(void)
{
    if (--K.depth > 0)
        return;
    model_out();
    if (K.changed) {
        K.changed = false;
        write_report();
    }
    K.owner_thread = 0;
    lock_file(false);
}

/* ---------------------------------------------------------------- security entries */
/* the GUID's security as an ordered list, evaluated for the caller's user: the entries
 * EventAccessControl added, and the default allow-all (everyone, every right); the first entry
 * that names the caller (or everyone) and the right decides. The personality ace-no-effect puts
 * the default first, as a DACL where the added entry follows an allow for Administrators. */
bool tw_enable_allowed(const GUID *g)
{
    if (tw_p->ace_after_allow)
        return true;
    for (unsigned i = 0; i < TW_ACL; i++) {
        const struct tw_acl *a = &tw->acl[i];
        if (a->used && !memcmp(&a->guid, g, sizeof *g) && (a->rights & ETW_TRACELOG_GUID_ENABLE) && IsValidSid((PSID)a->sid) &&
            IsValidSid((PSID)K.user) && EqualSid((PSID)a->sid, (PSID)K.user))
            return a->allow != 0;
    }
    return true;
}

/* ---------------------------------------------------------------- sessions */
uint32_t tw_session_id(const struct tw_session *s)
{
    return (uint32_t)(s - tw->sessions);
}

struct tw_session *tw_session_by_handle(uint64_t h)
{
    uint32_t id = (uint32_t)(h & 0xFFFF);
    if (id == ETW_KERNEL_LOGGER_ID)
        id = REF_KERNEL_LOGGER_SLOT;
    else if (id == REF_KERNEL_LOGGER_SLOT || id >= REF_MAX_LOGGERS)
        return NULL;
    struct tw_session *s = &tw->sessions[id];
    if (!s->used || ((s->flags & TW_S_PRIVATE) && s->owner != GetCurrentProcessId()))
        return NULL;
    return s;
}

struct tw_session *tw_session_by_name(const WCHAR *name)
{
    for (unsigned i = 0; name && i < REF_MAX_LOGGERS; i++) {
        struct tw_session *s = &tw->sessions[i];
        if (s->used && !(s->flags & TW_S_PRIVATE) && !_wcsicmp(s->name, name))
            return s;
    }
    return NULL;
}

bool tw_in_worker(void)
{
    return K.worker;
}

/* ---------------------------------------------------------------- opening the state */
static void choose(void)
{
    char v[64] = "", p[64] = "";
    GetEnvironmentVariableA("ETWCONF_TWIN_PERSONALITY", p, sizeof p);
    GetEnvironmentVariableA("ETWCONF_TWIN_VERSION", v, sizeof v);
    tw_p = NULL;
    for (size_t i = 0; i < sizeof personalities / sizeof personalities[0]; i++)
        if (!strcmp(personalities[i].name, p[0] ? p : "windows"))
            tw_p = &personalities[i];
    if (!tw_p) {
        fprintf(stderr, "etwconf twin: ETWCONF_TWIN_PERSONALITY=%s is not a personality of harness/twin/personalities.def; "
                        "using \"windows\"\n", p);
        tw_p = &personalities[0];
    }
    unsigned id = ETW_V10_0;
    bool found = !v[0];
    for (size_t i = 0; i < sizeof versions / sizeof versions[0] && !found; i++)
        if (!strcmp(versions[i].name, v)) {
            id = versions[i].id;
            found = true;
        }
    if (!found)
        fprintf(stderr, "etwconf twin: ETWCONF_TWIN_VERSION=%s is not a version of spec/versions.def; emulating 10.0\n", v);
    EtwRef_SetVersion(id, 0);
    snprintf(K.model, sizeof K.model, "%u.%u.%u, personality %s", ref.version >> 8, ref.version & 0xFF, ref.build, tw_p->name);
}

/* a new state: the model's kernel as EtwRef_Reset leaves it, and what the personality starts with */
static void state_init(void)
{
    memset(tw, 0, sizeof *tw);
    tw->size = sizeof *tw;
    snprintf(tw->personality, sizeof tw->personality, "%s", tw_p->name);
    tw->version = ref.version;
    tw->build = ref.build;
    model_out();
    if (tw_p->foreign_kernel) {
        struct tw_session *s = &tw->sessions[REF_KERNEL_LOGGER_SLOT];
        struct tw_logger *l = &tw->loggers[REF_KERNEL_LOGGER_SLOT];
        s->used = 1;
        s->owner = TW_FOREIGN_PID;
        s->flags = TW_S_FOREIGN;
        s->log_file_mode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        s->enable_flags = EVENT_TRACE_FLAG_PROCESS;
        s->handle = ETW_KERNEL_LOGGER_ID;
        s->guid = tw_system_trace_control;
        wcscpy(s->name, KERNEL_LOGGER_NAMEW);
        wcscpy(s->file, L"C:\\PerfLogs\\kernel.etl");
        l->active = 1;
        l->id = REF_KERNEL_LOGGER_SLOT;
        l->mode = ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE;
        l->masks[0] = EVENT_TRACE_FLAG_PROCESS;
    }
    tw->magic = TW_MAGIC;
}

static bool state_open(void)
{
    WCHAR path[MAX_PATH + 64];
    DWORD n = GetEnvironmentVariableW(L"ETWCONF_TWIN_STATE", path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH) {
        WCHAR tmp[MAX_PATH + 1];
        DWORD t = GetTempPathW(MAX_PATH, tmp);
        if (!t || t >= MAX_PATH)
            return false;
        _snwprintf(path, MAX_PATH + 63, L"%lsetwconf-twin-%lu.state", tmp, (unsigned long)GetCurrentProcessId());
        path[MAX_PATH + 63] = 0;
        SetEnvironmentVariableW(L"ETWCONF_TWIN_STATE", path); /* the processes this one starts share it */
    }
    _snwprintf(K.report, sizeof K.report / sizeof K.report[0] - 1, L"%ls.txt", path);
    K.file = CreateFileW(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_ALWAYS,
                         FILE_ATTRIBUTE_NORMAL, NULL);
    if (K.file == INVALID_HANDLE_VALUE)
        return false;
    K.map = CreateFileMappingW(K.file, NULL, PAGE_READWRITE, 0, sizeof *tw, NULL);
    tw = K.map ? MapViewOfFile(K.map, FILE_MAP_ALL_ACCESS, 0, 0, sizeof *tw) : NULL;
    if (!tw)
        return false;
    lock_file(true);
    if (tw->magic != TW_MAGIC || tw->size != sizeof *tw) {
        state_init();
        write_report();
    }
    lock_file(false);
    return true;
}

static void process_init(void)
{
    HANDLE tok;
    DWORD got = 0;
    char buf[256];
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok)) {
        if (GetTokenInformation(tok, TokenUser, buf, sizeof buf, &got))
            CopySid(sizeof K.user, (PSID)K.user, ((TOKEN_USER *)buf)->User.Sid);
        K.token = tok;
    }
    LookupPrivilegeValueA(NULL, "SeSystemProfilePrivilege", &K.profile);
    K.worker = wcsstr(GetCommandLineW(), L"__worker") != NULL; /* the runner's hidden worker command (harness/cli/worker.c) */
    choose();
    ref.no_pmc_sources = tw_p->no_pmc; /* the HAL of the personality's machine */
    EtwRef_Reset();
}

TW_EXPORT const char *__cdecl Twin_Model(void)
{
    return K.model;
}

static void guid_text(char *out, size_t cap, const GUID *g)
{
    snprintf(out, cap, "{%08lX-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}", (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0],
             g->Data4[1], g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
}

TW_EXPORT int __cdecl Twin_Report(char *out, int cap)
{
    if (!tw || cap <= 0)
        return -1;
    tw_enter();
    int n = report(out, cap);
    tw_leave();
    return n;
}

/* the report's lines (twin.h), under the lock */
static int report(char *out, int cap)
{
    int n = 0;
    out[0] = 0;
    n += snprintf(out + n, n < cap ? cap - n : 0, "model %u.%u.%u, personality %s\nkills %u\n", tw->version >> 8, tw->version & 0xFF,
                  (unsigned)tw->build, tw->personality, (unsigned)tw->kills);
    for (unsigned i = 0; i < REF_MAX_LOGGERS; i++) {
        const struct tw_session *s = &tw->sessions[i];
        if (!s->used)
            continue;
        char name[200], file[600];
        WideCharToMultiByte(CP_UTF8, 0, s->name, -1, name, sizeof name, NULL, NULL);
        WideCharToMultiByte(CP_UTF8, 0, s->file, -1, file, sizeof file, NULL, NULL);
        n += snprintf(out + n, n < cap ? cap - n : 0, "session %s id=%u owner=%u%s%s file=%s\n", name, i, (unsigned)s->owner,
                      s->flags & TW_S_FOREIGN ? " foreign" : "", s->flags & TW_S_PRIVATE ? " private" : "", file[0] ? file : "-");
    }
    for (unsigned i = 0; i < TW_ACL; i++) {
        const struct tw_acl *a = &tw->acl[i];
        if (!a->used)
            continue;
        char g[64];
        guid_text(g, sizeof g, &a->guid);
        n += snprintf(out + n, n < cap ? cap - n : 0, "security %s owner=%u rights=0x%X %s\n", g, (unsigned)a->owner, (unsigned)a->rights,
                      a->allow ? "allow" : "deny");
    }
    /* and the values Windows keeps them as (controller.c), however they came */
    HKEY k;
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SYSTEM\\CurrentControlSet\\Control\\WMI\\Security", 0, KEY_QUERY_VALUE, &k) == ERROR_SUCCESS) {
        WCHAR name[128];
        for (DWORD i = 0;; i++) {
            DWORD nl = sizeof name / sizeof name[0];
            if (RegEnumValueW(k, i, name, &nl, NULL, NULL, NULL, NULL) != ERROR_SUCCESS)
                break;
            char v[400];
            WideCharToMultiByte(CP_UTF8, 0, name, -1, v, sizeof v, NULL, NULL);
            n += snprintf(out + n, n < cap ? cap - n : 0, "registry WMI\\Security\\%s\n", v);
        }
        RegCloseKey(k);
    }
    return n < cap ? n : -1;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst, (void)reserved;
    if (reason == DLL_PROCESS_ATTACH) {
        process_init();
        if (!state_open()) {
            fprintf(stderr, "etwconf twin: the state file (ETWCONF_TWIN_STATE) cannot be opened and mapped (error %lu)\n",
                    (unsigned long)GetLastError());
            return FALSE;
        }
    }
    return TRUE;
}
