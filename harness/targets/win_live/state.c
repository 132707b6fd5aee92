/* harness/targets/win_live/state.c - the live target's shared state (struct live): what opening
 * the system finds, and what a case changes (the profile privilege and interval) restored. */
#include "harness/targets/win_live/live.h"
#include <string.h>

struct live win_live;

static void detect_version(void)
{
    L.vi = (OSVERSIONINFOEXW){.dwOSVersionInfoSize = sizeof L.vi};
    if (RtlGetVersion(&L.vi) != 0) {
        /* RtlGetVersion is in every ntdll from 5.0; this is only a fallback */
        L.vi.dwOSVersionInfoSize = sizeof L.vi;
        GetVersionExW((OSVERSIONINFOW *)&L.vi);
    }
    /* the version table's entry named major.minor; else the nearest, 10.0 for 6.4 (early 10
     * builds) and anything newer */
    unsigned long major = L.vi.dwMajorVersion, minor = L.vi.dwMinorVersion;
    const struct etw_version_info *e = etw_version_info((unsigned)(major << 8 | minor));
    L.t.version = e ? e->id : major < 5 || (major == 5 && minor < 2) ? ETW_V5_2 : ETW_V10_0;
    L.t.build = L.vi.dwBuildNumber;
    if (!e)
        fprintf(stderr, "etwconf: this system is NT %lu.%lu; the cases' expectations for %s are "
                "used\n", major, minor, etw_version_name(L.t.version));
    L.wine = LB_HAVE(wine_get_version);
    if (L.wine) {
        L.wine_version = wine_get_version();
        wine_get_host_version(&L.wine_sys, &L.wine_release);
    }
}

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
        L.admin_member = CheckTokenMembership(NULL, admins, &member) && member;
        FreeSid(admins);
    }
    /* from 6.0 what counts is an elevated token; before, membership of Administrators */
    L.admin = L.elevated >= 0 ? L.elevated == 1 : L.admin_member;
    if (LookupPrivilegeValueA(NULL, SE_SYSTEM_PROFILE, &L.profile_luid)) {
        int st = profile_state();
        L.profile_initial = st >= 0 ? st : -1;
    }
}

static bool adjust_profile(bool enable)
{
    if (!L.token || !L.token_adjust || L.profile_initial < 0)
        return false;
    TOKEN_PRIVILEGES tp = {1, {{L.profile_luid, enable ? SE_PRIVILEGE_ENABLED : 0}}};
    if (!AdjustTokenPrivileges(L.token, FALSE, &tp, 0, NULL, NULL))
        return false;
    return GetLastError() == ERROR_SUCCESS; /* not ERROR_NOT_ALL_ASSIGNED */
}

enum etw_fx live_set_privilege(struct etw_target *t, unsigned privilege, int held, char *why, size_t len)
{
    if (privilege != 1)
        FX_BROKEN("fixture: unknown privilege %u", privilege);
    if (!held && L.profile_initial < 0)
        return ETW_FX_OK; /* not in the token: not held */
    InterlockedExchange(&L.profile_changed, 1);
    if (!adjust_profile(held != 0))
        FX_BROKEN("fixture: AdjustTokenPrivileges could not %s SeSystemProfilePrivilege (error %lu)", held ? "enable" : "disable",
                  GetLastError());
    /* the state the case needs is shown by the token itself, not by the adjusting call's answer */
    int now = profile_state();
    if (now != (held ? 1 : 0) && !(now == -1 && !held))
        FX_BROKEN("fixture: after AdjustTokenPrivileges the token shows SeSystemProfilePrivilege %s, not %s",
                  now == 1 ? "enabled" : now == 0 ? "disabled" : now == -1 ? "absent" : "unreadable", held ? "enabled" : "disabled");
    return ETW_FX_OK;
}

bool tpi_query(etw_u32 *v)
{
    ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation, 0};
    if (NtQuerySystemInformation(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp, NULL) != 0 || !tp.ProfileInterval)
        return false;
    *v = tp.ProfileInterval;
    return true;
}

void restore_profile(void)
{
    etw_u32 now;
    if (L.tpi_saved && tpi_query(&now) && now != L.tpi_value) {
        ETW_EVENT_TRACE_TIME_PROFILE_INFORMATION tp = {ETW_EventTraceTimeProfileInformation,
                                                       L.tpi_value};
        if (adjust_profile(true)) /* setting it needs the privilege */
            InterlockedExchange(&L.profile_changed, 1);
        NtSetSystemInformation(ETW_SystemPerformanceTraceInformation, &tp, sizeof tp);
    }
    if (InterlockedExchange(&L.profile_changed, 0) && L.profile_initial >= 0)
        adjust_profile(L.profile_initial == 1);
}

void open_common(void)
{
    load_modules();
    char err[400];
    if (!lb_bind(err, sizeof err))
        fprintf(stderr, "etwconf: %s\n", err);
    detect_version();
    detect_token();
}

