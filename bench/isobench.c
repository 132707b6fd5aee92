/*
 * bench/isobench.c - the bare price of each isolation mechanism of harness/posix_platform.c, per case:
 *   guard  plat_guarded_call() around an empty case body, as --isolation inproc runs it (sigsetjmp,
 *          two setitimer calls for the timeout), against calling the body directly;
 *   child  fork() a process that exits at once and wait for it: what --isolation child adds per case
 *          (its real cost is higher: the child also writes its result into a pipe).
 *
 *   isobench [ROUNDS] [CALLS]
 *
 * Output, tab-separated: "iso  guard_ns  direct_ns  child_us  rounds" (medians over the rounds).
 */
#include "harness/etwconf.h"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned sink;

static void body(struct etw_ctx *ctx)
{
    (void)ctx;
    sink++;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    int calls = argc > 2 ? atoi(argv[2]) : 20000;
    if (rounds < 1 || rounds > 31 || calls < 1) {
        fprintf(stderr, "usage: isobench [ROUNDS 1..31] [CALLS]\n");
        return 2;
    }
    struct etw_runner r;
    memset(&r, 0, sizeof r);
    r.isolation = ISO_INPROC;
    r.timeout_ms = 5000;
    plat_run_plan(&r); /* an empty in-process plan: turns on the timeout timer, as inproc runs do */
    struct etw_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.r = &r;
    double g[31], d[31], c[31];
    int children = calls / 100 > 20 ? calls / 100 : 20;
    for (int k = 0; k < rounds; k++) {
        char exc[48];
        long off = 0;
        double t0 = now_ns();
        for (int i = 0; i < calls; i++)
            if (plat_guarded_call(&ctx, body, exc, sizeof exc, &off) != 0)
                return 3;
        double t1 = now_ns();
        for (int i = 0; i < calls; i++)
            body(&ctx);
        double t2 = now_ns();
        for (int i = 0; i < children; i++) {
            pid_t p = fork();
            if (p < 0)
                return 3;
            if (p == 0)
                _exit(0);
            waitpid(p, NULL, 0);
        }
        double t3 = now_ns();
        g[k] = (t1 - t0) / calls;
        d[k] = (t2 - t1) / calls;
        c[k] = (t3 - t2) / children / 1000.0;
    }
    printf("iso\t%.0f\t%.1f\t%.1f\t%d\n", median(g, rounds), median(d, rounds), median(c, rounds), rounds);
    return 0;
}
