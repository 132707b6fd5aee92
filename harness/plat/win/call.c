/*
 * harness/plat/win/call.c - guarded calls on Windows (and Wine): exception capture, the watchdog
 * of in-process runs, and threads that report to the call that started them.
 *
 * A guarded call records its start with RtlCaptureContext (i386: __builtin_setjmp, see
 * resume_at_start); a fault ends it by resuming there with a result set. A vectored handler takes
 * writes into a guard page and Wine's stub exception 0x80000100; every other exception is left to
 * the code that raised it (an API may catch its own: ERROR_NOACCESS is not a crash), and only one
 * nobody handles reaches the unhandled-exception filter, which resumes the start with NtContinue.
 * Outside a guarded call the filter runs the end hooks and ends the process with the exception
 * code (no debugger, no dialog), which a worker's runner then reads.
 *
 * Watched runs: the loop runs on a runner thread, the caller is its watchdog. A call past its
 * deadline is redirected to its start (SuspendThread/SetThreadContext); a thread blocked in the
 * kernel cannot be, so after a grace period it is given up (left suspended), abandoned() is told
 * and a new runner thread starts.
 */
#include "harness/plat/win/win.h"
#include <stdlib.h>
#include <string.h>

#define WIN_EXCEPTION_WINE_STUB 0x80000100u

#if !defined(__i386__)
/* resumes a captured context; RtlCaptureContext returns twice as far as the compiler knows */
DECLSPEC_IMPORT void WINAPI RtlCaptureContext(PCONTEXT) __attribute__((returns_twice));
#endif
typedef LONG(WINAPI *pfn_NtContinue)(PCONTEXT, BOOLEAN);
static pfn_NtContinue p_NtContinue;

static DWORD tls_guard = TLS_OUT_OF_INDEXES; /* struct gstate * of a thread that runs guarded calls */
static DWORD tls_worker = TLS_OUT_OF_INDEXES; /* struct gstate * of the call a plat_threads() thread serves */
static volatile LONG abandoned_threads;

/* one per thread that runs guarded calls; the CONTEXT needs 16-byte alignment (VirtualAlloc) */
enum { PH_IDLE, PH_ACTIVE, PH_ABANDONED };
struct gstate {
#if !defined(__i386__)
    CONTEXT saved; /* where the running guarded call started */
#endif
    volatile LONG phase;
    volatile int kind; /* 0 returned, 1 guard page hit, 2 exception, 3 timeout */
    volatile long off;
    volatile DWORD code;
    struct plat_call *volatile call;
    volatile uint64_t deadline_us; /* 0: no watchdog for this call */
    volatile LONG thread_kind; /* a plat_threads() thread of this call faulted: 1 or 2 */
    volatile DWORD thread_code;
    volatile long thread_off;
#if defined(__i386__)
    void *volatile seh; /* the SEH chain head (TEB ExceptionList) at the start of the call */
    void *jb[5]; /* where the call starts (__builtin_setjmp) */
    volatile DWORD start_sp; /* the stack pointer there; below it is free once the call is abandoned */
#endif
};

static struct gstate *this_gstate(void)
{
    struct gstate *gs = TlsGetValue(tls_guard);
    if (!gs) {
        gs = VirtualAlloc(NULL, sizeof *gs, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
        if (!gs) {
            fprintf(stderr, "etwconf: out of memory\n");
            TerminateProcess(GetCurrentProcess(), 3);
        }
        TlsSetValue(tls_guard, gs);
    }
    return gs;
}

/* Resuming at the start of the call. On x86_64 the handler resumes the context RtlCaptureContext
 * saved. On i386 RtlCaptureContext records its caller's frame through EBP (Eip and Esp as they
 * will be when the function that called it returns; Wine's ntdll/signal_i386.c does the same), so
 * resuming that context would return from plat_guarded_call with nothing set, or, where EBP is not a
 * frame pointer, anywhere. There the start is a __builtin_setjmp buffer instead, and the faulting
 * thread is resumed in resume_i386 on the free stack below the call's frame, which jumps back. */
#if defined(__i386__)
static void __attribute__((noreturn, used)) resume_i386(void)
{
    struct gstate *gs = TlsGetValue(tls_guard);
    __builtin_longjmp(gs->jb, 1);
}
#endif

static void resume_at_start(CONTEXT *ctx, struct gstate *gs)
{
#if defined(__i386__)
    ctx->Eip = (DWORD)(uintptr_t)resume_i386;
    ctx->Esp = (gs->start_sp - 256u) & ~(DWORD)15;
#else
    DWORD flags = gs->saved.ContextFlags;
    memcpy(ctx, &gs->saved, sizeof(CONTEXT));
    ctx->ContextFlags = flags;
#endif
}

static unsigned watched_ms; /* in a watched run: the deadline of every guarded call */

struct thread_arg {
    void (*fn)(void *, int);
    void *arg;
    int i;
    struct gstate *parent;
};

static DWORD WINAPI thread_main(void *p)
{
    struct thread_arg *a = p;
    TlsSetValue(tls_worker, a->parent);
    a->fn(a->arg, a->i);
    return 0;
}

bool plat_threads(int n, void (*fn)(void *arg, int i), void *arg)
{
    HANDLE th[16];
    struct thread_arg ta[16];
    int started = 0;
    if (n > 16)
        n = 16;
    struct gstate *parent = TlsGetValue(tls_guard);
    for (int i = 0; i < n; i++) {
        ta[i] = (struct thread_arg){fn, arg, i, parent};
        if (!(th[i] = CreateThread(NULL, 0, thread_main, &ta[i], 0, NULL)))
            break;
        started++;
    }
    if (started)
        WaitForMultipleObjects((DWORD)started, th, TRUE, INFINITE);
    for (int i = 0; i < started; i++)
        CloseHandle(th[i]);
    return started == n;
}

static bool guard_hit(struct plat_call *c, ULONG_PTR a, long *off)
{
    return c && c->guard_hit && c->guard_hit(c->arg, (uintptr_t)a, off);
}

static DWORD WINAPI restore_main(void *p)
{
    plat_run_end_fns();
    return 0;
}

static void park(void)
{
    for (;;)
        Sleep(INFINITE);
}

/* the process cannot go on: run the end hooks (they stop the suite's sessions and write a
 * footer), end with the code (never a dialog or debugger).
 * The clean-up runs on its own thread, given 5 s: the faulting thread may hold a lock it needs. */
static void fatal_exit(DWORD code)
{
    static volatile LONG once;
    if (InterlockedExchange(&once, 1) == 0) {
        HANDLE th = CreateThread(NULL, 0, restore_main, NULL, 0, NULL);
        if (th)
            WaitForSingleObject(th, 5000);
    }
    TerminateProcess(GetCurrentProcess(), code ? code : 3);
    park();
}

static LONG CALLBACK first_chance(EXCEPTION_POINTERS *ep)
{
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    struct gstate *gs = TlsGetValue(tls_guard);
    struct gstate *parent = gs ? NULL : TlsGetValue(tls_worker);
    long off = 0;
    bool hit = code == EXCEPTION_ACCESS_VIOLATION && ep->ExceptionRecord->NumberParameters >= 2;
    if (gs && gs->phase == PH_ACTIVE) {
        if (hit && guard_hit(gs->call, ep->ExceptionRecord->ExceptionInformation[1], &off)) {
            gs->off = off;
            gs->kind = 1;
        } else if (code == WIN_EXCEPTION_WINE_STUB) {
            gs->code = code;
            gs->kind = 2;
        } else {
            return EXCEPTION_CONTINUE_SEARCH;
        }
        resume_at_start(ep->ContextRecord, gs);
        return EXCEPTION_CONTINUE_EXECUTION;
    }
    if (parent && parent->phase == PH_ACTIVE && hit && guard_hit(parent->call, ep->ExceptionRecord->ExceptionInformation[1], &off)) {
        /* a helper thread of the case wrote into a guard page: report it on the call, end the thread */
        parent->thread_off = off;
        parent->thread_code = code;
        InterlockedExchange(&parent->thread_kind, 1);
        ExitThread(code);
    }
    return EXCEPTION_CONTINUE_SEARCH;
}

static LONG WINAPI last_chance(EXCEPTION_POINTERS *ep)
{
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    struct gstate *gs = TlsGetValue(tls_guard);
    struct gstate *parent = gs ? NULL : TlsGetValue(tls_worker);
    if (gs && gs->phase == PH_ACTIVE && p_NtContinue) {
        gs->code = code;
        gs->kind = 2;
#if defined(__i386__)
        resume_at_start(ep->ContextRecord, gs);
        p_NtContinue(ep->ContextRecord, FALSE); /* does not return */
#else
        p_NtContinue(&gs->saved, FALSE); /* does not return */
#endif
    }
    if (parent && parent->phase == PH_ACTIVE) {
        parent->thread_code = code;
        InterlockedExchange(&parent->thread_kind, 2);
        ExitThread(code);
    }
    fatal_exit(code);
    return EXCEPTION_EXECUTE_HANDLER;
}

enum plat_end plat_guarded_call(struct plat_call *c)
{
    struct gstate *volatile gs = this_gstate();
    gs->call = c;
    gs->kind = 0;
    gs->off = 0;
    gs->code = 0;
    gs->thread_kind = 0;
    /* a target may have installed its own filter; ours must see what nobody handles */
    SetUnhandledExceptionFilter(last_chance);
    gs->deadline_us = watched_ms ? plat_now_us() + (uint64_t)watched_ms * 1000u : 0;
#if defined(__i386__)
    __asm__ volatile("movl %%fs:0, %0" : "=r"(gs->seh)); /* NT_TIB.ExceptionList */
    {
        DWORD sp;
        __asm__ volatile("movl %%esp, %0" : "=r"(sp));
        gs->start_sp = sp;
    }
    __builtin_setjmp(gs->jb);
    /* resumed from deeper down: the frames the target or the dispatcher registered are gone */
    {
        void *seh = gs->seh;
        __asm__ volatile("movl %0, %%fs:0" : : "r"(seh) : "memory");
    }
#else
    RtlCaptureContext(&gs->saved);
#endif
    if (gs->kind == 0) { /* the first return; a handler or the watchdog resumes here with kind set */
        InterlockedExchange(&gs->phase, PH_ACTIVE);
        c->fn(c->arg);
    }
    if (InterlockedCompareExchange(&gs->phase, PH_IDLE, PH_ACTIVE) != PH_ACTIVE)
        park(); /* the watchdog gave up on this call and reported it: this thread is done */
    gs->deadline_us = 0;
    gs->call = NULL;
    int k = gs->kind;
    if (!k && gs->thread_kind) {
        k = gs->thread_kind;
        gs->code = gs->thread_code;
        gs->off = gs->thread_off;
    }
    char fault[48] = ""; /* named only for a fault: a call that returned costs no formatting */
    if (k == PLAT_FAULT)
        win_format_code(fault, sizeof fault, gs->code);
    return plat_call_ended(c, (enum plat_end)k, gs->off, fault);
}

void plat_deadline_ms(unsigned ms)
{
    struct gstate *gs = TlsGetValue(tls_guard);
    if (gs && gs->phase == PH_ACTIVE && watched_ms)
        gs->deadline_us = ms ? plat_now_us() + (uint64_t)ms * 1000u : 0;
}

bool plat_fault_intact(const char *exception)
{
    /* Wine's stub exception is raised on entry, before the unimplemented function does anything */
    return exception && !strcmp(exception, "0x80000100");
}

struct watched {
    void (*loop)(void *);
    void *arg;
    struct gstate *volatile gs; /* the runner thread's guard state */
    HANDLE thread;
};

static DWORD WINAPI runner_main(void *p)
{
    struct watched *w = p;
    w->gs = this_gstate();
    w->loop(w->arg);
    return 0;
}

static bool start_runner(struct watched *w)
{
    w->gs = NULL;
    /* a generous stack: results live on it and targets may recurse */
    w->thread = CreateThread(NULL, 4u << 20, runner_main, w, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    return w->thread != NULL;
}

/* make the runner thread resume its captured context as a timeout; true if it was redirected */
static bool redirect(HANDLE th, struct gstate *gs)
{
    if (SuspendThread(th) == (DWORD)-1)
        return false;
    bool ok = false;
    if (gs->phase == PH_ACTIVE) {
#if defined(__i386__)
        CONTEXT c;
        c.ContextFlags = CONTEXT_FULL;
        if (!GetThreadContext(th, &c)) {
            ResumeThread(th);
            return false;
        }
        resume_at_start(&c, gs);
#else
        CONTEXT c = gs->saved;
#endif
        c.ContextFlags = CONTEXT_FULL;
        gs->kind = PLAT_TIMEOUT;
        ok = SetThreadContext(th, &c) != 0;
        if (!ok)
            gs->kind = 0;
    }
    ResumeThread(th);
    return ok;
}

bool plat_run_watched(void (*loop)(void *arg), void (*abandoned)(void *arg), void *arg, unsigned timeout_ms)
{
    struct watched w = {loop, arg, NULL, NULL};
    watched_ms = timeout_ms;
    if (!start_runner(&w)) {
        watched_ms = 0;
        return false;
    }
    DWORD tick = 50;
    if (timeout_ms && timeout_ms / 4 < tick)
        tick = timeout_ms / 4 ? timeout_ms / 4 : 1;
    uint64_t redirected_for = 0, redirected_at = 0, interrupted_at = 0;
    uint64_t grace = timeout_ms < 1000 ? 1000000u : (uint64_t)timeout_ms * 1000u;
    bool ok = true;
    for (;;) {
        if (WaitForSingleObject(w.thread, tick) == WAIT_OBJECT_0)
            break;
        uint64_t now = plat_now_us();
        struct gstate *gs = w.gs;
        if (plat_interrupted()) {
            if (!interrupted_at)
                interrupted_at = now;
            else if (now - interrupted_at > 3000000u) {
                /* the current case does not end: give it up */
                if (gs && InterlockedCompareExchange(&gs->phase, PH_ABANDONED, PH_ACTIVE) == PH_ACTIVE) {
                    SuspendThread(w.thread);
                    InterlockedIncrement(&abandoned_threads);
                }
                break;
            }
        }
        if (!gs || gs->phase != PH_ACTIVE)
            continue;
        uint64_t dl = gs->deadline_us;
        if (!dl || now < dl)
            continue;
        if (redirected_for != dl) {
            redirected_for = dl;
            redirected_at = now;
            redirect(w.thread, gs);
            continue;
        }
        if (now - redirected_at < grace)
            continue;
        /* blocked in the kernel: the redirect cannot land. Give the thread up, go on without it. */
        if (InterlockedCompareExchange(&gs->phase, PH_ABANDONED, PH_ACTIVE) != PH_ACTIVE)
            continue;
        SuspendThread(w.thread);
        CloseHandle(w.thread);
        w.thread = NULL;
        InterlockedIncrement(&abandoned_threads);
        abandoned(arg);
        if (!start_runner(&w)) {
            fprintf(stderr, "etwconf: cannot start a new runner thread (error %lu)\n", GetLastError());
            ok = false;
            break;
        }
    }
    if (w.thread)
        CloseHandle(w.thread);
    watched_ms = 0;
    return ok;
}

static void at_exit(void)
{
    if (abandoned_threads) {
        /* a thread given up in the system may hold a lock that ExitProcess would wait for */
        fflush(NULL);
        TerminateProcess(GetCurrentProcess(), plat_interrupted() ? 3 : 1);
    }
}

static void seh_init(void)
{
    tls_guard = TlsAlloc();
    tls_worker = TlsAlloc();
    p_NtContinue = (pfn_NtContinue)(void (*)(void))GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtContinue");
    AddVectoredExceptionHandler(1, first_chance);
    SetUnhandledExceptionFilter(last_chance);
    atexit(at_exit); /* registered before the end hooks: runs after them */
}

void plat_init(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    win_host_init(seh_init);
}
