/*
 * harness/tests/thirdparty/minimal.c - a minimal third-party implementation, plausible and wrong on
 * purpose where marked DIVERGENCE, with no control API: what it implements and how to build and
 * run it are in harness/tests/thirdparty/README.md. It uses only <stdint.h> types, to show that
 * nothing of etwconf is needed: the ABI is the Windows one (spec/abi.h), with the native calling
 * convention on Linux.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct GUID GUID; /* only pointers to it are passed here */
typedef struct {
    const GUID *Guid;
    void *RegHandle;
} TRACE_GUID_REGISTRATION;
typedef struct {
    void *RegHandle;
    uint32_t InstanceId;
} EVENT_INSTANCE_INFO;
typedef uint32_t (*WMIDPREQUEST)(uint32_t, void *, uint32_t *, void *);

enum {
    ERROR_SUCCESS = 0,
    ERROR_BAD_LENGTH = 24,
    ERROR_NOT_SUPPORTED = 50,
    ERROR_INVALID_PARAMETER = 87,
    ERROR_NOT_ENOUGH_MEMORY = 8,
};

/* ---------------------------------------------------------------- TraceQueryInformation */
EXPORT uint32_t TraceQueryInformation(uint64_t SessionHandle, uint32_t InformationClass, void *TraceInformation, uint32_t InformationLength,
                                      uint32_t *ReturnLength)
{
    uint8_t *info = TraceInformation;
    uint32_t v;
    if (!info)
        InformationLength = 0;
    /* 0x05 TraceSampledProfileIntervalInfo {Source, Interval}, 0x0B TraceVersionInfo
     * {EtwTraceProcessingVersion, Reserved}: 8 bytes each */
    if (InformationClass != 0x05 && InformationClass != 0x0B)
        return ERROR_NOT_SUPPORTED;
    if (SessionHandle != 0)
        return ERROR_INVALID_PARAMETER;
    if (ReturnLength)
        *ReturnLength = 8;
    if (InformationClass == 0x0B) {
        if (InformationLength < 8) /* DIVERGENCE: should be != 8 (TQI.0B.EXACT_SIZE) */
            return ERROR_BAD_LENGTH;
        v = 1;
        memcpy(info, &v, 4);
        return ERROR_SUCCESS;
    }
    if (InformationLength != 8)
        return ERROR_BAD_LENGTH;
    memcpy(&v, info, 4);
    v = v == 0 ? 10000 : 0; /* the timer's default interval: 1 ms in 100 ns units */
    memcpy(info + 4, &v, 4);
    return ERROR_SUCCESS;
}

/* ---------------------------------------------------------------- classic registrations */
struct mini_class {
    _Atomic uint32_t counter;
};
struct mini_reg {
    struct mini_reg *next;
    uint64_t handle;
    struct mini_class *classes;
};
static struct mini_reg *regs;
static uint64_t next_handle = 0x100;

EXPORT uint32_t RegisterTraceGuidsW(WMIDPREQUEST RequestAddress, void *RequestContext, const GUID *ControlGuid, uint32_t GuidCount,
                                    TRACE_GUID_REGISTRATION *TraceGuidReg, const uint16_t *MofImagePath, const uint16_t *MofResourceName,
                                    uint64_t *RegistrationHandle)
{
    (void)RequestContext, (void)MofImagePath, (void)MofResourceName;
    if (!RequestAddress || !ControlGuid || !RegistrationHandle || GuidCount > 0x10000 || (GuidCount && !TraceGuidReg))
        return ERROR_INVALID_PARAMETER;
    struct mini_reg *r = calloc(1, sizeof *r);
    if (!r || !(r->classes = calloc(GuidCount ? GuidCount : 1, sizeof *r->classes))) {
        free(r);
        return ERROR_NOT_ENOUGH_MEMORY;
    }
    for (uint32_t i = 0; i < GuidCount; i++)
        TraceGuidReg[i].RegHandle = &r->classes[i];
    r->handle = next_handle++;
    r->next = regs;
    regs = r;
    *RegistrationHandle = r->handle;
    return ERROR_SUCCESS;
}

EXPORT uint32_t UnregisterTraceGuids(uint64_t RegistrationHandle)
{
    for (struct mini_reg **pp = &regs; *pp; pp = &(*pp)->next)
        if ((*pp)->handle == RegistrationHandle) {
            struct mini_reg *r = *pp;
            *pp = r->next;
            free(r->classes);
            free(r);
            return ERROR_SUCCESS;
        }
    return ERROR_INVALID_PARAMETER;
}

/* ---------------------------------------------------------------- EtwCreateTraceInstanceId */
EXPORT uint32_t EtwCreateTraceInstanceId(void *RegHandle, EVENT_INSTANCE_INFO *InstInfo)
{
    if (!RegHandle || !InstInfo)
        return ERROR_INVALID_PARAMETER;
    struct mini_class *c = RegHandle;
    InstInfo->RegHandle = RegHandle;
    InstInfo->InstanceId = atomic_fetch_add(&c->counter, 1) + 1; /* DIVERGENCE: 0 is not skipped (CTI.WRAP) */
    return ERROR_SUCCESS;
}
