/*
 * tools/fuzz/gen.c - random programs: random numbers (splitmix64), the generators' building blocks,
 * and a fixture and a sequence of calls per API family.
 */
#include "tools/fuzz/fuzz.h"
#include <string.h>

struct rng {
    etw_u64 s;
};
#define RPICK(r, arr) ((arr)[fz_rbelow((r), (etw_u32)(sizeof(arr) / sizeof((arr)[0])))])
#define PICK(r, ...) RPICK(r, ((const etw_u32[]){__VA_ARGS__})) /* one of the values given */

static etw_u64 fz_rnext(struct rng *r)
{
    etw_u64 z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static etw_u32 fz_rbelow(struct rng *r, etw_u32 n)
{
    return n ? (etw_u32)(((fz_rnext(r) >> 32) * (etw_u64)n) >> 32) : 0;
}
static bool fz_rpct(struct rng *r, unsigned pct)
{
    return fz_rbelow(r, 100) < pct;
}
static etw_u32 fz_pick_len(struct rng *r, etw_u32 natural)
{
    if (!natural)
        natural = 8;
    etw_u32 k = fz_rbelow(r, 16);
    if (k <= 10) /* 0: none; 1-2: one short; 3-7: exact; 8-9: one over; 10: twice */
        return !k ? 0 : k <= 2 ? natural - 1 : k <= 7 ? natural : k <= 9 ? natural + 1 : natural * 2;
    switch (k) {
    case 11: return fz_rbelow(r, 64);
    case 12: return fz_rbelow(r, 0x200);
    case 13: return natural + 4 * fz_rbelow(r, 8);
    case 14: return fz_rpct(r, 90) ? natural * 3 : fz_rpct(r, 50) ? 0xFFFF : 0x10000; /* big buffers cost: rarely */
    default: return natural > 4 ? natural - 4 : 3;
    }
}

static void fz_put_bytes(struct fz_call *c, int off, const void *p, size_t n)
{
    if (off + n <= FZ_IN_MAX) {
        memcpy(c->in + off, p, n);
        if (off + n > c->in_len)
            c->in_len = (etw_u32)(off + n);
    }
}
static void fz_put32(struct fz_call *c, int off, etw_u32 v)
{
    fz_put_bytes(c, off, &v, 4);
}
static void fz_rand_bytes(struct rng *r, etw_u8 *p, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        etw_u64 v = fz_rnext(r);
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
}

static etw_u32 fz_rand_mask(struct rng *r)
{
    static const etw_u32 bits[] = {
        0, 1, 3, 0x10, 0x8000, ETW_EVENT_TRACE_FLAG_CSWITCH, ETW_EVENT_TRACE_FLAG_PROFILE,
        ETW_EVENT_TRACE_FLAG_DPC | ETW_EVENT_TRACE_FLAG_INTERRUPT, ETW_PERF_MASK_BIT(ETW_PERF_PROFILE),
        ETW_PERF_MASK_BIT(ETW_PERF_PMC_PROFILE),
        ETW_PERF_MASK_BIT(ETW_PERF_CONTEXT_SWITCH) | ETW_PERF_MASK_BIT(ETW_PERF_COMPACT_CSWITCH),
        ETW_PERF_MASK_BIT(ETW_PERF_CONTEXT_SWITCH), 0xFFFFFFFF};
    return fz_rpct(r, 80) ? RPICK(r, bits) : (etw_u32)fz_rnext(r);
}

static void fz_rand_masks(struct rng *r, etw_u32 m[8])
{
    memset(m, 0, 32);
    if (fz_rpct(r, 40))
        return;
    for (int i = 0, n = 1 + (int)fz_rbelow(r, 3); i < n; i++)
        m[fz_rbelow(r, 8)] |= fz_rand_mask(r);
}

static int fz_pick_logger_handle(struct rng *r, struct fz_call *c, const struct fz_prog *p)
{
    unsigned k = fz_rbelow(r, 100);
    if (k < 50 && p->fx.logger)
        return c->h = H_LOGGER;
    if (k < 60 && p->fx.logger) {
        c->hval = (fz_rnext(r) & 0xFFFFFFFFFFFF0000ull) | 0x10000ull;
        return c->h = H_LOGGER_HIGH;
    }
    if (k < 68 && p->fx.logger2)
        return c->h = H_LOGGER2;
    if (k < 80 && fz.side[SIDE_T].t->missing_logger)
        return c->h = H_MISSING;
    if (k < 92) {
        c->hval = fz_rpct(r, 80) ? PICK(r, 0xFFFF, 1, 2, 0x3F, 0x40, 0xFFFE, 0x1FFFF) : fz_rnext(r);
        return c->h = H_VALUE;
    }
    return c->h = H_ZERO;
}

static void fz_zero_handle_or_value(struct rng *r, struct fz_call *c)
{
    static const etw_u64 vals[] = {1, 0xFFFF, 0x10000, 0x100000000ull};
    c->h = fz_rpct(r, 70) ? H_ZERO : H_VALUE;
    if (c->h == H_VALUE)
        c->hval = fz_rpct(r, 70) ? RPICK(r, vals) : fz_rnext(r);
}

static void fz_gen_guid_entries(struct rng *r, struct fz_call *c, etw_u32 n, size_t size)
{
    for (etw_u32 i = 0; i < n && (i + 1) * size <= FZ_IN_MAX; i++) {
        etw_u8 e[24] = {0};
        if (fz_rpct(r, 75))
            memcpy(e, &fz_dal_guids[fz_rbelow(r, 3)], 16);
        else if (fz_rpct(r, 50))
            fz_rand_bytes(r, e, 16);
        e[16] = (etw_u8)fz_rnext(r);
        fz_put_bytes(c, (int)(i * size), e, size);
    }
}

static void put16(etw_u8 *b, etw_u32 v)
{
    etw_u16 x = (etw_u16)v;
    memcpy(b, &x, 2);
}

static etw_u32 fz_gen_traits(struct rng *r, etw_u8 *b, etw_u32 cap)
{
    etw_u32 n = 2, namelen = fz_rbelow(r, 10);
    for (etw_u32 i = 0; i < namelen; i++)
        b[n++] = (etw_u8)('a' + fz_rbelow(r, 26));
    b[n++] = 0;
    etw_u32 ntraits = fz_rbelow(r, 4);
    for (etw_u32 i = 0; i < ntraits && n + 40 < cap; i++) {
        etw_u32 start = n, dl;
        etw_u8 type;
        if (fz_rpct(r, 45)) {
            type = ETW_EtwProviderTraitTypeGroup;
            dl = 16;
        } else {
            type = fz_rpct(r, 70) ? (etw_u8)(128 + fz_rbelow(r, 128)) : (etw_u8)fz_rbelow(r, 4);
            dl = fz_rbelow(r, 9);
        }
        n += 3;
        if (type == ETW_EtwProviderTraitTypeGroup && dl == 16) {
            const etw_guid *g = fz_rpct(r, 60) ? &fz_group_guid : &fz_dal_guids[fz_rbelow(r, 3)];
            memcpy(b + n, g, 16);
            n += 16;
        } else {
            fz_rand_bytes(r, b + n, dl);
            n += dl;
        }
        put16(b + start, n - start);
        b[start + 2] = type;
    }
    if (fz_rpct(r, 4) && cap >= 300) { /* a long custom trait, as traits.large */
        etw_u32 start = n, dl = 250 + fz_rbelow(r, 20);
        if (n + 3 + dl <= cap) {
            memset(b + n + 3, 0x42, dl);
            n += 3 + dl;
            put16(b + start, n - start);
            b[start + 2] = 201;
        }
    }
    put16(b, n);
    if (fz_rpct(r, 45)) { /* break it */
        switch (fz_rbelow(r, 8)) {
        case 0: put16(b, n + (fz_rpct(r, 50) ? 1 : -1)); break;
        case 1: memset(b + 2, 'x', namelen + 1); break; /* the name loses its NUL */
        case 2:
            if (ntraits) { /* a trait's size: off by one, 0, 1, 2, or far too big */
                etw_u32 t = 3 + namelen;
                etw_u16 ts;
                memcpy(&ts, b + t, 2);
                ts = fz_rpct(r, 50) ? (etw_u16)(ts + (fz_rpct(r, 50) ? 1 : -1))
                   : fz_rpct(r, 70) ? (etw_u16)PICK(r, 0, 1, 2, 3) : 0xFFFF;
                memcpy(b + t, &ts, 2);
            }
            break;
        case 3:
            b[n++] = (etw_u8)fz_rnext(r);
            if (fz_rpct(r, 50))
                b[n++] = 0;
            put16(b, n);
            break;
        case 4: b[n++] = 0x01; break; /* a trailing byte TraitsSize does not count */
        case 5: if (n > 3) n -= 1 + fz_rbelow(r, n - 3); break; /* truncated */
        case 6: /* a 2-byte trait at the end */
            b[n++] = 2, b[n++] = 0;
            put16(b, n);
            break;
        default: /* a 2-byte trait between the name and a well-formed trait */
            memmove(b + 5 + namelen, b + 3 + namelen, n - 3 - namelen);
            b[3 + namelen] = 2, b[4 + namelen] = 0;
            n += 2;
            if (n == 5 + namelen) { /* no trait after it: add one */
                b[n++] = 3, b[n++] = 0, b[n++] = 200;
            }
            put16(b, n);
            break;
        }
    }
    return n;
}

static void fz_pick_reg_handle(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg)
{
    unsigned k = fz_rbelow(r, 100);
    if (k < 60 && p->fx.provider)
        c->h = H_REG;
    else if (k < 75 && nseqreg) {
        c->h = FH_SEQREG;
        c->hval = fz_rbelow(r, (etw_u32)nseqreg);
    } else if (k < 83 && p->fx.provider)
        c->h = H_REG_STALE;
    else if (k < 90)
        c->h = H_ZERO;
    else {
        c->h = H_VALUE;
        c->hval = fz_rpct(r, 50) ? 0x1234 : fz_rnext(r);
    }
}

static void gen_tqi(struct rng *r, struct fz_call *c, const struct fz_prog *p)
{
    c->cls = fz_rpct(r, 85) ? PICK(r, 4, 4, 5, 5, 7, 0x0B, 0x0B, 0x0E, 0x0E, 3)
             : fz_rpct(r, 75) ? fz_rbelow(r, 32) : (etw_u32)fz_rnext(r);
    etw_u32 nat = c->cls == 4 ? 0x20 : c->cls == 5 || c->cls == 0x0B ? 8 : c->cls == 7 ? (fz_rpct(r, 50) ? 0x88 : 0x90) : c->cls == 0x0E ? 16 * fz_rbelow(r, 4) : 8;
    c->len = fz_pick_len(r, nat);
    if (c->cls == 4 || c->cls == 0x0E)
        fz_pick_logger_handle(r, c, p);
    else
        fz_zero_handle_or_value(r, c);
    c->buf_null = fz_rpct(r, 8);
    c->retlen_null = fz_rpct(r, 12);
    if (c->cls == 5) {
        fz_put32(c, 0, fz_rpct(r, 90) ? PICK(r, 0, 0, 1, 2, 19, 23, 24, 0xFFFFFFFF)
                                      : (etw_u32)fz_rnext(r));
        fz_put32(c, 4, (etw_u32)fz_rnext(r));
    } else if (fz_rpct(r, 25)) {
        c->in_len = fz_rbelow(r, 64);
        fz_rand_bytes(r, c->in, c->in_len);
    }
    if (c->cls == 7 && fz_rpct(r, 5))
        c->fail_alloc = 1;
}

/* profile intervals, for the buffers of TraceSetInformation and the kernel classes */
static const etw_u32 intervals[] = {0, 1, 1221, 10000, 20000, 1000000, 1000001, 0xFFFFFFFF};

static void gen_tsi(struct rng *r, struct fz_call *c, const struct fz_prog *p)
{
    c->cls = fz_rpct(r, 88) ? PICK(r, 3, 4, 4, 5, 6, 8, 9, 0x0A, 0x0A)
             : fz_rpct(r, 75) ? fz_rbelow(r, 32) : (etw_u32)fz_rnext(r);
    switch (c->cls) {
    case 3:
    case 8: {
        etw_u32 n = PICK(r, 0, 1, 1, 2, 2, 4, 5, 5, 6, 256, 257);
        c->len = 24 * n + (n ? PICK(r, 0, 0, 0, 1, (etw_u32)-1) : 0);
        fz_gen_guid_entries(r, c, n < 13 ? n : 13, 24);
        break;
    }
    case 4:
        c->len = PICK(r, 0, 3, 4, 8, 16, 32, 32, 33, 36, 40);
        for (int i = 0; i < 9; i++)
            fz_put32(c, 4 * i, fz_rand_mask(r));
        break;
    case 5:
        c->len = fz_pick_len(r, 8);
        fz_put32(c, 0, PICK(r, 0, 0, 1, 2, 19, 24, 0xFFFF));
        fz_put32(c, 4, RPICK(r, intervals));
        break;
    case 6:
    case 9:
        c->len = PICK(r, 0, 2, 3, 4, 8, 12, 16, 20, 24);
        for (int i = 0; i < 6; i++)
            fz_put32(c, 4 * i, PICK(r, 0, 1, 2, 19, 23, 24, 99));
        break;
    case 0x0A: {
        etw_u32 n = fz_rbelow(r, 4);
        c->len = 16 * n + (fz_rpct(r, 20) ? 8 : 0);
        fz_gen_guid_entries(r, c, n, 16);
        break;
    }
    default: c->len = fz_pick_len(r, 8); break;
    }
    if (c->cls == 5)
        fz_zero_handle_or_value(r, c);
    else if (fz_rpct(r, 85))
        fz_pick_logger_handle(r, c, p);
    else
        c->h = H_ZERO;
    c->buf_null = fz_rpct(r, 6);
    if (c->cls == 0x0A && fz_rpct(r, 5))
        c->fail_alloc = 1;
}

static etw_u32 kclass_size(etw_u32 k)
{
    return k == 1 ? 0x30 : k == 0x0D ? 0x90 : k == 6 || k == 0x0C || k == 0x0E || k == 0x0F ? 0x14 : 8;
}

static void gen_ksi(struct rng *r, struct fz_call *c, const struct fz_prog *p, bool set)
{
    c->cls = fz_rpct(r, 94) ? ETW_SystemPerformanceTraceInformation : fz_rbelow(r, 0x40);
    etw_u32 k = fz_rpct(r, 40) ? 1 : fz_rpct(r, 85) ? fz_rbelow(r, 0x12) : (etw_u32)fz_rnext(r);
    etw_u32 nat = kclass_size(k);
    c->len = k == 1 && fz_rpct(r, 70) ? PICK(r, 0x30, 0x30, 0x30, 0x2F, 0x31, 0x2C, 0x28, 0x38)
             : k == 0x0D && fz_rpct(r, 50) ? (fz_rpct(r, 50) ? 0x27 : 0x28) : fz_pick_len(r, nat);
    if (fz_rpct(r, 4))
        c->len = 3;
    fz_put32(c, 0, k);
    fz_put32(c, 4, fz_rpct(r, 70) ? 0 : (etw_u32)fz_rnext(r));
    if (k == 1 || k == 6 || k == 0x0C || k == 0x0E || k == 0x0F) {
        fz_pick_logger_handle(r, c, p);
        c->patch = PATCH_HANDLE64;
        c->patch_off = 8; /* the TraceHandle, then eight masks or sources */
        for (int i = 0; i < 8; i++)
            fz_put32(c, 0x10 + 4 * i, k == 1 ? (fz_rpct(r, 50) ? 0 : fz_rand_mask(r)) : fz_rbelow(r, 25));
    } else if (k == 3)
        fz_put32(c, 4, RPICK(r, intervals));
    c->buf_null = fz_rpct(r, 4);
    c->retlen_null = !set && fz_rpct(r, 15);
    if (set && k == 1 && fz_rpct(r, 6))
        c->fail_alloc = 1;
}

/* a traits blob: UINT16 size, NUL-terminated name, traits {UINT16 size, UINT8 type, data} */
static void gen_esi(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg)
{
    c->cls = fz_rpct(r, 92) ? PICK(r, 0, 0, 1, 2, 2, 2, 2, 2, 3, 3, 4) : (etw_u32)fz_rnext(r);
    fz_pick_reg_handle(r, c, p, nseqreg);
    switch (c->cls) {
    case 0:
        c->len = PICK(r, 0, 0, 0, 1, 4, 8);
        c->buf_null = fz_rpct(r, 50);
        break;
    case 2: {
        c->in_len = fz_gen_traits(r, c->in, FZ_IN_MAX - 2);
        etw_u32 k = fz_rbelow(r, 100);
        c->len = k < 75 ? c->in_len : k < 86 ? c->in_len + 1 : k < 95 ? (c->in_len ? c->in_len - 1 : 0) : k < 99 ? 2 : fz_rpct(r, 50) ? 0x10000 : 0xFFFF;
        c->buf_null = fz_rpct(r, 4);
        break;
    }
    case 3:
        c->len = PICK(r, 1, 1, 1, 0, 2);
        c->in[0] = (etw_u8)PICK(r, 0, 1, 1, 2, 255);
        c->in_len = 1;
        c->buf_null = fz_rpct(r, 5);
        break;
    default: c->len = fz_pick_len(r, 4); break;
    }
}

static void gen_ntc(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg, etw_u32 code)
{
    static const etw_u32 codes[] = {0x22, 0x22, 0x22, 0x1C, 0x1C, 0x1C, 0x1E, 0x1E, 0x1F, 0x1A, 0x0F};
    c->cls = code ? code : fz_rpct(r, 88) ? RPICK(r, codes)
             : fz_rpct(r, 50) ? fz_rbelow(r, 0x30) : (etw_u32)fz_rnext(r);
    c->out_null = true;
    switch (c->cls) {
    case 0x22:
        fz_pick_logger_handle(r, c, p);
        c->patch = PATCH_HANDLE64;
        c->len = PICK(r, 8, 8, 8, 8, 4, 16, 0);
        c->in_len = 8; /* the TraceHandle, patched in */
        c->out_null = fz_rpct(r, 10);
        c->out_len = PICK(r, 0, 15, 16, 32, 32, 48, 64);
        break;
    case 0x1C: {
        etw_u32 n = fz_rbelow(r, 4), cnt = fz_rpct(r, 80) ? n : fz_rbelow(r, 4);
        static const int deltas[] = {0, 0, 0, 0, 16, -4, -8};
        fz_pick_logger_handle(r, c, p);
        c->patch = PATCH_LOGGER32; /* the logger id at 0, then the count */
        fz_put32(c, 4, cnt);
        for (etw_u32 i = 0; i < n; i++)
            fz_put_bytes(c, 8 + 16 * (int)i, &fz_dal_guids[fz_rbelow(r, 3)], 16);
        int d = RPICK(r, deltas);
        c->len = (etw_u32)((int)(8 + 16 * n) + d);
        c->out_null = fz_rpct(r, 80);
        c->out_len = fz_rpct(r, 80) ? 0 : 16;
        break;
    }
    case 0x1E:
        fz_pick_reg_handle(r, c, p, nseqreg);
        c->patch = PATCH_HANDLE64;
        c->len = PICK(r, 0x18, 0x18, 0x18, 0x18, 0x10, 0x20);
        c->aux_len = fz_gen_traits(r, c->aux, FZ_IN_MAX);
        c->traits_ptr = fz_rpct(r, 90);
        /* {RegEntryHandle (patched in), Traits (fz_prepare sets it), TraitsSize} */
        fz_put32(c, 16, (etw_u16)(fz_rpct(r, 85) ? c->aux_len : fz_rbelow(r, c->aux_len + 1)));
        c->in_len = 24;
        c->out_null = fz_rpct(r, 10);
        c->out_len = PICK(r, 0x78, 0x78, 0x78, 0x77, 0x100, 0x10000, 0x10001, 0);
        break;
    case 0x1F:
        fz_pick_reg_handle(r, c, p, nseqreg);
        c->patch = PATCH_HANDLE64;
        c->len = PICK(r, 0x10, 0x10, 0x10, 0x0F, 0x11);
        fz_put32(c, 8, PICK(r, 0, 1, 1, 2));
        fz_put32(c, 12, 0);
        c->out_null = fz_rpct(r, 80);
        c->out_len = fz_rpct(r, 80) ? 0 : 1;
        break;
    default:
        c->len = PICK(r, 0, 4, 8, 8, 16);
        c->in_len = c->len < 16 ? c->len : 16;
        fz_rand_bytes(r, c->in, c->in_len);
        c->out_len = fz_rbelow(r, 32);
        c->out_null = fz_rpct(r, 50);
        break;
    }
    c->buf_null = fz_rpct(r, 5);
    c->retlen_null = fz_rpct(r, 5);
    if (fz_rpct(r, 4))
        c->fail_alloc = 1;
}

static bool have_fn(unsigned v, enum etw_fn fn)
{
    int vi = fz_vindex(v);
    if (fn == FZ_ENABLE_GROUP)
        return fz.side[SIDE_T].t->enable_group && fz.side[SIDE_O].t->enable_group;
    return fz.side[SIDE_T].fn[vi][fn] && fz.side[SIDE_O].fn[vi][fn];
}

enum theme { TH_TRACE, TH_CLASSIC, TH_PROVIDER, TH_COUNT };

void fz_gen_prog(etw_u64 seed, unsigned long long k, struct fz_prog *p)
{
    struct rng r = {seed ^ (k * 0xD1B54A32D192ED03ull) ^ 0x5DEECE66Dull};
    fz_rnext(&r);
    memset(p, 0, sizeof *p);
    p->version = fz.emulate_all ? fz_versions[fz_rbelow(&r, FZ_NV)] : fz.fixed_version;
    enum theme th = (enum theme)fz_rbelow(&r, TH_COUNT);
    struct etw_fixture *fx = &p->fx;
    bool ctl = fz.control;
    if (th == TH_TRACE && ctl) {
        static const enum etw_logger_kind kinds[] = {LG_NONE, LG_KERNEL, LG_KERNEL, LG_SYSTEM, LG_SYSTEM, LG_PLAIN, LG_NOACCESS, LG_PRIVATE};
        fx->logger = RPICK(&r, kinds);
        if (fx->logger)
            fz_rand_masks(&r, fx->masks);
        if (fx->logger && fx->logger != LG_KERNEL && fz_rpct(&r, 12))
            fx->logger2 = LG_SYSTEM;
        if (fx->logger == LG_SYSTEM && ETW_VNT(p->version) >= ETW_V10_0 && fz_rpct(&r, 30)) {
            fx->ndisallow = fz_rpct(&r, 50) ? 1 : 2;
            fx->disallow = fx->ndisallow == 1 ? &fz_dal_guids[2] : &fz_dal_guids[0];
        }
        unsigned pp = fz_rbelow(&r, 100);
        fx->profile_priv = pp < 70 ? PRIV_ANY : pp < 85 ? PRIV_HELD : PRIV_NOT_HELD;
    } else if (th == TH_CLASSIC && ctl) {
        fx->classes = (int)fz_rbelow(&r, 5);
        if (fx->classes && !have_fn(p->version, FN_REGISTERTRACEGUIDS))
            fx->classes = 0;
        if (fx->classes) {
            fx->foreign_pid = fz_rpct(&r, 8);
            if (fz_rpct(&r, 25)) {
                fx->set_counter = true;
                fx->counter = !fz_rpct(&r, 85) ? (etw_u32)fz_rnext(&r)
                              : PICK(&r, 0, 1, 0x7FFFFFFF, 0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFF);
            }
        }
    } else if (th == TH_PROVIDER && ctl) {
        fx->provider = have_fn(p->version, FN_EVENTREGISTER) && fz_rpct(&r, 85);
        p->restrict_group = fz_rpct(&r, 15);
        if (fz_rpct(&r, 30)) { /* a session to enable the provider group on */
            fx->logger = fz_rpct(&r, 75) ? LG_SYSTEM : LG_PRIVATE;
            if (fx->logger == LG_SYSTEM && ETW_VNT(p->version) >= ETW_V10_0 && fz_rpct(&r, 60)) {
                /* disallow the fixture's provider, or the first two the sequence registers */
                fx->ndisallow = fz_rpct(&r, 50) ? 1 : 2;
                fx->disallow = fx->ndisallow == 1 ? &etw_fixture_provider_guid : &fz_seq_guids[0];
            }
        }
    }
    /* the calls */
    static const enum etw_fn trace_fns[] = {FN_TQI, FN_TQI, FN_TQI, FN_TSI, FN_TSI, FN_NTQSI, FN_NTQSI, FN_NTSSI, FN_NTSSI, FN_NTC, FN_NTC, FN_NTQIP};
    static const enum etw_fn classic_fns[] = {FN_ETWCTI, FN_ETWCTI, FN_ETWCTI, FN_ETWCTI, FN_CTI, FN_REGISTERTRACEGUIDS, FN_UNREGISTERTRACEGUIDS};
    static const enum etw_fn provider_fns[] = {FN_ESI, FN_ESI, FN_ESI, FN_ESI, FN_ETWESI, FN_EVENTREGISTER, FN_EVENTUNREGISTER, FN_NTC, FZ_ENABLE_GROUP};
    int n = 1 + (int)fz_rbelow(&r, fz_rpct(&r, 30) ? FZ_MAXCALLS : 8);
    int nseqreg = 0, nseqclassic = 0;
    for (int tries = 0; p->ncalls < n && tries < 4 * n; tries++) {
        struct fz_call *c = &p->calls[p->ncalls];
        memset(c, 0, sizeof *c);
        enum etw_fn fn = th == TH_TRACE ? RPICK(&r, trace_fns) : th == TH_CLASSIC ? RPICK(&r, classic_fns) : RPICK(&r, provider_fns);
        if (!have_fn(p->version, fn))
            continue;
        if (!ctl && (fn == FN_TSI || fn == FN_NTSSI || fn == FN_NTC))
            continue; /* no reset: no calls that change global state */
        c->fn = fn;
        switch (fn) {
        case FN_TQI: gen_tqi(&r, c, p); break;
        case FN_TSI: gen_tsi(&r, c, p); break;
        case FN_NTQSI: gen_ksi(&r, c, p, false); break;
        case FN_NTSSI: gen_ksi(&r, c, p, true); break;
        case FN_NTC: gen_ntc(&r, c, p, nseqreg, th == TH_PROVIDER ? (fz_rpct(&r, 70) ? 0x1E : 0x1F) : 0); break;
        case FN_NTQIP:
            c->cls = PICK(&r, 0, 1, 2, 19, 23, 24, 25, 0xFFFFFFFF);
            c->len = 4;
            c->buf_null = fz_rpct(&r, 5);
            break;
        case FN_ETWCTI:
        case FN_CTI: {
            unsigned k = fz_rbelow(&r, 100);
            c->len = sizeof(ETW_EVENT_INSTANCE_INFO);
            if (k < 75 && fx->classes) {
                c->h = H_CLASS;
                c->hval = fz_rbelow(&r, (etw_u32)fx->classes);
            } else if (k < 90 && nseqclassic) {
                c->h = FH_SEQCLASS;
                c->hval = fz_rbelow(&r, (etw_u32)nseqclassic) * 4 + fz_rbelow(&r, 4);
            } else
                c->h = H_ZERO;
            c->buf_null = fz_rpct(&r, 5);
            break;
        }
        case FN_REGISTERTRACEGUIDS:
            if (nseqclassic >= 4)
                continue;
            c->hval = (etw_u64)nseqclassic++;
            c->count = fz_rpct(&r, 99) || fz_rpct(&r, 80) ? fz_rbelow(&r, 5) : fz_rpct(&r, 50) ? 0x10001 : fz_rpct(&r, 50) ? 0x20000 : 0x10000;
            if (fz_rpct(&r, 25))
                c->nulls = PICK(&r, N_REQ, N_CTL, N_REGS, N_OUT, N_GUID);
            break;
        case FN_UNREGISTERTRACEGUIDS: {
            unsigned k = fz_rbelow(&r, 100);
            if (k < 55 && nseqclassic) {
                c->h = FH_SEQCLASSIC;
                c->hval = fz_rbelow(&r, (etw_u32)nseqclassic);
            } else if (k < 75 && fx->classes) {
                /* later calls may not use the fixture's classes any more: they get NULL */
                c->h = FH_FIXCLASSIC;
            } else {
                c->h = H_VALUE;
                c->hval = fz_rpct(&r, 50) ? 0x7777 : fz_rnext(&r);
            }
            break;
        }
        case FN_EVENTREGISTER:
            if (nseqreg >= 4)
                continue;
            c->hval = (etw_u64)nseqreg++;
            if (fz_rpct(&r, 10))
                c->nulls = fz_rpct(&r, 50) ? N_PROV : N_OUT;
            break;
        case FN_EVENTUNREGISTER: fz_pick_reg_handle(&r, c, p, nseqreg); break;
        case FZ_ENABLE_GROUP: /* EtwRef_EnableGroup(session, group) */
            fz_pick_logger_handle(&r, c, p);
            c->cls = fz_rpct(&r, 85) ? 0 : 1;
            break;
        case FN_ESI:
        case FN_ETWESI: gen_esi(&r, c, p, nseqreg); break;
        default: continue;
        }
        c->fail_alloc = ctl ? c->fail_alloc : 0;
        if (c->len > FZ_BUF_MAX)
            c->len = FZ_BUF_MAX;
        if (c->fn == FN_NTC && c->out_len > FZ_OUT_MAX)
            c->out_len = FZ_OUT_MAX;
        p->ncalls++;
    }
}
