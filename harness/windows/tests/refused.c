/* what Windows does with a caller's buffer: it is written from kernel mode inside try/except, so a
 * write past its end into the guard page comes back as ERROR_NOACCESS (998; STATUS_ACCESS_VIOLATION
 * from the NT function) instead of a fault in the caller. Modelled without a user-mode fault (the
 * runner's first-chance handler would take that as the overrun itself): the memory after the
 * buffer is looked up first, and a write that would reach an inaccessible page is refused with the
 * code. The runner must record the same overrun as for a fault (FAIL, mode overrun): the same call
 * with room after the buffer writes past it. */
#include "bad.h"
#include <string.h>

static etw_u32 write_past(void *b, etw_u32 l, etw_u32 refused)
{
    MEMORY_BASIC_INFORMATION mbi;
    if (!b)
        return 0;
    char *end = (char *)b + l;
    if (!VirtualQuery(end, &mbi, sizeof mbi) || mbi.State != MEM_COMMIT || (mbi.Protect & (PAGE_NOACCESS | PAGE_GUARD)) ||
        !VirtualQuery(end + 3, &mbi, sizeof mbi) || mbi.State != MEM_COMMIT || (mbi.Protect & (PAGE_NOACCESS | PAGE_GUARD)))
        return refused;
    memset(b, 0, (size_t)l + 4);
    return 0;
}

BAD_EXPORT etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
    (void)h, (void)c, (void)r;
    return write_past(b, l, 998u);
}

BAD_EXPORT etw_status ETW_WINAPI NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r)
{
    (void)c, (void)r;
    return (etw_status)write_past(b, l, 0xC0000005u);
}
