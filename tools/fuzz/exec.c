/*
 * tools/fuzz/exec.c - running programs on both sides: the fixture, one call, a program, a batch under the guard.
 */
#include "tools/fuzz/fuzz.h"
#include <stdlib.h>
#include <string.h>

static etw_u32 *rl_ptr(void)
{
    return (etw_u32 *)(void *)(fz.grl.guard - 4);
}
static etw_u8 *aux_buf(size_t len)
{
    return fz.gaux.guard - len;
}

/* sentinel-fill [buf - ETW_PRE_ZONE, buf + len) exactly as etw_guard_alloc does for a case */
static void refill(etw_u8 *buf, size_t len)
{
    memcpy(buf - ETW_PRE_ZONE, fz.pattern, ETW_PRE_ZONE + len);
}
static bool pre_intact(const etw_u8 *buf)
{
    return !memcmp(buf - ETW_PRE_ZONE, fz.pattern, ETW_PRE_ZONE);
}

/* ---------------------------------------------------------------- fixture (harness/core/fixture.c) */
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

/* false with why when the side could not set the fixture up: the shared fixture, then what rows
 * cannot express (EtwRef_RestrictGroup) */
static bool set_fixture(struct fz_side *s, const struct fz_prog *p, char *why, size_t len)
{
    struct etw_target *t = s->t;
    memset(s->seqreg, 0, sizeof s->seqreg);
    memset(s->seqclassic_alive, 0, sizeof s->seqclassic_alive);
    memset(&s->fx, 0, sizeof s->fx);
    if (etw_needs_check(t, etw_fixture_needs(&p->fx), why, len)) /* the target cannot give this fixture */
        return false;
    enum etw_fx r = etw_fixture_setup(t, s->fn[fz_vindex(s->cur_version)], &p->fx, uses_handle(p, H_REG_STALE), &s->fx, why, len);
    if (r == ETW_FX_MISSING)
        snprintf(why, len, "the target does not export %s, which the fixture calls", etw_fn_name(s->fx.missing));
    if (r != ETW_FX_OK)
        return false;
    if (p->restrict_group && (!t->restrict_group || t->restrict_group(&fz_group_guid)))
        return snprintf(why, len, "EtwRef_RestrictGroup failed"), false;
    return true;
}

/* ---------------------------------------------------------------- one call on one side */
etw_u64 fz_handle_of(struct fz_side *s, const struct fz_call *c)
{
    switch (c->h) {
    case FH_SEQREG: return s->seqreg[c->hval & 3];
    case FH_SEQCLASS: {
        unsigned k = (unsigned)(c->hval >> 2) & 3, i = (unsigned)c->hval & 3;
        /* a class of a registration that is gone would be a dangling pointer: pass NULL instead */
        return s->seqclassic_alive[k] && i < s->seqclassic_n[k] ? (etw_u64)(uintptr_t)s->seqclass[k][i] : 0;
    }
    case FH_SEQCLASSIC: return s->seqclassic_alive[c->hval & 3] ? s->seqclassic[c->hval & 3] : 0x7777;
    case FH_FIXCLASSIC: return s->fx.have_classic ? s->fx.classic : 0x7777;
    default: return etw_call_handle(s->t, &s->fx, (enum etw_hsel)c->h, c->hval);
    }
}

/* the buffer as the call gets it: sentinel, the input bytes, the handle patch (as a row's) */
void fz_prepare(etw_u8 *buf, const struct fz_call *c, etw_u64 h)
{
    refill(buf, c->len);
    etw_call_fill(buf, c->len, c->in, c->in_len, c->patch, c->patch_off, h);
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
    int vi = fz_vindex(s->cur_version);
    void *fnp = c->fn < FN_COUNT ? s->fn[vi][c->fn] : NULL; /* FZ_ENABLE_GROUP: a control function */
    etw_u64 h = fz_handle_of(s, c);
    etw_u8 *buf = c->buf_null ? NULL : fz_in_buf(c->len);
    etw_u8 *out = NULL;
    etw_u32 *rl = c->retlen_null ? NULL : rl_ptr();
    if (buf)
        fz_prepare(buf, c, h);
    if (c->fn == FN_NTC && !c->out_null) {
        out = fz_out_buf(c->out_len);
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
    fz_watch_enter();
    if (c->fail_alloc && s->t->fail_alloc)
        s->t->fail_alloc((unsigned)c->fail_alloc);
    switch (c->fn) {
    case FN_TQI:
    case FN_TSI:
    case FN_NTQSI:
    case FN_NTSSI:
    case FN_NTC:
    case FN_NTQIP:
    case FN_ESI:
    case FN_ETWESI: etw_call_invoke(c->fn, fnp, h, c->cls, buf, c->len, out, c->out_len, rl, &o->rc); break;
    case FN_ETWCTI:
    case FN_CTI: {
        /* as a row's call, with the last error set before and read after it */
        etw_pfn_SetLastError sle = s->sle[vi];
        etw_pfn_GetLastError gle = s->gle[vi];
        if (sle)
            sle(0xE7E7E7E7u);
        etw_call_invoke(c->fn, fnp, h, c->cls, buf, c->len, out, c->out_len, rl, &o->rc);
        o->le = gle ? gle() : 0;
        if (buf && c->len >= sizeof(ETW_EVENT_INSTANCE_INFO)) {
            /* the echoed RegHandle is a pointer of this side: compare what it is, then blank it */
            etw_handle rh;
            memcpy(&rh, buf, sizeof rh);
            o->tok[o->ntok++] = token_of_handle((etw_u64)(uintptr_t)rh, h);
            memcpy(buf, fz.pattern + ETW_PRE_ZONE, sizeof rh);
        }
        break;
    }
    case FN_EVENTREGISTER: {
        etw_reghandle *out_h = (c->nulls & N_OUT) ? NULL : (etw_reghandle *)(void *)fz_in_buf(8);
        if (out_h)
            refill((etw_u8 *)out_h, 8);
        o->rc = ((etw_pfn_EventRegister)fnp)((c->nulls & N_PROV) ? NULL : &fz_seq_guids[c->hval & 3], NULL, NULL, out_h);
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
        etw_tracehandle *out_h = (c->nulls & N_OUT) ? NULL : (etw_tracehandle *)(void *)fz_in_buf(8);
        if (!(c->nulls & N_REGS) && n) {
            regs = (ETW_TRACE_GUID_REGISTRATION *)(void *)aux_buf((size_t)n * sizeof *regs);
            for (etw_u32 i = 0; i < n; i++) {
                regs[i].Guid = &fz_seq_guids[i & 3];
                regs[i].RegHandle = NULL;
            }
            if (c->nulls & N_GUID)
                regs[n - 1].Guid = NULL;
        }
        if (out_h)
            memset(out_h, 0xAB, 8);
        o->rc = ((etw_pfn_RegisterTraceGuidsW)fnp)((c->nulls & N_REQ) ? NULL : fz_request_cb, NULL,
                                                   (c->nulls & N_CTL) ? NULL : &fz_seq_guids[k], n, regs, NULL, NULL, out_h);
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
    case FZ_ENABLE_GROUP: { /* what a group enable on a session reaches */
        etw_u32 en = 0xE7E7E7E7u;
        o->rc = s->t->enable_group(h, c->cls ? &fz_dal_guids[0] : &fz_group_guid, &en);
        o->tok[o->ntok++] = en;
        break;
    }
    case FN_UNREGISTERTRACEGUIDS: {
        o->rc = ((etw_pfn_UnregisterTraceGuids)fnp)(h);
        if (o->rc == 0) {
            if (c->h == FH_SEQCLASSIC)
                s->seqclassic_alive[c->hval & 3] = false;
            if (c->h == FH_FIXCLASSIC)
                s->fx.have_classic = false;
        }
        break;
    }
    default: o->rc = 0xFFFFFFFFu; break;
    }
    if (c->fail_alloc && s->t->fail_alloc)
        s->t->fail_alloc(0);
    fz_watch_leave();
    o->rl = *rl_ptr();
    o->pre_in = buf ? pre_intact(buf) : true;
    o->pre_out = out ? pre_intact(out) : true;
    o->pre_aux = (c->fn == FN_REGISTERTRACEGUIDS && !(c->nulls & N_REGS) && c->count)
                     ? pre_intact(aux_buf((size_t)c->count * sizeof(ETW_TRACE_GUID_REGISTRATION)))
                     : true;
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
    const struct fz_prog *p = fz.prog;
    struct fz_side *T = &fz.side[SIDE_T], *O = &fz.side[SIDE_O];
    bool both = !fz.oracle_only;
    /* a program that sets nothing up and only reads leaves the state as it found it */
    bool pure = fixture_empty(p);
    for (int i = 0; i < fz.upto && i < p->ncalls && pure; i++)
        pure = pure_call(&p->calls[i]);
    fz.cur_call = -1;
    for (int k = both ? 0 : 1; k < 2; k++) {
        struct fz_side *s = &fz.side[k];
        fz.cur_side = k;
        set_side_version(s, p->version);
        if (fz.control && s->dirty)
            s->t->reset();
        s->dirty = fz.control && !pure;
        char why[200] = "";
        fz_watch_enter();
        bool fixed = set_fixture(s, p, why, sizeof why);
        fz_watch_leave();
        if (!fixed) {
            s->dirty = fz.control;
            if (k == SIDE_O) {
                /* the generator asked for a fixture the reference cannot make: not a finding */
                fz.dis.call = -2;
                return;
            }
            fz.dis.call = -1;
            fz.dis.aspect = FA_FIXTURE;
            snprintf(fz.dis.detail, sizeof fz.dis.detail, "fixture: %s on the target (the reference set it up)", why);
            fz.found = true;
            return;
        }
    }
    for (int i = 0; i < fz.upto && i < p->ncalls; i++) {
        const struct fz_call *c = &p->calls[i];
        struct fz_out to, oo;
        fz.cur_call = i;
        if (!both) {
            fz.cur_side = SIDE_O;
            run_call(O, c, &oo);
            fz.last_out[SIDE_O] = oo;
            fz.last_ran = true;
            continue;
        }
        fz.cur_side = SIDE_T;
        run_call(T, c, &to);
        bool snap = !c->buf_null && c->fn != FN_EVENTREGISTER && c->fn != FN_REGISTERTRACEGUIDS;
        bool patched = c->patch != PATCH_NONE || (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
        if (snap)
            memcpy(fz.t_after, fz_in_buf(c->len), c->len);
        if (c->fn == FN_NTC && !c->out_null)
            memcpy(fz.t_out_after, fz_out_buf(c->out_len), c->out_len);
        if (snap && patched) {
            fz_prepare(fz.t_before, c, fz_handle_of(T, c));
            fz_prepare(fz.o_before, c, fz_handle_of(O, c));
        }
        fz.cur_side = SIDE_O;
        run_call(O, c, &oo);
        fz.calls++;
        fz.last_out[SIDE_T] = to;
        fz.last_out[SIDE_O] = oo;
        fz.last_ran = true;
        if (fz_differ(c, &to, &oo, &fz.dis, i) || fz_differ_bytes(c, &oo, &fz.dis, i)) {
            fz.found = true;
            T->dirty = O->dirty = fz.control;
            return;
        }
    }
    fz.cur_call = -1;
    /* a target without the control API cannot be reset: undo what the sequence registered */
    if (!fz.control) {
        for (int k = both ? 0 : 1; k < 2; k++) {
            struct fz_side *s = &fz.side[k];
            int vi = fz_vindex(s->cur_version);
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

/* many programs under one guard: the programs of the seed from fz.next until a disagreement, a
 * fault, the batch size or the call budget (the guard costs a system call: amortise it) */
static struct fz_prog batch_prog;
void fz_batch_body(struct etw_ctx *unused)
{
    for (; fz.batch_left > 0; fz.batch_left--, fz.next++) {
        if (fz.max_calls && fz.calls >= fz.max_calls)
            return;
        fz_gen_prog(fz.seed, fz.next, &batch_prog);
        fz.programs++;
        if (!batch_prog.ncalls)
            continue;
        fz.prog = &batch_prog;
        fz_watch_prog(fz.next, &batch_prog);
        fz.upto = batch_prog.ncalls;
        fz.found = false;
        fz.last_ran = false;
        fz.dis.call = -3;
        run_body(unused);
        if (fz.found)
            return; /* fz.next is the program that disagreed */
    }
}

/* run p (its first upto calls) on both sides; true when they disagree (fz.dis says how) */
bool fz_run_prog(const struct fz_prog *p, int upto)
{
    char exc[48] = "";
    long off = 0;
    fz.prog = p;
    fz.upto = upto;
    fz.found = false;
    fz.last_ran = false;
    memset(&fz.dis, 0, sizeof fz.dis);
    fz.dis.call = -3;
    atomic_store_explicit(&fz.w_progp, p, memory_order_release);
    int k = etw_guarded_call(&fz.ctx, run_body, exc, sizeof exc, &off);
    fz_watch_leave(); /* a fault ended the call without leaving it */
    if (k)
        fz_fault_dis(k, exc, off);
    return fz.found;
}

/* a fault ended the call fz.cur_call of side fz.cur_side: record it as the disagreement */
void fz_fault_dis(int k, const char *exc, long off)
{
    {
        const char *who = fz.cur_side == SIDE_T ? "target" : "reference";
        fz.side[SIDE_T].dirty = fz.side[SIDE_O].dirty = true;
        fz.found = true;
        fz.dis.call = fz.cur_call;
        fz.dis.aspect = k == 1 ? FA_BOUNDS : FA_FAULT;
        if (k == 1)
            snprintf(fz.dis.detail, sizeof fz.dis.detail, "the %s accessed the guard page %ld byte(s) past the end of a buffer%s", who, off + 1,
                     fz.cur_call < 0 ? " (during the fixture)" : "");
        else
            snprintf(fz.dis.detail, sizeof fz.dis.detail, "the %s crashed with %s%s", who, exc, fz.cur_call < 0 ? " (during the fixture)" : "");
        if (fz.cur_side == SIDE_O)
            snprintf(fz.dis.detail + strlen(fz.dis.detail), sizeof fz.dis.detail - strlen(fz.dis.detail),
                     " [a bug of the reference: please report it]");
    }
}
