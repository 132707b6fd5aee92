/* writes to address 0x10: EXCEPTION_ACCESS_VIOLATION nobody handles -> CRASH 0xC0000005 */
#include "bad.h"
BAD_TARGET(*(volatile int *)0x10 = 1; return 0)
