/* ends the process with ExitProcess(0) in DllMain(DLL_PROCESS_ATTACH), while it is being loaded:
 * the probe process dies before the load returns, and the run ends with exit 3 and a message */
#include "bad.h"
BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
    (void)h, (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        ExitProcess(0);
    return TRUE;
}
BAD_TARGET(return 0)
