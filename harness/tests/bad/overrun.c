/* A target that writes one 32-bit value past the end of every buffer (and otherwise answers
 * plausibly): the write hits the guard page; must be reported as FAIL (overrun). */
#include "common.h"
#include <string.h>
static etw_u32 past_the_end(void *b, etw_u32 l, etw_u32 *r)
{
    if (r)
        *r = l;
    if (b)
        memset((char *)b + l, 0, 4);
    return 0;
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{ return past_the_end(b, l, r); }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{ return past_the_end(b, l, r); }
