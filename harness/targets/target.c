/* harness/targets/target.c - binding a target's control API; the built-in reference target. */
#include "harness/etwconf.h"
#include "reference/etwref.h"
#include <string.h>

void etw_target_bind_control(struct etw_target *t)
{
#define BIND(field, name) t->field = (__typeof__(t->field))t->sym(t, name)
    BIND(reset, "EtwRef_Reset");
    BIND(set_version, "EtwRef_SetVersion");
    BIND(start_logger, "EtwRef_StartLogger");
    BIND(stop_logger, "EtwRef_StopLogger");
    BIND(missing_logger, "EtwRef_MissingLoggerHandle");
    BIND(set_privilege, "EtwRef_SetPrivilege");
    BIND(fail_alloc, "EtwRef_FailAllocation");
    BIND(set_class_counter, "EtwRef_SetClassCounter");
    BIND(set_class_pid, "EtwRef_SetClassProcessId");
    BIND(restrict_group, "EtwRef_RestrictGroup");
    BIND(enable_group, "EtwRef_EnableGroup");
    t->proc = (void *(*)(const char *, const char *))t->sym(t, "EtwRef_GetProcAddress");
#undef BIND
    t->emulates = t->set_version != NULL;
}

static void *ref_sym(struct etw_target *t, const char *name)
{
    (void)t;
    return EtwRef_Symbol(name);
}

struct etw_target *etw_target_reference(void)
{
    static struct etw_target t;
    memset(&t, 0, sizeof t);
    t.spec = "reference";
    t.impl = "reference";
    t.name = "reference";
    t.arch = NULL;
    t.sym = ref_sym;
    etw_target_bind_control(&t);
    t.version = ETW_V10_0;
    return &t;
}
