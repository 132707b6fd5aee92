/*
 * harness/plat/win/proc.c - worker processes on Windows: this executable again (its main hands
 * the arguments to the worker code), an anonymous pipe as the result channel, and a job object
 * that ends with the worker, so that processes a target starts go with it.
 */
#include "harness/plat/win/win.h"
#include <stdlib.h>
#include <string.h>

struct plat_proc {
    HANDLE process, thread, job, rd;
    DWORD pid;
    bool eof;
};

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
    wchar_t w[8192];
    if (!MultiByteToWideChar(CP_ACP, 0, s, -1, w, (int)(sizeof w / sizeof w[0])))
        w[0] = 0;
    quote_arg(cmd, cap, w);
}

struct plat_proc *plat_proc_start(int (*fn)(void *arg, plat_chan chan), void *arg, const char *const *argv, char *err, size_t errlen)
{
    (void)fn, (void)arg; /* no fork here: the new process runs the worker command of argv */
    const wchar_t *exe = win_exe_path();
    if (!exe[0])
        return snprintf(err, errlen, "cannot find the path of this executable to start a worker"), NULL;
    struct plat_proc *p = calloc(1, sizeof *p);
    static wchar_t cmd[32768];
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE wr;
    if (!p || !CreatePipe(&p->rd, &wr, &sa, 0)) {
        snprintf(err, errlen, p ? "CreatePipe failed (error %lu)" : "out of memory", GetLastError());
        free(p);
        return NULL;
    }
    SetHandleInformation(p->rd, HANDLE_FLAG_INHERIT, 0);
    cmd[0] = 0;
    quote_arg(cmd, sizeof cmd / sizeof cmd[0], exe);
    for (int i = 0; argv[i]; i++)
        quote_acp(cmd, sizeof cmd / sizeof cmd[0], argv[i]);
    char chan[32];
    snprintf(chan, sizeof chan, "%llu", (unsigned long long)(uintptr_t)wr);
    quote_acp(cmd, sizeof cmd / sizeof cmd[0], "--chan");
    quote_acp(cmd, sizeof cmd / sizeof cmd[0], chan);
    HANDLE err_inh = NULL;
    DuplicateHandle(GetCurrentProcess(), GetStdHandle(STD_ERROR_HANDLE), GetCurrentProcess(), &err_inh, 0, TRUE, DUPLICATE_SAME_ACCESS);
    /* no stdin; what a target prints never reaches the results */
    STARTUPINFOW si = {.cb = sizeof si, .dwFlags = STARTF_USESTDHANDLES, .hStdOutput = err_inh,
                       .hStdError = err_inh};
    PROCESS_INFORMATION pi;
    fflush(NULL);
    BOOL ok = CreateProcessW(exe, cmd, NULL, NULL, TRUE, CREATE_NO_WINDOW | CREATE_SUSPENDED, NULL, NULL, &si, &pi);
    CloseHandle(wr);
    if (err_inh)
        CloseHandle(err_inh);
    if (!ok) {
        snprintf(err, errlen, "cannot start a worker process (error %lu)", GetLastError());
        CloseHandle(p->rd);
        free(p);
        return NULL;
    }
    /* a job that kills what is left when it is closed; where jobs cannot nest (before Windows 8,
     * inside another job) the worker runs without one */
    p->job = CreateJobObjectW(NULL, NULL);
    if (p->job) {
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION li = {
            .BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE |
                                                JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION};
        if (!SetInformationJobObject(p->job, JobObjectExtendedLimitInformation, &li, sizeof li) ||
            !AssignProcessToJobObject(p->job, pi.hProcess)) {
            CloseHandle(p->job);
            p->job = NULL;
        }
    }
    ResumeThread(pi.hThread);
    p->process = pi.hProcess;
    p->thread = pi.hThread;
    p->pid = pi.dwProcessId;
    return p;
}

unsigned long plat_proc_id(const struct plat_proc *p)
{
    return p->pid;
}

long plat_proc_read(struct plat_proc *p, void *buf, size_t cap, unsigned ms)
{
    uint64_t until = plat_now_us() + (uint64_t)ms * 1000u;
    while (!p->eof) {
        DWORD avail = 0, n = 0;
        bool ended = WaitForSingleObject(p->process, 0) == WAIT_OBJECT_0;
        /* a failed peek: every writer closed it; a worker that is gone leaves what it sent (a
         * process it started may hold the pipe: no more is waited for) */
        if (!PeekNamedPipe(p->rd, NULL, 0, NULL, &avail, NULL) || (ended && !avail)) {
            p->eof = true;
        } else if (avail) {
            if (ReadFile(p->rd, buf, avail < cap ? avail : (DWORD)cap, &n, NULL) && n)
                return (long)n;
            p->eof = true;
        } else {
            uint64_t now = plat_now_us();
            if (now >= until)
                return -1;
            uint64_t left = (until - now) / 1000u;
            WaitForSingleObject(p->process, left < 5 ? (DWORD)(left ? left : 1) : 5);
        }
    }
    return 0;
}

bool plat_proc_end(struct plat_proc *p, char *how, size_t len)
{
    /* one that closed its channel is given 2 s to end by itself */
    bool killed = !(p->eof && WaitForSingleObject(p->process, 2000) == WAIT_OBJECT_0) &&
                  WaitForSingleObject(p->process, 0) != WAIT_OBJECT_0;
    if (killed && p->job)
        TerminateJobObject(p->job, 1);
    if (killed)
        TerminateProcess(p->process, 1);
    DWORD code = 0;
    bool gone = WaitForSingleObject(p->process, 5000) == WAIT_OBJECT_0;
    GetExitCodeProcess(p->process, &code);
    if (p->job) {
        TerminateJobObject(p->job, 1); /* whatever the worker left behind */
        CloseHandle(p->job);
    }
    if (gone && !killed)
        win_format_code(how, len, code);
    else
        snprintf(how, len, "%s", gone ? "killed" : "did not end");
    CloseHandle(p->rd);
    CloseHandle(p->thread);
    CloseHandle(p->process);
    free(p);
    return gone && !killed && code == 0;
}

bool plat_chan_write(plat_chan c, const void *buf, size_t len)
{
    const char *b = buf;
    while (len) {
        DWORD n = 0;
        if (!WriteFile((HANDLE)c, b, len > 65536 ? 65536 : (DWORD)len, &n, NULL) || !n)
            return false;
        b += n;
        len -= n;
    }
    return true;
}

bool win_started_by_runner(void)
{
    plat_chan c;
    return __argc >= 4 && !strcmp(__argv[__argc - 2], "--chan") && plat_chan_parse(__argv[__argc - 1], &c);
}

bool plat_chan_parse(const char *s, plat_chan *c)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || !v)
        return false;
    *c = (plat_chan)(uintptr_t)v;
    return true;
}
