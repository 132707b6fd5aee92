/* reference/state.c - global state, versions, allocation faults, exports by version, control API. */
#include "reference/internal.h"
#include <stdlib.h>
#include <string.h>

struct ref_state ref = {.version = ETW_V10_0, .build = 10240, .update = 0};
static _Thread_local etw_u32 ref_last_error;

void *ref_alloc(size_t n)
{
    if (ref.fail_alloc_countdown && --ref.fail_alloc_countdown == 0)
        return NULL; /* the injected fault: this allocation fails, later ones succeed */
    return calloc(1, n ? n : 1);
}

void ref_free(void *p)
{
    free(p);
}

bool ref_at_least(unsigned version)
{
    return ref.version >= version;
}

unsigned ref_key(void)
{
    return ETW_VKEY(ref.version, ref.build, ref.update); /* @EXP.ADVAPI32.ESI:key */
}

bool ref_at_least_key(unsigned id)
{
    return ref_key() >= ETW_VLO(id);
}

/* RtlNtStatusToDosError for the codes the model produces (notes, table in section (b)). */
etw_u32 ref_status_to_win32(etw_status s)
{
    static const struct {
        etw_status status;
        etw_u32 win32;
    } map[] = {
        {ETW_STATUS_SUCCESS, ETW_ERROR_SUCCESS},
        {ETW_STATUS_UNSUCCESSFUL, ETW_ERROR_GEN_FAILURE}, /* @TRAITS.ONCE_CODE:map */
        {ETW_STATUS_NOT_IMPLEMENTED, ETW_ERROR_INVALID_FUNCTION},
        {ETW_STATUS_INVALID_INFO_CLASS, ETW_ERROR_INVALID_PARAMETER},
        {ETW_STATUS_INFO_LENGTH_MISMATCH, ETW_ERROR_BAD_LENGTH},
        {ETW_STATUS_ACCESS_VIOLATION, ETW_ERROR_NOACCESS},
        {ETW_STATUS_INVALID_HANDLE, ETW_ERROR_INVALID_HANDLE},
        {ETW_STATUS_INVALID_PARAMETER, ETW_ERROR_INVALID_PARAMETER},
        {ETW_STATUS_INVALID_DEVICE_REQUEST, ETW_ERROR_INVALID_FUNCTION},
        {ETW_STATUS_NO_MEMORY, ETW_ERROR_NOT_ENOUGH_MEMORY},
        {ETW_STATUS_ACCESS_DENIED, ETW_ERROR_ACCESS_DENIED}, /* @TSI.04.KERNEL:map-access */
        {ETW_STATUS_BUFFER_TOO_SMALL, ETW_ERROR_INSUFFICIENT_BUFFER},
        {ETW_STATUS_PRIVILEGE_NOT_HELD, ETW_ERROR_PRIVILEGE_NOT_HELD}, /* @TSI.04.KERNEL:map-privilege */
        {ETW_STATUS_INSUFFICIENT_RESOURCES, ETW_ERROR_NO_SYSTEM_RESOURCES},
        {ETW_STATUS_NOT_SUPPORTED, ETW_ERROR_NOT_SUPPORTED},
        {ETW_STATUS_FILE_CORRUPT_ERROR, ETW_ERROR_FILE_CORRUPT}, /* @TRAITS.FORMAT_SIZE:map */
        {ETW_STATUS_WMI_GUID_NOT_FOUND, ETW_ERROR_WMI_GUID_NOT_FOUND},
        {ETW_STATUS_WMI_INSTANCE_NOT_FOUND, ETW_ERROR_WMI_INSTANCE_NOT_FOUND}, /* @TQI.04.SYSTEM_LOGGER:map */
        {ETW_STATUS_BUFFER_OVERFLOW, ETW_ERROR_MORE_DATA},
    };
    for (size_t i = 0; i < REF_COUNT_OF(map); i++)
        if (map[i].status == s)
            return map[i].win32;
    return ETW_ERROR_GEN_FAILURE; /* not produced by the model */
}

ETWREF_EXPORT etw_u32 ETW_WINAPI GetLastError(void)
{
    return ref_last_error;
}

ETWREF_EXPORT void ETW_WINAPI SetLastError(etw_u32 code)
{
    ref_last_error = code;
}

/* ---------------------------------------------------------------- exports by version */
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

/* ---------------------------------------------------------------- control */
ETWREF_EXPORT int EtwRef_Reset(void)
{
    for (unsigned i = 0; i < REF_MAX_LOGGERS; i++)
        ref_logger_free(&ref.loggers[i]);
    ref_classic_reset();
    ref_providers_reset();
    ref.nrestricted = 0;
    ref.profile_privilege = true;
    ref.fail_alloc_countdown = 0;
    ref.pid = 0x1F40; /* the modelled current process */
    ref.timer_interval = 10000; /* 1 ms in 100 ns units: the Windows default */
    ref_profile_reset();
    ref_last_error = 0;
    return 0;
}

/* version: an NT version (ETW_V6_1) with build (0: the entry named by the NT version), or the
 * id of an entry named by its build (ETW_V10_0_26100, ETW_V6_1_7601_ESI: then build is 0 or that
 * entry's build). Any build of a known NT version is taken: the model behaves as the last entry at
 * or before it (ref_at_least_key). */
ETWREF_EXPORT int EtwRef_SetVersion(unsigned version, unsigned build)
{
    static const struct {
        unsigned id, nt, build, update;
    } entries[] = {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) {ETW_##sym, nt, build, update},
#include "spec/versions.def"
#undef VERSION
    };
    for (size_t i = 0; i < REF_COUNT_OF(entries); i++)
        if (entries[i].id == version) {
            if (!ETW_VIS_NT(version) && build && build != entries[i].build)
                return -1;
            ref.version = entries[i].nt;
            ref.build = build ? build : entries[i].build;
            ref.update = ETW_VIS_NT(version) && build ? 0 : entries[i].update;
            return 0;
        }
    return -1;
}

ETWREF_EXPORT unsigned EtwRef_GetVersion(void)
{
    return ref.version;
}

ETWREF_EXPORT int EtwRef_SetPrivilege(unsigned privilege, int held)
{
    if (privilege != ETWREF_PRIV_SYSTEM_PROFILE)
        return -1;
    ref.profile_privilege = held != 0;
    return 0;
}

ETWREF_EXPORT int EtwRef_FailAllocation(unsigned nth)
{
    ref.fail_alloc_countdown = nth;
    return 0;
}

ETWREF_EXPORT int EtwRef_RestrictGroup(const etw_guid *group)
{
    if (!group || ref.nrestricted >= REF_MAX_GROUPS)
        return -1;
    ref.restricted_groups[ref.nrestricted++] = *group;
    return 0;
}
