/* harness/targets/win_live/build.c - the portable half of the live fixtures (build.h). */
#include "harness/targets/win_live/build.h"
#include "harness/targets/targets.h"
#include "harness/targets/win_live/names.h"
#include <string.h>

bool etw_lv_session_plan(unsigned kind, struct etw_lv_session_plan *p)
{
    enum { RT = ETW_LV_REAL_TIME_MODE, SYS = ETW_LV_SYSTEM_LOGGER_MODE };
    enum { SEQ = ETW_LV_FILE_MODE_SEQUENTIAL };
    static const struct etw_lv_session_plan plans[] = {
        [ETW_LV_KERNEL] = {SEQ, .log_file = true, .min_version = ETW_V5_2},
        [ETW_LV_PLAIN] = {RT, .min_version = ETW_V5_2},
        [ETW_LV_SYSTEM] = {RT | SYS, .min_version = ETW_V6_2},
        [ETW_LV_NOACCESS] = {RT | SYS, .deny_enable = true, .min_version = ETW_V6_2},
        /* the documented form ("Configuring and Starting a Private Logger Session", "Logging Mode
         * Constants"): PRIVATE_LOGGER_MODE with PRIVATE_IN_PROC, writing a sequential log file;
         * real time is not allowed with it, and no page shows buffering mode with it. Wnode.Guid
         * is a provider GUID this process registered before StartTraceW. */
        [ETW_LV_PRIVATE] = {SEQ | ETW_LV_PRIVATE_LOGGER_MODE | ETW_LV_PRIVATE_IN_PROC,
                            .log_file = true, .query_by_handle = true, .register_guid = true,
                            .min_version = ETW_V6_0 /* PRIVATE_IN_PROC */}};
    bool known = kind < sizeof plans / sizeof plans[0] && plans[kind].log_file_mode;
    *p = known ? plans[kind] : (struct etw_lv_session_plan){0};
    return known;
}

const struct etw_lv_enable_params etw_lv_group_enable_params = {
    .version = ETW_LV_ENABLE_PARAMS_VERSION_2, .enable_property = ETW_LV_PROPERTY_PROVIDER_GROUP};
const struct etw_lv_enable_call etw_lv_group_enable = {
    .control_code = ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER, .level = ETW_GROUP_ENABLE_LEVEL,
    .match_any = ETW_GROUP_ENABLE_KEYWORDS, .timeout_ms = 5000};
const struct etw_lv_enable_call etw_lv_provider_enable[2] = {
    {.control_code = ETW_EVENT_CONTROL_CODE_DISABLE_PROVIDER, .timeout_ms = 5000},
    {.control_code = ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER, .level = ETW_TRACE_LEVEL_VERBOSE,
     .timeout_ms = 5000}};
/* the sessions flush every second (FlushTimer 1); the event's level is within the enable's */
const struct etw_lv_consumer_plan etw_lv_consumer = {
    .process_trace_mode =
        ETW_LV_PROCESS_TRACE_MODE_REAL_TIME | ETW_LV_PROCESS_TRACE_MODE_EVENT_RECORD,
    .deadline_ms = 10000, .write_every_ms = 250, .join_ms = 5000,
    .event_level = ETW_TRACE_LEVEL_INFORMATION};

bool etw_lv_trace_handle_valid(etw_u64 h)
{
    return h != ~(etw_u64)0 && h != 0xFFFFFFFFull;
}

const struct etw_lv_access_call etw_lv_deny_enable = {.operation = ETW_LV_SECURITY_ADD_DACL,
                                                     .rights = ETW_LV_TRACELOG_GUID_ENABLE};

void etw_lv_session_guid(etw_guid *g, etw_u32 pid, etw_u32 n, etw_u32 tick)
{
    *g = (etw_guid){0xE7C0F0F0u, (etw_u16)(pid >> 16), (etw_u16)pid,
                    {0x9a, 0x11, (etw_u8)(n >> 8), (etw_u8)n}};
    memcpy(g->Data4 + 4, &tick, 4);
}

bool etw_lv_guid_is_ours(const etw_guid *g, etw_u32 pid)
{
    return pid && etw_lv_guid_pid(g) == pid;
}

const etw_u8 *etw_lv_find_traits(const struct etw_lv_ext_item *items, etw_u32 count, const void *(*data)(etw_u64 ptr),
                                 etw_u32 *size, const char **why)
{
    *size = 0;
    *why = "the event carries no EVENT_HEADER_EXT_TYPE_PROV_TRAITS item";
    for (etw_u32 i = 0; items && i < count; i++) {
        if (items[i].ext_type != ETW_LV_EXT_TYPE_PROV_TRAITS)
            continue;
        const etw_u8 *b = data ? data(items[i].data_ptr) : NULL;
        etw_u16 n = items[i].data_size, total = 0;
        if (b && n >= 3)
            memcpy(&total, b, 2);
        *why = !b || n < 3 ? "the PROV_TRAITS item is shorter than a size and an empty name"
               : total != n ? "the PROV_TRAITS item's leading size is not the item's DataSize"
               : !memchr(b + 2, 0, (size_t)n - 2)
                   ? "the PROV_TRAITS item's provider name is not NUL-terminated within it"
                   : NULL;
        *size = *why ? 0 : n;
        return *why ? NULL : b;
    }
    return NULL;
}

enum etw_lv_event etw_lv_event_traits(const etw_guid *from, const etw_guid *want, const struct etw_lv_ext_item *items, etw_u32 count,
                                      const void *(*data)(etw_u64 ptr), etw_u8 *out, etw_u32 cap, etw_u32 *size, const char **why)
{
    *size = 0;
    *why = NULL;
    if (!from || !want || memcmp(from, want, sizeof *want))
        return ETW_LV_EV_OTHER;
    etw_u32 n = 0;
    const etw_u8 *b = etw_lv_find_traits(items, count, data, &n, why);
    if (!b)
        return ETW_LV_EV_NO_TRAITS;
    if (n > cap) {
        *why = "the PROV_TRAITS item is larger than the consumer's buffer";
        return ETW_LV_EV_NO_TRAITS;
    }
    memcpy(out, b, n);
    *size = n;
    return ETW_LV_EV_TRAITS;
}

/* ---------------------------------------------------------------- what is ours: by identity */
bool etw_lv_same_file(const struct etw_lv_file_id *a, const struct etw_lv_file_id *b)
{
    return a && b && a->volume == b->volume && a->index_hi == b->index_hi && a->index_lo == b->index_lo;
}

etw_u32 etw_lv_logger_id(etw_u64 handle)
{
    return (etw_u32)(handle & 0xFFFFu);
}

static bool join(wchar_t *out, size_t cap, const wchar_t *head, const wchar_t *tail)
{
    size_t h = wcslen(head), t = wcslen(tail);
    if (!t || h + t + 1 > cap)
        return false;
    memcpy(out, head, h * sizeof *out);
    memcpy(out + h, tail, (t + 1) * sizeof *out);
    return true;
}

bool etw_lv_openable_path(const wchar_t *reported, wchar_t *out, size_t cap)
{
    const wchar_t *rest = reported;
    if (!reported || !reported[0] || !out || !cap)
        return false;
    if (etw_live_prefix(&rest, L"\\??\\") || etw_live_prefix(&rest, L"\\DosDevices\\"))
        return join(out, cap, L"\\\\?\\", rest);
    if (etw_live_prefix(&rest, L"\\Device\\"))
        return join(out, cap, L"\\\\?\\GLOBALROOT", reported);
    bool drive = ((reported[0] | 32) >= L'a' && (reported[0] | 32) <= L'z') && reported[1] == L':' && (reported[2] == L'\\' || reported[2] == L'/');
    bool unc = reported[0] == L'\\' && reported[1] == L'\\'; /* "\\?\", "\\.\", "\\server\share" */
    return (drive || unc) && join(out, cap, L"", reported);
}

enum etw_lv_owner etw_lv_session_owner(const struct etw_lv_seen *s, const char **why)
{
    bool ids = s->id_started && s->id_seen;
    if (!s->described)
        return *why = "no session answers the query", ETW_LV_GONE;
    if (s->in_process && s->file != ETW_LV_FILE_OTHER)
        return *why = "the private session of this process that its handle names", ETW_LV_OURS;
    switch (s->file) {
    case ETW_LV_FILE_SAME:
        /* the file was created new in the process's private directory: only its session writes it */
        return *why = "it writes to the log file the suite created", ETW_LV_OURS;
    case ETW_LV_FILE_OTHER: return *why = "it writes to another log file", ETW_LV_NOT_OURS;
    case ETW_LV_FILE_UNKNOWN:
        if (ids && s->id_seen == s->id_started)
            return *why = "its logger id is the one StartTraceW returned (its log file could not be opened)", ETW_LV_OURS;
        if (ids)
            return *why = "its logger id is not the one StartTraceW returned", ETW_LV_NOT_OURS;
        return *why = "neither its log file nor its logger id could be read", ETW_LV_UNSURE;
    case ETW_LV_FILE_NONE:
    default:
        if (ids && s->id_seen != s->id_started)
            return *why = "its logger id is not the one StartTraceW returned", ETW_LV_NOT_OURS;
        return *why = "the session of that name and logger id", ETW_LV_OURS;
    }
}

/* ---------------------------------------------------------------- the no-access fixture */
bool etw_lv_dacl_denies(bool present, const struct etw_lv_ace *aces, int n, etw_u32 rights, int *deny_at, int *allow_at)
{
    *deny_at = *allow_at = -1;
    if (!present)
        return false; /* a NULL DACL grants every access */
    etw_u32 granted = 0;
    for (int i = 0; i < n && (granted & rights) != rights; i++) {
        const struct etw_lv_ace *a = &aces[i];
        if (!a->applies || a->inherit_only || !(a->mask & rights))
            continue;
        if (a->type == ETW_LV_ACE_DENY && (a->mask & rights & ~granted)) {
            *deny_at = i;
            return true;
        }
        if (a->type == ETW_LV_ACE_ALLOW) {
            if (*allow_at < 0)
                *allow_at = i;
            granted |= a->mask & rights;
        }
    }
    /* granted in full before any deny entry, or never granted: an empty grant denies too (implicitly) */
    return (granted & rights) != rights;
}

/* timeout 0, asynchronous: the answer is the access check, no provider is waited for */
const struct etw_lv_enable_call etw_lv_trial_enable[2] = {
    {.control_code = ETW_EVENT_CONTROL_CODE_DISABLE_PROVIDER},
    {.control_code = ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER, .level = ETW_TRACE_LEVEL_INFORMATION}};

bool etw_lv_trial_refused(etw_u32 rc, const char **why)
{
    bool refused = rc == 5u; /* ERROR_ACCESS_DENIED */
    *why = refused ? NULL
           : rc == 0 ? "the trial call that needs TRACELOG_GUID_ENABLE was accepted: the deny "
                       "entry has no effect"
                     : "the trial call that needs TRACELOG_GUID_ENABLE failed with another error "
                       "than ERROR_ACCESS_DENIED";
    return refused;
}

static int hexval(wchar_t c)
{
    if (c >= L'0' && c <= L'9')
        return c - L'0';
    c = (wchar_t)(c | 32);
    return c >= L'a' && c <= L'f' ? c - L'a' + 10 : -1;
}

bool etw_lv_parse_guid_name(const wchar_t *name, etw_guid *g)
{
    /* groups of 8-4-4-4-12 hex digits */
    static const int group[5] = {8, 4, 4, 4, 12};
    etw_u8 b[16];
    int nb = 0;
    const wchar_t *p = name;
    if (!p)
        return false;
    for (int k = 0; k < 5; k++) {
        if (k && *p++ != L'-')
            return false;
        for (int i = 0; i < group[k]; i += 2) {
            int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
            if (lo < 0)
                return false;
            b[nb++] = (etw_u8)(hi << 4 | lo);
            p += 2;
        }
    }
    if (*p)
        return false;
    memset(g, 0, sizeof *g);
    g->Data1 = (etw_u32)b[0] << 24 | (etw_u32)b[1] << 16 | (etw_u32)b[2] << 8 | b[3];
    g->Data2 = (etw_u16)(b[4] << 8 | b[5]);
    g->Data3 = (etw_u16)(b[6] << 8 | b[7]);
    memcpy(g->Data4, b + 8, 8);
    return true;
}

etw_u32 etw_lv_guid_pid(const etw_guid *g)
{
    if (!g || g->Data1 != 0xE7C0F0F0u || g->Data4[0] != 0x9a || g->Data4[1] != 0x11)
        return 0;
    return (etw_u32)g->Data2 << 16 | g->Data3;
}

int etw_lv_pmc_sources(const etw_u8 *buf, etw_u32 len)
{
    if (!buf || len < 8 + 0x1A)
        return -1;
    int n = 0;
    for (etw_u32 off = 8, k = 0; k < 256; k++) {
        etw_u32 next, source;
        if (len - off < 0x1A) /* a record holds at least its header and one character */
            return -1;
        memcpy(&next, buf + off, 4);
        memcpy(&source, buf + off + 4, 4);
        if (source != 0)
            n++;
        if (!next)
            return n;
        if (next < 0x1A || next > len - off)
            return -1;
        off += next;
    }
    return -1;
}

unsigned etw_lv_longest_fixture_wait_ms(void)
{
    const struct etw_lv_consumer_plan *c = &etw_lv_consumer;
    unsigned consumer = etw_lv_provider_enable[1].timeout_ms + c->deadline_ms + c->write_every_ms +
                        etw_lv_provider_enable[0].timeout_ms + c->join_ms;
    unsigned groups = etw_lv_group_enable.timeout_ms + ETW_LV_GROUP_SETTLE_MS;
    return consumer > groups ? consumer : groups;
}
