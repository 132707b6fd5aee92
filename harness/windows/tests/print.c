/* prints to stdout in every call, through the CRT and through the Win32 handle: results on
 * stdout must stay valid JSON Lines, in process too */
#include "bad.h"
#include <stdio.h>
static etw_u32 noise(void)
{
    DWORD n;
    printf("{\"type\":\"case\",\"noise\":\n");
    fflush(stdout);
    WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), "garbage from the target\n", 24, &n, NULL);
    return 24;
}
BAD_TARGET(return noise())
