/* ends the process with ExitProcess(0) in every call: out of process (the default for a DLL) each
 * case is a CRASH ("exit 0") and the run goes on */
#include "bad.h"
BAD_TARGET(ExitProcess(0); return 0)
