/* harness/targets/win_live/target.c - the top of the live target: the live system registered as a
 * target (its hooks are the other files' functions), reset between cases and restored at the end,
 * and opening any Windows target (live.h describes the folder). */
#include "harness/targets/win_live/live.h"
#include <string.h>

static void *live_sym(struct etw_target *t, const char *name)
{
    for (size_t i = 0; i < NMODS; i++) {
        void *p = lb_proc(mod_names[i], name);
        if (p)
            return p;
    }
    return NULL;
}

/* before every case: what a crashed or timed-out case left behind goes */
static int live_reset(void)
{
    stop_all_sessions();
    restore_profile();
    return 0;
}

/* stop every session this process started and still runs; restore what the cases changed.
 * Safe to call more than once and from handlers. */
static void win_restore_all(void)
{
    if (!L.open)
        return;
    live_reset();
    run_dir_remove(); /* after the sessions: their files are closed */
}

/* one run at a time on a system: the cases change system-wide settings (the sampled-profile
 * interval, the NT Kernel Logger), and two runs would restore each other's values wrongly. A
 * named mutex, held until this process ends (an abandoned one, of a killed run, is taken over). */
static bool live_claim(struct etw_target *t, char *why, size_t len)
{
    static HANDLE m;
    if (m)
        return true;
    HANDLE h = CreateMutexW(NULL, FALSE, L"Global\\etwconf-live-run");
    if (!h)
        h = CreateMutexW(NULL, FALSE, L"Local\\etwconf-live-run"); /* no right to a global name */
    if (!h)
        return true; /* no mutex on this system: nothing to coordinate with */
    DWORD w = WaitForSingleObject(h, 0);
    if (w == WAIT_OBJECT_0 || w == WAIT_ABANDONED) {
        m = h;
        return true;
    }
    CloseHandle(h);
    snprintf(why, len, "another etwconf.exe run is testing this system now (the cases change system-wide settings such as the "
                       "sampled-profile interval): run one at a time, after it ends");
    return false;
}

static struct etw_target *win_live_target(char *err, size_t errlen)
{
    if (L.open)
        return &L.t;
    memset(&L, 0, sizeof L);
    open_common();
    if (!lb_bind(err, errlen))
        return NULL;
    struct etw_target *t = &L.t;
    const struct etw_version_info *vi = etw_version_info(t->version);
    const char *impl = lb_twin() ? "twin" : L.wine ? "wine" : "windows";
    *t = (struct etw_target){.spec = "live", .impl = impl, .name = impl,
        .arch = plat_process_arch(),
        .sym = live_sym, .proc = lb_proc, .version = t->version, .build = t->build,
        .version_label = !L.wine ? NULL : vi ? vi->wine : "win10", .reset = live_reset,
        .start_logger = live_start_logger, .stop_logger = live_stop_logger,
        .missing_logger = live_missing_logger, .set_privilege = live_set_privilege,
        .enable_group = live_enable_group, .event_traits = live_event_traits,
        .fingerprint = live_fingerprint, .need = live_need, .worker_died = win_stop_sessions_of,
        .claim = live_claim};
    plat_at_end(win_restore_all); /* also after a fatal exception or a closed console */
    enum etw_lv_kernel_state ks = kernel_logger_state(NULL, NULL);
    L.kernel_at_start = ks == ETW_LV_KL_OTHERS ? 1 : ks == ETW_LV_KL_UNKNOWN ? 2 : 0;
    L.tpi_saved = tpi_query(&L.tpi_value);
    L.open = true;
    return t;
}

struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen)
{
    if (!spec || !strcmp(spec, "live") || !strcmp(spec, "windows") || !strcmp(spec, "wine"))
        return win_live_target(err, errlen);
    if (!strcmp(spec, "reference"))
        return snprintf(err, errlen, "the reference implementation is not part of etwconf.exe: it "
                                     "tests this system (leave out --target, or give --target live) "
                                     "or a DLL that exports the API under its Windows names"), NULL;
    return win_dll_target(spec, err, errlen);
}
