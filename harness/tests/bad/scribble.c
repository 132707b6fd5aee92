/* A target that writes garbage to every descriptor from 3 to 63 (the worker's result channel is
 * one of them): the runner must refuse what it cannot trust, record the case, and go on. */
#include "common.h"
#include <unistd.h>
static void scribble(void)
{
    static const char junk[] = "\x31\x43\x57\x45\x01\0\0\0\xff\xff\xff\x7f garbage {\"id\":\"x\"}";
    for (int fd = 3; fd < 64; fd++)
        (void)!write(fd, junk, sizeof junk);
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; scribble(); return 24; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; scribble(); return 0xC0000004u; }
