/* a well-behaved target until the process ends: DllMain(DLL_PROCESS_DETACH) never returns. The
 * run completes, and etwconf.exe and its workers end anyway (results complete, then no DLL
 * detach) */
#include "bad.h"
BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
    (void)h, (void)reserved;
    if (reason == DLL_PROCESS_DETACH)
        Sleep(INFINITE);
    return TRUE;
}
BAD_TARGET(if (r) *r = 0; return 0)
