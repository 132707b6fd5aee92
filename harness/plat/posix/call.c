/*
 * harness/plat/posix/call.c - guarded calls on Linux: faults caught with sigsetjmp; in a watched
 * run a periodic timer ends a call past its deadline. A call costs no system call: sigsetjmp does
 * not save the mask (the handlers run with SA_NODEFER and an empty mask; the fault path restores
 * it), and the tick checks a per-call deadline.
 */
#include "harness/plat/plat.h"
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>

static sigjmp_buf call_jmp;
static volatile sig_atomic_t call_active;
static struct plat_call *volatile call_now;
static volatile long fault_off;
static volatile int fault_sig;
static volatile uint64_t call_deadline_us; /* 0: no deadline */
static unsigned watched_ms; /* in a watched run: the deadline of every call */
static bool handlers_installed;
static sigset_t base_mask;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    struct plat_call *c = call_now;
    long off = 0;
    int end = PLAT_FAULT;
    if (sig == SIGALRM) { /* the periodic deadline check */
        if (!call_active || !call_deadline_us || plat_now_us() < call_deadline_us)
            return;
        end = PLAT_TIMEOUT;
    } else if (!call_active) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    } else if ((sig == SIGSEGV || sig == SIGBUS) && c && si && c->guard_hit &&
               c->guard_hit(c->arg, (uintptr_t)si->si_addr, &off)) {
        end = PLAT_GUARD_HIT;
    }
    fault_off = off;
    fault_sig = sig;
    call_active = 0;
    siglongjmp(call_jmp, end);
}

static void install_handlers(bool ticks)
{
    static char altstack[64 * 1024];
    if (!handlers_installed) {
        stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
        sigaltstack(&ss, NULL);
        sigprocmask(SIG_SETMASK, NULL, &base_mask);
    }
    struct sigaction sa = {.sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    if (ticks) {
        sa.sa_flags |= SA_RESTART; /* the periodic tick must not break the target's system calls */
        sigaction(SIGALRM, &sa, NULL);
    }
    handlers_installed = true;
}

/* a tick every 10 ms (or a quarter of the timeout) checks the deadline; 0 stops it */
static void deadline_timer(unsigned timeout_ms)
{
    unsigned tick_us = timeout_ms ? (timeout_ms * 250u < 10000u ? timeout_ms * 250u : 10000u) : 0;
    if (tick_us && tick_us < 1000)
        tick_us = 1000;
    struct itimerval it = {{0, (suseconds_t)tick_us}, {0, (suseconds_t)tick_us}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* "SIGSEGV", "signal" for one without a name here; proc.c uses it too. A table, not glibc's
 * sigabbrev_np: the same names from every C library */
const char *plat_signal_name(int sig);
const char *plat_signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGILL, "SIGILL"}, {SIGFPE, "SIGFPE"},
                 {SIGABRT, "SIGABRT"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"}, {SIGKILL, "SIGKILL"},
                 {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"}, {SIGPIPE, "SIGPIPE"},
                 {SIGXFSZ, "SIGXFSZ"}, {SIGHUP, "SIGHUP"}, {SIGQUIT, "SIGQUIT"}, {SIGUSR1, "SIGUSR1"},
                 {SIGUSR2, "SIGUSR2"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "signal";
}

enum plat_end plat_guarded_call(struct plat_call *c)
{
    if (!handlers_installed)
        install_handlers(false);
    call_now = c;
    fault_sig = 0;
    fault_off = 0;
    int k = sigsetjmp(call_jmp, 0);
    if (k == 0) {
        call_deadline_us = watched_ms ? plat_now_us() + (uint64_t)watched_ms * 1000u : 0;
        call_active = 1;
        c->fn(c->arg);
        call_active = 0;
    } else {
        sigprocmask(SIG_SETMASK, &base_mask, NULL); /* whatever the target had blocked */
    }
    call_deadline_us = 0;
    call_now = NULL;
    /* the signal is named only for a fault: a call that returned costs no formatting */
    const char *name = k == PLAT_FAULT ? plat_signal_name(fault_sig) : NULL;
    return plat_call_ended(c, (enum plat_end)k, fault_off, name);
}

void plat_deadline_ms(unsigned ms)
{
    if (call_active && watched_ms)
        call_deadline_us = ms ? plat_now_us() + (uint64_t)ms * 1000u : 0;
}

bool plat_fault_intact(const char *exception)
{
    return false; /* a signal may have left anything behind */
}

bool plat_run_watched(void (*loop)(void *arg), void (*abandoned)(void *arg), void *arg, unsigned timeout_ms)
{
    (void)abandoned; /* a signal interrupts a thread blocked in the system: nothing is given up */
    watched_ms = timeout_ms;
    install_handlers(timeout_ms != 0);
    deadline_timer(timeout_ms);
    loop(arg);
    deadline_timer(0);
    watched_ms = 0;
    signal(SIGALRM, SIG_IGN);
    return true;
}
