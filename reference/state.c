/* reference/state.c - the modelled state every file shares: the emulated version, allocation
 * faults, the thread's last error, status translation. Files above it: exports.c (the exports by
 * version and the control API's symbols) and control.c (EtwRef_Reset and the control setters). */
#include "reference/internal.h"
#include <stdlib.h>

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

/* the state's own fields back to their defaults (EtwRef_Reset resets the modules' first) */
void ref_state_reset(void)
{
    ref.nrestricted = 0;
    ref.profile_privilege = true;
    ref.fail_alloc_countdown = 0;
    ref.pid = 0x1F40; /* the modelled current process */
    ref.timer_interval = 10000; /* 1 ms in 100 ns units: the Windows default */
    ref_last_error = 0;
}
