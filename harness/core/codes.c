/* harness/core/codes.c - names for Win32 codes and NTSTATUS values, and their formatting. */
#include "harness/core/core.h"

#define C(n) {ETW_ERROR_##n, "ERROR_" #n}
static const struct {
    etw_u32 v;
    const char *name;
} win32[] = {
    C(SUCCESS), C(INVALID_FUNCTION), C(ACCESS_DENIED), C(INVALID_HANDLE), C(NOT_ENOUGH_MEMORY), C(OUTOFMEMORY), C(BAD_LENGTH),
    C(GEN_FAILURE), C(NOT_SUPPORTED), C(INVALID_PARAMETER), C(CALL_NOT_IMPLEMENTED), C(INSUFFICIENT_BUFFER), C(MORE_DATA),
    C(NOACCESS), C(PRIVILEGE_NOT_HELD), C(FILE_CORRUPT), C(NO_SYSTEM_RESOURCES), C(INCORRECT_SIZE), C(WMI_GUID_NOT_FOUND),
    C(WMI_INSTANCE_NOT_FOUND),
};
#undef C
#define C(n) {(etw_u32)ETW_STATUS_##n, "STATUS_" #n}
static const struct {
    etw_u32 v;
    const char *name;
} ntstatus[] = {
    C(SUCCESS), C(MORE_ENTRIES), C(BUFFER_OVERFLOW), C(UNSUCCESSFUL), C(NOT_IMPLEMENTED), C(INVALID_INFO_CLASS),
    C(INFO_LENGTH_MISMATCH), C(ACCESS_VIOLATION), C(INVALID_HANDLE), C(INVALID_PARAMETER), C(INVALID_DEVICE_REQUEST),
    C(NO_MEMORY), C(ACCESS_DENIED), C(BUFFER_TOO_SMALL), C(PRIVILEGE_NOT_HELD), C(INSUFFICIENT_RESOURCES), C(NOT_SUPPORTED),
    C(FILE_CORRUPT_ERROR), C(WMI_GUID_NOT_FOUND), C(WMI_INSTANCE_NOT_FOUND), {0x80000100u, "EXCEPTION_WINE_STUB"},
};
#undef C

const char *etw_win32_name(etw_u32 code)
{
    for (size_t i = 0; i < sizeof win32 / sizeof win32[0]; i++)
        if (win32[i].v == code)
            return win32[i].name;
    return NULL;
}

const char *etw_ntstatus_name(etw_u32 status)
{
    for (size_t i = 0; i < sizeof ntstatus / sizeof ntstatus[0]; i++)
        if (ntstatus[i].v == status)
            return ntstatus[i].name;
    return NULL;
}

void etw_format_code(char *buf, size_t len, etw_u32 v, bool nt)
{
    const char *n = nt ? etw_ntstatus_name(v) : etw_win32_name(v);
    if (nt || v > 0xFFFF)
        snprintf(buf, len, n ? "0x%08X (%s)" : "0x%08X", v, n);
    else
        snprintf(buf, len, n ? "%u (%s)" : "%u", v, n);
}
