/* A library whose constructor aborts: loading it must not take the runner with it. */
#include "common.h"
#include <stdlib.h>
__attribute__((constructor)) static void die_on_load(void) { abort(); }
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; return 24; }
