/* A target whose every function dereferences NULL: must be reported as CRASH, and the run must go on. */
#include "common.h"
static void die(void) { *(volatile int *)0 = 1; }
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; die(); return 0; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; die(); return 0; }
EXPORT etw_u32 EtwCreateTraceInstanceId(etw_handle h, ETW_EVENT_INSTANCE_INFO *i) { (void)h, (void)i; die(); return 0; }
