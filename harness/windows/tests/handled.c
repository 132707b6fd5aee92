/* faults and handles its own fault (like an API probing a bad pointer): not a crash. The case
 * sees ERROR_NOACCESS (998) and FAILs on the return code. */
#include "bad.h"
#include <excpt.h>

static volatile int *volatile bad_ptr = (volatile int *)0x10;

LONG handled_filter(EXCEPTION_POINTERS *ep, void *frame);
LONG handled_filter(EXCEPTION_POINTERS *ep, void *frame)
{
    (void)frame;
    return ep->ExceptionRecord->ExceptionCode == EXCEPTION_ACCESS_VIOLATION ? EXCEPTION_EXECUTE_HANDLER : EXCEPTION_CONTINUE_SEARCH;
}

static etw_u32 probe(void)
{
    etw_u32 rc = 0;
    __try1(handled_filter)
    {
        *bad_ptr = 1;
    }
    __except1
    {
        rc = 998;
    }
    return rc;
}

BAD_TARGET(return probe())
