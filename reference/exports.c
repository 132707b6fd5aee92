/* reference/exports.c - the exports by version (EtwRef_GetProcAddress) and every symbol of the
 * library by name (EtwRef_Symbol): the one file that names every other. */
#include "reference/internal.h"
#include <string.h>

struct ref_export {
    const char *module, *name;
    void *fn;
    unsigned vmin, vmax; /* version keys */
};
#define EXP(m, n, lo, hi) {m, #n, (void *)n, ETW_VLO(lo), ETW_VHI(hi)}
static const struct ref_export exports[] = {
    /* seed 000: ADVAPI32 6.2+ (forward to KERNELBASE in 6.2, to SECHOST through the API set from 6.3) */
    EXP("advapi32", TraceQueryInformation, ETW_V6_2, ETW_VMAX), /* @EXP.ADVAPI32.TQI */
    EXP("kernelbase", TraceQueryInformation, ETW_V6_2, ETW_V6_2), /* @EXP.KERNELBASE.TQI */
    EXP("sechost", TraceQueryInformation, ETW_V6_3, ETW_VMAX), /* @EXP.SECHOST.TQI */
    /* notes TSI-01: ADVAPI32 6.1+. Real DLLs' export tables (DynamoRIO/dynamorio#1528,
     * DynamoRIO/drmemory#1556): KERNELBASE in 6.2 only, SECHOST from 6.3, as Microsoft's page says */
    EXP("advapi32", TraceSetInformation, ETW_V6_1, ETW_VMAX), /* @EXP.ADVAPI32.TSI */
    EXP("kernelbase", TraceSetInformation, ETW_V6_2, ETW_V6_2), /* @EXP.KERNELBASE.TSI */
    EXP("sechost", TraceSetInformation, ETW_V6_3, ETW_VMAX), /* @EXP.SECHOST.TSI */
    /* seed 002 */
    EXP("ntdll", EtwCreateTraceInstanceId, ETW_V5_2, ETW_VMAX), /* @EXP.NTDLL.ETWCTI */
    EXP("advapi32", CreateTraceInstanceId, ETW_V5_2, ETW_VMAX), /* @EXP.ADVAPI32.CTI */
    EXP("advapi32", RegisterTraceGuidsW, ETW_V5_2, ETW_VMAX), /* @EXP.ADVAPI32.RTG */
    EXP("advapi32", UnregisterTraceGuids, ETW_V5_2, ETW_VMAX), /* @EXP.ADVAPI32.RTG:unregister */
    EXP("advapi32", EventRegister, ETW_V6_0, ETW_VMAX), /* @EXP.ADVAPI32.EVENTREGISTER */
    EXP("advapi32", EventUnregister, ETW_V6_0, ETW_VMAX), /* @EXP.ADVAPI32.EVENTREGISTER:unregister */
    /* notes ESI-01; on 6.1 from the update of spec/versions.def (KB3080149): "also available on
     * fully-patched Windows 7, but not on Windows 7 RTM" (chromium base/trace_event/trace_logging_minimal_win.cc) */
    EXP("advapi32", EventSetInformation, ETW_V6_1_7601_ESI, ETW_V6_1_7601_ESI), /* @EXP.ADVAPI32.ESI:update */
    EXP("advapi32", EventSetInformation, ETW_V6_2, ETW_VMAX), /* @EXP.ADVAPI32.ESI */
    EXP("ntdll", EtwEventSetInformation, ETW_V6_2, ETW_VMAX), /* @EXP.NTDLL.ETWESI */
    EXP("ntdll", NtQuerySystemInformation, ETW_V5_2, ETW_VMAX), /* @EXP.NTDLL.NTQSI */
    EXP("ntdll", NtSetSystemInformation, ETW_V5_2, ETW_VMAX), /* @EXP.NTDLL.NTQSI:set */
    EXP("ntdll", NtQueryIntervalProfile, ETW_V5_2, ETW_VMAX),
    EXP("ntdll", NtSetIntervalProfile, ETW_V5_2, ETW_VMAX),
    EXP("ntdll", NtTraceControl, ETW_V6_0, ETW_VMAX), /* @EXP.NTDLL.NTTRACECONTROL */
    EXP("kernel32", GetLastError, ETW_V5_2, ETW_VMAX),
    EXP("kernel32", SetLastError, ETW_V5_2, ETW_VMAX),
};

static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a, cb = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (ca != cb || !ca)
            return ca - cb;
    }
}

ETWREF_EXPORT void *EtwRef_GetProcAddress(const char *module, const char *name)
{
    if (!module || !name)
        return NULL;
    size_t ml = strlen(module);
    char m[64];
    if (ml >= sizeof m)
        return NULL;
    memcpy(m, module, ml + 1);
    if (ml > 4 && !ascii_casecmp(m + ml - 4, ".dll"))
        m[ml - 4] = 0;
    for (size_t i = 0; i < REF_COUNT_OF(exports); i++)
        if (!ascii_casecmp(exports[i].module, m) && !strcmp(exports[i].name, name))
            {
            if (ref_key() >= exports[i].vmin && ref_key() <= exports[i].vmax)
                return exports[i].fn;
            continue; /* another line may give the same export at other versions */
        }
    return NULL;
}

#define SYM(n) {#n, (void *)n}
ETWREF_EXPORT void *EtwRef_Symbol(const char *name)
{
    static const struct {
        const char *name;
        void *fn;
    } syms[] = {
        SYM(EtwRef_Reset), SYM(EtwRef_SetVersion), SYM(EtwRef_GetVersion), SYM(EtwRef_GetProcAddress),
        SYM(EtwRef_StartLogger), SYM(EtwRef_StopLogger), SYM(EtwRef_GetLoggerMasks), SYM(EtwRef_MissingLoggerHandle),
        SYM(EtwRef_SetPrivilege), SYM(EtwRef_FailAllocation), SYM(EtwRef_SetClassCounter), SYM(EtwRef_SetClassProcessId),
        SYM(EtwRef_RestrictGroup), SYM(EtwRef_EnableGroup), SYM(EtwRef_RegEntryHandle), SYM(EtwRef_EventTraits),
    };
    if (!name)
        return NULL;
    for (size_t i = 0; i < REF_COUNT_OF(syms); i++)
        if (!strcmp(syms[i].name, name))
            return syms[i].fn;
    for (size_t i = 0; i < REF_COUNT_OF(exports); i++)
        if (!strcmp(exports[i].name, name))
            return exports[i].fn;
    return NULL;
}
