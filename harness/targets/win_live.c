/*
 * harness/targets/win_live.c - the live system as a target: every API is looked up with
 * GetProcAddress in the module that exports it (never imported statically: the exe must load on
 * every version from 5.2 on), the version comes from RtlGetVersion, and the fixtures are real
 * ETW sessions that the suite starts itself and always stops.
 *
 * What the suite touches on the machine (harness/windows/README.md says the same to users):
 *  - ETW sessions it starts itself, named "etwconf-<pid>-<n>", and the NT Kernel Logger only when
 *    no one else runs it (started with a log file %TEMP%\etwconf-<pid>-<n>-kernel.etl, which is
 *    how a later `etwconf.exe cleanup` recognises it). A session it did not start is never
 *    stopped or changed. Every session is stopped after its case, after a crash or a timeout (at
 *    the start of the next case), at the end of the run, on Ctrl-C and from the crash handler.
 *  - SeSystemProfilePrivilege of its own token (enabled/disabled per case, restored).
 *  - The sampled-profile timer interval, which one case sets: restored after each case.
 *  - Provider registrations (EventRegister, RegisterTraceGuidsW) of its own process.
 */
#include "harness/plat/win/win.h"
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wmistr.h>
#include <evntrace.h>

typedef ULONG(WINAPI *pfn_StartTraceW)(TRACEHANDLE *, LPCWSTR, EVENT_TRACE_PROPERTIES *);
typedef ULONG(WINAPI *pfn_ControlTraceW)(TRACEHANDLE, LPCWSTR, EVENT_TRACE_PROPERTIES *, ULONG);
typedef ULONG(WINAPI *pfn_QueryAllTracesW)(EVENT_TRACE_PROPERTIES **, ULONG, ULONG *);
typedef LONG(WINAPI *pfn_RtlGetVersion)(OSVERSIONINFOEXW *);
typedef BOOL(WINAPI *pfn_IsWow64Process)(HANDLE, BOOL *);
typedef BOOL(WINAPI *pfn_IsWow64Process2)(HANDLE, USHORT *, USHORT *);
typedef const char *(__cdecl *pfn_wine_get_version)(void);
typedef void(__cdecl *pfn_wine_get_host_version)(const char **, const char **);

#define KERNEL_LOGGER_W L"NT Kernel Logger"
static const GUID system_trace_control_guid = {0x9e814aad, 0x3204, 0x11d2, {0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39}};
#define SE_SYSTEM_PROFILE "SeSystemProfilePrivilege"
#ifndef EVENT_TRACE_CONTROL_QUERY
#define EVENT_TRACE_CONTROL_QUERY 0
#define EVENT_TRACE_CONTROL_STOP 1
#endif
#define WIN_ERROR_WMI_INSTANCE_NOT_FOUND 4201u

/* ---------------------------------------------------------------- the modules the API lives in */
static const char *const mod_names[] = {"advapi32", "sechost", "kernelbase", "ntdll", "kernel32"};
#define NMODS (sizeof mod_names / sizeof mod_names[0])

static struct live {
    struct etw_target t;
    bool open;
    HMODULE mods[NMODS];
    OSVERSIONINFOEXW vi;
    bool wine;
    const char *wine_version, *wine_sys, *wine_release;
    HANDLE token;
    bool token_adjust; /* the token was opened with TOKEN_ADJUST_PRIVILEGES */
    int elevated; /* 1, 0, -1 unknown (before 6.0) */
    int elevation_type; /* TokenElevationType: 1 default, 2 full, 3 limited; 0 unknown */
    bool admin_member, admin;
    LUID profile_luid;
    int profile_initial; /* -1 absent from the token, 0 disabled, 1 enabled */
    volatile LONG profile_changed;
    bool tpi_saved; /* the sampled-profile interval at the start, to restore */
    etw_u32 tpi_value;
    pfn_StartTraceW start_trace;
    pfn_ControlTraceW control_trace;
    pfn_QueryAllTracesW query_all;
    volatile LONG session_seq;
    int kernel_at_start; /* the NT Kernel Logger at start: 0 not running, 1 someone else's, 2 unknown */
} L;

static HMODULE load_system_module(const char *name)
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

static HMODULE module_of(const char *name)
{
    for (size_t i = 0; i < NMODS; i++)
        if (!_stricmp(name, mod_names[i]))
            return L.mods[i];
    return load_system_module(name);
}

static void *fn_ptr(FARPROC p)
{
    void *v;
    memcpy(&v, &p, sizeof v);
    return v;
}

/* GetProcAddress(module, name): what this system's module answers (forwarders included) */
static void *live_proc(const char *module, const char *name)
{
    HMODULE h = module_of(module);
    return h ? fn_ptr(GetProcAddress(h, name)) : NULL;
}

static void *live_sym(struct etw_target *t, const char *name)
{
    (void)t;
    for (size_t i = 0; i < NMODS; i++) {
        void *p = L.mods[i] ? fn_ptr(GetProcAddress(L.mods[i], name)) : NULL;
        if (p)
            return p;
    }
    return NULL;
}

static FARPROC proc_in(size_t mod, const char *name)
{
    return L.mods[mod] ? GetProcAddress(L.mods[mod], name) : NULL;
}
#define MOD_ADVAPI32 0
#define MOD_SECHOST 1
#define MOD_NTDLL 3
#define MOD_KERNEL32 4

bool win_is_wine(void)
{
    HMODULE nt = GetModuleHandleW(L"ntdll.dll");
    return nt && GetProcAddress(nt, "wine_get_version") != NULL;
}

static const char *process_arch(void)
{
#if defined(_M_X64) || defined(__x86_64__)
    return "x86_64";
#elif defined(_M_IX86) || defined(__i386__)
    return "i686";
#elif defined(__aarch64__)
    return "aarch64";
#else
    return "unknown";
#endif
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
        char buf[4096];
        if (GetTokenInformation(L.token, TokenPrivileges, buf, sizeof buf, &len)) {
            TOKEN_PRIVILEGES *tp = (TOKEN_PRIVILEGES *)buf;
            for (DWORD i = 0; i < tp->PrivilegeCount; i++)
                if (tp->Privileges[i].Luid.LowPart == L.profile_luid.LowPart && tp->Privileges[i].Luid.HighPart == L.profile_luid.HighPart)
                    L.profile_initial = (tp->Privileges[i].Attributes & SE_PRIVILEGE_ENABLED) ? 1 : 0;
        }
    }
}

static bool adjust_profile(bool enable)
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

static int live_set_privilege(unsigned privilege, int held)
{
    struct etw_ctx *ctx = win_current_ctx();
    if (privilege != 1) {
        if (ctx)
            etw_broken(ctx, "fixture: unknown privilege %u", privilege);
        return -1;
    }
    if (!held && L.profile_initial < 0)
        return 0; /* not in the token: not held */
    InterlockedExchange(&L.profile_changed, 1);
    if (!adjust_profile(held != 0)) {
        if (ctx)
            etw_broken(ctx, "fixture: AdjustTokenPrivileges could not %s SeSystemProfilePrivilege (error %lu)", held ? "enable" : "disable",
                       GetLastError());
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the sampled-profile interval */
static bool tpi_query(etw_u32 *v)
{
    etw_pfn_NtQuerySystemInformation q = (etw_pfn_NtQuerySystemInformation)(void (*)(void))proc_in(MOD_NTDLL, "NtQuerySystemInformation");
    ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, 0};
    if (!q || q(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp, NULL) != 0 || !tp.ProfileInterval)
        return false;
    *v = tp.ProfileInterval;
    return true;
}

static void tpi_restore(void)
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

/* ---------------------------------------------------------------- sessions */
struct props_buf {
    EVENT_TRACE_PROPERTIES p;
    WCHAR logger[1024];
    WCHAR file[1024];
};

static void props_init(struct props_buf *b)
{
    memset(b, 0, sizeof *b);
    b->p.Wnode.BufferSize = sizeof *b;
    b->p.LoggerNameOffset = offsetof(struct props_buf, logger);
    b->p.LogFileNameOffset = offsetof(struct props_buf, file);
}

static const WCHAR *props_name(const EVENT_TRACE_PROPERTIES *p, ULONG off)
{
    static const WCHAR empty[1] = {0};
    return off && off < p->Wnode.BufferSize ? (const WCHAR *)((const char *)p + off) : empty;
}

/* query a session by name; true when it exists (the answer describes a session: a real QUERY
 * always reports its buffer size). Wine's ControlTraceW returns 0 and fills in nothing. */
static bool query_session(const WCHAR *name, struct props_buf *b, ULONG *rc_out)
{
    props_init(b);
    ULONG rc = L.control_trace ? L.control_trace(0, name, &b->p, EVENT_TRACE_CONTROL_QUERY) : ERROR_PROC_NOT_FOUND;
    if (rc_out)
        *rc_out = rc;
    return rc == ERROR_SUCCESS && b->p.BufferSize != 0;
}

static ULONG stop_by_name(const WCHAR *name)
{
    struct props_buf b;
    props_init(&b);
    return L.control_trace ? L.control_trace(0, name, &b.p, EVENT_TRACE_CONTROL_STOP) : ERROR_PROC_NOT_FOUND;
}

/* the pid in "...etwconf-<pid>-..." (0 if none) */
static DWORD marker_pid(const WCHAR *s)
{
    const WCHAR *m = wcsstr(s, WIN_SESSION_PREFIXW);
    return m ? (DWORD)wcstoul(m + wcslen(WIN_SESSION_PREFIXW), NULL, 10) : 0;
}

enum { SL_FREE, SL_STARTING, SL_LIVE, SL_STOPPING };
struct session {
    volatile LONG state;
    bool kernel;
    etw_tracehandle h;
    WCHAR name[64];
    WCHAR file[MAX_PATH + 64];
};
static struct session sessions[8];

/* stop a session of ours: by name; the kernel logger only if its log file is still ours */
static void session_stop(struct session *s)
{
    if (s->kernel) {
        struct props_buf b;
        if (query_session(KERNEL_LOGGER_W, &b, NULL) && !_wcsicmp(props_name(&b.p, b.p.LogFileNameOffset), s->file))
            stop_by_name(KERNEL_LOGGER_W);
        DeleteFileW(s->file);
    } else {
        stop_by_name(s->name);
    }
}

static void stop_all_sessions(void)
{
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        struct session *s = &sessions[i];
        LONG st = s->state;
        if (st == SL_FREE || st == SL_STOPPING)
            continue;
        if (InterlockedCompareExchange(&s->state, SL_STOPPING, st) != st)
            continue;
        session_stop(s);
        InterlockedExchange(&s->state, SL_FREE);
    }
}

static bool masks_set(const etw_u32 m[8])
{
    for (int i = 0; i < 8; i++)
        if (m && m[i])
            return true;
    return false;
}

static const char *kind_name(unsigned kind)
{
    static const char *const n[] = {"", "the NT Kernel Logger", "a system-logger session", "a plain session", "a no-access session",
                                    "a private session"};
    return kind < 6 ? n[kind] : "a session";
}

static int live_start_logger(unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle)
{
    struct etw_ctx *ctx = win_current_ctx();
#define FAIL_FIX(...)                                                                                                        \
    do {                                                                                                                     \
        if (ctx)                                                                                                             \
            etw_broken(ctx, __VA_ARGS__);                                                                                    \
        return -1;                                                                                                           \
    } while (0)
    if (kind != LG_KERNEL && kind != LG_SYSTEM && kind != LG_PLAIN) {
        if (ctx)
            etw_skip(ctx, "needs %s, which etwconf.exe does not set up on a live system", kind_name(kind));
        return -1;
    }
    if (!L.start_trace || !L.control_trace)
        FAIL_FIX("fixture: advapi32 does not export StartTraceW and ControlTraceW");
    struct session *s = NULL;
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0] && !s; i++)
        if (InterlockedCompareExchange(&sessions[i].state, SL_STARTING, SL_FREE) == SL_FREE)
            s = &sessions[i];
    if (!s)
        FAIL_FIX("fixture: more than %u sessions at once", (unsigned)(sizeof sessions / sizeof sessions[0]));
    LONG n = InterlockedIncrement(&L.session_seq);
    DWORD pid = GetCurrentProcessId();
    s->kernel = kind == LG_KERNEL;
    s->h = 0;
    s->file[0] = 0;
    static struct props_buf b; /* one runner at a time */
    props_init(&b);
    b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    b.p.Wnode.ClientContext = 1; /* QueryPerformanceCounter timestamps */
    b.p.BufferSize = 64;
    b.p.FlushTimer = 1;
    if (s->kernel) {
        WCHAR tmp[MAX_PATH + 1];
        DWORD tl = GetTempPathW(MAX_PATH, tmp);
        if (tl == 0 || tl > MAX_PATH) {
            InterlockedExchange(&s->state, SL_FREE);
            FAIL_FIX("fixture: no temporary directory for the NT Kernel Logger's log file");
        }
        _snwprintf(s->file, sizeof s->file / sizeof s->file[0] - 1, L"%ls" WIN_SESSION_PREFIXW L"%lu-%ld-kernel.etl", tmp,
                   (unsigned long)pid, (long)n);
        wcscpy(s->name, KERNEL_LOGGER_W);
        b.p.Wnode.Guid = system_trace_control_guid;
        b.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
        wcsncpy(b.file, s->file, sizeof b.file / sizeof b.file[0] - 1);
        b.p.EnableFlags = 0; /* masks, if any, are set below */
    } else {
        _snwprintf(s->name, sizeof s->name / sizeof s->name[0] - 1, WIN_SESSION_PREFIXW L"%lu-%ld", (unsigned long)pid, (long)n);
        GUID g = {0xE7C0F0F0u, (WORD)(pid >> 16), (WORD)pid, {0x9a, 0x11, (BYTE)(n >> 8), (BYTE)n, 0, 0, 0, 0}};
        DWORD tick = GetTickCount();
        memcpy(g.Data4 + 4, &tick, 4);
        b.p.Wnode.Guid = g;
        b.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE | (kind == LG_SYSTEM ? ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE : 0);
        b.p.LogFileNameOffset = 0;
    }
    TRACEHANDLE h = 0;
    ULONG rc = L.start_trace(&h, s->name, &b.p);
    if (rc != ERROR_SUCCESS) {
        InterlockedExchange(&s->state, SL_FREE);
        if (s->kernel && rc == ERROR_ALREADY_EXISTS && ctx) {
            etw_skip(ctx, "the NT Kernel Logger was started by someone else meanwhile; the suite never stops or changes a session it did "
                          "not start");
            return -1;
        }
        if (rc == ERROR_ACCESS_DENIED)
            FAIL_FIX("fixture: StartTraceW for %s returned ERROR_ACCESS_DENIED (5): administrator rights are needed", kind_name(kind));
        FAIL_FIX("fixture: StartTraceW for %s returned %lu", kind_name(kind), (unsigned long)rc);
    }
    s->h = h;
    InterlockedExchange(&s->state, SL_LIVE);
    /* a session that StartTraceW reports must exist: check it before a case relies on it */
    ULONG qrc = 0;
    bool described = query_session(s->name, &b, &qrc);
    if (!described || (s->kernel && _wcsicmp(props_name(&b.p, b.p.LogFileNameOffset), s->file))) {
        if (InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
            session_stop(s);
            InterlockedExchange(&s->state, SL_FREE);
        }
        if (described)
            FAIL_FIX("fixture: the NT Kernel Logger that runs after StartTraceW does not write to the suite's log file: someone else's");
        FAIL_FIX("fixture: StartTraceW for %s returned 0 (handle 0x%llX) but ControlTraceW(QUERY) returned %lu and does not describe "
                 "it: the session was not started%s",
                 kind_name(kind), (unsigned long long)h, (unsigned long)qrc, L.wine ? " (Wine: both are stubs that report success)" : "");
    }
    if (masks_set(masks)) {
        etw_pfn_TraceSetInformation tsi = (etw_pfn_TraceSetInformation)(void (*)(void))proc_in(MOD_ADVAPI32, "TraceSetInformation");
        if (!tsi)
            tsi = (etw_pfn_TraceSetInformation)(void (*)(void))proc_in(MOD_SECHOST, "TraceSetInformation");
        etw_u32 m[8];
        memcpy(m, masks, sizeof m);
        rc = tsi ? tsi(h, ETW_TraceSystemTraceEnableFlagsInfo, m, sizeof m) : ERROR_PROC_NOT_FOUND;
        if (rc != ERROR_SUCCESS) {
            if (InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
                session_stop(s);
                InterlockedExchange(&s->state, SL_FREE);
            }
            FAIL_FIX("fixture: setting the group masks of %s with TraceSetInformation(TraceSystemTraceEnableFlagsInfo) %s %lu",
                     kind_name(kind), tsi ? "returned" : "is not exported:", (unsigned long)rc);
        }
    }
    *handle = h;
    return 0;
#undef FAIL_FIX
}

static int live_stop_logger(etw_tracehandle h)
{
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        struct session *s = &sessions[i];
        if (s->h == h && InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
            session_stop(s);
            InterlockedExchange(&s->state, SL_FREE);
            return 0;
        }
    }
    return -1;
}

/* every session running now (a malloc'ed array of count props_buf); NULL on failure */
static struct props_buf *all_sessions(ULONG *count)
{
    enum { MAXS = 64 };
    struct props_buf *bs = calloc(MAXS, sizeof *bs);
    EVENT_TRACE_PROPERTIES *ps[MAXS];
    if (!bs || !L.query_all) {
        free(bs);
        return NULL;
    }
    for (int i = 0; i < MAXS; i++) {
        props_init(&bs[i]);
        ps[i] = &bs[i].p;
    }
    *count = 0;
    ULONG rc = L.query_all(ps, MAXS, count);
    if (rc != ERROR_SUCCESS && rc != ERROR_MORE_DATA) {
        free(bs);
        return NULL;
    }
    if (*count > MAXS)
        *count = MAXS;
    return bs;
}

static etw_tracehandle live_missing_logger(void)
{
    bool used[64] = {false};
    ULONG n = 0;
    struct props_buf *bs = all_sessions(&n);
    for (ULONG i = 0; bs && i < n; i++) {
        etw_u64 id = bs[i].p.Wnode.HistoricalContext & 0xFFFF;
        if (id < 64)
            used[id] = true;
    }
    free(bs);
    for (unsigned id = 0x3E; id > 1; id--)
        if (!used[id])
            return id;
    return 0x3E;
}

/* 0 not running (or not really: Wine), 1 someone else's, 2 ours (a leftover the next reset stops),
 * 3 left by another etwconf process (pid in *who), 4 cannot tell (no right to query) */
static int kernel_logger_state(DWORD *who)
{
    struct props_buf b;
    ULONG rc = 0;
    if (!query_session(KERNEL_LOGGER_W, &b, &rc))
        return rc == ERROR_ACCESS_DENIED ? 4 : 0;
    DWORD pid = marker_pid(props_name(&b.p, b.p.LogFileNameOffset));
    if (who)
        *who = pid;
    if (!pid)
        return 1;
    return pid == GetCurrentProcessId() ? 2 : 3;
}

static bool live_can_run(struct etw_target *t, const struct etw_case *c, char *why, size_t len)
{
    unsigned kinds[2] = {c->fx.logger, c->fx.logger2};
    bool any = kinds[0] || kinds[1], kernel = false;
    for (int i = 0; i < 2; i++) {
        if (kinds[i] == LG_NOACCESS) {
            snprintf(why, len, "needs a system-logger session that this process has no TRACELOG_GUID_ENABLE access to: etwconf.exe does "
                               "not change the security of sessions on a live system");
            return false;
        }
        if (kinds[i] == LG_PRIVATE) {
            snprintf(why, len, "needs a private logger session (EVENT_TRACE_PRIVATE_LOGGER_MODE), which etwconf.exe does not set up on a "
                               "live system");
            return false;
        }
        kernel |= kinds[i] == LG_KERNEL;
    }
    if (any && !L.admin) {
        snprintf(why, len, "needs administrator rights to start an ETW session (%s): run etwconf.exe from an elevated command prompt",
                 L.elevated == 0 ? "this process is not elevated" : "this account is not an administrator");
        return false;
    }
    for (int i = 0; i < 2; i++)
        if (kinds[i] == LG_SYSTEM && t->version < ETW_V6_2) {
            snprintf(why, len, "needs a session in system-logger mode (EVENT_TRACE_SYSTEM_LOGGER_MODE), which exists from Windows 8 (6.2)");
            return false;
        }
    if (any && masks_set(c->fx.masks) && t->version < ETW_V6_2) {
        snprintf(why, len, "needs group masks set on its session, which takes TraceSetInformation(TraceSystemTraceEnableFlagsInfo): "
                           "Windows 8 (6.2) and later");
        return false;
    }
    if (kernel) {
        DWORD who = 0;
        int st = kernel_logger_state(&who);
        if (st == 1) {
            snprintf(why, len, "the NT Kernel Logger is already running, started by someone else: the suite never stops or changes a "
                               "session it did not start (stop it yourself to run this case)");
            return false;
        }
        if (st == 3) {
            snprintf(why, len, "the NT Kernel Logger was left running by an earlier etwconf run (pid %lu): 'etwconf.exe cleanup' stops it",
                     (unsigned long)who);
            return false;
        }
    }
    if (c->fx.profile_priv == PRIV_HELD && L.profile_initial < 0) {
        snprintf(why, len, "needs SeSystemProfilePrivilege, which this process's token does not have (run elevated as an administrator)");
        return false;
    }
    if (c->fx.profile_priv && !L.token_adjust && L.profile_initial >= 0) {
        snprintf(why, len, "needs SeSystemProfilePrivilege %s, and this process cannot adjust its token",
                 c->fx.profile_priv == PRIV_HELD ? "enabled" : "disabled");
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- reset and restore */
static void restore_privilege(void)
{
    if (InterlockedExchange(&L.profile_changed, 0) && L.profile_initial >= 0)
        adjust_profile(L.profile_initial == 1);
}

/* before every case: what a crashed or timed-out case left behind goes */
static int live_reset(void)
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
    tpi_restore();
    restore_privilege();
}

/* ---------------------------------------------------------------- fingerprint */
static void utf8(char *out, size_t cap, const WCHAR *w)
{
    if (!WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)cap, NULL, NULL))
        out[0] = 0;
}

static bool reg_string(HKEY k, const WCHAR *name, char *out, size_t cap)
{
    WCHAR w[256];
    DWORD type = 0, sz = sizeof w - sizeof(WCHAR);
    memset(w, 0, sizeof w);
    if (RegQueryValueExW(k, name, NULL, &type, (BYTE *)w, &sz) != ERROR_SUCCESS || (type != REG_SZ && type != REG_EXPAND_SZ))
        return false;
    utf8(out, cap, w);
    return out[0] != 0;
}

static const char *machine_name(USHORT m)
{
    switch (m) {
    case 0x8664: return "x86_64";
    case 0x014c: return "i686";
    case 0xAA64: return "aarch64";
    case 0x01c4: return "arm";
    case 0x0200: return "ia64";
    default: return "unknown";
    }
}

/* the file version of a loaded module, "6.1.7601.23403", from its VS_VERSIONINFO resource (no
 * version.dll: FindResource on the mapped image works on every version from 5.2 on); false if none */
static bool module_file_version(HMODULE h, char *buf, size_t len)
{
    HRSRC r = h ? FindResourceW(h, MAKEINTRESOURCEW(1), MAKEINTRESOURCEW(16) /* RT_VERSION */) : NULL;
    HGLOBAL g = r ? LoadResource(h, r) : NULL;
    const BYTE *p = g ? (const BYTE *)LockResource(g) : NULL;
    DWORD n = r ? SizeofResource(h, r) : 0;
    /* VS_FIXEDFILEINFO follows the "VS_VERSION_INFO" key, 32-bit aligned: find its signature */
    for (DWORD o = 0; p && o + 16 <= n && o < 256; o += 4) {
        DWORD w[4];
        memcpy(w, p + o, sizeof w);
        if (w[0] == 0xFEEF04BDu) {
            snprintf(buf, len, "%lu.%lu.%lu.%lu", (unsigned long)(w[2] >> 16), (unsigned long)(w[2] & 0xFFFF),
                     (unsigned long)(w[3] >> 16), (unsigned long)(w[3] & 0xFFFF));
            return true;
        }
    }
    return false;
}

static void live_fingerprint(struct etw_target *t, struct etw_json *j)
{
    (void)t;
    char buf[512];
    /* the DLLs the API lives in: a patch changes exports without changing the build */
    etw_json_obj(j, "dll_versions");
    for (size_t i = 0; i < 4 /* advapi32, sechost, kernelbase, ntdll */; i++)
        etw_json_str(j, mod_names[i], module_file_version(L.mods[i], buf, sizeof buf) ? buf : NULL);
    etw_json_end(j);
    snprintf(buf, sizeof buf, "%lu.%lu.%lu", (unsigned long)L.vi.dwMajorVersion, (unsigned long)L.vi.dwMinorVersion,
             (unsigned long)L.vi.dwBuildNumber);
    etw_json_str(j, "rtl_version", buf);
    etw_json_int(j, "major", L.vi.dwMajorVersion);
    etw_json_int(j, "minor", L.vi.dwMinorVersion);
    etw_json_int(j, "build", L.vi.dwBuildNumber);
    HKEY k;
    bool have_key = RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", 0, KEY_QUERY_VALUE, &k) == ERROR_SUCCESS;
    DWORD ubr = 0, type = 0, sz = sizeof ubr;
    if (have_key && RegQueryValueExW(k, L"UBR", NULL, &type, (BYTE *)&ubr, &sz) == ERROR_SUCCESS && type == REG_DWORD)
        etw_json_int(j, "ubr", ubr);
    else
        etw_json_str(j, "ubr", NULL);
    utf8(buf, sizeof buf, L.vi.szCSDVersion);
    etw_json_str(j, "service_pack", buf[0] ? buf : NULL);
    static const char *const ptypes[] = {"unknown", "workstation", "domain_controller", "server"};
    etw_json_str(j, "product_type", ptypes[L.vi.wProductType <= 3 ? L.vi.wProductType : 0]);
    etw_json_str(j, "product_name", have_key && reg_string(k, L"ProductName", buf, sizeof buf) ? buf : NULL);
    etw_json_str(j, "edition", have_key && reg_string(k, L"EditionID", buf, sizeof buf) ? buf : NULL);
    if (have_key && (reg_string(k, L"DisplayVersion", buf, sizeof buf) || reg_string(k, L"ReleaseId", buf, sizeof buf)))
        etw_json_str(j, "display_version", buf);
    if (have_key)
        RegCloseKey(k);
    /* architecture and WOW64 */
    pfn_IsWow64Process2 iw2 = (pfn_IsWow64Process2)(void (*)(void))proc_in(MOD_KERNEL32, "IsWow64Process2");
    USHORT pm = 0, nm = 0;
    if (iw2 && iw2(GetCurrentProcess(), &pm, &nm)) {
        etw_json_str(j, "native_arch", machine_name(nm));
        etw_json_str(j, "process_arch", process_arch());
        etw_json_bool(j, "wow64", pm != 0);
        etw_json_str(j, "wow64_check", "IsWow64Process2");
    } else {
        pfn_IsWow64Process iw = (pfn_IsWow64Process)(void (*)(void))proc_in(MOD_KERNEL32, "IsWow64Process");
        BOOL w = FALSE;
        bool ok = iw && iw(GetCurrentProcess(), &w);
        etw_json_str(j, "native_arch", plat_host_arch());
        etw_json_str(j, "process_arch", process_arch());
        if (ok)
            etw_json_bool(j, "wow64", w != 0);
        else
            etw_json_str(j, "wow64", NULL);
        etw_json_str(j, "wow64_check", ok ? "IsWow64Process+GetNativeSystemInfo" : "none");
    }
    /* rights */
    if (L.elevated >= 0)
        etw_json_bool(j, "elevated", L.elevated == 1);
    else
        etw_json_str(j, "elevated", NULL);
    static const char *const etypes[] = {NULL, "default", "full", "limited"};
    etw_json_str(j, "elevation_type", L.elevation_type >= 1 && L.elevation_type <= 3 ? etypes[L.elevation_type] : NULL);
    etw_json_bool(j, "administrators_member", L.admin_member);
    etw_json_bool(j, "admin", L.admin);
    etw_json_obj(j, "privileges");
    char pb[8192];
    DWORD len = 0;
    if (L.token && GetTokenInformation(L.token, TokenPrivileges, pb, sizeof pb, &len)) {
        TOKEN_PRIVILEGES *tp = (TOKEN_PRIVILEGES *)pb;
        for (DWORD i = 0; i < tp->PrivilegeCount; i++) {
            char name[128];
            DWORD nl = sizeof name;
            if (!LookupPrivilegeNameA(NULL, &tp->Privileges[i].Luid, name, &nl))
                continue;
            /* as the run found it (the suite adjusts SeSystemProfilePrivilege per case and restores it) */
            bool en = (tp->Privileges[i].Attributes & SE_PRIVILEGE_ENABLED) != 0;
            if (!strcmp(name, SE_SYSTEM_PROFILE))
                en = L.profile_initial == 1;
            etw_json_str(j, name, en ? "enabled" : "disabled");
        }
    }
    etw_json_end(j);
    static const char *const kl[] = {"not running", "running (not started by etwconf)", "unknown (no right to query it)"};
    etw_json_str(j, "kernel_logger_at_start", kl[L.kernel_at_start]);
    /* Wine */
    if (L.wine) {
        etw_json_str(j, "wine_version", L.wine_version);
        snprintf(buf, sizeof buf, "%s %s", L.wine_sys ? L.wine_sys : "?", L.wine_release ? L.wine_release : "?");
        etw_json_str(j, "wine_host", buf);
    }
    /* the suite */
    etw_json_str(j, "suite_version", ETWCONF_VERSION);
    char hex[65];
    const wchar_t *exe = win_exe_path();
    etw_json_str(j, "exe_sha256", exe[0] && win_sha256_file(exe, hex) ? hex : NULL);
    const wchar_t *base = wcsrchr(exe, L'\\');
    utf8(buf, sizeof buf, base ? base + 1 : exe);
    etw_json_str(j, "exe_name", buf);
}

/* ---------------------------------------------------------------- opening */
static void open_common(void)
{
    for (size_t i = 0; i < NMODS; i++)
        L.mods[i] = load_system_module(mod_names[i]);
    L.start_trace = (pfn_StartTraceW)(void (*)(void))proc_in(MOD_ADVAPI32, "StartTraceW");
    L.control_trace = (pfn_ControlTraceW)(void (*)(void))proc_in(MOD_ADVAPI32, "ControlTraceW");
    L.query_all = (pfn_QueryAllTracesW)(void (*)(void))proc_in(MOD_ADVAPI32, "QueryAllTracesW");
    detect_version();
    detect_token();
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
    t->arch = process_arch();
    t->sym = live_sym;
    t->proc = live_proc;
    t->emulates = false;
    t->version_label = L.wine ? wine_label(t->version) : NULL;
    t->reset = live_reset;
    t->start_logger = live_start_logger;
    t->stop_logger = live_stop_logger;
    t->missing_logger = live_missing_logger;
    t->set_privilege = live_set_privilege;
    t->fingerprint = live_fingerprint;
    t->can_run = live_can_run;
    int ks = kernel_logger_state(NULL);
    L.kernel_at_start = ks == 1 ? 1 : ks == 4 ? 2 : 0;
    L.tpi_saved = tpi_query(&L.tpi_value);
    L.open = true;
    return t;
}

/* ---------------------------------------------------------------- DLL targets */
static void *dll_sym(struct etw_target *t, const char *name)
{
    return fn_ptr(GetProcAddress((HMODULE)t->handle, name));
}

static void dll_fingerprint(struct etw_target *t, struct etw_json *j)
{
    (void)t;
    char buf[64];
    snprintf(buf, sizeof buf, "%lu.%lu.%lu", (unsigned long)L.vi.dwMajorVersion, (unsigned long)L.vi.dwMinorVersion,
             (unsigned long)L.vi.dwBuildNumber);
    etw_json_str(j, "host_rtl_version", buf);
    if (L.wine)
        etw_json_str(j, "wine_version", L.wine_version);
    etw_json_str(j, "suite_version", ETWCONF_VERSION);
    char hex[65];
    const wchar_t *exe = win_exe_path();
    etw_json_str(j, "exe_sha256", exe[0] && win_sha256_file(exe, hex) ? hex : NULL);
}

struct etw_target *win_dll_target(const char *path, char *err, size_t errlen)
{
    HMODULE h = NULL;
    bool has_dir = strpbrk(path, "\\/") != NULL;
    if (has_dir)
        h = LoadLibraryExA(path, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    else {
        char local[MAX_PATH + 8];
        snprintf(local, sizeof local, ".\\%s", path);
        h = LoadLibraryExA(local, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    }
    if (!h) {
        snprintf(err, errlen,
                 "cannot load target '%s' (error %lu): a target is 'live' (this system, the default) or a DLL exporting the API under "
                 "its Windows names",
                 path, GetLastError());
        return NULL;
    }
    if (!L.open && !L.mods[MOD_NTDLL]) {
        open_common(); /* version and token of the host, for the fingerprint */
    }
    struct etw_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *b1 = strrchr(path, '\\'), *b2 = strrchr(path, '/');
    const char *base = b1 > b2 ? b1 : b2;
    t->spec = path;
    t->impl = "thirdparty";
    t->name = base ? base + 1 : path;
    t->arch = process_arch();
    t->handle = h;
    t->sym = dll_sym;
    etw_target_bind_control(t);
    t->version = ETW_V10_0;
    t->fingerprint = dll_fingerprint;
    return t;
}

/* ---------------------------------------------------------------- cleanup */
static bool process_alive(DWORD pid)
{
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, pid);
    if (!h)
        return GetLastError() == ERROR_ACCESS_DENIED; /* exists, but not ours to open */
    bool alive = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
    CloseHandle(h);
    return alive;
}

/* stop sessions of the suite: of one pid (pid != 0), or of every process that is gone (pid 0;
 * all = also of running ones). Returns the number stopped, -1 if sessions cannot be listed. */
static int stop_suite_sessions(DWORD pid, bool all, bool dry, bool verbose, int *failed)
{
    ULONG n = 0;
    struct props_buf *bs = all_sessions(&n);
    if (!bs)
        return -1;
    int stopped = 0;
    for (ULONG i = 0; i < n; i++) {
        const EVENT_TRACE_PROPERTIES *p = &bs[i].p;
        const WCHAR *name = props_name(p, p->LoggerNameOffset), *file = props_name(p, p->LogFileNameOffset);
        bool kernel = !_wcsicmp(name, KERNEL_LOGGER_W);
        DWORD owner = 0;
        if (!_wcsnicmp(name, WIN_SESSION_PREFIXW, wcslen(WIN_SESSION_PREFIXW)))
            owner = marker_pid(name);
        else if (kernel)
            owner = marker_pid(file);
        if (!owner)
            continue;
        char nm[160], fl[600];
        utf8(nm, sizeof nm, name);
        utf8(fl, sizeof fl, file);
        if (pid ? owner != pid : (!all && owner != GetCurrentProcessId() && process_alive(owner))) {
            if (verbose)
                printf("left alone: %s (etwconf pid %lu is still running; --all stops it too)\n", nm, (unsigned long)owner);
            continue;
        }
        ULONG rc = dry ? 0 : stop_by_name(kernel ? KERNEL_LOGGER_W : name);
        if (verbose)
            printf("%s %s%s%s%s\n", dry ? "would stop:" : rc == ERROR_SUCCESS ? "stopped:" : "could not stop:", nm, kernel ? " (log file " : "",
                   kernel ? fl : "", kernel ? ")" : "");
        if (rc == ERROR_SUCCESS) {
            stopped++;
            if (kernel && !dry)
                DeleteFileW(file);
        } else if (failed) {
            (*failed)++;
            if (verbose)
                printf("  ControlTraceW(STOP) returned %lu%s\n", (unsigned long)rc, rc == ERROR_ACCESS_DENIED ? ": run as administrator" : "");
        }
    }
    free(bs);
    return stopped;
}

int win_stop_sessions_of(DWORD pid, bool verbose)
{
    if (!L.control_trace)
        return 0;
    int r = stop_suite_sessions(pid, false, false, verbose, NULL);
    /* the kernel logger's log files of that process */
    WCHAR tmp[MAX_PATH + 1], pat[MAX_PATH + 64];
    DWORD tl = GetTempPathW(MAX_PATH, tmp);
    if (tl && tl <= MAX_PATH) {
        _snwprintf(pat, sizeof pat / sizeof pat[0] - 1, L"%ls" WIN_SESSION_PREFIXW L"%lu-*-kernel.etl", tmp, (unsigned long)pid);
        pat[sizeof pat / sizeof pat[0] - 1] = 0;
        WIN32_FIND_DATAW fd;
        HANDLE f = FindFirstFileW(pat, &fd);
        if (f != INVALID_HANDLE_VALUE) {
            do {
                WCHAR full[MAX_PATH * 2];
                _snwprintf(full, sizeof full / sizeof full[0] - 1, L"%ls%ls", tmp, fd.cFileName);
                full[sizeof full / sizeof full[0] - 1] = 0;
                DeleteFileW(full);
            } while (FindNextFileW(f, &fd));
            FindClose(f);
        }
    }
    return r < 0 ? 0 : r;
}

int win_cmd_cleanup(int argc, char **argv)
{
    bool all = false, dry = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--dry-run"))
            dry = true;
        else {
            fprintf(stderr, "etwconf.exe cleanup: unknown option '%s' (cleanup [--all] [--dry-run])\n", argv[i]);
            return 2;
        }
    }
    char err[256];
    if (!win_live_target(err, sizeof err))
        return 3;
    int failed = 0;
    int n = stop_suite_sessions(0, all, dry, true, &failed);
    if (n < 0) {
        printf("cleanup: cannot list the ETW sessions (QueryAllTracesW failed): run as administrator\n");
        return 1;
    }
    /* leftover kernel log files nobody holds open (a file in use cannot be deleted) */
    WCHAR tmp[MAX_PATH + 1], pat[MAX_PATH + 64];
    int files = 0;
    DWORD tl = GetTempPathW(MAX_PATH, tmp);
    if (tl && tl <= MAX_PATH) {
        _snwprintf(pat, sizeof pat / sizeof pat[0] - 1, L"%ls" WIN_SESSION_PREFIXW L"*-kernel.etl", tmp);
        pat[sizeof pat / sizeof pat[0] - 1] = 0;
        WIN32_FIND_DATAW fd;
        HANDLE f = FindFirstFileW(pat, &fd);
        if (f != INVALID_HANDLE_VALUE) {
            do {
                DWORD owner = marker_pid(fd.cFileName);
                if (!all && owner && owner != GetCurrentProcessId() && process_alive(owner))
                    continue;
                WCHAR full[MAX_PATH * 2];
                _snwprintf(full, sizeof full / sizeof full[0] - 1, L"%ls%ls", tmp, fd.cFileName);
                full[sizeof full / sizeof full[0] - 1] = 0;
                char nm[600];
                utf8(nm, sizeof nm, full);
                if (dry || DeleteFileW(full)) {
                    printf("%s %s\n", dry ? "would delete:" : "deleted:", nm);
                    files++;
                }
            } while (FindNextFileW(f, &fd));
            FindClose(f);
        }
    }
    printf("cleanup: %d session(s) %s, %d log file(s) %s, %d failure(s)%s\n", n, dry ? "to stop" : "stopped", files,
           dry ? "to delete" : "deleted", failed, n || files || failed ? "" : ": nothing left behind");
    return failed ? 1 : 0;
}
