/* recurses until the stack is exhausted (EXCEPTION_STACK_OVERFLOW, 0xC00000FD) -> CRASH, the run
 * goes on */
#include "bad.h"
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static etw_u32 deeper(volatile char *prev)
{
    volatile char frame[4096];
    frame[0] = prev ? prev[0] : 1;
    return deeper(frame) + frame[1];
}
BAD_TARGET(return deeper(NULL))
