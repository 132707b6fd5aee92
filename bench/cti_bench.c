/*
 * bench/cti_bench.c - the reference's hot path: EtwCreateTraceInstanceId on one class from 1 and
 * 2 threads, against raw atomic increments of one shared counter from the same number of threads.
 *
 *   cti_bench [ROUNDS] [CALLS]
 *   cti_bench selftest      checks the id checker itself: it must flag a duplicate and a zero
 *
 * Each round measures, next to each other: atomic x1, cti x1, atomic x2, cti x2; every loop stores
 * the id into the thread's own array. CALLS (default 8,000,000, split over the threads: long enough
 * for the threads to overlap on a busy machine) per measurement, timed from the threads' release to
 * the last join. After each cti measurement each of 1..CALLS must be there exactly once and every
 * call must have returned ERROR_SUCCESS. Output, tab-separated, one line per thread count:
 *   cti  THREADS  atomic_Mops  cti_Mops  ratio  duplicates  bad_ids  failed_calls  rounds  overlap_pct
 * rates and the per-round ratio cti/atomic are medians over the rounds; overlap_pct is the median
 * share of a cti measurement during which all its threads were making calls at once.
 */
#include "reference/etwref.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXT 2
#define MAXR 31

static _Alignas(64) atomic_uint shared_counter;
static _Alignas(64) atomic_int go;
static _Alignas(64) atomic_int ready;
static etw_handle cls;

struct worker {
    _Alignas(64) pthread_t th;
    int mode; /* 0 atomic, 1 cti */
    size_t n;
    etw_u32 *ids;
    size_t failed;
    double t_start, t_end; /* when this thread started and finished its calls */
};

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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *work(void *p)
{
    struct worker *w = p;
    etw_u32 *ids = w->ids;
    size_t n = w->n, failed = 0;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load_explicit(&go, memory_order_acquire))
        ;
    w->t_start = now_s();
    if (w->mode == 0) {
        for (size_t i = 0; i < n; i++)
            ids[i] = atomic_fetch_add(&shared_counter, 1) + 1;
    } else {
        ETW_EVENT_INSTANCE_INFO info;
        for (size_t i = 0; i < n; i++) {
            if (EtwCreateTraceInstanceId(cls, &info) != ETW_ERROR_SUCCESS)
                failed++;
            ids[i] = info.InstanceId;
        }
    }
    w->failed = failed;
    w->t_end = now_s();
    return NULL;
}

static etw_u32 ETW_WINAPI request_cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    return 0;
}

/* a fresh class (counter at 0) */
static int new_class(void)
{
    static const etw_guid ctl = {0xB0B0B0B0, 0x1, 0x2, {0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA}};
    static const etw_guid c0 = {0xB0B0B0B1, 0x1, 0x2, {0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xA}};
    ETW_TRACE_GUID_REGISTRATION reg = {&c0, NULL};
    etw_tracehandle h = 0;
    EtwRef_Reset();
    if (RegisterTraceGuidsW(request_cb, NULL, &ctl, 1, &reg, NULL, NULL, &h) != ETW_ERROR_SUCCESS || !reg.RegHandle)
        return -1;
    cls = reg.RegHandle;
    return 0;
}

struct check {
    size_t dups, bad, failed;
};
static double last_overlap; /* of the last measurement: the share of its time all threads were running calls */

/* every call succeeded, and every id 1..total is in the threads' arrays exactly once */
static void check_ids(const struct worker *w, int nt, size_t total, unsigned char *seen,
                      struct check *ck)
{
    memset(seen, 0, total + 1);
    for (int t = 0; t < nt; t++) {
        ck->failed += w[t].failed;
        for (size_t i = 0; i < w[t].n; i++) {
            etw_u32 id = w[t].ids[i];
            if (id == 0 || id > total)
                ck->bad++;
            else if (seen[id]++)
                ck->dups++;
        }
    }
}

static int selftest(void)
{
    etw_u32 a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    struct worker w[2] = {{.ids = a, .n = 4}, {.ids = b, .n = 4}};
    unsigned char seen[9];
    struct check ok = {0}, dup = {0}, zero = {0};
    check_ids(w, 2, 8, seen, &ok);
    b[3] = 2; /* a duplicate (and 8 missing) */
    check_ids(w, 2, 8, seen, &dup);
    b[3] = 0;
    check_ids(w, 2, 8, seen, &zero);
    bool pass = ok.dups == 0 && ok.bad == 0 && dup.dups == 1 && zero.bad == 1;
    printf("cti_bench selftest: %s (clean %zu/%zu, duplicate %zu/%zu, zero %zu/%zu dups/bad)\n", pass ? "ok" : "FAILED", ok.dups, ok.bad,
           dup.dups, dup.bad, zero.dups, zero.bad);
    return pass ? 0 : 1;
}

/* one measurement: calls per second */
static double measure(int mode, int nt, size_t calls, etw_u32 **bufs, unsigned char *seen, struct check *ck)
{
    struct worker w[MAXT];
    atomic_store(&go, 0);
    atomic_store(&ready, 0);
    atomic_store(&shared_counter, 0);
    if (mode == 1 && new_class() != 0) {
        fprintf(stderr, "cti_bench: RegisterTraceGuidsW failed\n");
        exit(3);
    }
    for (int t = 0; t < nt; t++) {
        w[t] = (struct worker){.mode = mode, .n = calls / (size_t)nt, .ids = bufs[t]};
        if (pthread_create(&w[t].th, NULL, work, &w[t]) != 0) {
            fprintf(stderr, "cti_bench: pthread_create failed\n");
            exit(3);
        }
    }
    while (atomic_load(&ready) < nt)
        ;
    double t0 = now_s();
    atomic_store_explicit(&go, 1, memory_order_release);
    for (int t = 0; t < nt; t++)
        pthread_join(w[t].th, NULL);
    double dt = now_s() - t0;
    double s0 = w[0].t_start, e0 = w[0].t_end;
    for (int t = 1; t < nt; t++) {
        s0 = w[t].t_start > s0 ? w[t].t_start : s0;
        e0 = w[t].t_end < e0 ? w[t].t_end : e0;
    }
    last_overlap = e0 > s0 && dt > 0 ? (e0 - s0) / dt : 0;
    size_t total = (calls / (size_t)nt) * (size_t)nt;
    if (ck)
        check_ids(w, nt, total, seen, ck);
    return (double)total / dt;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "selftest"))
        return selftest();
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    size_t calls = argc > 2 ? strtoul(argv[2], NULL, 10) : 8000000;
    if (rounds < 1 || rounds > MAXR || calls < 2 || calls > 100000000) {
        fprintf(stderr, "usage: cti_bench [ROUNDS 1..%d] [CALLS 2..100000000]\n", MAXR);
        return 2;
    }
    etw_u32 *bufs[MAXT];
    for (int t = 0; t < MAXT; t++)
        if (!(bufs[t] = calloc(calls, sizeof(etw_u32)))) /* touched once here, not inside the timing */
            return 3;
    unsigned char *seen = malloc(calls + 1);
    if (!seen)
        return 3;
    static const int threads[] = {1, 2};
    double a[2][MAXR], c[2][MAXR], ratio[2][MAXR], ov[2][MAXR];
    struct check ck[2] = {{0}};
    measure(0, 1, calls / 4, bufs, seen, NULL); /* warm-up */
    measure(1, 1, calls / 4, bufs, seen, NULL);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < 2; k++) {
            a[k][r] = measure(0, threads[k], calls, bufs, seen, NULL);
            c[k][r] = measure(1, threads[k], calls, bufs, seen, &ck[k]);
            ov[k][r] = last_overlap;
            ratio[k][r] = c[k][r] / a[k][r];
        }
    for (int k = 0; k < 2; k++)
        printf("cti\t%d\t%.2f\t%.2f\t%.3f\t%zu\t%zu\t%zu\t%d\t%.0f\n", threads[k], median(a[k], rounds) / 1e6, median(c[k], rounds) / 1e6,
               median(ratio[k], rounds), ck[k].dups, ck[k].bad, ck[k].failed, rounds, 100 * median(ov[k], rounds));
    return 0;
}
