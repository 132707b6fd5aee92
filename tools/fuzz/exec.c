/*
 * tools/fuzz/exec.c - running programs on both sides (the fixture, one call, a program, a batch under
 * the guard), comparing the two sides' outcomes of each call, and the exports by version.
 */
#include "tools/fuzz/fuzz.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool fz_is_query(enum etw_fn fn)
{
    return fn == FN_TQI || fn == FN_NTQSI || fn == FN_NTC || fn == FN_ETWCTI || fn == FN_CTI || fn == FN_NTQIP;
}

/* compare the buffer of the call: target bytes (after; before) against the oracle's live buffer
 * (after; before); false with *at the first byte that differs. Where the sides started from
 * different bytes (their own handles patched in), such a byte agrees if both left it alone. */
static bool same_bytes(const etw_u8 *ta, const etw_u8 *tb, const etw_u8 *oa, const etw_u8 *ob,
                       size_t n, size_t *at)
{
    if (!memcmp(ta, oa, n))
        return true;
    for (*at = 0; *at < n; ++*at) {
        size_t i = *at;
        if (ta[i] != oa[i] && (!tb || tb[i] == ob[i] || ta[i] != tb[i] || oa[i] != ob[i]))
            return false;
    }
    return true;
}

/* record the disagreement d: its aspect and what differs */
static bool dis(struct fz_dis *d, enum aspect a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->aspect = a;
    vsnprintf(d->detail, sizeof d->detail, fmt, ap);
    va_end(ap);
    return true;
}

static const char *tok_name(etw_u32 x)
{
    static const char *const tk[] = {"?", "not written", "0", "the handle given",
                                     "a non-zero value"};
    return x < 5 ? tk[x] : "?";
}

static const char *reg_tok_name(etw_u32 x, int i)
{
    return !x ? "NULL" : x == 100u + (etw_u32)i ? "a new handle" : "the same as an earlier entry";
}

static bool fz_differ(const struct fz_call *c, const struct fz_out *t, const struct fz_out *o,
                      struct fz_dis *d, int idx)
{
    char a[64], b[64];
    d->call = idx;
    /* ESI.BAD_HANDLE accepts ERROR_INVALID_PARAMETER (as documented) for ERROR_INVALID_HANDLE */
    bool esi = c->fn == FN_ESI || c->fn == FN_ETWESI;
    if (t->rc != o->rc &&
        !(esi && o->rc == ETW_ERROR_INVALID_HANDLE && t->rc == ETW_ERROR_INVALID_PARAMETER)) {
        etw_format_code(a, sizeof a, t->rc, etw_fn_returns_ntstatus(c->fn));
        etw_format_code(b, sizeof b, o->rc, etw_fn_returns_ntstatus(c->fn));
        return dis(d, FA_RC, "return code: target %s, reference %s", a, b);
    }
    const char *nw = "not written, ";
    bool has_rl = c->fn == FN_TQI || c->fn == FN_NTQSI || c->fn == FN_NTC;
    if (!c->retlen_null && t->rl != o->rl && has_rl)
        return dis(d, FA_RETLEN, "ReturnLength: target %s%u (0x%X), reference %s%u (0x%X)",
                   t->rl == ETW_SENTINEL32 ? nw : "", t->rl, t->rl,
                   o->rl == ETW_SENTINEL32 ? nw : "", o->rl, o->rl);
    if (t->pre_in != o->pre_in || t->pre_out != o->pre_out || t->pre_aux != o->pre_aux)
        return dis(d, FA_BOUNDS, "bytes before the %s buffer: %s by the target, %s by the "
                   "reference", t->pre_in != o->pre_in ? "input"
                   : t->pre_out != o->pre_out ? "output" : "TraceGuidReg",
                   (t->pre_in && t->pre_out && t->pre_aux) ? "left alone" : "changed",
                   (o->pre_in && o->pre_out && o->pre_aux) ? "left alone" : "changed");
    if (c->fn == FZ_ENABLE_GROUP && t->tok[0] != o->tok[0])
        return dis(d, FA_OUTPUT, "members a group enable reached: target %u, reference %u",
                   t->tok[0], o->tok[0]);
    if (t->ntok != o->ntok || memcmp(t->tok, o->tok, sizeof t->tok[0] * (size_t)t->ntok)) {
        int i = 0;
        while (i < t->ntok && i < o->ntok && t->tok[i] == o->tok[i])
            i++;
        etw_u32 x = i < t->ntok ? t->tok[i] : 0, y = i < o->ntok ? o->tok[i] : 0;
        if (x >= 100 || y >= 100)
            return dis(d, FA_HANDLE, "TraceGuidReg[%d].RegHandle: target %s, reference %s", i,
                       reg_tok_name(x, i), reg_tok_name(y, i));
        return dis(d, FA_HANDLE, "returned handle #%d: target %s, reference %s", i + 1, tok_name(x),
                   tok_name(y));
    }
    if ((c->fn == FN_ETWCTI || c->fn == FN_CTI) && t->le != o->le && fz.lasterr)
        return dis(d, FA_LASTERR, "last error: target %u (0x%X), reference %u (0x%X) "
                   "(0xE7E7E7E7: left alone)", t->le, t->le, o->le, o->le);
    return false;
}

/* the bytes of the two sides first differ at +at: say where and what, eight bytes of each */
static bool bytes_dis(struct fz_dis *d, enum aspect a, const char *what, size_t at, const etw_u8 *t,
                      const etw_u8 *o, size_t len)
{
    char x[20] = "", y[20] = "";
    for (size_t i = at; i < len && i < at + 8; i++) {
        snprintf(x + 2 * (i - at), 3, "%02x", t[i]);
        snprintf(y + 2 * (i - at), 3, "%02x", o[i]);
    }
    return dis(d, a, "%s at +%zu: target %s, reference %s (sentinel: deadbeef)", what, at, x, y);
}

/* the call's buffer is compared byte for byte (a registration's outputs are compared as tokens) */
static bool snapped(const struct fz_call *c)
{
    return !c->buf_null && c->fn != FN_EVENTREGISTER && c->fn != FN_REGISTERTRACEGUIDS;
}
/* each side's buffer holds its own handle or pointer before the call */
static bool patched(const struct fz_call *c)
{
    return c->patch != PATCH_NONE || (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
}

/* after the oracle's call: compare its buffers with the target's snapshot */
static bool fz_differ_bytes(const struct fz_call *c, struct fz_dis *d, int idx)
{
    size_t at = 0;
    d->call = idx;
    if (snapped(c)) {
        bool p = patched(c);
        if (!same_bytes(fz.t_after, p ? fz.t_before + ETW_PRE_ZONE : NULL, fz_in_buf(c->len),
                        p ? fz.o_before + ETW_PRE_ZONE : NULL, c->len, &at)) {
            enum aspect a = fz_is_query(c->fn) && c->fn != FN_NTC ? FA_OUTPUT : FA_INPUT;
            return bytes_dis(d, a, a == FA_OUTPUT ? "output" : "input buffer written", at, fz.t_after, fz_in_buf(c->len), c->len);
        }
    }
    if (c->fn == FN_NTC && !c->out_null && !same_bytes(fz.t_out_after, NULL, fz_out_buf(c->out_len), NULL, c->out_len, &at))
        return bytes_dis(d, FA_OUTPUT, "OutBuffer", at, fz.t_out_after, fz_out_buf(c->out_len), c->out_len);
    return false;
}
/* ---------------------------------------------------------------- exports */
/* one export of fn from module, by version: a disagreement and a row for cases/exports.c */
static void compare_export(FILE *f, int *ndis, enum etw_fn fn, const char *module)
{
    const char *name = etw_fn_name(fn);
    bool has[2][FZ_NV], differ_any = false; /* [SIDE_T or SIDE_O][version] */
    for (int i = 0; i < FZ_NV; i++) {
        for (int k = 0; k < 2; k++) {
            fz.side[k].t->set_version(fz_versions[i], 0);
            has[k][i] = fz.side[k].t->proc(module, name) != NULL;
        }
        differ_any |= has[SIDE_T][i] != has[SIDE_O][i];
    }
    if (!differ_any)
        return;
    enum etw_rule_id rule = etw_fn_export_rule(fn);
    fprintf(f, "\nDISAGREEMENT %d: %s!%s is exported at:", ++*ndis, module, name);
    for (int k = 0; k < 2; k++) {
        fprintf(f, k ? "\n  reference:" : "\n  target:   ");
        for (int i = 0; i < FZ_NV; i++)
            if (has[k][i])
                fprintf(f, " %s", etw_version_name(fz_versions[i]));
    }
    fprintf(f, "\n  rule: %s\n  case row (append to cases/exports.c):\n", etw_rule_name(rule));
    char id[96], title[160];
    snprintf(id, sizeof id, "fuzz.exp.%s.%s", module, name);
    snprintf(title, sizeof title, "found by etwconf fuzz: %s!%s by version", module, name);
    struct etw_case row = {.file = "(etwconf fuzz)", .id = id, .rules = {rule}, .title = title,
                           .fn = FN_EXPORT, .args = {.module = module, .export_name = name}};
    const bool *o_has = has[SIDE_O];
    for (int i = 0, j = 0, k = 0; i < FZ_NV && k < ETW_MAX_EXPECT; i = j = j + 1, k++) {
        while (j + 1 < FZ_NV && o_has[j + 1] == o_has[i])
            j++;
        row.expect[k] = (struct etw_expect){.vmin = ETW_VLO(fz_versions[i]),
                                            .vmax = ETW_VHI(fz_versions[j]),
                                            .kind = o_has[i] ? XK_PRESENT : XK_ABSENT};
    }
    etw_row_print(f, &row, "    ");
}

void fz_compare_exports(FILE *f, int *ndis, int max)
{
    if (!fz.side[SIDE_T].t->proc || !fz.emulate_all)
        return;
    for (int k = 0; k < FZ_NFNS; k++)
        for (int i = 0; etw_fn_module(fz_fns[k], i) && *ndis < max; i++)
            compare_export(f, ndis, fz_fns[k], etw_fn_module(fz_fns[k], i));
    fz.side[SIDE_T].cur_version = fz.side[SIDE_O].cur_version = 0;
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
    bool stale = false;
    for (int i = 0; i < p->ncalls; i++)
        stale |= p->calls[i].h == H_REG_STALE;
    void **fns = s->fn[fz_vindex(s->cur_version)];
    enum etw_fx r = etw_fixture_setup(t, fns, &p->fx, stale, &s->fx, why, len);
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
        etw_u64 ptr = c->traits_ptr ? (etw_u64)(uintptr_t)fz_aux_buf(c->aux_len) : 0;
        memcpy(buf + 8, &ptr, 8);
    }
}

/* a returned handle as tok_name() names it: untouched, 0, the handle given, or another value */
static etw_u32 token_of_handle(etw_u64 v, etw_u64 given)
{
    if (v == ETW_SENTINEL32 || v == 0xDEADBEEFDEADBEEFull || v == 0xEFBEADDEEFBEADDEull)
        return 1;
    return !v ? 2 : v == given ? 3 : 4;
}

static void run_call(struct fz_side *s, const struct fz_call *c, struct fz_out *o)
{
    int vi = fz_vindex(s->cur_version);
    void *fnp = c->fn < FN_COUNT ? s->fn[vi][c->fn] : NULL; /* FZ_ENABLE_GROUP: a control function */
    etw_u64 h = fz_handle_of(s, c);
    etw_u8 *buf = c->buf_null ? NULL : fz_in_buf(c->len);
    etw_u8 *out = NULL;
    etw_u32 *rl = c->retlen_null ? NULL : fz_rl_ptr();
    if (buf)
        fz_prepare(buf, c, h);
    if (c->fn == FN_NTC && !c->out_null) {
        out = fz_out_buf(c->out_len);
        refill(out, c->out_len);
    }
    if (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS && c->aux_len) {
        etw_u8 *a = fz_aux_buf(c->aux_len);
        refill(a, c->aux_len);
        memcpy(a, c->aux, c->aux_len);
    }
    *fz_rl_ptr() = ETW_SENTINEL32;
    o->ntok = 0;
    o->le = 0;
    if (c->fail_alloc && s->t->fail_alloc)
        s->t->fail_alloc((unsigned)c->fail_alloc);
    switch (c->fn) {
    case FN_ETWCTI:
    case FN_CTI: {
        /* as a row's call, with the last error set before and read after it */
        etw_pfn_GetLastError gle = (etw_pfn_GetLastError)s->fn[vi][FN_GETLASTERROR];
        if (s->fn[vi][FN_SETLASTERROR])
            ((etw_pfn_SetLastError)s->fn[vi][FN_SETLASTERROR])(0xE7E7E7E7u);
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
            regs = (ETW_TRACE_GUID_REGISTRATION *)(void *)fz_aux_buf((size_t)n * sizeof *regs);
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
        for (etw_u32 i = 0, j; regs && i < n && i < 16; i++) {
            for (j = 0; regs[i].RegHandle && regs[j].RegHandle != regs[i].RegHandle; j++)
                continue; /* j: the first entry with this handle (i if none before it) */
            o->tok[o->ntok++] = regs[i].RegHandle ? 100 + j : 0;
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
    default: /* a function a data row calls */
        if (!etw_call_invoke(c->fn, fnp, h, c->cls, buf, c->len, out, c->out_len, rl, &o->rc))
            o->rc = 0xFFFFFFFFu;
        break;
    }
    if (c->fail_alloc && s->t->fail_alloc)
        s->t->fail_alloc(0);
    o->rl = *fz_rl_ptr();
    o->pre_in = buf ? pre_intact(buf) : true;
    o->pre_out = out ? pre_intact(out) : true;
    size_t aux = sizeof(ETW_TRACE_GUID_REGISTRATION) * c->count;
    o->pre_aux = c->fn == FN_REGISTERTRACEGUIDS && !(c->nulls & N_REGS) && c->count
                     ? pre_intact(fz_aux_buf(aux)) : true;
}

/* ---------------------------------------------------------------- running a program on both sides */
static void run_body(struct etw_ctx *unused)
{
    (void)unused;
    const struct fz_prog *p = fz.prog;
    struct fz_side *T = &fz.side[SIDE_T], *O = &fz.side[SIDE_O];
    bool both = !fz.oracle_only;
    /* the program has --timeout-ms on both sides (a clock read per call would cost a tenth of the
     * fuzzer's speed), and no time past the run's end */
    uint64_t now = plat_now_us(), ms = fz.timeout_ms;
    if (fz.end_us && fz.end_us < now + ms * 1000u)
        ms = fz.end_us > now ? (fz.end_us - now + 999) / 1000 : 1;
    plat_deadline_ms((unsigned)ms);
    /* a program that sets nothing up and only reads leaves the state as it found it */
    static const struct etw_fixture none;
    bool pure = !memcmp(&p->fx, &none, sizeof none) && !p->restrict_group;
    for (int i = 0; i < fz.upto && i < p->ncalls && pure; i++) {
        enum etw_fn fn = p->calls[i].fn;
        pure = (fn == FN_TQI || fn == FN_NTQSI || fn == FN_NTQIP) && !p->calls[i].fail_alloc;
    }
    fz.cur_call = -1;
    for (int k = both ? 0 : 1; k < 2; k++) {
        struct fz_side *s = &fz.side[k];
        fz.cur_side = k;
        if (s->t->set_version && s->cur_version != p->version)
            s->t->set_version(p->version, 0);
        s->cur_version = p->version;
        if (fz.control && s->dirty)
            s->t->reset();
        s->dirty = fz.control && !pure;
        char why[200] = "";
        if (!set_fixture(s, p, why, sizeof why)) {
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
        if (both) {
            fz.cur_side = SIDE_T;
            run_call(T, c, &to);
            if (snapped(c))
                memcpy(fz.t_after, fz_in_buf(c->len), c->len);
            if (c->fn == FN_NTC && !c->out_null)
                memcpy(fz.t_out_after, fz_out_buf(c->out_len), c->out_len);
            if (snapped(c) && patched(c)) {
                fz_prepare(fz.t_before + ETW_PRE_ZONE, c, fz_handle_of(T, c));
                fz_prepare(fz.o_before + ETW_PRE_ZONE, c, fz_handle_of(O, c));
            }
        }
        fz.cur_side = SIDE_O;
        run_call(O, c, &oo);
        fz.ref_out = oo;
        fz.last_ran = true;
        if (!both)
            continue;
        fz.calls++;
        if (fz_differ(c, &to, &oo, &fz.dis, i) || fz_differ_bytes(c, &fz.dis, i)) {
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

/* p (its first upto calls) is the program to run: nothing found yet */
static void begin(const struct fz_prog *p, int upto)
{
    fz.prog = p;
    fz.upto = upto;
    fz.found = false;
    fz.last_ran = false;
    memset(&fz.dis, 0, sizeof fz.dis);
    fz.dis.call = -3;
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
        begin(&batch_prog, batch_prog.ncalls);
        fz.prog_no = fz.next;
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
    begin(p, upto);
    int k = etw_guarded_call(&fz.ctx, run_body, exc, sizeof exc, &off);
    if (k)
        fz_fault_dis(k, exc, off);
    return fz.found;
}

/* a fault ended the call fz.cur_call of side fz.cur_side: record it as the disagreement (a
 * program out of time ends the run) */
void fz_fault_dis(int k, const char *exc, long off)
{
    if (k == PLAT_TIMEOUT)
        fz.on_hang(NULL);
    const char *who = fz.cur_side == SIDE_T ? "target" : "reference";
    char what[80];
    fz.side[SIDE_T].dirty = fz.side[SIDE_O].dirty = true;
    fz.found = true;
    fz.dis.call = fz.cur_call;
    fz.dis.aspect = k == 1 ? FA_BOUNDS : FA_FAULT;
    if (k == 1)
        snprintf(what, sizeof what, "accessed the guard page %ld byte(s) past the end of a buffer", off + 1);
    else
        snprintf(what, sizeof what, "crashed with %s", exc);
    snprintf(fz.dis.detail, sizeof fz.dis.detail, "the %s %s%s%s", who, what, fz.cur_call < 0 ? " (during the fixture)" : "",
             fz.cur_side == SIDE_O ? " [a bug of the reference: please report it]" : "");
}
