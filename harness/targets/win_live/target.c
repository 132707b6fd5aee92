/* harness/targets/win_live/target.c - the live system as a target: the modules the API lives in,
 * version, token and privileges, the profile interval, opening and reset (live.h describes the
 * folder), and opening any Windows target. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

const char *const mod_names[NMODS] = {"advapi32", "sechost", "kernelbase", "ntdll", "kernel32"};
struct live win_live;

HMODULE load_system_module(const char *name)
{
    char file[80], path[MAX_PATH + 80];
    if (strpbrk(name, "\\/:") || strlen(name) > 60)
        return NULL;
    snprintf(file, sizeof file, "%s.dll", name);
    HMODULE h = GetModuleHandleA(file);
    if (h)
        return h;
    UINT n = GetSystemDirectoryA(path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return NULL;
    snprintf(path + n, sizeof path - n, "\\%s", file);
    return LoadLibraryA(path);
}

HMODULE module_of(const char *name)
{
    for (size_t i = 0; i < NMODS; i++)
        if (!_stricmp(name, mod_names[i]))
            return L.mods[i];
    return load_system_module(name);
}

void *fn_ptr(FARPROC p)
{
    void *v;
    memcpy(&v, &p, sizeof v);
    return v;
}

/* GetProcAddress(module, name): what this system's module answers (forwarders included) */
void *live_proc(const char *module, const char *name)
{
    HMODULE h = module_of(module);
    return h ? fn_ptr(GetProcAddress(h, name)) : NULL;
}

void *live_sym(struct etw_target *t, const char *name)
{
    (void)t;
    for (size_t i = 0; i < NMODS; i++) {
        void *p = L.mods[i] ? fn_ptr(GetProcAddress(L.mods[i], name)) : NULL;
        if (p)
            return p;
    }
    return NULL;
}

FARPROC proc_in(size_t mod, const char *name)
{
    return L.mods[mod] ? GetProcAddress(L.mods[mod], name) : NULL;
}

/* ---------------------------------------------------------------- version */
static unsigned map_version(DWORD major, DWORD minor, bool *exact)
{
    *exact = true;
    if (major == 5 && minor == 2)
        return ETW_V5_2;
    if (major == 6 && minor <= 3)
        return ETW_V6_0 + minor;
    if (major == 10 && minor == 0)
        return ETW_V10_0;
    *exact = false;
    if (major < 5 || (major == 5 && minor < 2))
        return ETW_V5_2;
    return ETW_V10_0; /* 6.4 (early 10 builds) and anything newer */
}

static const char *wine_label(unsigned v)
{
    const struct etw_version_info *i = etw_version_info(v);
    return i ? i->wine : "win10";
}

static void detect_version(void)
{
    memset(&L.vi, 0, sizeof L.vi);
    L.vi.dwOSVersionInfoSize = sizeof L.vi;
    pfn_RtlGetVersion rgv = (pfn_RtlGetVersion)(void (*)(void))proc_in(MOD_NTDLL, "RtlGetVersion");
    if (!rgv || rgv(&L.vi) != 0) {
        /* RtlGetVersion is in every ntdll from 5.0; this is only a fallback */
        L.vi.dwOSVersionInfoSize = sizeof L.vi;
        GetVersionExW((OSVERSIONINFOW *)&L.vi);
    }
    bool exact;
    L.t.version = map_version(L.vi.dwMajorVersion, L.vi.dwMinorVersion, &exact);
    L.t.build = L.vi.dwBuildNumber;
    if (!exact)
        fprintf(stderr, "etwconf: this system is NT %lu.%lu; the cases' expectations for %s are used\n", (unsigned long)L.vi.dwMajorVersion,
                (unsigned long)L.vi.dwMinorVersion, etw_version_name(L.t.version));
    pfn_wine_get_version wgv = (pfn_wine_get_version)(void (*)(void))proc_in(MOD_NTDLL, "wine_get_version");
    L.wine = wgv != NULL;
    if (L.wine) {
        L.wine_version = wgv();
        pfn_wine_get_host_version wgh = (pfn_wine_get_host_version)(void (*)(void))proc_in(MOD_NTDLL, "wine_get_host_version");
        if (wgh)
            wgh(&L.wine_sys, &L.wine_release);
    }
}

/* ---------------------------------------------------------------- token: elevation, privileges */
/* SeSystemProfilePrivilege in the token now: 1 enabled, 0 disabled, -1 absent, -2 unreadable */
static int profile_state(void)
{
    char buf[4096];
    DWORD len = 0;
    if (!L.token || !GetTokenInformation(L.token, TokenPrivileges, buf, sizeof buf, &len))
        return -2;
    const TOKEN_PRIVILEGES *tp = (const TOKEN_PRIVILEGES *)buf;
    for (DWORD i = 0; i < tp->PrivilegeCount; i++)
        if (tp->Privileges[i].Luid.LowPart == L.profile_luid.LowPart && tp->Privileges[i].Luid.HighPart == L.profile_luid.HighPart)
            return (tp->Privileges[i].Attributes & SE_PRIVILEGE_ENABLED) ? 1 : 0;
    return -1;
}

static void detect_token(void)
{
    L.elevated = -1;
    L.profile_initial = -1;
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY | TOKEN_ADJUST_PRIVILEGES, &L.token))
        L.token_adjust = true;
    else if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &L.token))
        L.token = NULL;
    if (!L.token)
        return;
    DWORD v = 0, len = 0;
    if (GetTokenInformation(L.token, (TOKEN_INFORMATION_CLASS)20 /* TokenElevation */, &v, sizeof v, &len))
        L.elevated = v != 0;
    if (GetTokenInformation(L.token, (TOKEN_INFORMATION_CLASS)18 /* TokenElevationType */, &v, sizeof v, &len))
        L.elevation_type = (int)v;
    SID_IDENTIFIER_AUTHORITY nt = {SECURITY_NT_AUTHORITY};
    PSID admins = NULL;
    BOOL member = FALSE;
    if (AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID, DOMAIN_ALIAS_RID_ADMINS, 0, 0, 0, 0, 0, 0, &admins)) {
        if (!CheckTokenMembership(NULL, admins, &member))
            member = FALSE;
        FreeSid(admins);
    }
    L.admin_member = member != 0;
    /* from 6.0 what counts is an elevated token; before, membership of Administrators */
    L.admin = L.elevated >= 0 ? L.elevated == 1 : L.admin_member;
    if (LookupPrivilegeValueA(NULL, SE_SYSTEM_PROFILE, &L.profile_luid)) {
        int st = profile_state();
        L.profile_initial = st >= 0 ? st : -1;
    }
}

bool adjust_profile(bool enable)
{
    if (!L.token || !L.token_adjust || L.profile_initial < 0)
        return false;
    TOKEN_PRIVILEGES tp;
    tp.PrivilegeCount = 1;
    tp.Privileges[0].Luid = L.profile_luid;
    tp.Privileges[0].Attributes = enable ? SE_PRIVILEGE_ENABLED : 0;
    if (!AdjustTokenPrivileges(L.token, FALSE, &tp, 0, NULL, NULL))
        return false;
    return GetLastError() == ERROR_SUCCESS; /* not ERROR_NOT_ALL_ASSIGNED */
}

enum etw_fx live_set_privilege(struct etw_target *t, unsigned privilege, int held, char *why, size_t len)
{
    (void)t;
    if (privilege != 1) {
        snprintf(why, len, "fixture: unknown privilege %u", privilege);
        return ETW_FX_BROKEN;
    }
    if (!held && L.profile_initial < 0)
        return ETW_FX_OK; /* not in the token: not held */
    InterlockedExchange(&L.profile_changed, 1);
    if (!adjust_profile(held != 0)) {
        snprintf(why, len, "fixture: AdjustTokenPrivileges could not %s SeSystemProfilePrivilege (error %lu)", held ? "enable" : "disable",
                 GetLastError());
        return ETW_FX_BROKEN;
    }
    /* the state the case needs is shown by the token itself, not by the adjusting call's answer */
    int now = profile_state();
    if (now != (held ? 1 : 0) && !(now == -1 && !held)) {
        snprintf(why, len, "fixture: after AdjustTokenPrivileges the token shows SeSystemProfilePrivilege %s, not %s",
                 now == 1 ? "enabled" : now == 0 ? "disabled" : now == -1 ? "absent" : "unreadable", held ? "enabled" : "disabled");
        return ETW_FX_BROKEN;
    }
    return ETW_FX_OK;
}

/* ---------------------------------------------------------------- the sampled-profile interval */
bool tpi_query(etw_u32 *v)
{
    etw_pfn_NtQuerySystemInformation q = (etw_pfn_NtQuerySystemInformation)(void (*)(void))proc_in(MOD_NTDLL, "NtQuerySystemInformation");
    ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, 0};
    if (!q || q(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp, NULL) != 0 || !tp.ProfileInterval)
        return false;
    *v = tp.ProfileInterval;
    return true;
}

void tpi_restore(void)
{
    etw_u32 now;
    if (!L.tpi_saved || !tpi_query(&now) || now == L.tpi_value)
        return;
    etw_pfn_NtSetSystemInformation s = (etw_pfn_NtSetSystemInformation)(void (*)(void))proc_in(MOD_NTDLL, "NtSetSystemInformation");
    ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, L.tpi_value};
    bool enabled = adjust_profile(true);
    if (s)
        s(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp);
    if (enabled)
        InterlockedExchange(&L.profile_changed, 1);
}

/* ---------------------------------------------------------------- reset and restore */
void restore_privilege(void)
{
    if (InterlockedExchange(&L.profile_changed, 0) && L.profile_initial >= 0)
        adjust_profile(L.profile_initial == 1);
}

/* before every case: what a crashed or timed-out case left behind goes */
int live_reset(void)
{
    stop_all_sessions();
    tpi_restore();
    restore_privilege();
    return 0;
}

void win_restore_all(void)
{
    if (!L.open)
        return;
    stop_all_sessions();
    run_dir_remove(); /* after the sessions: their files are closed */
    tpi_restore();
    restore_privilege();
}

/* ---------------------------------------------------------------- opening */
void open_common(void)
{
    for (size_t i = 0; i < NMODS; i++)
        L.mods[i] = load_system_module(mod_names[i]);
    L.start_trace = (pfn_StartTraceW)(void (*)(void))proc_in(MOD_ADVAPI32, "StartTraceW");
    L.control_trace = (pfn_ControlTraceW)(void (*)(void))proc_in(MOD_ADVAPI32, "ControlTraceW");
    L.query_all = (pfn_QueryAllTracesW)(void (*)(void))proc_in(MOD_ADVAPI32, "QueryAllTracesW");
    detect_version();
    detect_token();
}

/* one run at a time on a system: the cases change system-wide settings (the sampled-profile
 * interval, the NT Kernel Logger), and two runs would restore each other's values wrongly. A
 * named mutex, held until this process ends (an abandoned one, of a killed run, is taken over). */
static bool live_claim(struct etw_target *t, char *why, size_t len)
{
    (void)t;
    static HANDLE m;
    if (m)
        return true;
    HANDLE h = CreateMutexW(NULL, FALSE, L"Global\\etwconf-live-run");
    if (!h)
        h = CreateMutexW(NULL, FALSE, L"Local\\etwconf-live-run"); /* no right to a global name */
    if (!h)
        return true; /* no mutex on this system: nothing to coordinate with */
    DWORD w = WaitForSingleObject(h, 0);
    if (w == WAIT_OBJECT_0 || w == WAIT_ABANDONED) {
        m = h;
        return true;
    }
    CloseHandle(h);
    snprintf(why, len, "another etwconf.exe run is testing this system now (the cases change system-wide settings such as the "
                       "sampled-profile interval): run one at a time, after it ends");
    return false;
}

static void live_worker_died(struct etw_target *t, unsigned long pid)
{
    (void)t;
    win_stop_sessions_of((DWORD)pid, false);
}

struct etw_target *win_live_target(char *err, size_t errlen)
{
    (void)err, (void)errlen;
    if (L.open)
        return &L.t;
    memset(&L, 0, sizeof L);
    open_common();
    struct etw_target *t = &L.t;
    t->spec = "live";
    t->impl = L.wine ? "wine" : "windows";
    t->name = t->impl;
    t->arch = plat_process_arch();
    t->sym = live_sym;
    t->proc = live_proc;
    t->emulates = false;
    t->version_label = L.wine ? wine_label(t->version) : NULL;
    t->reset = live_reset;
    t->start_logger = live_start_logger;
    t->stop_logger = live_stop_logger;
    t->missing_logger = live_missing_logger;
    t->set_privilege = live_set_privilege;
    t->enable_group = live_enable_group;
    t->event_traits = live_event_traits;
    t->fingerprint = live_fingerprint;
    t->need = live_need;
    t->worker_died = live_worker_died;
    t->claim = live_claim;
    plat_at_end(win_restore_all); /* also after a fatal exception or a closed console */
    int ks = kernel_logger_state(NULL);
    L.kernel_at_start = ks == 1 ? 1 : ks == 4 ? 2 : 0;
    L.tpi_saved = tpi_query(&L.tpi_value);
    L.open = true;
    return t;
}

/* ---------------------------------------------------------------- opening a Windows target */
struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen)
{
    if (!spec || !strcmp(spec, "live") || !strcmp(spec, "windows") || !strcmp(spec, "wine"))
        return win_live_target(err, errlen);
    if (!strcmp(spec, "reference")) {
        snprintf(err, errlen,
                 "the reference implementation is not part of etwconf.exe: it tests this system (leave out --target, or give "
                 "--target live) or a DLL that exports the API under its Windows names");
        return NULL;
    }
    return win_dll_target(spec, err, errlen);
}
