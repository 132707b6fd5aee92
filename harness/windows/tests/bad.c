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

/* each name and what etwconf.exe must make of it */
#define BAD_DLLS(X) \
    X(block)         /* blocked in the system: the thread cannot be redirected -> TIMEOUT */ \
    X(crash)         /* writes to 0x10, nobody handles it -> CRASH 0xC0000005 */ \
    X(detach_hang)   /* DLL_PROCESS_DETACH never returns: the run ends anyway */ \
    X(dllmain_crash) /* writes to 0x10 in DLL_PROCESS_ATTACH -> exit 3, with a message */ \
    X(dllmain_exit)  /* ExitProcess(0) while it is loaded -> exit 3, with a message */ \
    X(dllmain_hang)  /* holds the loader lock forever -> exit 3 at the deadline */ \
    X(exitprocess)   /* ExitProcess(0) in every call -> CRASH ("exit 0"), the run goes on */ \
    X(exitthread)    /* ExitThread(0) in every call -> CRASH, the run goes on */ \
    X(fastfail)      /* __fastfail, no handler runs -> CRASH 0xC0000409 */ \
    X(handled)       /* handles its own fault -> not a crash: FAIL on 998 (x86_64 only) */ \
    X(overflow)      /* recurses until the stack is exhausted -> CRASH 0xC00000FD */ \
    X(overrun)       /* writes 4 bytes past the buffer: the guard page -> FAIL, mode overrun */ \
    X(print)         /* prints to stdout (CRT, Win32): results stay valid JSON Lines */ \
    X(refused)       /* refuses a write past the buffer with a code, as Windows does */ \
    X(slowreset)     /* EtwRef_Reset takes 1.5 s: the fixture's time, not the call's */ \
    X(spin)          /* busy in user mode forever: the watchdog redirects it -> TIMEOUT */ \
    X(stub)          /* raises Wine's EXCEPTION_WINE_STUB -> CRASH 0x80000100 */ \
    X(terminate)     /* TerminateProcess on itself (no clean-up runs) -> CRASH */

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
    BOOL av = ep->ExceptionRecord->ExceptionCode == EXCEPTION_ACCESS_VIOLATION;
    return av ? EXCEPTION_EXECUTE_HANDLER : EXCEPTION_CONTINUE_SEARCH;
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

/* Windows writes a caller's buffer from kernel mode inside try/except: a write past its end into
 * the guard page returns ERROR_NOACCESS (998; STATUS_ACCESS_VIOLATION from the NT function), not a
 * fault. Modelled without a user-mode fault (the runner would take that for the overrun itself):
 * a write that would reach an inaccessible page is refused with the code, one with room is made.
 * The runner must record the same overrun as for a fault (FAIL, mode overrun). */
static etw_u32 refused(void *b, etw_u32 l, etw_u32 code)
{
    MEMORY_BASIC_INFORMATION mbi;
    if (!b)
        return 0;
    char *end = (char *)b + l;
    for (int i = 0; i < 4; i += 3)
        if (!VirtualQuery(end + i, &mbi, sizeof mbi) || mbi.State != MEM_COMMIT || (mbi.Protect & (PAGE_NOACCESS | PAGE_GUARD)))
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
    case BAD_slowreset:
        if (r)
            *r = bad == BAD_slowreset ? l : 0;
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

__declspec(dllexport) etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l,
                                                               etw_u32 *r)
{
    return misbehave(__func__, b, l, r, 998u);
}

__declspec(dllexport) etw_status ETW_WINAPI NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
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
