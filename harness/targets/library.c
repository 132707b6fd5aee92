/* harness/targets/library.c - opening a target on Linux: the built-in reference, or a shared
 * library that exports the API under its Windows names (and, optionally, the EtwRef_* control
 * API). A name without a slash is never looked up in the system's library path. */
#include "harness/targets/targets.h"
#include <stdlib.h>
#include <string.h>

static void *lib_sym(struct etw_target *t, const char *name)
{
    return plat_lib_sym(t->handle, name);
}

/* the library loaded once in a probe process first (etw_target_probe): a constructor that crashes,
 * exits or hangs ends that process, not the run, and is reported; one that calls exit(0) ends it
 * without a word, which is not a success */
static int probe_main(void *arg, plat_chan chan)
{
    char e[512];
    /* a failure: the real load says why */
    const char *m = plat_lib_open(arg, e, sizeof e) ? "loaded\n" : "failed 0\n";
    plat_chan_write(chan, m, strlen(m));
    return 0;
}

struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen)
{
    if (!spec || !strcmp(spec, "reference"))
        return etw_target_reference();
    char path[4096], why[512], how[64];
    unsigned long code;
    bool late;
    snprintf(path, sizeof path, "%s%s", strchr(spec, '/') ? "" : "./", spec);
    if (etw_target_probe(probe_main, path, NULL, &code, how, sizeof how, &late) < 0)
        return snprintf(err, errlen, "cannot load target '%s': loading it ended the process that "
                        "tried (%s) before dlopen returned: its constructor crashed, exited, or "
                        "ran for over %u ms (--load-timeout-ms)", spec, how, etw_target_load_ms),
               NULL;
    void *h = plat_lib_open(path, why, sizeof why);
    if (!h) {
        snprintf(err, errlen, "cannot load target '%s': %s (a target is 'reference' or a shared library built with -shared -fPIC%s)", spec,
                 why, strchr(spec, '/') ? "" : "; a name without a slash is looked for in the current directory only: give ./NAME or a path");
        return NULL;
    }
    /* kept for the life of the process, workers included (LeakSanitizer sees it as reachable) */
    static struct etw_target *opened;
    struct etw_target *t = opened = calloc(1, sizeof *t);
    if (!t)
        return snprintf(err, errlen, "out of memory"), NULL;
    const char *base = strrchr(spec, '/');
    *t = (struct etw_target){.spec = spec, .impl = "thirdparty", .name = base ? base + 1 : spec,
                             .handle = h, .sym = lib_sym};
    etw_target_bind_control(t);
    return t;
}
