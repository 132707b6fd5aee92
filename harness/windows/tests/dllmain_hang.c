/* never returns from DllMain(DLL_PROCESS_ATTACH), holding the loader lock: the probe process is
 * killed at its deadline, and the run ends with exit 3 and a message */
#include "bad.h"
BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
    (void)h, (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        Sleep(INFINITE);
    return TRUE;
}
BAD_TARGET(return 0)
