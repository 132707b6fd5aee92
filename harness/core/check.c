/*
 * harness/core/check.c - the check API (harness/check.h): every check, of a row or of a custom
 * body, lands here with its rule, its aspect and its place, and becomes a record of the result.
 */
#include "harness/core/core.h"
#include <stdarg.h>
#include <stdlib.h>

const char *etw_aspect_mode(enum etw_aspect a)
{
    static const char *const modes[] = {
#define ETW_ASPECT_MODE(sym, mode) mode,
        ETW_ASPECTS(ETW_ASPECT_MODE)
#undef ETW_ASPECT_MODE
    };
    return (unsigned)a < sizeof modes / sizeof modes[0] ? modes[a] : "state";
}

static void add_check(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp, const char *what,
                      bool ok, const char *expected, const char *got)
{
    struct etw_result *res = c->res;
    if (rule == RID_PRIMARY)
        rule = etw_case_rule(c->c, 0);
    if (!etw_rule_get(rule)) { /* a row without rules, or a value outside the catalogue */
        etw_broken(c, "suite: the check \"%s\" cites no rule of the catalogue (%d)", what, (int)rule);
        return;
    }
    if (!ok && !res->message[0])
        snprintf(res->message, sizeof res->message, "%s: expected %s, got %s [%s]", what, expected, got, etw_rule_name(rule));
    if (res->nchecks >= ETW_MAX_CHECKS) {
        if (!ok) /* keep failures: overwrite the last passing slot */
            res->nchecks = ETW_MAX_CHECKS - 1;
        else
            return;
    }
    struct etw_check_rec *k = &res->checks[res->nchecks++];
    snprintf(k->what, sizeof k->what, "%s", what);
    k->rule = rule;
    k->aspect = asp;
    k->file = file;
    k->line = file ? line : c->c->line;
    k->ok = ok;
    snprintf(k->expected, sizeof k->expected, "%s", expected);
    snprintf(k->got, sizeof k->got, "%s", got);
}

bool etw_check_row(struct etw_ctx *c, enum etw_rule_id rule, enum etw_aspect asp, const char *what, bool ok, const char *expected,
                   const char *got)
{
    add_check(c, NULL, 0, rule, asp, what, ok, expected, got);
    return ok;
}

bool etw_check_at(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp, const char *what,
                  bool ok, const char *expected, const char *got_fmt, ...)
{
    char got[112];
    va_list ap;
    va_start(ap, got_fmt);
    vsnprintf(got, sizeof got, got_fmt, ap);
    va_end(ap);
    add_check(c, file, line, rule, asp, what, ok, expected, got);
    return ok;
}

bool etw_check_u32_at(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp,
                      const char *what, etw_u32 expected, etw_u32 got)
{
    char e[32], g[32];
    snprintf(e, sizeof e, "%u (0x%X)", expected, expected);
    snprintf(g, sizeof g, "%u (0x%X)", got, got);
    add_check(c, file, line, rule, asp, what, expected == got, e, g);
    return expected == got;
}

bool etw_check_code_at(struct etw_ctx *c, const char *file, int line, enum etw_rule_id rule, enum etw_aspect asp,
                       const char *what, etw_u32 expected, etw_u32 got, bool nt)
{
    char e[64], g[64];
    etw_format_code(e, sizeof e, expected, nt);
    etw_format_code(g, sizeof g, got, nt);
    add_check(c, file, line, rule, asp, what, expected == got, e, g);
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
    if (!g || !etw_guard_alloc(g, len)) {
        free(g);
        etw_broken(c, "could not map a guarded buffer of %zu bytes", len);
        return NULL;
    }
    c->guards[c->nguards++] = g;
    return g->buf;
}

void *etw_api(struct etw_ctx *c, enum etw_fn fn)
{
    const char *where = NULL;
    void *p = etw_resolve(c->t, fn, &where);
    if (p || c->stop)
        return p;
    enum etw_rule_id rule = etw_fn_export_rule(fn);
    if (!rule) {
        etw_skip(c, "the target does not export %s, which this case needs", where);
        return NULL;
    }
    char e[112];
    snprintf(e, sizeof e, "%s exported", where);
    etw_check_row(c, rule, A_EXPORT, "export", false, e, "missing");
    snprintf(c->res->message, sizeof c->res->message, "%s is not exported, but %s says it is there at %s [%s]", where,
             etw_rule_name(rule), etw_version_name(c->version), etw_rule_name(rule));
    c->res->mode = "missing-export";
    c->stop = true;
    return NULL;
}

bool etw_start_logger(struct etw_ctx *c, enum etw_logger_kind kind, const etw_u32 masks[8], etw_tracehandle *h)
{
    char why[256];
    if (etw_needs_check(c->t, etw_logger_needs(kind, masks), why, sizeof why)) {
        etw_skip(c, "%s", why);
        return false;
    }
    etw_phase(c, ETW_PHASE_FIXTURE);
    enum etw_fx fx = etw_fixture_logger(c->t, kind, masks, h, why, sizeof why);
    etw_phase(c, ETW_PHASE_CALL);
    switch (fx) {
    case ETW_FX_OK: return true;
    case ETW_FX_SKIP: etw_skip(c, "%s", why); break;
    default: etw_broken(c, "%s", why); break;
    }
    return false;
}

etw_u32 etw_enable_group(struct etw_ctx *c, etw_tracehandle session, const etw_guid *group, etw_u32 *enabled)
{
    etw_phase(c, ETW_PHASE_FIXTURE);
    etw_u32 rc = c->t->enable_group(session, group, enabled);
    etw_phase(c, ETW_PHASE_CALL);
    return rc;
}

enum etw_fx etw_event_traits(struct etw_ctx *c, etw_tracehandle session, const etw_guid *provider, etw_reghandle reg, etw_u8 *out,
                             etw_u32 cap, etw_u32 *size, const char **absent, char *why, size_t len)
{
    etw_phase(c, ETW_PHASE_FIXTURE);
    enum etw_fx fx = c->t->event_traits(c->t, session, provider, reg, out, cap, size, absent, why, len);
    etw_phase(c, ETW_PHASE_CALL);
    return fx;
}
