/* never returns, busy in user mode: the watchdog redirects the thread -> TIMEOUT */
#include "bad.h"
BAD_TARGET(for (volatile int k = 0;; k++) {} return 0)
