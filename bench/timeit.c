/*
 * bench/timeit.c - side-by-side wall-clock timing of commands, for the benchmarks (bench/README.md).
 *
 *   timeit [-r ROUNDS] [-w WARMUP] [-v] [-o LOG] [-s SAMPLES] [-t SECONDS] LABEL=CMD [LABEL=CMD ...]
 *
 * CMD is split on spaces into an argv (no quoting); " ;; " separates commands that run one after
 * the other and are timed together as one sample (e.g. six `etwconf run`, one per version).
 * Each round runs every LABEL once, in an order that rotates from round to round, so that a load
 * change on a shared machine hits every command alike; ratios of medians are then comparable.
 * Commands run with stdin, stdout and stderr on /dev/null (-v keeps stderr; -o LOG appends their
 * stdout and stderr to LOG instead).
 *
 * One line per LABEL on stdout, tab-separated:
 *   LABEL  median_us  min_us  max_us  rounds  maxrss_kb  worst_exit
 * maxrss_kb is the largest ru_maxrss any one process of the sample had (wait4), worst_exit the
 * highest exit status seen (128+N for a signal N). Samples are clock_gettime(CLOCK_MONOTONIC).
 * -t SECONDS stops a command that runs longer (SIGKILL to its process group): its exit status is then
 * 137 and its time the limit.
 * -s SAMPLES writes every sample as "LABEL ROUND US" lines, so that a ratio can be taken round by
 * round (two commands measured next to each other) and its median reported.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SPECS 32
#define MAX_CMDS 16
#define MAX_ARGS 1024
#define MAX_ROUNDS 200

struct spec {
    char *label;
    int ncmd;
    char **argv[MAX_CMDS];
    long long us[MAX_ROUNDS];
    long maxrss;
    int worst;
};

static int keep_stderr;
static const char *logpath;
static unsigned limit_s;
static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
    (void)sig;
    alarmed = 1;
}

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
    int c = 0, a = 0;
    if (!(s->argv[0] = calloc(MAX_ARGS, sizeof(char *))))
        return -1;
    for (char *tok = strtok(eq + 1, " "); tok; tok = strtok(NULL, " ")) {
        if (!strcmp(tok, ";;")) {
            if (a == 0)
                return -1;
            s->argv[c][a] = NULL;
            if (++c >= MAX_CMDS || !(s->argv[c] = calloc(MAX_ARGS, sizeof(char *))))
                return -1;
            a = 0;
            continue;
        }
        if (a >= MAX_ARGS - 1)
            return -1;
        s->argv[c][a++] = tok;
    }
    if (a == 0)
        return -1;
    s->argv[c][a] = NULL;
    s->ncmd = c + 1;
    return 0;
}

/* run one command to completion; returns its exit status (128+sig), -1 if it could not start */
static int run1(char **argv, long *maxrss)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0); /* its own process group, so that -t can stop all of it */
        int fd = open("/dev/null", O_RDWR);
        int lf = logpath ? open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(lf >= 0 ? lf : fd, 1);
            if (lf >= 0 || !keep_stderr)
                dup2(lf >= 0 ? lf : fd, 2);
            if (fd > 2)
                close(fd);
            if (lf > 2)
                close(lf);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    int st = 0;
    struct rusage ru;
    alarmed = 0;
    if (limit_s)
        alarm(limit_s);
    while (wait4(pid, &st, 0, &ru) < 0) {
        if (errno != EINTR)
            return -1;
        if (alarmed) {
            kill(-pid, SIGKILL);
            alarmed = 0;
        }
    }
    alarm(0);
    if (ru.ru_maxrss > *maxrss)
        *maxrss = ru.ru_maxrss;
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
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
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            limit_s = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            logpath = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            samples = argv[++i];
        else if (!strcmp(argv[i], "-v"))
            keep_stderr = 1;
        else {
            fprintf(stderr, "usage: timeit [-r ROUNDS] [-w WARMUP] [-v] [-o LOG] [-s SAMPLES] [-t SECONDS] LABEL=CMD...\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || warm < 0 || i >= argc || argc - i > MAX_SPECS) {
        fprintf(stderr, "timeit: 1..%d rounds, 1..%d commands\n", MAX_ROUNDS, MAX_SPECS);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: the alarm interrupts wait4 */
    sigaction(SIGALRM, &sa, NULL);
    static struct spec specs[MAX_SPECS];
    int n = 0;
    for (; i < argc; i++, n++)
        if (parse(&specs[n], argv[i]) != 0) {
            fprintf(stderr, "timeit: bad spec '%s' (LABEL=CMD [;; CMD...])\n", argv[i]);
            return 2;
        }
    for (int r = -warm; r < rounds; r++)
        for (int k = 0; k < n; k++) {
            struct spec *s = &specs[((r + warm) + k) % n]; /* rotate the order every round */
            long rss = 0;
            long long t0 = now_us();
            for (int c = 0; c < s->ncmd; c++) {
                int rc = run1(s->argv[c], &rss);
                if (rc < 0) {
                    fprintf(stderr, "timeit: cannot run '%s'\n", s->argv[c][0]);
                    return 3;
                }
                if (r >= 0 && rc > s->worst)
                    s->worst = rc;
            }
            long long dt = now_us() - t0;
            if (r >= 0) {
                s->us[r] = dt;
                if (rss > s->maxrss)
                    s->maxrss = rss;
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
