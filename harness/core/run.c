/*
 * harness/core/run.c - runs one case against a target: picks the expectation for the version, sets up
 * the fixture, makes the call with sentinel-filled guarded buffers, checks every expectation and
 * tears the fixture down. Portable C; the platform layer supplies guard pages and isolation.
 */
#include "harness/etwconf.h"
#include <stdlib.h>
#include <string.h>

const etw_u8 etw_sentinel[4] = {0xDE, 0xAD, 0xBE, 0xEF};

void etw_sentinel_fill(etw_u8 *start, size_t n)
{
    etw_u8 block[64];
    for (int i = 0; i < 64; i++)
        block[i] = etw_sentinel[i & 3];
    for (; n >= sizeof block; start += sizeof block, n -= sizeof block)
        memcpy(start, block, sizeof block);
    memcpy(start, block, n);
}

static const struct etw_expect *pick(const struct etw_case *c, unsigned v)
{
    for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin; k++)
        if (v >= c->expect[k].vmin && v <= c->expect[k].vmax)
            return &c->expect[k];
    return NULL;
}

static struct etw_guard *guard_of(struct etw_ctx *c, const void *p)
{
    for (int i = 0; i < c->nguards; i++)
        if (c->guards[i]->buf == p)
            return c->guards[i];
    return NULL;
}

/* ---------------------------------------------------------------- fixture */
static etw_u32 ETW_WINAPI request_cb(etw_u32 code, void *ctx, etw_u32 *size, void *buf)
{
    (void)code, (void)ctx, (void)size, (void)buf;
    return 0;
}

static const etw_guid control_guid = {0xE7C0F000, 0x7E57, 0x4E7C, {0x9a, 0x11, 0x00, 0x00, 0xc0, 0xf0, 0x00, 0x01}};
static const etw_guid provider_guid = {0xE7C0F001, 0x7E57, 0x4E7C, {0x9a, 0x11, 0x00, 0x00, 0xc0, 0xf0, 0x00, 0x02}};

static bool fixture_setup(struct etw_ctx *ctx)
{
    const struct etw_fixture *fx = &ctx->c->fx;
    struct etw_target *t = ctx->t;
    if (fx->logger) {
        if (!etw_start_logger(ctx, fx->logger, fx->masks, &ctx->logger))
            return false;
        ctx->have_logger = true;
    }
    if (fx->logger2) {
        static const etw_u32 none[8];
        if (!etw_start_logger(ctx, fx->logger2, none, &ctx->logger2))
            return false;
        ctx->have_logger2 = true;
    }
    if (fx->ndisallow) {
        /* fixtures use the target's own API: a missing export is the target's failure */
        etw_pfn_TraceSetInformation tsi = (etw_pfn_TraceSetInformation)etw_api(ctx, FN_TSI);
        if (!tsi)
            return false;
        etw_u32 rc = tsi(ctx->logger, ETW_TraceSetDisallowList, (void *)fx->disallow, 16u * (etw_u32)fx->ndisallow);
        if (rc) {
            etw_broken(ctx, "fixture: TraceSetInformation(TraceSetDisallowList, %d GUIDs) returned %u", fx->ndisallow, rc);
            return false;
        }
    }
    if (fx->classes) {
        etw_pfn_RegisterTraceGuidsW rtg = (etw_pfn_RegisterTraceGuidsW)etw_api(ctx, FN_REGISTERTRACEGUIDS);
        if (!rtg)
            return false;
        int n = fx->classes > 4 ? 4 : fx->classes;
        for (int i = 0; i < n; i++) {
            ctx->reg_guids[i] = control_guid;
            ctx->reg_guids[i].Data4[7] = (etw_u8)(0x10 + i);
            ctx->regs[i].Guid = &ctx->reg_guids[i];
            ctx->regs[i].RegHandle = NULL;
        }
        etw_u32 rc = rtg(request_cb, NULL, &control_guid, (etw_u32)n, ctx->regs, NULL, NULL, &ctx->classic);
        if (rc) {
            etw_broken(ctx, "fixture: RegisterTraceGuidsW with %d classes returned %u", n, rc);
            return false;
        }
        ctx->have_classic = true;
        if (fx->foreign_pid) {
            if (!t->set_class_pid) {
                etw_skip(ctx, "needs a registration from another process: the target has no EtwRef_SetClassProcessId");
                return false;
            }
            t->set_class_pid(ctx->regs[0].RegHandle, 0x4242);
        }
        if (fx->set_counter) {
            if (!t->set_class_counter) {
                etw_skip(ctx, "needs to preset the class counter: the target has no EtwRef_SetClassCounter");
                return false;
            }
            t->set_class_counter(ctx->regs[0].RegHandle, fx->counter);
        }
    }
    if (fx->provider) {
        etw_pfn_EventRegister er = (etw_pfn_EventRegister)etw_api(ctx, FN_EVENTREGISTER);
        etw_pfn_EventUnregister eu = er ? (etw_pfn_EventUnregister)etw_api(ctx, FN_EVENTUNREGISTER) : NULL;
        if (!eu)
            return false;
        etw_u32 rc = er(&provider_guid, NULL, NULL, &ctx->reg);
        if (rc) {
            etw_broken(ctx, "fixture: EventRegister returned %u", rc);
            return false;
        }
        ctx->have_reg = true;
        if (ctx->c->args.handle == H_REG_STALE) {
            if ((rc = er(&provider_guid, NULL, NULL, &ctx->stale_reg)) || (rc = eu(ctx->stale_reg))) {
                etw_broken(ctx, "fixture: registering and unregistering a second provider failed with %u", rc);
                return false;
            }
        }
    }
    if (fx->profile_priv) {
        if (!t->set_privilege) {
            etw_skip(ctx, "needs SeSystemProfilePrivilege %s: the target has no EtwRef_SetPrivilege",
                     fx->profile_priv == PRIV_HELD ? "held" : "not held");
            return false;
        }
        char why[256] = "";
        enum etw_fx pf = t->set_privilege(t, 1, fx->profile_priv == PRIV_HELD, why, sizeof why);
        if (pf != ETW_FX_OK && why[0]) { /* a target without a reason keeps going, as before */
            if (pf == ETW_FX_SKIP)
                etw_skip(ctx, "%s", why);
            else
                etw_broken(ctx, "%s", why);
            return false;
        }
    }
    if (fx->fail_alloc && !t->fail_alloc) {
        etw_skip(ctx, "needs allocation fault injection: the target has no EtwRef_FailAllocation");
        return false;
    }
    return true;
}

static void fixture_teardown(struct etw_ctx *ctx)
{
    struct etw_target *t = ctx->t;
    if (t->fail_alloc)
        t->fail_alloc(0);
    if (ctx->have_reg) {
        etw_pfn_EventUnregister eu = (etw_pfn_EventUnregister)etw_resolve(t, FN_EVENTUNREGISTER, NULL);
        if (eu)
            eu(ctx->reg);
        ctx->have_reg = false;
    }
    if (ctx->have_classic) {
        etw_pfn_UnregisterTraceGuids ug = (etw_pfn_UnregisterTraceGuids)etw_resolve(t, FN_UNREGISTERTRACEGUIDS, NULL);
        if (ug)
            ug(ctx->classic);
        ctx->have_classic = false;
    }
    if (ctx->have_logger2 && t->stop_logger)
        t->stop_logger(ctx->logger2);
    if (ctx->have_logger && t->stop_logger)
        t->stop_logger(ctx->logger);
    ctx->have_logger = ctx->have_logger2 = false;
}

/* ---------------------------------------------------------------- the call */
static etw_u64 handle_value(struct etw_ctx *ctx)
{
    const struct etw_args *a = &ctx->c->args;
    switch (a->handle) {
    case H_ZERO: return 0;
    case H_LOGGER: return ctx->logger;
    case H_LOGGER_HIGH: return ctx->logger | a->value;
    case H_LOGGER2: return ctx->logger2;
    case H_MISSING: return ctx->t->missing_logger ? ctx->t->missing_logger() : 0x3E;
    case H_VALUE: return a->value;
    case H_REG: return ctx->reg;
    case H_REG_STALE: return ctx->stale_reg;
    case H_CLASS: return (etw_u64)(uintptr_t)ctx->regs[a->value < 4 ? a->value : 0].RegHandle;
    }
    return 0;
}

/* the exact size of the class, for EXACT(d) lengths */
static int natural_size(const struct etw_case *c)
{
    const struct etw_args *a = &c->args;
    etw_u32 k = 0;
    switch (c->fn) {
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

static void hex(char *out, size_t cap, const etw_u8 *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 4 < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%02x", p[i]);
    if (o + 4 >= cap && cap > 4)
        memcpy(out + cap - 4, "...", 4);
}

/* the bytes [from, to) of buf must equal before: "must not write" */
static void check_untouched(struct etw_ctx *ctx, const char *what, enum etw_rule_id rule, const etw_u8 *buf, const etw_u8 *before, size_t from,
                            size_t to)
{
    for (size_t i = from; i < to; i++)
        if (buf[i] != before[i]) {
            size_t n = to - i < 16 ? to - i : 16;
            char e[40], g[40], e2[112], g2[112];
            hex(e, sizeof e, before + i, n);
            hex(g, sizeof g, buf + i, n);
            snprintf(e2, sizeof e2, "@+%zu %s (unchanged)", i, e);
            snprintf(g2, sizeof g2, "@+%zu %s", i, g);
            etw_check_row(ctx, rule, A_SENTINEL, what, false, e2, g2);
            return;
        }
    etw_check_row(ctx, rule, A_SENTINEL, what, true, "unchanged", "unchanged");
}

static void fill_buffer(struct etw_ctx *ctx, struct etw_guard *g, const etw_u8 *in, size_t in_len, etw_u64 h)
{
    const struct etw_args *a = &ctx->c->args;
    if (in_len > g->len)
        in_len = g->len;
    if (in_len)
        memcpy(g->buf, in, in_len);
    if (a->patch == PATCH_HANDLE64 && a->patch_off + 8 <= (int)g->len)
        memcpy(g->buf + a->patch_off, &h, 8);
    else if (a->patch == PATCH_LOGGER32 && a->patch_off + 4 <= (int)g->len) {
        etw_u32 id = (etw_u32)(h & 0xFFFF);
        memcpy(g->buf + a->patch_off, &id, 4);
    }
}

static void call_and_check(struct etw_ctx *ctx, void *fnp)
{
    const struct etw_case *c = ctx->c;
    const struct etw_args *a = &c->args;
    const struct etw_expect *x = ctx->x;
    int len = a->len + (a->len_rel ? natural_size(c) : 0);
    if (len < 0)
        len = 0;
    etw_u64 h = handle_value(ctx);
    etw_u8 *buf = NULL, *out = NULL, *before = NULL, *out_before = NULL;
    struct etw_guard *g = NULL, *og = NULL;
    if (a->buf == B_GUARDED) {
        if (!(buf = etw_guarded(ctx, (size_t)len)))
            return;
        g = guard_of(ctx, buf);
        fill_buffer(ctx, g, a->in, a->in_len, h);
        before = malloc((size_t)len + 1);
        if (!before) {
            etw_broken(ctx, "out of memory");
            return;
        }
        memcpy(before, buf, (size_t)len);
    }
    if (c->fn == FN_NTC && a->out_buf == B_GUARDED) {
        if (!(out = etw_guarded(ctx, (size_t)a->out_len))) {
            free(before);
            return;
        }
        og = guard_of(ctx, out);
        out_before = malloc((size_t)a->out_len + 1);
        if (!out_before) {
            free(before);
            etw_broken(ctx, "out of memory");
            return;
        }
        memcpy(out_before, out, (size_t)a->out_len);
    }
    etw_u32 retlen = ETW_SENTINEL32, *rlp = a->retlen_null ? NULL : &retlen;
    etw_u32 rc = 0;
    if (c->fx.fail_alloc)
        ctx->t->fail_alloc((unsigned)c->fx.fail_alloc);
    switch (c->fn) {
    case FN_TQI: rc = ((etw_pfn_TraceQueryInformation)fnp)(h, a->cls, buf, (etw_u32)len, rlp); break;
    case FN_TSI: rc = ((etw_pfn_TraceSetInformation)fnp)(h, a->cls, buf, (etw_u32)len); break;
    case FN_NTQSI: rc = (etw_u32)((etw_pfn_NtQuerySystemInformation)fnp)(a->cls, buf, (etw_u32)len, rlp); break;
    case FN_NTSSI: rc = (etw_u32)((etw_pfn_NtSetSystemInformation)fnp)(a->cls, buf, (etw_u32)len); break;
    case FN_NTC: rc = (etw_u32)((etw_pfn_NtTraceControl)fnp)(a->cls, buf, (etw_u32)len, out, (etw_u32)a->out_len, rlp); break;
    case FN_ETWCTI:
    case FN_CTI: rc = ((etw_pfn_CreateTraceInstanceId)fnp)((etw_handle)(uintptr_t)h, (ETW_EVENT_INSTANCE_INFO *)buf); break;
    case FN_ESI:
    case FN_ETWESI: rc = ((etw_pfn_EventSetInformation)fnp)(h, a->cls, buf, (etw_u32)len); break;
    case FN_NTQIP: rc = (etw_u32)((etw_pfn_NtQueryIntervalProfile)fnp)(a->cls, (etw_u32 *)buf); break;
    default: etw_broken(ctx, "suite: %s cannot be called from a data row; use .fn = FN_CUSTOM", etw_fn_name(c->fn)); goto done;
    }
    if (c->fx.fail_alloc)
        ctx->t->fail_alloc(0);

    bool nt = etw_fn_returns_ntstatus(c->fn);
    if (x->rc_alt_ok && rc == x->rc_alt) {
        char e[48], g2[48], both[112];
        etw_format_code(e, sizeof e, x->rc, nt);
        etw_format_code(g2, sizeof g2, x->rc_alt, nt);
        snprintf(both, sizeof both, "%s or %s", e, g2);
        etw_check_row(ctx, x->rc_rule, A_RETURN, "return", true, both, g2);
    } else {
        char e[64], g2[64];
        etw_format_code(e, sizeof e, x->rc, nt);
        etw_format_code(g2, sizeof g2, rc, nt);
        etw_check_row(ctx, x->rc_rule, A_RETURN, "return", rc == x->rc, e, g2);
    }
    if (rlp) {
        if (x->rl == RL_EQ) {
            if (retlen == ETW_SENTINEL32)
                etw_check_row(ctx, x->rl_rule, A_RETLEN, "return length", false, "", "not written (still 0xDEADBEEF)");
            else
            {
                char e[32], g2[32];
                snprintf(e, sizeof e, "%u (0x%X)", x->rl_value, x->rl_value);
                snprintf(g2, sizeof g2, "%u (0x%X)", retlen, retlen);
                etw_check_row(ctx, x->rl_rule, A_RETLEN, "return length", retlen == x->rl_value, e, g2);
            }
        } else if (x->rl == RL_UNTOUCHED) {
            char g2[16];
            snprintf(g2, sizeof g2, "0x%08X", retlen);
            etw_check_row(ctx, x->rl_rule, A_RETLEN, "return length untouched", retlen == ETW_SENTINEL32, "not written (0xDEADBEEF)", g2);
        }
    }
    etw_u8 *ob = c->fn == FN_NTC ? out : buf, *obefore = c->fn == FN_NTC ? out_before : before;
    size_t olen = c->fn == FN_NTC ? (size_t)a->out_len : (size_t)len;
    if (ob && (x->out == OUT_BYTES || x->out == OUT_PREFIX)) {
        size_t off = x->out_off < olen ? x->out_off : olen;
        size_t n = x->out_len < olen - off ? x->out_len : olen - off;
        bool ok = n == x->out_len && !memcmp(ob + off, x->out_bytes, n);
        char e[112], gg[112];
        hex(e, sizeof e, x->out_bytes, x->out_len);
        hex(gg, sizeof gg, ob + off, n);
        etw_check_row(ctx, x->out_rule, A_OUTPUT, "output", ok, e, gg);
        if (x->out == OUT_BYTES)
            check_untouched(ctx, "untouched after the output", x->out_rule, ob, obefore, off + n, olen);
    } else if (ob && x->out == OUT_UNTOUCHED) {
        check_untouched(ctx, "untouched buffer", x->out_rule, ob, obefore, 0, olen);
    }
    /* never a byte before the buffer (the guard page catches bytes after it) */
    struct etw_guard *gs[2] = {g, og};
    for (int i = 0; i < 2; i++) {
        if (!gs[i])
            continue;
        bool ok = true;
        for (size_t k = 1; k <= ETW_PRE_ZONE && ok; k++)
            ok = gs[i]->buf[-(long)k] == etw_sentinel[(4 - k % 4) % 4]; /* buf[i] = sentinel[i mod 4] */
        etw_check_row(ctx, RID_GEN_BUFFER_BOUNDS, A_BOUNDS, "bounds: nothing written before the buffer", ok, "sentinel intact",
                  ok ? "sentinel intact" : "bytes before the buffer changed");
    }
done:
    free(before);
    free(out_before);
}

static void export_check(struct etw_ctx *ctx)
{
    const struct etw_args *a = &ctx->c->args;
    struct etw_target *t = ctx->t;
    bool absent = ctx->x->kind == XK_ABSENT;
    char where[96], present[112], gone[112];
    snprintf(where, sizeof where, "%s!%s", a->module, a->export_name);
    snprintf(present, sizeof present, "%s exported", where);
    snprintf(gone, sizeof gone, "%s not exported", where);
    if (!t->proc) {
        if (absent) {
            etw_skip(ctx, "the target has no per-version export model (no EtwRef_GetProcAddress): cannot check that %s is absent",
                     where);
            return;
        }
        void *p = t->sym(t, a->export_name);
        etw_check_row(ctx, RID_PRIMARY, A_EXPORT, "export", p != NULL, present, p ? "exported" : "missing");
        return;
    }
    void *p = t->proc(a->module, a->export_name);
    if (absent) {
        etw_check_row(ctx, RID_PRIMARY, A_EXPORT, "export", p == NULL, gone, p ? "exported" : "not exported");
        if (p)
            ctx->res->mode = "unexpected-export";
    } else {
        etw_check_row(ctx, RID_PRIMARY, A_EXPORT, "export", p != NULL, present, p ? "exported" : "missing");
    }
}

void etw_case_body(struct etw_ctx *ctx)
{
    struct etw_target *t = ctx->t;
    const struct etw_case *c = ctx->c;
    if (t->reset)
        t->reset();
    if (t->emulates && t->set_version && t->set_version(ctx->version, 0) != 0) {
        etw_broken(ctx, "the target cannot emulate version %s", etw_version_name(ctx->version));
        return;
    }
    if (c->fn == FN_EXPORT) {
        export_check(ctx);
        return;
    }
    void *fnp = NULL;
    if (c->fn != FN_CUSTOM && !(fnp = etw_api(ctx, c->fn)))
        return;
    if (!fixture_setup(ctx))
        return;
    if (c->fn == FN_CUSTOM)
        c->run(ctx);
    else
        call_and_check(ctx, fnp);
}

static void teardown_body(struct etw_ctx *ctx)
{
    fixture_teardown(ctx);
}

void etw_run_case(struct etw_runner *r, const struct etw_case *c, struct etw_result *res)
{
    memset(res, 0, sizeof *res);
    res->c = c;
    res->status = R_PASS;
    struct etw_ctx ctx = {.r = r, .t = r->t, .c = c, .res = res, .version = r->version};
    const struct etw_expect *x = pick(c, r->version);
    char why[256] = "";
    if (!x) {
        char ranges[128] = "";
        size_t o = 0;
        for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin && o < sizeof ranges - 24; k++)
            o += (size_t)snprintf(ranges + o, sizeof ranges - o, "%s%s-%s", k ? ", " : "", etw_version_name(c->expect[k].vmin),
                                  etw_version_name(c->expect[k].vmax));
        res->status = R_SKIP;
        snprintf(res->reason, sizeof res->reason, "does not apply to %s (the case covers %s)", etw_version_name(r->version), ranges);
    } else if (x->kind == XK_SKIP) {
        res->status = R_SKIP;
        snprintf(res->reason, sizeof res->reason, "%s", x->why ? x->why : "not applicable");
    } else if (r->t->can_run && !r->t->can_run(r->t, c, why, sizeof why)) {
        res->status = R_SKIP;
        snprintf(res->reason, sizeof res->reason, "%s", why);
    } else {
        ctx.x = x;
        char exc[48] = "";
        long off = 0;
        uint64_t t0 = plat_now_us();
        int k = etw_guarded_call(&ctx, etw_case_body, exc, sizeof exc, &off);
        res->duration_us = plat_now_us() - t0;
        if (k == 1) {
            char got[64];
            snprintf(got, sizeof got, "a write %ld byte(s) past the end", off + 1);
            etw_check_row(&ctx, RID_GEN_BUFFER_BOUNDS, A_BOUNDS, "bounds: nothing written past the buffer", false,
                          "no write past the buffer", got);
            res->mode = "overrun";
            snprintf(res->message, sizeof res->message,
                     "wrote past the end of a %s buffer: the guard page right after it was hit %ld byte(s) in [GEN.BUFFER_BOUNDS]",
                     etw_fn_name(c->fn), off);
        } else if (k == 2 || k == 3) {
            etw_result_abnormal(res, c, r->version, k == 2 ? R_CRASH : R_TIMEOUT, exc, NULL);
        }
        if (k == 0 || k == 1) {
            char exc2[48] = "";
            int k2 = etw_guarded_call(&ctx, teardown_body, exc2, sizeof exc2, &off);
            if (k2 >= 2 && res->status != R_CRASH)
                etw_result_abnormal(res, c, r->version, k2 == 2 ? R_CRASH : R_TIMEOUT, exc2, "during fixture teardown");
        }
    }
    for (int i = 0; i < ctx.nguards; i++) {
        etw_guard_free(ctx.guards[i]);
        free(ctx.guards[i]);
    }
    etw_result_finish(res, r->version);
}

void etw_result_abnormal(struct etw_result *res, const struct etw_case *c, unsigned version, enum etw_status_kind st,
                         const char *exception, const char *message)
{
    res->c = c;
    res->status = st;
    snprintf(res->exception, sizeof res->exception, "%s", exception ? exception : "");
    if (st == R_TIMEOUT) {
        res->mode = "timeout";
        snprintf(res->message, sizeof res->message, "the target did not return in time%s%s", message ? ": " : "", message ? message : "");
    } else {
        res->mode = !strncmp(res->exception, "SIG", 3) ? "signal" : "exception";
        snprintf(res->message, sizeof res->message, "the target crashed with %s%s%s", res->exception[0] ? res->exception : "an unknown fault",
                 message ? " " : "", message ? message : "");
    }
    (void)version;
}

void etw_result_finish(struct etw_result *res, unsigned version)
{
    (void)version;
    const struct etw_case *c = res->c;
    if (res->status == R_CRASH || res->status == R_TIMEOUT) {
        res->counted = false;
        for (int k = 0; etw_case_rule(c, k); k++)
            res->counted |= etw_rule_counted(etw_rule_get(etw_case_rule(c, k)));
        return;
    }
    if (res->status == R_SKIP || res->status == R_BROKEN) {
        res->counted = false;
        return;
    }
    bool failed = false;
    for (int i = 0; i < res->nchecks; i++) {
        if (res->checks[i].ok)
            continue;
        if (!failed && !res->mode)
            res->mode = etw_aspect_mode(res->checks[i].aspect);
        failed = true;
        res->counted |= etw_rule_counted(etw_rule_get(res->checks[i].rule));
    }
    if (failed)
        res->status = R_FAIL;
    else if (res->nchecks == 0) {
        res->status = R_BROKEN; /* a case that checked nothing proves nothing */
        snprintf(res->reason, sizeof res->reason, "suite: the case made no check");
    }
}

const char *etw_status_name(enum etw_status_kind s)
{
    static const char *const n[] = {"PASS", "FAIL", "SKIP", "BROKEN", "CRASH", "TIMEOUT"};
    return s < R_COUNT ? n[s] : "?";
}
