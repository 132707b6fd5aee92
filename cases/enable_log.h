/*
 * cases/enable_log.h - an enable callback that records what a provider registration was told, and
 * the verdict on what it recorded. A case passes etw_enable_log_cb and a struct etw_enable_log to
 * EventRegister; enabling the provider (or a group it is a member of) on a session calls it with
 * IsEnabled 1 and the session's level and keywords. On Windows the call comes from another thread
 * of the process, before EnableTraceEx2 returns when it was given a timeout; the counters are
 * written before the values are read, each once per call.
 * Unit-tested in harness/tests/unit_livefx.c.
 */
#ifndef ETWCONF_CASES_ENABLE_LOG_H
#define ETWCONF_CASES_ENABLE_LOG_H

#include "spec/abi.h"
#include <stdbool.h>
#include <stdio.h>

struct etw_enable_log {
    volatile etw_u32 calls, enables; /* every call; those with IsEnabled = EVENT_CONTROL_CODE_ENABLE_PROVIDER */
    volatile etw_u32 last; /* IsEnabled of the last call */
    volatile etw_u8 level; /* of the last enable */
    volatile etw_u64 any, all;
};

static inline void ETW_WINAPI etw_enable_log_cb(const etw_guid *SourceId, etw_u32 IsEnabled, etw_u8 Level, etw_u64 MatchAnyKeyword,
                                                etw_u64 MatchAllKeyword, void *FilterData, void *CallbackContext)
{
    struct etw_enable_log *l = CallbackContext;
    (void)SourceId, (void)FilterData;
    if (!l)
        return;
    if (IsEnabled == ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
        l->level = Level;
        l->any = MatchAnyKeyword;
        l->all = MatchAllKeyword;
        l->enables++;
    }
    l->last = IsEnabled;
    l->calls++;
}

/* NULL when the log shows what is wanted: enabled (want_enabled) means at least one enable, with
 * the level and MatchAnyKeyword given, and no later disable; not enabled means no enable at all.
 * Otherwise what it shows, in buf. */
static inline const char *etw_enable_log_verdict(const struct etw_enable_log *l, bool want_enabled, etw_u8 level, etw_u64 any, char *buf,
                                                 size_t len)
{
    if (!want_enabled) {
        if (!l->enables)
            return NULL;
        snprintf(buf, len, "enabled %u time(s), the last with level %u and keywords 0x%llx", (unsigned)l->enables, (unsigned)l->level,
                 (unsigned long long)l->any);
        return buf;
    }
    if (!l->enables) {
        if (l->calls)
            snprintf(buf, len, "called %u time(s), never with IsEnabled 1 (the last IsEnabled: %u)", (unsigned)l->calls, (unsigned)l->last);
        else
            snprintf(buf, len, "the enable callback was not called");
        return buf;
    }
    if (l->last != ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER && l->last != 2 /* EVENT_CONTROL_CODE_CAPTURE_STATE */) {
        snprintf(buf, len, "enabled, then called with IsEnabled %u", (unsigned)l->last);
        return buf;
    }
    if (l->level != level || l->any != any) {
        snprintf(buf, len, "enabled with level %u and keywords 0x%llx", (unsigned)l->level, (unsigned long long)l->any);
        return buf;
    }
    return NULL;
}

#endif
