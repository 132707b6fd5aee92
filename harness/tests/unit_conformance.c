/* harness/tests/unit_conformance.c - every case against the reference at every emulated
 * version, in process: each must PASS or SKIP with a reason, never FAIL, CRASH or be BROKEN. */
#define UNIT_SUITE "conformance of the reference"
#include "unit.h"

static void run_version(unsigned v)
{
    struct etw_runner r = {0};
    unit_runner_at(&r, v);
    size_t n = etw_case_total(), pass = 0, skip = 0;
    for (size_t i = 0; i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        struct etw_result res;
        etw_run_case(&r, c, &res);
        pass += res.status == R_PASS;
        skip += res.status == R_SKIP;
        CHECKF(res.status == R_PASS || (res.status == R_SKIP && res.reason[0]), "%s:%d %s at %s: %s %s%s", c->file, c->line, c->id,
               etw_version_name(v), etw_status_name(res.status), res.message, res.reason);
    }
    CHECKF(pass > 0, "no case passed at %s", etw_version_name(v));
    CHECKF(pass + skip == n, "%zu of %zu cases neither passed nor skipped at %s", n - pass - skip, n, etw_version_name(v));
}

#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb)                            \
    TEST(t_##sym, "every case at " name) { run_version(ETW_##sym); }
#include "spec/versions.def"
#undef VERSION

TEST(card_examples, "the issue's examples hold")
{
    static const struct {
        const char *id;
        unsigned v;
        etw_u32 rc;
    } ex[] = {
        {"tqi.0b.short", ETW_V10_0, ETW_ERROR_BAD_LENGTH}, /* exact-size ERROR_BAD_LENGTH */
        {"tqi.05.handle", ETW_V6_2, ETW_ERROR_INVALID_PARAMETER}, /* non-zero handle */
        {"tqi.class.unsupported-3", ETW_V10_0, ETW_ERROR_NOT_SUPPORTED}, /* unsupported class */
        {"gmi.set-before-62", ETW_V6_1, (etw_u32)ETW_STATUS_NOT_IMPLEMENTED}, /* set rejected before 6.2 */
    };
    struct etw_runner r = {0};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        const struct etw_case *c = etw_case_find(ex[i].id);
        CHECKF(c != NULL, "no case %s", ex[i].id);
        if (!c)
            continue;
        unit_runner_at(&r, ex[i].v);
        struct etw_result res;
        etw_run_case(&r, c, &res);
        CHECKF(res.status == R_PASS, "%s: %s %s", ex[i].id, etw_status_name(res.status), res.message);
        char want[64];
        etw_format_code(want, sizeof want, ex[i].rc, etw_fn_returns_ntstatus(c->fn));
        CHECKF(res.nchecks > 0 && !strcmp(res.checks[0].got, want), "%s: return %s, expected %s", ex[i].id,
               res.nchecks ? res.checks[0].got : "-", want);
    }
}

