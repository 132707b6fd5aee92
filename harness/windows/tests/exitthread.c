/* ends the calling thread with ExitThread(0) in every call -> CRASH, the run goes on */
#include "bad.h"
BAD_TARGET(ExitThread(0); return 0)
