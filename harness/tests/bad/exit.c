/* A target that calls exit(0) in every call: in process the run must still leave a footer with
 * complete:false and a non-zero exit status; in a worker each case is a CRASH. */
#include "common.h"
#include <stdlib.h>
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; exit(0); }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; exit(0); }
