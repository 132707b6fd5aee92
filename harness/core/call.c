/*
 * harness/core/call.c - one call of the API under test as a row describes it (struct etw_args),
 * and its outcome for the checks of expect.c. The fuzzer (tools/fuzz) uses the same handle, fill
 * and invoke steps on its own buffers.
 */
#include "harness/core/core.h"
#include <stdlib.h>
#include <string.h>

etw_u64 etw_call_handle(struct etw_target *t, const struct etw_fixture_state *st, enum etw_hsel h, etw_u64 value)
{
    static const struct etw_fixture_state none;
    if (!st)
        st = &none;
    switch (h) {
    case H_ZERO: return 0;
    case H_LOGGER: return st->have_logger ? st->logger : 0;
    case H_LOGGER_HIGH: return (st->have_logger ? st->logger : 0) | value;
    case H_LOGGER2: return st->have_logger2 ? st->logger2 : 0;
    case H_MISSING: return t->missing_logger ? t->missing_logger() : 0x3E;
    case H_VALUE: return value;
    case H_REG: return st->have_reg ? st->reg : 0;
    case H_REG_STALE: return st->stale_reg;
    /* a class of a registration that is gone would be a dangling pointer: 0 instead */
    case H_CLASS: return st->have_classic && value < (etw_u64)st->nclasses ? (etw_u64)(uintptr_t)st->regs[value].RegHandle : 0;
    }
    return 0;
}

int etw_call_natural_size(enum etw_fn fn, const struct etw_args *a)
{
    etw_u32 k = 0;
    switch (fn) {
    case FN_TQI:
    case FN_TSI:
        switch (a->cls) {
        case ETW_TraceSystemTraceEnableFlagsInfo: return sizeof(ETW_PERFINFO_GROUPMASK);
        case ETW_TraceSampledProfileIntervalInfo: return sizeof(ETW_TRACE_PROFILE_INTERVAL);
        case ETW_TraceVersionInfo: return sizeof(ETW_TRACE_VERSION_INFO);
        case ETW_TraceStackTracingInfo:
        case ETW_TracePmcEventListInfo: return sizeof(ETW_CLASSIC_EVENT_ID);
        case ETW_TraceProfileSourceConfigInfo:
        case ETW_TracePmcCounterListInfo: return 4;
        case ETW_TraceSetDisallowList:
        case ETW_TraceDisallowListQuery: return 16;
        default: return 0;
        }
    case FN_NTQSI:
    case FN_NTSSI:
        if (a->in_len >= 4)
            memcpy(&k, a->in, 4);
        switch (k) {
        case ETW_EventTraceGroupMaskInformation: return sizeof(ETW_EVENT_TRACE_GROUPMASK_INFORMATION);
        case ETW_EventTraceTimeProfileInformation:
        case ETW_EventTraceKernelVersionInformation: return 8;
        case ETW_EventTraceProfileSourceListInformation: return sizeof(ETW_EVENT_TRACE_PROFILE_LIST_INFORMATION);
        default: return 4;
        }
    case FN_NTC: return a->cls == ETW_NTC_USE_DESCRIPTOR_TYPE ? 0x10 : a->cls == ETW_NTC_SET_PROVIDER_TRAITS ? 0x18 : 8;
    case FN_ETWCTI:
    case FN_CTI: return sizeof(ETW_EVENT_INSTANCE_INFO);
    case FN_NTQIP: return 4;
    default: return 0;
    }
}

void etw_call_fill(etw_u8 *buf, size_t len, const etw_u8 *in, size_t in_len, enum etw_patch patch, int patch_off, etw_u64 h)
{
    if (in_len > len)
        in_len = len;
    if (in_len)
        memcpy(buf, in, in_len);
    if (patch == PATCH_HANDLE64 && patch_off + 8 <= (int)len)
        memcpy(buf + patch_off, &h, 8);
    else if (patch == PATCH_LOGGER32 && patch_off + 4 <= (int)len) {
        etw_u32 id = (etw_u32)(h & 0xFFFF);
        memcpy(buf + patch_off, &id, 4);
    }
}

bool etw_call_row_fn(enum etw_fn fn)
{
    return (fn >= FN_TQI && fn <= FN_NTQIP) || fn == FN_ETWESI; /* in the order of ETW_FN_LIST */
}

bool etw_call_invoke(enum etw_fn fn, void *fnp, etw_u64 h, etw_u32 cls, etw_u8 *buf, etw_u32 len, etw_u8 *out, etw_u32 out_len,
                     etw_u32 *rlp, etw_u32 *rc)
{
    switch (fn) {
    case FN_TQI: *rc = ((etw_pfn_TraceQueryInformation)fnp)(h, cls, buf, len, rlp); break;
    case FN_TSI: *rc = ((etw_pfn_TraceSetInformation)fnp)(h, cls, buf, len); break;
    case FN_NTQSI: *rc = (etw_u32)((etw_pfn_NtQuerySystemInformation)fnp)(cls, buf, len, rlp); break;
    case FN_NTSSI: *rc = (etw_u32)((etw_pfn_NtSetSystemInformation)fnp)(cls, buf, len); break;
    case FN_NTC: *rc = (etw_u32)((etw_pfn_NtTraceControl)fnp)(cls, buf, len, out, out_len, rlp); break;
    case FN_ETWCTI:
    case FN_CTI: *rc = ((etw_pfn_CreateTraceInstanceId)fnp)((etw_handle)(uintptr_t)h, (ETW_EVENT_INSTANCE_INFO *)(void *)buf); break;
    case FN_ESI:
    case FN_ETWESI: *rc = ((etw_pfn_EventSetInformation)fnp)(h, cls, buf, len); break;
    case FN_NTQIP: *rc = (etw_u32)((etw_pfn_NtQueryIntervalProfile)fnp)(cls, (etw_u32 *)(void *)buf); break;
    default: return false;
    }
    return true;
}

/* a guarded buffer of len bytes and a copy of its bytes (as the call will get them) */
static bool buffer(struct etw_guard **g, etw_u8 **before, size_t len, etw_guard_fn guard, void *arg, char *why, size_t wlen)
{
    if (!(*g = guard(arg, len)))
        return snprintf(why, wlen, "could not map a guarded buffer of %zu bytes", len), false;
    if (!(*before = malloc(len + 1)))
        return snprintf(why, wlen, "out of memory"), false;
    return true;
}

bool etw_call(struct etw_target *t, const struct etw_fixture_state *st, const struct etw_fixture *fx, enum etw_fn fn, void *fnp,
              const struct etw_args *a, etw_guard_fn guard, void *guard_arg, struct etw_outcome *o, char *why, size_t wlen)
{
    memset(o, 0, sizeof *o);
    int len = a->len + (a->len_rel ? etw_call_natural_size(fn, a) : 0);
    if (len < 0)
        len = 0;
    etw_u64 h = etw_call_handle(t, st, a->handle, a->value);
    if (a->buf == B_GUARDED) {
        o->len = (size_t)len;
        if (!buffer(&o->buf, &o->before, o->len, guard, guard_arg, why, wlen))
            return false;
        etw_call_fill(o->buf->buf, o->len, a->in, a->in_len, a->patch, a->patch_off, h);
        memcpy(o->before, o->buf->buf, o->len);
    }
    if (fn == FN_NTC && a->out_buf == B_GUARDED) {
        o->out_len = (size_t)a->out_len;
        if (!buffer(&o->out, &o->out_before, o->out_len, guard, guard_arg, why, wlen))
            return false;
        memcpy(o->out_before, o->out->buf, o->out_len);
    }
    if (!etw_call_row_fn(fn)) {
        snprintf(why, wlen, "suite: %s cannot be called from a data row; use .fn = FN_CUSTOM", etw_fn_name(fn));
        return false;
    }
    o->retlen = ETW_SENTINEL32;
    o->retlen_passed = !a->retlen_null;
    if (fx->fail_alloc)
        t->fail_alloc((unsigned)fx->fail_alloc);
    etw_call_invoke(fn, fnp, h, a->cls, o->buf ? o->buf->buf : NULL, (etw_u32)len, o->out ? o->out->buf : NULL, (etw_u32)a->out_len,
                    o->retlen_passed ? &o->retlen : NULL, &o->rc);
    if (fx->fail_alloc)
        t->fail_alloc(0);
    o->retlen_written = o->retlen != ETW_SENTINEL32;
    return true;
}

void etw_outcome_free(struct etw_outcome *o)
{
    free(o->before);
    free(o->out_before);
    o->before = o->out_before = NULL;
}
