/* raises what Wine's unimplemented functions raise: EXCEPTION_WINE_STUB (non-continuable) with the
 * module and function names as its two parameters -> CRASH 0x80000100 */
#include "bad.h"

static etw_u32 stub(const char *fn)
{
    ULONG_PTR args[2] = {(ULONG_PTR) "stub.dll", (ULONG_PTR)fn};
    RaiseException(0x80000100u, EXCEPTION_NONCONTINUABLE, 2, args);
    return 0;
}

BAD_TARGET(return stub(__func__))
