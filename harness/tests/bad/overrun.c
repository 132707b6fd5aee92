/* A target that writes one 32-bit value past the end of every buffer (and otherwise answers
 * plausibly): the write hits the guard page; must be reported as FAIL (overrun). */
#include "common.h"
#include <string.h>
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
    (void)h, (void)c;
    if (r)
        *r = l;
    if (b)
        memset((char *)b + l, 0, 4); /* past the end */
    return 0;
}
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
    (void)c;
    if (r)
        *r = l;
    if (b)
        memset((char *)b + l, 0, 4);
    return 0;
}
