/*
 * harness/targets/win_live/needs.h - the live system's answers to a case's needs (harness/case.h
 * ETW_NEED_LIST), decided from a description of the system that needs.c fills: portable, so
 * harness/tests/unit_needs.c checks every answer on Linux.
 */
#ifndef ETWCONF_WIN_LIVE_NEEDS_H
#define ETWCONF_WIN_LIVE_NEEDS_H

#include <stdbool.h>
#include <stddef.h>

/* the NT Kernel Logger's state (sessions.c kernel_logger_state) */
enum etw_lv_kernel_state {
    ETW_LV_KL_NONE = 0, /* not running (or not really: Wine) */
    ETW_LV_KL_OTHERS = 1, /* someone else's */
    ETW_LV_KL_OURS = 2, /* this process's (a leftover the next reset stops) */
    ETW_LV_KL_EARLIER = 3, /* left by another etwconf process (its pid in *who) */
    ETW_LV_KL_UNKNOWN = 4, /* cannot tell (no right to query) */
};

struct etw_lv_system {
    unsigned version; /* ETW_V*: the NT version the system reports */
    bool admin; /* the token can start sessions */
    int elevated; /* 1, 0, -1 unknown (before 6.0) */
    int elevation_type; /* TokenElevationType: 1 default, 2 full, 3 limited; 0 unknown */
    int profile_initial; /* SeSystemProfilePrivilege in the token: -1 absent, 0 disabled, 1 enabled */
    bool token_adjust; /* the token was opened with TOKEN_ADJUST_PRIVILEGES */
    /* the NT Kernel Logger's state now, asked only for the needs that depend on it */
    enum etw_lv_kernel_state (*kernel_state)(void *arg, unsigned long *who);
    /* the profile sources the kernel lists besides the timer (etw_lv_pmc_sources), -1 when they
     * cannot be listed (*status: the NTSTATUS of the query, or -1 when it was made and malformed) */
    int (*pmc_sources)(void *arg, long *status);
    void *arg;
};

/* does the system meet need (one bit of enum etw_need)? false with why filled (the SKIP reason)
 * when it does not; needs it has nothing to say about are met */
bool etw_lv_need(const struct etw_lv_system *s, unsigned need, char *why, size_t len);

#endif
