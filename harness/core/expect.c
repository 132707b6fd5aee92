/* harness/core/expect.c - a row's expectation (struct etw_expect) against what its call did
 * (struct etw_outcome), and FN_EXPORT rows; every check is recorded at the row (check.c). */
#include "harness/core/core.h"
#include <string.h>

static void hex(char *out, size_t cap, const etw_u8 *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 4 < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%02x", p[i]);
    if (o + 4 >= cap && cap > 4)
        memcpy(out + cap - 4, "...", 4);
}

/* the bytes [from, to) of buf must equal before: "must not write" */
static void check_untouched(struct etw_ctx *ctx, const char *what, enum etw_rule_id rule, const etw_u8 *buf, const etw_u8 *before,
                            size_t from, size_t to)
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

static void check_rc(struct etw_ctx *ctx, const struct etw_expect *x, enum etw_fn fn, etw_u32 rc)
{
    bool nt = etw_fn_returns_ntstatus(fn);
    if (x->fail_rule) { /* the refusal, whatever the code: an error status, or a Win32 error code (non-zero, 16 bits: an
                         * NTSTATUS returned untranslated is not one) */
        bool failed = nt ? (rc & 0x80000000u) != 0 : rc != 0 && rc <= 0xFFFFu;
        char g[64];
        etw_format_code(g, sizeof g, rc, nt);
        etw_check_row(ctx, x->fail_rule, A_RETURN, "return: the call fails", failed, nt ? "an error status" : "a Win32 error code", g);
    }
    if (x->rc_alt_ok && rc == x->rc_alt) { /* what some versions return: both are named */
        char e[64], g[64], both[136];
        etw_format_code(e, sizeof e, x->rc, nt);
        etw_format_code(g, sizeof g, rc, nt);
        snprintf(both, sizeof both, "%s or %s", e, g);
        etw_check_row(ctx, x->rc_rule, A_RETURN, "return", true, both, g);
    } else { /* file NULL: a check of the row, as etw_check_row */
        etw_check_code_at(ctx, NULL, 0, x->rc_rule, A_RETURN, "return", x->rc, rc, nt);
    }
}

static void check_retlen(struct etw_ctx *ctx, const struct etw_expect *x, const struct etw_outcome *o)
{
    if (!o->retlen_passed)
        return;
    if (x->rl == RL_EQ && !o->retlen_written) {
        etw_check_row(ctx, x->rl_rule, A_RETLEN, "return length", false, "",
                      "not written (still 0xDEADBEEF)");
    } else if (x->rl == RL_EQ) { /* file NULL: a check of the row, as etw_check_row */
        etw_check_u32_at(ctx, NULL, 0, x->rl_rule, A_RETLEN, "return length", x->rl_value,
                         o->retlen);
    } else if (x->rl == RL_UNTOUCHED) {
        char g[16];
        snprintf(g, sizeof g, "0x%08X", o->retlen);
        etw_check_row(ctx, x->rl_rule, A_RETLEN, "return length untouched", !o->retlen_written, "not written (0xDEADBEEF)", g);
    }
}

static void check_output(struct etw_ctx *ctx, const struct etw_expect *x, enum etw_fn fn, const struct etw_outcome *o)
{
    /* NtTraceControl answers in its output buffer; the others in their one buffer */
    const struct etw_guard *g = fn == FN_NTC ? o->out : o->buf;
    const etw_u8 *before = fn == FN_NTC ? o->out_before : o->before;
    size_t olen = fn == FN_NTC ? o->out_len : o->len;
    if (!g)
        return;
    const etw_u8 *ob = g->buf;
    if (x->out == OUT_BYTES || x->out == OUT_PREFIX) {
        size_t off = x->out_off < olen ? x->out_off : olen;
        size_t n = x->out_len < olen - off ? x->out_len : olen - off;
        bool ok = n == x->out_len && !memcmp(ob + off, x->out_bytes, n);
        char e[112], gg[112];
        hex(e, sizeof e, x->out_bytes, x->out_len);
        hex(gg, sizeof gg, ob + off, n);
        etw_check_row(ctx, x->out_rule, A_OUTPUT, "output", ok, e, gg);
        if (x->out == OUT_BYTES)
            check_untouched(ctx, "untouched after the output", x->out_rule, ob, before, off + n, olen);
    } else if (x->out == OUT_UNTOUCHED) {
        check_untouched(ctx, "untouched buffer", x->out_rule, ob, before, 0, olen);
    }
}

/* never a byte before the buffer (the guard page catches bytes after it) */
static void check_bounds(struct etw_ctx *ctx, const struct etw_guard *g)
{
    if (!g)
        return;
    bool ok = true;
    for (size_t k = 1; k <= ETW_PRE_ZONE && ok; k++)
        ok = g->buf[-(long)k] == etw_sentinel[(4 - k % 4) % 4]; /* buf[i] = sentinel[i mod 4] */
    etw_check_row(ctx, RID_GEN_BUFFER_BOUNDS, A_BOUNDS, "bounds: nothing written before the buffer", ok, "sentinel intact",
                  ok ? "sentinel intact" : "bytes before the buffer changed");
}

bool etw_kernel_refused_overrun(enum etw_fn fn, const struct etw_outcome *o, const struct etw_expect *x)
{
    bool guarded = (o->buf && o->len) || (o->out && o->out_len);
    etw_u32 refused = etw_fn_returns_ntstatus(fn) ? (etw_u32)ETW_STATUS_ACCESS_VIOLATION : ETW_ERROR_NOACCESS;
    return guarded && o->rc == refused && x->rc != refused && !(x->rc_alt_ok && x->rc_alt == refused);
}

void etw_expect_call(struct etw_ctx *ctx, const struct etw_expect *x, enum etw_fn fn, const struct etw_outcome *o)
{
    check_rc(ctx, x, fn, o->rc);
    check_retlen(ctx, x, o);
    check_output(ctx, x, fn, o);
    check_bounds(ctx, o->buf);
    check_bounds(ctx, o->out);
}

void etw_expect_export(struct etw_ctx *ctx, const struct etw_expect *x, const struct etw_args *a)
{
    struct etw_target *t = ctx->t;
    bool absent = x->kind == XK_ABSENT;
    char where[96], expected[112];
    snprintf(where, sizeof where, "%s!%s", a->module, a->export_name);
    snprintf(expected, sizeof expected, "%s%s exported", where, absent ? " not" : "");
    if (!t->proc && absent) {
        etw_skip(ctx, "the target has no per-version export model (no EtwRef_GetProcAddress): "
                      "cannot check that %s is absent", where);
        return;
    }
    void *p = t->proc ? t->proc(a->module, a->export_name) : t->sym(t, a->export_name);
    etw_check_row(ctx, RID_PRIMARY, A_EXPORT, "export", absent ? !p : p != NULL,
                  expected, p ? "exported" : absent ? "not exported" : "missing");
    if (absent && p)
        ctx->res->mode = "unexpected-export";
}
