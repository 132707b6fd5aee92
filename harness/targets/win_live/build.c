/* harness/targets/win_live/build.c - the portable half of the live fixtures (build.h). */
#include "harness/targets/win_live/build.h"
#include "harness/etwconf.h"
#include <string.h>

bool etw_lv_session_plan(unsigned kind, struct etw_lv_session_plan *p)
{
    memset(p, 0, sizeof *p);
    switch (kind) {
    case ETW_LV_KERNEL:
        p->log_file_mode = ETW_LV_FILE_MODE_SEQUENTIAL;
        p->log_file = true;
        p->min_version = ETW_V5_2;
        return true;
    case ETW_LV_PLAIN:
        p->log_file_mode = ETW_LV_REAL_TIME_MODE;
        p->min_version = ETW_V5_2;
        return true;
    case ETW_LV_SYSTEM:
    case ETW_LV_NOACCESS:
        p->log_file_mode = ETW_LV_REAL_TIME_MODE | ETW_LV_SYSTEM_LOGGER_MODE;
        p->deny_enable = kind == ETW_LV_NOACCESS;
        p->min_version = ETW_V6_2;
        return true;
    case ETW_LV_PRIVATE:
        /* in-process private sessions keep their events in memory: real time is not offered to
         * private loggers on the versions the suite covers, buffering mode needs no file */
        p->log_file_mode = ETW_LV_PRIVATE_LOGGER_MODE | ETW_LV_PRIVATE_IN_PROC | ETW_LV_BUFFERING_MODE;
        p->query_by_handle = true;
        p->min_version = ETW_V6_0; /* PRIVATE_IN_PROC */
        return true;
    default:
        return false;
    }
}

void etw_lv_group_enable_params(struct etw_lv_enable_params *p)
{
    memset(p, 0, sizeof *p);
    p->version = ETW_LV_ENABLE_PARAMS_VERSION_2;
    p->enable_property = ETW_LV_PROPERTY_PROVIDER_GROUP;
}

void etw_lv_group_enable_call(struct etw_lv_enable_call *e)
{
    memset(e, 0, sizeof *e);
    e->control_code = ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER;
    e->level = ETW_GROUP_ENABLE_LEVEL;
    e->match_any = ETW_GROUP_ENABLE_KEYWORDS;
    e->timeout_ms = 5000;
}

void etw_lv_provider_enable_call(struct etw_lv_enable_call *e, bool enable)
{
    memset(e, 0, sizeof *e);
    e->control_code = enable ? ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER : ETW_EVENT_CONTROL_CODE_DISABLE_PROVIDER;
    e->level = enable ? ETW_TRACE_LEVEL_VERBOSE : 0;
    e->timeout_ms = 5000;
}

void etw_lv_consumer_plan(struct etw_lv_consumer_plan *p)
{
    memset(p, 0, sizeof *p);
    p->process_trace_mode = ETW_LV_PROCESS_TRACE_MODE_REAL_TIME | ETW_LV_PROCESS_TRACE_MODE_EVENT_RECORD;
    p->deadline_ms = 10000; /* the sessions flush every second (FlushTimer 1) */
    p->write_every_ms = 250;
    p->join_ms = 5000;
    p->event_level = ETW_TRACE_LEVEL_INFORMATION; /* within the consumer's enable (verbose) */
}

bool etw_lv_trace_handle_valid(etw_u64 h)
{
    return h != ~(etw_u64)0 && h != 0xFFFFFFFFull;
}

void etw_lv_deny_enable_call(struct etw_lv_access_call *a)
{
    a->operation = ETW_LV_SECURITY_ADD_DACL;
    a->rights = ETW_LV_TRACELOG_GUID_ENABLE;
    a->allow = false;
}

void etw_lv_session_guid(etw_guid *g, etw_u32 pid, etw_u32 n, etw_u32 tick)
{
    memset(g, 0, sizeof *g);
    g->Data1 = 0xE7C0F0F0u;
    g->Data2 = (etw_u16)(pid >> 16);
    g->Data3 = (etw_u16)pid;
    g->Data4[0] = 0x9a;
    g->Data4[1] = 0x11;
    g->Data4[2] = (etw_u8)(n >> 8);
    g->Data4[3] = (etw_u8)n;
    memcpy(g->Data4 + 4, &tick, 4);
}

bool etw_lv_guid_is_ours(const etw_guid *g, etw_u32 pid)
{
    return g && g->Data1 == 0xE7C0F0F0u && g->Data2 == (etw_u16)(pid >> 16) && g->Data3 == (etw_u16)pid && g->Data4[0] == 0x9a &&
           g->Data4[1] == 0x11;
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
        etw_u16 n = items[i].data_size, total;
        if (!b || n < 3) {
            *why = "the PROV_TRAITS item is shorter than a size and an empty name";
            return NULL;
        }
        memcpy(&total, b, 2);
        if (total != n) {
            *why = "the PROV_TRAITS item's leading size is not the item's DataSize";
            return NULL;
        }
        if (!memchr(b + 2, 0, (size_t)n - 2)) {
            *why = "the PROV_TRAITS item's provider name is not NUL-terminated within it";
            return NULL;
        }
        *size = n;
        *why = NULL;
        return b;
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
