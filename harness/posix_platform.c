/*
 * harness/posix_platform.c - the platform layer on Linux: guard pages (mmap), fault capture
 * (sigsetjmp), isolation (a worker process that is replaced after a crash or a hang), and
 * loading a target library (dlopen).
 *
 * Isolation modes:
 *   batch  (default) one worker process runs the cases in order and streams results to the
 *          parent. A crash ends that case as CRASH, a hang past --timeout-ms ends it as TIMEOUT
 *          (the worker is killed); a new worker goes on with the next case.
 *   child  a fresh worker for every case (slow, maximal isolation).
 *   inproc no worker: faults are caught with sigsetjmp and hangs with an interval timer. Cheapest;
 *          a crashing target may leave the process damaged.
 */
#include "harness/etwconf.h"
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- guarded buffers */
bool plat_guard_alloc(struct etw_guard *g, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (ETW_PRE_ZONE + len + page - 1) / page * page;
    memset(g, 0, sizeof *g);
    g->map_len = body + page;
    void *m = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return false;
    g->map = m;
    g->guard = g->map + body;
    g->guard_len = page;
    g->len = len;
    g->buf = g->guard - len;
    /* the sentinel pattern, aligned on the buffer: buf[i] = sentinel[i mod 4], before it too */
    for (size_t i = 0; i < body; i++) {
        long rel = (long)(g->map + i - g->buf);
        g->map[i] = etw_sentinel[((rel % 4) + 4) % 4];
    }
    if (mprotect(g->guard, page, PROT_NONE) != 0) {
        munmap(m, g->map_len);
        return false;
    }
    return true;
}

void plat_guard_free(struct etw_guard *g)
{
    if (g->map)
        munmap(g->map, g->map_len);
    memset(g, 0, sizeof *g);
}

uint64_t plat_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

const char *plat_host_os(void)
{
    return "linux";
}

const char *plat_host_arch(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__i386__)
    return "i686";
#elif defined(__aarch64__)
    return "aarch64";
#else
    return "unknown";
#endif
}

/* ---------------------------------------------------------------- threads */
struct thread_arg {
    void (*fn)(void *, int);
    void *arg;
    int i;
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    a->fn(a->arg, a->i);
    return NULL;
}

bool plat_threads(int n, void (*fn)(void *arg, int i), void *arg)
{
    pthread_t th[16];
    struct thread_arg ta[16];
    int started = 0;
    if (n > 16)
        n = 16;
    for (int i = 0; i < n; i++) {
        ta[i] = (struct thread_arg){fn, arg, i};
        if (pthread_create(&th[i], NULL, thread_main, &ta[i]) != 0)
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    return started == n;
}

/* ---------------------------------------------------------------- fault capture */
static sigjmp_buf call_jmp;
static volatile sig_atomic_t call_active;
static struct etw_ctx *volatile call_ctx;
static volatile long fault_off;
static volatile int fault_sig;
static bool catch_timeouts; /* in-process isolation: SIGALRM ends the call */
static bool handlers_installed;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (!call_active) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    struct etw_ctx *ctx = call_ctx;
    if ((sig == SIGSEGV || sig == SIGBUS) && ctx && si) {
        etw_u8 *a = si->si_addr;
        for (int i = 0; i < ctx->nguards; i++) {
            struct etw_guard *g = ctx->guards[i];
            if (a >= g->guard && a < g->guard + g->guard_len) {
                fault_off = (long)(a - g->guard);
                call_active = 0;
                siglongjmp(call_jmp, 1);
            }
        }
    }
    fault_sig = sig;
    call_active = 0;
    siglongjmp(call_jmp, sig == SIGALRM ? 3 : 2);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    static char altstack[64 * 1024];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    if (catch_timeouts)
        sigaction(SIGALRM, &sa, NULL);
    handlers_installed = true;
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGKILL: return "SIGKILL";
    case SIGALRM: return "SIGALRM";
    default: return "signal";
    }
}

int plat_guarded_call(struct etw_ctx *ctx, void (*fn)(struct etw_ctx *), char *exception, size_t exlen, long *fault_offset)
{
    install_handlers();
    call_ctx = ctx;
    fault_sig = 0;
    fault_off = 0;
    int k = sigsetjmp(call_jmp, 1);
    if (k == 0) {
        if (catch_timeouts && ctx->r->timeout_ms) {
            struct itimerval it = {{0, 0}, {(time_t)(ctx->r->timeout_ms / 1000), (suseconds_t)(ctx->r->timeout_ms % 1000) * 1000}};
            setitimer(ITIMER_REAL, &it, NULL);
        }
        call_active = 1;
        fn(ctx);
        call_active = 0;
    }
    if (catch_timeouts) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_REAL, &off, NULL);
    }
    call_ctx = NULL;
    if (k == 1)
        *fault_offset = fault_off;
    if (k == 2)
        snprintf(exception, exlen, "%s", signame(fault_sig));
    if (k == 3)
        snprintf(exception, exlen, "timeout");
    return k;
}

/* ---------------------------------------------------------------- isolation */
static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        c += w;
        n -= (size_t)w;
    }
    return true;
}

/* worker -> parent messages: 'S' idx (case starts), 'R' idx status counted blen mlen body msg */
struct msg_head {
    char kind;
    etw_u8 status, counted, pad;
    etw_u32 idx, blen, mlen;
};

static volatile sig_atomic_t interrupted;
static void on_interrupt(int sig)
{
    interrupted = sig;
}

static void worker(struct etw_runner *r, size_t from, size_t to, int fd)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the runner */
#endif
    for (size_t i = from; i < to; i++) {
        struct msg_head h = {.kind = 'S', .idx = (etw_u32)i};
        if (!write_all(fd, &h, sizeof h))
            _exit(3);
        struct etw_result res;
        etw_run_case(r, r->plan[i], &res);
        struct etw_json j;
        etw_json_init(&j);
        etw_record_case_body(&j, &res, r);
        const char *msg = res.message[0] ? res.message : res.reason;
        h = (struct msg_head){.kind = 'R', .status = (etw_u8)res.status, .counted = res.counted, .idx = (etw_u32)i,
                              .blen = (etw_u32)j.len, .mlen = (etw_u32)strlen(msg)};
        if (j.oom || !write_all(fd, &h, sizeof h) || !write_all(fd, j.buf, j.len) || !write_all(fd, msg, h.mlen))
            _exit(3);
        etw_json_free(&j);
        if (res.status == R_CRASH)
            _exit(0); /* the process may be damaged: let a fresh worker go on */
    }
    _exit(0);
}

/* read exactly n bytes, waiting at most timeout_ms for the first (-1: no limit); 1 ok, 0 eof, -2 timeout */
static int read_msg(int fd, void *p, size_t n, int timeout_ms)
{
    char *c = p;
    size_t got = 0;
    while (got < n) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int pr = poll(&pf, 1, got ? 10000 : timeout_ms);
        if (interrupted)
            return -3;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0)
            return -2;
        ssize_t k = read(fd, c + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        got += (size_t)k;
    }
    return 1;
}

static void describe_exit(int status, char *exc, size_t len)
{
    if (WIFSIGNALED(status))
        snprintf(exc, len, "%s", signame(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(exc, len, "exit %d", WEXITSTATUS(status));
    else
        snprintf(exc, len, "unknown");
}

static int run_with_workers(struct etw_runner *r, bool one_per_case)
{
    size_t next = 0;
    unsigned fruitless = 0;
    while (next < r->nplan) {
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(stderr, "etwconf: pipe: %s\n", strerror(errno));
            return 3;
        }
        fflush(NULL);
        size_t to = one_per_case ? next + 1 : r->nplan;
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "etwconf: fork: %s\n", strerror(errno));
            return 3;
        }
        if (pid == 0) {
            close(fds[0]);
            if (r->out)
                r->out = NULL; /* only the parent writes results */
            worker(r, next, to, fds[1]);
        }
        close(fds[1]);
        long current = -1;
        size_t before = next;
        char *body = NULL, *msg = NULL;
        for (;;) {
            struct msg_head h;
            int k = read_msg(fds[0], &h, sizeof h, current >= 0 && r->timeout_ms ? (int)r->timeout_ms : 60000);
            if (k == -3) { /* SIGINT/SIGTERM: stop the worker, keep what was written */
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                close(fds[0]);
                free(body);
                free(msg);
                fprintf(stderr, "etwconf: interrupted after %lu of %zu cases; the results written so far are kept\n", r->seq, r->nplan);
                return 4;
            }
            if (k == -2 && current < 0) {
                /* no case started for a minute: the worker is wedged outside any case */
                kill(pid, SIGKILL);
                k = 0;
            }
            if (k == -2) {
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                struct etw_result res;
                memset(&res, 0, sizeof res);
                etw_result_abnormal(&res, r->plan[current], r->version, R_TIMEOUT, "timeout", NULL);
                snprintf(res.message, sizeof res.message, "the target did not return within %u ms; the worker was killed", r->timeout_ms);
                etw_result_finish(&res, r->version);
                etw_emit(r, &res);
                next = (size_t)current + 1;
                pid = -1;
                break;
            }
            if (k == 0) { /* the worker is gone */
                int status = 0;
                waitpid(pid, &status, 0);
                pid = -1;
                if (current >= 0) {
                    struct etw_result res;
                    char exc[48];
                    memset(&res, 0, sizeof res);
                    describe_exit(status, exc, sizeof exc);
                    etw_result_abnormal(&res, r->plan[current], r->version, R_CRASH, exc, "(the worker process died)");
                    etw_result_finish(&res, r->version);
                    etw_emit(r, &res);
                    next = (size_t)current + 1;
                }
                break;
            }
            if (h.kind == 'S') {
                current = (long)h.idx;
                continue;
            }
            body = realloc(body, h.blen + 1);
            msg = realloc(msg, h.mlen + 1);
            if (!body || !msg || read_msg(fds[0], body, h.blen, 10000) != 1 || read_msg(fds[0], msg, h.mlen, 10000) != 1) {
                kill(pid, SIGKILL);
                continue; /* treated as a death on the next read */
            }
            body[h.blen] = msg[h.mlen] = 0;
            etw_emit_body(r, (enum etw_status_kind)h.status, h.counted, body, r->plan[h.idx], msg);
            next = (size_t)h.idx + 1;
            current = -1;
        }
        free(body);
        free(msg);
        close(fds[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
        if (next == before && ++fruitless >= 3) {
            fprintf(stderr, "etwconf: the worker died three times before running a case; giving up at case %zu\n", next);
            return 3;
        }
        if (next != before)
            fruitless = 0;
    }
    return 0;
}

int plat_run_plan(struct etw_runner *r)
{
    if (r->isolation == ISO_INPROC) {
        catch_timeouts = true;
        for (size_t i = 0; i < r->nplan; i++) {
            struct etw_result res;
            etw_run_case(r, r->plan[i], &res);
            etw_emit(r, &res);
        }
        return 0;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt; /* no SA_RESTART: poll returns EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return run_with_workers(r, r->isolation == ISO_CHILD);
}

/* ---------------------------------------------------------------- targets */
static void *so_sym(struct etw_target *t, const char *name)
{
    return dlsym(t->handle, name);
}

struct etw_target *plat_open_target(const char *spec, char *err, size_t errlen)
{
    if (!spec || !strcmp(spec, "reference"))
        return etw_target_reference();
    void *h = dlopen(spec, RTLD_NOW | RTLD_LOCAL);
    if (!h && !strchr(spec, '/')) {
        char path[4096];
        snprintf(path, sizeof path, "./%s", spec);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    if (!h) {
        snprintf(err, errlen, "cannot load target '%s': %s (a target is 'reference' or a shared library built with -shared -fPIC)",
                 spec, dlerror());
        return NULL;
    }
    struct etw_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *base = strrchr(spec, '/');
    t->spec = spec;
    t->impl = "thirdparty";
    t->name = base ? base + 1 : spec;
    t->handle = h;
    t->sym = so_sym;
    etw_target_bind_control(t);
    t->version = ETW_V10_0;
    return t;
}
