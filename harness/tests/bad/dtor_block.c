/* A library whose destructor blocks forever: the run, complete, must still end. */
#include "common.h"
#include <unistd.h>
__attribute__((destructor)) static void block_on_unload(void) { for (;;) pause(); }
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; return 24; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; return 0xC0000004u; }
