/* A target whose functions never return: must be reported as TIMEOUT, and the run must go on. */
#include "common.h"
#include <unistd.h>
static void forever(void) { for (;;) pause(); }
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; forever(); return 0; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; forever(); return 0; }
