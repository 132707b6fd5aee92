/* bench/median.h - the median of n samples (sorts them), shared by the bench programs. */
#ifndef ETWCONF_BENCH_MEDIAN_H
#define ETWCONF_BENCH_MEDIAN_H
#include <stdlib.h>

static int bench_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
#endif
