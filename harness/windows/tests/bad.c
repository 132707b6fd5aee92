/* harness/windows/tests/bad.c - misbehaving DLL targets for the Windows platform layer (the wine
 * and faults stages run etwconf.exe --target NAME.dll on them). mk/windows.mk links this one
 * object into a DLL of every name of BAD_DLLS; each exports the query functions the tqi.* and
 * ksi.* cases call and, chosen by its own file name when it is loaded, does one bad thing. A DLL
 * of any other name refuses to load. */
#include "spec/abi.h"
#include <windows.h>
#include <excpt.h>
#include <stdio.h>
#include <string.h>

#define BAD_DLLS(X)                                                                                \
    /* never returns, blocked in the system: the thread cannot be redirected, it is given up ->   \
     * TIMEOUT */                                                                                  \
    X(block)                                                                                       \
    /* writes to address 0x10: EXCEPTION_ACCESS_VIOLATION nobody handles -> CRASH 0xC0000005 */    \
    X(crash)                                                                                       \
    /* a well-behaved target until the process ends: DllMain(DLL_PROCESS_DETACH) never returns.   \
     * The run completes, and etwconf.exe and its workers end anyway (results complete, then no   \
     * DLL detach) */                                                                              \
    X(detach_hang)                                                                                 \
    /* writes to address 0x10 in DllMain(DLL_PROCESS_ATTACH): the load crashes (or, where the     \
     * loader catches it, fails); either way the run ends with exit 3 and a message */             \
    X(dllmain_crash)                                                                               \
    /* ends the process with ExitProcess(0) in DllMain(DLL_PROCESS_ATTACH), while it is being     \
     * loaded: the probe process dies before the load returns, the run ends with exit 3 */         \
    X(dllmain_exit)                                                                                \
    /* never returns from DllMain(DLL_PROCESS_ATTACH), holding the loader lock: the probe process \
     * is killed at its deadline, and the run ends with exit 3 and a message */                    \
    X(dllmain_hang)                                                                                \
    /* ExitProcess(0) in every call: out of process (the default for a DLL) each case is a CRASH  \
     * ("exit 0") and the run goes on */                                                           \
    X(exitprocess)                                                                                 \
    /* ends the calling thread with ExitThread(0) in every call -> CRASH, the run goes on */       \
    X(exitthread)                                                                                  \
    /* __fastfail: the process ends at once with STATUS_STACK_BUFFER_OVERRUN (0xC0000409), no     \
     * handler runs -> CRASH, the run goes on */                                                   \
    X(fastfail)                                                                                    \
    /* faults and handles its own fault (like an API probing a bad pointer): not a crash. The     \
     * case sees ERROR_NOACCESS (998) and FAILs on the return code. x86_64 only */                 \
    X(handled)                                                                                     \
    /* recurses until the stack is exhausted (EXCEPTION_STACK_OVERFLOW, 0xC00000FD) -> CRASH */    \
    X(overflow)                                                                                    \
    /* writes 4 bytes past the end of the buffer: the guard page -> FAIL, mode overrun */          \
    X(overrun)                                                                                     \
    /* prints to stdout in every call, through the CRT and through the Win32 handle: results on   \
     * stdout must stay valid JSON Lines, in process too */                                        \
    X(print)                                                                                       \
    /* refuses a write past the buffer's end with a code, as Windows does (refused() below) */     \
    X(refused)                                                                                     \
    /* its reset before every case (part of the case's fixture) takes 1.5 s, its calls return at  \
     * once: with --timeout-ms shorter than that, the reset's time must not make the call a       \
     * TIMEOUT; with --fixture-timeout-ms shorter, the case is BROKEN, never a TIMEOUT */           \
    X(slowreset)                                                                                   \
    /* never returns, busy in user mode: the watchdog redirects the thread -> TIMEOUT */           \
    X(spin)                                                                                        \
    /* raises what Wine's unimplemented functions raise: EXCEPTION_WINE_STUB (non-continuable)    \
     * with the module and function names as its two parameters -> CRASH 0x80000100 */            \
    X(stub)                                                                                        \
    /* TerminateProcess on its own process in every call (no clean-up runs) -> CRASH */            \
    X(terminate)

#define BAD_ENUM(name) BAD_##name,
#define BAD_NAME(name) L## #name L".dll",
enum bad { BAD_DLLS(BAD_ENUM) BAD_COUNT };
static const wchar_t *const bad_names[] = {BAD_DLLS(BAD_NAME)};
static enum bad bad = BAD_COUNT;

static volatile int *volatile bad_ptr = (volatile int *)0x10;

#if defined(__x86_64__)
LONG handled_filter(EXCEPTION_POINTERS *ep, void *frame);
LONG handled_filter(EXCEPTION_POINTERS *ep, void *frame)
{
    (void)frame;
    return ep->ExceptionRecord->ExceptionCode == EXCEPTION_ACCESS_VIOLATION ? EXCEPTION_EXECUTE_HANDLER : EXCEPTION_CONTINUE_SEARCH;
}

static etw_u32 handled(void)
{
    etw_u32 rc = 0;
    __try1(handled_filter)
    {
        *bad_ptr = 1;
    }
    __except1
    {
        rc = 998;
    }
    return rc;
}
#endif

#pragma GCC diagnostic ignored "-Winfinite-recursion"
static etw_u32 deeper(volatile char *prev)
{
    volatile char frame[4096];
    frame[0] = prev ? prev[0] : 1;
    return deeper(frame) + frame[1];
}

static etw_u32 noise(void)
{
    DWORD n;
    printf("{\"type\":\"case\",\"noise\":\n");
    fflush(stdout);
    WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), "garbage from the target\n", 24, &n, NULL);
    return 24;
}

/* what Windows does with a caller's buffer: it is written from kernel mode inside try/except, so a
 * write past its end into the guard page comes back as ERROR_NOACCESS (998; STATUS_ACCESS_VIOLATION
 * from the NT function) instead of a fault in the caller. Modelled without a user-mode fault (the
 * runner's first-chance handler would take that as the overrun itself): the memory after the
 * buffer is looked up first, and a write that would reach an inaccessible page is refused with the
 * code. The runner must record the same overrun as for a fault (FAIL, mode overrun): the same call
 * with room after the buffer writes past it. */
static etw_u32 refused(void *b, etw_u32 l, etw_u32 code)
{
    MEMORY_BASIC_INFORMATION mbi;
    if (!b)
        return 0;
    char *end = (char *)b + l;
    if (!VirtualQuery(end, &mbi, sizeof mbi) || mbi.State != MEM_COMMIT || (mbi.Protect & (PAGE_NOACCESS | PAGE_GUARD)) ||
        !VirtualQuery(end + 3, &mbi, sizeof mbi) || mbi.State != MEM_COMMIT || (mbi.Protect & (PAGE_NOACCESS | PAGE_GUARD)))
        return code;
    memset(b, 0, (size_t)l + 4);
    return 0;
}

/* one call of the query function fn; refused_code: what refused() returns from it */
static etw_u32 misbehave(const char *fn, void *b, etw_u32 l, etw_u32 *r, etw_u32 refused_code)
{
    switch (bad) {
    case BAD_block: Sleep(INFINITE); break;
    case BAD_crash: *bad_ptr = 1; break;
    case BAD_exitprocess: ExitProcess(0);
    case BAD_exitthread: ExitThread(0);
    /* the instruction is int 0x29 with the code in ecx */
    case BAD_fastfail: __asm__ volatile("movl $7, %%ecx; int $0x29" : : : "ecx", "memory"); break;
#if defined(__x86_64__)
    case BAD_handled: return handled();
#endif
    case BAD_overflow: return deeper(NULL);
    case BAD_overrun:
        if (r)
            *r = l;
        if (b)
            memset((char *)b + l, 0, 4);
        break;
    case BAD_print: return noise();
    case BAD_refused: return refused(b, l, refused_code);
    case BAD_detach_hang:
        if (r)
            *r = 0;
        break;
    case BAD_slowreset:
        if (r)
            *r = l;
        break;
    case BAD_spin:
        for (volatile int k = 0;; k++) {
        }
    case BAD_stub: {
        ULONG_PTR args[2] = {(ULONG_PTR) "stub.dll", (ULONG_PTR)fn};
        RaiseException(0x80000100u, EXCEPTION_NONCONTINUABLE, 2, args);
        break;
    }
    case BAD_terminate: TerminateProcess(GetCurrentProcess(), 7); break;
    default: break;
    }
    return 0;
}

__declspec(dllexport) etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
    (void)h, (void)c;
    return misbehave(__func__, b, l, r, 998u);
}

__declspec(dllexport) etw_status ETW_WINAPI NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
    (void)c;
    return (etw_status)misbehave(__func__, b, l, r, 0xC0000005u);
}

/* exported by slowreset.dll alone (mk/windows.mk) */
int EtwRef_Reset(void);
int EtwRef_Reset(void)
{
    Sleep(1500);
    return 0;
}

BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
    (void)reserved;
    if (reason == DLL_PROCESS_DETACH && bad == BAD_detach_hang)
        Sleep(INFINITE);
    if (reason != DLL_PROCESS_ATTACH)
        return TRUE;
    wchar_t path[MAX_PATH];
    DWORD n = GetModuleFileNameW(h, path, MAX_PATH);
    const wchar_t *base = path + n;
    while (base > path && base[-1] != L'\\' && base[-1] != L'/')
        base--;
    for (int i = 0; i < BAD_COUNT && n && n < MAX_PATH; i++)
        if (!lstrcmpiW(base, bad_names[i]))
            bad = (enum bad)i;
#if !defined(__x86_64__)
    if (bad == BAD_handled)
        bad = BAD_COUNT; /* its handler is x86_64's: no 32-bit build of it */
#endif
    if (bad == BAD_dllmain_crash)
        *bad_ptr = 1;
    if (bad == BAD_dllmain_exit)
        ExitProcess(0);
    if (bad == BAD_dllmain_hang)
        Sleep(INFINITE);
    return bad != BAD_COUNT;
}
