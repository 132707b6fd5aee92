/*
 * harness/tests/unit_rowprint.c - the row printer (harness/core/rowprint.c) round trip: every
 * printable row of cases/ is printed, the text is parsed back with a small parser of the row
 * format's source (the designated initializers and macros of harness/case.h), and the parsed row
 * must equal the compiled one in every byte: pointers are compared by what they point to and
 * then blanked, the rest of struct etw_case is compared with memcmp, so a field the printer
 * drops (or a field added to the format and not printed) fails. A synthetic row sets every field
 * to a value no default has, so fields no row of cases/ uses are covered too.
 */
#include "unit.h"
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- the text of a printed row */
static char *print_row(const struct etw_case *c)
{
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    bool ok = etw_row_print(f, c, "  ");
    long n = ftell(f);
    char *s = ok && n > 0 ? calloc(1, (size_t)n + 1) : NULL;
    rewind(f);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

/* ---------------------------------------------------------------- a parser of the printed source */
struct parser {
    const char *p;
    char tok[512]; /* the current token: an identifier, a number, a string (unquoted) or one character */
    char kind; /* 'i' identifier, 'n' number, 's' string, else the character; 0 at the end */
    bool bad;
    char err[200];
    /* storage for what the row points to */
    etw_u8 bytes[4][512];
    int nbytes;
    char strs[8][512];
    int nstrs;
    etw_guid guids[8];
};

static void next(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
    const char *p = ps->p;
    size_t n = 0;
    ps->kind = *p;
    if (!*p)
        return;
    if (isalpha((unsigned char)*p) || *p == '_') {
        ps->kind = 'i';
        while ((isalnum((unsigned char)*p) || *p == '_') && n < sizeof ps->tok - 1)
            ps->tok[n++] = *p++;
    } else if (isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]))) {
        ps->kind = 'n';
        while ((isalnum((unsigned char)*p) || *p == '-') && n < sizeof ps->tok - 1)
            ps->tok[n++] = *p++;
    } else if (*p == '"') {
        ps->kind = 's';
        for (p++; *p && *p != '"' && n < sizeof ps->tok - 1; p++) {
            if (*p == '\\' && p[1] >= '0' && p[1] <= '7') {
                ps->tok[n++] = (char)strtol((char[]){p[1], p[2], p[3], 0}, NULL, 8);
                p += 3;
            } else {
                if (*p == '\\')
                    p++;
                ps->tok[n++] = *p;
            }
        }
        if (*p == '"')
            p++;
    } else {
        p++;
    }
    ps->tok[n] = 0;
    ps->p = p;
}

static void fail(struct parser *ps, const char *what)
{
    if (!ps->bad)
        snprintf(ps->err, sizeof ps->err, "expected %s at '%.40s' (token '%.40s')", what, ps->p, ps->tok);
    ps->bad = true;
}

static bool is(struct parser *ps, char kind, const char *text)
{
    return ps->kind == kind && (!text || !strcmp(ps->tok, text));
}

static void want(struct parser *ps, char ch)
{
    if (ps->kind != ch) {
        char w[4] = {'\'', ch, '\'', 0};
        fail(ps, w);
        return;
    }
    next(ps);
}

static bool accept(struct parser *ps, char ch)
{
    if (ps->kind != ch)
        return false;
    next(ps);
    return true;
}

static long long num(struct parser *ps)
{
    if (ps->kind != 'n') {
        fail(ps, "a number");
        return 0;
    }
    long long v = strtoll(ps->tok, NULL, 0);
    if (ps->tok[0] != '-')
        v = (long long)strtoull(ps->tok, NULL, 0);
    next(ps);
    return v;
}

static char *string(struct parser *ps)
{
    if (ps->kind != 's' || ps->nstrs >= 8) {
        fail(ps, "a string");
        return NULL;
    }
    char *s = ps->strs[ps->nstrs++];
    snprintf(s, sizeof ps->strs[0], "%s", ps->tok);
    next(ps);
    return s;
}

static bool boolean(struct parser *ps)
{
    bool v = is(ps, 'i', "true");
    if (!v && !is(ps, 'i', "false"))
        fail(ps, "true or false");
    next(ps);
    return v;
}

/* an enumerator of the format by its name (the X-list names) */
static int enumerator(struct parser *ps, const char *(*name)(int))
{
    for (int v = 0; v < 64; v++)
        if (ps->kind == 'i' && name(v) && !strcmp(name(v), ps->tok)) {
            next(ps);
            return v;
        }
    fail(ps, "an enumerator");
    return 0;
}
#define NAMER(fn, type) \
    static const char *fn##_(int v) { return fn((type)v); }
NAMER(etw_fn_enum_name, enum etw_fn)
NAMER(etw_hsel_enum_name, enum etw_hsel)
NAMER(etw_bsel_enum_name, enum etw_bsel)
NAMER(etw_patch_enum_name, enum etw_patch)
NAMER(etw_logger_enum_name, enum etw_logger_kind)
NAMER(etw_priv_enum_name, enum etw_priv)

/* .needs: NEED_ names (harness/case.h ETW_NEED_LIST) or numbers, joined by '|' */
static unsigned needs(struct parser *ps)
{
    unsigned v = 0;
    do {
        const struct etw_need_info *n = NULL;
        for (int i = 0; i < ETW_NEED_COUNT && !n; i++)
            if (is(ps, 'i', etw_need_infos[i].sym))
                n = &etw_need_infos[i];
        if (n) {
            v |= n->bit;
            next(ps);
        } else {
            v |= (unsigned)num(ps);
        }
    } while (!ps->bad && accept(ps, '|'));
    return v;
}

static enum etw_rule_id rule(struct parser *ps)
{
    char b[96];
    for (int r = 0; r < RID_END; r++)
        if (ps->kind == 'i' && !strcmp(etw_rule_rid((enum etw_rule_id)r, b, sizeof b), ps->tok)) {
            next(ps);
            return (enum etw_rule_id)r;
        }
    fail(ps, "a rule id");
    return RID_NONE;
}

/* a range bound, as AT() and NA() read it (ETW_VLO / ETW_VHI of a name or a number) */
static unsigned version(struct parser *ps, bool hi)
{
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb)                                                \
    if (is(ps, 'i', #sym))                                                                                            \
        return next(ps), hi ? ETW_VHI(ETW_##sym) : ETW_VLO(ETW_##sym);
#include "spec/versions.def"
#undef VERSION
    unsigned v = (unsigned)num(ps);
    return hi ? ETW_VHI(v) : ETW_VLO(v);
}

/* ERR(NAME), ST(NAME) or a number */
static etw_u32 code(struct parser *ps)
{
    if (is(ps, 'i', "ERR") || is(ps, 'i', "ST")) {
        bool nt = is(ps, 'i', "ST");
        next(ps);
        want(ps, '(');
        char full[96];
        snprintf(full, sizeof full, "%s%.80s", nt ? "STATUS_" : "ERROR_", ps->tok);
        etw_u32 v = 0;
        if (!etw_code_parse(full, nt, &v))
            fail(ps, "a known code name");
        next(ps);
        want(ps, ')');
        return v;
    }
    return (etw_u32)num(ps);
}

/* a list of byte values up to ')' or '}' */
static const etw_u8 *byte_list(struct parser *ps, size_t *n, char close)
{
    etw_u8 *b = ps->nbytes < 4 ? ps->bytes[ps->nbytes++] : NULL;
    *n = 0;
    if (!b) {
        fail(ps, "fewer byte lists");
        return NULL;
    }
    if (is(ps, 'i', "U32")) { /* U32(v): four bytes, little-endian */
        next(ps);
        want(ps, '(');
        etw_u32 v = (etw_u32)num(ps);
        want(ps, ')');
        memcpy(b, &v, 4);
        *n = 4;
        return b;
    }
    while (!ps->bad && ps->kind != close && *n < sizeof ps->bytes[0]) {
        b[(*n)++] = (etw_u8)num(ps);
        if (!accept(ps, ','))
            break;
    }
    return b;
}

static void fixture(struct parser *ps, struct etw_fixture *fx)
{
    want(ps, '{');
    while (!ps->bad && accept(ps, '.')) {
        char f[32];
        snprintf(f, sizeof f, "%.31s", ps->tok);
        next(ps);
        want(ps, '=');
        if (!strcmp(f, "logger"))
            fx->logger = (enum etw_logger_kind)enumerator(ps, etw_logger_enum_name_);
        else if (!strcmp(f, "logger2"))
            fx->logger2 = (enum etw_logger_kind)enumerator(ps, etw_logger_enum_name_);
        else if (!strcmp(f, "masks")) {
            want(ps, '{');
            for (int i = 0; i < 8 && !ps->bad; i++) {
                fx->masks[i] = (etw_u32)num(ps);
                if (i < 7)
                    want(ps, ',');
            }
            want(ps, '}');
        } else if (!strcmp(f, "disallow")) { /* (const etw_guid[]){{a, b, c, {d0, ..., d7}}, ...} */
            want(ps, '(');
            next(ps), next(ps); /* const etw_guid */
            want(ps, '['), want(ps, ']'), want(ps, ')'), want(ps, '{');
            int n = 0;
            while (!ps->bad && accept(ps, '{') && n < 8) {
                etw_guid *g = &ps->guids[n++];
                g->Data1 = (etw_u32)num(ps), want(ps, ',');
                g->Data2 = (etw_u16)num(ps), want(ps, ',');
                g->Data3 = (etw_u16)num(ps), want(ps, ','), want(ps, '{');
                for (int i = 0; i < 8; i++) {
                    g->Data4[i] = (etw_u8)num(ps);
                    if (i < 7)
                        want(ps, ',');
                }
                want(ps, '}'), want(ps, '}');
                if (!accept(ps, ','))
                    break;
            }
            want(ps, '}');
            fx->disallow = ps->guids;
        } else if (!strcmp(f, "ndisallow"))
            fx->ndisallow = (int)num(ps);
        else if (!strcmp(f, "classes"))
            fx->classes = (int)num(ps);
        else if (!strcmp(f, "foreign_pid"))
            fx->foreign_pid = boolean(ps);
        else if (!strcmp(f, "set_counter"))
            fx->set_counter = boolean(ps);
        else if (!strcmp(f, "counter"))
            fx->counter = (etw_u32)num(ps);
        else if (!strcmp(f, "provider"))
            fx->provider = boolean(ps);
        else if (!strcmp(f, "profile_priv"))
            fx->profile_priv = (enum etw_priv)enumerator(ps, etw_priv_enum_name_);
        else if (!strcmp(f, "fail_alloc"))
            fx->fail_alloc = (int)num(ps);
        else
            fail(ps, "a fixture field");
        if (!accept(ps, ','))
            break;
    }
    want(ps, '}');
}

static void args(struct parser *ps, struct etw_args *a)
{
    want(ps, '{');
    while (!ps->bad && ps->kind != '}') {
        if (is(ps, 'i', "IN")) {
            next(ps);
            want(ps, '(');
            a->in = byte_list(ps, &a->in_len, ')');
            want(ps, ')');
        } else {
            want(ps, '.');
            char f[32];
            snprintf(f, sizeof f, "%.31s", ps->tok);
            next(ps);
            want(ps, '=');
            if (!strcmp(f, "handle"))
                a->handle = (enum etw_hsel)enumerator(ps, etw_hsel_enum_name_);
            else if (!strcmp(f, "value"))
                a->value = (etw_u64)num(ps);
            else if (!strcmp(f, "cls"))
                a->cls = (etw_u32)num(ps);
            else if (!strcmp(f, "buf"))
                a->buf = (enum etw_bsel)enumerator(ps, etw_bsel_enum_name_);
            else if (!strcmp(f, "len") && is(ps, 'i', "EXACT")) {
                next(ps), want(ps, '(');
                a->len = (int)num(ps), a->len_rel = true;
                want(ps, ')');
            } else if (!strcmp(f, "len"))
                a->len = (int)num(ps);
            else if (!strcmp(f, "retlen_null"))
                a->retlen_null = boolean(ps);
            else if (!strcmp(f, "patch"))
                a->patch = (enum etw_patch)enumerator(ps, etw_patch_enum_name_);
            else if (!strcmp(f, "patch_off"))
                a->patch_off = (int)num(ps);
            else if (!strcmp(f, "out_buf"))
                a->out_buf = (enum etw_bsel)enumerator(ps, etw_bsel_enum_name_);
            else if (!strcmp(f, "out_len"))
                a->out_len = (int)num(ps);
            else if (!strcmp(f, "module"))
                a->module = string(ps);
            else if (!strcmp(f, "export_name"))
                a->export_name = string(ps);
            else
                fail(ps, "an argument field");
        }
        if (!accept(ps, ','))
            break;
    }
    want(ps, '}');
}

/* the macros of an expectation, as harness/case.h defines them */
static void expect_item(struct parser *ps, struct etw_expect *x)
{
    bool na = is(ps, 'i', "NA");
    if (!na && !is(ps, 'i', "AT"))
        fail(ps, "AT or NA");
    next(ps);
    want(ps, '(');
    x->vmin = version(ps, false), want(ps, ',');
    x->vmax = version(ps, true);
    if (na) {
        want(ps, ',');
        x->kind = XK_SKIP, x->why = string(ps);
        want(ps, ')');
        return;
    }
    while (!ps->bad && accept(ps, ',')) {
        char m[32];
        snprintf(m, sizeof m, "%.31s", ps->tok);
        if (accept(ps, '.')) {
            snprintf(m, sizeof m, ".%.30s", ps->tok);
            next(ps);
            want(ps, '=');
        } else {
            next(ps);
        }
        bool at = strstr(m, "_AT") != NULL;
        if (!strcmp(m, "PRESENT") || !strcmp(m, "ABSENT"))
            x->kind = m[0] == 'P' ? XK_PRESENT : XK_ABSENT;
        else if (!strcmp(m, ".why"))
            x->why = string(ps);
        else if (!strcmp(m, ".rc"))
            x->rc = code(ps);
        else if (!strcmp(m, "ALSO") || !strcmp(m, ".rc_alt")) {
            want(ps, '(');
            x->rc_alt = code(ps), x->rc_alt_ok = m[0] == 'A';
            want(ps, ')');
        } else if (!strcmp(m, "RC_RULE")) {
            want(ps, '('), x->rc_rule = rule(ps), want(ps, ')');
        } else if (!strcmp(m, "FAILS")) {
            want(ps, '('), x->fail_rule = rule(ps), want(ps, ')');
        } else if (!strcmp(m, "RETLEN")) {
            want(ps, '(');
            x->rl = RL_EQ, x->rl_value = (etw_u32)num(ps);
            want(ps, ','), x->rl_rule = rule(ps), want(ps, ')');
        } else if (!strcmp(m, "RETLEN_KEPT")) {
            want(ps, '('), x->rl = RL_UNTOUCHED, x->rl_rule = rule(ps), want(ps, ')');
        } else if (!strcmp(m, ".rl_rule"))
            x->rl_rule = rule(ps);
        else if (!strcmp(m, ".rl_value"))
            x->rl_value = (etw_u32)num(ps);
        else if (!strcmp(m, "UNTOUCHED")) {
            want(ps, '('), x->out = OUT_UNTOUCHED, x->out_rule = rule(ps), want(ps, ')');
        } else if (!strncmp(m, "OUTPUT", 6) || !strncmp(m, "PREFIX", 6)) {
            x->out = m[0] == 'O' ? OUT_BYTES : OUT_PREFIX;
            want(ps, '(');
            if (at && is(ps, 'i', "offsetof")) {
                next(ps), want(ps, '('), next(ps), want(ps, ','), next(ps), want(ps, ')');
                x->out_off = offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId);
                want(ps, ',');
            } else if (at) {
                x->out_off = (size_t)num(ps);
                want(ps, ',');
            }
            x->out_rule = rule(ps);
            want(ps, ',');
            x->out_bytes = byte_list(ps, &x->out_len, ')');
            want(ps, ')');
        } else if (!strcmp(m, ".out"))
            x->out = is(ps, 'i', "OUT_BYTES") ? OUT_BYTES : OUT_PREFIX, next(ps);
        else if (!strcmp(m, ".out_rule"))
            x->out_rule = rule(ps);
        else if (!strcmp(m, ".out_off"))
            x->out_off = (size_t)num(ps);
        else
            fail(ps, "an expectation macro");
    }
    want(ps, ')');
}

/* parse the printed CASE(...) into c (zeroed first); false with ps->err */
static bool parse_row(struct parser *ps, const char *text, struct etw_case *c)
{
    memset(c, 0, sizeof *c);
    ps->p = text;
    next(ps);
    if (!is(ps, 'i', "CASE"))
        fail(ps, "CASE");
    next(ps);
    want(ps, '(');
    while (!ps->bad && accept(ps, '.')) {
        char f[32];
        snprintf(f, sizeof f, "%.31s", ps->tok);
        next(ps);
        want(ps, '=');
        if (!strcmp(f, "id"))
            c->id = string(ps);
        else if (!strcmp(f, "title"))
            c->title = string(ps);
        else if (!strcmp(f, "rules")) {
            if (!is(ps, 'i', "RULES"))
                fail(ps, "RULES");
            next(ps), want(ps, '(');
            for (int i = 0; i < ETW_MAX_RULES && !ps->bad && ps->kind != ')'; i++) {
                c->rules[i] = rule(ps);
                if (!accept(ps, ','))
                    break;
            }
            want(ps, ')');
        } else if (!strcmp(f, "fn"))
            c->fn = (enum etw_fn)enumerator(ps, etw_fn_enum_name_);
        else if (!strcmp(f, "needs"))
            c->needs = needs(ps);
        else if (!strcmp(f, "fx"))
            fixture(ps, &c->fx);
        else if (!strcmp(f, "args"))
            args(ps, &c->args);
        else if (!strcmp(f, "expect")) {
            want(ps, '{');
            for (int e = 0; e < ETW_MAX_EXPECT && !ps->bad && ps->kind != '}'; e++) {
                expect_item(ps, &c->expect[e]);
                if (!accept(ps, ','))
                    break;
            }
            want(ps, '}');
        } else
            fail(ps, "a case field");
        if (!accept(ps, ','))
            break;
    }
    want(ps, ')');
    return !ps->bad;
}

/* ---------------------------------------------------------------- comparing two rows in every byte */
static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_mem(const void *a, const void *b, size_t n)
{
    return (!a && !b) || (a && b && !memcmp(a, b, n));
}

/* the pointers of a and b: same pointees (then blanked in the copies), so that memcmp sees the rest */
static const char *diff_rows(const struct etw_case *orig, const struct etw_case *parsed)
{
    struct etw_case a, b;
    memcpy(&a, orig, sizeof a); /* memcpy: keeps the padding bytes, which memcmp reads */
    memcpy(&b, parsed, sizeof b);
    if (!same_str(a.id, b.id))
        return "id";
    if (!same_str(a.title, b.title))
        return "title";
    if (a.args.in_len == b.args.in_len && !same_mem(a.args.in, b.args.in, a.args.in_len) && a.args.in_len)
        return "args.in";
    if (!same_str(a.args.module, b.args.module))
        return "args.module";
    if (!same_str(a.args.export_name, b.args.export_name))
        return "args.export_name";
    if (!same_mem(a.fx.disallow, b.fx.disallow, 16u * (size_t)(a.fx.ndisallow > 0 ? a.fx.ndisallow : 1)))
        return "fx.disallow";
    for (int e = 0; e < ETW_MAX_EXPECT; e++) {
        if (!same_str(a.expect[e].why, b.expect[e].why))
            return "expect[].why";
        if (a.expect[e].out_len == b.expect[e].out_len && a.expect[e].out_len &&
            !same_mem(a.expect[e].out_bytes, b.expect[e].out_bytes, a.expect[e].out_len))
            return "expect[].out_bytes";
        a.expect[e].why = b.expect[e].why = NULL;
        a.expect[e].out_bytes = b.expect[e].out_bytes = NULL;
    }
    a.id = b.id = a.title = b.title = NULL;
    a.args.in = b.args.in = NULL;
    a.args.module = b.args.module = a.args.export_name = b.args.export_name = NULL;
    a.fx.disallow = b.fx.disallow = NULL;
    a.file = b.file = NULL; /* CASE() records where the row is, the printer does not */
    a.line = b.line = 0;
    if (memcmp(&a.args, &b.args, sizeof a.args))
        return "args";
    if (memcmp(&a.fx, &b.fx, sizeof a.fx))
        return "fx";
    if (memcmp(a.expect, b.expect, sizeof a.expect))
        return "expect";
    return memcmp(&a, &b, sizeof a) ? "a field of struct etw_case" : NULL;
}

/* print, parse, compare; NULL when the round trip holds, else what went wrong */
static const char *round_trip(const struct etw_case *c, char *err, size_t len)
{
    static struct parser ps;
    char *text = print_row(c);
    if (!text)
        return snprintf(err, len, "the printer printed nothing"), err;
    memset(&ps, 0, sizeof ps);
    struct etw_case back;
    const char *d = NULL;
    if (!parse_row(&ps, text, &back))
        snprintf(err, len, "the printed row does not parse: %s\n%s", ps.err, text), d = err;
    else if ((d = diff_rows(c, &back)))
        snprintf(err, len, "%s differs after the round trip:\n%s", d, text), d = err;
    free(text);
    return d;
}

/* ---------------------------------------------------------------- the tests */
static void test_every_row_round_trips(void)
{
    char err[1024];
    size_t printed = 0, custom = 0, n = etw_case_total();
    for (size_t i = 0; i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        if (!etw_row_printable(c)) {
            custom++;
            continue;
        }
        printed++;
        const char *d = round_trip(c, err, sizeof err);
        CHECKF(!d, "%s (%s:%d): %s", c->id, c->file, c->line, d ? d : "");
    }
    /* every data row is printable: only custom bodies are not */
    size_t bodies = 0;
    for (size_t i = 0; i < n; i++)
        bodies += etw_case_at(i)->run != NULL;
    CHECKF(custom == bodies && printed > 100, "%zu rows printed, %zu not printable, %zu custom bodies", printed, custom, bodies);
}

/* every field away from its default, in the forms the macros do not cover too */
static const etw_guid syn_guids[2] = {{0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}},
                                      {0xA1A2A3A4, 0xB1B2, 0xC1C2, {0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8}}};
static const struct etw_case synthetic = {
    .file = "synthetic", .line = 1, .id = "unit.rowprint.\"every\\field\"", .rules = {RID_TQI_0B_EXACT_SIZE, RID_GEN_BUFFER_BOUNDS},
    .title = "a row with every field set\t(tab)", .fn = FN_NTC, .needs = NEED_THREADS | NEED_PROFILE_HELD,
    .fx = {.logger = LG_PRIVATE, .logger2 = LG_SYSTEM, .masks = {1, 2, 3, 4, 5, 6, 7, 0xFFFFFFFF}, .disallow = syn_guids,
           .ndisallow = 2, .classes = 3, .provider = true, .profile_priv = PRIV_NOT_HELD, .fail_alloc = 2, .foreign_pid = true,
           .set_counter = true, .counter = 0xFFFFFFFE},
    .args = {.handle = H_LOGGER_HIGH, .value = 0xABCD00000000ull, .cls = 0x22, .buf = B_NULL, .len = -3, .len_rel = true,
             .retlen_null = true, .in = (const etw_u8[]){1, 2, 0xFF}, .in_len = 3, .patch = PATCH_LOGGER32, .patch_off = 4,
             .out_buf = B_NULL, .out_len = 48, .module = "ntdll", .export_name = "NtTraceControl"},
    .expect = {{.vmin = ETW_VLO(V5_2), .vmax = ETW_VHI(V6_0), .kind = XK_SKIP, .why = "not \"here\""},
               {.vmin = ETW_VLO(V6_1), .vmax = ETW_VHI(V6_1), .rc = 0xC0000023u, .rc_alt_ok = true, .rc_alt = 0x80000005u, .rc_rule = RID_NTC_NULL_IS_ZERO,
                .fail_rule = RID_NTC_COPY_ON_SUCCESS,
                .rl = RL_EQ, .rl_value = 32, .rl_rule = RID_TQI_RETLEN_FAILURE, .out = OUT_BYTES, .out_bytes = (const etw_u8[]){7, 8},
                .out_len = 2, .out_off = 5, .out_rule = RID_TQI_0B_EXACT_SIZE},
               {.vmin = ETW_VLO(V6_2), .vmax = ETW_VHI(V6_2), .why = "a note", .rc = 0x1234u, .rc_alt = 5, .rl = RL_UNTOUCHED, .rl_value = 9,
                .rl_rule = RID_TQI_RETLEN_FAILURE, .out = OUT_PREFIX, .out_rule = RID_TQI_0B_EXACT_SIZE, .out_off = 3},
               {.vmin = ETW_VLO(V6_3), .vmax = ETW_VHI(V6_3), .rl_rule = RID_TQI_RETLEN_FAILURE, .out = OUT_UNTOUCHED, .out_rule = RID_GEN_BUFFER_BOUNDS,
                .out_off = 1},
               {.vmin = ETW_VLO(V6_1_7601_ESI), .vmax = ETW_VKEY(0x0A00, 18362, 0xF), .kind = XK_ABSENT, .rc = 1},
               {.vmin = ETW_VLO(0x0A01u), .vmax = ETW_VHI(V10_0_17763), .kind = XK_PRESENT, .out = OUT_PREFIX, .out_bytes = (const etw_u8[]){0, 0, 0, 1},
                .out_len = 4, .out_off = 4, .out_rule = RID_TQI_0B_EXACT_SIZE}},
};

static void test_every_field_round_trips(void)
{
    char err[1024];
    const char *d = round_trip(&synthetic, err, sizeof err);
    CHECKF(!d, "synthetic row: %s", d ? d : "");
    /* CreateTraceInstanceId's InstanceId is printed by name, not by its per-architecture offset */
    struct etw_case cti = {.id = "unit.cti", .rules = {RID_CTI_COUNTER}, .title = "t", .fn = FN_ETWCTI,
                           .args = {.handle = H_CLASS, .len_rel = true},
                           .expect = {{.vmin = ETW_VLO(V5_2), .vmax = ETW_VHI(V10_0), .out = OUT_PREFIX, .out_rule = RID_CTI_COUNTER,
                                       .out_off = offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), .out_bytes = (const etw_u8[]){2, 0, 0, 0},
                                       .out_len = 4}}};
    char *text = print_row(&cti);
    CHECKF(text && strstr(text, "PREFIX_AT(offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), RID_CTI_COUNTER, U32(0x2))"), "%s", text);
    free(text);
    d = round_trip(&cti, err, sizeof err);
    CHECKF(!d, "CTI row: %s", d ? d : "");
}

#define DIFF_IS(row, want)                                                                                                  \
    do {                                                                                                                    \
        const char *d_ = diff_rows(&synthetic, (row));                                                                      \
        CHECKF(d_ && !strcmp(d_, (want)), "the difference found: %s; expected: %s", d_ ? d_ : "none", (want));              \
    } while (0)

/* the comparison is not vacuous: a row that differs in one field does not pass as the original */
static void test_a_dropped_field_is_caught(void)
{
    static struct parser ps;
    char *text = print_row(&synthetic);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    struct etw_case back;
    memset(&ps, 0, sizeof ps);
    CU_ASSERT_FATAL(parse_row(&ps, text, &back));
    CU_ASSERT_PTR_NULL(diff_rows(&synthetic, &back));
    struct etw_case t;
    memcpy(&t, &back, sizeof t), t.fx.counter = 0;
    DIFF_IS(&t, "fx");
    memcpy(&t, &back, sizeof t), t.args.len_rel = false;
    DIFF_IS(&t, "args");
    memcpy(&t, &back, sizeof t), t.expect[2].rl_value = 0;
    DIFF_IS(&t, "expect");
    memcpy(&t, &back, sizeof t), t.rules[1] = RID_NONE;
    DIFF_IS(&t, "a field of struct etw_case");
    memcpy(&t, &back, sizeof t), t.needs = 0;
    DIFF_IS(&t, "a field of struct etw_case");
    memcpy(&t, &back, sizeof t), t.expect[1].out_bytes = (const etw_u8[]){7, 9};
    DIFF_IS(&t, "expect[].out_bytes");
    /* a row whose text lost a field: the expectation's ALSO() */
    char *cut = strstr(text, ", ALSO(");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    char *end = cut + strlen(", ALSO(");
    for (int depth = 1; *end && depth; end++) /* to the matching ')': ALSO(ST(NAME)) */
        depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
    memmove(cut, end, strlen(end) + 1);
    memset(&ps, 0, sizeof ps);
    CU_ASSERT_FATAL(parse_row(&ps, text, &back));
    DIFF_IS(&back, "expect");
    free(text);
}

void unit_rowprint_register(void)
{
    CU_pSuite s = CU_add_suite("row printer", NULL, NULL);
    CU_add_test(s, "every printable row of cases/ prints, parses back and equals the compiled row", test_every_row_round_trips);
    CU_add_test(s, "every field of the format round-trips (a synthetic row)", test_every_field_round_trips);
    CU_add_test(s, "a field lost on the way is caught", test_a_dropped_field_is_caught);
}
