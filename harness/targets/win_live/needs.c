/* harness/targets/win_live/needs.c - what a case needs that a live system may not give: admin rights, a free
 * NT Kernel Logger (or none running at all, for a case that expects 0xFFFF to name nothing),
 * system-logger mode, the profile privilege. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

bool live_can_run(struct etw_target *t, const struct etw_case *c, char *why, size_t len)
{
    unsigned kinds[2] = {c->fx.logger, c->fx.logger2};
    bool any = kinds[0] || kinds[1], kernel = false;
    for (int i = 0; i < 2; i++) {
        kernel |= kinds[i] == LG_KERNEL;
    }
    if (any && !L.admin) {
        snprintf(why, len, "needs administrator rights to start an ETW session (%s): run etwconf.exe from an elevated command prompt",
                 L.elevated == 0 ? "this process is not elevated" : "this account is not an administrator");
        return false;
    }
    for (int i = 0; i < 2; i++) {
        struct etw_lv_session_plan plan;
        if (!kinds[i] || !etw_lv_session_plan(kinds[i], &plan) || t->version >= plan.min_version)
            continue;
        if (kinds[i] == LG_PRIVATE)
            snprintf(why, len, "needs a private in-process session (EVENT_TRACE_PRIVATE_IN_PROC), which exists from Windows Vista (6.0)");
        else if (kinds[i] == LG_NOACCESS)
            snprintf(why, len, "needs a session in system-logger mode (EVENT_TRACE_SYSTEM_LOGGER_MODE) without TRACELOG_GUID_ENABLE "
                               "access, and system-logger mode exists from Windows 8 (6.2)");
        else
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
    if (etw_lv_case_wants_kernel_logger_absent(c)) {
        DWORD who = 0;
        int st = kernel_logger_state(&who); /* 0: not running */
        if (st == 1 || st == 4) {
            snprintf(why, len, "needs the NT Kernel Logger not to run (the case names logger id 0xFFFF and expects it missing), "
                               "and someone else's kernel logger is running: the suite never stops a session it did not start");
            return false;
        }
        if (st == 2 || st == 3) {
            snprintf(why, len, "needs the NT Kernel Logger not to run, and an etwconf run's kernel logger is running (pid %lu)%s",
                     (unsigned long)who, st == 3 ? ": 'etwconf.exe cleanup' stops it" : "");
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
