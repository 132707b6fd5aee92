/*
 * reference/classic.c - RegisterTraceGuidsW / UnregisterTraceGuids and
 * EtwCreateTraceInstanceId / CreateTraceInstanceId. Rules: spec/rules/cti.def (seed 002).
 */
#include "reference/internal.h"
#include <string.h>

void ref_classic_reset(void)
{
    while (ref.classic) {
        struct ref_classic_reg *r = ref.classic;
        ref.classic = r->next;
        ref_free(r->classes);
        ref_free(r);
    }
    ref.next_classic_handle = 0x4200;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI RegisterTraceGuidsW(etw_wmidprequest RequestAddress, void *RequestContext, const etw_guid *ControlGuid,
                                                     etw_u32 GuidCount, ETW_TRACE_GUID_REGISTRATION *TraceGuidReg,
                                                     const etw_wchar *MofImagePath, const etw_wchar *MofResourceName,
                                                     etw_tracehandle *RegistrationHandle)
{
    (void)RequestContext; /* optional: only handed back to RequestAddress, so NULL is accepted */ /* @RTG.NULL_CONTEXT */
    /* MofImagePath and MofResourceName are ignored from 6.0 on (notes RTG-01) */
    if (!RequestAddress || !ControlGuid || !RegistrationHandle) /* @RTG.NULL_ARGS */
        return ETW_ERROR_INVALID_PARAMETER;
    if (GuidCount > 0x10000) /* "above 64K" (OQ-8: the exact bound is open) */ /* @RTG.COUNT_LIMIT */
        return ETW_ERROR_INVALID_PARAMETER;
    if (GuidCount && !TraceGuidReg) /* @RTG.NULL_REGS */
        return ETW_ERROR_INVALID_PARAMETER;
    for (etw_u32 i = 0; i < GuidCount; i++)
        if (!TraceGuidReg[i].Guid)
            return ETW_ERROR_INVALID_PARAMETER; /* inferred */
    struct ref_classic_reg *r = ref_alloc(sizeof *r);
    if (!r)
        return ETW_ERROR_NOT_ENOUGH_MEMORY;
    r->classes = ref_alloc(sizeof *r->classes * (GuidCount ? GuidCount : 1));
    if (!r->classes) {
        ref_free(r);
        return ETW_ERROR_NOT_ENOUGH_MEMORY;
    }
    r->count = GuidCount;
    for (etw_u32 i = 0; i < GuidCount; i++) {
        atomic_init(&r->classes[i].counter, 0); /* @CTI.COUNTER:start @CTI.RESTART */
        r->classes[i].pid = ref.pid;
        r->classes[i].guid = *TraceGuidReg[i].Guid;
        TraceGuidReg[i].RegHandle = &r->classes[i]; /* @RTG.REGHANDLES @CTI.PER_CLASS */
    }
    r->handle = ref.next_classic_handle++;
    r->next = ref.classic;
    ref.classic = r;
    *RegistrationHandle = r->handle;
    return ETW_ERROR_SUCCESS;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI UnregisterTraceGuids(etw_tracehandle RegistrationHandle)
{
    for (struct ref_classic_reg **pp = &ref.classic; *pp; pp = &(*pp)->next)
        if ((*pp)->handle == RegistrationHandle) {
            struct ref_classic_reg *r = *pp;
            *pp = r->next;
            ref_free(r->classes);
            ref_free(r);
            return ETW_ERROR_SUCCESS;
        }
    return ETW_ERROR_INVALID_PARAMETER;
}

static struct ref_class *class_from_handle(etw_handle h)
{
    for (struct ref_classic_reg *r = ref.classic; r; r = r->next)
        if ((struct ref_class *)h >= r->classes && (struct ref_class *)h < r->classes + r->count)
            return h;
    return NULL;
}

ETWREF_EXPORT int EtwRef_SetClassCounter(etw_handle class_handle, etw_u32 value)
{
    struct ref_class *c = class_from_handle(class_handle);
    if (!c)
        return -1;
    atomic_store(&c->counter, value);
    return 0;
}

ETWREF_EXPORT int EtwRef_SetClassProcessId(etw_handle class_handle, etw_u32 pid)
{
    struct ref_class *c = class_from_handle(class_handle);
    if (!c)
        return -1;
    c->pid = pid;
    return 0;
}

ETWREF_EXPORT etw_u32 ETW_WINAPI EtwCreateTraceInstanceId(etw_handle RegHandle, ETW_EVENT_INSTANCE_INFO *InstInfo)
{
    if (!RegHandle || !InstInfo) { /* @CTI.NULL_HANDLE @CTI.NULL_INFO */
        SetLastError(ETW_ERROR_INVALID_PARAMETER); /* @CTI.LAST_ERROR */
        return ETW_ERROR_INVALID_PARAMETER;
    }
    InstInfo->RegHandle = RegHandle; /* written before the process check (notes CTI-05) */ /* @CTI.REGHANDLE_FIRST */
    struct ref_class *c = RegHandle; /* trusted as Windows does: the counter at 0, the pid at 4 */
    if (c->pid != ref.pid) { /* @CTI.FOREIGN_PROCESS */
        SetLastError(ETW_ERROR_INVALID_PARAMETER); /* @CTI.LAST_ERROR:foreign */
        return ETW_ERROR_INVALID_PARAMETER;
    }
    etw_u32 id = atomic_fetch_add(&c->counter, 1) + 1; /* @CTI.COUNTER @CTI.ATOMIC */
    if (id == 0) /* wrapped: skip zero */ /* @CTI.WRAP */
        id = atomic_fetch_add(&c->counter, 1) + 1;
    InstInfo->InstanceId = id; /* @CTI.OUTPUT */
    return ETW_ERROR_SUCCESS; /* @CTI.LAST_ERROR_SUCCESS */
}

/* ADVAPI32's export is a forward to NTDLL (seed 002) */
ETWREF_EXPORT etw_u32 ETW_WINAPI CreateTraceInstanceId(etw_handle RegHandle, ETW_EVENT_INSTANCE_INFO *InstInfo)
{
    return EtwCreateTraceInstanceId(RegHandle, InstInfo); /* @CTI.FORWARD */
}
