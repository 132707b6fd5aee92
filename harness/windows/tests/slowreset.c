/* a target whose reset before every case (part of the case's fixture) takes 1.5 s and whose calls
 * return at once: with --timeout-ms shorter than that, the reset's time must not make the call a
 * TIMEOUT; with --fixture-timeout-ms shorter, the case is BROKEN (the fixture did not finish),
 * never a TIMEOUT */
#include "bad.h"
BAD_TARGET(if (r) *r = l; return 0)

BAD_EXPORT int EtwRef_Reset(void);
BAD_EXPORT int EtwRef_Reset(void)
{
    Sleep(1500);
    return 0;
}
