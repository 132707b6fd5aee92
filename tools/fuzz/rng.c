/*
 * tools/fuzz/rng.c - random numbers (splitmix64) and the building blocks of the generators.
 */
#include "tools/fuzz/fuzz.h"
#include <string.h>

etw_u64 fz_rnext(struct rng *r)
{
    etw_u64 z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
etw_u32 fz_rbelow(struct rng *r, etw_u32 n)
{
    return n ? (etw_u32)(((fz_rnext(r) >> 32) * (etw_u64)n) >> 32) : 0;
}
bool fz_rpct(struct rng *r, unsigned pct)
{
    return fz_rbelow(r, 100) < pct;
}
etw_u32 fz_pick_len(struct rng *r, etw_u32 natural)
{
    if (!natural)
        natural = 8;
    switch (fz_rbelow(r, 16)) {
    case 0: return 0;
    case 1:
    case 2: return natural - 1;
    case 3:
    case 4:
    case 5:
    case 6:
    case 7: return natural;
    case 8:
    case 9: return natural + 1;
    case 10: return natural * 2;
    case 11: return fz_rbelow(r, 64);
    case 12: return fz_rbelow(r, 0x200);
    case 13: return natural + 4 * fz_rbelow(r, 8);
    case 14: return fz_rpct(r, 90) ? natural * 3 : fz_rpct(r, 50) ? 0xFFFF : 0x10000; /* big buffers cost: rarely */
    default: return natural > 4 ? natural - 4 : 3;
    }
}

void fz_put32(struct fz_call *c, int off, etw_u32 v)
{
    if (off + 4 <= FZ_IN_MAX) {
        memcpy(c->in + off, &v, 4);
        if ((etw_u32)(off + 4) > c->in_len)
            c->in_len = (etw_u32)(off + 4);
    }
}
void fz_put_bytes(struct fz_call *c, int off, const void *p, size_t n)
{
    if (off + n <= FZ_IN_MAX) {
        memcpy(c->in + off, p, n);
        if (off + n > c->in_len)
            c->in_len = (etw_u32)(off + n);
    }
}
void fz_rand_bytes(struct rng *r, etw_u8 *p, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        etw_u64 v = fz_rnext(r);
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
}

etw_u32 fz_rand_mask(struct rng *r)
{
    static const etw_u32 bits[] = {0,
                                   1,
                                   3,
                                   0x10,
                                   0x8000,
                                   ETW_EVENT_TRACE_FLAG_CSWITCH,
                                   ETW_EVENT_TRACE_FLAG_PROFILE,
                                   ETW_EVENT_TRACE_FLAG_DPC | ETW_EVENT_TRACE_FLAG_INTERRUPT,
                                   ETW_PERF_MASK_BIT(ETW_PERF_PROFILE),
                                   ETW_PERF_MASK_BIT(ETW_PERF_PMC_PROFILE),
                                   ETW_PERF_MASK_BIT(ETW_PERF_CONTEXT_SWITCH) | ETW_PERF_MASK_BIT(ETW_PERF_COMPACT_CSWITCH),
                                   ETW_PERF_MASK_BIT(ETW_PERF_CONTEXT_SWITCH),
                                   0xFFFFFFFF};
    return fz_rpct(r, 80) ? RPICK(r, bits) : (etw_u32)fz_rnext(r);
}

void fz_rand_masks(struct rng *r, etw_u32 m[8])
{
    memset(m, 0, 32);
    if (fz_rpct(r, 40))
        return;
    for (int i = 0, n = 1 + (int)fz_rbelow(r, 3); i < n; i++)
        m[fz_rbelow(r, 8)] |= fz_rand_mask(r);
}

int fz_pick_logger_handle(struct rng *r, struct fz_call *c, const struct fz_prog *p)
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
        static const etw_u64 vals[] = {0xFFFF, 1, 2, 0x3F, 0x40, 0xFFFE, 0x1FFFF};
        c->hval = fz_rpct(r, 80) ? RPICK(r, vals) : fz_rnext(r);
        return c->h = H_VALUE;
    }
    return c->h = H_ZERO;
}

void fz_zero_handle_or_value(struct rng *r, struct fz_call *c)
{
    static const etw_u64 vals[] = {1, 0xFFFF, 0x10000, 0x100000000ull};
    if (fz_rpct(r, 70))
        c->h = H_ZERO;
    else {
        c->h = H_VALUE;
        c->hval = fz_rpct(r, 70) ? RPICK(r, vals) : fz_rnext(r);
    }
}

void fz_gen_guid_entries(struct rng *r, struct fz_call *c, etw_u32 n, size_t size)
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

etw_u32 fz_gen_traits(struct rng *r, etw_u8 *b, etw_u32 cap)
{
    etw_u32 n = 2;
    etw_u32 namelen = fz_rbelow(r, 10);
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
        etw_u16 ts = (etw_u16)(n - start);
        memcpy(b + start, &ts, 2);
        b[start + 2] = type;
    }
    if (fz_rpct(r, 4) && cap >= 300) { /* a long custom trait, as traits.large */
        etw_u32 start = n, dl = 250 + fz_rbelow(r, 20);
        if (n + 3 + dl <= cap) {
            memset(b + n + 3, 0x42, dl);
            n += 3 + dl;
            etw_u16 ts = (etw_u16)(n - start);
            memcpy(b + start, &ts, 2);
            b[start + 2] = 201;
        }
    }
    etw_u16 total = (etw_u16)n;
    memcpy(b, &total, 2);
    if (fz_rpct(r, 45)) { /* break it */
        switch (fz_rbelow(r, 8)) {
        case 0: total = (etw_u16)(total + (fz_rpct(r, 50) ? 1 : -1)); memcpy(b, &total, 2); break;
        case 1: memset(b + 2, 'x', namelen + 1); break; /* the name loses its NUL */
        case 2:
            if (ntraits) { /* a trait's size: off by one, 0, 1, 2, or far too big */
                etw_u32 t = 3 + namelen;
                static const etw_u16 sz[] = {0, 1, 2, 3};
                etw_u16 ts;
                memcpy(&ts, b + t, 2);
                ts = fz_rpct(r, 50) ? (etw_u16)(ts + (fz_rpct(r, 50) ? 1 : -1)) : fz_rpct(r, 70) ? RPICK(r, sz) : 0xFFFF;
                memcpy(b + t, &ts, 2);
            }
            break;
        case 3: b[n++] = (etw_u8)fz_rnext(r); if (fz_rpct(r, 50)) b[n++] = 0; total = (etw_u16)n; memcpy(b, &total, 2); break;
        case 4: b[n++] = 0x01; break; /* a trailing byte TraitsSize does not count */
        case 5: if (n > 3) n -= 1 + fz_rbelow(r, n - 3); break; /* truncated */
        case 6: b[n++] = 2; b[n++] = 0; total = (etw_u16)n; memcpy(b, &total, 2); break; /* a 2-byte trait at the end */
        default: /* a 2-byte trait between the name and a well-formed trait */
            memmove(b + 5 + namelen, b + 3 + namelen, n - 3 - namelen);
            b[3 + namelen] = 2, b[4 + namelen] = 0;
            n += 2;
            if (n == 5 + namelen) { /* no trait after it: add one */
                b[n++] = 3, b[n++] = 0, b[n++] = 200;
            }
            total = (etw_u16)n;
            memcpy(b, &total, 2);
            break;
        }
    }
    return n;
}

void fz_pick_reg_handle(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg)
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
