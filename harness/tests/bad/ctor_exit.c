/* A library whose constructor calls exit(0): the process that loads it ends with status 0 and no
 * word, which must not be taken for a successful load (nor end the runner with exit 0). */
#include "common.h"
#include <stdlib.h>
__attribute__((constructor)) static void exit_on_load(void) { exit(0); }
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; return 24; }
