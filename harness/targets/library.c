/* harness/targets/library.c - opening a target on Linux: the built-in reference, or a shared
 * library that exports the API under its Windows names (and, optionally, the EtwRef_* control
 * API). A name without a slash is never looked up in the system's library path. */
#include "harness/etwconf.h"
#include <stdlib.h>
#include <string.h>

static void *lib_sym(struct etw_target *t, const char *name)
{
    return plat_lib_sym(t->handle, name);
}

struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen)
{
    if (!spec || !strcmp(spec, "reference"))
        return etw_target_reference();
    char path[4096], why[512];
    snprintf(path, sizeof path, "%s%s", strchr(spec, '/') ? "" : "./", spec);
    void *h = plat_lib_open(path, why, sizeof why);
    if (!h) {
        snprintf(err, errlen, "cannot load target '%s': %s (a target is 'reference' or a shared library built with -shared -fPIC%s)", spec,
                 why, strchr(spec, '/') ? "" : "; a name without a slash is looked for in the current directory only: give ./NAME or a path");
        return NULL;
    }
    struct etw_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *base = strrchr(spec, '/');
    t->spec = spec;
    t->impl = "thirdparty";
    t->name = base ? base + 1 : spec;
    t->handle = h;
    t->sym = lib_sym;
    etw_target_bind_control(t);
    t->version = ETW_V10_0;
    return t;
}
