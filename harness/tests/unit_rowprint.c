/*
 * harness/tests/unit_rowprint.c - the row printer (harness/core/rowprint.c) against the compiler:
 * rowprint_gen.c prints every printable row of cases/ and of rowprint_synthetic.h as C, the build
 * compiles it (BUILD/gen/rows_printed.c, read against harness/case.h as the suite's own rows are)
 * into this program, and each compiled row must equal its original in every byte, so a field the
 * printer drops fails.
 */
#define UNIT_SUITE "row printer"
#include "unit.h"
#include "rowprint_synthetic.h"
#include <stdlib.h>

extern const struct etw_case rowprint_printed[];
extern const size_t rowprint_printed_count;

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

TEST(every_row_compiles_back, "every printable row of cases/ prints as C that compiles back to it")
{
    size_t printed = 0, custom = 0, bodies = 0, n = etw_case_total();
    for (size_t i = 0; i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        bodies += c->run != NULL;
        if (!etw_row_printable(c)) {
            custom++;
            continue;
        }
        if (printed >= rowprint_printed_count)
            break;
        const char *d = diff_rows(c, &rowprint_printed[printed]);
        CHECKF(!d, "%s (%s:%d): %s differs in the compiled printed row (%s:%d)", c->id, c->file, c->line, d ? d : "",
               rowprint_printed[printed].file, rowprint_printed[printed].line);
        printed++;
    }
    /* every data row is printable: only custom bodies are not; every printed row was compiled */
    CHECKF(custom == bodies && printed > 100 && printed + NSYN == rowprint_printed_count,
           "%zu rows compared, %zu not printable, %zu custom bodies, %zu rows compiled", printed, custom, bodies, rowprint_printed_count);
}

TEST(every_field_compiles_back, "every field of the format compiles back (synthetic rows)")
{
    CU_ASSERT_FATAL(rowprint_printed_count >= NSYN);
    for (size_t i = 0; i < NSYN; i++) {
        const char *d = diff_rows(&rowprint_synthetic[i], &rowprint_printed[rowprint_printed_count - NSYN + i]);
        CHECKF(!d, "synthetic row %s: %s differs", rowprint_synthetic[i].id, d ? d : "");
    }
    /* CreateTraceInstanceId's InstanceId is printed by name, not by its per-architecture offset */
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    bool printed = f && etw_row_print(f, &rowprint_synthetic[1], "  ");
    if (f)
        fclose(f);
    HAS(printed ? text : NULL,
        "PREFIX_AT(offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), RID_CTI_COUNTER, U32(0x2))");
    free(text);
}

/* the synthetic row compiled back, with one change: the comparison finds a difference in want */
#define CHANGED_IS(change, want)                                                                   \
    do {                                                                                           \
        struct etw_case t;                                                                         \
        memcpy(&t, back, sizeof t), change;                                                        \
        const char *d_ = diff_rows(&rowprint_synthetic[0], &t);                                    \
        CHECKF(d_ && !strcmp(d_, (want)), "%s: the difference found: %s; expected: %s", #change,   \
               d_ ? d_ : "none", (want));                                                          \
    } while (0)

/* the comparison is not vacuous: a row that differs in one field does not pass as the original */
TEST(a_dropped_field_is_caught, "a field lost on the way is caught")
{
    CU_ASSERT_FATAL(rowprint_printed_count >= NSYN);
    const struct etw_case *back = &rowprint_printed[rowprint_printed_count - NSYN];
    CU_ASSERT_PTR_NULL(diff_rows(&rowprint_synthetic[0], back));
    CHANGED_IS(t.fx.counter = 0, "fx");
    CHANGED_IS(t.args.len_rel = false, "args");
    CHANGED_IS(t.expect[2].rl_value = 0, "expect");
    CHANGED_IS(t.expect[1].rc_alt_ok = false, "expect"); /* a printer that loses ALSO() */
    CHANGED_IS(t.rules[1] = RID_NONE, "a field of struct etw_case");
    CHANGED_IS(t.needs = 0, "a field of struct etw_case");
    CHANGED_IS((t.expect[1].out_bytes = (const etw_u8[]){7, 9}), "expect[].out_bytes");
}
