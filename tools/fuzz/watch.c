/*
 * tools/fuzz/watch.c - the fuzzer's watchdog: a target that hangs ends the run with a finding.
 *
 * The fuzz loop calls both sides in this process (under etw_guarded_call, which catches faults
 * but has no deadline outside a conformance run), so a call that never returns would keep
 * `etwconf fuzz` running forever. The loop runs on one thread; this watchdog on another samples
 * the beat that each call into a side advances. A call that has not returned after the per-call
 * timeout, or a run still going at its end (--seconds plus a grace), is printed as a TIMEOUT
 * disagreement with the call and its replay command, and the process ends at once (exit 1,
 * without running library destructors): a thread blocked in a library cannot be taken back.
 *
 * The watchdog reads the program being run while the fuzz thread is blocked in the target, so
 * nothing it reads is being written.
 */
#include "tools/fuzz/fuzz.h"
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <errno.h>
#include <signal.h>
#include <time.h>
#endif

#define WATCH_TICK_MS 20

static void nap_ms(unsigned ms)
{
#if defined(_WIN32)
    Sleep(ms);
#else
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
#endif
}

struct watch_run {
    void (*loop)(struct fz_watch *w);
    struct fz_watch *w;
    atomic_int done;
};

static void hung(struct fz_watch *w, bool in_call)
{
    const struct fz_prog *p = atomic_load_explicit(&fz.w_progp, memory_order_acquire);
    unsigned long long k = atomic_load_explicit(&fz.w_prog, memory_order_relaxed);
    int call = fz.cur_call, n = atomic_load_explicit(&fz.w_ndis, memory_order_relaxed) + 1;
    const char *who = fz.cur_side == SIDE_T ? "target" : "reference";
    fflush(stdout);
    if (p) {
        fprintf(stdout, "\nDISAGREEMENT %d (seed %llu, program %llu, version %s): TIMEOUT: the %s ", n, (unsigned long long)w->seed,
                k, etw_version_name(p->version), who);
        if (!in_call)
            fprintf(stdout, "was still running the program %.1f s after --seconds ended (the grace is %.1f s)",
                    (plat_now_us() - w->stop_us) / 1e6, (w->end_us - w->stop_us) / 1e6);
        else if (call < 0)
            fprintf(stdout, "hung setting up the fixture (no return after %u ms)", w->timeout_ms);
        else
            fprintf(stdout, "hung at call %d of the program (no return after %u ms)", call + 1, w->timeout_ms);
        if (fz.cur_side == SIDE_O)
            fprintf(stdout, " [a bug of the reference: please report it]");
        fprintf(stdout, "\n");
        if (in_call && call >= 0 && call < p->ncalls) {
            fprintf(stdout, "  call: ");
            fz_describe_call(stdout, &p->calls[call]);
            fprintf(stdout, "\n");
        }
        fprintf(stdout, "  the fuzzer stops here: a thread blocked in the %s cannot be taken back\n", who);
        fprintf(stdout, "  replay: etwconf fuzz --target %s --seed %llu --program %llu --timeout-ms %u\n", w->target,
                (unsigned long long)w->seed, k, w->timeout_ms);
    } else {
        fprintf(stdout, "\nDISAGREEMENT %d: TIMEOUT: the fuzzer did not end within its time and grace, before any program ran\n", n);
    }
    double secs = (plat_now_us() - w->t0_us) / 1e6;
    fprintf(stdout, "\nfuzz: %llu calls in %llu programs, %.1f s, seed %llu: %d disagreement(s); the %s hung\n", fz.calls, fz.programs,
            secs, (unsigned long long)w->seed, n, p ? who : "fuzzer");
    fflush(stdout);
    fflush(stderr);
    _Exit(1);
}

static void noop(struct etw_ctx *ctx)
{
    (void)ctx;
}

/* the loop's thread calls the target: a stack overflow there raises SIGSEGV on a stack that has
 * no room left, and the guarded call's handler (installed SA_ONSTACK) can run only on an alternate
 * signal stack of that thread. A new thread has none (the one the platform sets up belongs to the
 * thread that made the first guarded call), so the loop's thread gets its own. */
#if !defined(_WIN32)
static stack_t old_stack;
#endif

static void alternate_stack(bool on)
{
#if !defined(_WIN32)
    static char stack[64 * 1024]; /* one loop thread at a time */
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
    if (on)
        sigaltstack(&ss, &old_stack);
    else
        sigaltstack(&old_stack, NULL); /* what the thread had (a sanitizer frees its own at the thread's end) */
#else
    (void)on;
#endif
}

static void watch_thread(void *arg, int i)
{
    struct watch_run *r = arg;
    if (i == 0) {
        alternate_stack(true);
        r->loop(r->w);
        alternate_stack(false);
        atomic_store(&r->done, 1);
        return;
    }
    struct fz_watch *w = r->w;
    unsigned long last = atomic_load(&fz.w_beat);
    uint64_t since = plat_now_us();
    for (;;) {
        nap_ms(WATCH_TICK_MS);
        if (atomic_load(&r->done))
            return;
        uint64_t now = plat_now_us();
        unsigned long beat = atomic_load_explicit(&fz.w_beat, memory_order_relaxed);
        bool in_call = atomic_load_explicit(&fz.w_in_call, memory_order_acquire);
        if (beat != last) {
            last = beat;
            since = now;
        }
        if (in_call && w->timeout_ms && now - since >= (uint64_t)w->timeout_ms * 1000u)
            hung(w, true);
        if (w->end_us && now >= w->end_us)
            hung(w, in_call);
    }
}

int fz_watched(void (*loop)(struct fz_watch *w), struct fz_watch *w)
{
    static struct watch_run r;
    r.loop = loop;
    r.w = w;
    atomic_store(&r.done, 0);
    /* the platform sets its fault handling up on the first guarded call: here, once, before the
     * threads start (the loop's thread gets its alternate signal stack in watch_thread) */
    char exc[48];
    long off;
    etw_guarded_call(&fz.ctx, noop, exc, sizeof exc, &off);
    if (!plat_threads(2, watch_thread, &r)) {
        if (atomic_load(&r.done))
            return w->status;
        return -1;
    }
    return w->status;
}
