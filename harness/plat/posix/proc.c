/* harness/plat/posix/proc.c - worker processes on Linux: fork, a pipe as the channel, a process
 * group of its own (killed with the worker: what a target left running goes too), reaping. */
#include "harness/plat/plat.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

const char *plat_signal_name(int sig); /* harness/plat/posix/call.c */

struct plat_proc {
    pid_t pid;
    int fd; /* the read end */
    bool reaped, eof;
    int status;
};

struct plat_proc *plat_proc_start(int (*fn)(void *arg, plat_chan chan), void *arg, const char *const *argv, char *err, size_t errlen)
{
    (void)argv; /* a fork carries the runner's state; argv is for hosts that start a new program */
    struct plat_proc *p = calloc(1, sizeof *p);
    int fds[2];
    if (!p || pipe(fds) != 0) {
        snprintf(err, errlen, "cannot set up a worker: %s", strerror(errno));
        free(p);
        return NULL;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        free(p);
        return NULL;
    }
    if (pid == 0) {
        setpgid(0, 0);
        close(fds[0]);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_IGN);
#if defined(__linux__)
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the runner */
#endif
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) {
            dup2(null, 0);
            close(null);
        }
        dup2(2, 1); /* what a target prints never reaches the results */
        /* the worker holds stdio and its channel (fd 3), nothing else: not the results file */
        if (fds[1] != 3 && dup2(fds[1], 3) != 3)
            _exit(3);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
        closefrom(4);
#else /* a C library without closefrom */
        for (long fd = 4, max = sysconf(_SC_OPEN_MAX); fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            close((int)fd);
#endif
        _exit(fn(arg, (plat_chan)3));
    }
    setpgid(pid, pid); /* also here: whichever runs first */
    close(fds[1]);
    p->pid = pid;
    p->fd = fds[0];
    return p;
}

unsigned long plat_proc_id(const struct plat_proc *p)
{
    return (unsigned long)p->pid;
}

static bool reap(struct plat_proc *p, bool wait)
{
    if (p->reaped)
        return true;
    pid_t w;
    while ((w = waitpid(p->pid, &p->status, wait ? 0 : WNOHANG)) < 0 && errno == EINTR)
        ;
    if (w == p->pid || (w < 0 && errno == ECHILD))
        p->reaped = true;
    return p->reaped;
}

long plat_proc_read(struct plat_proc *p, void *buf, size_t cap, unsigned ms)
{
    if (p->eof)
        return 0;
    struct pollfd pf = {.fd = p->fd, .events = POLLIN};
    int pr = poll(&pf, 1, (int)ms);
    if (pr <= 0) {
        if (pr < 0 || !reap(p, false))
            return -1;
        /* the worker is gone; a process it left may hold the pipe: read what is there, no more */
        fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) | O_NONBLOCK);
    }
    ssize_t n = read(p->fd, buf, cap);
    if (n > 0)
        return (long)n;
    if (pr > 0 && n < 0 && errno == EINTR)
        return -1;
    p->eof = true;
    return 0;
}

static void sleep_10ms(void)
{
    struct timespec ts = {0, 10000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

bool plat_proc_end(struct plat_proc *p, char *how, size_t len)
{
    bool killed = false;
    for (int i = 0; p->eof && i < 200 && !reap(p, false); i++) /* the channel closed: the worker is ending */
        sleep_10ms();
    if (!reap(p, false)) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        killed = true;
        for (int i = 0; i < 500 && !reap(p, false); i++) /* 5 s: a killed process goes at once */
            sleep_10ms();
    }
    kill(-p->pid, SIGKILL); /* whatever the worker left in its group */
    bool clean = p->reaped && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0;
    if (!p->reaped)
        snprintf(how, len, "did not end");
    else if (WIFSIGNALED(p->status))
        snprintf(how, len, "%s", killed && WTERMSIG(p->status) == SIGKILL ? "killed" : plat_signal_name(WTERMSIG(p->status)));
    else if (WIFEXITED(p->status))
        snprintf(how, len, "exit %d", WEXITSTATUS(p->status));
    else
        snprintf(how, len, "unknown");
    close(p->fd);
    free(p);
    return clean;
}

bool plat_chan_write(plat_chan c, const void *buf, size_t len)
{
    const char *b = buf;
    while (len) {
        ssize_t n = write((int)c, b, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        b += n;
        len -= (size_t)n;
    }
    return true;
}

bool plat_chan_parse(const char *s, plat_chan *c)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0)
        return false;
    *c = (plat_chan)v;
    return true;
}
