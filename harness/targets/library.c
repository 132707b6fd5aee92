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

/* load the library once in a worker process first: a constructor that crashes, exits or hangs
 * ends that process, not the run, and is reported. The worker says so once dlopen returns: a
 * constructor that calls exit(0) ends it with status 0 without a word, and is not a success. */
static int probe_main(void *arg, plat_chan chan)
{
    char e[512];
    const char *m = plat_lib_open(arg, e, sizeof e) ? "loaded\n" : "failed\n"; /* a load error is reported by the real load */
    plat_chan_write(chan, m, strlen(m));
    return 0;
}

static bool probe(const char *path, char *why, size_t len)
{
    char err[256], how[64], buf[16] = "", chunk[256];
    struct plat_proc *p = plat_proc_start(probe_main, (void *)path, NULL, err, sizeof err);
    if (!p)
        return true; /* no worker here: load in process as before */
    uint64_t until = plat_now_us() + (uint64_t)etw_target_load_ms * 1000u;
    size_t got = 0;
    long n;
    while ((n = plat_proc_read(p, chunk, sizeof chunk, 100)) != 0 && plat_now_us() < until) /* to its end */
        if (n > 0 && got + (size_t)n < sizeof buf) {
            memcpy(buf + got, chunk, (size_t)n);
            buf[got += (size_t)n] = 0;
        }
    bool said = !strcmp(buf, "loaded\n") || !strcmp(buf, "failed\n");
    if (plat_proc_end(p, how, sizeof how) && said)
        return true;
    snprintf(why, len, "loading it ended the process that tried (%s) before dlopen returned: its constructor crashed, exited, or ran for "
                       "over %u ms (--load-timeout-ms)", how, etw_target_load_ms);
    return false;
}

struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen)
{
    if (!spec || !strcmp(spec, "reference"))
        return etw_target_reference();
    char path[4096], why[512];
    snprintf(path, sizeof path, "%s%s", strchr(spec, '/') ? "" : "./", spec);
    if (!probe(path, why, sizeof why))
        return snprintf(err, errlen, "cannot load target '%s': %s", spec, why), NULL;
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
    t->version = ETW_V10_0;
    return t;
}
