/* harness/targets/win_live/dll.c - a DLL that exports the API under its Windows names as a target. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

static void *dll_sym(struct etw_target *t, const char *name)
{
    return fn_ptr(GetProcAddress((HMODULE)t->handle, name));
}

/* ---------------------------------------------------------------- the probe
 * A DLL is loaded in a probe process first (this exe with the hidden command below): a DllMain
 * that ends the process, crashes or never returns stops the run with exit 3 before any result.
 * The probe says "loaded" or "failed" once LoadLibrary returns, then ends without
 * DLL_PROCESS_DETACH; one that ends without saying so (ExitProcess(0) too) did not load it.
 * Workers, started after the probe, do not probe again. */
const char win_probe_command[] = "__probe";

static HMODULE load(const char *path)
{
    return LoadLibraryExA(path, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
}

/* etwconf.exe __probe PATH --chan N */
int win_cmd_probe(int argc, char **argv)
{
    plat_chan chan;
    if (argc != 5 || strcmp(argv[3], "--chan") || !plat_chan_parse(argv[4], &chan)) {
        fprintf(stderr, "etwconf.exe: %s is internal: a run starts it to load a DLL target once before it loads it itself\n",
                win_probe_command);
        return 2;
    }
    char m[32];
    if (load(argv[2]))
        snprintf(m, sizeof m, "loaded\n");
    else
        snprintf(m, sizeof m, "failed %lu\n", (unsigned long)GetLastError());
    plat_chan_write(chan, m, strlen(m));
    plat_exit(0); /* no DLL_PROCESS_DETACH: a DllMain that hangs there is not what the probe asks */
    return 0;
}

/* loading path in a probe process: 1 loaded, 0 not (*code the error), -1 the process ended or
 * hung before LoadLibrary returned (why says how) */
static int probe(const char *path, DWORD *code, char *why, size_t len)
{
    const char *argv[] = {win_probe_command, path, NULL};
    char err[256], how[64], msg[32] = "";
    struct plat_proc *p = plat_proc_start(NULL, NULL, argv, err, sizeof err);
    if (!p)
        return 1; /* no process to probe in: loaded in this one, as before */
    size_t got = 0;
    uint64_t until = plat_now_us() + etw_target_load_ms * 1000ull;
    while (!strchr(msg, '\n') && got + 1 < sizeof msg) {
        uint64_t now = plat_now_us();
        long n = now < until ? plat_proc_read(p, msg + got, sizeof msg - 1 - got, (unsigned)((until - now) / 1000u) + 1) : -1;
        if (n <= 0)
            break; /* ended (0) or out of time (-1) */
        got += (size_t)n;
        msg[got] = 0;
    }
    unsigned long c = 0;
    char nl = 0;
    bool loaded = !strcmp(msg, "loaded\n"), failed = sscanf(msg, "failed %lu%c", &c, &nl) == 2 && nl == '\n';
    bool late = !loaded && !failed && plat_now_us() >= until;
    plat_proc_end(p, how, sizeof how); /* killed when it still runs */
    *code = (DWORD)c;
    if (loaded || failed)
        return loaded ? 1 : 0;
    if (late)
        snprintf(why, len, "its DllMain did not return within %u ms in the process that tried to load it (killed; --load-timeout-ms)",
                 etw_target_load_ms);
    else
        snprintf(why, len, "loading it ended the process that tried (%s) before LoadLibrary returned: its DllMain ended the process or crashed",
                 how);
    return -1;
}

struct etw_target *win_dll_target(const char *path, char *err, size_t errlen)
{
    char local[MAX_PATH + 8], why[300];
    /* a name alone is looked for in the current directory only */
    snprintf(local, sizeof local, "%s%s", strpbrk(path, "\\/") ? "" : ".\\", path);
    DWORD code = 0;
    int probed = win_started_by_runner() ? 1 : probe(local, &code, why, sizeof why);
    if (probed < 0)
        return snprintf(err, errlen, "cannot load target '%s': %s. etwconf.exe did not load it into "
                                     "itself and wrote no results: fix the DLL's DllMain, or test "
                                     "another DLL", path, why), NULL;
    HMODULE h = probed ? load(local) : NULL; /* what failed in the probe is not tried here */
    if (!h) {
        if (probed)
            code = GetLastError();
        if (code == ERROR_DLL_INIT_FAILED || code == ERROR_NOACCESS)
            return snprintf(err, errlen, "cannot load target '%s' (error %lu): its DllMain failed or crashed%s", path,
                            (unsigned long)code, probed ? "" : " (in a probe process: not loaded into etwconf.exe)"), NULL;
        snprintf(err, errlen,
                 "cannot load target '%s' (error %lu): a target is 'live' (this system, the default) or a DLL exporting the API under "
                 "its Windows names",
                 path, (unsigned long)code);
        return NULL;
    }
    if (!L.open && !mod_handles[MOD_NTDLL])
        open_common(); /* version and token of the host, for the fingerprint */
    struct etw_target *t = calloc(1, sizeof *t);
    if (!t)
        return snprintf(err, errlen, "out of memory"), NULL;
    const char *b1 = strrchr(path, '\\'), *b2 = strrchr(path, '/');
    const char *base = b1 > b2 ? b1 : b2;
    *t = (struct etw_target){.spec = path, .impl = "thirdparty", .name = base ? base + 1 : path,
                             .arch = plat_process_arch(), .handle = h, .sym = dll_sym};
    etw_target_bind_control(t);
    t->version = ETW_V10_0;
    t->fingerprint = dll_fingerprint;
    return t;
}
