/* harness/targets/win_live/dll.c - a DLL that exports the API under its Windows names as a target. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

static void *dll_sym(struct etw_target *t, const char *name)
{
    return fn_ptr(GetProcAddress((HMODULE)t->handle, name));
}

/* A DLL is loaded in a probe process first (this exe with the hidden command below): a DllMain
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
    char m[32] = "loaded\n";
    if (!load(argv[2]))
        snprintf(m, sizeof m, "failed %lu\n", (unsigned long)GetLastError());
    plat_chan_write(chan, m, strlen(m));
    plat_exit(0); /* no DLL_PROCESS_DETACH: a DllMain that hangs there is not what the probe asks */
    return 0;
}

struct etw_target *win_dll_target(const char *path, char *err, size_t errlen)
{
    char local[MAX_PATH + 8], why[300], how[64];
    /* a name alone is looked for in the current directory only */
    snprintf(local, sizeof local, "%s%s", strpbrk(path, "\\/") ? "" : ".\\", path);
    const char *argv[] = {win_probe_command, local, NULL};
    unsigned long code = 0;
    bool late = false;
    int probed = win_started_by_runner() ? 1 : etw_target_probe(NULL, NULL, argv, &code, how,
                                                                sizeof how, &late);
    if (probed < 0 && late)
        snprintf(why, sizeof why, "its DllMain did not return within %u ms in the process that "
                 "tried to load it (killed; --load-timeout-ms)", etw_target_load_ms);
    else if (probed < 0)
        snprintf(why, sizeof why, "loading it ended the process that tried (%s) before LoadLibrary "
                 "returned: its DllMain ended the process or crashed", how);
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
        return snprintf(err, errlen, "cannot load target '%s' (error %lu): a target is 'live' "
                        "(this system, the default) or a DLL exporting the API under its "
                        "Windows names", path, (unsigned long)code), NULL;
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
    t->fingerprint = dll_fingerprint;
    return t;
}
