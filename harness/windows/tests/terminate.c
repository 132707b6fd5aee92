/* TerminateProcess on its own process in every call (no clean-up runs) -> CRASH, the run goes on */
#include "bad.h"
BAD_TARGET(TerminateProcess(GetCurrentProcess(), 7); return 0)
