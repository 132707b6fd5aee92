/* A target that ends the calling thread (pthread_exit) in every call. */
#include "common.h"
#include <pthread.h>
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; pthread_exit(NULL); }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; pthread_exit(NULL); }
