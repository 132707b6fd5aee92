/* never returns, blocked in the system: the thread cannot be redirected, it is given up -> TIMEOUT */
#include "bad.h"
BAD_TARGET(Sleep(INFINITE); return 0)
