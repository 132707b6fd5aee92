/* A target that returns success for everything and writes nothing: must be reported as FAIL. */
#include "common.h"
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; return 0; }
EXPORT etw_u32 TraceSetInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l) { (void)h, (void)c, (void)b, (void)l; return 0; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; return 0; }
EXPORT etw_status NtSetSystemInformation(etw_u32 c, void *b, etw_u32 l) { (void)c, (void)b, (void)l; return 0; }
EXPORT etw_status NtTraceControl(etw_u32 f, void *i, etw_u32 il, void *o, etw_u32 ol, etw_u32 *r) { (void)f, (void)i, (void)il, (void)o, (void)ol, (void)r; return 0; }
EXPORT etw_u32 EtwCreateTraceInstanceId(etw_handle h, ETW_EVENT_INSTANCE_INFO *i) { (void)h, (void)i; return 0; }
EXPORT etw_u32 CreateTraceInstanceId(etw_handle h, ETW_EVENT_INSTANCE_INFO *i) { (void)h, (void)i; return 0; }
EXPORT etw_u32 EventSetInformation(etw_reghandle h, etw_u32 c, void *b, etw_u32 l) { (void)h, (void)c, (void)b, (void)l; return 0; }
