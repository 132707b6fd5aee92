/*
 * tools/fuzz/compare.c - comparing the two sides' outcomes of a call, and the exports by version.
 */
#include "tools/fuzz/fuzz.h"
#include <string.h>

bool fz_is_query(enum etw_fn fn)
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

bool fz_differ(const struct fz_call *c, const struct fz_out *t, const struct fz_out *o, struct fz_dis *d, int idx)
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
    if (c->fn == FZ_ENABLE_GROUP && t->tok[0] != o->tok[0]) {
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
    if ((c->fn == FN_ETWCTI || c->fn == FN_CTI) && t->le != o->le && fz.lasterr) {
        d->aspect = FA_LASTERR;
        snprintf(d->detail, sizeof d->detail, "last error: target %u (0x%X), reference %u (0x%X) (0xE7E7E7E7: left alone)", t->le, t->le,
                 o->le, o->le);
        return true;
    }
    return false;
}

/* after the oracle's call: compare its buffers with the target's snapshot */
bool fz_differ_bytes(const struct fz_call *c, const struct fz_out *o, struct fz_dis *d, int idx)
{
    size_t at = 0;
    d->call = idx;
    if (!c->buf_null && c->fn != FN_EVENTREGISTER && c->fn != FN_REGISTERTRACEGUIDS) {
        bool patched = c->patch != PATCH_NONE || (c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
        if (!same_bytes(fz.t_after, patched ? fz.t_before : NULL, fz_in_buf(c->len), patched ? fz.o_before : NULL, c->len, &at)) {
            char a[40], b[40];
            size_t n = c->len - at < 8 ? c->len - at : 8;
            hexs(a, sizeof a, fz.t_after + at, n);
            hexs(b, sizeof b, fz_in_buf(c->len) + at, n);
            d->aspect = fz_is_query(c->fn) && c->fn != FN_NTC ? FA_OUTPUT : FA_INPUT;
            snprintf(d->detail, sizeof d->detail, "%s at +%zu: target %s, reference %s (sentinel: deadbeef)",
                     d->aspect == FA_OUTPUT ? "output" : "input buffer written", at, a, b);
            return true;
        }
    }
    if (c->fn == FN_NTC && !c->out_null && !same_bytes(fz.t_out_after, NULL, fz_out_buf(c->out_len), NULL, c->out_len, &at)) {
        char a[40], b[40];
        size_t n = c->out_len - at < 8 ? c->out_len - at : 8;
        hexs(a, sizeof a, fz.t_out_after + at, n);
        hexs(b, sizeof b, fz_out_buf(c->out_len) + at, n);
        d->aspect = FA_OUTPUT;
        snprintf(d->detail, sizeof d->detail, "OutBuffer at +%zu: target %s, reference %s (sentinel: deadbeef)", at, a, b);
        return true;
    }
    (void)o;
    return false;
}
/* ---------------------------------------------------------------- exports */
const struct fz_export fz_export_list[] = {
    {"advapi32", "TraceQueryInformation", FN_TQI}, {"sechost", "TraceQueryInformation", FN_TQI}, {"kernelbase", "TraceQueryInformation", FN_TQI},
    {"advapi32", "TraceSetInformation", FN_TSI}, {"sechost", "TraceSetInformation", FN_TSI}, {"ntdll", "NtQuerySystemInformation", FN_NTQSI},
    {"ntdll", "NtSetSystemInformation", FN_NTSSI}, {"ntdll", "NtTraceControl", FN_NTC}, {"ntdll", "EtwCreateTraceInstanceId", FN_ETWCTI},
    {"advapi32", "CreateTraceInstanceId", FN_CTI}, {"advapi32", "EventSetInformation", FN_ESI}, {"ntdll", "EtwEventSetInformation", FN_ETWESI},
    {"ntdll", "NtQueryIntervalProfile", FN_NTQIP}, {"advapi32", "RegisterTraceGuidsW", FN_REGISTERTRACEGUIDS},
    {"advapi32", "UnregisterTraceGuids", FN_UNREGISTERTRACEGUIDS}, {"advapi32", "EventRegister", FN_EVENTREGISTER},
    {"advapi32", "EventUnregister", FN_EVENTUNREGISTER},
};
const size_t fz_export_count = sizeof fz_export_list / sizeof fz_export_list[0];

int fz_compare_exports(FILE *f, int *ndis, int max)
{
    struct fz_side *T = &fz.side[SIDE_T], *O = &fz.side[SIDE_O];
    if (!T->t->proc || !fz.emulate_all)
        return 0;
    int found = 0;
    for (size_t e = 0; e < fz_export_count && *ndis < max; e++) {
        bool t_has[FZ_NV], o_has[FZ_NV], differ_any = false;
        for (int i = 0; i < FZ_NV; i++) {
            T->t->set_version(fz_versions[i], 0);
            O->t->set_version(fz_versions[i], 0);
            t_has[i] = T->t->proc(fz_export_list[e].module, fz_export_list[e].name) != NULL;
            o_has[i] = O->t->proc(fz_export_list[e].module, fz_export_list[e].name) != NULL;
            differ_any |= t_has[i] != o_has[i];
        }
        if (!differ_any)
            continue;
        found++;
        (*ndis)++;
        enum etw_rule_id rule = etw_fn_export_rule(fz_export_list[e].fn);
        fprintf(f, "\nDISAGREEMENT %d: %s!%s is exported at:", *ndis, fz_export_list[e].module, fz_export_list[e].name);
        fprintf(f, "\n  target:   ");
        for (int i = 0; i < FZ_NV; i++)
            if (t_has[i])
                fprintf(f, " %s", etw_version_name(fz_versions[i]));
        fprintf(f, "\n  reference:");
        for (int i = 0; i < FZ_NV; i++)
            if (o_has[i])
                fprintf(f, " %s", etw_version_name(fz_versions[i]));
        fprintf(f, "\n  rule: %s\n  case row (append to cases/exports.c):\n", etw_rule_name(rule));
        char id[96], title[160];
        snprintf(id, sizeof id, "fuzz.exp.%s.%s", fz_export_list[e].module, fz_export_list[e].name);
        snprintf(title, sizeof title, "found by etwconf fuzz: %s!%s by version", fz_export_list[e].module, fz_export_list[e].name);
        struct etw_case row = {.file = "(etwconf fuzz)", .id = id, .rules = {rule}, .title = title, .fn = FN_EXPORT,
                               .args = {.module = fz_export_list[e].module, .export_name = fz_export_list[e].name}};
        for (int i = 0, k = 0; i < FZ_NV && k < ETW_MAX_EXPECT; k++) {
            int j = i;
            while (j + 1 < FZ_NV && o_has[j + 1] == o_has[i])
                j++;
            row.expect[k] = (struct etw_expect){.vmin = ETW_VLO(fz_versions[i]), .vmax = ETW_VHI(fz_versions[j]), .kind = o_has[i] ? XK_PRESENT : XK_ABSENT};
            i = j + 1;
        }
        etw_row_print(f, &row, "    ");
    }
    T->cur_version = O->cur_version = 0;
    return found;
}
