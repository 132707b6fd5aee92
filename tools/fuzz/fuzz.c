/*
 * tools/fuzz/fuzz.c - etwconf fuzz: differential fuzzing of a target against the reference.
 *
 *   etwconf fuzz --target T [--seconds N | --calls N] [--seed S] [--emulate V] [--max N] [--quiet]
 *
 * The built-in reference (etw_target_reference(), statically linked) is the oracle. The fuzzer
 * makes random programs: a fixture (sessions, group masks, disallow lists, classic registrations,
 * a provider, privileges) and a short sequence of calls (classes, handles, lengths around every
 * boundary, NULLs, input bytes, well-formed and broken traits blobs, register / set traits /
 * unregister / create ids). Both sides start each program from the same state through the control
 * API (EtwRef_Reset, EtwRef_SetVersion, EtwRef_StartLogger...) and make the same calls; every call
 * is compared on its return code, ReturnLength, the bytes of every buffer after the call, the
 * bytes just before each buffer, accesses past its end (guard pages), handles it returns
 * (normalised: opaque values are compared by what they are, not their bits) and, for
 * CreateTraceInstanceId, the last error.
 *
 * A disagreement is reduced to a minimal program (calls dropped, fixture simplified, input
 * shortened and zeroed) and printed with the rule it touches and a case row for cases/, whose
 * expectations are the reference's outcome at every version. A target without the control API is
 * fuzzed with the calls that need no fixture and change no global state.
 *
 * Programs are a pure function of (seed, program number): --seed S --program K replays program K.
 * Portable C over the harness API: it builds for Windows too.
 *
 * Exit status: 0 no disagreement, 1 disagreement(s) found, 2 usage, 3 the target cannot be used.
 */
#include "harness/etwconf.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FZ_MAXCALLS 24
#define FZ_IN_MAX 320 /* explicit input bytes; the rest of a longer buffer keeps the sentinel */
#define FZ_BUF_MAX 0x10100u /* the largest InformationLength tried */
#define FZ_OUT_MAX 0x10100u
#define FZ_RTG_MAX 0x20001u /* RegisterTraceGuidsW: the largest GuidCount with a real array */
#define FZ_NV ETW_VERSION_COUNT
#define FZ_MAXDIS 64

enum { SIDE_T, SIDE_O };
/* handle selectors beyond the case format's enum etw_hsel: handles made earlier in the sequence */
enum { FH_SEQREG = 100, FH_SEQCLASS, FH_SEQCLASSIC, FH_FIXCLASSIC };
/* EventRegister / RegisterTraceGuidsW NULL-argument bits */
enum { N_REQ = 1, N_CTL = 2, N_REGS = 4, N_OUT = 8, N_GUID = 16, N_PROV = 32 };
enum aspect { FA_NONE, FA_RC, FA_RETLEN, FA_OUTPUT, FA_INPUT, FA_BOUNDS, FA_HANDLE, FA_LASTERR, FA_FAULT, FA_FIXTURE, FA_EXPORT };
static const char *const aspect_name[] = {"none", "return code", "ReturnLength", "output bytes", "input buffer (written)",
                                          "bytes before the buffer", "returned handle", "last error", "fault", "fixture", "export"};

static const unsigned versions[FZ_NV] = {
#define VERSION(sym, nt, build, name, wine, label) nt,
#include "spec/versions.def"
#undef VERSION
};
static const etw_guid dal_guids[3] = {
    {0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x01}},
    {0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x02}},
    {0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x03}},
};
static const etw_guid group_g = {0x6e0b0c00, 0x1234, 0x4abc, {0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07}};
/* the fixture GUIDs of harness/core/run.c, so a printed case row sets up what the fuzzer set up */
static const etw_guid control_guid = {0xE7C0F000, 0x7E57, 0x4E7C, {0x9a, 0x11, 0x00, 0x00, 0xc0, 0xf0, 0x00, 0x01}};
static const etw_guid provider_guid = {0xE7C0F001, 0x7E57, 0x4E7C, {0x9a, 0x11, 0x00, 0x00, 0xc0, 0xf0, 0x00, 0x02}};
static const etw_guid seq_guids[4] = {
    {0xF0220000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0}}, {0xF0220001, 1, 2, {3, 4, 5, 6, 7, 8, 9, 1}},
    {0xF0220002, 1, 2, {3, 4, 5, 6, 7, 8, 9, 2}}, {0xF0220003, 1, 2, {3, 4, 5, 6, 7, 8, 9, 3}},
};

/* ---------------------------------------------------------------- random numbers (splitmix64) */
struct rng {
    etw_u64 s;
};
static etw_u64 rnext(struct rng *r)
{
    etw_u64 z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static etw_u32 rbelow(struct rng *r, etw_u32 n)
{
    return n ? (etw_u32)(((rnext(r) >> 32) * (etw_u64)n) >> 32) : 0;
}
static bool rpct(struct rng *r, unsigned pct)
{
    return rbelow(r, 100) < pct;
}
#define RPICK(r, arr) ((arr)[rbelow((r), (etw_u32)(sizeof(arr) / sizeof((arr)[0])))])

/* ---------------------------------------------------------------- programs */
struct fz_call {
    enum etw_fn fn;
    int h; /* enum etw_hsel or FH_* */
    etw_u64 hval;
    etw_u32 cls;
    etw_u32 len; /* InformationLength (the buffer has exactly this many bytes) */
    bool buf_null, retlen_null, out_null;
    etw_u32 out_len; /* NtTraceControl */
    enum etw_patch patch;
    int patch_off;
    int fail_alloc; /* the n-th allocation inside this call fails */
    etw_u32 count; /* RegisterTraceGuidsW GuidCount */
    unsigned nulls; /* N_* bits */
    bool traits_ptr; /* NtTraceControl 0x1E: Traits points at the blob in aux */
    etw_u32 in_len, aux_len;
    etw_u8 in[FZ_IN_MAX];
    etw_u8 aux[FZ_IN_MAX];
};

struct fz_prog {
    unsigned version;
    struct etw_fixture fx;
    bool restrict_group; /* EtwRef_RestrictGroup(group_g) after the fixture */
    int ncalls;
    struct fz_call calls[FZ_MAXCALLS];
};

/* ---------------------------------------------------------------- the two sides */
struct fz_side {
    const char *name;
    struct etw_target *t;
    void *fn[FZ_NV][FN_COUNT];
    etw_pfn_GetLastError gle[FZ_NV];
    etw_pfn_SetLastError sle[FZ_NV];
    unsigned cur_version;
    bool dirty;
    /* fixture */
    etw_tracehandle logger, logger2, classic;
    bool have_logger, have_logger2, have_classic, have_reg;
    int nclasses;
    ETW_TRACE_GUID_REGISTRATION regs[4];
    etw_guid reg_guids[4];
    etw_reghandle reg, stale_reg;
    /* made by calls of the sequence */
    etw_reghandle seqreg[4];
    etw_tracehandle seqclassic[4];
    bool seqclassic_alive[4];
    etw_u32 seqclassic_n[4];
    etw_handle seqclass[4][4];
};

/* what one call did, besides its buffers */
struct fz_out {
    etw_u32 rc, rl, le;
    bool pre_in, pre_out, pre_aux;
    int ntok;
    etw_u32 tok[20];
};

struct fz_dis {
    int call; /* index of the call that disagreed (-1: fixture) */
    enum aspect aspect;
    char detail[400];
};

static struct {
    struct fz_side side[2];
    struct etw_guard gin, gout, grl, gaux;
    struct etw_ctx ctx;
    struct etw_runner runner;
    etw_u8 *pattern; /* sentinel bytes, buf-aligned, for refilling */
    etw_u8 *t_after, *t_out_after, *t_aux_after, *t_before, *o_before;
    bool control; /* both sides have the control API */
    bool emulate_all;
    unsigned fixed_version;
    unsigned long long calls;
    /* the program being run under the guard */
    const struct fz_prog *prog;
    int upto;
    struct fz_dis dis;
    bool found;
    volatile int cur_side, cur_call;
    bool oracle_only; /* run the reference alone (the expectations of a printed row) */
    etw_u64 seed;
    bool lasterr; /* both sides export GetLastError and SetLastError */
    unsigned long long next, programs, max_calls;
    long batch_left;
    struct fz_out last_out[2];
    bool last_ran;
} F;

static etw_u8 *in_buf(size_t len)
{
    return F.gin.guard - len;
}
static etw_u8 *out_buf(size_t len)
{
    return F.gout.guard - len;
}
static etw_u32 *rl_ptr(void)
{
    return (etw_u32 *)(void *)(F.grl.guard - 4);
}
static etw_u8 *aux_buf(size_t len)
{
    return F.gaux.guard - len;
}

/* sentinel-fill [buf - ETW_PRE_ZONE, buf + len) exactly as etw_guard_alloc does for a case */
static void refill(etw_u8 *buf, size_t len)
{
    memcpy(buf - ETW_PRE_ZONE, F.pattern, ETW_PRE_ZONE + len);
}
static bool pre_intact(const etw_u8 *buf)
{
    return !memcmp(buf - ETW_PRE_ZONE, F.pattern, ETW_PRE_ZONE);
}

static int vindex(unsigned v)
{
    for (int i = 0; i < FZ_NV; i++)
        if (versions[i] == v)
            return i;
    return FZ_NV - 1;
}

/* ---------------------------------------------------------------- fixture (as harness/core/run.c sets it up) */
static etw_u32 ETW_WINAPI fz_request_cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    (void)code, (void)ctx, (void)size, (void)buf;
    return 0;
}

static bool uses_handle(const struct fz_prog *p, int h)
{
    for (int i = 0; i < p->ncalls; i++)
        if (p->calls[i].h == h)
            return true;
    return false;
}

/* false with *why when the side could not set the fixture up */
static bool fixture(struct fz_side *s, const struct fz_prog *p, const char **why)
{
    const struct etw_fixture *fx = &p->fx;
    struct etw_target *t = s->t;
    int vi = vindex(s->cur_version);
    memset(s->seqreg, 0, sizeof s->seqreg);
    memset(s->seqclassic_alive, 0, sizeof s->seqclassic_alive);
    s->have_logger = s->have_logger2 = s->have_classic = s->have_reg = false;
    s->nclasses = 0;
    s->stale_reg = 0;
    if (fx->logger) {
        if (!t->start_logger || t->start_logger(t, (unsigned)fx->logger, fx->masks, &s->logger, NULL, 0) != ETW_FX_OK)
            return *why = "EtwRef_StartLogger failed", false;
        s->have_logger = true;
    }
    if (fx->logger2) {
        static const etw_u32 none[8];
        if (!t->start_logger || t->start_logger(t, (unsigned)fx->logger2, none, &s->logger2, NULL, 0) != ETW_FX_OK)
            return *why = "EtwRef_StartLogger (second session) failed", false;
        s->have_logger2 = true;
    }
    if (fx->ndisallow) {
        etw_pfn_TraceSetInformation tsi = (etw_pfn_TraceSetInformation)s->fn[vi][FN_TSI];
        if (!tsi || tsi(s->logger, ETW_TraceSetDisallowList, (void *)fx->disallow, 16u * (etw_u32)fx->ndisallow))
            return *why = "TraceSetInformation(TraceSetDisallowList) failed", false;
    }
    if (fx->classes) {
        etw_pfn_RegisterTraceGuidsW rtg = (etw_pfn_RegisterTraceGuidsW)s->fn[vi][FN_REGISTERTRACEGUIDS];
        int n = fx->classes > 4 ? 4 : fx->classes;
        for (int i = 0; i < n; i++) {
            s->reg_guids[i] = control_guid;
            s->reg_guids[i].Data4[7] = (etw_u8)(0x10 + i);
            s->regs[i].Guid = &s->reg_guids[i];
            s->regs[i].RegHandle = NULL;
        }
        if (!rtg || rtg(fz_request_cb, NULL, &control_guid, (etw_u32)n, s->regs, NULL, NULL, &s->classic))
            return *why = "RegisterTraceGuidsW failed", false;
        s->have_classic = true;
        s->nclasses = n;
        if (fx->foreign_pid && (!t->set_class_pid || t->set_class_pid(s->regs[0].RegHandle, 0x4242)))
            return *why = "EtwRef_SetClassProcessId failed", false;
        if (fx->set_counter && (!t->set_class_counter || t->set_class_counter(s->regs[0].RegHandle, fx->counter)))
            return *why = "EtwRef_SetClassCounter failed", false;
    }
    if (fx->provider) {
        etw_pfn_EventRegister er = (etw_pfn_EventRegister)s->fn[vi][FN_EVENTREGISTER];
        etw_pfn_EventUnregister eu = (etw_pfn_EventUnregister)s->fn[vi][FN_EVENTUNREGISTER];
        if (!er || !eu || er(&provider_guid, NULL, NULL, &s->reg))
            return *why = "EventRegister failed", false;
        s->have_reg = true;
        if (uses_handle(p, H_REG_STALE) && (er(&provider_guid, NULL, NULL, &s->stale_reg) || eu(s->stale_reg)))
            return *why = "registering and unregistering a second provider failed", false;
    }
    if (fx->profile_priv && (!t->set_privilege || t->set_privilege(t, 1 /* ETWREF_PRIV_SYSTEM_PROFILE */, fx->profile_priv == PRIV_HELD, NULL, 0) != ETW_FX_OK))
        return *why = "EtwRef_SetPrivilege failed", false;
    if (p->restrict_group && (!t->restrict_group || t->restrict_group(&group_g)))
        return *why = "EtwRef_RestrictGroup failed", false;
    return true;
}

/* ---------------------------------------------------------------- one call on one side */
static etw_u64 handle_of(struct fz_side *s, const struct fz_call *c)
{
    switch (c->h) {
    case H_ZERO: return 0;
    case H_LOGGER: return s->have_logger ? s->logger : 0;
    case H_LOGGER_HIGH: return (s->have_logger ? s->logger : 0) | c->hval;
    case H_LOGGER2: return s->have_logger2 ? s->logger2 : 0;
    case H_MISSING: return s->t->missing_logger ? s->t->missing_logger() : 0x3E;
    case H_VALUE: return c->hval;
    case H_REG: return s->have_reg ? s->reg : 0;
    case H_REG_STALE: return s->stale_reg;
    case H_CLASS: return s->have_classic && c->hval < (etw_u64)s->nclasses ? (etw_u64)(uintptr_t)s->regs[c->hval].RegHandle : 0;
    case FH_SEQREG: return s->seqreg[c->hval & 3];
    case FH_SEQCLASS: {
        unsigned k = (unsigned)(c->hval >> 2) & 3, i = (unsigned)c->hval & 3;
        /* a class of a registration that is gone would be a dangling pointer: pass NULL instead */
        return s->seqclassic_alive[k] && i < s->seqclassic_n[k] ? (etw_u64)(uintptr_t)s->seqclass[k][i] : 0;
    }
    case FH_SEQCLASSIC: return s->seqclassic_alive[c->hval & 3] ? s->seqclassic[c->hval & 3] : 0x7777;
    case FH_FIXCLASSIC: return s->have_classic ? s->classic : 0x7777;
    }
    return 0;
}

/* the buffer as the call gets it: sentinel, the input bytes, the handle patch */
static void prepare(etw_u8 *buf, const struct fz_call *c, etw_u64 h)
{
    refill(buf, c->len);
    etw_u32 n = c->in_len < c->len ? c->in_len : c->len;
    if (n)
        memcpy(buf, c->in, n);
    if (c->patch == PATCH_HANDLE64 && c->patch_off + 8 <= (int)c->len)
        memcpy(buf + c->patch_off, &h, 8);
    else if (c->patch == PATCH_LOGGER32 && c->patch_off + 4 <= (int)c->len) {
        etw_u32 id = (etw_u32)(h & 0xFFFF);
        memcpy(buf + c->patch_off, &id, 4);
    }
    if (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS && c->len >= 16) {
        /* the Traits pointer is the blob or NULL, never bytes from the input */
        etw_u64 ptr = c->traits_ptr ? (etw_u64)(uintptr_t)aux_buf(c->aux_len) : 0;
        memcpy(buf + 8, &ptr, 8);
    }
}

static etw_u32 token_of_handle(etw_u64 v, etw_u64 given)
{
    if (v == ETW_SENTINEL32 || v == 0xDEADBEEFDEADBEEFull || v == 0xEFBEADDEEFBEADDEull)
        return 1; /* untouched */
    if (v == 0)
        return 2;
    if (v == given)
        return 3; /* echoes the handle given */
    return 4; /* some other non-zero value */
}

static void run_call(struct fz_side *s, const struct fz_call *c, struct fz_out *o)
{
    int vi = vindex(s->cur_version);
    void *fnp = s->fn[vi][c->fn];
    etw_u64 h = handle_of(s, c);
    etw_u8 *buf = c->buf_null ? NULL : in_buf(c->len);
    etw_u8 *out = NULL;
    etw_u32 *rl = c->retlen_null ? NULL : rl_ptr();
    if (buf)
        prepare(buf, c, h);
    if (c->fn == FN_NTC && !c->out_null) {
        out = out_buf(c->out_len);
        refill(out, c->out_len);
    }
    if (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS && c->aux_len) {
        etw_u8 *a = aux_buf(c->aux_len);
        refill(a, c->aux_len);
        memcpy(a, c->aux, c->aux_len);
    }
    *rl_ptr() = ETW_SENTINEL32;
    o->ntok = 0;
    o->le = 0;
    if (c->fail_alloc && s->t->fail_alloc)
        s->t->fail_alloc((unsigned)c->fail_alloc);
    switch (c->fn) {
    case FN_TQI: o->rc = ((etw_pfn_TraceQueryInformation)fnp)(h, c->cls, buf, c->len, rl); break;
    case FN_TSI: o->rc = ((etw_pfn_TraceSetInformation)fnp)(h, c->cls, buf, c->len); break;
    case FN_NTQSI: o->rc = (etw_u32)((etw_pfn_NtQuerySystemInformation)fnp)(c->cls, buf, c->len, rl); break;
    case FN_NTSSI: o->rc = (etw_u32)((etw_pfn_NtSetSystemInformation)fnp)(c->cls, buf, c->len); break;
    case FN_NTC: o->rc = (etw_u32)((etw_pfn_NtTraceControl)fnp)(c->cls, buf, c->len, out, c->out_len, rl); break;
    case FN_NTQIP: o->rc = (etw_u32)((etw_pfn_NtQueryIntervalProfile)fnp)(c->cls, (etw_u32 *)(void *)buf); break;
    case FN_ESI:
    case FN_ETWESI: o->rc = ((etw_pfn_EventSetInformation)fnp)(h, c->cls, buf, c->len); break;
    case FN_ETWCTI:
    case FN_CTI: {
        etw_pfn_SetLastError sle = s->sle[vi];
        etw_pfn_GetLastError gle = s->gle[vi];
        if (sle)
            sle(0xE7E7E7E7u);
        o->rc = ((etw_pfn_CreateTraceInstanceId)fnp)((etw_handle)(uintptr_t)h, (ETW_EVENT_INSTANCE_INFO *)(void *)buf);
        o->le = gle ? gle() : 0;
        if (buf && c->len >= sizeof(ETW_EVENT_INSTANCE_INFO)) {
            /* the echoed RegHandle is a pointer of this side: compare what it is, then blank it */
            etw_handle rh;
            memcpy(&rh, buf, sizeof rh);
            o->tok[o->ntok++] = token_of_handle((etw_u64)(uintptr_t)rh, h);
            memcpy(buf, F.pattern + ETW_PRE_ZONE, sizeof rh);
        }
        break;
    }
    case FN_EVENTREGISTER: {
        etw_reghandle *out_h = (c->nulls & N_OUT) ? NULL : (etw_reghandle *)(void *)in_buf(8);
        if (out_h)
            refill((etw_u8 *)out_h, 8);
        o->rc = ((etw_pfn_EventRegister)fnp)((c->nulls & N_PROV) ? NULL : &seq_guids[c->hval & 3], NULL, NULL, out_h);
        etw_u64 v = 0;
        if (out_h) {
            memcpy(&v, out_h, 8);
            o->tok[o->ntok++] = token_of_handle(v, 0);
            refill((etw_u8 *)out_h, 8);
        }
        s->seqreg[c->hval & 3] = o->rc == 0 ? v : 0;
        buf = NULL; /* compared through the token */
        break;
    }
    case FN_EVENTUNREGISTER: o->rc = ((etw_pfn_EventUnregister)fnp)(h); break;
    case FN_REGISTERTRACEGUIDS: {
        unsigned k = (unsigned)c->hval & 3;
        etw_u32 n = c->count;
        ETW_TRACE_GUID_REGISTRATION *regs = NULL;
        etw_tracehandle *out_h = (c->nulls & N_OUT) ? NULL : (etw_tracehandle *)(void *)in_buf(8);
        if (!(c->nulls & N_REGS) && n) {
            regs = (ETW_TRACE_GUID_REGISTRATION *)(void *)aux_buf((size_t)n * sizeof *regs);
            for (etw_u32 i = 0; i < n; i++) {
                regs[i].Guid = &seq_guids[i & 3];
                regs[i].RegHandle = NULL;
            }
            if (c->nulls & N_GUID)
                regs[n - 1].Guid = NULL;
        }
        if (out_h)
            memset(out_h, 0xAB, 8);
        o->rc = ((etw_pfn_RegisterTraceGuidsW)fnp)((c->nulls & N_REQ) ? NULL : fz_request_cb, NULL,
                                                   (c->nulls & N_CTL) ? NULL : &seq_guids[k], n, regs, NULL, NULL, out_h);
        if (out_h) {
            etw_u64 v;
            memcpy(&v, out_h, 8);
            o->tok[o->ntok++] = v == 0xABABABABABABABABull ? 1 : v ? 4 : 2;
            if (o->rc == 0) {
                s->seqclassic[k] = v;
                s->seqclassic_alive[k] = true;
                s->seqclassic_n[k] = n < 4 ? n : 4;
                for (etw_u32 i = 0; i < s->seqclassic_n[k]; i++)
                    s->seqclass[k][i] = regs ? regs[i].RegHandle : NULL;
            }
        }
        /* the RegHandles: NULL or not, and which are the same (first 16) */
        for (etw_u32 i = 0; regs && i < n && i < 16; i++) {
            etw_u32 tk = regs[i].RegHandle ? 100 + i : 0;
            for (etw_u32 j = 0; j < i && regs[i].RegHandle; j++)
                if (regs[j].RegHandle == regs[i].RegHandle) {
                    tk = 100 + j;
                    break;
                }
            o->tok[o->ntok++] = tk;
        }
        buf = NULL;
        break;
    }
    case FN_CUSTOM: { /* EtwRef_EnableGroup: what a group enable on a session reaches */
        etw_u32 en = 0xE7E7E7E7u;
        o->rc = s->t->enable_group(h, c->cls ? &dal_guids[0] : &group_g, &en);
        o->tok[o->ntok++] = en;
        break;
    }
    case FN_UNREGISTERTRACEGUIDS: {
        o->rc = ((etw_pfn_UnregisterTraceGuids)fnp)(h);
        if (o->rc == 0) {
            if (c->h == FH_SEQCLASSIC)
                s->seqclassic_alive[c->hval & 3] = false;
            if (c->h == FH_FIXCLASSIC)
                s->have_classic = false;
        }
        break;
    }
    default: o->rc = 0xFFFFFFFFu; break;
    }
    if (c->fail_alloc && s->t->fail_alloc)
        s->t->fail_alloc(0);
    o->rl = *rl_ptr();
    o->pre_in = buf ? pre_intact(buf) : true;
    o->pre_out = out ? pre_intact(out) : true;
    o->pre_aux = (c->fn == FN_REGISTERTRACEGUIDS && !(c->nulls & N_REGS) && c->count)
                     ? pre_intact(aux_buf((size_t)c->count * sizeof(ETW_TRACE_GUID_REGISTRATION)))
                     : true;
}

/* ---------------------------------------------------------------- comparing the two sides */
static bool is_query(enum etw_fn fn)
{
    return fn == FN_TQI || fn == FN_NTQSI || fn == FN_NTC || fn == FN_ETWCTI || fn == FN_CTI || fn == FN_NTQIP;
}

static void fmt_code(char *b, size_t n, const struct fz_call *c, etw_u32 v)
{
    etw_format_code(b, n, v, etw_fn_returns_ntstatus(c->fn));
}

static void hexs(char *out, size_t cap, const etw_u8 *p, size_t n)
{
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && o + 3 < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%02x", p[i]);
}

/* compare the buffer of the call: target bytes (after; before) against the oracle's live buffer */
static bool same_bytes(const etw_u8 *ta, const etw_u8 *tb, const etw_u8 *oa, const etw_u8 *ob, size_t n, size_t *at)
{
    if (!tb || !memcmp(tb, ob, n)) {
        if (!memcmp(ta, oa, n))
            return true;
        for (size_t i = 0; i < n; i++)
            if (ta[i] != oa[i]) {
                *at = i;
                return false;
            }
    }
    /* the sides started from different bytes (their own handles were patched in): a byte agrees
     * when both left it as it was or both wrote the same value */
    for (size_t i = 0; i < n; i++) {
        bool ok = tb[i] == ob[i] ? ta[i] == oa[i] : ((ta[i] == tb[i] && oa[i] == ob[i]) || ta[i] == oa[i]);
        if (!ok) {
            *at = i;
            return false;
        }
    }
    return true;
}

/* return codes a rule accepts in place of the reference's */
static bool rc_accepted(const struct fz_call *c, etw_u32 t, etw_u32 o)
{
    /* ESI.BAD_HANDLE: ERROR_INVALID_HANDLE as implemented or ERROR_INVALID_PARAMETER as documented (C-3) */
    return (c->fn == FN_ESI || c->fn == FN_ETWESI) && o == ETW_ERROR_INVALID_HANDLE && t == ETW_ERROR_INVALID_PARAMETER;
}

static bool differ(const struct fz_call *c, const struct fz_out *t, const struct fz_out *o, struct fz_dis *d, int idx)
{
    char a[64], b[64];
    d->call = idx;
    if (t->rc != o->rc && !rc_accepted(c, t->rc, o->rc)) {
        fmt_code(a, sizeof a, c, t->rc);
        fmt_code(b, sizeof b, c, o->rc);
        d->aspect = FA_RC;
        snprintf(d->detail, sizeof d->detail, "return code: target %s, reference %s", a, b);
        return true;
    }
    if (!c->retlen_null && t->rl != o->rl && (c->fn == FN_TQI || c->fn == FN_NTQSI || c->fn == FN_NTC)) {
        d->aspect = FA_RETLEN;
        snprintf(d->detail, sizeof d->detail, "ReturnLength: target %s%u (0x%X), reference %s%u (0x%X)",
                 t->rl == ETW_SENTINEL32 ? "not written, " : "", t->rl, t->rl, o->rl == ETW_SENTINEL32 ? "not written, " : "", o->rl,
                 o->rl);
        return true;
    }
    if (t->pre_in != o->pre_in || t->pre_out != o->pre_out || t->pre_aux != o->pre_aux) {
        d->aspect = FA_BOUNDS;
        snprintf(d->detail, sizeof d->detail, "bytes before the %s buffer: %s by the target, %s by the reference",
                 t->pre_in != o->pre_in ? "input" : t->pre_out != o->pre_out ? "output" : "TraceGuidReg",
                 (t->pre_in && t->pre_out && t->pre_aux) ? "left alone" : "changed", (o->pre_in && o->pre_out && o->pre_aux) ? "left alone" : "changed");
        return true;
    }
    if (c->fn == FN_CUSTOM && t->tok[0] != o->tok[0]) {
        d->aspect = FA_OUTPUT;
        snprintf(d->detail, sizeof d->detail, "members a group enable reached: target %u, reference %u", t->tok[0], o->tok[0]);
        return true;
    }
    if (t->ntok != o->ntok || memcmp(t->tok, o->tok, sizeof t->tok[0] * (size_t)t->ntok)) {
        static const char *const tk[] = {"?", "not written", "0", "the handle given", "a non-zero value"};
        d->aspect = FA_HANDLE;
        int i = 0;
        while (i < t->ntok && i < o->ntok && t->tok[i] == o->tok[i])
            i++;
        etw_u32 x = i < t->ntok ? t->tok[i] : 0, y = i < o->ntok ? o->tok[i] : 0;
        snprintf(d->detail, sizeof d->detail, "returned handle #%d: target %s, reference %s", i + 1,
                 x < 5 ? tk[x] : x >= 100 ? "a RegHandle" : "?", y < 5 ? tk[y] : y >= 100 ? "a RegHandle" : "?");
        if (x >= 100 || y >= 100)
            snprintf(d->detail, sizeof d->detail, "TraceGuidReg[%d].RegHandle: target %s, reference %s", i,
                     !x ? "NULL" : x == 100u + (etw_u32)i ? "a new handle" : "the same as an earlier entry", !y ? "NULL" : y == 100u + (etw_u32)i ? "a new handle" : "the same as an earlier entry");
        return true;
    }
    if ((c->fn == FN_ETWCTI || c->fn == FN_CTI) && t->le != o->le && F.lasterr) {
        d->aspect = FA_LASTERR;
        snprintf(d->detail, sizeof d->detail, "last error: target %u (0x%X), reference %u (0x%X) (0xE7E7E7E7: left alone)", t->le, t->le,
                 o->le, o->le);
        return true;
    }
    return false;
}

/* after the oracle's call: compare its buffers with the target's snapshot */
static bool differ_bytes(const struct fz_call *c, const struct fz_out *o, struct fz_dis *d, int idx)
{
    size_t at = 0;
    d->call = idx;
    if (!c->buf_null && c->fn != FN_EVENTREGISTER && c->fn != FN_REGISTERTRACEGUIDS) {
        bool patched = c->patch != PATCH_NONE || (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
        if (!same_bytes(F.t_after, patched ? F.t_before : NULL, in_buf(c->len), patched ? F.o_before : NULL, c->len, &at)) {
            char a[40], b[40];
            size_t n = c->len - at < 8 ? c->len - at : 8;
            hexs(a, sizeof a, F.t_after + at, n);
            hexs(b, sizeof b, in_buf(c->len) + at, n);
            d->aspect = is_query(c->fn) && c->fn != FN_NTC ? FA_OUTPUT : FA_INPUT;
            snprintf(d->detail, sizeof d->detail, "%s at +%zu: target %s, reference %s (sentinel: deadbeef)",
                     d->aspect == FA_OUTPUT ? "output" : "input buffer written", at, a, b);
            return true;
        }
    }
    if (c->fn == FN_NTC && !c->out_null && !same_bytes(F.t_out_after, NULL, out_buf(c->out_len), NULL, c->out_len, &at)) {
        char a[40], b[40];
        size_t n = c->out_len - at < 8 ? c->out_len - at : 8;
        hexs(a, sizeof a, F.t_out_after + at, n);
        hexs(b, sizeof b, out_buf(c->out_len) + at, n);
        d->aspect = FA_OUTPUT;
        snprintf(d->detail, sizeof d->detail, "OutBuffer at +%zu: target %s, reference %s (sentinel: deadbeef)", at, a, b);
        return true;
    }
    (void)o;
    return false;
}

/* ---------------------------------------------------------------- running a program on both sides */
static void set_side_version(struct fz_side *s, unsigned v)
{
    if (s->t->set_version && s->cur_version != v)
        s->t->set_version(v, 0);
    s->cur_version = v;
}

static bool pure_call(const struct fz_call *c)
{
    return (c->fn == FN_TQI || c->fn == FN_NTQSI || c->fn == FN_NTQIP) && !c->fail_alloc;
}

static bool fixture_empty(const struct fz_prog *p)
{
    static const struct etw_fixture none;
    return !memcmp(&p->fx, &none, sizeof none) && !p->restrict_group;
}

static void run_body(struct etw_ctx *unused)
{
    (void)unused;
    const struct fz_prog *p = F.prog;
    struct fz_side *T = &F.side[SIDE_T], *O = &F.side[SIDE_O];
    bool both = !F.oracle_only;
    /* a program that sets nothing up and only reads leaves the state as it found it */
    bool pure = fixture_empty(p);
    for (int i = 0; i < F.upto && i < p->ncalls && pure; i++)
        pure = pure_call(&p->calls[i]);
    F.cur_call = -1;
    for (int k = both ? 0 : 1; k < 2; k++) {
        struct fz_side *s = &F.side[k];
        F.cur_side = k;
        set_side_version(s, p->version);
        if (F.control && s->dirty)
            s->t->reset();
        s->dirty = F.control && !pure;
        const char *why = NULL;
        if (!fixture(s, p, &why)) {
            s->dirty = F.control;
            if (k == SIDE_O) {
                /* the generator asked for a fixture the reference cannot make: not a finding */
                F.dis.call = -2;
                return;
            }
            F.dis.call = -1;
            F.dis.aspect = FA_FIXTURE;
            snprintf(F.dis.detail, sizeof F.dis.detail, "fixture: %s on the target (the reference set it up)", why);
            F.found = true;
            return;
        }
    }
    for (int i = 0; i < F.upto && i < p->ncalls; i++) {
        const struct fz_call *c = &p->calls[i];
        struct fz_out to, oo;
        F.cur_call = i;
        if (!both) {
            F.cur_side = SIDE_O;
            run_call(O, c, &oo);
            F.last_out[SIDE_O] = oo;
            F.last_ran = true;
            continue;
        }
        F.cur_side = SIDE_T;
        run_call(T, c, &to);
        bool snap = !c->buf_null && c->fn != FN_EVENTREGISTER && c->fn != FN_REGISTERTRACEGUIDS;
        bool patched = c->patch != PATCH_NONE || (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
        if (snap)
            memcpy(F.t_after, in_buf(c->len), c->len);
        if (c->fn == FN_NTC && !c->out_null)
            memcpy(F.t_out_after, out_buf(c->out_len), c->out_len);
        if (snap && patched) {
            prepare(F.t_before, c, handle_of(T, c));
            prepare(F.o_before, c, handle_of(O, c));
        }
        F.cur_side = SIDE_O;
        run_call(O, c, &oo);
        F.calls++;
        F.last_out[SIDE_T] = to;
        F.last_out[SIDE_O] = oo;
        F.last_ran = true;
        if (differ(c, &to, &oo, &F.dis, i) || differ_bytes(c, &oo, &F.dis, i)) {
            F.found = true;
            T->dirty = O->dirty = F.control;
            return;
        }
    }
    F.cur_call = -1;
    /* a target without the control API cannot be reset: undo what the sequence registered */
    if (!F.control) {
        for (int k = both ? 0 : 1; k < 2; k++) {
            struct fz_side *s = &F.side[k];
            int vi = vindex(s->cur_version);
            etw_pfn_EventUnregister eu = (etw_pfn_EventUnregister)s->fn[vi][FN_EVENTUNREGISTER];
            etw_pfn_UnregisterTraceGuids ug = (etw_pfn_UnregisterTraceGuids)s->fn[vi][FN_UNREGISTERTRACEGUIDS];
            for (int j = 0; j < 4; j++) {
                if (eu && s->seqreg[j])
                    eu(s->seqreg[j]);
                if (ug && s->seqclassic_alive[j])
                    ug(s->seqclassic[j]);
            }
        }
    }
}

static void gen_prog(etw_u64 seed, unsigned long long k, struct fz_prog *p);

/* many programs under one guard: the programs of the seed from F.next until a disagreement, a
 * fault, the batch size or the call budget (the guard costs a system call: amortise it) */
static struct fz_prog batch_prog;
static void batch_body(struct etw_ctx *unused)
{
    for (; F.batch_left > 0; F.batch_left--, F.next++) {
        if (F.max_calls && F.calls >= F.max_calls)
            return;
        gen_prog(F.seed, F.next, &batch_prog);
        F.programs++;
        if (!batch_prog.ncalls)
            continue;
        F.prog = &batch_prog;
        F.upto = batch_prog.ncalls;
        F.found = false;
        F.last_ran = false;
        F.dis.call = -3;
        run_body(unused);
        if (F.found)
            return; /* F.next is the program that disagreed */
    }
}

/* run p (its first upto calls) on both sides; true when they disagree (F.dis says how) */
static void fault_dis(int k, const char *exc, long off);

static bool run_prog(const struct fz_prog *p, int upto)
{
    char exc[48] = "";
    long off = 0;
    F.prog = p;
    F.upto = upto;
    F.found = false;
    F.last_ran = false;
    memset(&F.dis, 0, sizeof F.dis);
    F.dis.call = -3;
    int k = etw_guarded_call(&F.ctx, run_body, exc, sizeof exc, &off);
    if (k)
        fault_dis(k, exc, off);
    return F.found;
}

/* a fault ended the call F.cur_call of side F.cur_side: record it as the disagreement */
static void fault_dis(int k, const char *exc, long off)
{
    {
        const char *who = F.cur_side == SIDE_T ? "target" : "reference";
        F.side[SIDE_T].dirty = F.side[SIDE_O].dirty = true;
        F.found = true;
        F.dis.call = F.cur_call;
        F.dis.aspect = k == 1 ? FA_BOUNDS : FA_FAULT;
        if (k == 1)
            snprintf(F.dis.detail, sizeof F.dis.detail, "the %s accessed the guard page %ld byte(s) past the end of a buffer%s", who, off + 1,
                     F.cur_call < 0 ? " (during the fixture)" : "");
        else
            snprintf(F.dis.detail, sizeof F.dis.detail, "the %s crashed with %s%s", who, exc, F.cur_call < 0 ? " (during the fixture)" : "");
        if (F.cur_side == SIDE_O)
            snprintf(F.dis.detail + strlen(F.dis.detail), sizeof F.dis.detail - strlen(F.dis.detail),
                     " [a bug of the reference: please report it]");
    }
}

/* ---------------------------------------------------------------- generating programs */
static etw_u32 pick_len(struct rng *r, etw_u32 natural)
{
    if (!natural)
        natural = 8;
    switch (rbelow(r, 16)) {
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
    case 11: return rbelow(r, 64);
    case 12: return rbelow(r, 0x200);
    case 13: return natural + 4 * rbelow(r, 8);
    case 14: return rpct(r, 90) ? natural * 3 : rpct(r, 50) ? 0xFFFF : 0x10000; /* big buffers cost: rarely */
    default: return natural > 4 ? natural - 4 : 3;
    }
}

static void put32(struct fz_call *c, int off, etw_u32 v)
{
    if (off + 4 <= FZ_IN_MAX) {
        memcpy(c->in + off, &v, 4);
        if ((etw_u32)(off + 4) > c->in_len)
            c->in_len = (etw_u32)(off + 4);
    }
}
static void put_bytes(struct fz_call *c, int off, const void *p, size_t n)
{
    if (off + n <= FZ_IN_MAX) {
        memcpy(c->in + off, p, n);
        if (off + n > c->in_len)
            c->in_len = (etw_u32)(off + n);
    }
}
static void rand_bytes(struct rng *r, etw_u8 *p, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        etw_u64 v = rnext(r);
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
}

static etw_u32 rand_mask(struct rng *r)
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
    return rpct(r, 80) ? RPICK(r, bits) : (etw_u32)rnext(r);
}

static void rand_masks(struct rng *r, etw_u32 m[8])
{
    memset(m, 0, 32);
    if (rpct(r, 40))
        return;
    for (int i = 0, n = 1 + (int)rbelow(r, 3); i < n; i++)
        m[rbelow(r, 8)] |= rand_mask(r);
}

static int pick_logger_handle(struct rng *r, struct fz_call *c, const struct fz_prog *p)
{
    unsigned k = rbelow(r, 100);
    if (k < 50 && p->fx.logger)
        return c->h = H_LOGGER;
    if (k < 60 && p->fx.logger) {
        c->hval = (rnext(r) & 0xFFFFFFFFFFFF0000ull) | 0x10000ull;
        return c->h = H_LOGGER_HIGH;
    }
    if (k < 68 && p->fx.logger2)
        return c->h = H_LOGGER2;
    if (k < 80 && F.side[SIDE_T].t->missing_logger)
        return c->h = H_MISSING;
    if (k < 92) {
        static const etw_u64 vals[] = {0xFFFF, 1, 2, 0x3F, 0x40, 0xFFFE, 0x1FFFF};
        c->hval = rpct(r, 80) ? RPICK(r, vals) : rnext(r);
        return c->h = H_VALUE;
    }
    return c->h = H_ZERO;
}

static void zero_handle_or_value(struct rng *r, struct fz_call *c)
{
    static const etw_u64 vals[] = {1, 0xFFFF, 0x10000, 0x100000000ull};
    if (rpct(r, 70))
        c->h = H_ZERO;
    else {
        c->h = H_VALUE;
        c->hval = rpct(r, 70) ? RPICK(r, vals) : rnext(r);
    }
}

static void gen_tqi(struct rng *r, struct fz_call *c, const struct fz_prog *p)
{
    static const etw_u32 classes[] = {4, 4, 5, 5, 7, 0x0B, 0x0B, 0x0E, 0x0E, 3};
    c->cls = rpct(r, 85) ? RPICK(r, classes) : rpct(r, 75) ? rbelow(r, 32) : (etw_u32)rnext(r);
    etw_u32 nat = c->cls == 4 ? 0x20 : c->cls == 5 || c->cls == 0x0B ? 8 : c->cls == 7 ? (rpct(r, 50) ? 0x88 : 0x90) : c->cls == 0x0E ? 16 * rbelow(r, 4) : 8;
    c->len = pick_len(r, nat);
    if (c->cls == 4 || c->cls == 0x0E)
        pick_logger_handle(r, c, p);
    else
        zero_handle_or_value(r, c);
    c->buf_null = rpct(r, 8);
    c->retlen_null = rpct(r, 12);
    if (c->cls == 5) {
        static const etw_u32 srcs[] = {0, 0, 1, 2, 19, 23, 24, 0xFFFFFFFF};
        put32(c, 0, rpct(r, 90) ? RPICK(r, srcs) : (etw_u32)rnext(r));
        put32(c, 4, (etw_u32)rnext(r));
    } else if (rpct(r, 25)) {
        c->in_len = rbelow(r, 64);
        rand_bytes(r, c->in, c->in_len);
    }
    if (c->cls == 7 && rpct(r, 5))
        c->fail_alloc = 1;
}

static void gen_guid_entries(struct rng *r, struct fz_call *c, etw_u32 n, size_t size)
{
    for (etw_u32 i = 0; i < n && (i + 1) * size <= FZ_IN_MAX; i++) {
        etw_u8 e[24] = {0};
        if (rpct(r, 75))
            memcpy(e, &dal_guids[rbelow(r, 3)], 16);
        else if (rpct(r, 50))
            rand_bytes(r, e, 16);
        e[16] = (etw_u8)rnext(r);
        put_bytes(c, (int)(i * size), e, size);
    }
}

static void gen_tsi(struct rng *r, struct fz_call *c, const struct fz_prog *p)
{
    static const etw_u32 classes[] = {3, 4, 4, 5, 6, 8, 9, 0x0A, 0x0A};
    c->cls = rpct(r, 88) ? RPICK(r, classes) : rpct(r, 75) ? rbelow(r, 32) : (etw_u32)rnext(r);
    static const etw_u32 ev_counts[] = {0, 1, 1, 2, 2, 4, 5, 5, 6, 256, 257};
    static const etw_u32 delta[] = {0, 0, 0, 1, (etw_u32)-1};
    switch (c->cls) {
    case 3:
    case 8: {
        etw_u32 n = RPICK(r, ev_counts);
        c->len = 24 * n + (n ? RPICK(r, delta) : 0);
        gen_guid_entries(r, c, n < 13 ? n : 13, 24);
        break;
    }
    case 4: {
        static const etw_u32 lens[] = {0, 3, 4, 8, 16, 32, 32, 33, 36, 40};
        c->len = RPICK(r, lens);
        for (int i = 0; i < 9; i++)
            put32(c, 4 * i, rand_mask(r));
        break;
    }
    case 5: {
        static const etw_u32 srcs[] = {0, 0, 1, 2, 19, 24, 0xFFFF};
        c->len = pick_len(r, 8);
        put32(c, 0, RPICK(r, srcs));
        static const etw_u32 ivs[] = {0, 1, 1221, 10000, 20000, 1000000, 1000001, 0xFFFFFFFF};
        put32(c, 4, RPICK(r, ivs));
        break;
    }
    case 6:
    case 9: {
        static const etw_u32 lens[] = {0, 2, 3, 4, 8, 12, 16, 20, 24};
        c->len = RPICK(r, lens);
        static const etw_u32 srcs[] = {0, 1, 2, 19, 23, 24, 99};
        for (int i = 0; i < 6; i++)
            put32(c, 4 * i, RPICK(r, srcs));
        break;
    }
    case 0x0A: {
        etw_u32 n = rbelow(r, 4);
        c->len = 16 * n + (rpct(r, 20) ? 8 : 0);
        gen_guid_entries(r, c, n, 16);
        break;
    }
    default: c->len = pick_len(r, 8); break;
    }
    if (c->cls == 5)
        zero_handle_or_value(r, c);
    else if (rpct(r, 85))
        pick_logger_handle(r, c, p);
    else
        c->h = H_ZERO;
    c->buf_null = rpct(r, 6);
    if (c->cls == 0x0A && rpct(r, 5))
        c->fail_alloc = 1;
}

static etw_u32 kclass_size(etw_u32 k)
{
    switch (k) {
    case 0:
    case 3: return 8;
    case 1: return 0x30;
    case 0x0D: return 0x90;
    case 6:
    case 0x0C:
    case 0x0E:
    case 0x0F: return 0x14;
    default: return 8;
    }
}

static void gen_ksi(struct rng *r, struct fz_call *c, const struct fz_prog *p, bool set)
{
    c->cls = rpct(r, 94) ? ETW_SystemPerformanceTraceInformation : rbelow(r, 0x40);
    etw_u32 k = rpct(r, 40) ? 1 : rpct(r, 85) ? rbelow(r, 0x12) : (etw_u32)rnext(r);
    etw_u32 nat = kclass_size(k);
    static const etw_u32 glens[] = {0x30, 0x30, 0x30, 0x2F, 0x31, 0x2C, 0x28, 0x38};
    c->len = k == 1 && rpct(r, 70) ? RPICK(r, glens) : k == 0x0D && rpct(r, 50) ? (rpct(r, 50) ? 0x27 : 0x28) : pick_len(r, nat);
    if (rpct(r, 4))
        c->len = 3;
    put32(c, 0, k);
    put32(c, 4, rpct(r, 70) ? 0 : (etw_u32)rnext(r));
    if (k == 1 || k == 6 || k == 0x0C || k == 0x0E || k == 0x0F) {
        pick_logger_handle(r, c, p);
        c->patch = PATCH_HANDLE64;
        c->patch_off = 8;
        put32(c, 8, 0);
        put32(c, 12, 0);
        for (int i = 0; i < 8; i++)
            put32(c, 0x10 + 4 * i, k == 1 ? (rpct(r, 50) ? 0 : rand_mask(r)) : rbelow(r, 25));
    } else if (k == 3) {
        static const etw_u32 ivs[] = {0, 1, 1221, 10000, 20000, 1000000, 1000001, 0xFFFFFFFF};
        put32(c, 4, RPICK(r, ivs));
    }
    c->buf_null = rpct(r, 4);
    c->retlen_null = !set && rpct(r, 15);
    if (set && k == 1 && rpct(r, 6))
        c->fail_alloc = 1;
}

/* a traits blob: UINT16 size, NUL-terminated name, traits {UINT16 size, UINT8 type, data} */
static etw_u32 gen_traits(struct rng *r, etw_u8 *b, etw_u32 cap)
{
    etw_u32 n = 2;
    etw_u32 namelen = rbelow(r, 10);
    for (etw_u32 i = 0; i < namelen; i++)
        b[n++] = (etw_u8)('a' + rbelow(r, 26));
    b[n++] = 0;
    etw_u32 ntraits = rbelow(r, 4);
    for (etw_u32 i = 0; i < ntraits && n + 40 < cap; i++) {
        etw_u32 start = n, dl;
        etw_u8 type;
        if (rpct(r, 45)) {
            type = ETW_EtwProviderTraitTypeGroup;
            dl = 16;
        } else {
            type = rpct(r, 70) ? (etw_u8)(128 + rbelow(r, 128)) : (etw_u8)rbelow(r, 4);
            dl = rbelow(r, 9);
        }
        n += 3;
        if (type == ETW_EtwProviderTraitTypeGroup && dl == 16) {
            const etw_guid *g = rpct(r, 60) ? &group_g : &dal_guids[rbelow(r, 3)];
            memcpy(b + n, g, 16);
            n += 16;
        } else {
            rand_bytes(r, b + n, dl);
            n += dl;
        }
        etw_u16 ts = (etw_u16)(n - start);
        memcpy(b + start, &ts, 2);
        b[start + 2] = type;
    }
    if (rpct(r, 4) && cap >= 300) { /* a long custom trait, as traits.large */
        etw_u32 start = n, dl = 250 + rbelow(r, 20);
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
    if (rpct(r, 45)) { /* break it */
        switch (rbelow(r, 8)) {
        case 0: total = (etw_u16)(total + (rpct(r, 50) ? 1 : -1)); memcpy(b, &total, 2); break;
        case 1: memset(b + 2, 'x', namelen + 1); break; /* the name loses its NUL */
        case 2:
            if (ntraits) { /* a trait's size: off by one, 0, 1, 2, or far too big */
                etw_u32 t = 3 + namelen;
                static const etw_u16 sz[] = {0, 1, 2, 3};
                etw_u16 ts;
                memcpy(&ts, b + t, 2);
                ts = rpct(r, 50) ? (etw_u16)(ts + (rpct(r, 50) ? 1 : -1)) : rpct(r, 70) ? RPICK(r, sz) : 0xFFFF;
                memcpy(b + t, &ts, 2);
            }
            break;
        case 3: b[n++] = (etw_u8)rnext(r); if (rpct(r, 50)) b[n++] = 0; total = (etw_u16)n; memcpy(b, &total, 2); break;
        case 4: b[n++] = 0x01; break; /* a trailing byte TraitsSize does not count */
        case 5: if (n > 3) n -= 1 + rbelow(r, n - 3); break; /* truncated */
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

static void pick_reg_handle(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg)
{
    unsigned k = rbelow(r, 100);
    if (k < 60 && p->fx.provider)
        c->h = H_REG;
    else if (k < 75 && nseqreg) {
        c->h = FH_SEQREG;
        c->hval = rbelow(r, (etw_u32)nseqreg);
    } else if (k < 83 && p->fx.provider)
        c->h = H_REG_STALE;
    else if (k < 90)
        c->h = H_ZERO;
    else {
        c->h = H_VALUE;
        c->hval = rpct(r, 50) ? 0x1234 : rnext(r);
    }
}

static void gen_esi(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg)
{
    static const etw_u32 classes[] = {0, 0, 1, 2, 2, 2, 2, 2, 3, 3, 4};
    c->cls = rpct(r, 92) ? RPICK(r, classes) : (etw_u32)rnext(r);
    pick_reg_handle(r, c, p, nseqreg);
    switch (c->cls) {
    case 0: {
        static const etw_u32 lens[] = {0, 0, 0, 1, 4, 8};
        c->len = RPICK(r, lens);
        c->buf_null = rpct(r, 50);
        break;
    }
    case 2: {
        c->in_len = gen_traits(r, c->in, FZ_IN_MAX - 2);
        etw_u32 k = rbelow(r, 100);
        c->len = k < 75 ? c->in_len : k < 86 ? c->in_len + 1 : k < 95 ? (c->in_len ? c->in_len - 1 : 0) : k < 99 ? 2 : rpct(r, 50) ? 0x10000 : 0xFFFF;
        c->buf_null = rpct(r, 4);
        break;
    }
    case 3: {
        static const etw_u8 vals[] = {0, 1, 1, 2, 255};
        static const etw_u32 lens[] = {1, 1, 1, 0, 2};
        c->len = RPICK(r, lens);
        c->in[0] = RPICK(r, vals);
        c->in_len = 1;
        c->buf_null = rpct(r, 5);
        break;
    }
    default: c->len = pick_len(r, 4); break;
    }
}

static void gen_ntc(struct rng *r, struct fz_call *c, const struct fz_prog *p, int nseqreg, etw_u32 code)
{
    static const etw_u32 codes[] = {0x22, 0x22, 0x22, 0x1C, 0x1C, 0x1C, 0x1E, 0x1E, 0x1F, 0x1A, 0x0F};
    c->cls = code ? code : rpct(r, 88) ? RPICK(r, codes) : rpct(r, 50) ? rbelow(r, 0x30) : (etw_u32)rnext(r);
    c->out_null = true;
    switch (c->cls) {
    case 0x22: {
        static const etw_u32 lens[] = {8, 8, 8, 8, 4, 16, 0};
        static const etw_u32 outs[] = {0, 15, 16, 32, 32, 48, 64};
        pick_logger_handle(r, c, p);
        c->patch = PATCH_HANDLE64;
        c->len = RPICK(r, lens);
        put32(c, 0, 0);
        put32(c, 4, 0);
        c->out_null = rpct(r, 10);
        c->out_len = RPICK(r, outs);
        break;
    }
    case 0x1C: {
        etw_u32 n = rbelow(r, 4), cnt = rpct(r, 80) ? n : rbelow(r, 4);
        static const int deltas[] = {0, 0, 0, 0, 16, -4, -8};
        pick_logger_handle(r, c, p);
        c->patch = PATCH_LOGGER32;
        put32(c, 0, 0);
        put32(c, 4, cnt);
        for (etw_u32 i = 0; i < n; i++)
            put_bytes(c, 8 + 16 * (int)i, &dal_guids[rbelow(r, 3)], 16);
        int d = RPICK(r, deltas);
        c->len = (etw_u32)((int)(8 + 16 * n) + d);
        c->out_null = rpct(r, 80);
        c->out_len = rpct(r, 80) ? 0 : 16;
        break;
    }
    case 0x1E: {
        static const etw_u32 lens[] = {0x18, 0x18, 0x18, 0x18, 0x10, 0x20};
        static const etw_u32 outs[] = {0x78, 0x78, 0x78, 0x77, 0x100, 0x10000, 0x10001, 0};
        pick_reg_handle(r, c, p, nseqreg);
        c->patch = PATCH_HANDLE64;
        c->len = RPICK(r, lens);
        c->aux_len = gen_traits(r, c->aux, FZ_IN_MAX);
        c->traits_ptr = rpct(r, 90);
        put32(c, 8, 0);
        put32(c, 12, 0);
        etw_u16 ts = (etw_u16)(rpct(r, 85) ? c->aux_len : rbelow(r, c->aux_len + 1));
        put32(c, 16, ts);
        put32(c, 20, 0);
        c->out_null = rpct(r, 10);
        c->out_len = RPICK(r, outs);
        break;
    }
    case 0x1F: {
        static const etw_u32 lens[] = {0x10, 0x10, 0x10, 0x0F, 0x11};
        static const etw_u8 vals[] = {0, 1, 1, 2};
        pick_reg_handle(r, c, p, nseqreg);
        c->patch = PATCH_HANDLE64;
        c->len = RPICK(r, lens);
        put32(c, 8, RPICK(r, vals));
        put32(c, 12, 0);
        c->out_null = rpct(r, 80);
        c->out_len = rpct(r, 80) ? 0 : 1;
        break;
    }
    default: {
        static const etw_u32 lens[] = {0, 4, 8, 8, 16};
        c->len = RPICK(r, lens);
        c->in_len = c->len < 16 ? c->len : 16;
        rand_bytes(r, c->in, c->in_len);
        c->out_len = rbelow(r, 32);
        c->out_null = rpct(r, 50);
        break;
    }
    }
    c->buf_null = rpct(r, 5);
    c->retlen_null = rpct(r, 5);
    if (rpct(r, 4))
        c->fail_alloc = 1;
}

static bool have_fn(unsigned v, enum etw_fn fn)
{
    int vi = vindex(v);
    if (fn == FN_CUSTOM)
        return F.side[SIDE_T].t->enable_group && F.side[SIDE_O].t->enable_group;
    return F.side[SIDE_T].fn[vi][fn] && F.side[SIDE_O].fn[vi][fn];
}

enum theme { TH_TRACE, TH_CLASSIC, TH_PROVIDER, TH_COUNT };

static void gen_prog(etw_u64 seed, unsigned long long k, struct fz_prog *p)
{
    struct rng r = {seed ^ (k * 0xD1B54A32D192ED03ull) ^ 0x5DEECE66Dull};
    rnext(&r);
    memset(p, 0, sizeof *p);
    p->version = F.emulate_all ? versions[rbelow(&r, FZ_NV)] : F.fixed_version;
    enum theme th = (enum theme)rbelow(&r, TH_COUNT);
    struct etw_fixture *fx = &p->fx;
    bool ctl = F.control;
    if (th == TH_TRACE && ctl) {
        static const enum etw_logger_kind kinds[] = {LG_NONE, LG_KERNEL, LG_KERNEL, LG_SYSTEM, LG_SYSTEM, LG_PLAIN, LG_NOACCESS, LG_PRIVATE};
        fx->logger = RPICK(&r, kinds);
        if (fx->logger)
            rand_masks(&r, fx->masks);
        if (fx->logger && fx->logger != LG_KERNEL && rpct(&r, 12))
            fx->logger2 = LG_SYSTEM;
        if (fx->logger == LG_SYSTEM && p->version >= ETW_V10_0 && rpct(&r, 30)) {
            fx->ndisallow = rpct(&r, 50) ? 1 : 2;
            fx->disallow = fx->ndisallow == 1 ? &dal_guids[2] : &dal_guids[0];
        }
        unsigned pp = rbelow(&r, 100);
        fx->profile_priv = pp < 70 ? PRIV_ANY : pp < 85 ? PRIV_HELD : PRIV_NOT_HELD;
    } else if (th == TH_CLASSIC && ctl) {
        fx->classes = (int)rbelow(&r, 5);
        if (fx->classes && !have_fn(p->version, FN_REGISTERTRACEGUIDS))
            fx->classes = 0;
        if (fx->classes) {
            fx->foreign_pid = rpct(&r, 8);
            if (rpct(&r, 25)) {
                static const etw_u32 ctrs[] = {0, 1, 0x7FFFFFFF, 0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFF};
                fx->set_counter = true;
                fx->counter = rpct(&r, 85) ? RPICK(&r, ctrs) : (etw_u32)rnext(&r);
            }
        }
    } else if (th == TH_PROVIDER && ctl) {
        fx->provider = have_fn(p->version, FN_EVENTREGISTER) && rpct(&r, 85);
        p->restrict_group = rpct(&r, 15);
        if (rpct(&r, 30)) { /* a session to enable the provider group on */
            fx->logger = rpct(&r, 75) ? LG_SYSTEM : LG_PRIVATE;
            if (fx->logger == LG_SYSTEM && p->version >= ETW_V10_0 && rpct(&r, 60)) {
                /* disallow the fixture's provider, or the first two the sequence registers */
                fx->ndisallow = rpct(&r, 50) ? 1 : 2;
                fx->disallow = fx->ndisallow == 1 ? &provider_guid : &seq_guids[0];
            }
        }
    }
    /* the calls */
    static const enum etw_fn trace_fns[] = {FN_TQI, FN_TQI, FN_TQI, FN_TSI, FN_TSI, FN_NTQSI, FN_NTQSI, FN_NTSSI, FN_NTSSI, FN_NTC, FN_NTC, FN_NTQIP};
    static const enum etw_fn classic_fns[] = {FN_ETWCTI, FN_ETWCTI, FN_ETWCTI, FN_ETWCTI, FN_CTI, FN_REGISTERTRACEGUIDS, FN_UNREGISTERTRACEGUIDS};
    static const enum etw_fn provider_fns[] = {FN_ESI, FN_ESI, FN_ESI, FN_ESI, FN_ETWESI, FN_EVENTREGISTER, FN_EVENTUNREGISTER, FN_NTC, FN_CUSTOM};
    int n = 1 + (int)rbelow(&r, rpct(&r, 30) ? FZ_MAXCALLS : 8);
    int nseqreg = 0, nseqclassic = 0;
    bool fix_classic = fx->classes > 0;
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
        case FN_NTC: gen_ntc(&r, c, p, nseqreg, th == TH_PROVIDER ? (rpct(&r, 70) ? 0x1E : 0x1F) : 0); break;
        case FN_NTQIP: {
            static const etw_u32 srcs[] = {0, 1, 2, 19, 23, 24, 25, 0xFFFFFFFF};
            c->cls = RPICK(&r, srcs);
            c->len = 4;
            c->buf_null = rpct(&r, 5);
            break;
        }
        case FN_ETWCTI:
        case FN_CTI: {
            unsigned k = rbelow(&r, 100);
            c->len = sizeof(ETW_EVENT_INSTANCE_INFO);
            if (k < 75 && fix_classic && fx->classes) {
                c->h = H_CLASS;
                c->hval = rbelow(&r, (etw_u32)fx->classes);
            } else if (k < 90 && nseqclassic) {
                c->h = FH_SEQCLASS;
                c->hval = rbelow(&r, (etw_u32)nseqclassic) * 4 + rbelow(&r, 4);
            } else
                c->h = H_ZERO;
            c->buf_null = rpct(&r, 5);
            break;
        }
        case FN_REGISTERTRACEGUIDS: {
            if (nseqclassic >= 4)
                continue;
            c->hval = (etw_u64)nseqclassic++;
            c->count = rpct(&r, 99) || rpct(&r, 80) ? rbelow(&r, 5) : rpct(&r, 50) ? 0x10001 : rpct(&r, 50) ? 0x20000 : 0x10000;
            static const unsigned bits[] = {N_REQ, N_CTL, N_REGS, N_OUT, N_GUID};
            if (rpct(&r, 25))
                c->nulls = RPICK(&r, bits);
            break;
        }
        case FN_UNREGISTERTRACEGUIDS: {
            unsigned k = rbelow(&r, 100);
            if (k < 55 && nseqclassic) {
                c->h = FH_SEQCLASSIC;
                c->hval = rbelow(&r, (etw_u32)nseqclassic);
            } else if (k < 75 && fix_classic) {
                /* later calls may not use the fixture's classes any more: they get NULL */
                c->h = FH_FIXCLASSIC;
            } else {
                c->h = H_VALUE;
                c->hval = rpct(&r, 50) ? 0x7777 : rnext(&r);
            }
            break;
        }
        case FN_EVENTREGISTER:
            if (nseqreg >= 4)
                continue;
            c->hval = (etw_u64)nseqreg++;
            if (rpct(&r, 10))
                c->nulls = rpct(&r, 50) ? N_PROV : N_OUT;
            break;
        case FN_EVENTUNREGISTER: pick_reg_handle(&r, c, p, nseqreg); break;
        case FN_CUSTOM: /* EtwRef_EnableGroup(session, group) */
            pick_logger_handle(&r, c, p);
            c->cls = rpct(&r, 85) ? 0 : 1;
            break;
        case FN_ESI:
        case FN_ETWESI: gen_esi(&r, c, p, nseqreg); break;
        default: continue;
        }
        if (c->fail_alloc && !ctl)
            c->fail_alloc = 0;
        if (c->len > FZ_BUF_MAX)
            c->len = FZ_BUF_MAX;
        if (c->fn == FN_NTC && c->out_len > FZ_OUT_MAX)
            c->out_len = FZ_OUT_MAX;
        p->ncalls++;
    }
}

/* ---------------------------------------------------------------- reduction */
/* does q still make the sides disagree? A disagreement at an earlier call than the last is a
 * shorter reproducer: q is cut there */
static bool still(struct fz_prog *q)
{
    if (!run_prog(q, q->ncalls) || F.dis.call < 0)
        return false;
    q->ncalls = F.dis.call + 1;
    return true;
}

/* drop what is not needed; on return *p is minimal and still disagrees at its last call */
static void reduce(struct fz_prog *p, int at)
{
    static struct fz_prog q;
    p->ncalls = at + 1;
    /* 1. earlier calls */
    for (int i = 0; i < p->ncalls - 1;) {
        q = *p;
        memmove(&q.calls[i], &q.calls[i + 1], sizeof q.calls[0] * (size_t)(q.ncalls - i - 1));
        q.ncalls--;
        /* a sequence handle whose maker is gone would point elsewhere: keep such makers */
        if (still(&q))
            *p = q;
        else
            i++;
    }
    /* 1b. instance ids: earlier ids taken from class 0 are the counter preset of the fixture */
    {
        const struct fz_call *lc = &p->calls[p->ncalls - 1];
        int k = 0;
        bool only = p->ncalls > 1 && (lc->fn == FN_ETWCTI || lc->fn == FN_CTI) && lc->h == H_CLASS && lc->hval == 0;
        for (int i = 0; only && i < p->ncalls - 1; i++) {
            const struct fz_call *c = &p->calls[i];
            only = (c->fn == FN_ETWCTI || c->fn == FN_CTI) && !c->buf_null;
            k += c->h == H_CLASS && c->hval == 0;
        }
        if (only) {
            q = *p;
            q.calls[0] = p->calls[p->ncalls - 1];
            q.ncalls = 1;
            q.fx.counter = (p->fx.set_counter ? p->fx.counter : 0) + (etw_u32)k;
            q.fx.set_counter = true;
            if (still(&q))
                *p = q;
        }
    }
    /* 2. the fixture, piece by piece */
#define TRY(change)                                                                                                         \
    do {                                                                                                                    \
        q = *p;                                                                                                             \
        change;                                                                                                             \
        if (memcmp(&q, p, sizeof q) && still(&q))                                                                           \
            *p = q;                                                                                                         \
    } while (0)
    TRY(q.restrict_group = false);
    TRY(q.fx.logger2 = LG_NONE);
    TRY((q.fx.ndisallow = 0, q.fx.disallow = NULL));
    TRY(memset(q.fx.masks, 0, sizeof q.fx.masks));
    for (int m = 0; m < 8; m++)
        TRY(q.fx.masks[m] = 0);
    TRY(q.fx.profile_priv = PRIV_ANY);
    TRY(q.fx.foreign_pid = false);
    TRY((q.fx.set_counter = false, q.fx.counter = 0));
    while (p->fx.classes > 1) {
        int before = p->fx.classes;
        TRY(q.fx.classes--);
        if (p->fx.classes == before)
            break;
    }
    TRY((q.fx.classes = 0, q.fx.foreign_pid = false, q.fx.set_counter = false));
    TRY(q.fx.provider = false);
    TRY((q.fx.logger = LG_NONE, memset(q.fx.masks, 0, sizeof q.fx.masks)));
    if (p->fx.logger != LG_NONE && p->fx.logger != LG_SYSTEM)
        TRY(q.fx.logger = LG_SYSTEM);
    /* 3. the last call */
    int last = p->ncalls - 1;
    TRY(q.calls[last].fail_alloc = 0);
    TRY(q.calls[last].retlen_null = false);
    TRY(q.calls[last].buf_null = false);
    if (p->calls[last].h == H_LOGGER_HIGH || p->calls[last].h == H_VALUE)
        TRY(q.calls[last].hval = p->calls[last].h == H_VALUE ? 1 : 0x10000);
    /* shorten the input, then zero its bytes */
    while (p->calls[last].in_len) {
        etw_u32 before = p->calls[last].in_len;
        TRY(q.calls[last].in_len = 0);
        TRY(q.calls[last].in_len /= 2);
        if (p->calls[last].in_len)
            TRY(q.calls[last].in_len--);
        if (p->calls[last].in_len == before)
            break;
    }
    for (etw_u32 i = 0; i < p->calls[last].in_len; i++)
        if (p->calls[last].in[i])
            TRY(q.calls[last].in[i] = 0);
#undef TRY
}

/* ---------------------------------------------------------------- reporting */
static const char *fn_prefix(enum etw_fn fn)
{
    switch (fn) {
    case FN_TQI: return "tqi";
    case FN_TSI: return "tsi";
    case FN_NTQSI:
    case FN_NTSSI: return "ksi";
    case FN_NTC: return "ntc";
    case FN_ETWCTI:
    case FN_CTI: return "cti";
    case FN_ESI:
    case FN_ETWESI: return "esi";
    case FN_NTQIP: return "qip";
    case FN_REGISTERTRACEGUIDS:
    case FN_UNREGISTERTRACEGUIDS: return "rtg";
    case FN_EVENTREGISTER:
    case FN_EVENTUNREGISTER: return "er";
    default: return "x";
    }
}

static const char *fn_enum(enum etw_fn fn)
{
    static const char *const n[FN_COUNT] = {[FN_TQI] = "FN_TQI", [FN_TSI] = "FN_TSI", [FN_NTQSI] = "FN_NTQSI", [FN_NTSSI] = "FN_NTSSI",
                                            [FN_NTC] = "FN_NTC", [FN_ETWCTI] = "FN_ETWCTI", [FN_CTI] = "FN_CTI", [FN_ESI] = "FN_ESI",
                                            [FN_ETWESI] = "FN_ETWESI", [FN_NTQIP] = "FN_NTQIP"};
    return fn < FN_COUNT && n[fn] ? n[fn] : NULL;
}

static etw_u32 kclass_of(const struct fz_call *c)
{
    etw_u32 k = 0xFFFFFFFFu;
    if (c->in_len >= 4 && c->len >= 4)
        memcpy(&k, c->in, 4);
    return k;
}

/* the rule a disagreement touches: first from the cases (same function and class, a case that
 * expects the reference's outcome), then a table by function and class */
static enum etw_rule_id rule_for(const struct fz_call *c, enum aspect a, etw_u32 ref_rc, unsigned v)
{
    if (a == FA_BOUNDS)
        return RID_GEN_BUFFER_BOUNDS;
    if (a == FA_LASTERR)
        return ref_rc ? RID_CTI_LAST_ERROR : RID_CTI_LAST_ERROR_SUCCESS;
    if (c->fn == FN_CUSTOM)
        return ref_rc == ETW_ERROR_NOT_SUPPORTED ? RID_DAL_PRIVATE_SESSION : RID_DAL_GROUP_ENABLE;
    if ((c->fn == FN_ESI || c->fn == FN_ETWESI) && c->cls == ETW_EventProviderSetTraits && ref_rc == ETW_ERROR_GEN_FAILURE)
        return a == FA_RC ? RID_TRAITS_ONCE : RID_TRAITS_ONCE_CODE;
    if (c->fn == FN_ETWCTI || c->fn == FN_CTI) {
        const struct etw_fixture *fx = &F.prog->fx;
        if (a == FA_OUTPUT)
            return fx->set_counter && fx->counter >= 0xFFFFFFF0u ? RID_CTI_WRAP : RID_CTI_COUNTER;
        if (a == FA_HANDLE)
            return ref_rc ? RID_CTI_REGHANDLE_FIRST : RID_CTI_OUTPUT;
    }
    enum etw_rule_id best = RID_NONE;
    int best_score = -1;
    for (size_t i = 0, n = etw_case_total(); i < n; i++) {
        const struct etw_case *k = etw_case_at(i);
        bool same_fn = k->fn == c->fn || (k->fn == FN_ESI && c->fn == FN_ETWESI) || (k->fn == FN_ETWCTI && c->fn == FN_CTI);
        if (!same_fn)
            continue;
        if (c->fn == FN_NTQSI || c->fn == FN_NTSSI) {
            etw_u32 kk = 0xFFFFFFFFu;
            if (k->args.in_len >= 4)
                memcpy(&kk, k->args.in, 4);
            if (kk != kclass_of(c))
                continue;
        } else if (c->fn != FN_ETWCTI && c->fn != FN_CTI && k->args.cls != c->cls)
            continue;
        for (int e = 0; e < ETW_MAX_EXPECT && k->expect[e].vmin; e++) {
            const struct etw_expect *x = &k->expect[e];
            if (x->kind != XK_CALL || v < x->vmin || v > x->vmax)
                continue;
            int score = 1 + (x->rc == ref_rc ? 4 : 0) + ((int)k->args.handle == c->h ? 1 : 0);
            enum etw_rule_id r = RID_NONE;
            if (a == FA_RETLEN && x->rl_rule)
                r = x->rl_rule, score += 2;
            else if ((a == FA_OUTPUT || a == FA_INPUT) && x->out_rule)
                r = x->out_rule, score += 2;
            else if (x->rc_rule && x->rc == ref_rc)
                r = x->rc_rule;
            if (!r)
                r = etw_case_rule(k, 0);
            if (r == RID_GEN_BUFFER_BOUNDS)
                continue; /* the rule every case checks: say something more specific */
            if (r && score > best_score)
                best = r, best_score = score;
        }
    }
    if (best)
        return best;
    switch (c->fn) {
    case FN_TQI: return a == FA_RETLEN ? RID_TQI_RETLEN_FAILURE : a == FA_OUTPUT ? RID_TQI_NO_WRITE_ON_FAILURE : RID_TQI_CLASS_UNSUPPORTED;
    case FN_TSI: return RID_TSI_CLASS_SET;
    case FN_NTQSI:
    case FN_NTSSI: return RID_KSI_BAD_CLASS;
    case FN_NTC: return a == FA_OUTPUT ? RID_NTC_COPY_ON_SUCCESS : a == FA_RETLEN ? RID_NTC_RETSIZE_ON_FAILURE : RID_NTC_UNKNOWN_CODE;
    case FN_ETWCTI:
    case FN_CTI: return a == FA_HANDLE ? RID_CTI_OUTPUT : RID_CTI_COUNTER;
    case FN_ESI:
    case FN_ETWESI: return c->cls == 2 ? RID_TRAITS_FORMAT_TRAITS : RID_ESI_CLASS;
    case FN_REGISTERTRACEGUIDS: return a == FA_HANDLE ? RID_RTG_REGHANDLES : RID_RTG_NULL_ARGS;
    case FN_EVENTREGISTER: return a == FA_HANDLE ? RID_ER_SUCCESS : RID_ER_NULL_OUT;
    default: return RID_GEN_BUFFER_BOUNDS;
    }
}

static void print_code_expr(FILE *f, const struct fz_call *c, etw_u32 v)
{
    bool nt = etw_fn_returns_ntstatus(c->fn);
    const char *n = nt ? etw_ntstatus_name(v) : etw_win32_name(v);
    if (n && nt && !strncmp(n, "STATUS_", 7))
        fprintf(f, "ST(%s)", n + 7);
    else if (n && !nt && !strncmp(n, "ERROR_", 6))
        fprintf(f, "ERR(%s)", n + 6);
    else
        fprintf(f, "0x%Xu", v);
}


static const char *hsel_name(int h)
{
    static const char *const n[] = {"H_ZERO", "H_LOGGER", "H_LOGGER_HIGH", "H_LOGGER2", "H_MISSING", "H_VALUE", "H_REG", "H_REG_STALE", "H_CLASS"};
    if (h >= 0 && h <= H_CLASS)
        return n[h];
    return h == FH_SEQREG ? "(a handle EventRegister gave earlier)" : h == FH_SEQCLASS ? "(a class of an earlier RegisterTraceGuidsW)"
         : h == FH_SEQCLASSIC ? "(an earlier RegisterTraceGuidsW's handle)" : "(the fixture's RegisterTraceGuidsW handle)";
}

static void describe_call(FILE *f, const struct fz_call *c)
{
    fprintf(f, "%s(", c->fn == FN_CUSTOM ? "EtwRef_EnableGroup" : etw_fn_name(c->fn));
    switch (c->fn) {
    case FN_CUSTOM:
        fprintf(f, "session=%s, group=%s", hsel_name(c->h), c->cls ? "a GUID no provider has" : "6e0b0c00-1234-4abc-8001-020304050607");
        break;
    case FN_EVENTREGISTER: fprintf(f, "ProviderId=%s, RegHandle=%s", (c->nulls & N_PROV) ? "NULL" : "&guid", (c->nulls & N_OUT) ? "NULL" : "&h"); break;
    case FN_REGISTERTRACEGUIDS:
        fprintf(f, "RequestAddress=%s, ControlGuid=%s, GuidCount=%u, TraceGuidReg=%s%s, RegistrationHandle=%s", (c->nulls & N_REQ) ? "NULL" : "cb",
                (c->nulls & N_CTL) ? "NULL" : "&guid", c->count, (c->nulls & N_REGS) ? "NULL" : "array",
                (c->nulls & N_GUID) ? " (last Guid NULL)" : "", (c->nulls & N_OUT) ? "NULL" : "&h");
        break;
    default:
        fprintf(f, "handle=%s", hsel_name(c->h));
        if (c->h == H_VALUE || c->h == H_LOGGER_HIGH || c->h == H_CLASS)
            fprintf(f, "(0x%llx)", (unsigned long long)c->hval);
        if (c->fn != FN_ETWCTI && c->fn != FN_CTI && c->fn != FN_EVENTUNREGISTER && c->fn != FN_UNREGISTERTRACEGUIDS)
            fprintf(f, ", class=0x%X", c->cls);
        if (c->fn != FN_EVENTUNREGISTER && c->fn != FN_UNREGISTERTRACEGUIDS) {
            fprintf(f, ", buffer=%s, length=%u", c->buf_null ? "NULL" : "guarded", c->len);
            if (c->in_len && !c->buf_null) {
                fprintf(f, ", input=");
                for (etw_u32 i = 0; i < c->in_len && i < c->len && i < 48; i++)
                    fprintf(f, "%02x", c->in[i]);
                if (c->in_len > 48)
                    fprintf(f, "...");
            }
        }
        if (c->fn == FN_NTC)
            fprintf(f, ", out=%s/%u%s", c->out_null ? "NULL" : "guarded", c->out_len, c->traits_ptr ? ", Traits=&blob" : "");
        if (c->fn == FN_TQI || c->fn == FN_NTQSI || c->fn == FN_NTC)
            fprintf(f, ", ReturnLength=%s", c->retlen_null ? "NULL" : "&rl");
        if (c->fail_alloc)
            fprintf(f, ", allocation %d fails", c->fail_alloc);
        break;
    }
    fprintf(f, ")");
}

/* the reference's outcome of the last call of p at version v (false: not run there) */
struct ref_outcome {
    bool ran;
    etw_u32 rc, rl;
    bool rl_null;
    etw_u32 off, n; /* the changed bytes of the output buffer: [off, off + n) */
    etw_u8 bytes[64];
    bool changed, too_long;
    etw_u32 instance_id;
};

static void oracle_outcome(struct fz_prog *p, unsigned v, struct ref_outcome *ro)
{
    memset(ro, 0, sizeof *ro);
    unsigned saved = p->version;
    const struct fz_call *c = &p->calls[p->ncalls - 1];
    p->version = v;
    for (int i = 0; i < p->ncalls; i++)
        if (p->calls[i].fn != FN_CUSTOM && !F.side[SIDE_O].fn[vindex(v)][p->calls[i].fn])
            goto out;
    {
        /* run the program on the oracle alone */
        F.oracle_only = true;
        run_prog(p, p->ncalls);
        F.oracle_only = false;
        if (!F.last_ran || F.dis.call == -2 || F.found)
            goto out;
        const struct fz_out *o = &F.last_out[SIDE_O];
        ro->ran = true;
        ro->rc = o->rc;
        ro->rl = o->rl;
        ro->rl_null = c->retlen_null;
        const etw_u8 *after = NULL, *before = NULL;
        size_t len = 0;
        static etw_u8 pre[FZ_BUF_MAX + ETW_PRE_ZONE];
        if (c->fn == FN_NTC && !c->out_null) {
            after = out_buf(c->out_len);
            len = c->out_len;
            memcpy(pre + ETW_PRE_ZONE, F.pattern + ETW_PRE_ZONE, len);
            before = pre + ETW_PRE_ZONE;
        } else if (!c->buf_null && is_query(c->fn) && c->fn != FN_NTC) {
            after = in_buf(c->len);
            len = c->len;
            prepare(pre + ETW_PRE_ZONE, c, handle_of(&F.side[SIDE_O], c));
            before = pre + ETW_PRE_ZONE;
        }
        if ((c->fn == FN_ETWCTI || c->fn == FN_CTI) && after && len >= sizeof(ETW_EVENT_INSTANCE_INFO))
            memcpy(&ro->instance_id, after + offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), 4);
        if (after) {
            size_t lo = 0, hi = len;
            while (lo < len && after[lo] == before[lo])
                lo++;
            while (hi > lo && after[hi - 1] == before[hi - 1])
                hi--;
            ro->changed = hi > lo;
            ro->off = (etw_u32)lo;
            ro->n = (etw_u32)(hi - lo);
            ro->too_long = ro->n > sizeof ro->bytes;
            memcpy(ro->bytes, after + lo, ro->n < sizeof ro->bytes ? ro->n : sizeof ro->bytes);
        }
    }
out:
    p->version = saved;
}

static bool same_outcome(const struct ref_outcome *a, const struct ref_outcome *b)
{
    return a->ran == b->ran && a->rc == b->rc && a->rl == b->rl && a->changed == b->changed && a->off == b->off && a->n == b->n &&
           !memcmp(a->bytes, b->bytes, a->n < sizeof a->bytes ? a->n : sizeof a->bytes) && a->instance_id == b->instance_id;
}

/* a case row for the reduced program: the struct the harness runs, printed as source */
struct row {
    struct etw_case c;
    char id[64], title[160];
    struct ref_outcome ro[FZ_NV];
    bool data_row;
    const char *why_custom;
};

static void build_row(struct row *w, struct fz_prog *p, enum etw_rule_id rule, enum aspect a, unsigned long long prog_no)
{
    const struct fz_call *c = &p->calls[p->ncalls - 1];
    const char *fe = fn_enum(c->fn);
    memset(w, 0, sizeof *w);
    w->data_row = fe && a != FA_LASTERR && p->ncalls == 1 && c->h <= H_CLASS && !p->restrict_group && !(c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
    w->why_custom = p->ncalls > 1 ? "a sequence of calls"
                  : !fe           ? "the function cannot be called from a data row"
                  : a == FA_LASTERR ? "the last error is read with GetLastError after the call"
                                  : "a handle, pointer or fixture the row format cannot express";
    for (int i = 0; i < FZ_NV; i++) {
        if (!F.emulate_all && versions[i] != F.fixed_version)
            continue;
        oracle_outcome(p, versions[i], &w->ro[i]);
    }
    snprintf(w->id, sizeof w->id, "fuzz.%s.%llx", fn_prefix(c->fn), prog_no);
    snprintf(w->title, sizeof w->title, "found by etwconf fuzz (%s)", aspect_name[a]);
    struct etw_case *k = &w->c;
    k->file = "(etwconf fuzz)";
    k->id = w->id;
    memset(k->rules, 0, sizeof k->rules);
    k->rules[0] = rule;
    k->title = w->title;
    k->fn = fe ? c->fn : FN_CUSTOM;
    k->fx = p->fx;
    k->fx.fail_alloc = c->fail_alloc;
    k->args.handle = c->h <= H_CLASS ? (enum etw_hsel)c->h : H_ZERO;
    k->args.value = c->hval;
    k->args.cls = c->cls;
    k->args.buf = c->buf_null ? B_NULL : B_GUARDED;
    k->args.len = (int)c->len;
    if (c->fn == FN_ETWCTI || c->fn == FN_CTI)
        k->args.len = 0, k->args.len_rel = true;
    k->args.retlen_null = c->retlen_null;
    etw_u32 in_n = c->in_len < c->len ? c->in_len : c->len;
    k->args.in = in_n && !c->buf_null ? c->in : NULL;
    k->args.in_len = k->args.in ? in_n : 0;
    k->args.patch = c->patch;
    k->args.patch_off = c->patch_off;
    k->args.out_buf = c->out_null ? B_NULL : B_GUARDED;
    k->args.out_len = (int)c->out_len;
    int nexp = 0;
    for (int i = 0; i < FZ_NV;) {
        if (!w->ro[i].ran) {
            i++;
            continue;
        }
        int j = i;
        while (j + 1 < FZ_NV && w->ro[j + 1].ran && same_outcome(&w->ro[i], &w->ro[j + 1]))
            j++;
        const struct ref_outcome *o = &w->ro[i];
        struct etw_expect *x = &k->expect[nexp++];
        x->vmin = versions[i];
        x->vmax = versions[j];
        x->rc = o->rc;
        x->rc_rule = rule;
        if ((c->fn == FN_TQI || c->fn == FN_NTQSI || c->fn == FN_NTC) && !c->retlen_null) {
            x->rl = o->rl == ETW_SENTINEL32 ? RL_UNTOUCHED : RL_EQ;
            x->rl_value = o->rl;
            x->rl_rule = rule;
        }
        if (c->fn == FN_ETWCTI || c->fn == FN_CTI) {
            if (!o->rc && !c->buf_null) {
                x->out = OUT_PREFIX;
                x->out_off = offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId);
                x->out_bytes = (const etw_u8 *)&o->instance_id;
                x->out_len = 4;
                x->out_rule = rule;
            }
        } else if ((is_query(c->fn) || a == FA_INPUT) && (c->fn == FN_NTC ? !c->out_null : !c->buf_null)) {
            x->out_rule = rule;
            if (!o->changed || !is_query(c->fn))
                x->out = OUT_UNTOUCHED;
            else if (!o->too_long) {
                x->out = OUT_BYTES;
                x->out_off = o->off;
                x->out_bytes = o->bytes;
                x->out_len = o->n;
            }
        }
        i = j + 1;
    }
}

static void print_bytes_expr(FILE *f, const etw_u8 *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s0x%02x", i ? ", " : "", p[i]);
}

/* a rule as the rows cite it: RID_TQI_0B_EXACT_SIZE (a few at once in one printf) */
static const char *rid_sym(enum etw_rule_id r)
{
    static char buf[4][80];
    static int next;
    char *b = buf[next++ & 3];
    snprintf(b, sizeof buf[0], "RID_%s", etw_rule_name(r));
    for (char *q = b; *q; q++)
        if (*q == '.')
            *q = '_';
    return b;
}

static void print_case(FILE *f, const struct row *w, const struct fz_prog *p)
{
    static const char *const lk[] = {"LG_NONE", "LG_KERNEL", "LG_SYSTEM", "LG_PLAIN", "LG_NOACCESS", "LG_PRIVATE"};
    static const char *const vn[] = {"V5_2", "V6_0", "V6_1", "V6_2", "V6_3", "V10_0"};
    const struct etw_case *k = &w->c;
    const struct etw_fixture *fx = &k->fx;
    const struct fz_call *c = &p->calls[p->ncalls - 1];
    const char *fe = fn_enum(c->fn);
    fprintf(f, "    CASE(.id = \"%s\", .rules = RULES(%s),\n", k->id, rid_sym(k->rules[0]));
    fprintf(f, "         .title = \"%s\",\n", k->title);
    fprintf(f, "         .fn = %s,", fe ? fe : "FN_CUSTOM");
    bool any = false;
    static const struct etw_fixture none;
#define SEP (any ? ", " : (any = true, ""))
    if (memcmp(fx, &none, sizeof none))
        fprintf(f, " .fx = {");
    if (fx->logger)
        fprintf(f, "%s.logger = %s", SEP, lk[fx->logger]);
    if (fx->logger2)
        fprintf(f, "%s.logger2 = %s", SEP, lk[fx->logger2]);
    bool masks = false;
    for (int i = 0; i < 8; i++)
        masks |= fx->masks[i] != 0;
    if (masks) {
        fprintf(f, "%s.masks = {", SEP);
        for (int i = 0; i < 8; i++)
            fprintf(f, "%s0x%X", i ? ", " : "", fx->masks[i]);
        fprintf(f, "}");
    }
    if (fx->ndisallow)
        fprintf(f, "%s.disallow = %s, .ndisallow = %d", SEP,
                fx->disallow == &dal_guids[0] ? "dal_two" : fx->disallow == &dal_guids[2] ? "dal_one" : "(the provider GUIDs: see the calls)",
                fx->ndisallow);
    if (fx->classes)
        fprintf(f, "%s.classes = %d", SEP, fx->classes);
    if (fx->foreign_pid)
        fprintf(f, "%s.foreign_pid = true", SEP);
    if (fx->set_counter)
        fprintf(f, "%s.set_counter = true, .counter = 0x%X", SEP, fx->counter);
    if (fx->provider)
        fprintf(f, "%s.provider = true", SEP);
    if (fx->profile_priv)
        fprintf(f, "%s.profile_priv = %s", SEP, fx->profile_priv == PRIV_HELD ? "PRIV_HELD" : "PRIV_NOT_HELD");
    if (fx->fail_alloc)
        fprintf(f, "%s.fail_alloc = %d", SEP, fx->fail_alloc);
#undef SEP
    fprintf(f, "%s\n         .args = {", any ? "}," : "");
    const struct etw_args *a = &k->args;
    if (a->handle != H_ZERO) {
        fprintf(f, ".handle = %s, ", hsel_name(a->handle));
        if (a->handle == H_VALUE || a->handle == H_LOGGER_HIGH || a->handle == H_CLASS)
            fprintf(f, ".value = 0x%llx, ", (unsigned long long)a->value);
    }
    if (c->fn != FN_ETWCTI && c->fn != FN_CTI)
        fprintf(f, ".cls = 0x%X, ", a->cls);
    if (a->buf == B_NULL)
        fprintf(f, ".buf = B_NULL, ");
    if (a->len_rel)
        fprintf(f, ".len = EXACT(%d)", a->len);
    else
        fprintf(f, ".len = %d", a->len);
    if (a->retlen_null)
        fprintf(f, ", .retlen_null = true");
    if (a->in_len) {
        fprintf(f, ", IN(");
        print_bytes_expr(f, a->in, a->in_len);
        fprintf(f, ")");
    }
    if (a->patch)
        fprintf(f, ", .patch = %s, .patch_off = %d", a->patch == PATCH_HANDLE64 ? "PATCH_HANDLE64" : "PATCH_LOGGER32", a->patch_off);
    if (c->fn == FN_NTC)
        fprintf(f, "%s, .out_len = %d", a->out_buf == B_NULL ? ", .out_buf = B_NULL" : "", a->out_len);
    fprintf(f, "},\n         .expect = {");
    for (int e = 0; e < ETW_MAX_EXPECT && k->expect[e].vmin; e++) {
        const struct etw_expect *x = &k->expect[e];
        fprintf(f, "%sAT(%s, %s, .rc = ", e ? ",\n                    " : "", vn[vindex(x->vmin)], vn[vindex(x->vmax)]);
        print_code_expr(f, c, x->rc);
        if (x->rl == RL_EQ)
            fprintf(f, ", RETLEN(%u, %s)", x->rl_value, rid_sym(x->rl_rule));
        else if (x->rl == RL_UNTOUCHED)
            fprintf(f, ", RETLEN_KEPT(%s)", rid_sym(x->rl_rule));
        if (x->out == OUT_UNTOUCHED)
            fprintf(f, ", UNTOUCHED(%s)", rid_sym(x->out_rule));
        else if (x->out == OUT_PREFIX || x->out == OUT_BYTES) {
            bool cti = c->fn == FN_ETWCTI || c->fn == FN_CTI;
            fprintf(f, ", %s%s(", x->out == OUT_PREFIX ? "PREFIX" : "OUTPUT", x->out_off || cti ? "_AT" : "");
            if (cti)
                fprintf(f, "offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), ");
            else if (x->out_off)
                fprintf(f, "%zu, ", x->out_off);
            fprintf(f, "%s, ", rid_sym(x->out_rule));
            if (cti) {
                etw_u32 id;
                memcpy(&id, x->out_bytes, 4);
                fprintf(f, "U32(0x%X)", id);
            } else
                print_bytes_expr(f, x->out_bytes, x->out_len);
            fprintf(f, ")");
        }
        fprintf(f, ")");
    }
    fprintf(f, "})\n");
}

/* run the row as a case, with the harness, against a target at version v: its status */
static enum etw_status_kind run_row(const struct row *w, struct etw_target *t, unsigned v, char *msg, size_t len)
{
    struct etw_runner r;
    struct etw_result res;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.version = v;
    unsigned saved = t->version;
    t->version = v;
    etw_run_case(&r, &w->c, &res);
    t->version = saved;
    snprintf(msg, len, "%s", res.message[0] ? res.message : res.reason);
    /* the harness reset and re-versioned both sides */
    F.side[SIDE_T].dirty = F.side[SIDE_O].dirty = true;
    F.side[SIDE_T].cur_version = F.side[SIDE_O].cur_version = 0;
    return res.status;
}

/* print the row for the reduced program p, and check it with the harness: it must pass against
 * the reference wherever it applies, and fail against the target at the version of the finding */
static void print_row(FILE *f, struct fz_prog *p, enum etw_rule_id rule, enum aspect a, unsigned long long prog_no)
{
    static struct row w;
    build_row(&w, p, rule, a, prog_no);
    if (!w.data_row) {
        fprintf(f, "  case row: this needs a FN_CUSTOM case (%s); the calls, in order:\n", w.why_custom);
        for (int i = 0; i < p->ncalls; i++) {
            fprintf(f, "    %d. ", i + 1);
            describe_call(f, &p->calls[i]);
            fprintf(f, "\n");
        }
        if (p->restrict_group)
            fprintf(f, "    (after EtwRef_RestrictGroup of the group GUID 6e0b0c00-1234-4abc-8001-020304050607)\n");
        fprintf(f, "  sketch of the last call as a row (the reference's outcome after the calls before it):\n");
        print_case(f, &w, p);
        return;
    }
    fprintf(f, "  case row (append to the table in cases/%s.c):\n", w.c.fn == FN_ETWCTI || w.c.fn == FN_CTI ? "cti" : w.c.fn == FN_NTQSI || w.c.fn == FN_NTSSI ? "kernel" : w.c.fn == FN_ESI || w.c.fn == FN_ETWESI ? "provider" : fn_prefix(w.c.fn));
    print_case(f, &w, p);
    /* the check */
    char msg[600], vs_ok[64] = "", vs_bad[200] = "";
    for (int i = 0; i < FZ_NV; i++) {
        if (!w.ro[i].ran)
            continue;
        enum etw_status_kind st = run_row(&w, F.side[SIDE_O].t, versions[i], msg, sizeof msg);
        if (st == R_PASS)
            snprintf(vs_ok + strlen(vs_ok), sizeof vs_ok - strlen(vs_ok), " %s", etw_version_name(versions[i]));
        else
            snprintf(vs_bad + strlen(vs_bad), sizeof vs_bad - strlen(vs_bad), " %s (%s: %.80s)", etw_version_name(versions[i]),
                     etw_status_name(st), msg);
    }
    enum etw_status_kind tst = run_row(&w, F.side[SIDE_T].t, p->version, msg, sizeof msg);
    fprintf(f, "  row check (the harness ran the row): PASS on the reference at%s%s%s; %s on the target at %s%s%.200s\n",
            vs_ok[0] ? vs_ok : " no version", vs_bad[0] ? "; NOT at" : "", vs_bad, etw_status_name(tst), etw_version_name(p->version),
            msg[0] ? ": " : "", msg);
}

/* ---------------------------------------------------------------- exports */
static const struct {
    const char *module, *name;
    enum etw_fn fn;
} export_list[] = {
    {"advapi32", "TraceQueryInformation", FN_TQI}, {"sechost", "TraceQueryInformation", FN_TQI}, {"kernelbase", "TraceQueryInformation", FN_TQI},
    {"advapi32", "TraceSetInformation", FN_TSI}, {"sechost", "TraceSetInformation", FN_TSI}, {"ntdll", "NtQuerySystemInformation", FN_NTQSI},
    {"ntdll", "NtSetSystemInformation", FN_NTSSI}, {"ntdll", "NtTraceControl", FN_NTC}, {"ntdll", "EtwCreateTraceInstanceId", FN_ETWCTI},
    {"advapi32", "CreateTraceInstanceId", FN_CTI}, {"advapi32", "EventSetInformation", FN_ESI}, {"ntdll", "EtwEventSetInformation", FN_ETWESI},
    {"ntdll", "NtQueryIntervalProfile", FN_NTQIP}, {"advapi32", "RegisterTraceGuidsW", FN_REGISTERTRACEGUIDS},
    {"advapi32", "UnregisterTraceGuids", FN_UNREGISTERTRACEGUIDS}, {"advapi32", "EventRegister", FN_EVENTREGISTER},
    {"advapi32", "EventUnregister", FN_EVENTUNREGISTER},
};

static int compare_exports(FILE *f, int *ndis, int max)
{
    struct fz_side *T = &F.side[SIDE_T], *O = &F.side[SIDE_O];
    if (!T->t->proc || !F.emulate_all)
        return 0;
    int found = 0;
    for (size_t e = 0; e < sizeof export_list / sizeof export_list[0] && *ndis < max; e++) {
        bool t_has[FZ_NV], o_has[FZ_NV], differ_any = false;
        for (int i = 0; i < FZ_NV; i++) {
            T->t->set_version(versions[i], 0);
            O->t->set_version(versions[i], 0);
            t_has[i] = T->t->proc(export_list[e].module, export_list[e].name) != NULL;
            o_has[i] = O->t->proc(export_list[e].module, export_list[e].name) != NULL;
            differ_any |= t_has[i] != o_has[i];
        }
        if (!differ_any)
            continue;
        found++;
        (*ndis)++;
        enum etw_rule_id rule = etw_fn_export_rule(export_list[e].fn);
        fprintf(f, "\nDISAGREEMENT %d: %s!%s is exported at:", *ndis, export_list[e].module, export_list[e].name);
        fprintf(f, "\n  target:   ");
        for (int i = 0; i < FZ_NV; i++)
            if (t_has[i])
                fprintf(f, " %s", etw_version_name(versions[i]));
        fprintf(f, "\n  reference:");
        for (int i = 0; i < FZ_NV; i++)
            if (o_has[i])
                fprintf(f, " %s", etw_version_name(versions[i]));
        fprintf(f, "\n  rule: %s\n  case row (append to cases/exports.c):\n    CASE(.id = \"fuzz.exp.%s.%s\", .rules = RULES(%s),\n",
                etw_rule_name(rule), export_list[e].module, export_list[e].name, rule ? rid_sym(rule) : "RID_NONE");
        fprintf(f, "         .title = \"found by etwconf fuzz: %s!%s by version\", .fn = FN_EXPORT,\n", export_list[e].module, export_list[e].name);
        fprintf(f, "         .args = {.module = \"%s\", .export_name = \"%s\"}, .expect = {", export_list[e].module, export_list[e].name);
        static const char *const vn[] = {"V5_2", "V6_0", "V6_1", "V6_2", "V6_3", "V10_0"};
        for (int i = 0, k = 0; i < FZ_NV;) {
            int j = i;
            while (j + 1 < FZ_NV && o_has[j + 1] == o_has[i])
                j++;
            fprintf(f, "%sAT(%s, %s, %s)", k++ ? ", " : "", vn[i], vn[j], o_has[i] ? "PRESENT" : "ABSENT");
            i = j + 1;
        }
        fprintf(f, "})\n");
    }
    T->cur_version = O->cur_version = 0;
    return found;
}

/* ---------------------------------------------------------------- the command */
static const char fuzz_usage[] =
    "usage: etwconf fuzz --target LIB [--seconds N | --calls N] [--seed S] [--emulate V] [--max N] [--oracle LIB] [--quiet]\n"
    "\n"
    "Differential fuzzing: random calls against LIB and against the built-in reference, compared on\n"
    "return code, ReturnLength, every byte of every buffer, bytes around the buffers and returned\n"
    "handles. Each disagreement is reduced to a minimal call and printed as a case row for cases/.\n"
    "\n"
    "  --target LIB   a shared library exporting the API (the built-in reference is the oracle)\n"
    "  --oracle LIB   compare with this build of the reference instead of the built-in one\n"
    "  --seconds N    fuzz for N seconds (default 10)\n"
    "  --calls N      stop after N calls instead\n"
    "  --seed S       the seed (default: from the clock; printed). Same seed, same programs\n"
    "  --program K    replay only program K of the seed, verbosely\n"
    "  --emulate V    one version of 'etwconf versions'; default: all, if LIB can emulate\n"
    "  --max N        stop after N distinct disagreements (default 5)\n"
    "  --quiet        print only disagreements and the summary\n"
    "\n"
    "exit status: 0 no disagreement, 1 disagreement(s), 2 usage, 3 the target cannot be used\n";

static int fz_die(const char *fmt, const char *arg)
{
    fprintf(stderr, "etwconf fuzz: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'etwconf fuzz --help'.\n");
    return 2;
}

static bool parse_u64(const char *s, unsigned long long *v)
{
    char *end;
    if (!s || !*s)
        return false;
    *v = strtoull(s, &end, 0);
    return !*end;
}

static void bind_side(struct fz_side *s)
{
    for (int vi = 0; vi < FZ_NV; vi++) {
        if (s->t->set_version)
            s->t->set_version(versions[vi], 0);
        for (int fn = 1; fn < FN_COUNT; fn++)
            s->fn[vi][fn] = fn == FN_EXPORT || fn == FN_CUSTOM ? NULL : etw_resolve(s->t, (enum etw_fn)fn, NULL);
        s->gle[vi] = (etw_pfn_GetLastError)s->fn[vi][FN_GETLASTERROR];
        s->sle[vi] = (etw_pfn_SetLastError)s->fn[vi][FN_SETLASTERROR];
    }
    s->cur_version = 0;
}

static bool guard(struct etw_guard *g, size_t len)
{
    if (!etw_guard_alloc(g, len))
        return false;
    F.ctx.guards[F.ctx.nguards++] = g;
    return true;
}

struct seen {
    enum etw_fn fn;
    etw_u32 cls;
    enum aspect a;
};

int etw_cmd_fuzz(int argc, char **argv)
{
    const char *target = NULL, *emulate = NULL, *oracle = NULL;
    unsigned long long seconds = 0, max_calls = 0, seed = 0, only_prog = 0, max_dis = 5;
    bool have_seed = false, quiet = false, have_prog = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(fuzz_usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if (!v)
            return fz_die("%s needs a value", a);
        i++;
        if (!strcmp(a, "--target"))
            target = v;
        else if (!strcmp(a, "--oracle"))
            oracle = v;
        else if (!strcmp(a, "--emulate"))
            emulate = v;
        else if (!strcmp(a, "--seconds")) {
            if (!parse_u64(v, &seconds) || !seconds || seconds > 86400 * 7)
                return fz_die("--seconds takes 1 to 604800, not '%s'", v);
        } else if (!strcmp(a, "--calls")) {
            if (!parse_u64(v, &max_calls) || !max_calls)
                return fz_die("--calls takes a positive number, not '%s'", v);
        } else if (!strcmp(a, "--seed")) {
            if (!parse_u64(v, &seed))
                return fz_die("--seed takes a number, not '%s'", v);
            have_seed = true;
        } else if (!strcmp(a, "--program")) {
            if (!parse_u64(v, &only_prog))
                return fz_die("--program takes a number, not '%s'", v);
            have_prog = true;
        } else if (!strcmp(a, "--max")) {
            if (!parse_u64(v, &max_dis) || !max_dis || max_dis > FZ_MAXDIS)
                return fz_die("--max takes 1 to 64, not '%s'", v);
        } else
            return fz_die("unknown option '%s'", a);
    }
    if (!target)
        return fz_die("%s", "--target LIB is required (the built-in reference is the oracle)");
    if (!strcmp(target, "reference") && (!oracle || !strcmp(oracle, "reference")))
        return fz_die("%s", "the target must be a library: the built-in reference is the oracle (try --target build/libetwref.so)");
    if (have_prog && !have_seed)
        return fz_die("%s", "--program needs the --seed it came from");
    unsigned ver = 0;
    if (emulate && !(ver = etw_version_parse(emulate)))
        return fz_die("--emulate takes a version of 'etwconf versions', not '%s'", emulate);
    if (!seconds && !max_calls)
        seconds = 10;
    if (!have_seed)
        seed = plat_now_us() ^ 0xE7C0F00Dull;

    char err[512] = "";
    struct etw_target *t = etw_target_open(target, err, sizeof err);
    if (!t) {
        fprintf(stderr, "etwconf fuzz: %s\n", err);
        return 3;
    }
    memset(&F, 0, sizeof F);
    F.side[SIDE_T].name = "target";
    F.side[SIDE_T].t = t;
    F.side[SIDE_O].name = "reference";
    F.side[SIDE_O].t = oracle ? etw_target_open(oracle, err, sizeof err) : etw_target_reference();
    if (!F.side[SIDE_O].t) {
        fprintf(stderr, "etwconf fuzz: the oracle: %s\n", err);
        return 3;
    }
    if (F.side[SIDE_O].t == t) {
        fprintf(stderr, "etwconf fuzz: the target is the oracle itself\n");
        return 2;
    }
    if (!F.side[SIDE_O].t->reset || !F.side[SIDE_O].t->set_version || !F.side[SIDE_O].t->sym(F.side[SIDE_O].t, "TraceQueryInformation")) {
        fprintf(stderr, "etwconf fuzz: the oracle must be the reference implementation, with its control API: this etwconf has no "
                        "built-in reference (etwconf.exe tests the live system); give one with --oracle (a build of reference/ as a "
                        "library)\n");
        return 3;
    }
    F.control = t->reset && t->set_version && t->start_logger;
    F.emulate_all = !ver && t->set_version;
    F.fixed_version = ver ? ver : t->set_version ? ETW_V10_0 : ETW_V10_0;
    if (ver && !t->set_version)
        fprintf(stderr, "etwconf fuzz: the target cannot emulate: it is taken to implement %s\n", emulate);
    bind_side(&F.side[SIDE_T]);
    bind_side(&F.side[SIDE_O]);
    F.lasterr = true;
    for (int vi = 0; vi < FZ_NV; vi++)
        F.lasterr &= F.side[SIDE_T].gle[vi] && F.side[SIDE_T].sle[vi] && F.side[SIDE_O].gle[vi] && F.side[SIDE_O].sle[vi];
    F.runner.timeout_ms = 0;
    F.ctx.r = &F.runner;
    F.ctx.t = t;
    if (!guard(&F.gin, FZ_BUF_MAX) || !guard(&F.gout, FZ_OUT_MAX) || !guard(&F.grl, 4) ||
        !guard(&F.gaux, FZ_RTG_MAX * sizeof(ETW_TRACE_GUID_REGISTRATION))) {
        fprintf(stderr, "etwconf fuzz: could not map the guarded buffers\n");
        return 3;
    }
    size_t pl = ETW_PRE_ZONE + FZ_RTG_MAX * sizeof(ETW_TRACE_GUID_REGISTRATION);
    F.pattern = malloc(pl);
    F.t_after = malloc(FZ_BUF_MAX);
    F.t_out_after = malloc(FZ_OUT_MAX);
    F.t_before = malloc(FZ_BUF_MAX + ETW_PRE_ZONE);
    F.o_before = malloc(FZ_BUF_MAX + ETW_PRE_ZONE);
    if (!F.pattern || !F.t_after || !F.t_out_after || !F.t_before || !F.o_before) {
        fprintf(stderr, "etwconf fuzz: out of memory\n");
        return 3;
    }
    for (size_t i = 0; i < pl; i++)
        F.pattern[i] = etw_sentinel[i % 4]; /* ETW_PRE_ZONE is a multiple of 4: buf[0] gets sentinel[0] */
    F.t_before += ETW_PRE_ZONE;
    F.o_before += ETW_PRE_ZONE;
    F.side[SIDE_T].dirty = F.side[SIDE_O].dirty = true;

    if (!quiet) {
        fprintf(stdout, "etwconf fuzz: target %s against the reference, seed %llu, %s, %s\n", target, seed,
                F.emulate_all ? "every version" : etw_version_name(F.fixed_version),
                F.control ? "control API: fixtures and state-changing calls" : "no control API: calls that need no fixture only");
        fprintf(stdout, "  not exported by the target (not fuzzed):");
        int nmiss = 0;
        int vi = vindex(F.emulate_all ? ETW_V10_0 : F.fixed_version);
        for (size_t e = 0; e < sizeof export_list / sizeof export_list[0]; e++) {
            enum etw_fn fn = export_list[e].fn;
            if (!F.side[SIDE_T].fn[vi][fn] && F.side[SIDE_O].fn[vi][fn] && (e == 0 || export_list[e - 1].fn != fn))
                fprintf(stdout, " %s", etw_fn_name(fn)), nmiss++;
        }
        fprintf(stdout, "%s\n", nmiss ? "" : " none");
        fflush(stdout);
    }

    int ndis = 0;
    static struct seen seen[FZ_MAXDIS];
    int nseen = 0;
    if (!have_prog)
        compare_exports(stdout, &ndis, (int)max_dis);
    static struct fz_prog prog;
    uint64_t t0 = plat_now_us(), deadline = seconds ? t0 + seconds * 1000000ull : 0;
    clock_t c0 = clock();
    F.seed = seed;
    F.max_calls = max_calls;
    F.next = have_prog ? only_prog : 0;
    while (ndis < (int)max_dis) {
        if (deadline && plat_now_us() >= deadline)
            break;
        if (max_calls && F.calls >= max_calls)
            break;
        if (have_prog && F.next != only_prog)
            break;
        /* a batch of programs under one guard; a fault or a disagreement ends it early */
        F.batch_left = have_prog ? 1 : 64;
        F.found = false;
        char exc[48] = "";
        long off = 0;
        if (have_prog) {
            gen_prog(seed, F.next, &prog);
            fprintf(stdout, "program %llu (version %s):\n", F.next, etw_version_name(prog.version));
            for (int i = 0; i < prog.ncalls; i++) {
                fprintf(stdout, "  %d. ", i + 1);
                describe_call(stdout, &prog.calls[i]);
                fprintf(stdout, "\n");
            }
        }
        int kf = etw_guarded_call(&F.ctx, batch_body, exc, sizeof exc, &off);
        if (kf) {
            /* the fault ended program F.next in the middle: say so as run_prog would */
            fault_dis(kf, exc, off);
        }
        if (!F.found)
            continue; /* the batch ran out, or the call budget did */
        unsigned long long k = F.next;
        F.next++;
        if (F.dis.call == -2)
            continue;
        gen_prog(seed, k, &prog);
        /* one report per function, class and aspect */
        int at = F.dis.call;
        const struct fz_call *c = at >= 0 ? &prog.calls[at] : &prog.calls[0];
        struct seen sn = {c->fn, c->fn == FN_NTQSI || c->fn == FN_NTSSI ? kclass_of(c) : c->cls, F.dis.aspect};
        bool dup = false;
        for (int i = 0; i < nseen && !dup; i++)
            dup = seen[i].fn == sn.fn && seen[i].cls == sn.cls && seen[i].a == sn.a;
        if (dup)
            continue;
        seen[nseen++] = sn;
        ndis++;
        struct fz_dis first_dis = F.dis;
        fprintf(stdout, "\nDISAGREEMENT %d (seed %llu, program %llu, version %s): %s\n", ndis, seed, k, etw_version_name(prog.version),
                first_dis.detail);
        if (at < 0) {
            fprintf(stdout, "  (while setting up the fixture; replay: etwconf fuzz --target %s --seed %llu --program %llu)\n", target, seed, k);
            continue;
        }
        static struct fz_prog small;
        small = prog;
        reduce(&small, at);
        if (!run_prog(&small, small.ncalls) || F.dis.call != small.ncalls - 1) {
            /* the reduction lost it (state-dependent): report the program up to the call */
            small = prog;
            small.ncalls = at + 1;
            run_prog(&small, small.ncalls);
        }
        struct fz_dis red = F.dis;
        struct fz_out ref_out = F.last_out[SIDE_O];
        const struct fz_call *lc = &small.calls[small.ncalls - 1];
        fprintf(stdout, "  minimal: %s; %d call(s) at %s\n", red.detail, small.ncalls, etw_version_name(small.version));
        fprintf(stdout, "  call: ");
        describe_call(stdout, lc);
        fprintf(stdout, "\n");
        enum etw_rule_id rule = rule_for(lc, red.aspect, ref_out.rc, small.version);
        const struct etw_rule *rr = etw_rule_get(rule);
        fprintf(stdout, "  rule: %s%s%s\n", etw_rule_name(rule), rr ? ": " : "", rr ? rr->text : "");
        print_row(stdout, &small, rule, red.aspect, k);
        fprintf(stdout, "  replay: etwconf fuzz --target %s --seed %llu --program %llu\n", target, seed, k);
        fflush(stdout);
    }
    unsigned long long programs = F.programs;
    uint64_t el = plat_now_us() - t0;
    double secs = el / 1e6, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    fprintf(stdout, "\nfuzz: %llu calls in %llu programs, %.1f s (%.0f calls/s; %.0f calls per CPU second), seed %llu: %d disagreement(s)\n",
            F.calls, programs, secs, secs > 0 ? (double)F.calls / secs : 0.0, cpu > 0 ? (double)F.calls / cpu : 0.0, seed, ndis);
    return ndis ? 1 : 0;
}
