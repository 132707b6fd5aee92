/*
 * harness/plat/win/host.c - host primitives on Windows (and Wine): time, names, the console
 * (Ctrl-C), the private stdout and guarded mappings (VirtualAlloc).
 */
#include "harness/plat/win/win.h"
#include <fcntl.h>
#include <io.h>

void win_format_code(char *buf, size_t len, DWORD code)
{
    snprintf(buf, len, code >= 0x80000000u ? "0x%08lX" : "exit %lu", (unsigned long)code);
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
    static const WORD codes[] = {[PLAT_ARCH_X86_64] = PROCESSOR_ARCHITECTURE_AMD64,
        [PLAT_ARCH_I686] = PROCESSOR_ARCHITECTURE_INTEL, [PLAT_ARCH_AARCH64] = 12 /* ARM64 */,
        [PLAT_ARCH_ARM] = PROCESSOR_ARCHITECTURE_ARM, [PLAT_ARCH_IA64] = PROCESSOR_ARCHITECTURE_IA64};
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    int a = PLAT_ARCH_IA64;
    while (a > PLAT_ARCH_UNKNOWN && codes[a] != si.wProcessorArchitecture)
        a--;
    return plat_arch_name((enum plat_arch)a);
}

void plat_exit(int code)
{
    plat_run_end_fns();
    fflush(NULL);
    TerminateProcess(GetCurrentProcess(), (UINT)code); /* no DLL_PROCESS_DETACH of a target */
    for (;;)
        Sleep(INFINITE);
}

static volatile LONG interrupted, catching;

static BOOL WINAPI on_console(DWORD type)
{
    if ((type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT) && catching && !interrupted) {
        InterlockedExchange(&interrupted, 1);
        fprintf(stderr, "etwconf: interrupted: stopping after the current case (again to quit at once)\n");
        return TRUE;
    }
    /* a second Ctrl-C, a closed console, logoff, shutdown: the process ends now */
    InterlockedExchange(&interrupted, 1);
    plat_run_end_fns();
    return FALSE;
}

void plat_catch_interrupts(void)
{
    InterlockedExchange(&catching, 1);
}

bool plat_interrupted(void)
{
    return interrupted != 0;
}

FILE *plat_private_stdout(void)
{
    fflush(stdout);
    int fd = _dup(_fileno(stdout));
    if (fd < 0)
        return NULL;
    FILE *f = _fdopen(fd, "wb");
    if (!f) {
        _close(fd);
        return NULL;
    }
    /* what a target prints goes to stderr: the CRT's fd 1 and the Win32 standard handle */
    _dup2(_fileno(stderr), _fileno(stdout));
    SetStdHandle(STD_OUTPUT_HANDLE, GetStdHandle(STD_ERROR_HANDLE));
    return f;
}

size_t plat_page_size(void)
{
    static size_t ps;
    if (!ps) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        ps = si.dwPageSize ? si.dwPageSize : 4096;
    }
    return ps;
}

void *plat_map_guarded(size_t len)
{
    DWORD old;
    unsigned char *m = VirtualAlloc(NULL, len + plat_page_size(), MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!m)
        return NULL;
    if (!VirtualProtect(m + len, plat_page_size(), PAGE_NOACCESS, &old)) {
        VirtualFree(m, 0, MEM_RELEASE);
        return NULL;
    }
    return m;
}

void plat_unmap_guarded(void *map, size_t len)
{
    VirtualFree(map, 0, MEM_RELEASE);
}

void *plat_shared_alloc(size_t len)
{
    return NULL; /* a worker is this exe started again: nothing is inherited */
}

void win_host_init(void (*exceptions)(void))
{
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
    /* JSON Lines with \n only; progress lines unbuffered */
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    setvbuf(stderr, NULL, _IONBF, 0);
    exceptions(); /* its atexit hook runs after the end hooks (plat_at_end registers them later) */
    SetConsoleCtrlHandler(on_console, TRUE);
}
