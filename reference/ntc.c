/*
 * reference/ntc.c - NtTraceControl for the function codes behind TraceQueryInformation(0x0E),
 * TraceSetInformation(0x0A) and EventSetInformation. Rules: spec/rules/ntc.def (notes section D).
 */
#include "reference/internal.h"
#include <string.h>

static bool code_known(etw_u32 code)
{
    switch (code) {
    case ETW_NTC_TRACK_PROVIDER_BINARY: return ref_at_least(ETW_V6_2);
    case ETW_NTC_UPDATE_DISALLOW_LIST:
    case ETW_NTC_SET_PROVIDER_TRAITS:
    case ETW_NTC_USE_DESCRIPTOR_TYPE:
    case ETW_NTC_GET_DISALLOW_LIST: return ref_at_least(ETW_V10_0);
    default: return false; /* the model knows no other function code */
    }
}

/* codes whose ReturnSize is written on failure too (notes NTC-05) */
static bool retsize_on_failure(etw_u32 code)
{
    return code == 0x13 || code == 0x17 || code == 0x20 || code == 0x21 || code == 0x22 || code == 0x24 || code == 0x26 ||
           code == 0x27 || code == 0x28;
}

static etw_status get_disallow_list(const etw_u8 *in, etw_u32 inlen, etw_u8 *out, etw_u32 outlen, etw_u32 *size)
{
    if (inlen != 8) /* @NTC.22.INPUT */
        return ETW_STATUS_INVALID_PARAMETER;
    etw_u16 id;
    memcpy(&id, in, 2); /* the logger id is the first USHORT; 0xFFFF is not translated */
    struct ref_logger *lg = ref_logger_exact(id); /* @NTC.22.BAD_LOGGER @DAL.PER_SESSION */
    if (!lg)
        return ETW_STATUS_INVALID_PARAMETER;
    *size = 16 * lg->ndisallow;
    if (*size > outlen) /* @NTC.22.TOO_SMALL */
        return ETW_STATUS_BUFFER_TOO_SMALL; /* @NTC.22.TOO_SMALL:code */
    if (*size)
        memcpy(out, lg->disallow, *size); /* @TQI.0E.OUTPUT */
    return ETW_STATUS_SUCCESS;
}

static etw_status update_disallow_list(const etw_u8 *in, etw_u32 inlen)
{
    ETW_NTC_DISALLOW_LIST_HEADER h;
    if (inlen < sizeof h)
        return ETW_STATUS_INVALID_PARAMETER;
    memcpy(&h, in, sizeof h);
    if ((etw_u64)sizeof h + 16ull * h.Count != inlen) /* @NTC.1C.FORMAT */
        return ETW_STATUS_INVALID_PARAMETER;
    struct ref_logger *lg = ref_logger_exact(h.LoggerId & 0xFFFF);
    if (!lg)
        return ETW_STATUS_INVALID_PARAMETER; /* inferred, as for 0x22 */
    etw_guid *list = NULL;
    if (h.Count) {
        list = ref_alloc(16ull * h.Count);
        if (!list)
            return ETW_STATUS_INSUFFICIENT_RESOURCES;
        memcpy(list, in + sizeof h, 16ull * h.Count);
    }
    ref_free(lg->disallow); /* @DAL.DYNAMIC */
    lg->disallow = list;
    lg->ndisallow = h.Count;
    return ETW_STATUS_SUCCESS;
}

static etw_status set_traits_code(const etw_u8 *in, etw_u32 inlen, etw_u32 outlen)
{
    ETW_NTC_SET_TRAITS_INPUT t;
    if (inlen != sizeof t || outlen < 0x78 || outlen > 0x10000)
        return ETW_STATUS_INVALID_PARAMETER;
    memcpy(&t, in, sizeof t);
    if (!t.Traits || !t.TraitsSize)
        return ETW_STATUS_INVALID_PARAMETER;
    struct ref_provider *p = ref_provider_from_handle(t.RegEntryHandle);
    if (!p)
        return ETW_STATUS_INVALID_HANDLE;
    return ref_ntc_set_traits(p, (const etw_u8 *)(uintptr_t)t.Traits, t.TraitsSize);
}

static etw_status use_descriptor_type(const etw_u8 *in, etw_u32 inlen, etw_u32 outlen)
{
    if (inlen != 0x10 || outlen != 0)
        return ETW_STATUS_INVALID_PARAMETER;
    etw_u64 h;
    memcpy(&h, in, 8);
    if (in[8] > 1)
        return ETW_STATUS_INVALID_PARAMETER;
    struct ref_provider *p = ref_provider_from_handle(h);
    if (!p)
        return ETW_STATUS_INVALID_HANDLE;
    p->descriptor_type = in[8] != 0;
    return ETW_STATUS_SUCCESS;
}

ETWREF_EXPORT etw_status ETW_WINAPI NtTraceControl(etw_u32 FunctionCode, void *InBuffer, etw_u32 InBufferLen, void *OutBuffer,
                                                   etw_u32 OutBufferLen, etw_u32 *ReturnSize)
{
    if (!ReturnSize) /* @NTC.RETSIZE_NULL */
        return ETW_STATUS_INVALID_PARAMETER; /* required from user mode (NTC-01) */
    if (!InBuffer) /* @NTC.NULL_IS_ZERO:in */
        InBufferLen = 0; /* NTC-02 */
    if (!OutBuffer) /* @NTC.NULL_IS_ZERO:out */
        OutBufferLen = 0;
    if (!code_known(FunctionCode))
        return ETW_STATUS_INVALID_DEVICE_REQUEST; /* @NTC.UNKNOWN_CODE */
    /* double-buffer through "pool" (NTC-04) */
    etw_u32 n = InBufferLen > OutBufferLen ? InBufferLen : OutBufferLen;
    etw_u8 *k = NULL;
    if (n) {
        k = ref_alloc(n);
        if (!k)
            return ETW_STATUS_NO_MEMORY; /* @NTC.NO_MEMORY */
        if (InBufferLen)
            memcpy(k, InBuffer, InBufferLen);
    }
    etw_u32 size = 0;
    etw_status st;
    switch (FunctionCode) {
    case ETW_NTC_GET_DISALLOW_LIST: st = get_disallow_list(k, InBufferLen, k, OutBufferLen, &size); break;
    case ETW_NTC_UPDATE_DISALLOW_LIST: st = update_disallow_list(k, InBufferLen); break;
    case ETW_NTC_SET_PROVIDER_TRAITS: st = set_traits_code(k, InBufferLen, OutBufferLen); break;
    case ETW_NTC_USE_DESCRIPTOR_TYPE: st = use_descriptor_type(k, InBufferLen, OutBufferLen); break;
    case ETW_NTC_TRACK_PROVIDER_BINARY: st = InBufferLen == 8 ? ETW_STATUS_SUCCESS : ETW_STATUS_INVALID_PARAMETER; break;
    default: st = ETW_STATUS_INVALID_DEVICE_REQUEST; break;
    }
    if (st == ETW_STATUS_SUCCESS) { /* @NTC.COPY_ON_SUCCESS:if */
        if (size)
            memcpy(OutBuffer, k, size); /* copied out only on success (NTC-04) */ /* @NTC.COPY_ON_SUCCESS */
        *ReturnSize = size;
    } else if (retsize_on_failure(FunctionCode)) { /* @NTC.RETSIZE_ON_FAILURE */
        *ReturnSize = size;
    }
    ref_free(k);
    return st;
}
