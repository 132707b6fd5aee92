/*
 * harness/tests/fuzz/fuzz_api.c - libFuzzer target: every entry point of the reference
 * (reference/etwref.h: the API under its Windows names and the EtwRef_* control functions),
 * driven by the fuzzer's bytes, under AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Input: a 3-byte header, then call records until the data ends.
 *   header  [0] version index (mod 6)  [1] fixture bits (FX_*)  [2] classes (low 2 bits + 1),
 *           counter preset (bit 2: 0xFFFFFFFE), foreign process (bit 3)
 *   record  [0] function (mod F_COUNT)  [1] handle selector (H*)  [2..5] class or code (LE)
 *           [6..7] length (LE)  [8] flags (FL_*)  [9] n, then n input bytes
 * Buffers are heap blocks of exactly the length given, so ASan sees any access past them.
 * Pointers the API trusts (a classic RegHandle, the Traits pointer of NtTraceControl 0x1E, the
 * TRACE_GUID_REGISTRATION array) are always valid: the target is the reference, not the caller.
 */
#include "reference/etwref.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { FX_KERNEL = 1, FX_SYSTEM = 2, FX_PLAIN = 4, FX_CLASSIC = 8, FX_PROVIDER = 16, FX_NOPRIV = 32, FX_RESTRICT = 64, FX_DISALLOW = 128 };
enum { FL_BUFNULL = 1, FL_RLNULL = 2, FL_OUTNULL = 4, FL_FAIL = 8 };
enum {
    F_TQI, F_TSI, F_NTQSI, F_NTSSI, F_NTQIP, F_NTSIP, F_NTC, F_ETWCTI, F_CTI, F_RTG, F_UTG, F_ER, F_EU, F_ESI, F_ETWESI, F_LASTERR,
    F_START, F_STOP, F_MASKS, F_ENABLE, F_COUNTER, F_PROC, F_SYMBOL, F_COUNT
};

static const etw_guid g_ctl = {0xF022C000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
static const etw_guid g_cls[4] = {{0xF022C001, 1, 2, {0}}, {0xF022C002, 1, 2, {0}}, {0xF022C003, 1, 2, {0}}, {0xF022C004, 1, 2, {0}}};
static const etw_guid g_group = {0x6e0b0c00, 0x1234, 0x4abc, {0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07}};
static const etw_guid g_dal[2] = {{0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x01}},
                                  {0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x02}}};
static const unsigned versions[6] = {ETW_V5_2, ETW_V6_0, ETW_V6_1, ETW_V6_2, ETW_V6_3, ETW_V10_0};

static etw_u32 ETW_WINAPI cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    return 0;
}

struct state {
    etw_tracehandle logger, classic, seqclassic;
    bool have_logger, have_classic, have_seqclassic;
    ETW_TRACE_GUID_REGISTRATION regs[4];
    int nclasses;
    etw_reghandle reg, stale, seqreg;
};

static etw_u64 handle(struct state *s, etw_u8 sel)
{
    etw_u64 lg = s->have_logger ? s->logger : 0;
    const etw_u64 h[12] = {0, lg, 0 /* a missing logger's, below */, 0x1234, s->reg, s->stale,
                           s->seqreg, lg | 0xABCD00000000ull, 0xFFFF,
                           s->have_classic ? s->classic : 0x77,
                           s->have_seqclassic ? s->seqclassic : 0x77, 0xFFFFFFFFFFFFFFFFull};
    return sel % 12 == 2 ? EtwRef_MissingLoggerHandle() : h[sel % 12];
}

/* a class handle (a pointer the function trusts) or NULL */
static etw_handle class_handle(struct state *s, etw_u8 sel)
{
    int i = sel % 5;
    return s->have_classic && i < s->nclasses ? s->regs[i].RegHandle : NULL;
}

static etw_u8 *copy(const etw_u8 *in, size_t n, size_t len)
{
    etw_u8 *b = malloc(len ? len : 1);
    if (!b)
        abort();
    memset(b, 0xA5, len);
    if (in && n)
        memcpy(b, in, n < len ? n : len);
    return b;
}

int LLVMFuzzerTestOneInput(const etw_u8 *data, size_t size)
{
    if (size < 3)
        return 0;
    struct state s = {0};
    EtwRef_Reset();
    EtwRef_SetVersion(versions[data[0] % 6], 0);
    etw_u8 fx = data[1], misc = data[2];
    etw_u32 masks[8] = {3, 0x4 | 0x100, 0, 0, 0x8000, 0, 0, 0};
    static const int kinds[3] = {ETWREF_LOGGER_KERNEL, ETWREF_LOGGER_SYSTEM, ETWREF_LOGGER_PLAIN};
    for (int k = 0; k < 3; k++) /* FX_KERNEL, FX_SYSTEM, FX_PLAIN */
        if (fx & (FX_KERNEL << k))
            s.have_logger = !EtwRef_StartLogger(kinds[k], k < 2 ? masks : NULL, &s.logger);
    if ((fx & FX_DISALLOW) && s.have_logger)
        TraceSetInformation(s.logger, ETW_TraceSetDisallowList, (void *)g_dal, sizeof g_dal);
    if (fx & FX_CLASSIC) {
        s.nclasses = (misc & 3) + 1;
        for (int i = 0; i < s.nclasses; i++)
            s.regs[i] = (ETW_TRACE_GUID_REGISTRATION){&g_cls[i], NULL};
        s.have_classic = !RegisterTraceGuidsW(cb, NULL, &g_ctl, (etw_u32)s.nclasses, s.regs, NULL, NULL, &s.classic);
        if (s.have_classic && (misc & 4))
            EtwRef_SetClassCounter(s.regs[0].RegHandle, 0xFFFFFFFE);
        if (s.have_classic && (misc & 8))
            EtwRef_SetClassProcessId(s.regs[0].RegHandle, 0x4242);
    }
    if (fx & FX_PROVIDER) {
        EventRegister(&g_cls[0], NULL, NULL, &s.reg);
        if (!EventRegister(&g_cls[1], NULL, NULL, &s.stale))
            EventUnregister(s.stale);
    }
    if (fx & FX_NOPRIV)
        EtwRef_SetPrivilege(ETWREF_PRIV_SYSTEM_PROFILE, 0);
    if (fx & FX_RESTRICT)
        EtwRef_RestrictGroup(&g_group);

    size_t pos = 3;
    while (pos + 10 <= size) {
        const etw_u8 *r = data + pos;
        etw_u32 cls, n = r[9], len = (etw_u32)(r[6] | r[7] << 8);
        memcpy(&cls, r + 2, 4);
        etw_u8 fl = r[8], hs = r[1];
        pos += 10;
        if (n > size - pos)
            n = (etw_u32)(size - pos);
        const etw_u8 *in = data + pos;
        pos += n;
        etw_u8 *buf = (fl & FL_BUFNULL) ? NULL : copy(in, n, len);
        etw_u32 rl = 0xDEADBEEF, *rlp = (fl & FL_RLNULL) ? NULL : &rl;
        etw_u64 h = handle(&s, hs);
        unsigned f = r[0] % F_COUNT;
        /* the input, zero-padded: masks, a name, or where a call writes (NULL: FL_BUFNULL) */
        etw_u32 out8[8] = {0};
        memcpy(out8, in, n < sizeof out8 ? n : sizeof out8);
        etw_u32 *outp = (fl & FL_BUFNULL) ? NULL : out8;
        ETW_EVENT_INSTANCE_INFO info;
        etw_handle ch = class_handle(&s, hs);
        if (fl & FL_FAIL)
            EtwRef_FailAllocation(1 + (fl >> 6));
        if ((f == F_NTQSI || f == F_NTSSI) && buf && len >= 16)
            memcpy(buf + 8, &h, 8); /* the group-mask shape: a TraceHandle at 8 */
        switch (f) {
        case F_TQI: TraceQueryInformation(h, cls, buf, len, rlp); break;
        case F_TSI: TraceSetInformation(h, cls, buf, len); break;
        case F_NTQSI: NtQuerySystemInformation(cls, buf, len, rlp); break;
        case F_NTSSI: NtSetSystemInformation(cls, buf, len); break;
        case F_NTQIP: NtQueryIntervalProfile(cls, outp); break;
        case F_NTSIP: NtSetIntervalProfile(len | (etw_u32)hs << 16, cls); break;
        case F_NTC: {
            etw_u32 code = cls & 0xFF ? cls & 0x3F : cls;
            etw_u32 outlen = (fl & 0xF0) ? 1u << (fl >> 4) : 0;
            etw_u8 *out = (fl & FL_OUTNULL) ? NULL : copy(NULL, 0, outlen);
            etw_u8 *blob = NULL;
            if (buf && code == ETW_NTC_SET_PROVIDER_TRAITS && len >= 0x18) {
                /* {RegEntryHandle, Traits, TraitsSize}: the blob is the input after 0x18 bytes */
                size_t bl = n > 0x18 ? n - 0x18 : 0;
                blob = copy(in + (n > 0x18 ? 0x18 : n), bl, bl);
                etw_u64 p = (etw_u64)(uintptr_t)(bl ? blob : NULL);
                etw_u16 ts;
                memcpy(&ts, buf + 0x10, 2);
                if (ts > bl)
                    ts = (etw_u16)bl;
                memcpy(buf, &h, 8);
                memcpy(buf + 8, &p, 8);
                memcpy(buf + 0x10, &ts, 2);
            } else if (buf && len >= 8 && (code == ETW_NTC_GET_DISALLOW_LIST || code == ETW_NTC_USE_DESCRIPTOR_TYPE))
                memcpy(buf, &h, 8);
            else if (buf && len >= 4 && code == ETW_NTC_UPDATE_DISALLOW_LIST) {
                etw_u32 id = (etw_u32)(h & 0xFFFF);
                memcpy(buf, &id, 4);
            }
            NtTraceControl(code, buf, len, out, outlen, rlp);
            free(blob);
            free(out);
            break;
        }
        case F_ETWCTI: EtwCreateTraceInstanceId(ch, outp ? &info : NULL); break;
        case F_CTI: CreateTraceInstanceId(ch, outp ? &info : NULL); break;
        case F_RTG: {
            etw_u32 count = (fl & FL_OUTNULL) ? cls : cls % 6;
            ETW_TRACE_GUID_REGISTRATION *regs = NULL;
            if (!(fl & FL_BUFNULL) && count <= 64) {
                regs = (ETW_TRACE_GUID_REGISTRATION *)copy(NULL, 0, sizeof *regs * count);
                for (etw_u32 i = 0; i < count; i++)
                    regs[i] = (ETW_TRACE_GUID_REGISTRATION){(hs & 0x80) && i == count - 1 ? NULL : &g_cls[i & 3], NULL};
            }
            etw_tracehandle th = 0;
            if (s.have_seqclassic) /* at most one at a time: its classes are never used */
                UnregisterTraceGuids(s.seqclassic);
            s.have_seqclassic = !RegisterTraceGuidsW((hs & 1) ? NULL : cb, NULL,
                (hs & 2) ? NULL : &g_ctl, count, regs, NULL, NULL, (hs & 4) ? NULL : &th);
            s.seqclassic = th;
            free(regs);
            break;
        }
        case F_UTG:
            if (UnregisterTraceGuids(h) != 0)
                break;
            s.have_classic &= h != s.classic; /* its class handles are gone: never use them again */
            s.have_seqclassic &= h != s.seqclassic;
            break;
        case F_ER: EventRegister((hs & 1) ? NULL : &g_cls[hs & 3], NULL, NULL, (hs & 2) ? NULL : &s.seqreg); break;
        case F_EU: EventUnregister(h); break;
        case F_ESI: EventSetInformation(h, cls, buf, len); break;
        case F_ETWESI: EtwEventSetInformation(h, cls, buf, len); break;
        case F_LASTERR: SetLastError(cls), (void)GetLastError(); break;
        case F_START: {
            etw_tracehandle lh;
            if (!EtwRef_StartLogger(cls % 7, outp, &lh) && !s.have_logger)
                s.have_logger = true, s.logger = lh;
            break;
        }
        case F_STOP:
            if (!EtwRef_StopLogger(h) && s.have_logger && h == s.logger)
                s.have_logger = false;
            break;
        case F_MASKS: EtwRef_GetLoggerMasks(h, outp); break;
        case F_ENABLE:
            EtwRef_EnableGroup(h, (fl & FL_OUTNULL) ? NULL : (hs & 0x80) ? g_dal : &g_group, outp);
            break;
        case F_COUNTER:
            if (ch)
                EtwRef_SetClassCounter(ch, cls);
            if (ch && (fl & FL_OUTNULL))
                EtwRef_SetClassProcessId(ch, cls);
            break;
        case F_PROC: {
            static const char *const mods[] = {"advapi32", "ntdll.dll", "SECHOST", "kernelbase", "kernel32", "x", ""};
            static const char *const names[] = {"TraceQueryInformation", "NtTraceControl", "EventSetInformation", "GetLastError", "nope"};
            EtwRef_GetProcAddress((fl & FL_BUFNULL) ? NULL : mods[cls % 7], (fl & FL_OUTNULL) ? NULL : names[hs % 5]);
            EtwRef_SetVersion(versions[cls % 6], len);
            EtwRef_GetVersion();
            break;
        }
        case F_SYMBOL:
            ((char *)out8)[sizeof out8 - 1] = 0; /* a name of at most 31 input bytes */
            EtwRef_Symbol(outp ? (const char *)out8 : NULL);
            break;
        }
        EtwRef_FailAllocation(0);
        free(buf);
    }
    EtwRef_Reset();
    return 0;
}
