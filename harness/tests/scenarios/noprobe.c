/*
 * harness/tests/scenarios/noprobe.c - a hand-broken target for the scenarios stage: the reference,
 * except that the class 0x07 probe with a NULL buffer returns its code without writing the size to
 * ReturnLength (what PerfView, pmctrace and DTrace for Windows depend on). Built with every other
 * reference source (mk/scenarios.mk); the reference's own TraceQueryInformation is renamed here.
 */
#define TraceQueryInformation reference_TraceQueryInformation
#include "reference/trace.c"
#undef TraceQueryInformation

ETWREF_EXPORT etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle SessionHandle, etw_u32 InformationClass, void *TraceInformation,
                                                       etw_u32 InformationLength, etw_u32 *ReturnLength)
{
    if (InformationClass == ETW_TraceProfileSourceListInfo && !TraceInformation) {
        etw_u32 size = 0; /* the size is found, and not written */
        return reference_TraceQueryInformation(SessionHandle, InformationClass, NULL, InformationLength, &size);
    }
    return reference_TraceQueryInformation(SessionHandle, InformationClass, TraceInformation, InformationLength, ReturnLength);
}
