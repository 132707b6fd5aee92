/*
 * reference/provider.c - EventRegister, EventSetInformation, provider traits, provider groups.
 * Rules: spec/rules/provider.def (seed 003 and research notes section E).
 */
#include "reference/internal.h"
#include <string.h>

void ref_providers_reset(void)
{
    for (unsigned i = 0; i < REF_MAX_PROVIDERS; i++) {
        ref_free(ref.providers[i].traits);
        etw_u16 seq = ref.providers[i].seq;
        memset(&ref.providers[i], 0, sizeof ref.providers[i]);
        ref.providers[i].seq = seq; /* sequence numbers survive, so stale handles stay stale */
    }
    if (!ref.next_seq)
        ref.next_seq = 1;
}

/* REGHANDLE: sequence number in the top 16 bits (never 0), an even "address" below (notes ESI-04) */
static etw_reghandle make_handle(unsigned slot, etw_u16 seq)
{
    return ((etw_u64)seq << 48) | 0x10000ull | ((etw_u64)(slot + 1) << 4);
}

struct ref_provider *ref_provider_from_handle(etw_reghandle h)
{
    etw_u16 seq = (etw_u16)(h >> 48);
    etw_u64 low = h & 0xFFFFFFFFFFFFull;
    if (!seq || (low & 1) || low < 0x10000ull)
        return NULL;
    etw_u64 slot = ((low - 0x10000ull) >> 4);
    if (slot == 0 || slot > REF_MAX_PROVIDERS || ((low - 0x10000ull) & 0xF))
        return NULL;
    struct ref_provider *p = &ref.providers[slot - 1];
    return p->used && p->seq == seq ? p : NULL;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI EventRegister(const etw_guid *ProviderId, etw_enablecallback EnableCallback, void *CallbackContext,
                                               etw_reghandle *RegHandle)
{
    if (!ProviderId || !RegHandle) /* @ER.NULL_OUT */
        return ETW_ERROR_INVALID_PARAMETER;
    for (unsigned i = 0; i < REF_MAX_PROVIDERS; i++) {
        struct ref_provider *p = &ref.providers[i];
        if (p->used)
            continue;
        memset(p, 0, sizeof *p);
        p->used = true;
        p->seq = ref.next_seq++; /* @ESI.BAD_HANDLE:seq */
        if (!ref.next_seq)
            ref.next_seq = 1;
        p->guid = *ProviderId;
        p->callback = EnableCallback;
        p->callback_context = CallbackContext;
        *RegHandle = make_handle(i, p->seq); /* @ER.SUCCESS */
        return ETW_ERROR_SUCCESS;
    }
    return ETW_ERROR_NO_SYSTEM_RESOURCES;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI EventUnregister(etw_reghandle RegHandle)
{
    struct ref_provider *p = ref_provider_from_handle(RegHandle);
    if (!p)
        return ETW_ERROR_INVALID_HANDLE;
    ref_free(p->traits);
    etw_u16 seq = p->seq;
    memset(p, 0, sizeof *p);
    p->seq = seq; /* @ESI.BAD_HANDLE:unregister */
    return ETW_ERROR_SUCCESS;
}

static bool group_restricted(const etw_guid *g)
{
    for (unsigned i = 0; i < ref.nrestricted; i++)
        if (!memcmp(&ref.restricted_groups[i], g, sizeof *g))
            return true;
    return false;
}

/* The kernel's half of EventProviderSetTraits (NtTraceControl 0x1E, notes ESI-05). */
etw_status ref_ntc_set_traits(struct ref_provider *p, const etw_u8 *blob, etw_u32 size)
{
    if (p->traits_set) /* @TRAITS.ONCE */
        return ETW_STATUS_UNSUCCESSFUL; /* traits can be set once (seed 003) */ /* @TRAITS.ONCE_CODE */
    etw_u16 total;
    if (size < 3)
        return ETW_STATUS_FILE_CORRUPT_ERROR;
    memcpy(&total, blob, 2);
    if (total != size) /* @TRAITS.FORMAT_SIZE */
        return ETW_STATUS_FILE_CORRUPT_ERROR;
    const etw_u8 *nul = memchr(blob + 2, 0, size - 2); /* @TRAITS.NAME_ONLY @TRAITS.EMPTY_NAME */
    if (!nul) /* @TRAITS.FORMAT_NAME:if */
        return ETW_STATUS_FILE_CORRUPT_ERROR; /* @TRAITS.FORMAT_NAME */
    bool has_group = false;
    etw_guid group;
    for (const etw_u8 *t = nul + 1; t < blob + size;) {
        etw_u16 ts;
        if (blob + size - t < 3)
            return ETW_STATUS_FILE_CORRUPT_ERROR;
        memcpy(&ts, t, 2);
        if (ts < 3 || ts > blob + size - t) /* @TRAITS.FORMAT_TRAITS */
            return ETW_STATUS_FILE_CORRUPT_ERROR; /* the sizes must add up exactly */
        if (t[2] == ETW_EtwProviderTraitTypeGroup && ts >= 3 + 16) { /* @TRAITS.GROUP @TRAITS.CUSTOM */
            memcpy(&group, t + 3, 16);
            has_group = true;
        }
        t += ts;
    }
    if (has_group && group_restricted(&group)) /* @TRAITS.GROUP_PERMISSION */
        return ETW_STATUS_ACCESS_DENIED; /* membership denied (seed 003); failing the call is inferred */ /* @TRAITS.GROUP_PERMISSION_CODE */
    etw_u8 *copy = ref_alloc(size);
    if (!copy)
        return ETW_STATUS_INSUFFICIENT_RESOURCES;
    memcpy(copy, blob, size);
    p->traits = copy;
    p->traits_size = (etw_u16)size;
    p->traits_set = true; /* @TRAITS.SET */
    p->has_group = has_group;
    if (has_group)
        p->group = group;
    p->descriptor_type = true; /* a traits set marks the registration as honouring descriptor types */
    return ETW_STATUS_SUCCESS;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI EtwEventSetInformation(etw_reghandle RegHandle, etw_u32 InformationClass, void *EventInformation,
                                                        etw_u32 InformationLength)
{
    /* the class first, then its arguments, and only then the handle (notes ESI-03) */
    const etw_u8 *info = EventInformation;
    struct ref_provider *p;
    switch (InformationClass) {
    case ETW_EventProviderBinaryTrackInfo: /* @ESI.CLASS:0 */
        if (InformationLength != 0) /* @ESI.BINTRACK_LENGTH */
            return ETW_ERROR_INVALID_PARAMETER;
        if (!(p = ref_provider_from_handle(RegHandle))) /* @ESI.BAD_HANDLE:0 */
            return ETW_ERROR_INVALID_HANDLE; /* @ESI.BAD_HANDLE:0-code */
        return ETW_ERROR_SUCCESS;
    case ETW_EventProviderSetTraits:
        if (!ref_at_least(ETW_V10_0)) /* @ESI.CLASS_VERSION:traits */
            return ETW_ERROR_NOT_SUPPORTED;
        if (!info || InformationLength < 3 || InformationLength > 0xFFFF) /* @ESI.TRAITS_ARGS @ESI.TRAITS_BOUNDS */
            return ETW_ERROR_INVALID_PARAMETER;
        if (!(p = ref_provider_from_handle(RegHandle))) /* @ESI.BAD_HANDLE:traits */
            return ETW_ERROR_INVALID_HANDLE;
        return ref_status_to_win32(ref_ntc_set_traits(p, info, InformationLength));
    case ETW_EventProviderUseDescriptorType:
        if (!ref_at_least(ETW_V10_0)) /* @ESI.CLASS_VERSION:desctype */
            return ETW_ERROR_NOT_SUPPORTED;
        if (!info || InformationLength != 1) /* @ESI.DESCTYPE_ARGS */
            return ETW_ERROR_INVALID_PARAMETER;
        if (!(p = ref_provider_from_handle(RegHandle))) /* @ESI.BAD_HANDLE:desctype */
            return ETW_ERROR_INVALID_HANDLE;
        if (info[0] > 1) /* @ESI.DESCTYPE_ARGS:value */
            return ETW_ERROR_INVALID_PARAMETER;
        p->descriptor_type = info[0] != 0;
        return ETW_ERROR_SUCCESS;
    default: return ETW_ERROR_NOT_SUPPORTED; /* EventProviderSetReserved1 (1) included */ /* @ESI.CLASS @ESI.CLASS_RESERVED1 */
    }
}

/* ADVAPI32's export forwards to NTDLL (notes ESI-01) */
ETWREF_EXPORT etw_u32 ETW_WINAPI EventSetInformation(etw_reghandle RegHandle, etw_u32 InformationClass, void *EventInformation,
                                                     etw_u32 InformationLength)
{
    return EtwEventSetInformation(RegHandle, InformationClass, EventInformation, InformationLength);
}

/* Enabling a group on a session enables its members but the disallowed ones (seed 003): each is
 * told so through its enable callback, as EnableTraceEx2 with EVENT_ENABLE_PROPERTY_PROVIDER_GROUP
 * does, with the suite's level and keywords (ETW_GROUP_ENABLE_LEVEL, spec/abi.h). The model keeps
 * no session GUIDs: SourceId is GUID_NULL. */
ETWREF_EXPORT etw_u32 EtwRef_EnableGroup(etw_tracehandle session, const etw_guid *group, etw_u32 *enabled)
{
    static const etw_guid source;
    if (!group || !enabled)
        return ETW_ERROR_INVALID_PARAMETER;
    struct ref_logger *lg = ref_logger_exact((etw_u32)(session & 0xFFFF));
    if (!lg)
        return ETW_ERROR_WMI_INSTANCE_NOT_FOUND;
    if (lg->mode & ETW_EVENT_TRACE_PRIVATE_LOGGER_MODE) /* @DAL.PRIVATE_SESSION */
        return ETW_ERROR_NOT_SUPPORTED; /* private sessions cannot control groups; failing the call is inferred */ /* @DAL.PRIVATE_SESSION_CODE */
    etw_u32 n = 0;
    for (unsigned i = 0; i < REF_MAX_PROVIDERS; i++) {
        const struct ref_provider *p = &ref.providers[i];
        if (!p->used || !p->has_group || memcmp(&p->group, group, sizeof *group)) /* @TRAITS.GROUP:member */
            continue;
        bool disallowed = false;
        for (etw_u32 d = 0; d < lg->ndisallow && !disallowed; d++)
            disallowed = !memcmp(&lg->disallow[d], &p->guid, sizeof p->guid);
        if (disallowed) /* @DAL.GROUP_ENABLE */
            continue;
        n++;
        if (p->callback) /* @DAL.GROUP_ENABLE:called */
            p->callback(&source, ETW_EVENT_CONTROL_CODE_ENABLE_PROVIDER, ETW_GROUP_ENABLE_LEVEL, ETW_GROUP_ENABLE_KEYWORDS, 0, NULL, /* @DAL.GROUP_ENABLE:told */
                        p->callback_context);
    }
    *enabled = n;
    return ETW_ERROR_SUCCESS;
}

ETWREF_EXPORT int EtwRef_RegEntryHandle(etw_reghandle reg, etw_u64 *handle)
{
    if (!handle || !ref_provider_from_handle(reg))
        return (int)ETW_ERROR_INVALID_HANDLE;
    *handle = reg;
    return 0;
}

/* The EVENT_HEADER_EXT_TYPE_PROV_TRAITS item of an event the registration writes: the traits blob
 * as set, in every event (seed 003); none before traits are set. */
ETWREF_EXPORT int EtwRef_EventTraits(etw_reghandle reg, etw_u8 *out, etw_u32 cap, etw_u32 *size)
{
    struct ref_provider *p = ref_provider_from_handle(reg);
    if (!p || !size)
        return (int)ETW_ERROR_INVALID_HANDLE;
    *size = 0;
    if (!p->traits_set)
        return 0;
    if (cap < p->traits_size)
        return (int)ETW_ERROR_INSUFFICIENT_BUFFER;
    memcpy(out, p->traits, p->traits_size); /* @TRAITS.IN_EVENTS */
    *size = p->traits_size;
    return 0;
}
