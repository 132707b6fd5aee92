/*
 * bench/isobench.c - the bare price of each isolation mechanism of harness/plat/posix/, per case:
 *   guard  plat_guarded_call() around an empty case body, as --isolation inproc runs it (sigsetjmp,
 *          two setitimer calls for the timeout), against calling the body directly;
 *   child  fork() a process that exits at once and wait for it: what --isolation child adds per case
 *          (its real cost is higher: the child also writes its result into a pipe).
 *
 *   isobench [ROUNDS] [CALLS] [CHILDREN]
 *
 * Output, tab-separated: "iso  guard_ns  direct_ns  child_us  rounds" (medians over the rounds).
 *
 * The same file builds isobench.exe with harness/plat/win/ (mk/bench.mk): there the guard is the
 * Windows one (RtlCaptureContext, the unhandled-exception filter) and a child is CreateProcess of
 * isobench.exe itself with "--noop", waited for: what --isolation child adds per case under Wine.
 */
#include "harness/exec/exec.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/median.h"
#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

static volatile unsigned sink;

static void body(struct etw_ctx *ctx)
{
    (void)ctx;
    sink++;
}

static double now_ns(void)
{
    return (double)plat_now_us() * 1000.0;
}

/* start a process that exits at once and wait for it; false if it could not start */
static bool child_once(const char *self)
{
#if defined(_WIN32)
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "\"%s\" --noop", self);
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    if (!CreateProcessA(self, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi))
        return false;
    WaitForSingleObject(pi.hProcess, INFINITE);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return true;
#else
    (void)self;
    pid_t p = fork();
    if (p < 0)
        return false;
    if (p == 0)
        _exit(0);
    waitpid(p, NULL, 0);
    return true;
#endif
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--noop"))
        return 0;
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    int calls = argc > 2 ? atoi(argv[2]) : 20000;
    int children = argc > 3 ? atoi(argv[3]) : (calls / 100 > 20 ? calls / 100 : 20);
    if (rounds < 1 || rounds > 31 || calls < 1 || children < 1) {
        fprintf(stderr, "usage: isobench [ROUNDS 1..31] [CALLS] [CHILDREN]\n");
        return 2;
    }
#if defined(_WIN32)
    char self[MAX_PATH];
    if (!GetModuleFileNameA(NULL, self, sizeof self))
        return 3;
    char err[512];
    if (!(plat_init(), etw_target_open("live", err, sizeof err))) { /* sets the platform layer up, as etwconf.exe run does */
        fprintf(stderr, "isobench: %s\n", err);
        return 3;
    }
#else
    const char *self = argv[0];
#endif
    struct etw_runner r;
    memset(&r, 0, sizeof r);
    r.isolation = ISO_INPROC;
    r.timeout_ms = 5000;
#if !defined(_WIN32)
    etw_exec_run(&r); /* an empty in-process plan: turns on the timeout timer, as inproc runs do */
#endif
    struct etw_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.r = &r;
    double g[31], d[31], c[31];
    for (int k = 0; k < rounds; k++) {
        char exc[48];
        long off = 0;
        double t0 = now_ns();
        for (int i = 0; i < calls; i++)
            if (etw_guarded_call(&ctx, body, exc, sizeof exc, &off) != 0)
                return 3;
        double t1 = now_ns();
        for (int i = 0; i < calls; i++)
            body(&ctx);
        double t2 = now_ns();
        for (int i = 0; i < children; i++)
            if (!child_once(self))
                return 3;
        double t3 = now_ns();
        g[k] = (t1 - t0) / calls;
        d[k] = (t2 - t1) / calls;
        c[k] = (t3 - t2) / children / 1000.0;
    }
    printf("iso\t%.0f\t%.1f\t%.1f\t%d\n", median(g, rounds), median(d, rounds), median(c, rounds), rounds);
    return 0;
}
