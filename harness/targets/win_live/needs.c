/* harness/targets/win_live/needs.c - what a case needs that a live system may not give (needs.h):
 * portable decisions, and the target's need hook at the end that describes this system to them. */
#include "harness/targets/win_live/needs.h"
#include "harness/targets/targets.h"
#include "harness/targets/win_live/build.h"
#include <stdio.h>
#include <string.h>

/* the needs that start a session */
#define SESSION_NEEDS                                                                                                                  \
    (NEED_PRIVATE_SESSION | NEED_NOACCESS_SESSION | NEED_SYSTEM_SESSION | NEED_PLAIN_SESSION | NEED_KERNEL_LOGGER | NEED_GROUP_MASKS)

/* in etw_lv_need: say why the need is not met and return false */
#define NO(...) return (snprintf(why, len, __VA_ARGS__), false)

/* the session kind a need starts (harness/case.h LG_*), 0 for the others */
static unsigned kind_of(unsigned need)
{
    for (unsigned k = LG_KERNEL; k <= LG_PRIVATE; k++)
        if (etw_logger_needs((enum etw_logger_kind)k, NULL) == need)
            return k;
    return 0;
}

bool etw_lv_need(const struct etw_lv_system *s, unsigned need, char *why, size_t len)
{
    if ((need & SESSION_NEEDS) && !s->admin) {
        /* the token's elevation type tells a limited token of an administrator (UAC, or a Wine that
         * starts programs with one) from an account that has no full token */
        static const char *const etypes[] = {"", ", its token's elevation type is default", ", its token's elevation type is full",
                                             ", its token's elevation type is limited"};
        NO("needs administrator rights to start an ETW session (%s%s): run etwconf.exe from an elevated command prompt",
           s->elevated == 0 ? "this process is not elevated" : "this account is not an administrator",
           s->elevation_type >= 1 && s->elevation_type <= 3 ? etypes[s->elevation_type] : "");
    }
    /* a session kind: one the live target starts (build.c's session plans), on a version that has it */
    struct etw_lv_session_plan plan;
    unsigned kind = kind_of(need);
    if (kind && !etw_lv_session_plan(kind, &plan))
        NO("needs a %s, which etwconf.exe does not set up on a live system",
           etw_logger_kind_title((enum etw_logger_kind)kind));
    if (kind && s->version < plan.min_version) {
        static const char *const since[] = {
            [LG_PRIVATE] = "a private in-process session (EVENT_TRACE_PRIVATE_IN_PROC), which "
                           "exists from Windows Vista (6.0)",
            [LG_NOACCESS] = "a session in system-logger mode (EVENT_TRACE_SYSTEM_LOGGER_MODE) "
                            "without TRACELOG_GUID_ENABLE access, and system-logger mode exists "
                            "from Windows 8 (6.2)",
            [LG_SYSTEM] = "a session in system-logger mode (EVENT_TRACE_SYSTEM_LOGGER_MODE), which "
                          "exists from Windows 8 (6.2)",
            [LG_KERNEL] = "the NT Kernel Logger, which this version does not have"};
        if (kind != LG_PLAIN)
            NO("needs %s", since[kind]);
        NO("needs a %s, which exists from Windows %s",
           etw_logger_kind_title((enum etw_logger_kind)kind),
           etw_version_name(plan.min_version));
    }
    unsigned long who = 0;
    switch (need) {
    case NEED_GROUP_MASKS:
        if (s->version < ETW_V6_2)
            NO("%s", etw_need_info(NEED_GROUP_MASKS)->reason);
        return true;
    case NEED_KERNEL_LOGGER:
        switch (s->kernel_state(s->arg, &who)) {
        case ETW_LV_KL_OTHERS:
            NO("the NT Kernel Logger is already running, started by someone else: the suite never stops or changes a "
               "session it did not start (stop it yourself to run this case)");
        case ETW_LV_KL_EARLIER:
            NO("the NT Kernel Logger was left running by an earlier etwconf run (pid %lu): 'etwconf.exe cleanup' stops it",
               who);
        default: return true;
        }
    case NEED_NO_KERNEL_LOGGER: {
        enum etw_lv_kernel_state ks = s->kernel_state(s->arg, &who);
        if (ks == ETW_LV_KL_OTHERS || ks == ETW_LV_KL_UNKNOWN)
            NO("needs the NT Kernel Logger not to run (the case names logger id 0xFFFF and expects it missing), "
               "and someone else's kernel logger is running: the suite never stops a session it did not start");
        if (ks == ETW_LV_KL_OURS || ks == ETW_LV_KL_EARLIER)
            NO("needs the NT Kernel Logger not to run, and an etwconf run's kernel logger is running (pid %lu)%s", who,
               ks == ETW_LV_KL_EARLIER ? ": 'etwconf.exe cleanup' stops it" : "");
        return true;
    }
    case NEED_PROFILE_HELD:
        if (s->profile_initial < 0)
            NO("needs SeSystemProfilePrivilege, which this process's token does not have (run elevated as an administrator)");
        if (!s->token_adjust)
            NO("needs SeSystemProfilePrivilege enabled, and this process cannot adjust its token");
        return true;
    case NEED_PMC_SOURCES: {
        /* a Hyper-V guest exposes no hardware counter (BenchmarkDotNet's validators blame missing
         * PMC names on "Windows 8+ without Hyper-V"; xunit-performance: the PMC metric "only works
         * with Hyper-V disabled"), and the hosted runners are Hyper-V guests */
        long st = 0;
        int n = s->pmc_sources ? s->pmc_sources(s->arg, &st) : -1;
        if (n < 0)
            NO("needs a profile source besides the timer, and the system's list of profile sources could not be read "
               "(NtQuerySystemInformation, EventTraceProfileSourceListInformation: %s 0x%08lX)",
               st == -1 ? "a malformed list," : "status", (unsigned long)st);
        if (n == 0)
            NO("needs a profile source besides the timer, and this system lists none (no hardware counters are exposed: "
               "a Hyper-V guest, such as a hosted CI runner, lists none)");
        return true;
    }
    case NEED_PROFILE_DROPPED:
        if (!s->token_adjust && s->profile_initial >= 0)
            NO("needs SeSystemProfilePrivilege disabled, and this process cannot adjust its token");
        return true;
    default: return true;
    }
}

#if defined(_WIN32)
#include "harness/targets/win_live/live.h"

static int pmc_sources(void *arg, long *status)
{
    static etw_u8 buf[0x4000];
    memset(buf, 0, sizeof buf);
    etw_u32 cls = ETW_EventTraceProfileSourceListInformation;
    ULONG got = 0;
    memcpy(buf, &cls, 4);
    long st = (long)NtQuerySystemInformation(ETW_SystemPerformanceTraceInformation, buf, sizeof buf, &got);
    *status = st;
    if (st != 0)
        return -1;
    int n = etw_lv_pmc_sources(buf, got && got <= sizeof buf ? (etw_u32)got : (etw_u32)sizeof buf);
    if (n < 0)
        *status = -1;
    return n;
}

bool live_need(struct etw_target *t, unsigned need, char *why, size_t len)
{
    const struct etw_lv_system s = {.version = t->version, .admin = L.admin, .elevated = L.elevated,
                                    .elevation_type = L.elevation_type,
                                    .profile_initial = L.profile_initial,
                                    .token_adjust = L.token_adjust,
                                    .kernel_state = kernel_logger_state,
                                    .pmc_sources = pmc_sources};
    return etw_lv_need(&s, need, why, len);
}
#endif
