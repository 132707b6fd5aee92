/* A target whose first call writes past the buffer (the guard page catches it) and leaves its
 * state damaged: every later call in the same process hangs. A worker whose target wrote out of
 * bounds must be replaced, so no later case times out. */
#include "common.h"
#include <string.h>
#include <unistd.h>
static int damaged;
static etw_u32 call(void *b, etw_u32 l)
{
    if (damaged)
        for (;;)
            pause();
    if (b) {
        damaged = 1;
        memset((char *)b + l, 0, 4);
    }
    return 24;
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)r; return call(b, l); }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)r; return call(b, l) ? 0xC0000004u : 0; }
