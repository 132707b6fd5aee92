/*
 * harness/tests/tsan_cti.c - ThreadSanitizer test of the reference's instance ids (make sanitize).
 *
 * Several threads create instance ids on the same class at once, through both exports, with the
 * counter started just below the wrap, while other threads create ids on a second class and use
 * the thread's last error. ThreadSanitizer reports any data race (and the run then exits 66);
 * the test itself checks that no id was given twice, none was lost, zero never came out, and
 * each class counted on its own. Last line: "tsan: N passed, N failed".
 */
#include "reference/etwref.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 6
#define PER 20000
#define START (0xFFFFFFFFu - (THREADS * PER) / 2) /* the wrap happens in the middle of the run */

static const etw_guid ctl = {0xF022E000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
static const etw_guid g0 = {0xF022E001, 1, 2, {0}}, g1 = {0xF022E002, 1, 2, {0}};
static ETW_TRACE_GUID_REGISTRATION regs[2] = {{&g0, NULL}, {&g1, NULL}};
static etw_u32 ids[THREADS][PER];
static _Atomic etw_u32 other_failures;

static etw_u32 ETW_WINAPI cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    return 0;
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int i = 0; i < PER; i++) {
        ETW_EVENT_INSTANCE_INFO info;
        etw_u32 rc = (i & 1) ? CreateTraceInstanceId(regs[0].RegHandle, &info) : EtwCreateTraceInstanceId(regs[0].RegHandle, &info);
        ids[t][i] = rc ? 0 : info.InstanceId;
        /* the second class, and the thread's own last error, meanwhile */
        SetLastError(0x1000u + (etw_u32)t);
        if (EtwCreateTraceInstanceId(regs[1].RegHandle, &info) || EtwCreateTraceInstanceId(NULL, &info) != ETW_ERROR_INVALID_PARAMETER ||
            GetLastError() != ETW_ERROR_INVALID_PARAMETER)
            other_failures++;
    }
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    etw_u32 x = *(const etw_u32 *)a, y = *(const etw_u32 *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    int pass = 0, fail = 0;
    etw_tracehandle h;
    EtwRef_Reset();
    EtwRef_SetVersion(ETW_V10_0, 0);
    if (RegisterTraceGuidsW(cb, NULL, &ctl, 2, regs, NULL, NULL, &h) || EtwRef_SetClassCounter(regs[0].RegHandle, START)) {
        printf("FAIL could not register the classes\ntsan: 0 passed, 1 failed\n");
        return 1;
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t)) {
            printf("FAIL could not start thread %d\ntsan: 0 passed, 1 failed\n", t);
            return 1;
        }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);

    etw_u32 *all = &ids[0][0];
    size_t n = (size_t)THREADS * PER;
    qsort(all, n, sizeof *all, cmp);
    size_t dups = 0, zeros = 0;
    for (size_t i = 0; i < n; i++) {
        zeros += all[i] == 0;
        dups += i && all[i] == all[i - 1];
    }
#define CHECK(ok, ...)                                                                                                      \
    do {                                                                                                                    \
        if (ok)                                                                                                             \
            pass++, printf("ok   " __VA_ARGS__), printf("\n");                                                              \
        else                                                                                                                \
            fail++, printf("FAIL " __VA_ARGS__), printf("\n");                                                              \
    } while (0)
    CHECK(dups == 0, "%d threads x %d ids on one class: %zu ids given twice", THREADS, PER, dups);
    CHECK(zeros == 0, "no id 0 (and no failed call) across the wrap: %zu", zeros);
    /* every id from START+1 to 0xFFFFFFFF, then 1 up: exactly THREADS*PER distinct ids */
    etw_u32 below = (etw_u32)(0xFFFFFFFFu - START), above = (etw_u32)(n - below);
    CHECK(all[0] == 1 && all[above - 1] == above && all[above] == START + 1 && all[n - 1] == 0xFFFFFFFFu,
          "the ids are 1..%u and %u..0xFFFFFFFF, none lost (got %u..%u and %u..%u)", above, START + 1, all[0], all[above - 1], all[above],
          all[n - 1]);
    etw_u32 others = other_failures;
    ETW_EVENT_INSTANCE_INFO info;
    CHECK(others == 0 && !EtwCreateTraceInstanceId(regs[1].RegHandle, &info) && info.InstanceId == n + 1,
          "the second class counted on its own (%u failures, next id %u)", others, info.InstanceId);
    UnregisterTraceGuids(h);
    EtwRef_Reset();
    printf("tsan: %d passed, %d failed\n", pass, fail);
    return fail != 0;
}
