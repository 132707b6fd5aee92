/* reference/control.c - the control API of reference/etwref.h: reset every module, the emulated
 * version, the privilege, allocation faults, restricted groups. */
#include "reference/internal.h"
#include <stddef.h>

ETWREF_EXPORT int EtwRef_Reset(void)
{
    for (unsigned i = 0; i < REF_MAX_LOGGERS; i++)
        ref_logger_free(&ref.loggers[i]);
    ref_classic_reset();
    ref_providers_reset();
    ref_state_reset();
    ref_profile_reset();
    return 0;
}

/* version: an NT version (ETW_V6_1) with build (0: the entry named by the NT version), or the
 * id of an entry named by its build (ETW_V10_0_26100, ETW_V6_1_7601_ESI: then build is 0 or that
 * entry's build). Any build of a known NT version is taken: the model behaves as the last entry at
 * or before it (ref_at_least_key). */
ETWREF_EXPORT int EtwRef_SetVersion(unsigned version, unsigned build)
{
    static const struct {
        unsigned id, nt, build, update;
    } entries[] = {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) {ETW_##sym, nt, build, update},
#include "spec/versions.def"
#undef VERSION
    };
    for (size_t i = 0; i < REF_COUNT_OF(entries); i++)
        if (entries[i].id == version) {
            if (!ETW_VIS_NT(version) && build && build != entries[i].build)
                return -1;
            ref.version = entries[i].nt;
            ref.build = build ? build : entries[i].build;
            ref.update = ETW_VIS_NT(version) && build ? 0 : entries[i].update;
            return 0;
        }
    return -1;
}

ETWREF_EXPORT unsigned EtwRef_GetVersion(void)
{
    return ref.version;
}

ETWREF_EXPORT int EtwRef_SetPrivilege(unsigned privilege, int held)
{
    if (privilege != ETWREF_PRIV_SYSTEM_PROFILE)
        return -1;
    ref.profile_privilege = held != 0;
    return 0;
}

ETWREF_EXPORT int EtwRef_FailAllocation(unsigned nth)
{
    ref.fail_alloc_countdown = nth;
    return 0;
}

ETWREF_EXPORT int EtwRef_RestrictGroup(const etw_guid *group)
{
    if (!group || ref.nrestricted >= REF_MAX_GROUPS)
        return -1;
    ref.restricted_groups[ref.nrestricted++] = *group;
    return 0;
}
