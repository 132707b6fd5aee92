/* harness/core/rowprint.c - the row format's names (the X-lists of harness/case.h) and the row
 * printer: a case as the CASE(...) source that compiles back to it (tests/unit_rowprint.c). */
#include "harness/core/core.h"
#include <stddef.h>
#include <string.h>

#define NAME_(name) #name,
#define NAME2_(name, text) #name,
#define TEXT2_(name, text) text,
#define LOOKUP_(fn, type, list, X)                                                                                      \
    const char *fn(type v)                                                                                              \
    {                                                                                                                   \
        static const char *const n[] = {list(X)};                                                                       \
        return (unsigned)v < sizeof n / sizeof n[0] ? n[v] : NULL;                                                      \
    }
LOOKUP_(etw_fn_enum_name, enum etw_fn, ETW_FN_LIST, NAME_)
LOOKUP_(etw_hsel_enum_name, enum etw_hsel, ETW_HSEL_LIST, NAME_)
LOOKUP_(etw_bsel_enum_name, enum etw_bsel, ETW_BSEL_LIST, NAME_)
LOOKUP_(etw_patch_enum_name, enum etw_patch, ETW_PATCH_LIST, NAME_)
LOOKUP_(etw_logger_enum_name, enum etw_logger_kind, ETW_LOGGER_LIST, NAME2_)
LOOKUP_(etw_logger_kind_title, enum etw_logger_kind, ETW_LOGGER_LIST, TEXT2_)
LOOKUP_(etw_priv_enum_name, enum etw_priv, ETW_PRIV_LIST, NAME_)
LOOKUP_(etw_xkind_name, enum etw_xkind, ETW_XKIND_LIST, TEXT2_)
#undef NAME_ /* the unity builds put other files after this one */

const char *etw_version_enum_name(unsigned key, bool hi)
{
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb)                                                \
    if (key == (hi ? ETW_VHI(ETW_##sym) : ETW_VLO(ETW_##sym)))                                                        \
        return #sym;
#include "spec/versions.def"
#undef VERSION
    return NULL;
}

/* ---------------------------------------------------------------- the printer */
bool etw_row_printable(const struct etw_case *c)
{
    return !c->run && !c->data;
}

/* pre, then s as a C string literal (NULL as "") */
static void str(FILE *f, const char *pre, const char *s)
{
    fprintf(f, "%s\"", pre);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7F)
            fprintf(f, "\\%03o", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void bytes(FILE *f, const etw_u8 *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s0x%02x", i ? ", " : "", p[i]);
}

/* pre, the rule as rows cite it ("RID_TQI_0B_EXACT_SIZE", RID_NONE for none), post */
static void rid(FILE *f, const char *pre, enum etw_rule_id r, const char *post)
{
    fprintf(f, "%s%s", pre, r ? "RID_" : "RID_NONE");
    for (const char *q = r ? etw_rule_name(r) : ""; *q; q++)
        fputc(*q == '.' ? '_' : *q, f);
    fputs(post, f);
}

/* pre, then a range bound as AT() takes it: a name, an NT version (0x0A01u) or a key; a hi
 * bound whose update nibble is not 0xF cannot be written (AT() would widen it): printed as it is */
static void version(FILE *f, const char *pre, unsigned v, bool hi)
{
    const char *n = etw_version_enum_name(v, hi);
    fputs(pre, f);
    if (n)
        fputs(n, f);
    else if ((v & 0xFFFFFu) == (hi ? 0xFFFFFu : 0))
        fprintf(f, "0x%04Xu", ETW_VKEY_NT(v));
    else
        fprintf(f, "0x%08Xu", hi && (v & 0xFu) == 0xFu ? v & ~0xFu : v);
}

/* pre, a return value as ERR(NAME), ST(NAME) or a number, post */
static void code(FILE *f, const char *pre, enum etw_fn fn, etw_u32 v, const char *post)
{
    bool nt = etw_fn_returns_ntstatus(fn);
    const char *n = nt ? etw_ntstatus_name(v) : etw_win32_name(v);
    fputs(pre, f);
    if (n && nt && !strncmp(n, "STATUS_", 7))
        fprintf(f, "ST(%s)", n + 7);
    else if (n && !nt && !strncmp(n, "ERROR_", 6))
        fprintf(f, "ERR(%s)", n + 6);
    else
        fprintf(f, "0x%Xu", v);
    fputs(post, f);
}

/* ", " between the items of a braced list */
#define SEP(any) ((any) ? ", " : ((any) = true, ""))
/* a field of a braced list, printed when cond holds */
#define FIELD(cond, ...) ((cond) ? (fputs(SEP(any), f), fprintf(f, __VA_ARGS__)) : 0)
/* a string field of a braced list, printed when s is not NULL */
#define FIELD_STR(s, pre) ((s) ? (fputs(SEP(any), f), str(f, (pre), (s))) : (void)0)

static void fixture(FILE *f, const struct etw_fixture *fx)
{
    static const struct etw_fixture none;
    if (!memcmp(fx, &none, sizeof none))
        return;
    bool any = false;
    fprintf(f, " .fx = {");
    FIELD(fx->logger, ".logger = %s", etw_logger_enum_name(fx->logger));
    FIELD(fx->logger2, ".logger2 = %s", etw_logger_enum_name(fx->logger2));
    if (etw_masks_set(fx->masks)) {
        fprintf(f, "%s.masks = {", SEP(any));
        for (int i = 0; i < 8; i++)
            fprintf(f, "%s0x%X", i ? ", " : "", fx->masks[i]);
        fprintf(f, "}");
    }
    if (fx->disallow) {
        fprintf(f, "%s.disallow = (const etw_guid[]){", SEP(any));
        for (int i = 0; i < (fx->ndisallow > 0 ? fx->ndisallow : 1); i++) {
            const etw_guid *g = &fx->disallow[i];
            fprintf(f, "%s{0x%08X, 0x%04X, 0x%04X, {", i ? ", " : "", g->Data1, g->Data2, g->Data3);
            bytes(f, g->Data4, 8);
            fprintf(f, "}}");
        }
        fprintf(f, "}");
    }
    FIELD(fx->ndisallow, ".ndisallow = %d", fx->ndisallow);
    FIELD(fx->classes, ".classes = %d", fx->classes);
    FIELD(fx->foreign_pid, ".foreign_pid = true");
    FIELD(fx->set_counter, ".set_counter = true");
    FIELD(fx->set_counter || fx->counter, ".counter = 0x%X", fx->counter);
    FIELD(fx->provider, ".provider = true");
    FIELD(fx->profile_priv, ".profile_priv = %s", etw_priv_enum_name(fx->profile_priv));
    FIELD(fx->fail_alloc, ".fail_alloc = %d", fx->fail_alloc);
    fprintf(f, "},");
}

static void args(FILE *f, enum etw_fn fn, const struct etw_args *a)
{
    bool any = false, row = etw_call_row_fn(fn);
    fprintf(f, ".args = {");
    FIELD(a->handle != H_ZERO, ".handle = %s", etw_hsel_enum_name(a->handle));
    if (a->value || a->handle == H_VALUE || a->handle == H_LOGGER_HIGH || a->handle == H_CLASS)
        fprintf(f, "%s.value = 0x%llx", SEP(any), (unsigned long long)a->value);
    FIELD(a->cls || (row && fn != FN_ETWCTI && fn != FN_CTI), ".cls = 0x%X", a->cls);
    FIELD(a->buf != B_GUARDED, ".buf = %s", etw_bsel_enum_name(a->buf));
    FIELD(a->len_rel || a->len || row, a->len_rel ? ".len = EXACT(%d)" : ".len = %d", a->len);
    FIELD(a->retlen_null, ".retlen_null = true");
    if (a->in_len) {
        fprintf(f, "%sIN(", SEP(any));
        bytes(f, a->in, a->in_len);
        fprintf(f, ")");
    }
    FIELD(a->patch, ".patch = %s", etw_patch_enum_name(a->patch));
    FIELD(a->patch || a->patch_off, ".patch_off = %d", a->patch_off);
    FIELD(a->out_buf != B_GUARDED, ".out_buf = %s", etw_bsel_enum_name(a->out_buf));
    FIELD(a->out_len || fn == FN_NTC, ".out_len = %d", a->out_len);
    FIELD_STR(a->module, ".module = ");
    FIELD_STR(a->export_name, ".export_name = ");
    fprintf(f, "},");
}

/* OUTPUT / PREFIX (_AT): CreateTraceInstanceId's InstanceId by name, its offset differs by architecture */
static void output(FILE *f, enum etw_fn fn, const struct etw_expect *x)
{
    bool id = (fn == FN_ETWCTI || fn == FN_CTI) && x->out_off == offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId) && x->out_len == 4;
    fprintf(f, ", %s%s(", x->out == OUT_PREFIX ? "PREFIX" : "OUTPUT", x->out_off ? "_AT" : "");
    if (id)
        fprintf(f, "offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), ");
    else if (x->out_off)
        fprintf(f, "%zu, ", x->out_off);
    rid(f, "", x->out_rule, ", ");
    if (id) {
        etw_u32 v;
        memcpy(&v, x->out_bytes, 4);
        fprintf(f, "U32(0x%X)", v);
    } else {
        bytes(f, x->out_bytes, x->out_len);
    }
    fprintf(f, ")");
}

static void expectation(FILE *f, enum etw_fn fn, const struct etw_expect *x)
{
    version(f, x->kind == XK_SKIP ? "NA(" : "AT(", x->vmin, false);
    version(f, ", ", x->vmax, true);
    if (x->kind == XK_SKIP) {
        str(f, ", ", x->why);
        fprintf(f, ")");
        return;
    }
    if (x->kind == XK_PRESENT || x->kind == XK_ABSENT)
        fprintf(f, ", %s", x->kind == XK_PRESENT ? "PRESENT" : "ABSENT");
    if (x->why)
        str(f, ", .why = ", x->why);
    if (x->kind == XK_CALL || x->rc)
        code(f, ", .rc = ", fn, x->rc, "");
    if (x->rc_alt_ok || x->rc_alt)
        code(f, x->rc_alt_ok ? ", ALSO(" : ", .rc_alt = (", fn, x->rc_alt, ")");
    if (x->rc_rule)
        rid(f, ", RC_RULE(", x->rc_rule, ")");
    if (x->fail_rule)
        rid(f, ", FAILS(", x->fail_rule, ")");
    if (x->rl == RL_EQ) {
        fprintf(f, ", RETLEN(%u, ", x->rl_value);
        rid(f, "", x->rl_rule, ")");
    } else {
        if (x->rl == RL_UNTOUCHED)
            rid(f, ", RETLEN_KEPT(", x->rl_rule, ")");
        else if (x->rl_rule)
            rid(f, ", .rl_rule = ", x->rl_rule, "");
        if (x->rl_value)
            fprintf(f, ", .rl_value = %u", x->rl_value);
    }
    if ((x->out == OUT_BYTES || x->out == OUT_PREFIX) && x->out_len) {
        output(f, fn, x);
    } else {
        if (x->out == OUT_UNTOUCHED) {
            rid(f, ", UNTOUCHED(", x->out_rule, ")");
        } else {
            if (x->out)
                fprintf(f, ", .out = %s", x->out == OUT_BYTES ? "OUT_BYTES" : "OUT_PREFIX");
            if (x->out_rule)
                rid(f, ", .out_rule = ", x->out_rule, "");
        }
        if (x->out_off)
            fprintf(f, ", .out_off = %zu", x->out_off);
    }
    fprintf(f, ")");
}

bool etw_row_print(FILE *f, const struct etw_case *c, const char *indent)
{
    if (!etw_row_printable(c))
        return false;
    const char *fn = etw_fn_enum_name(c->fn);
    fputs(indent, f);
    str(f, "CASE(.id = ", c->id);
    fprintf(f, ", .rules = RULES(");
    for (int i = 0; i < ETW_MAX_RULES && c->rules[i]; i++)
        rid(f, i ? ", " : "", c->rules[i], "");
    fprintf(f, "),\n%s", indent);
    str(f, "     .title = ", c->title);
    fprintf(f, ",\n%s     .fn = %s,", indent, fn ? fn : "FN_NONE");
    if (c->needs) { /* by name (harness/case.h ETW_NEED_LIST); a bit no need has, as a number */
        fprintf(f, " .needs = ");
        unsigned rest = c->needs;
        for (int i = 0; i < ETW_NEED_COUNT; i++)
            if (c->needs & etw_need_infos[i].bit) {
                fprintf(f, "%s%s", rest != c->needs ? " | " : "", etw_need_infos[i].sym);
                rest &= ~etw_need_infos[i].bit;
            }
        if (rest)
            fprintf(f, "%s0x%X", rest != c->needs ? " | " : "", rest);
        fprintf(f, ",");
    }
    fixture(f, &c->fx);
    static const struct etw_args none;
    if (etw_call_row_fn(c->fn) || memcmp(&c->args, &none, sizeof none)) { /* no empty braces: C11 has none */
        fprintf(f, "\n%s     ", indent);
        args(f, c->fn, &c->args);
    }
    fprintf(f, "\n%s     .expect = {", indent);
    for (int e = 0; e < ETW_MAX_EXPECT && c->expect[e].vmin; e++) {
        if (e)
            fprintf(f, ",\n%s                ", indent);
        expectation(f, c->fn, &c->expect[e]);
    }
    fprintf(f, "})\n");
    return true;
}
