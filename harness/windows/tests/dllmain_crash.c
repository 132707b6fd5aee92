/* writes to address 0x10 in DllMain(DLL_PROCESS_ATTACH): the load crashes (or, where the loader
 * catches it, fails); either way the run ends with exit 3 and a message */
#include "bad.h"
BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
    (void)h, (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        *(volatile int *)0x10 = 1;
    return TRUE;
}
BAD_TARGET(return 0)
