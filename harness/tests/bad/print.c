/* A target that prints to stdout in every call (and answers plausibly): the results, also when
 * they go to stdout, must stay valid JSON Lines. */
#include "common.h"
#include <stdio.h>
#include <unistd.h>
static void noise(void)
{
    printf("{\"type\":\"case\",\"noise\":\n"); /* looks like a record, is not one */
    fflush(stdout);
    (void)!write(1, "garbage from the target\n", 24);
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; noise(); return 24; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; noise(); return 0xC0000004u; }
