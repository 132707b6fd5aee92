/* harness/tests/unit_harness.c - unit tests of the harness: JSON writer, codes, rules, results,
 * guarded buffers and fault capture. */
#define UNIT_SUITE "harness"
#include "unit.h"
#include "harness/targets/win_live/names.h"
#include <stdlib.h>
#include <unistd.h>

TEST(json_escaping, "JSON strings are escaped and valid UTF-8")
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

TEST(codes, "codes and versions are named")
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
}

TEST(rules, "rule catalogue: lookup, counted, corrections, lint")
{
    const struct etw_rule *r = etw_rule_get(RID_TQI_0B_EXACT_SIZE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(etw_rule_counted(r));
    CU_ASSERT(!etw_rule_counted(etw_rule_get(RID_TQI_RETLEN_FAILURE))); /* inferred */
    CU_ASSERT(!etw_rule_counted(etw_rule_get(RID_GMI_EXACT_SIZE_CODE))); /* SHOULD */
    /* seed corrections are written down */
    CU_ASSERT(strstr(etw_rule_get(RID_GMI_SET_BEFORE_62)->note, "0xC0000002") != NULL);
    CU_ASSERT(strstr(etw_rule_get(RID_TQI_05_HANDLE_ZERO)->note, "0x04") != NULL);
    CU_ASSERT(strstr(etw_rule_get(RID_TQI_0E_NTC22)->source, "0x0E") != NULL);
    CU_ASSERT_EQUAL(etw_lint(stderr), 0);
}

/* typed rule ids index the catalogue, and name it back */
TEST(case_rule_split, "a case's rule list splits")
{
    struct etw_case c = {.rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_GEN_BUFFER_BOUNDS, RID_CTI_ATOMIC)};
    CU_ASSERT_EQUAL(etw_case_rule(&c, 0), RID_TQI_0B_EXACT_SIZE);
    CU_ASSERT_EQUAL(etw_case_rule(&c, 2), RID_CTI_ATOMIC);
    CU_ASSERT_EQUAL(etw_case_rule(&c, 3), RID_NONE);
    CU_ASSERT_STRING_EQUAL(etw_rule_name(RID_CTI_ATOMIC), "CTI.ATOMIC");
    CU_ASSERT_STRING_EQUAL(etw_rule_name(RID_NONE), "?");
    CU_ASSERT_STRING_EQUAL(etw_rule_name(RID_TQI_0B_EXACT_SIZE), "TQI.0B.EXACT_SIZE");
}

/* results: a case that checked nothing is BROKEN; counted follows the failing rule */
TEST(result_finish, "results: status, counted, mode, message")
{
    static const struct etw_case c = {.id = "x", .rules = RULES(RID_TQI_0B_EXACT_SIZE, RID_TQI_RETLEN_FAILURE)};
    struct etw_result r = {.c = &c, .status = R_PASS};
    etw_result_finish(&r);
    CU_ASSERT_EQUAL(r.status, R_BROKEN);

    struct etw_runner run = {0};
    struct etw_ctx ctx = {.r = &run, .c = &c, .res = &r};
    r = (struct etw_result){.c = &c};
    CHECK_U32(&ctx, RID_TQI_RETLEN_FAILURE, A_RETLEN, "return length", 8, 9);
    etw_result_finish(&r);
    CU_ASSERT_EQUAL(r.status, R_FAIL);
    CU_ASSERT(!r.counted); /* only an inferred rule failed */
    CU_ASSERT_STRING_EQUAL(r.mode, "return-length");

    r = (struct etw_result){.c = &c};
    CHECK_WIN32(&ctx, RID_PRIMARY, A_RETURN, "return", 24, 0); /* NULL rule: the primary rule */
    etw_result_finish(&r);
    CU_ASSERT(r.counted);
    CU_ASSERT_EQUAL(r.checks[0].rule, RID_TQI_0B_EXACT_SIZE);
    CU_ASSERT_EQUAL(r.checks[0].line, __LINE__ - 4); /* the check records its own line */
    CU_ASSERT_STRING_EQUAL(r.mode, "return");
    CU_ASSERT(strstr(r.message, "expected 24 (ERROR_BAD_LENGTH), got 0 (ERROR_SUCCESS)") != NULL);

    memset(&r, 0, sizeof r);
    etw_result_abnormal(&r, &c, R_CRASH, "0x80000100", NULL);
    etw_result_finish(&r);
    CU_ASSERT(r.counted);
    CU_ASSERT_STRING_EQUAL(r.mode, "exception");
}

/* guarded buffers: the byte after the buffer is a guard page, and a write there is caught */
static void write_past(struct etw_ctx *ctx)
{
    volatile etw_u8 *p = ctx->guards[0]->buf;
    p[ctx->guards[0]->len + 3] = 1;
}

/* a fault at a bad address (also the body of the custom case x.crash) */
static void write_null(struct etw_ctx *ctx)
{
    volatile int *volatile p = (volatile int *)(uintptr_t)16;
    *p = 1;
}

TEST(guard_and_faults, "guard pages catch overruns; faults are caught")
{
    struct etw_runner run = {0};
    struct etw_result res = {0};
    struct etw_ctx ctx = {.r = &run, .res = &res};
    etw_u8 *b = etw_guarded(&ctx, 13);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(b[0], 0xDE);
    CU_ASSERT_EQUAL(b[12], 0xDE); /* sentinel[12 mod 4] */
    CU_ASSERT_EQUAL(b[-1], 0xEF); /* the zone before continues the pattern */
    char exc[48] = "";
    long off = -1;
    CU_ASSERT_EQUAL(etw_guarded_call(&ctx, write_past, exc, sizeof exc, &off), 1);
    CU_ASSERT_EQUAL(off, 3);
    CU_ASSERT_EQUAL(etw_guarded_call(&ctx, write_null, exc, sizeof exc, &off), 2);
    CU_ASSERT_STRING_EQUAL(exc, "SIGSEGV");
    etw_guard_free(ctx.guards[0]);
    free(ctx.guards[0]);
}

/* a custom case of the test's own, checking against RID_GEN_BUFFER_BOUNDS */
#define CUSTOM(id_, body)                                                                          \
    {.id = id_, .rules = RULES(RID_GEN_BUFFER_BOUNDS), .title = id_, .fn = FN_CUSTOM, .run = body, \
     .expect = {ALL()}}
static pid_t runner_pid;
static void where_body(struct etw_ctx *c)
{
    CHECK(c, RID_PRIMARY, A_STATE, "runs in a worker process", getpid() != runner_pid, "another process", "%s",
              getpid() != runner_pid ? "another process" : "the runner");
}

/* a runner of plan[0, n) against the reference, in process or in workers, results to a temporary file */
static struct etw_runner test_runner(enum etw_isolation iso, const struct etw_case **plan, size_t n, unsigned timeout_ms)
{
    runner_pid = getpid();
    return (struct etw_runner){.t = etw_target_reference(), .version = ETW_V10_0, .isolation = iso,
                               .quiet = true, .timeout_ms = timeout_ms, .plan = plan, .nplan = n,
                               .out = tmpfile()};
}

TEST(fallback_after_crash, "auto isolation: after a crash in process the rest runs in a worker")
{
    static const struct etw_case crash = CUSTOM("x.crash", write_null);
    static const struct etw_case after = CUSTOM("x.after", where_body);
    const struct etw_case *plan[] = {&crash, &after};
    struct etw_runner r = test_runner(ISO_INPROC, plan, 2, 5000);
    r.fallback = true;
    CU_ASSERT_EQUAL(etw_exec_run(&r), 0);
    CU_ASSERT_EQUAL(r.counts[R_CRASH], 1);
    CU_ASSERT_EQUAL(r.counts[R_PASS], 1); /* x.after ran, and not in the runner */
    CU_ASSERT_EQUAL(r.seq, 2);
    fclose(r.out);
}

TEST(reference_target_binding, "the reference target resolves by module and version")
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

/* x.slow-fixture: 200 ms in its fixture, then a call that returns at once; x.slow-call: 200 ms in
 * its call */
static void slow_body(struct etw_ctx *c)
{
    bool in_fixture = !strcmp(c->c->id, "x.slow-fixture");
    if (in_fixture)
        etw_phase(c, ETW_PHASE_FIXTURE);
    uint64_t end = plat_now_us() + 200000u; /* 200 ms busy */
    while (plat_now_us() < end)
        ;
    if (in_fixture)
        etw_phase(c, ETW_PHASE_CALL);
    CHECK(c, RID_GEN_BUFFER_BOUNDS, A_STATE, "state", true, "reached", "reached");
}

static const struct etw_case slow_fixture = CUSTOM("x.slow-fixture", slow_body);
static const struct etw_case slow_call = CUSTOM("x.slow-call", slow_body);

static void budget_run(enum etw_isolation iso, unsigned timeout_ms, unsigned fixture_ms, const struct etw_case *c, enum etw_status_kind want)
{
    const struct etw_case *plan[] = {c};
    struct etw_runner r = test_runner(iso, plan, 1, timeout_ms);
    r.fixture_ms = fixture_ms;
    CU_ASSERT_EQUAL(etw_exec_run(&r), 0);
    CHECKF(r.counts[want] == 1, "%s (%s, timeout %u ms, fixture budget %u ms): not %s (PASS %lu BROKEN %lu TIMEOUT %lu)", c->id,
           iso == ISO_INPROC ? "in process" : "worker", timeout_ms, fixture_ms, etw_status_name(want), r.counts[R_PASS], r.counts[R_BROKEN],
           r.counts[R_TIMEOUT]);
    if (want != R_TIMEOUT) /* a BROKEN fixture counts nothing against the target */
        CU_ASSERT_EQUAL(r.counted_failures, 0);
    fclose(r.out);
}

/* the fixture's time is not the call's: a fixture past its own budget is BROKEN (never a TIMEOUT),
 * a slow fixture within it does not make the call late, and a late call is a TIMEOUT; the same in
 * process and in a worker the runner kills */
TEST(budgets, "a fixture past its own budget is BROKEN, a call past its deadline a TIMEOUT")
{
    struct etw_runner r = {0};
    r.timeout_ms = 5000;
    EQ_U32(etw_phase_budget_ms(&r, ETW_PHASE_CALL), 5000);
    EQ_U32(etw_phase_budget_ms(&r, ETW_PHASE_FIXTURE), ETW_FIXTURE_BUDGET_MS);
    r.fixture_ms = 700;
    EQ_U32(etw_phase_budget_ms(&r, ETW_PHASE_FIXTURE), 700);
    CU_ASSERT(ETW_FIXTURE_BUDGET_MS > 5000u * 4);

    struct etw_result res;
    etw_result_unfinished(&res, &slow_fixture, ETW_PHASE_FIXTURE, 700, "the worker was killed");
    etw_result_finish(&res);
    CU_ASSERT_EQUAL(res.status, R_BROKEN);
    CU_ASSERT(!res.counted);
    CU_ASSERT(strstr(res.reason, "700 ms") && strstr(res.reason, "the worker was killed"));
    etw_result_unfinished(&res, &slow_call, ETW_PHASE_CALL, 50, NULL);
    etw_result_finish(&res);
    CU_ASSERT_EQUAL(res.status, R_TIMEOUT);
    CU_ASSERT(strstr(res.message, "50 ms") != NULL);

    budget_run(ISO_INPROC, 5000, 50, &slow_fixture, R_BROKEN);
    budget_run(ISO_INPROC, 100, 5000, &slow_fixture, R_PASS);
    budget_run(ISO_INPROC, 50, 5000, &slow_call, R_TIMEOUT);
    budget_run(ISO_BATCH, 5000, 50, &slow_fixture, R_BROKEN);
    budget_run(ISO_BATCH, 100, 5000, &slow_fixture, R_PASS);
}

/* a refused access to a guarded buffer (ERROR_NOACCESS, STATUS_ACCESS_VIOLATION for the NT
 * functions) may be the guard page reached from kernel mode: only when the row had a guarded
 * buffer and does not expect that code */
TEST(kernel_refused_overrun,
     "a refused access to a guarded buffer may be its end reached from kernel mode")
{
    struct etw_guard g = {0};
    struct etw_outcome o = {.rc = ETW_ERROR_NOACCESS, .buf = &g, .len = 16};
    struct etw_expect x = {.rc = ETW_ERROR_SUCCESS};
    CU_ASSERT(etw_kernel_refused_overrun(FN_TQI, &o, &x));
    x.rc = ETW_ERROR_NOACCESS; /* the row expects it: a probe the rule states */
    CU_ASSERT(!etw_kernel_refused_overrun(FN_TQI, &o, &x));
    x.rc = ETW_ERROR_SUCCESS, x.rc_alt_ok = true, x.rc_alt = ETW_ERROR_NOACCESS;
    CU_ASSERT(!etw_kernel_refused_overrun(FN_TQI, &o, &x));
    x.rc_alt_ok = false;
    CU_ASSERT(!etw_kernel_refused_overrun(FN_NTQSI, &o, &x)); /* an NT function refuses with a status */
    o.rc = (etw_u32)ETW_STATUS_ACCESS_VIOLATION;
    CU_ASSERT(etw_kernel_refused_overrun(FN_NTQSI, &o, &x));
    CU_ASSERT(!etw_kernel_refused_overrun(FN_TQI, &o, &x));
    o.rc = ETW_ERROR_NOACCESS, o.buf = NULL, o.len = 0; /* no buffer: nothing it could have run past */
    CU_ASSERT(!etw_kernel_refused_overrun(FN_TQI, &o, &x));
}

TEST(wire, "the worker wire format refuses corrupt messages")
{
    static const struct etw_case c = {.id = "x.case", .rules = RULES(RID_TQI_0B_EXACT_SIZE)};
    const struct etw_case *plan[] = {&c};
    static const char body[] = "{\"id\":\"x.case\",\"status\":\"PASS\"}";
    struct etw_wire_head h = {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_PASS, 0, (etw_u32)strlen(body), 2};
    struct etw_wire_msg m;
    char why[256];
    struct etw_wire_rx rx = {0};
    /* whole, then byte by byte (a pipe delivers any split) */
    etw_wire_feed(&rx, &h, sizeof h);
    etw_wire_feed(&rx, body, strlen(body));
    CU_ASSERT_EQUAL(etw_wire_next(&rx, plan, 1, &m, why, sizeof why), ETW_WIRE_MORE);
    etw_wire_feed(&rx, "ok", 2);
    CU_ASSERT_EQUAL_FATAL(etw_wire_next(&rx, plan, 1, &m, why, sizeof why), ETW_WIRE_MSG);
    CU_ASSERT_STRING_EQUAL(m.body, body);
    CU_ASSERT_STRING_EQUAL(m.msg, "ok");
    CU_ASSERT_EQUAL(rx.len, 0);
    struct {
        const char *what;
        struct etw_wire_head h;
        const char *body;
    } bad[] = {
        {"magic", {0x41414141u, ETW_WIRE_RESULT, 0, R_PASS, 0, 0, 0}, ""},
        {"kind", {ETW_WIRE_MAGIC, 7, 0, R_PASS, 0, 0, 0}, ""},
        {"index", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 1, R_PASS, 0, (etw_u32)strlen(body), 0}, body},
        {"status", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_COUNT, 0, (etw_u32)strlen(body), 0}, body},
        {"counted", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_PASS, 2, (etw_u32)strlen(body), 0}, body},
        {"length", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_PASS, 0, 0x7FFFFFFFu, 0}, body},
        {"another case", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_PASS, 0, 23, 0}, "{\"id\":\"y.case\",\"a\":\"b\"}"},
        {"not a record", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_PASS, 0, 12, 0}, "garbage....."},
        {"NUL", {ETW_WIRE_MAGIC, ETW_WIRE_RESULT, 0, R_PASS, 0, 17, 0}, "{\"id\":\"x.case\"\0}"},
        {"phase", {ETW_WIRE_MAGIC, ETW_WIRE_PHASE, 0, 2, 0, 0, 0}, ""},
        {"phase payload", {ETW_WIRE_MAGIC, ETW_WIRE_PHASE, 0, ETW_PHASE_FIXTURE, 0, 2, 0}, "{}"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct etw_wire_rx r2 = {0};
        etw_wire_feed(&r2, &bad[i].h, sizeof bad[i].h);
        etw_wire_feed(&r2, bad[i].body, bad[i].h.body_len < 64 ? bad[i].h.body_len : strlen(bad[i].body));
        why[0] = 0;
        enum etw_wire_got g = etw_wire_next(&r2, plan, 1, &m, why, sizeof why);
        CHECKF(g == ETW_WIRE_CORRUPT && why[0], "wire: a message with a bad %s: %d, not refused"
               " with a reason ('%s')", bad[i].what, (int)g, why);
        etw_wire_free(&r2);
    }
    struct etw_wire_head ph = {ETW_WIRE_MAGIC, ETW_WIRE_PHASE, 0, ETW_PHASE_FIXTURE, 0, 0, 0};
    etw_wire_feed(&rx, &ph, sizeof ph);
    CU_ASSERT_EQUAL_FATAL(etw_wire_next(&rx, plan, 1, &m, why, sizeof why), ETW_WIRE_MSG);
    CU_ASSERT_EQUAL(m.kind, ETW_WIRE_PHASE);
    CU_ASSERT_EQUAL(m.phase, ETW_PHASE_FIXTURE);
    etw_wire_free(&rx);
}

TEST(plan, "plans: ids, globs, no exponential glob")
{
    char err[128];
    size_t n = 0;
    const struct etw_case **p = etw_plan_build(NULL, 0, "tqi.0b.*", &n, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT(n >= 3);
    free((void *)p);
    CU_ASSERT_PTR_NULL(etw_plan_build(NULL, 0, "no-such-*", &n, err, sizeof err));
    uint64_t t0 = plat_now_us();
    CU_ASSERT_PTR_NULL(etw_plan_build(NULL, 0, "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b*", &n, err, sizeof err));
    CU_ASSERT(plat_now_us() - t0 < 2000000u);
}

TEST(live_names, "the live target recognises only exact names of its own")
{
    CU_ASSERT_EQUAL(etw_live_session_owner(L"etwconf-1234-5"), 1234);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"ETWCONF-1234-5"), 1234);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"etwconf-1234-5x"), 0);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"my-etwconf-1234-5"), 0);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"etwconf-1234"), 0);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"etwconf--1234-5"), 0);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"etwconf-0-5"), 0);
    CU_ASSERT_EQUAL(etw_live_session_owner(L"etwconf-99999999999-5"), 0);
    /* a process's private directory: etwconf-<pid>-<32 hex digits of random bytes> */
    unsigned char rnd[ETW_LIVE_RUN_RANDOM];
    for (int i = 0; i < ETW_LIVE_RUN_RANDOM; i++)
        rnd[i] = (unsigned char)(i * 17 + 0x0F);
    wchar_t dn[64];
    CU_ASSERT_FATAL(etw_live_run_dir_name(dn, 64, 4294967295ul, rnd));
    CU_ASSERT(!wcscmp(dn, L"etwconf-4294967295-0f2031425364758697a8b9cadbecfd0e"));
    CU_ASSERT(!etw_live_run_dir_name(dn, 50, 4294967295ul, rnd)); /* does not fit */
    CU_ASSERT(etw_live_run_dir_name(dn, 64, 77, rnd));
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(dn), 77);
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"ETWCONF-77-0F2031425364758697A8B9CADBECFD0E"), 77);
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"etwconf-77-0f2031425364758697a8b9cadbecfd0"), 0);   /* 31 digits */
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"etwconf-77-0f2031425364758697a8b9cadbecfd0e0"), 0); /* 33 */
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"etwconf-77-0f2031425364758697a8b9cadbecfd0g"), 0);
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"etwconf-77-3"), 0); /* a session's name is not a directory's */
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"etwconf-0-0f2031425364758697a8b9cadbecfd0e"), 0);
    CU_ASSERT_EQUAL(etw_live_run_dir_owner(L"xetwconf-77-0f2031425364758697a8b9cadbecfd0e"), 0);
    CU_ASSERT_EQUAL(etw_live_session_owner(dn), 0);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"kernel-3.etl"), 3);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"KERNEL-12.ETL"), 12);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"kernel-3.etl.bak"), 0);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"kernel-03.etl"), 0);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"kernel-.etl"), 0);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"etwconf-77-3-kernel.etl"), 0);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"private-4.etl"), 4);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"private-4.etl.x"), 0);
    CU_ASSERT_EQUAL(etw_live_run_file_seq(L"privatekernel-4.etl"), 0);
    /* a directory's final path: exactly the parent's, one separator, the name */
    const wchar_t *fp = L"\\\\?\\C:\\Users\\me\\AppData\\Local\\Temp";
    CU_ASSERT(etw_live_final_path_is(L"\\\\?\\C:\\Users\\me\\AppData\\Local\\Temp\\etwconf-77-ab", fp, L"etwconf-77-ab"));
    CU_ASSERT(etw_live_final_path_is(L"\\\\?\\c:\\users\\ME\\AppData\\Local\\Temp\\ETWCONF-77-AB", fp, L"etwconf-77-ab"));
    CU_ASSERT(etw_live_final_path_is(L"\\\\?\\C:\\etwconf-77-ab", L"\\\\?\\C:\\", L"etwconf-77-ab"));
    /* a junction or link led elsewhere: the final path is not the entry's */
    CU_ASSERT(!etw_live_final_path_is(L"\\\\?\\C:\\Windows\\System32", fp, L"etwconf-77-ab"));
    CU_ASSERT(!etw_live_final_path_is(L"\\\\?\\C:\\Users\\me\\AppData\\Local\\Temp\\x\\etwconf-77-ab", fp, L"etwconf-77-ab"));
    CU_ASSERT(!etw_live_final_path_is(L"\\\\?\\C:\\Users\\me\\AppData\\Local\\Temp\\etwconf-77-abc", fp, L"etwconf-77-ab"));
    CU_ASSERT(!etw_live_final_path_is(L"\\\\?\\C:\\Users\\me\\AppData\\Local\\Tempetwconf-77-ab", fp, L"etwconf-77-ab"));
    CU_ASSERT(!etw_live_final_path_is(fp, fp, L"etwconf-77-ab"));
}
