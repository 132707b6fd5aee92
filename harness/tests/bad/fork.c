/* A target that forks in every call: the copy goes on running the harness's code (in a worker:
 * the worker's loop, writing to its result channel). Every case must still be recorded once. */
#include "common.h"
#include <unistd.h>
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; fork(); return 24; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; fork(); return 0xC0000004u; }
