/* harness/targets/reference.c - the built-in reference target (libetwref.a, linked into the Linux
 * build only: etwconf.exe tests the system it runs on or a DLL). */
#include "harness/targets/targets.h"
#include "reference/etwref.h"

static void *ref_sym(struct etw_target *t, const char *name)
{
    return EtwRef_Symbol(name);
}

struct etw_target *etw_target_reference(void)
{
    static struct etw_target t;
    t = (struct etw_target){.spec = "reference", .impl = "reference", .name = "reference",
                            .sym = ref_sym};
    etw_target_bind_control(&t);
    return &t;
}
