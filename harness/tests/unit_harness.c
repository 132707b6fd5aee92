/* harness/tests/unit_harness.c - unit tests of the harness: JSON writer, codes, rules, results,
 * guarded buffers and fault capture. */
#include "unit.h"
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static void test_json_escaping(void)
{
    struct etw_json j;
    etw_json_init(&j);
    etw_json_obj(&j, NULL);
    etw_json_str(&j, "a", "q\"b\\n\x01\x7f<script>");
    etw_json_str(&j, "bad", "\xff\xc3(ok\xe2\x82\xac");
    etw_json_str(&j, "nul", NULL);
    etw_json_arr(&j, "arr");
    etw_json_int(&j, NULL, -5);
    etw_json_bool(&j, NULL, true);
    etw_json_end(&j);
    etw_json_end(&j);
    CHECKF(!strcmp(j.buf, "{\"a\":\"q\\\"b\\\\n\\u0001\\u007f<script>\",\"bad\":\"\\ufffd\\ufffd(ok\xe2\x82\xac\",\"nul\":null,\"arr\":[-5,true]}"),
           "json: %s", j.buf);
    etw_json_free(&j);
}

static void test_codes(void)
{
    char b[64];
    etw_format_code(b, sizeof b, 24, false);
    CHECKF(!strcmp(b, "24 (ERROR_BAD_LENGTH)"), "%s", b);
    etw_format_code(b, sizeof b, 0xC0000296, true);
    CHECKF(!strcmp(b, "0xC0000296 (STATUS_WMI_INSTANCE_NOT_FOUND)"), "%s", b);
    etw_format_code(b, sizeof b, 0xC0000295, true);
    CHECKF(!strcmp(b, "0xC0000295 (STATUS_WMI_GUID_NOT_FOUND)"), "%s", b);
    etw_format_code(b, sizeof b, 77777, false);
    CHECKF(!strcmp(b, "0x00012FD1"), "%s", b);
    CU_ASSERT_EQUAL(etw_version_parse("6.1"), ETW_V6_1);
    CU_ASSERT_EQUAL(etw_version_parse("10"), ETW_V10_0);
    CU_ASSERT_EQUAL(etw_version_parse("7"), 0);
    CU_ASSERT_STRING_EQUAL(etw_version_name(ETW_V6_3), "6.3");
}

static void test_rules(void)
{
    const struct etw_rule *r = etw_rule_get(RID_TQI_0B_EXACT_SIZE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(etw_rule_counted(r));
    CU_ASSERT(!etw_rule_counted(etw_rule_get(RID_TQI_RETLEN_FAILURE))); /* inferred */
    CU_ASSERT(!etw_rule_counted(etw_rule_get(RID_GMI_EXACT_SIZE_CODE))); /* SHOULD */
    CU_ASSERT_PTR_NULL(etw_rule_find("NO.SUCH.RULE"));
    /* seed corrections are written down */
    CU_ASSERT(strstr(etw_rule_get(RID_GMI_SET_BEFORE_62)->note, "0xC0000002") != NULL);
    CU_ASSERT(strstr(etw_rule_get(RID_TQI_05_HANDLE_ZERO)->note, "0x04") != NULL);
    CU_ASSERT(strstr(etw_rule_get(RID_TQI_0E_NTC22)->source, "0x0E") != NULL);
    CU_ASSERT_EQUAL(etw_lint(stderr), 0);
}

/* typed rule ids index the catalogue, and name it back */
static void test_case_rule_split(void)
{
    struct etw_case c = {.rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_GEN_BUFFER_BOUNDS, RID_CTI_ATOMIC)};
    CU_ASSERT_EQUAL(etw_case_rule(&c, 0), RID_TQI_0B_EXACT_SIZE);
    CU_ASSERT_EQUAL(etw_case_rule(&c, 2), RID_CTI_ATOMIC);
    CU_ASSERT_EQUAL(etw_case_rule(&c, 3), RID_NONE);
    CU_ASSERT_STRING_EQUAL(etw_rule_name(RID_CTI_ATOMIC), "CTI.ATOMIC");
    CU_ASSERT_STRING_EQUAL(etw_rule_name(RID_NONE), "?");
    CU_ASSERT_PTR_EQUAL(etw_rule_find("TQI.0B.EXACT_SIZE"), etw_rule_get(RID_TQI_0B_EXACT_SIZE));
    for (int i = 1; i < RID_END; i++)
        CU_ASSERT_PTR_EQUAL(etw_rule_find(etw_rule_name((enum etw_rule_id)i)), etw_rule_get((enum etw_rule_id)i));
}

/* results: a case that checked nothing is BROKEN; counted follows the failing rule */
static void test_result_finish(void)
{
    static const struct etw_case c = {.id = "x", .rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_TQI_RETLEN_FAILURE)};
    struct etw_result r;
    memset(&r, 0, sizeof r);
    r.c = &c;
    r.status = R_PASS;
    etw_result_finish(&r, ETW_V10_0);
    CU_ASSERT_EQUAL(r.status, R_BROKEN);

    struct etw_runner run = {0};
    struct etw_ctx ctx = {.r = &run, .c = &c, .res = &r};
    memset(&r, 0, sizeof r);
    r.c = &c;
    CHECK_U32(&ctx, RID_TQI_RETLEN_FAILURE, A_RETLEN, "return length", 8, 9);
    etw_result_finish(&r, ETW_V10_0);
    CU_ASSERT_EQUAL(r.status, R_FAIL);
    CU_ASSERT(!r.counted); /* only an inferred rule failed */
    CU_ASSERT_STRING_EQUAL(r.mode, "return-length");

    memset(&r, 0, sizeof r);
    r.c = &c;
    CHECK_WIN32(&ctx, RID_PRIMARY, A_RETURN, "return", 24, 0); /* NULL rule: the primary rule */
    etw_result_finish(&r, ETW_V10_0);
    CU_ASSERT(r.counted);
    CU_ASSERT_EQUAL(r.checks[0].rule, RID_TQI_0B_EXACT_SIZE);
    CU_ASSERT_EQUAL(r.checks[0].line, __LINE__ - 4); /* the check records its own line */
    CU_ASSERT_STRING_EQUAL(r.mode, "return");
    CU_ASSERT(strstr(r.message, "expected 24 (ERROR_BAD_LENGTH), got 0 (ERROR_SUCCESS)") != NULL);

    memset(&r, 0, sizeof r);
    etw_result_abnormal(&r, &c, ETW_V10_0, R_CRASH, "0x80000100", NULL);
    etw_result_finish(&r, ETW_V10_0);
    CU_ASSERT(r.counted);
    CU_ASSERT_STRING_EQUAL(r.mode, "exception");
}

/* guarded buffers: the byte after the buffer is a guard page, and a write there is caught */
static void write_past(struct etw_ctx *ctx)
{
    volatile etw_u8 *p = ctx->guards[0]->buf;
    p[ctx->guards[0]->len + 3] = 1;
}

static void write_null(struct etw_ctx *ctx)
{
    (void)ctx;
    volatile int *volatile p = (volatile int *)(uintptr_t)16;
    *p = 1;
}

static void test_guard_and_faults(void)
{
    struct etw_runner run = {0};
    struct etw_result res;
    memset(&res, 0, sizeof res);
    struct etw_ctx ctx = {.r = &run, .res = &res};
    etw_u8 *b = etw_guarded(&ctx, 13);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(b[0], 0xDE);
    CU_ASSERT_EQUAL(b[12], 0xDE); /* sentinel[12 mod 4] */
    CU_ASSERT_EQUAL(b[-1], 0xEF); /* the zone before continues the pattern */
    char exc[48] = "";
    long off = -1;
    CU_ASSERT_EQUAL(plat_guarded_call(&ctx, write_past, exc, sizeof exc, &off), 1);
    CU_ASSERT_EQUAL(off, 3);
    CU_ASSERT_EQUAL(plat_guarded_call(&ctx, write_null, exc, sizeof exc, &off), 2);
    CU_ASSERT_STRING_EQUAL(exc, "SIGSEGV");
    plat_guard_free(ctx.guards[0]);
    free(ctx.guards[0]);
}

/* auto isolation: in process until a crash, then the rest runs in a worker process */
static pid_t runner_pid;
static void crash_body(struct etw_ctx *c)
{
    (void)c;
    raise(SIGSEGV);
}
static void where_body(struct etw_ctx *c)
{
    CHECK(c, RID_PRIMARY, A_STATE, "runs in a worker process", getpid() != runner_pid, "another process", "%s",
              getpid() != runner_pid ? "another process" : "the runner");
}

static void test_fallback_after_crash(void)
{
    static const struct etw_case crash = {.id = "x.crash", .rules = RULES(RID_GEN_BUFFER_BOUNDS), .title = "crashes", .fn = FN_CUSTOM,
                                          .run = crash_body, .expect = {ALL()}};
    static const struct etw_case after = {.id = "x.after", .rules = RULES(RID_GEN_BUFFER_BOUNDS), .title = "after", .fn = FN_CUSTOM,
                                          .run = where_body, .expect = {ALL()}};
    const struct etw_case *plan[] = {&crash, &after};
    struct etw_runner r = {0};
    r.t = etw_target_reference();
    r.version = ETW_V10_0;
    r.isolation = ISO_INPROC;
    r.fallback = true;
    r.quiet = true;
    r.timeout_ms = 5000;
    r.plan = plan;
    r.nplan = 2;
    r.out = tmpfile();
    runner_pid = getpid();
    CU_ASSERT_EQUAL(plat_run_plan(&r), 0);
    CU_ASSERT_EQUAL(r.counts[R_CRASH], 1);
    CU_ASSERT_EQUAL(r.counts[R_PASS], 1); /* x.after ran, and not in the runner */
    CU_ASSERT_EQUAL(r.seq, 2);
    fclose(r.out);
}

static void test_reference_target_binding(void)
{
    struct etw_target *t = etw_target_reference();
    CU_ASSERT(t->emulates && t->reset && t->start_logger && t->fail_alloc && t->proc && t->enable_group);
    t->set_version(ETW_V6_1, 0);
    const char *where = NULL;
    CU_ASSERT_PTR_NULL(etw_resolve(t, FN_TQI, &where)); /* not exported at 6.1 */
    CU_ASSERT_STRING_EQUAL(where, "advapi32!TraceQueryInformation");
    t->set_version(ETW_V6_3, 0);
    CU_ASSERT_PTR_NOT_NULL(etw_resolve(t, FN_TQI, &where));
    CU_ASSERT_STRING_EQUAL(where, "advapi32!TraceQueryInformation");
}

void unit_harness_register(void)
{
    CU_pSuite s = CU_add_suite("harness", NULL, NULL);
    CU_add_test(s, "JSON strings are escaped and valid UTF-8", test_json_escaping);
    CU_add_test(s, "codes and versions are named", test_codes);
    CU_add_test(s, "rule catalogue: lookup, counted, corrections, lint", test_rules);
    CU_add_test(s, "a case's rule list splits", test_case_rule_split);
    CU_add_test(s, "results: status, counted, mode, message", test_result_finish);
    CU_add_test(s, "guard pages catch overruns; faults are caught", test_guard_and_faults);
    CU_add_test(s, "the reference target resolves by module and version", test_reference_target_binding);
    CU_add_test(s, "auto isolation: after a crash in process the rest runs in a worker", test_fallback_after_crash);
}
