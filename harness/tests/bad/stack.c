/* A target whose functions recurse until the thread's stack is exhausted (SIGSEGV on the guard
 * page, with no stack left for a handler that is not on an alternate stack): must be reported as
 * a crash, and the run (or the fuzzer) must go on to report it. */
#include "common.h"
static unsigned deep(volatile unsigned char *up, unsigned n)
{
    volatile unsigned char frame[512];
    if (n == 0xFFFFFFFFu) /* never: a stack is exhausted long before */
        return 0;
    frame[0] = (unsigned char)n;
    frame[511] = up ? up[0] : 0;
    return deep(frame, n + 1) + frame[511]; /* not a tail call: every level keeps its frame */
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; return deep(0, 0); }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; return (etw_status)deep(0, 0); }
