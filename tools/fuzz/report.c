/*
 * tools/fuzz/report.c - a finding: the program reduced to a minimal one, the rule it touches, the
 * call, and a case row checked by the harness.
 */
#include "tools/fuzz/fuzz.h"
#include <string.h>

static const char *const aspect_name[] = {
    "none", "return code", "ReturnLength", "output bytes", "input buffer (written)",
    "bytes before the buffer", "returned handle", "last error", "fault", "fixture"};

/* a function's prefix of a row id, and the file of cases/ whose table has its rows */
static const struct {
    const char *prefix, *file;
} family[FN_COUNT] = {
    [FN_TQI] = {"tqi", "tqi"}, [FN_TSI] = {"tsi", "tsi"}, [FN_NTQSI] = {"ksi", "kernel"},
    [FN_NTSSI] = {"ksi", "kernel"}, [FN_NTC] = {"ntc", "ntc"}, [FN_ETWCTI] = {"cti", "cti"},
    [FN_CTI] = {"cti", "cti"}, [FN_ESI] = {"esi", "provider"}, [FN_ETWESI] = {"esi", "provider"},
    [FN_NTQIP] = {"qip", "tqi"}, [FN_REGISTERTRACEGUIDS] = {"rtg"},
    [FN_UNREGISTERTRACEGUIDS] = {"rtg"}, [FN_EVENTREGISTER] = {"er"}, [FN_EVENTUNREGISTER] = {"er"}};

etw_u32 fz_kclass_of(const struct fz_call *c)
{
    etw_u32 k = 0xFFFFFFFFu;
    if (c->in_len >= 4 && c->len >= 4)
        memcpy(&k, c->in, 4);
    return k;
}

/* the rule a disagreement touches: first from the cases (same function and class, a case that
 * expects the reference's outcome), then a table by function and class */
enum etw_rule_id fz_rule_for(const struct fz_call *c, enum aspect a, etw_u32 ref_rc, unsigned v)
{
    if (a == FA_BOUNDS)
        return RID_GEN_BUFFER_BOUNDS;
    if (a == FA_LASTERR)
        return ref_rc ? RID_CTI_LAST_ERROR : RID_CTI_LAST_ERROR_SUCCESS;
    if (c->fn == FZ_ENABLE_GROUP)
        return ref_rc == ETW_ERROR_NOT_SUPPORTED ? RID_DAL_PRIVATE_SESSION : RID_DAL_GROUP_ENABLE;
    if ((c->fn == FN_ESI || c->fn == FN_ETWESI) && c->cls == ETW_EventProviderSetTraits && ref_rc == ETW_ERROR_GEN_FAILURE)
        return a == FA_RC ? RID_TRAITS_ONCE : RID_TRAITS_ONCE_CODE;
    if (c->fn == FN_ETWCTI || c->fn == FN_CTI) {
        const struct etw_fixture *fx = &fz.prog->fx;
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
            if (kk != fz_kclass_of(c))
                continue;
        } else if (c->fn != FN_ETWCTI && c->fn != FN_CTI && k->args.cls != c->cls)
            continue;
        for (int e = 0; e < ETW_MAX_EXPECT && k->expect[e].vmin; e++) {
            const struct etw_expect *x = &k->expect[e];
            if (x->kind != XK_CALL || etw_version_info(v)->key < x->vmin || etw_version_info(v)->key > x->vmax)
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

static const char *hsel_name(int h)
{
    if (h >= 0 && h <= H_CLASS)
        return etw_hsel_enum_name((enum etw_hsel)h);
    return h == FH_SEQREG ? "(a handle EventRegister gave earlier)" : h == FH_SEQCLASS ? "(a class of an earlier RegisterTraceGuidsW)"
         : h == FH_SEQCLASSIC ? "(an earlier RegisterTraceGuidsW's handle)" : "(the fixture's RegisterTraceGuidsW handle)";
}

void fz_describe_call(FILE *f, const char *pre, const struct fz_call *c)
{
    fprintf(f, "%s%s(", pre, c->fn == FZ_ENABLE_GROUP ? "EtwRef_EnableGroup" : etw_fn_name(c->fn));
    switch (c->fn) {
    case FZ_ENABLE_GROUP:
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
    fprintf(f, ")\n");
}

void fz_describe_calls(FILE *f, const struct fz_prog *p, const char *indent)
{
    for (int i = 0; i < p->ncalls; i++) {
        fprintf(f, "%s%d. ", indent, i + 1);
        fz_describe_call(f, "", &p->calls[i]);
    }
}

/* the reference's outcome of the last call of p at version v (false: not run there); zeroed
 * first, so that two are the same outcome when their bytes are the same */
struct ref_outcome {
    bool ran;
    etw_u32 rc, rl;
    etw_u32 off, n; /* the changed bytes of the output buffer: [off, off + n) */
    etw_u8 bytes[64];
    bool changed, too_long;
    etw_u32 instance_id;
};

static void oracle_outcome(struct fz_prog *p, unsigned v, struct ref_outcome *ro)
{
    memset(ro, 0, sizeof *ro);
    const struct fz_call *c = &p->calls[p->ncalls - 1];
    for (int i = 0; i < p->ncalls; i++)
        if (p->calls[i].fn != FZ_ENABLE_GROUP && !fz.side[SIDE_O].fn[fz_vindex(v)][p->calls[i].fn])
            return;
    /* run the program on the oracle alone */
    unsigned saved = p->version;
    p->version = v;
    fz.oracle_only = true;
    fz_run_prog(p, p->ncalls);
    fz.oracle_only = false;
    p->version = saved;
    if (!fz.last_ran || fz.dis.call == -2 || fz.found)
        return;
    const struct fz_out *o = &fz.ref_out;
    ro->ran = true;
    ro->rc = o->rc;
    ro->rl = o->rl;
    const etw_u8 *after = NULL;
    size_t len = 0;
    etw_u8 *before = fz.o_before + ETW_PRE_ZONE; /* free: the reference ran alone */
    if (c->fn == FN_NTC && !c->out_null) {
        after = fz_out_buf(c->out_len);
        len = c->out_len;
        memcpy(before, fz.pattern + ETW_PRE_ZONE, len);
    } else if (!c->buf_null && fz_is_query(c->fn) && c->fn != FN_NTC) {
        after = fz_in_buf(c->len);
        len = c->len;
        fz_prepare(before, c, fz_handle_of(&fz.side[SIDE_O], c));
    }
    if (!after)
        return;
    if ((c->fn == FN_ETWCTI || c->fn == FN_CTI) && len >= sizeof(ETW_EVENT_INSTANCE_INFO))
        memcpy(&ro->instance_id, after + offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), 4);
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
    bool fe = etw_call_row_fn(c->fn); /* a row can call the function */
    memset(w, 0, sizeof *w);
    w->data_row = fe && a != FA_LASTERR && p->ncalls == 1 && c->h <= H_CLASS && !p->restrict_group && !(c->fn == FN_NTC && c->cls == ETW_NTC_SET_PROVIDER_TRAITS);
    w->why_custom = p->ncalls > 1 ? "a sequence of calls"
                  : !fe           ? "the function cannot be called from a data row"
                  : a == FA_LASTERR ? "the last error is read with GetLastError after the call"
                                  : "a handle, pointer or fixture the row format cannot express";
    for (int i = 0; i < FZ_NV; i++) {
        if (!fz.emulate_all && fz_versions[i] != fz.fixed_version)
            continue;
        oracle_outcome(p, fz_versions[i], &w->ro[i]);
    }
    snprintf(w->id, sizeof w->id, "fuzz.%s.%llx",
             c->fn < FN_COUNT && family[c->fn].prefix ? family[c->fn].prefix : "x", prog_no);
    snprintf(w->title, sizeof w->title, "found by etwconf fuzz (%s)", aspect_name[a]);
    bool cti = c->fn == FN_ETWCTI || c->fn == FN_CTI;
    etw_u32 in_n = c->in_len < c->len ? c->in_len : c->len;
    struct etw_case *k = &w->c;
    *k = (struct etw_case){.file = "(etwconf fuzz)", .id = w->id, .rules = {rule},
                           .title = w->title, .fn = fe ? c->fn : FN_CUSTOM, .fx = p->fx};
    k->fx.fail_alloc = c->fail_alloc;
    k->args = (struct etw_args){
        .handle = c->h <= H_CLASS ? (enum etw_hsel)c->h : H_ZERO, .value = c->hval, .cls = c->cls,
        .buf = c->buf_null ? B_NULL : B_GUARDED, .len = cti ? 0 : (int)c->len, .len_rel = cti,
        .retlen_null = c->retlen_null, .in = in_n && !c->buf_null ? c->in : NULL,
        .in_len = in_n && !c->buf_null ? in_n : 0, .patch = c->patch, .patch_off = c->patch_off,
        .out_buf = c->out_null ? B_NULL : B_GUARDED, .out_len = (int)c->out_len};
    int nexp = 0;
    for (int i = 0, j = 0; i < FZ_NV; i = j + 1) {
        if (!w->ro[j = i].ran)
            continue;
        while (j + 1 < FZ_NV && !memcmp(&w->ro[i], &w->ro[j + 1], sizeof w->ro[i]))
            j++;
        const struct ref_outcome *o = &w->ro[i];
        struct etw_expect *x = &k->expect[nexp++];
        *x = (struct etw_expect){.vmin = ETW_VLO(fz_versions[i]), .vmax = ETW_VHI(fz_versions[j]),
                                 .rc = o->rc, .rc_rule = RID_PRIMARY /* the row's rule */};
        if ((c->fn == FN_TQI || c->fn == FN_NTQSI || c->fn == FN_NTC) && !c->retlen_null) {
            x->rl = o->rl == ETW_SENTINEL32 ? RL_UNTOUCHED : RL_EQ;
            x->rl_value = x->rl == RL_EQ ? o->rl : 0;
            x->rl_rule = rule;
        }
        if (cti) {
            if (!o->rc && !c->buf_null) {
                x->out = OUT_PREFIX;
                x->out_off = offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId);
                x->out_bytes = (const etw_u8 *)&o->instance_id;
                x->out_len = 4;
                x->out_rule = rule;
            }
        } else if ((fz_is_query(c->fn) || a == FA_INPUT) && (c->fn == FN_NTC ? !c->out_null : !c->buf_null)) {
            x->out_rule = rule;
            if (!o->changed || !fz_is_query(c->fn))
                x->out = OUT_UNTOUCHED;
            else if (!o->too_long) {
                x->out = OUT_BYTES;
                x->out_off = o->off;
                x->out_bytes = o->bytes;
                x->out_len = o->n;
            }
        }
    }
}

/* run the row as a case, with the harness, against a target at version v: its status */
static enum etw_status_kind run_row(const struct row *w, struct etw_target *t, unsigned v, char *msg, size_t len)
{
    struct etw_runner r = {.t = t, .version = v, .timeout_ms = fz.timeout_ms};
    struct etw_result res;
    unsigned saved = t->version;
    t->version = v;
    etw_run_case(&r, &w->c, &res);
    t->version = saved;
    snprintf(msg, len, "%s", res.message[0] ? res.message : res.reason);
    /* the harness reset and re-versioned both sides */
    fz.side[SIDE_T].dirty = fz.side[SIDE_O].dirty = true;
    fz.side[SIDE_T].cur_version = fz.side[SIDE_O].cur_version = 0;
    return res.status;
}

/* print the row for the reduced program p, and check it with the harness: it must pass against
 * the reference wherever it applies, and fail against the target at the version of the finding */
void fz_print_row(FILE *f, struct fz_prog *p, enum etw_rule_id rule, enum aspect a, unsigned long long prog_no)
{
    static struct row w;
    build_row(&w, p, rule, a, prog_no);
    if (!w.data_row) {
        fprintf(f, "  case row: this needs a FN_CUSTOM case (%s); the calls, in order:\n", w.why_custom);
        fz_describe_calls(f, p, "    ");
        if (p->restrict_group)
            fprintf(f, "    (after EtwRef_RestrictGroup of the group GUID 6e0b0c00-1234-4abc-8001-020304050607)\n");
        fprintf(f, "  sketch of the last call as a row (the reference's outcome after the calls before it):\n");
        etw_row_print(f, &w.c, "    ");
        return;
    }
    fprintf(f, "  case row (append to the table in cases/%s.c):\n", family[w.c.fn].file);
    etw_row_print(f, &w.c, "    ");
    /* the check */
    char msg[600], vs_ok[256] = "", vs_bad[1024] = "";
    for (int i = 0; i < FZ_NV; i++) {
        if (!w.ro[i].ran)
            continue;
        enum etw_status_kind st = run_row(&w, fz.side[SIDE_O].t, fz_versions[i], msg, sizeof msg);
        if (st == R_PASS)
            snprintf(vs_ok + strlen(vs_ok), sizeof vs_ok - strlen(vs_ok), " %s", etw_version_name(fz_versions[i]));
        else
            snprintf(vs_bad + strlen(vs_bad), sizeof vs_bad - strlen(vs_bad), " %s (%s: %.80s)", etw_version_name(fz_versions[i]),
                     etw_status_name(st), msg);
    }
    enum etw_status_kind tst = run_row(&w, fz.side[SIDE_T].t, p->version, msg, sizeof msg);
    fprintf(f, "  row check (the harness ran the row): PASS on the reference at%s%s%s; %s on the target at %s%s%.200s\n",
            vs_ok[0] ? vs_ok : " no version", vs_bad[0] ? "; NOT at" : "", vs_bad, etw_status_name(tst), etw_version_name(p->version),
            msg[0] ? ": " : "", msg);
}

/* does q still make the sides disagree? A disagreement at an earlier call than the last is a
 * shorter reproducer: q is cut there */
static bool still(struct fz_prog *q)
{
    if (!fz_run_prog(q, q->ncalls) || fz.dis.call < 0)
        return false;
    q->ncalls = fz.dis.call + 1;
    return true;
}

/* a change of *p made in *q: kept when it changed something and the sides still disagree */
static void keep_if_still(struct fz_prog *p, struct fz_prog *q)
{
    if (memcmp(q, p, sizeof *q) && still(q))
        *p = *q;
}

/* drop what is not needed; on return *p is minimal and still disagrees at its last call */
void fz_reduce(struct fz_prog *p, int at)
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
    const struct fz_call *lc = &p->calls[p->ncalls - 1];
    int k = 0;
    bool only = p->ncalls > 1 && (lc->fn == FN_ETWCTI || lc->fn == FN_CTI) && lc->h == H_CLASS &&
                lc->hval == 0;
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
        keep_if_still(p, &q);
    }
    /* 2. the fixture, piece by piece */
#define TRY(change) (q = *p, (change), keep_if_still(p, &q))
    TRY(q.restrict_group = false);
    TRY(q.fx.logger2 = LG_NONE);
    TRY((q.fx.ndisallow = 0, q.fx.disallow = NULL));
    TRY(memset(q.fx.masks, 0, sizeof q.fx.masks));
    for (int m = 0; m < 8; m++)
        TRY(q.fx.masks[m] = 0);
    TRY(q.fx.profile_priv = PRIV_ANY);
    TRY(q.fx.foreign_pid = false);
    TRY((q.fx.set_counter = false, q.fx.counter = 0));
    for (int before = -1; p->fx.classes > 1 && p->fx.classes != before;) {
        before = p->fx.classes;
        TRY(q.fx.classes--);
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
    for (etw_u32 before = 0; p->calls[last].in_len && p->calls[last].in_len != before;) {
        before = p->calls[last].in_len;
        TRY(q.calls[last].in_len = 0);
        TRY(q.calls[last].in_len /= 2);
        if (p->calls[last].in_len)
            TRY(q.calls[last].in_len--);
    }
    for (etw_u32 i = 0; i < p->calls[last].in_len; i++)
        if (p->calls[last].in[i])
            TRY(q.calls[last].in[i] = 0);
#undef TRY
}
