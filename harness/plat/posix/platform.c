/*
 * harness/plat/posix/platform.c - the platform layer on Linux: guard pages (mmap), fault capture
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
#include <stdatomic.h>
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
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = etw_guard_body(len, page);
    etw_u8 *m = etw_guard_pool_take(body + page);
    if (!m) {
        void *p = mmap(NULL, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        if (mprotect((etw_u8 *)p + body, page, PROT_NONE) != 0) {
            munmap(p, body + page);
            return false;
        }
        m = p;
    }
    memset(g, 0, sizeof *g);
    etw_guard_place(g, m, len, page);
    return true;
}

void plat_guard_free(struct etw_guard *g)
{
    if (g->map && !etw_guard_pool_put(g->map, g->map_len))
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
/* A guarded call costs no system call: sigsetjmp does not save the mask (the handlers run with
 * SA_NODEFER and an empty mask, so the mask is only restored on the rare fault path), and in
 * in-process isolation one periodic timer checks a per-call deadline. */
static sigjmp_buf call_jmp;
static volatile sig_atomic_t call_active;
static struct etw_ctx *volatile call_ctx;
static volatile long fault_off;
static volatile int fault_sig;
static volatile uint64_t call_deadline_us; /* 0: no deadline */
static bool catch_timeouts; /* in-process isolation: the deadline ends the call */
static bool handlers_installed;
static sigset_t base_mask;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (sig == SIGALRM) { /* the periodic deadline check */
        if (call_active && call_deadline_us && plat_now_us() >= call_deadline_us) {
            call_active = 0;
            fault_sig = sig;
            siglongjmp(call_jmp, 3);
        }
        return;
    }
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
    siglongjmp(call_jmp, 2);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    static char altstack[64 * 1024];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    sigprocmask(SIG_SETMASK, NULL, &base_mask);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    if (catch_timeouts) {
        sa.sa_flags |= SA_RESTART; /* the periodic tick must not break the target's system calls */
        sigaction(SIGALRM, &sa, NULL);
    }
    handlers_installed = true;
}

/* in-process isolation: a tick every 10 ms (or a quarter of the timeout) checks the deadline */
static void deadline_timer(unsigned timeout_ms)
{
    unsigned tick_us = timeout_ms ? (timeout_ms * 250u < 10000u ? timeout_ms * 250u : 10000u) : 0;
    if (tick_us && tick_us < 1000)
        tick_us = 1000;
    struct itimerval it = {{0, (suseconds_t)tick_us}, {0, (suseconds_t)tick_us}};
    setitimer(ITIMER_REAL, &it, NULL);
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
    int k = sigsetjmp(call_jmp, 0);
    if (k == 0) {
        call_deadline_us = catch_timeouts && ctx->r->timeout_ms ? plat_now_us() + (uint64_t)ctx->r->timeout_ms * 1000u : 0;
        call_active = 1;
        fn(ctx);
        call_active = 0;
    } else {
        sigprocmask(SIG_SETMASK, &base_mask, NULL); /* whatever the target had blocked */
    }
    call_deadline_us = 0;
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
/* The worker publishes through a shared mapping, not one pipe message per case: it sets
 * `current` and `started_us` before each case and appends each result to a log, then advances
 * `published`. The parent wakes every POLL_MS (or when the worker dies: the pipe is only there to
 * see EOF), writes what was published, and kills a worker whose case ran past the timeout. The
 * mapping survives the worker, so nothing a crashed worker published is lost. */
static volatile sig_atomic_t interrupted;
static void on_interrupt(int sig)
{
    interrupted = sig;
}

#define POLL_MS 20
#define RECORD_ROOM (24u * 1024u) /* per case: a result record is at most ~18 KiB */
struct shared {
    _Atomic long current; /* the case running, -1 between cases */
    _Atomic uint64_t started_us;
    _Atomic size_t published; /* bytes of log written */
    size_t cap;
    char log[];
};
struct msg_head {
    etw_u32 idx, blen, mlen;
    etw_u8 status, counted, pad[2];
};

static void worker(struct etw_runner *r, size_t from, size_t to, struct shared *sh)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the runner */
#endif
    size_t off = 0;
    for (size_t i = from; i < to; i++) {
        if (sh->cap - off < RECORD_ROOM)
            _exit(0); /* the log is full: a fresh worker goes on with case i */
        atomic_store(&sh->started_us, plat_now_us());
        atomic_store(&sh->current, (long)i);
        struct etw_result res;
        etw_run_case(r, r->plan[i], &res);
        struct etw_json j;
        etw_json_init(&j);
        etw_record_case_body(&j, &res, r);
        const char *msg = res.message[0] ? res.message : res.reason;
        struct msg_head h = {.idx = (etw_u32)i, .blen = (etw_u32)j.len, .mlen = (etw_u32)strlen(msg), .status = (etw_u8)res.status,
                             .counted = res.counted};
        size_t n = sizeof h + h.blen + 1 + h.mlen + 1; /* head, body NUL, message NUL */
        if (j.oom || n > sh->cap - off)
            _exit(3);
        memcpy(sh->log + off, &h, sizeof h);
        memcpy(sh->log + off + sizeof h, j.buf, h.blen + 1);
        memcpy(sh->log + off + sizeof h + h.blen + 1, msg, h.mlen + 1);
        etw_json_free(&j);
        off += (n + 7) & ~(size_t)7;
        atomic_store(&sh->current, -1L);
        atomic_store(&sh->published, off); /* release: the record is complete */
        if (res.status == R_CRASH)
            _exit(0); /* the process may be damaged: let a fresh worker go on */
    }
    _exit(0);
}

/* write every record published since *read; returns the index after the last one, or -1 */
static long drain(struct etw_runner *r, struct shared *sh, size_t *read)
{
    long last = -1;
    size_t end = atomic_load(&sh->published);
    while (*read < end) {
        struct msg_head h;
        memcpy(&h, sh->log + *read, sizeof h);
        const char *body = sh->log + *read + sizeof h;
        etw_emit_body(r, (enum etw_status_kind)h.status, h.counted, body, r->plan[h.idx], body + h.blen + 1);
        last = (long)h.idx;
        *read += (sizeof h + h.blen + 1 + h.mlen + 1 + 7) & ~(size_t)7;
    }
    return last;
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

static void emit_abnormal(struct etw_runner *r, size_t idx, enum etw_status_kind st, const char *exc, const char *message)
{
    struct etw_result res;
    memset(&res, 0, sizeof res);
    etw_result_abnormal(&res, r->plan[idx], r->version, st, exc, message);
    if (st == R_TIMEOUT)
        snprintf(res.message, sizeof res.message, "the target did not return within %u ms; the worker was killed", r->timeout_ms);
    etw_result_finish(&res, r->version);
    etw_emit(r, &res);
}

static int run_with_workers(struct etw_runner *r, bool one_per_case, size_t next)
{
    unsigned fruitless = 0;
    while (next < r->nplan) {
        size_t to = one_per_case ? next + 1 : r->nplan;
        size_t cap = (to - next) * RECORD_ROOM + RECORD_ROOM;
        struct shared *sh = mmap(NULL, sizeof *sh + cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        int fds[2];
        if (sh == MAP_FAILED || pipe(fds) != 0) {
            fprintf(stderr, "etwconf: cannot set up a worker: %s\n", strerror(errno));
            return 3;
        }
        sh->cap = cap;
        atomic_store(&sh->current, -1L);
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "etwconf: fork: %s\n", strerror(errno));
            return 3;
        }
        if (pid == 0) {
            close(fds[0]);
            r->out = NULL; /* only the parent writes results */
            worker(r, next, to, sh);
        }
        close(fds[1]);
        size_t before = next, rd = 0;
        int rc = 0;
        for (;;) {
            struct pollfd pf = {.fd = fds[0], .events = POLLIN};
            int pr = poll(&pf, 1, POLL_MS);
            long last = drain(r, sh, &rd);
            if (last >= 0)
                next = (size_t)last + 1;
            if (interrupted) {
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                fprintf(stderr, "etwconf: interrupted after %lu of %zu cases; the results written so far are kept\n", r->seq, r->nplan);
                rc = 4;
                break;
            }
            char c;
            if (pr > 0 && read(fds[0], &c, 1) <= 0) { /* EOF: the worker is gone */
                int status = 0;
                waitpid(pid, &status, 0);
                if ((last = drain(r, sh, &rd)) >= 0)
                    next = (size_t)last + 1;
                long cur = atomic_load(&sh->current);
                if (cur >= 0 && (size_t)cur >= next) { /* it died inside a case */
                    char exc[48];
                    describe_exit(status, exc, sizeof exc);
                    emit_abnormal(r, (size_t)cur, R_CRASH, exc, "(the worker process died)");
                    next = (size_t)cur + 1;
                }
                break;
            }
            long cur = atomic_load(&sh->current);
            if (cur >= 0 && r->timeout_ms && plat_now_us() - atomic_load(&sh->started_us) > (uint64_t)r->timeout_ms * 1000u) {
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                if ((last = drain(r, sh, &rd)) >= 0)
                    next = (size_t)last + 1;
                if ((size_t)cur >= next) {
                    emit_abnormal(r, (size_t)cur, R_TIMEOUT, "timeout", NULL);
                    next = (size_t)cur + 1;
                }
                break;
            }
        }
        close(fds[0]);
        munmap(sh, sizeof *sh + cap);
        if (rc)
            return rc;
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
    size_t i = 0;
    if (r->isolation == ISO_INPROC) {
        catch_timeouts = true;
        handlers_installed = false; /* (re)install with the SIGALRM tick */
        deadline_timer(r->timeout_ms);
        for (; i < r->nplan; i++) {
            struct etw_result res;
            etw_run_case(r, r->plan[i], &res);
            etw_emit(r, &res);
            if (r->fallback && (res.status == R_CRASH || res.status == R_TIMEOUT)) {
                i++;
                break; /* the process may be damaged: workers take the rest */
            }
        }
        deadline_timer(0);
        catch_timeouts = false;
        handlers_installed = false;
        if (i >= r->nplan)
            return 0;
        if (!r->quiet)
            fprintf(stderr, "etwconf: the target crashed or hung in process; the remaining %zu case(s) run in a worker process\n",
                    r->nplan - i);
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt; /* no SA_RESTART: poll returns EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return run_with_workers(r, r->isolation == ISO_CHILD, i);
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
    /* kept for the life of the process, workers included (LeakSanitizer sees it as reachable) */
    static struct etw_target *opened;
    struct etw_target *t = opened = calloc(1, sizeof *t);
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
