/*
 * harness/core/run.c - one case against a target: the expectation for the version, then under the
 * platform's guard its needs, fixture, the row's call and checks (or the custom body), teardown.
 */
#include "harness/core/core.h"
#include <stdlib.h>
#include <string.h>

unsigned etw_runner_key(const struct etw_runner *r)
{
    const struct etw_version_info *e = etw_version_info(r->version);
    if (!r->t->emulates && r->t->build) /* a live system: the build (and update) it reports */
        return ETW_VKEY(ETW_VNT(r->version), r->t->build, r->t->update);
    return e ? e->key : ETW_VLO(r->version);
}

/* ---------------------------------------------------------------- needs, fixture and call (harness/core/needs.c, fixture.c, call.c, expect.c) */
/* after the case's function is resolved (a missing export is the target's failure, whatever the
 * case needs) and before anything is set up */
static bool needs_met(struct etw_ctx *ctx)
{
    char why[256];
    if (!etw_needs_check(ctx->t, etw_case_needs(ctx->c), why, sizeof why))
        return true;
    etw_skip(ctx, "%s", why);
    return false;
}

static bool fixture_setup(struct etw_ctx *ctx)
{
    char why[256] = "";
    const struct etw_case *c = ctx->c;
    switch (etw_fixture_setup(ctx->t, NULL, &c->fx, c->args.handle == H_REG_STALE, &ctx->fixture, why, sizeof why)) {
    case ETW_FX_OK: return true;
    case ETW_FX_SKIP: etw_skip(ctx, "%s", why); break;
    case ETW_FX_BROKEN: etw_broken(ctx, "%s", why); break;
    case ETW_FX_MISSING: etw_api(ctx, ctx->fixture.missing); break; /* records the missing export */
    }
    return false;
}

/* the row's buffers are the case's guarded buffers: released after the case, even after a crash */
static struct etw_guard *case_guard(void *arg, size_t len)
{
    struct etw_ctx *ctx = arg;
    return etw_guarded(ctx, len) ? ctx->guards[ctx->nguards - 1] : NULL; /* the one it added */
}

/* a guarded buffer of len bytes holding from (len_from bytes) and, after them, `room` bytes of its
 * sentinel fill, kept in slack (room bytes) to compare after the call */
static etw_u8 *roomy(struct etw_ctx *ctx, const etw_u8 *from, size_t len, size_t room, etw_u8 *slack)
{
    struct etw_guard *g = case_guard(ctx, len + room);
    if (!g)
        return NULL;
    memcpy(g->buf, from, len);
    memcpy(slack, g->buf + len, room);
    return g->buf;
}

/* the system returned the code of a refused access (etw_kernel_refused_overrun): the same call
 * again with room after its buffers, the guard pages out of reach. When it then returns another
 * code, or writes into the room, the guard page was what the system refused; got says what the
 * second call did. False when the refusal stays: it was not about the buffer's end. */
static bool overrun_confirmed(struct etw_ctx *ctx, void *fnp, const struct etw_outcome *o, char *got, size_t len)
{
    enum { ROOM = 256 };
    const struct etw_case *c = ctx->c;
    static etw_u8 slack[ROOM], out_slack[ROOM];
    etw_u8 *buf = o->buf ? roomy(ctx, o->before, o->len, ROOM, slack) : NULL;
    etw_u8 *out = o->out ? roomy(ctx, o->out_before, o->out_len, ROOM, out_slack) : NULL;
    if ((o->buf && !buf) || (o->out && !out))
        return false;
    etw_u32 rc = 0, rl = ETW_SENTINEL32;
    etw_u64 h = etw_call_handle(ctx->t, &ctx->fixture, c->args.handle, c->args.value);
    etw_call_invoke(c->fn, fnp, h, c->args.cls, buf, (etw_u32)o->len, out, (etw_u32)o->out_len, o->retlen_passed ? &rl : NULL, &rc);
    size_t past = 0;
    for (size_t i = 0; i < ROOM; i++)
        if ((buf && buf[o->len + i] != slack[i]) || (out && out[o->out_len + i] != out_slack[i]))
            past = i + 1;
    if (rc == o->rc && !past)
        return false;
    char code[64];
    etw_format_code(code, sizeof code, rc, etw_fn_returns_ntstatus(c->fn));
    if (past)
        snprintf(got, len, "an access past the end; with room after the buffer the call wrote %zu byte(s) past it", past);
    else
        snprintf(got, len, "an access past the end; with room after the buffer the call returned %s", code);
    return true;
}

/* the case accessed past the end of a guarded buffer: a failed GEN.BUFFER_BOUNDS check (got: what
 * was seen), mode "overrun", the message saying how it was caught */
static void record_overrun(struct etw_ctx *ctx, const char *got, const char *how)
{
    etw_check_row(ctx, RID_GEN_BUFFER_BOUNDS, A_BOUNDS, "bounds: nothing written past the buffer", false, "no write past the buffer", got);
    ctx->res->mode = "overrun";
    snprintf(ctx->res->message, sizeof ctx->res->message, "wrote past the end of a %s buffer: %s [GEN.BUFFER_BOUNDS]", etw_fn_name(ctx->c->fn),
             how);
}

static void call_and_check(struct etw_ctx *ctx, void *fnp)
{
    const struct etw_case *c = ctx->c;
    struct etw_outcome o;
    char why[256] = "", got[160], how[192], code[64];
    if (!etw_call(ctx->t, &ctx->fixture, &c->fx, c->fn, fnp, &c->args, case_guard, ctx, &o, why, sizeof why)) {
        etw_broken(ctx, "%s", why);
    } else if (etw_kernel_refused_overrun(c->fn, &o, ctx->x) && overrun_confirmed(ctx, fnp, &o, got, sizeof got)) {
        /* the same verdict as a guard page hit in user mode (etw_run_case) */
        etw_format_code(code, sizeof code, o.rc, etw_fn_returns_ntstatus(c->fn));
        snprintf(how, sizeof how, "the system refused the access to the guard page right after it (the call returned %s) in", code);
        record_overrun(ctx, got, how);
    } else {
        etw_expect_call(ctx, ctx->x, c->fn, &o);
    }
    etw_outcome_free(&o);
}

void etw_result_unfinished(struct etw_result *res, const struct etw_case *c, enum etw_phase p, unsigned budget_ms, const char *how)
{
    if (p == ETW_PHASE_FIXTURE) {
        memset(res, 0, sizeof *res);
        res->c = c;
        res->status = R_BROKEN;
        res->mode = "fixture-timeout"; /* not recorded for BROKEN: the runner reads it (the process may be damaged) */
        snprintf(res->reason, sizeof res->reason, "fixture: the case's fixture did not finish within its budget of %u ms%s%s", budget_ms,
                 how && how[0] ? "; " : "", how ? how : "");
        return;
    }
    etw_result_abnormal(res, c, R_TIMEOUT, "timeout", NULL);
    snprintf(res->message, sizeof res->message, "the target did not return within %u ms%s%s", budget_ms, how && how[0] ? "; " : "",
             how ? how : "");
}

/* the body run under the platform guard: fixture setup, the call or .run, checks */
static void case_body(struct etw_ctx *ctx)
{
    struct etw_target *t = ctx->t;
    const struct etw_case *c = ctx->c;
    etw_phase(ctx, ETW_PHASE_FIXTURE); /* the reset, the needs and the setup; the call below gets the call's budget */
    if (t->reset)
        t->reset();
    if (t->emulates && t->set_version && t->set_version(ctx->version, ETW_VIS_NT(ctx->version) ? t->build : 0) != 0) {
        etw_broken(ctx, "the target cannot emulate version %s", etw_version_name(ctx->version));
        return;
    }
    if (c->fn == FN_EXPORT) {
        etw_phase(ctx, ETW_PHASE_CALL);
        if (needs_met(ctx))
            etw_expect_export(ctx, ctx->x, &c->args);
        return;
    }
    void *fnp = NULL;
    if (c->fn != FN_CUSTOM && !(fnp = etw_api(ctx, c->fn)))
        return;
    if (!needs_met(ctx) || !fixture_setup(ctx))
        return;
    etw_phase(ctx, ETW_PHASE_CALL);
    if (c->fn == FN_CUSTOM)
        c->run(ctx);
    else
        call_and_check(ctx, fnp);
}

static void teardown_body(struct etw_ctx *ctx)
{
    etw_phase(ctx, ETW_PHASE_FIXTURE);
    etw_fixture_teardown(ctx->t, &ctx->fixture);
}

void etw_run_case(struct etw_runner *r, const struct etw_case *c, struct etw_result *res)
{
    memset(res, 0, sizeof *res);
    res->c = c;
    res->status = R_PASS;
    struct etw_ctx ctx = {.r = r, .t = r->t, .c = c, .res = res, .version = r->version};
    unsigned key = etw_runner_key(r);
    const struct etw_expect *x = NULL; /* the first expectation whose range holds key */
    for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin && !x; k++)
        if (key >= c->expect[k].vmin && key <= c->expect[k].vmax)
            x = &c->expect[k];
    char here[32];
    etw_version_key_name(key, here, sizeof here);
    if (!x) {
        char ranges[160] = "", lo[32], hi[32];
        size_t o = 0;
        for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin && o < sizeof ranges - 48; k++) {
            etw_version_bound_name(c->expect[k].vmin, false, lo, sizeof lo);
            etw_version_bound_name(c->expect[k].vmax, true, hi, sizeof hi);
            o += (size_t)snprintf(ranges + o, sizeof ranges - o, "%s%s-%s", k ? ", " : "", lo, hi);
        }
        res->status = R_SKIP;
        snprintf(res->reason, sizeof res->reason, "does not apply to %s (the case covers %s)", here, ranges);
    } else if (x->kind == XK_SKIP && x->why == etw_why_unknown) {
        res->status = R_SKIP; /* a build-dependent fact no source states for this build */
        snprintf(res->reason, sizeof res->reason, "unknown for %s", here);
    } else if (x->kind == XK_SKIP) {
        res->status = R_SKIP;
        snprintf(res->reason, sizeof res->reason, "%s", x->why ? x->why : "not applicable");
    } else {
        ctx.x = x;
        char exc[48] = "";
        long off = 0;
        uint64_t t0 = plat_now_us();
        int k = etw_guarded_call(&ctx, case_body, exc, sizeof exc, &off);
        res->duration_us = plat_now_us() - t0;
        if (k == 1) {
            char got[64], how[96];
            snprintf(got, sizeof got, "a write %ld byte(s) past the end", off + 1);
            snprintf(how, sizeof how, "the guard page right after it was hit %ld byte(s) in", off);
            record_overrun(&ctx, got, how);
        } else if (k == 2) {
            etw_result_abnormal(res, c, R_CRASH, exc, NULL);
        } else if (k == 3) {
            enum etw_phase p = (enum etw_phase)r->phase_now;
            etw_result_unfinished(res, c, p, etw_phase_budget_ms(r, p), p == ETW_PHASE_FIXTURE ? "it was interrupted" : NULL);
        }
        if (k == 0 || k == 1) {
            char exc2[48] = "";
            int k2 = etw_guarded_call(&ctx, teardown_body, exc2, sizeof exc2, &off);
            if (k2 == 2 && res->status != R_CRASH)
                etw_result_abnormal(res, c, R_CRASH, exc2, "during fixture teardown");
            else if (k2 == 3) /* the teardown's own budget passed: what the case saw stands on a fixture that did not finish */
                etw_result_unfinished(res, c, ETW_PHASE_FIXTURE, etw_phase_budget_ms(r, ETW_PHASE_FIXTURE), "the teardown was interrupted");
        }
        r->phase_now = ETW_PHASE_CALL;
    }
    for (int i = 0; i < ctx.nguards; i++) {
        etw_guard_free(ctx.guards[i]);
        free(ctx.guards[i]);
    }
    etw_result_finish(res);
}

void etw_result_abnormal(struct etw_result *res, const struct etw_case *c, enum etw_status_kind st,
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
}

void etw_result_finish(struct etw_result *res)
{
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
