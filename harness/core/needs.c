/*
 * harness/core/needs.c - the prerequisites of a case (harness/case.h ETW_NEED_LIST). A need is met
 * when its portable check holds and the target's need hook does not say otherwise (the live
 * system: harness/targets/win_live/needs.c); the first unmet one gives the SKIP reason.
 */
#include "harness/core/core.h"

#define NEED_INFO_(name, text, reason) {name, #name, text, reason},
const struct etw_need_info etw_need_infos[ETW_NEED_COUNT] = {ETW_NEED_LIST(NEED_INFO_)};

const struct etw_need_info *etw_need_info(unsigned bit)
{
    for (int i = 0; i < ETW_NEED_COUNT; i++)
        if (etw_need_infos[i].bit == bit)
            return &etw_need_infos[i];
    return NULL;
}

bool etw_masks_set(const etw_u32 masks[8])
{
    for (int i = 0; masks && i < 8; i++)
        if (masks[i])
            return true;
    return false;
}

unsigned etw_logger_needs(enum etw_logger_kind kind, const etw_u32 masks[8])
{
    static const unsigned kinds[] = {[LG_KERNEL] = NEED_KERNEL_LOGGER, [LG_SYSTEM] = NEED_SYSTEM_SESSION,
        [LG_PLAIN] = NEED_PLAIN_SESSION, [LG_NOACCESS] = NEED_NOACCESS_SESSION,
        [LG_PRIVATE] = NEED_PRIVATE_SESSION};
    unsigned n = (unsigned)kind < sizeof kinds / sizeof kinds[0] ? kinds[kind] : 0;
    return n && etw_masks_set(masks) ? n | NEED_GROUP_MASKS : n;
}

unsigned etw_fixture_needs(const struct etw_fixture *fx)
{
    unsigned n = etw_logger_needs(fx->logger, fx->masks) | etw_logger_needs(fx->logger2, NULL);
    if (fx->classes && fx->foreign_pid)
        n |= NEED_FOREIGN_REGISTRATION;
    if (fx->classes && fx->set_counter)
        n |= NEED_CLASS_COUNTER;
    if (fx->profile_priv == PRIV_HELD)
        n |= NEED_PROFILE_HELD;
    if (fx->profile_priv == PRIV_NOT_HELD)
        n |= NEED_PROFILE_DROPPED;
    if (fx->fail_alloc)
        n |= NEED_FAULT_INJECTION;
    return n;
}

unsigned etw_case_needs(const struct etw_case *c)
{
    unsigned n = etw_fixture_needs(&c->fx) | c->needs;
    /* the kernel logger named by its id 0xFFFF (the handle, or patched into the input) without the
     * fixture starting one: the case expects no kernel logger to exist */
    if (!(n & NEED_KERNEL_LOGGER) && c->args.handle == H_VALUE && (c->args.value & 0xFFFF) == 0xFFFF)
        n |= NEED_NO_KERNEL_LOGGER;
    return n;
}

static void thread_probe(void *arg, int i)
{
}

/* can this process run a function on several threads at once? (asked once) */
static bool threads_work(void)
{
    static int ok = -1;
    if (ok < 0)
        ok = plat_threads(2, thread_probe, NULL);
    return ok;
}

/* the portable half of a need: what any target must have for it */
static bool need_met(struct etw_target *t, enum etw_need_index i)
{
    switch (i) {
    case ETW_NEED_I_NEED_PRIVATE_SESSION:
    case ETW_NEED_I_NEED_NOACCESS_SESSION:
    case ETW_NEED_I_NEED_SYSTEM_SESSION:
    case ETW_NEED_I_NEED_PLAIN_SESSION:
    case ETW_NEED_I_NEED_KERNEL_LOGGER: return t->start_logger != NULL;
    case ETW_NEED_I_NEED_GROUP_MASKS: return true; /* EtwRef_StartLogger takes them: the session's kind need checks it */
    case ETW_NEED_I_NEED_NO_KERNEL_LOGGER: return true; /* a target's own sessions are gone after reset */
    case ETW_NEED_I_NEED_PROFILE_HELD:
    case ETW_NEED_I_NEED_PROFILE_DROPPED: return t->set_privilege != NULL;
    case ETW_NEED_I_NEED_FOREIGN_REGISTRATION: return t->set_class_pid != NULL;
    case ETW_NEED_I_NEED_CLASS_COUNTER: return t->set_class_counter != NULL;
    case ETW_NEED_I_NEED_FAULT_INJECTION: return t->fail_alloc != NULL;
    case ETW_NEED_I_NEED_RESTRICT_GROUP: return t->restrict_group != NULL;
    case ETW_NEED_I_NEED_ENABLE_GROUP: return t->enable_group != NULL;
    case ETW_NEED_I_NEED_EVENTS: return t->event_traits != NULL;
    case ETW_NEED_I_NEED_REG_ENTRY_HANDLE: return t->sym && t->sym(t, "EtwRef_RegEntryHandle");
    case ETW_NEED_I_NEED_PMC_SOURCES: return true; /* a model lists its own; a live system says (its need hook) */
    case ETW_NEED_I_NEED_THREADS: return threads_work();
    case ETW_NEED_COUNT: break;
    }
    return false;
}

unsigned etw_needs_check(struct etw_target *t, unsigned needs, char *why, size_t len)
{
    if (len)
        why[0] = 0;
    for (int i = 0; i < ETW_NEED_COUNT; i++) {
        const struct etw_need_info *n = &etw_need_infos[i];
        if (!(needs & n->bit))
            continue;
        if (!need_met(t, (enum etw_need_index)i))
            return snprintf(why, len, "%s", n->reason), n->bit;
        if (t->need && !t->need(t, n->bit, why, len)) {
            if (!why[0])
                snprintf(why, len, "%s", n->reason);
            return n->bit;
        }
    }
    return 0;
}
