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

static const char *primary_rule(const struct etw_case *c)
{
    static _Thread_local char buf[64];
    return etw_case_rule(c, 0, buf, sizeof buf) ? buf : "?";
}

/* ---------------------------------------------------------------- check API */
static void add_check(struct etw_ctx *c, const char *what, const char *rule, bool ok, const char *expected, const char *got)
{
    struct etw_result *res = c->res;
    if (!rule)
        rule = primary_rule(c->c);
    /* keep the rule string alive beyond the case: intern it through the catalogue */
    const struct etw_rule *r = etw_rule_find(rule);
    rule = r ? r->id : "?";
    if (!ok && !res->message[0])
        snprintf(res->message, sizeof res->message, "%s: expected %s, got %s [%s]", what, expected, got, rule);
    if (res->nchecks >= ETW_MAX_CHECKS) {
        if (!ok) /* keep failures: overwrite the last passing slot */
            res->nchecks = ETW_MAX_CHECKS - 1;
        else
            return;
    }
    struct etw_check_rec *k = &res->checks[res->nchecks++];
    snprintf(k->what, sizeof k->what, "%s", what);
    k->rule = rule;
    k->ok = ok;
    snprintf(k->expected, sizeof k->expected, "%s", expected);
    snprintf(k->got, sizeof k->got, "%s", got);
}

bool etw_check(struct etw_ctx *c, const char *what, const char *rule, bool ok, const char *expected, const char *got_fmt, ...)
{
    char got[112];
    va_list ap;
    va_start(ap, got_fmt);
    vsnprintf(got, sizeof got, got_fmt, ap);
    va_end(ap);
    add_check(c, what, rule, ok, expected, got);
    return ok;
}

bool etw_check_u32(struct etw_ctx *c, const char *what, const char *rule, etw_u32 expected, etw_u32 got)
{
    char e[32], g[32];
    snprintf(e, sizeof e, "%u (0x%X)", expected, expected);
    snprintf(g, sizeof g, "%u (0x%X)", got, got);
    add_check(c, what, rule, expected == got, e, g);
    return expected == got;
}

bool etw_check_code(struct etw_ctx *c, const char *what, const char *rule, etw_u32 expected, etw_u32 got, bool nt)
{
    char e[64], g[64];
    etw_format_code(e, sizeof e, expected, nt);
    etw_format_code(g, sizeof g, got, nt);
    add_check(c, what, rule, expected == got, e, g);
    return expected == got;
}

static void set_reason(struct etw_ctx *c, enum etw_status_kind st, const char *fmt, va_list ap)
{
    if (c->stop)
        return;
    c->stop = true;
    c->res->status = st;
    vsnprintf(c->res->reason, sizeof c->res->reason, fmt, ap);
}

void etw_skip(struct etw_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_reason(c, R_SKIP, fmt, ap);
    va_end(ap);
}

void etw_broken(struct etw_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_reason(c, R_BROKEN, fmt, ap);
    va_end(ap);
}

void *etw_guarded(struct etw_ctx *c, size_t len)
{
    if (c->nguards >= (int)(sizeof c->guards / sizeof c->guards[0])) {
        etw_broken(c, "suite: a case may use at most %d guarded buffers", (int)(sizeof c->guards / sizeof c->guards[0]));
        return NULL;
    }
    struct etw_guard *g = calloc(1, sizeof *g);
    if (!g || !plat_guard_alloc(g, len)) {
        free(g);
        etw_broken(c, "could not map a guarded buffer of %zu bytes", len);
        return NULL;
    }
    c->guards[c->nguards++] = g;
    return g->buf;
}

static struct etw_guard *guard_of(struct etw_ctx *c, const void *p)
{
    for (int i = 0; i < c->nguards; i++)
        if (c->guards[i]->buf == p)
            return c->guards[i];
    return NULL;
}

void *etw_api(struct etw_ctx *c, enum etw_fn fn)
{
    const char *where = NULL;
    void *p = etw_resolve(c->t, fn, &where);
    if (p || c->stop)
        return p;
    const char *rule = etw_fn_export_rule(fn);
    if (!rule) {
        etw_skip(c, "the target does not export %s, which this case needs", where);
        return NULL;
    }
    char e[112];
    snprintf(e, sizeof e, "%s exported", where);
    add_check(c, "export", rule, false, e, "missing");
    snprintf(c->res->message, sizeof c->res->message, "%s is not exported, but %s says it is there at %s [%s]", where, rule,
             etw_version_name(c->version), rule);
    c->res->mode = "missing-export";
    c->stop = true;
    return NULL;
}

bool etw_start_logger(struct etw_ctx *c, enum etw_logger_kind kind, const etw_u32 masks[8], etw_tracehandle *h)
{
    static const char *const kinds[] = {"", "NT Kernel Logger", "system-logger session", "plain session", "no-access session",
                                        "private session"};
    if (!c->t->start_logger) {
        etw_skip(c, "needs a %s, and the target has no EtwRef_StartLogger control function", kinds[kind]);
        return false;
    }
    if (c->t->start_logger((unsigned)kind, masks, h) != 0) {
        etw_broken(c, "fixture: could not start a %s", kinds[kind]);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- fixture and call (harness/core/fixture.c, call.c, expect.c) */
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
    void *p = etw_guarded(ctx, len);
    return p ? guard_of(ctx, p) : NULL;
}

static void call_and_check(struct etw_ctx *ctx, void *fnp)
{
    const struct etw_case *c = ctx->c;
    struct etw_outcome o;
    char why[256] = "";
    if (etw_call(ctx->t, &ctx->fixture, &c->fx, c->fn, fnp, &c->args, case_guard, ctx, &o, why, sizeof why))
        etw_expect_call(ctx, ctx->x, c->fn, &o);
    else
        etw_broken(ctx, "%s", why);
    etw_outcome_free(&o);
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
        etw_expect_export(ctx, ctx->x, &c->args);
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
    etw_fixture_teardown(ctx->t, &ctx->fixture);
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
        int k = plat_guarded_call(&ctx, etw_case_body, exc, sizeof exc, &off);
        res->duration_us = plat_now_us() - t0;
        if (k == 1) {
            char got[64];
            snprintf(got, sizeof got, "a write %ld byte(s) past the end", off + 1);
            add_check(&ctx, "bounds: nothing written past the buffer", "GEN.BUFFER_BOUNDS", false, "no write past the buffer", got);
            res->mode = "overrun";
            snprintf(res->message, sizeof res->message,
                     "wrote past the end of a %s buffer: the guard page right after it was hit %ld byte(s) in [GEN.BUFFER_BOUNDS]",
                     etw_fn_name(c->fn), off);
        } else if (k == 2 || k == 3) {
            etw_result_abnormal(res, c, r->version, k == 2 ? R_CRASH : R_TIMEOUT, exc, NULL);
        }
        if (k == 0 || k == 1) {
            char exc2[48] = "";
            int k2 = plat_guarded_call(&ctx, teardown_body, exc2, sizeof exc2, &off);
            if (k2 >= 2 && res->status != R_CRASH)
                etw_result_abnormal(res, c, r->version, k2 == 2 ? R_CRASH : R_TIMEOUT, exc2, "during fixture teardown");
        }
    }
    for (int i = 0; i < ctx.nguards; i++) {
        plat_guard_free(ctx.guards[i]);
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

static const char *mode_of(const char *what)
{
    if (!strncmp(what, "return length", 13))
        return "return-length";
    if (!strncmp(what, "return", 6))
        return "return";
    if (!strncmp(what, "output", 6))
        return "output";
    if (!strncmp(what, "untouched", 9))
        return "sentinel";
    if (!strncmp(what, "bounds", 6))
        return "overrun";
    if (!strcmp(what, "export"))
        return "missing-export";
    if (!strncmp(what, "last error", 10))
        return "last-error";
    return "state";
}

void etw_result_finish(struct etw_result *res, unsigned version)
{
    (void)version;
    const struct etw_case *c = res->c;
    if (res->status == R_CRASH || res->status == R_TIMEOUT) {
        char r[64];
        res->counted = false;
        for (int k = 0; etw_case_rule(c, k, r, sizeof r); k++)
            res->counted |= etw_rule_counted(etw_rule_find(r));
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
            res->mode = mode_of(res->checks[i].what);
        failed = true;
        res->counted |= etw_rule_counted(etw_rule_find(res->checks[i].rule));
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
