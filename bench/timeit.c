/*
 * bench/timeit.c - side-by-side wall-clock timing of commands (bench/README.md says how and why).
 *
 *   timeit [-r ROUNDS] [-w WARMUP] [-s SAMPLES] LABEL=CMD [LABEL=CMD ...]
 *
 * CMD is split on spaces (no quoting). Output, one tab-separated line per LABEL:
 *   LABEL  median_us  min_us  max_us  rounds  maxrss_kb  worst_exit (128+N for signal N)
 * -s SAMPLES writes every sample as "LABEL ROUND US", for ratios taken round by round.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SPECS 32
#define MAX_ARGS 1024
#define MAX_ROUNDS 200

struct spec {
    char *label;
    char *argv[MAX_ARGS];
    long long us[MAX_ROUNDS];
    long maxrss;
    int worst;
};

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int parse(struct spec *s, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    *eq = 0;
    s->label = arg;
    int a = 0;
    for (char *tok = strtok(eq + 1, " "); tok; tok = strtok(NULL, " "))
        if (a < MAX_ARGS - 1)
            s->argv[a++] = tok;
    return a ? 0 : -1;
}

/* run one command to completion; returns its exit status (128+sig), -1 if it could not start */
static int run1(char **argv, long *maxrss)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    if (ru.ru_maxrss > *maxrss)
        *maxrss = ru.ru_maxrss;
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int rounds = 5, warm = 1, i = 1;
    const char *samples = NULL;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-w") && i + 1 < argc)
            warm = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            samples = argv[++i];
        else {
            fprintf(stderr, "usage: timeit [-r ROUNDS] [-w WARMUP] [-s SAMPLES] LABEL=CMD...\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || warm < 0 || i >= argc || argc - i > MAX_SPECS) {
        fprintf(stderr, "timeit: 1..%d rounds, 1..%d commands\n", MAX_ROUNDS, MAX_SPECS);
        return 2;
    }
    static struct spec specs[MAX_SPECS];
    int n = 0;
    for (; i < argc; i++, n++)
        if (parse(&specs[n], argv[i]) != 0) {
            fprintf(stderr, "timeit: bad spec '%s' (LABEL=CMD)\n", argv[i]);
            return 2;
        }
    for (int r = -warm; r < rounds; r++)
        for (int k = 0; k < n; k++) {
            struct spec *s = &specs[((r + warm) + k) % n]; /* rotate the order every round */
            long rss = 0;
            long long t0 = now_us();
            int rc = run1(s->argv, &rss);
            long long dt = now_us() - t0;
            if (rc < 0) {
                fprintf(stderr, "timeit: cannot run '%s'\n", s->argv[0]);
                return 3;
            }
            if (r >= 0) {
                s->us[r] = dt;
                s->maxrss = rss > s->maxrss ? rss : s->maxrss;
                s->worst = rc > s->worst ? rc : s->worst;
            }
        }
    if (samples) {
        FILE *f = fopen(samples, "w");
        if (!f) {
            fprintf(stderr, "timeit: cannot write %s\n", samples);
            return 3;
        }
        for (int k = 0; k < n; k++)
            for (int r = 0; r < rounds; r++)
                fprintf(f, "%s %d %lld\n", specs[k].label, r, specs[k].us[r]);
        fclose(f);
    }
    for (int k = 0; k < n; k++) {
        struct spec *s = &specs[k];
        qsort(s->us, (size_t)rounds, sizeof s->us[0], cmp_ll);
        long long med = rounds % 2 ? s->us[rounds / 2] : (s->us[rounds / 2 - 1] + s->us[rounds / 2]) / 2;
        printf("%s\t%lld\t%lld\t%lld\t%d\t%ld\t%d\n", s->label, med, s->us[0], s->us[rounds - 1], rounds, s->maxrss, s->worst);
    }
    return 0;
}
