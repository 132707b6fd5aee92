/* harness/targets/target.c - a library's control API (the EtwRef_* functions of reference/etwref.h)
 * bound to the target interface, whose fixture functions also say why they failed (adapters). */
#include "harness/targets/targets.h"
#include <string.h>

unsigned etw_target_load_ms = 10000;

/* EtwRef_StartLogger returns 0 or -1 and has no way to say why: the case says what failed */
static enum etw_fx ref_start_logger(struct etw_target *t, unsigned kind, const etw_u32 masks[8], etw_tracehandle *h, char *why,
                                    size_t len)
{
    if (why && len)
        why[0] = 0;
    return t->ref_start_logger(kind, masks, h) == 0 ? ETW_FX_OK : ETW_FX_BROKEN;
}

static enum etw_fx ref_set_privilege(struct etw_target *t, unsigned privilege, int held, char *why, size_t len)
{
    if (why && len)
        why[0] = 0;
    return t->ref_set_privilege(privilege, held) == 0 ? ETW_FX_OK : ETW_FX_BROKEN;
}

/* a library models no sessions or consumers: EtwRef_EventTraits says what the PROV_TRAITS item of
 * an event the registration writes would hold */
static enum etw_fx ref_event_traits(struct etw_target *t, etw_tracehandle session, const etw_guid *provider, etw_reghandle reg,
                                    etw_u8 *out, etw_u32 cap, etw_u32 *size, const char **absent, char *why, size_t len)
{
    *size = 0;
    *absent = "the registration's events carry no PROV_TRAITS item (EtwRef_EventTraits gave 0 bytes)";
    int rc = t->ref_event_traits(reg, out, cap, size);
    if (rc)
        return snprintf(why, len, "EtwRef_EventTraits returned %d", rc), ETW_FX_BROKEN;
    return ETW_FX_OK;
}

void etw_target_bind_control(struct etw_target *t)
{
#define BIND(field, name) t->field = (__typeof__(t->field))t->sym(t, name)
    BIND(reset, "EtwRef_Reset");
    BIND(set_version, "EtwRef_SetVersion");
    BIND(ref_start_logger, "EtwRef_StartLogger");
    BIND(stop_logger, "EtwRef_StopLogger");
    BIND(missing_logger, "EtwRef_MissingLoggerHandle");
    BIND(ref_set_privilege, "EtwRef_SetPrivilege");
    BIND(fail_alloc, "EtwRef_FailAllocation");
    BIND(set_class_counter, "EtwRef_SetClassCounter");
    BIND(set_class_pid, "EtwRef_SetClassProcessId");
    BIND(restrict_group, "EtwRef_RestrictGroup");
    BIND(enable_group, "EtwRef_EnableGroup");
    BIND(ref_event_traits, "EtwRef_EventTraits");
    t->proc = (void *(*)(const char *, const char *))t->sym(t, "EtwRef_GetProcAddress");
#undef BIND
    t->start_logger = t->ref_start_logger ? ref_start_logger : NULL;
    t->set_privilege = t->ref_set_privilege ? ref_set_privilege : NULL;
    t->event_traits = t->ref_event_traits ? ref_event_traits : NULL;
    t->emulates = t->set_version != NULL;
    t->version = ETW_V10_0;
}

int etw_target_probe(int (*fn)(void *arg, plat_chan chan), void *arg, const char *const *argv,
                     unsigned long *code, char *how, size_t hlen, bool *late)
{
    char err[256], msg[32] = "", nl = 0;
    struct plat_proc *p = plat_proc_start(fn, arg, argv, err, sizeof err);
    if (!p)
        return 1;
    size_t got = 0;
    uint64_t until = plat_now_us() + etw_target_load_ms * 1000ull;
    while (!strchr(msg, '\n') && got + 1 < sizeof msg) {
        uint64_t now = plat_now_us();
        unsigned left = now < until ? (unsigned)((until - now) / 1000u) + 1 : 0;
        long n = left ? plat_proc_read(p, msg + got, sizeof msg - 1 - got, left) : -1;
        if (n <= 0)
            break; /* ended (0) or out of time (-1) */
        got += (size_t)n;
        msg[got] = 0;
    }
    *code = 0;
    bool loaded = !strcmp(msg, "loaded\n");
    bool failed = sscanf(msg, "failed %lu%c", code, &nl) == 2 && nl == '\n';
    *late = !loaded && !failed && plat_now_us() >= until;
    plat_proc_end(p, how, hlen); /* killed when it still runs */
    return loaded ? 1 : failed ? 0 : -1;
}
