/*
 * harness/plat/win/platform.c - the platform layer on Windows (and Wine): guard pages (VirtualProtect),
 * exception capture, a watchdog for hangs, isolation, threads, and the platform commands.
 *
 * Exception capture (in-process; measured in ../shared/notes/wine-ci.md section 4):
 *   Every guarded call records its starting point with RtlCaptureContext. A fault ends the call by
 *   resuming that context with a result code set:
 *   - a vectored handler (first chance) takes writes into a guard page (overrun) and Wine's
 *     EXCEPTION_WINE_STUB (0x80000100, raised by unimplemented functions; never handled), and
 *     resumes by returning EXCEPTION_CONTINUE_EXECUTION with the captured context;
 *   - every other exception is left to the code that raised it: an API may catch its own
 *     exceptions (a probe of a bad pointer that ends in ERROR_NOACCESS is not a crash). Only an
 *     exception that nobody handles reaches the unhandled-exception filter, which resumes the
 *     captured context with NtContinue: the case is a CRASH with the exception code.
 *   Outside a guarded call (or in a child worker) the filter stops the suite's ETW sessions and
 *   ends the process with TerminateProcess(exception code): no debugger, no error dialog.
 *
 * Isolation modes:
 *   batch (default) and inproc: the cases run in this process, on a runner thread, while the main
 *          thread is a watchdog. A call that runs past --timeout-ms is interrupted by redirecting
 *          the runner thread to its captured context (SuspendThread/SetThreadContext): TIMEOUT. A
 *          thread blocked in the kernel cannot be redirected: after a grace period the watchdog
 *          writes the TIMEOUT record itself, leaves that thread suspended and starts a new runner
 *          for the next case.
 *   child  a new process per case (CreateProcess of this exe, hidden command __worker). The
 *          child's exit code is the exception code when it crashes; a child that hangs is killed
 *          (TerminateProcess) and the sessions it started are stopped by name.
 */
#include "harness/plat/win/win.h"
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>

#define WIN_EXCEPTION_WINE_STUB 0x80000100u

/* resumes a captured context; RtlCaptureContext returns twice as far as the compiler knows */
DECLSPEC_IMPORT void WINAPI RtlCaptureContext(PCONTEXT) __attribute__((returns_twice));
typedef LONG(WINAPI *pfn_NtContinue)(PCONTEXT, BOOLEAN);
static pfn_NtContinue p_NtContinue;

/* ---------------------------------------------------------------- process-wide state */
static DWORD tls_guard = TLS_OUT_OF_INDEXES; /* struct gstate * of a thread that runs guarded calls */
static DWORD tls_worker = TLS_OUT_OF_INDEXES; /* struct gstate * of the call a plat_threads() thread serves */
static bool child_mode; /* this process is a __worker: crashes end the process with the code */
static volatile LONG interrupted; /* Ctrl-C / Ctrl-Break */
static volatile LONG run_active;
static volatile LONG abandoned_threads;
static volatile LONG exit_code_hint = 1;
static bool initialised;

/* one per thread that runs guarded calls; the CONTEXT needs 16-byte alignment (VirtualAlloc) */
enum { PH_IDLE, PH_ACTIVE, PH_ABANDONED };
struct gstate {
    CONTEXT saved; /* where the running guarded call started */
    volatile LONG phase;
    volatile int kind; /* 0 returned, 1 guard page hit, 2 exception, 3 timeout */
    volatile long off;
    volatile DWORD code;
    struct etw_ctx *volatile ctx;
    volatile uint64_t deadline_us; /* 0: no watchdog for this call */
    volatile LONG thread_kind; /* a plat_threads() thread of this call faulted: 1 or 2 */
    volatile DWORD thread_code;
    volatile long thread_off;
    void *volatile seh; /* i686: the SEH chain head (TEB ExceptionList) at the start of the call */
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

struct etw_ctx *win_current_ctx(void)
{
    struct gstate *gs = tls_guard == TLS_OUT_OF_INDEXES ? NULL : TlsGetValue(tls_guard);
    if (!gs && tls_worker != TLS_OUT_OF_INDEXES)
        gs = TlsGetValue(tls_worker);
    return gs && gs->phase == PH_ACTIVE ? gs->ctx : NULL;
}

void win_format_code(char *buf, size_t len, DWORD code)
{
    if (code >= 0x80000000u)
        snprintf(buf, len, "0x%08lX", (unsigned long)code);
    else
        snprintf(buf, len, "exit %lu", (unsigned long)code);
}

const wchar_t *win_exe_path(void)
{
    static wchar_t path[32768];
    if (!path[0]) {
        DWORD n = GetModuleFileNameW(NULL, path, (DWORD)(sizeof path / sizeof path[0]));
        if (n == 0 || n >= sizeof path / sizeof path[0])
            path[0] = 0;
    }
    return path;
}

/* ---------------------------------------------------------------- guarded buffers */
static size_t page_size(void)
{
    static size_t ps;
    if (!ps) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        ps = si.dwPageSize ? si.dwPageSize : 4096;
    }
    return ps;
}

bool plat_guard_alloc(struct etw_guard *g, size_t len)
{
    size_t page = page_size();
    size_t body = etw_guard_body(len, page);
    etw_u8 *m = etw_guard_pool_take(body + page);
    if (!m) {
        DWORD old;
        m = VirtualAlloc(NULL, body + page, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
        if (!m)
            return false;
        if (!VirtualProtect(m + body, page, PAGE_NOACCESS, &old)) {
            VirtualFree(m, 0, MEM_RELEASE);
            return false;
        }
    }
    memset(g, 0, sizeof *g);
    etw_guard_place(g, m, len, page);
    return true;
}

void plat_guard_free(struct etw_guard *g)
{
    if (g->map && !etw_guard_pool_put(g->map, g->map_len))
        VirtualFree(g->map, 0, MEM_RELEASE);
    memset(g, 0, sizeof *g);
}

uint64_t plat_now_us(void)
{
    static LARGE_INTEGER freq;
    LARGE_INTEGER c;
    if (!freq.QuadPart && !QueryPerformanceFrequency(&freq))
        freq.QuadPart = 1;
    QueryPerformanceCounter(&c);
    uint64_t q = (uint64_t)c.QuadPart, f = (uint64_t)freq.QuadPart;
    return q / f * 1000000u + q % f * 1000000u / f;
}

const char *plat_host_os(void)
{
    return "windows";
}

const char *plat_host_arch(void)
{
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    switch (si.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64: return "x86_64";
    case PROCESSOR_ARCHITECTURE_INTEL: return "i686";
    case 12: return "aarch64"; /* PROCESSOR_ARCHITECTURE_ARM64 */
    case PROCESSOR_ARCHITECTURE_ARM: return "arm";
    case PROCESSOR_ARCHITECTURE_IA64: return "ia64";
    default: return "unknown";
    }
}

/* ---------------------------------------------------------------- threads */
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

/* ---------------------------------------------------------------- exception capture */
static bool guard_hit(struct etw_ctx *ctx, ULONG_PTR a, long *off)
{
    if (!ctx)
        return false;
    for (int i = 0; i < ctx->nguards; i++) {
        struct etw_guard *g = ctx->guards[i];
        if (a >= (ULONG_PTR)g->guard && a < (ULONG_PTR)g->guard + g->guard_len) {
            *off = (long)(a - (ULONG_PTR)g->guard);
            return true;
        }
    }
    return false;
}

static DWORD WINAPI restore_main(void *p)
{
    (void)p;
    win_restore_all();
    return 0;
}

/* the process cannot go on: stop the sessions, end with the code (never a dialog or debugger).
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
    for (;;)
        Sleep(INFINITE);
}

static LONG CALLBACK first_chance(EXCEPTION_POINTERS *ep)
{
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    struct gstate *gs = TlsGetValue(tls_guard);
    struct gstate *parent = gs ? NULL : TlsGetValue(tls_worker);
    long off = 0;
    bool hit = code == EXCEPTION_ACCESS_VIOLATION && ep->ExceptionRecord->NumberParameters >= 2;
    if (gs && gs->phase == PH_ACTIVE) {
        if (hit && guard_hit(gs->ctx, ep->ExceptionRecord->ExceptionInformation[1], &off)) {
            gs->off = off;
            gs->kind = 1;
        } else if (code == WIN_EXCEPTION_WINE_STUB && !child_mode) {
            gs->code = code;
            gs->kind = 2;
        } else {
            return EXCEPTION_CONTINUE_SEARCH;
        }
        DWORD flags = gs->saved.ContextFlags;
        memcpy(ep->ContextRecord, &gs->saved, sizeof(CONTEXT));
        ep->ContextRecord->ContextFlags = flags;
        return EXCEPTION_CONTINUE_EXECUTION;
    }
    if (parent && parent->phase == PH_ACTIVE && hit && guard_hit(parent->ctx, ep->ExceptionRecord->ExceptionInformation[1], &off)) {
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
    if (!child_mode && gs && gs->phase == PH_ACTIVE && p_NtContinue) {
        gs->code = code;
        gs->kind = 2;
        p_NtContinue(&gs->saved, FALSE); /* does not return */
    }
    if (!child_mode && parent && parent->phase == PH_ACTIVE) {
        parent->thread_code = code;
        InterlockedExchange(&parent->thread_kind, 2);
        ExitThread(code);
    }
    fatal_exit(code);
    return EXCEPTION_EXECUTE_HANDLER;
}

static void park(void)
{
    for (;;)
        Sleep(INFINITE);
}

int plat_guarded_call(struct etw_ctx *ctx, void (*fn)(struct etw_ctx *), char *exception, size_t exlen, long *fault_offset)
{
    struct gstate *volatile gs = this_gstate();
    gs->ctx = ctx;
    gs->kind = 0;
    gs->off = 0;
    gs->code = 0;
    gs->thread_kind = 0;
    /* a target may have installed its own filter; ours must see what nobody handles */
    SetUnhandledExceptionFilter(last_chance);
    unsigned tmo = ctx->r ? ctx->r->timeout_ms : 0;
    gs->deadline_us = (!child_mode && tmo && run_active) ? plat_now_us() + (uint64_t)tmo * 1000u : 0;
#if defined(__i386__)
    __asm__ volatile("movl %%fs:0, %0" : "=r"(gs->seh)); /* NT_TIB.ExceptionList */
#endif
    RtlCaptureContext(&gs->saved);
#if defined(__i386__)
    /* resumed from deeper down: the frames the target or the dispatcher registered are gone */
    {
        void *seh = gs->seh;
        __asm__ volatile("movl %0, %%fs:0" : : "r"(seh) : "memory");
    }
#endif
    if (gs->kind == 0) { /* the first return; a handler or the watchdog resumes here with kind set */
        InterlockedExchange(&gs->phase, PH_ACTIVE);
        fn(ctx);
    }
    if (InterlockedCompareExchange(&gs->phase, PH_IDLE, PH_ACTIVE) != PH_ACTIVE)
        park(); /* the watchdog gave up on this call and wrote its result: this thread is done */
    gs->deadline_us = 0;
    gs->ctx = NULL;
    int k = gs->kind;
    if (!k && gs->thread_kind) {
        k = gs->thread_kind;
        gs->code = gs->thread_code;
        gs->off = gs->thread_off;
    }
    if (k == 1)
        *fault_offset = gs->off;
    else if (k == 2)
        win_format_code(exception, exlen, gs->code);
    else if (k == 3)
        snprintf(exception, exlen, "timeout");
    return k;
}

/* ---------------------------------------------------------------- in-process runs with a watchdog */
struct win_run {
    struct etw_runner *r;
    volatile LONG next; /* the next case to run */
    volatile LONG current; /* the case running, -1 between cases */
    struct gstate *volatile gs; /* the runner thread's guard state */
    HANDLE thread;
};

static DWORD WINAPI runner_main(void *p)
{
    struct win_run *w = p;
    struct etw_runner *r = w->r;
    w->gs = this_gstate();
    struct etw_result *res = malloc(sizeof *res); /* this thread's: a thread given up keeps its own */
    if (!res)
        return 1;
    for (;;) {
        LONG i = w->next;
        if ((size_t)i >= r->nplan || interrupted)
            break;
        w->current = i;
        etw_run_case(r, r->plan[i], res);
        etw_emit(r, res);
        w->current = -1;
        w->next = i + 1;
    }
    return 0;
}

static bool start_runner(struct win_run *w)
{
    w->gs = NULL;
    w->current = -1;
    /* a generous stack: results live on it and targets may recurse */
    w->thread = CreateThread(NULL, 4u << 20, runner_main, w, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
    return w->thread != NULL;
}

/* make the runner thread resume its captured context with kind 3; true if it was redirected */
static bool redirect(HANDLE th, struct gstate *gs)
{
    if (SuspendThread(th) == (DWORD)-1)
        return false;
    bool ok = false;
    if (gs->phase == PH_ACTIVE) {
        CONTEXT c = gs->saved;
        c.ContextFlags = CONTEXT_FULL;
        gs->kind = 3;
        ok = SetThreadContext(th, &c) != 0;
        if (!ok)
            gs->kind = 0;
    }
    ResumeThread(th);
    return ok;
}

static void emit_timeout(struct etw_runner *r, const struct etw_case *c, const char *how)
{
    static struct etw_result res;
    memset(&res, 0, sizeof res);
    etw_result_abnormal(&res, c, r->version, R_TIMEOUT, "timeout", NULL);
    snprintf(res.message, sizeof res.message, "the target did not return within %u ms; %s", r->timeout_ms, how);
    etw_result_finish(&res, r->version);
    etw_emit(r, &res);
}

static int run_inproc(struct etw_runner *r)
{
    struct win_run w;
    memset(&w, 0, sizeof w);
    w.r = r;
    if (!start_runner(&w)) {
        fprintf(stderr, "etwconf: cannot start the runner thread (error %lu)\n", GetLastError());
        return 3;
    }
    DWORD tick = 50;
    if (r->timeout_ms && r->timeout_ms / 4 < tick)
        tick = r->timeout_ms / 4 ? r->timeout_ms / 4 : 1;
    uint64_t redirected_for = 0, redirected_at = 0, interrupted_at = 0;
    uint64_t grace = r->timeout_ms < 1000 ? 1000000u : (uint64_t)r->timeout_ms * 1000u;
    for (;;) {
        if (WaitForSingleObject(w.thread, tick) == WAIT_OBJECT_0)
            break;
        uint64_t now = plat_now_us();
        struct gstate *gs = w.gs;
        if (interrupted) {
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
        InterlockedIncrement(&abandoned_threads);
        LONG cur = w.current;
        if (cur >= 0) {
            emit_timeout(r, r->plan[cur],
                         "the thread was blocked in the system and could not be interrupted: it was left suspended and a new "
                         "runner thread went on (use --isolation child for such targets)");
            w.next = cur + 1;
        }
        if (!start_runner(&w)) {
            fprintf(stderr, "etwconf: cannot start a new runner thread (error %lu)\n", GetLastError());
            return 3;
        }
    }
    if (w.thread)
        CloseHandle(w.thread);
    return interrupted ? 4 : 0;
}

/* ---------------------------------------------------------------- child processes */
/* append arg to cmd, quoted the way CommandLineToArgvW and the CRT read it */
static void quote_arg(wchar_t *cmd, size_t cap, const wchar_t *arg)
{
    size_t o = wcslen(cmd);
    if (o && o + 1 < cap)
        cmd[o++] = L' ';
    if (o + 1 < cap)
        cmd[o++] = L'"';
    for (const wchar_t *p = arg;; p++) {
        size_t bs = 0;
        while (*p == L'\\') {
            p++;
            bs++;
        }
        size_t times = !*p ? bs * 2 : *p == L'"' ? bs * 2 + 1 : bs;
        for (size_t k = 0; k < times && o + 1 < cap; k++)
            cmd[o++] = L'\\';
        if (!*p)
            break;
        if (o + 1 < cap)
            cmd[o++] = *p;
    }
    if (o + 1 < cap)
        cmd[o++] = L'"';
    cmd[o] = 0;
}

static void quote_acp(wchar_t *cmd, size_t cap, const char *s)
{
    wchar_t w[4096];
    if (!MultiByteToWideChar(CP_ACP, 0, s, -1, w, (int)(sizeof w / sizeof w[0])))
        w[0] = 0;
    quote_arg(cmd, cap, w);
}

struct pipe_reader {
    HANDLE rd;
    HANDLE started; /* set when the first byte arrives */
    char *buf;
    size_t len, cap;
};

static DWORD WINAPI reader_main(void *p)
{
    struct pipe_reader *pr = p;
    char chunk[4096];
    DWORD n;
    while (ReadFile(pr->rd, chunk, sizeof chunk, &n, NULL) && n) {
        if (pr->len + n + 1 > pr->cap) {
            size_t nc = (pr->len + n + 1) * 2;
            char *b = realloc(pr->buf, nc);
            if (!b)
                break;
            pr->buf = b;
            pr->cap = nc;
        }
        memcpy(pr->buf + pr->len, chunk, n);
        pr->len += n;
        pr->buf[pr->len] = 0;
        SetEvent(pr->started);
    }
    SetEvent(pr->started);
    return 0;
}

/* the child's answer: "S\n" when the case starts, then "\nR status counted blen mlen\n" body msg */
static bool parse_child(struct pipe_reader *pr, int *status, int *counted, char **body, char **msg)
{
    if (!pr->buf)
        return false;
    char *rr = strstr(pr->buf, "\nR ");
    if (!rr)
        return false;
    rr++;
    unsigned blen = 0, mlen = 0;
    if (sscanf(rr, "R %d %d %u %u", status, counted, &blen, &mlen) != 4 || *status < 0 || *status >= R_COUNT)
        return false;
    char *nl = strchr(rr, '\n');
    if (!nl || (size_t)(nl + 1 - pr->buf) + blen + mlen > pr->len)
        return false;
    *body = malloc((size_t)blen + 1);
    *msg = malloc((size_t)mlen + 1);
    if (!*body || !*msg) {
        free(*body);
        free(*msg);
        return false;
    }
    memcpy(*body, nl + 1, blen);
    (*body)[blen] = 0;
    memcpy(*msg, nl + 1 + blen, mlen);
    (*msg)[mlen] = 0;
    return true;
}

static int run_children(struct etw_runner *r)
{
    const wchar_t *exe = win_exe_path();
    if (!exe[0]) {
        fprintf(stderr, "etwconf: cannot find the path of this executable for --isolation child\n");
        return 3;
    }
    HANDLE err_inh = NULL;
    DuplicateHandle(GetCurrentProcess(), GetStdHandle(STD_ERROR_HANDLE), GetCurrentProcess(), &err_inh, 0, TRUE, DUPLICATE_SAME_ACCESS);
    char ver[16], build[16];
    snprintf(ver, sizeof ver, "%s", etw_version_name(r->version));
    snprintf(build, sizeof build, "%u", r->t->build);
    unsigned fruitless = 0;
    for (size_t i = 0; i < r->nplan; i++) {
        if (interrupted)
            return 4;
        const struct etw_case *c = r->plan[i];
        static wchar_t cmd[32768];
        cmd[0] = 0;
        quote_arg(cmd, sizeof cmd / sizeof cmd[0], exe);
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], "__worker");
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], r->t->spec ? r->t->spec : "live");
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], ver);
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], build);
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], r->rerun_prefix ? r->rerun_prefix : "etwconf.exe run");
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], c->id);

        SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
        HANDLE rd, wr;
        if (!CreatePipe(&rd, &wr, &sa, 0)) {
            fprintf(stderr, "etwconf: CreatePipe failed (error %lu)\n", GetLastError());
            return 3;
        }
        SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
        STARTUPINFOW si;
        memset(&si, 0, sizeof si);
        si.cb = sizeof si;
        si.dwFlags = STARTF_USESTDHANDLES;
        si.hStdInput = NULL;
        si.hStdOutput = wr;
        si.hStdError = err_inh;
        PROCESS_INFORMATION pi;
        fflush(NULL);
        BOOL ok = CreateProcessW(exe, cmd, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL, &si, &pi);
        CloseHandle(wr);
        if (!ok) {
            fprintf(stderr, "etwconf: cannot start a child process (error %lu)\n", GetLastError());
            CloseHandle(rd);
            return 3;
        }
        struct pipe_reader pr = {rd, CreateEventW(NULL, TRUE, FALSE, NULL), NULL, 0, 0};
        HANDLE reader = CreateThread(NULL, 0, reader_main, &pr, 0, NULL);
        /* startup (not timed by --timeout-ms), then the case */
        HANDLE both[2] = {pr.started, pi.hProcess};
        bool timed_out = false;
        if (WaitForMultipleObjects(2, both, FALSE, 120000) == WAIT_TIMEOUT)
            timed_out = true;
        else if (WaitForSingleObject(pi.hProcess, r->timeout_ms ? r->timeout_ms : INFINITE) == WAIT_TIMEOUT)
            timed_out = true;
        if (timed_out) {
            TerminateProcess(pi.hProcess, 1);
            WaitForSingleObject(pi.hProcess, 10000);
        }
        if (reader) {
            WaitForSingleObject(reader, 10000);
            CloseHandle(reader);
        }
        DWORD code = 0;
        GetExitCodeProcess(pi.hProcess, &code);
        int status = 0, counted = 0;
        char *body = NULL, *msg = NULL;
        bool got = !timed_out && parse_child(&pr, &status, &counted, &body, &msg);
        if (got) {
            etw_emit_body(r, (enum etw_status_kind)status, counted != 0, body, c, msg);
            free(body);
            free(msg);
            fruitless = 0;
        } else {
            static struct etw_result res;
            memset(&res, 0, sizeof res);
            if (timed_out) {
                etw_result_abnormal(&res, c, r->version, R_TIMEOUT, "timeout", NULL);
                snprintf(res.message, sizeof res.message, "the target did not return within %u ms; the child process was killed",
                         r->timeout_ms);
            } else {
                char exc[48];
                win_format_code(exc, sizeof exc, code);
                etw_result_abnormal(&res, c, r->version, R_CRASH, exc, "(the child process died)");
                if (code == 0 && ++fruitless >= 3) {
                    fprintf(stderr, "etwconf: the child process ended three times without a result; giving up at case %s\n", c->id);
                    return 3;
                }
            }
            etw_result_finish(&res, r->version);
            etw_emit(r, &res);
            win_stop_sessions_of(pi.dwProcessId, false);
        }
        free(pr.buf);
        CloseHandle(pr.started);
        CloseHandle(rd);
        CloseHandle(pi.hThread);
        CloseHandle(pi.hProcess);
    }
    if (err_inh)
        CloseHandle(err_inh);
    return 0;
}

int plat_run_plan(struct etw_runner *r)
{
    int rc;
    InterlockedExchange(&run_active, 1);
    if (r->isolation == ISO_CHILD)
        rc = run_children(r);
    else
        rc = run_inproc(r); /* batch and inproc: in this process (see the top of this file) */
    InterlockedExchange(&run_active, 0);
    win_restore_all();
    exit_code_hint = rc ? 3 : 1;
    return rc;
}

/* ---------------------------------------------------------------- process set-up */
static BOOL WINAPI on_console(DWORD type)
{
    if ((type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT) && run_active && !interrupted) {
        InterlockedExchange(&interrupted, 1);
        fprintf(stderr, "etwconf: interrupted: stopping after the current case (again to quit at once)\n");
        return TRUE;
    }
    /* a second Ctrl-C, a closed console, logoff, shutdown: the process ends now */
    InterlockedExchange(&interrupted, 1);
    win_restore_all();
    return FALSE;
}

static void at_exit(void)
{
    win_restore_all();
    if (abandoned_threads) {
        /* a thread given up in the system may hold a lock that ExitProcess would wait for */
        fflush(NULL);
        TerminateProcess(GetCurrentProcess(), (UINT)exit_code_hint);
    }
}

static void win_init(void)
{
    if (initialised)
        return;
    initialised = true;
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
    /* JSON Lines with \n only; progress lines unbuffered */
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    setvbuf(stderr, NULL, _IONBF, 0);
    tls_guard = TlsAlloc();
    tls_worker = TlsAlloc();
    p_NtContinue = (pfn_NtContinue)(void (*)(void))GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtContinue");
    AddVectoredExceptionHandler(1, first_chance);
    SetUnhandledExceptionFilter(last_chance);
    SetConsoleCtrlHandler(on_console, TRUE);
    atexit(at_exit);
}

/* ---------------------------------------------------------------- targets and commands */
/* harness/targets/target.c also holds the built-in reference target, which etwconf.exe does not link
 * (reference/ is not built for Windows): its one reference symbol answers nothing here, and
 * plat_open_target below never opens that target. */
void *EtwRef_Symbol(const char *name);
void *EtwRef_Symbol(const char *name)
{
    (void)name;
    return NULL;
}

struct etw_target *plat_open_target(const char *spec, char *err, size_t errlen)
{
    win_init();
    if (!spec || !strcmp(spec, "live") || !strcmp(spec, "windows") || !strcmp(spec, "wine"))
        return win_live_target(err, errlen);
    if (!strcmp(spec, "reference")) {
        snprintf(err, errlen,
                 "the reference implementation is not part of etwconf.exe: it tests this system (leave out --target, or give "
                 "--target live) or a DLL that exports the API under its Windows names");
        return NULL;
    }
    return win_dll_target(spec, err, errlen);
}

/* etwconf.exe __worker SPEC VERSION BUILD RERUN CASE-ID: run one case, answer on stdout */
static int cmd_worker(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "etwconf: __worker is internal (used by --isolation child)\n");
        return 2;
    }
    child_mode = true;
    const struct etw_case *c = etw_case_find(argv[6]);
    unsigned version = etw_version_parse(argv[3]);
    char err[512] = "";
    struct etw_target *t = c && version ? plat_open_target(argv[2], err, sizeof err) : NULL;
    if (!t) {
        fprintf(stderr, "etwconf __worker: %s\n", err[0] ? err : "bad case id or version");
        return 3;
    }
    t->version = ETW_VNT(version); /* version: the table entry's id */
    t->build = (unsigned)strtoul(argv[4], NULL, 10);
    t->update = etw_version_info(version)->update;
    if (t->emulates && t->set_version(version, ETW_VIS_NT(version) ? t->build : 0) != 0) {
        fprintf(stderr, "etwconf __worker: the target cannot emulate %s\n", argv[3]);
        return 3;
    }
    static struct etw_runner r;
    r.t = t;
    r.version = version;
    r.isolation = ISO_CHILD;
    r.quiet = true;
    r.rerun_prefix = argv[5];
    fputs("S\n", stdout);
    fflush(stdout);
    static struct etw_result res;
    etw_run_case(&r, c, &res);
    struct etw_json j;
    etw_json_init(&j);
    etw_record_case_body(&j, &res, &r);
    const char *msg = res.message[0] ? res.message : res.reason;
    if (j.oom)
        return 3;
    printf("\nR %d %d %u %u\n", (int)res.status, res.counted ? 1 : 0, (unsigned)j.len, (unsigned)strlen(msg));
    fwrite(j.buf, 1, j.len, stdout);
    fwrite(msg, 1, strlen(msg), stdout);
    fflush(stdout);
    etw_json_free(&j);
    win_restore_all();
    return 0;
}

/* called first thing by main(): the Windows-only commands; -1 when argv is not one of them */
int plat_command(int argc, char **argv)
{
    win_init();
    if (argc > 1 && !strcmp(argv[1], "cleanup"))
        return win_cmd_cleanup(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "__worker"))
        return cmd_worker(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "fuzz")) {
        fprintf(stderr, "etwconf.exe fuzz: the fuzzer compares a target with the reference implementation, which etwconf.exe does "
                        "not contain: run 'etwconf fuzz' from the Linux build (make, then build/etwconf fuzz --help)\n");
        return 2;
    }
    return -1;
}
