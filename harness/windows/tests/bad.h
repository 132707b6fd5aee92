/* harness/windows/tests/bad.h - misbehaving DLL targets for the Windows platform layer (the wine
 * test stage runs etwconf.exe --target X.dll on them). Each exports the query functions the
 * tqi.* and ksi.* cases call and does one bad thing in them. */
#include "spec/abi.h"
#include <windows.h>
#define BAD_EXPORT __declspec(dllexport)
#define BAD_TARGET(body)                                                                                                   \
    BAD_EXPORT etw_u32 ETW_WINAPI TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r)       \
    {                                                                                                                      \
        (void)h, (void)c, (void)b, (void)l, (void)r;                                                                       \
        body;                                                                                                              \
    }                                                                                                                      \
    BAD_EXPORT etw_status ETW_WINAPI NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r)                    \
    {                                                                                                                      \
        (void)c, (void)b, (void)l, (void)r;                                                                                \
        body;                                                                                                              \
    }
