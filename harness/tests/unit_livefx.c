/* harness/tests/unit_livefx.c - the live Windows fixtures' setup logic (harness/targets/win_live/
 * build.c) and the enable-callback log the group cases read (cases/enable_log.h), against the
 * Windows SDK's values (evntrace.h, evntcons.h). */
#define UNIT_SUITE "live Windows fixtures (setup logic)"
#include "unit.h"
#include "cases/enable_log.h"
#include "harness/targets/win_live/build.h"

/* checked as this file compiles: the session kinds are case.h's, the constants the SDK's */
_Static_assert(ETW_LV_KERNEL == LG_KERNEL && ETW_LV_SYSTEM == LG_SYSTEM &&
                   ETW_LV_PLAIN == LG_PLAIN && ETW_LV_NOACCESS == LG_NOACCESS && ETW_LV_PRIVATE == LG_PRIVATE,
               "the session kinds are case.h's");
_Static_assert(ETW_LV_PRIVATE_LOGGER_MODE == 0x800 && ETW_LV_PRIVATE_IN_PROC == 0x20000 &&
                   ETW_LV_SYSTEM_LOGGER_MODE == ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE &&
                   ETW_LV_TRACE_CONTROL_FLUSH == 3 && ETW_LV_EXT_TYPE_PROV_TRAITS == 12 &&
                   sizeof(struct etw_lv_ext_item) == 16,
               "the Windows SDK's values");

TEST(session_plans,
     "each session kind gets its mode bits (private: PRIVATE_LOGGER_MODE | PRIVATE_IN_PROC)")
{
    struct etw_lv_session_plan p;
    CU_ASSERT_FATAL(etw_lv_session_plan(LG_PRIVATE, &p));
    EQ_U32(p.log_file_mode, 0x1 | 0x800 | 0x20000); /* documented: sequential file, no buffering, no real time */
    CU_ASSERT(p.log_file && p.register_guid && p.query_by_handle);
    CU_ASSERT(!(p.log_file_mode & ETW_LV_REAL_TIME_MODE));
    CU_ASSERT(!(p.log_file_mode & ETW_LV_BUFFERING_MODE) && !p.deny_enable);
    CU_ASSERT_FATAL(etw_lv_session_plan(LG_NOACCESS, &p));
    EQ_U32(p.log_file_mode, 0x100 | 0x02000000);
    CU_ASSERT(p.deny_enable && !p.query_by_handle && p.min_version == ETW_V6_2);
    CU_ASSERT_FATAL(etw_lv_session_plan(LG_SYSTEM, &p));
    CU_ASSERT(!p.deny_enable && p.log_file_mode == (0x100 | 0x02000000));
    CU_ASSERT_FATAL(etw_lv_session_plan(LG_PLAIN, &p));
    EQ_U32(p.log_file_mode, 0x100);
    CU_ASSERT_FATAL(etw_lv_session_plan(LG_KERNEL, &p));
    CU_ASSERT(p.log_file && p.log_file_mode == 1);
    CU_ASSERT(!etw_lv_session_plan(LG_NONE, &p));
    CU_ASSERT(!etw_lv_session_plan(99, &p));
}

TEST(group_enable_params,
     "a group enable sets EVENT_ENABLE_PROPERTY_PROVIDER_GROUP in version-2 parameters")
{
    struct etw_lv_enable_params e = etw_lv_group_enable_params;
    EQ_U32(e.version, 2);
    EQ_U32(e.enable_property, 0x20); /* EVENT_ENABLE_PROPERTY_PROVIDER_GROUP */
    EQ_U32(e.control_flags, 0);
    EQ_U32(e.filter_desc_count, 0);
    static const etw_guid zero;
    CU_ASSERT(!memcmp(&e.source_id, &zero, sizeof zero));
}

TEST(group_enable_call,
     "a group enable is ENABLE_PROVIDER with the suite's level and keywords and a timeout")
{
    struct etw_lv_enable_call e = etw_lv_group_enable;
    EQ_U32(e.control_code, 1); /* EVENT_CONTROL_CODE_ENABLE_PROVIDER */
    EQ_U32(e.level, 4); /* TRACE_LEVEL_INFORMATION: ETW_GROUP_ENABLE_LEVEL */
    CU_ASSERT(e.match_any == ETW_GROUP_ENABLE_KEYWORDS && e.match_any != 0 && e.match_any != ~(etw_u64)0);
    CU_ASSERT(e.match_all == 0);
    CU_ASSERT(e.timeout_ms > 0); /* the members' callbacks have run when EnableTraceEx2 returns */
    CU_ASSERT(ETW_LV_GROUP_SETTLE_MS > 0 && ETW_LV_GROUP_SETTLE_MS < e.timeout_ms);
    e = etw_lv_provider_enable[1];
    CU_ASSERT(e.control_code == 1 && e.level == 5 && e.match_any == 0 && e.match_all == 0 && e.timeout_ms > 0);
    e = etw_lv_provider_enable[0];
    CU_ASSERT(e.control_code == 0 && e.timeout_ms > 0); /* EVENT_CONTROL_CODE_DISABLE_PROVIDER */
}

TEST(consumer_plan, "the real-time consumer: its mode, deadlines and OpenTraceW's failure values")
{
    struct etw_lv_consumer_plan p = etw_lv_consumer;
    EQ_U32(p.process_trace_mode, 0x00000100u | 0x10000000u); /* PROCESS_TRACE_MODE_REAL_TIME | _EVENT_RECORD */
    CU_ASSERT(p.write_every_ms > 0 && p.deadline_ms >= 4 * p.write_every_ms);
    CU_ASSERT(p.deadline_ms > 1000); /* longer than the sessions' FlushTimer (1 s) */
    CU_ASSERT(p.join_ms > 0);
    CU_ASSERT(p.event_level >= 1 && p.event_level <= 5); /* within the consumer's enable (verbose) */
    /* OpenTraceW's failure values: INVALID_PROCESSTRACE_HANDLE, and 0x00000000FFFFFFFF from a 32-bit process */
    CU_ASSERT(!etw_lv_trace_handle_valid(~(etw_u64)0));
    CU_ASSERT(!etw_lv_trace_handle_valid(0xFFFFFFFFull));
    CU_ASSERT(etw_lv_trace_handle_valid(0x1FFFFFFFFull));
    CU_ASSERT(etw_lv_trace_handle_valid(0x12));
    /* every wait of a live fixture fits in the fixture's budget, with room for the machine's load:
     * a fixture still waiting is BROKEN, and must not be so on a merely slow machine */
    CHECKF(etw_lv_longest_fixture_wait_ms() * 2 <= ETW_FIXTURE_BUDGET_MS, "the longest fixture wait, %u ms, is over half the budget %u ms",
           etw_lv_longest_fixture_wait_ms(), ETW_FIXTURE_BUDGET_MS);
    CU_ASSERT(etw_lv_longest_fixture_wait_ms() >= p.deadline_ms);
}

TEST(deny_enable_call, "the no-access session adds a DACL entry denying TRACELOG_GUID_ENABLE")
{
    struct etw_lv_access_call a = etw_lv_deny_enable;
    EQ_U32(a.operation, 2); /* EventSecurityAddDACL: adds an ACE, keeps the others */
    EQ_U32(a.rights, 0x80); /* TRACELOG_GUID_ENABLE */
    CU_ASSERT(!a.allow);
}

TEST(session_guids, "security is changed only for a session GUID this process created")
{
    etw_guid g;
    etw_lv_session_guid(&g, 0x12345678u, 0x102, 0xDEADBEEFu);
    EQ_U32(g.Data1, 0xE7C0F0F0u);
    EQ_U32(g.Data2, 0x1234);
    EQ_U32(g.Data3, 0x5678);
    EQ_U32(g.Data4[2], 1);
    EQ_U32(g.Data4[3], 2);
    CU_ASSERT(etw_lv_guid_is_ours(&g, 0x12345678u));
    CU_ASSERT(!etw_lv_guid_is_ours(&g, 0x12345679u)); /* another process's */
    g.Data4[1] = 0x12;
    CU_ASSERT(!etw_lv_guid_is_ours(&g, 0x12345678u)); /* not the suite's pattern */
    CU_ASSERT(!etw_lv_guid_is_ours(NULL, 1));
}

static const etw_u8 *mem_base;
static const void *identity(etw_u64 ptr)
{
    return mem_base + ptr;
}

TEST(find_traits, "the PROV_TRAITS extended data item is found and checked")
{
    /* provider "Me" with a group trait: its size (24), "Me" and its NUL, then TraitSize 19 (2
     * bytes), TraitType 1 (group) and a zero GUID */
    const etw_u8 blob[2 + 3 + 19] = {24, 0, 'M', 'e', 0, 19, 0, 1};
    etw_u8 mem[64] = {1, 2, 3, 4};
    memcpy(mem + 8, blob, sizeof blob);
    mem_base = mem;
    struct etw_lv_ext_item items[2] = {{0, 2 /* SID */, 0, 4, 0}, {0, ETW_LV_EXT_TYPE_PROV_TRAITS, 0, sizeof blob, 8}};
    etw_u32 size = 99;
    const char *why = NULL;
    const etw_u8 *b = etw_lv_find_traits(items, 2, identity, &size, &why);
    CU_ASSERT(b == mem + 8 && size == sizeof blob && why == NULL);
    CU_ASSERT(!etw_lv_find_traits(items, 1, identity, &size, &why) && size == 0 && why && strstr(why, "no EVENT_HEADER_EXT_TYPE_PROV_TRAITS"));
    items[1].data_size = sizeof blob - 1;
    CU_ASSERT(!etw_lv_find_traits(items, 2, identity, &size, &why) && why && strstr(why, "leading size"));
    memcpy(mem + 40, (const etw_u8[]){4, 0, 'A', 'B'}, 4);
    items[1].data_ptr = 40, items[1].data_size = 4;
    CU_ASSERT(!etw_lv_find_traits(items, 2, identity, &size, &why) && why && strstr(why, "NUL-terminated"));
    items[1].data_size = 2;
    CU_ASSERT(!etw_lv_find_traits(items, 2, identity, &size, &why) && why && strstr(why, "shorter"));
}

/* which event is the provider's, and what it carries */
TEST(event_traits,
     "the consumer takes the provider's event and its PROV_TRAITS item, and ignores others")
{
    static const etw_guid want = {0xC0C0C0C0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0xC}}, other = {0xC0C0C0C0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0xD}};
    etw_u8 mem[64] = {0};
    const etw_u8 blob[] = {13, 0, 'E', 't', 'w', 'C', 'f', 0, 5, 0, 200, 0xAB, 0xCD};
    memcpy(mem + 16, blob, sizeof blob);
    mem_base = mem;
    struct etw_lv_ext_item items[2] = {{0, 3 /* TS_ID */, 0, 4, 0}, {0, ETW_LV_EXT_TYPE_PROV_TRAITS, 0, sizeof blob, 16}};
    etw_u8 out[32];
    etw_u32 size = 99;
    const char *why = "x";
    memset(out, 0xEE, sizeof out);
    /* another provider's event: not looked at, nothing copied */
    EQ_U32(etw_lv_event_traits(&other, &want, items, 2, identity, out, sizeof out, &size, &why), ETW_LV_EV_OTHER);
    CU_ASSERT(size == 0 && why == NULL && out[0] == 0xEE);
    /* the provider's, with its traits */
    EQ_U32(etw_lv_event_traits(&want, &want, items, 2, identity, out, sizeof out, &size, &why), ETW_LV_EV_TRAITS);
    CU_ASSERT(size == sizeof blob && !memcmp(out, blob, sizeof blob) && why == NULL);
    EQ_U32(etw_lv_event_traits(&want, &want, items, 1, identity, out, sizeof out, &size, &why), ETW_LV_EV_NO_TRAITS);
    CU_ASSERT(size == 0 && why && strstr(why, "no EVENT_HEADER_EXT_TYPE_PROV_TRAITS"));
    EQ_U32(etw_lv_event_traits(&want, &want, items, 2, identity, out, 8, &size, &why), ETW_LV_EV_NO_TRAITS);
    CU_ASSERT(size == 0 && why && strstr(why, "larger"));
    EQ_U32(etw_lv_event_traits(NULL, &want, items, 2, identity, out, sizeof out, &size, &why), ETW_LV_EV_OTHER);
}

/* the enable-callback log: what a member was told, and the verdict the group cases print */
TEST(enable_log, "the enable-callback log and its verdict")
{
    static const etw_guid src;
    struct etw_enable_log l = {0};
    char buf[160];
#define VERDICT(on, level, any) etw_enable_log_verdict(&l, on, level, any, buf, sizeof buf)
    HAS(VERDICT(true, 4, 0xF0), "not called");
    CU_ASSERT(VERDICT(false, 0, 0) == NULL);
    etw_enable_log_cb(&src, 1, 4, 0xF0, 0, NULL, &l);
    CU_ASSERT(l.calls == 1 && l.enables == 1 && l.level == 4 && l.any == 0xF0);
    CU_ASSERT(VERDICT(true, 4, 0xF0) == NULL);
    HAS(VERDICT(false, 0, 0), "enabled 1 time");
    HAS(VERDICT(true, 5, 0xF0), "level 4");
    HAS(VERDICT(true, 4, 0xF1), "0xf0");
    /* enabled, then disabled: no longer enabled */
    etw_enable_log_cb(&src, 0, 0, 0, 0, NULL, &l);
    HAS(VERDICT(true, 4, 0xF0), "then called with IsEnabled 0");
    /* only a disable: never enabled */
    memset(&l, 0, sizeof l);
    etw_enable_log_cb(&src, 0, 0, 0, 0, NULL, &l);
    CU_ASSERT(VERDICT(false, 0, 0) == NULL);
    HAS(VERDICT(true, 4, 0xF0), "never with IsEnabled 1");
    etw_enable_log_cb(&src, 1, 4, 0xF0, 0, NULL, NULL); /* no context: ignored, no crash */
}

/* what a query shows decides whose session it is: the log file's identity first, then the logger
 * id StartTraceW returned; a path string never decides */
TEST(session_owner, "a session is ours by its log file's identity and logger id, never a path")
{
    const char *why = NULL;
    struct etw_lv_seen s = {.described = false};
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_GONE); /* Wine: the stubs describe nothing */
    s = (struct etw_lv_seen){.described = true, .id_started = 0x21, .id_seen = 0x21, .file = ETW_LV_FILE_SAME};
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_OURS);
    s.file = ETW_LV_FILE_OTHER; /* same id, another file: the id was reused by someone else's logger */
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_NOT_OURS);
    CU_ASSERT(strstr(why, "another log file") != NULL);
    s.file = ETW_LV_FILE_UNKNOWN; /* the reported path could not be opened: the id decides */
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_OURS);
    s.id_seen = 0x22;
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_NOT_OURS);
    s.id_seen = 0;
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_UNSURE);
    s = (struct etw_lv_seen){.described = true, .id_started = 0x21, .id_seen = 0x22, .file = ETW_LV_FILE_NONE};
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_NOT_OURS);
    s.id_seen = 0x21;
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_OURS);
    /* a private in-process session: its handle is this process's alone, unless it writes elsewhere */
    s = (struct etw_lv_seen){.described = true, .file = ETW_LV_FILE_UNKNOWN, .in_process = true};
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_OURS);
    s.file = ETW_LV_FILE_OTHER;
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_NOT_OURS);
    s.described = false;
    CU_ASSERT_EQUAL(etw_lv_session_owner(&s, &why), ETW_LV_GONE);
    EQ_U32(etw_lv_logger_id(0x0000000100000021ull), 0x21);

    struct etw_lv_file_id a = {0x1234ABCDu, 0x10000u, 0x42u}, b = a;
    CU_ASSERT(etw_lv_same_file(&a, &b));
    b.index_lo++;
    CU_ASSERT(!etw_lv_same_file(&a, &b));
    b = a;
    b.volume++;
    CU_ASSERT(!etw_lv_same_file(&a, &b));
}

TEST(openable_path, "every form of a reported log file path is made openable")
{
    wchar_t out[300];
    static const struct {
        const wchar_t *in, *out;
    } ok[] = {
        {L"C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\etwconf-1-ab\\kernel-1.etl", L"C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\etwconf-1-ab\\kernel-1.etl"},
        {L"\\??\\C:\\T\\kernel-1.etl", L"\\\\?\\C:\\T\\kernel-1.etl"},
        {L"\\DosDevices\\C:\\T\\kernel-1.etl", L"\\\\?\\C:\\T\\kernel-1.etl"},
        {L"\\Device\\HarddiskVolume3\\T\\kernel-1.etl", L"\\\\?\\GLOBALROOT\\Device\\HarddiskVolume3\\T\\kernel-1.etl"},
        {L"\\\\?\\C:\\T\\kernel-1.etl", L"\\\\?\\C:\\T\\kernel-1.etl"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CU_ASSERT_FATAL(etw_lv_openable_path(ok[i].in, out, sizeof out / sizeof out[0]));
        CHECKF(!wcscmp(out, ok[i].out), "path %zu: %.120ls, expected %.120ls", i, out, ok[i].out);
    }
    CU_ASSERT(!etw_lv_openable_path(L"", out, 300));
    CU_ASSERT(!etw_lv_openable_path(L"kernel-1.etl", out, 300)); /* relative: not a form a query gives */
    CU_ASSERT(!etw_lv_openable_path(L"\\??\\C:\\T\\kernel-1.etl", out, 8)); /* does not fit */
}

TEST(dacl_order, "a deny entry denies only ahead of the allow entries that grant the right")
{
    enum { ENABLE = 0x80 };
    int deny = 0, allow = 0;
    struct etw_lv_ace first[] = {{ETW_LV_ACE_DENY, ENABLE, true, false}, {ETW_LV_ACE_ALLOW, 0x1FFF, true, false}};
    CU_ASSERT(etw_lv_dacl_denies(true, first, 2, ENABLE, &deny, &allow));
    CU_ASSERT_EQUAL(deny, 0);
    struct etw_lv_ace after[] = {{ETW_LV_ACE_ALLOW, 0x1FFF, true, false}, {ETW_LV_ACE_DENY, ENABLE, true, false}}; /* Administrators first */
    CU_ASSERT(!etw_lv_dacl_denies(true, after, 2, ENABLE, &deny, &allow));
    CU_ASSERT_EQUAL(allow, 0);
    CU_ASSERT_EQUAL(deny, -1);
    struct etw_lv_ace other[] = {{ETW_LV_ACE_ALLOW, 0x1FFF, false, false}, {ETW_LV_ACE_DENY, ENABLE, true, false},
                                 {ETW_LV_ACE_ALLOW, 0x1FFF, true, false}}; /* an allow for someone else does not count */
    CU_ASSERT(etw_lv_dacl_denies(true, other, 3, ENABLE, &deny, &allow));
    CU_ASSERT_EQUAL(deny, 1);
    struct etw_lv_ace inherit[] = {{ETW_LV_ACE_DENY, ENABLE, true, true}, {ETW_LV_ACE_ALLOW, 0x1FFF, true, false}};
    CU_ASSERT(!etw_lv_dacl_denies(true, inherit, 2, ENABLE, &deny, &allow)); /* inherit-only: not the object's */
    CU_ASSERT(!etw_lv_dacl_denies(false, NULL, 0, ENABLE, &deny, &allow)); /* no DACL: everything granted */
    CU_ASSERT(etw_lv_dacl_denies(true, NULL, 0, ENABLE, &deny, &allow)); /* an empty DACL grants nothing */
    const char *why = NULL;
    CU_ASSERT(etw_lv_trial_refused(5, &why));
    CU_ASSERT(!etw_lv_trial_refused(0, &why) && strstr(why, "no effect"));
    CU_ASSERT(!etw_lv_trial_refused(87, &why) && why);
}

TEST(guid_names, "security values are ours only by their exact GUID names")
{
    etw_guid g, mine;
    etw_lv_session_guid(&mine, 0x00012345u, 7, 0xA1B2C3D4u);
    wchar_t name[40];
    swprintf(name, 40, L"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", mine.Data1, mine.Data2, mine.Data3, mine.Data4[0], mine.Data4[1],
             mine.Data4[2], mine.Data4[3], mine.Data4[4], mine.Data4[5], mine.Data4[6], mine.Data4[7]);
    CU_ASSERT_FATAL(etw_lv_parse_guid_name(name, &g));
    CU_ASSERT(!memcmp(&g, &mine, sizeof g));
    EQ_U32(etw_lv_guid_pid(&g), 0x12345);
    CU_ASSERT_FATAL(etw_lv_parse_guid_name(L"E7C0F0F0-0001-2345-9A11-0007D4C3B2A1", &g)); /* any case */
    EQ_U32(etw_lv_guid_pid(&g), 0x12345);
    CU_ASSERT_FATAL(etw_lv_parse_guid_name(L"9e814aad-3204-11d2-9a82-006008a86939", &g)); /* SystemTraceControlGuid: not ours */
    EQ_U32(etw_lv_guid_pid(&g), 0);
    static const wchar_t *const bad[] = {L"", L"e7c0f0f0-0001-2345-9a11-0007d4c3b2a", L"e7c0f0f0-0001-2345-9a11-0007d4c3b2a1x",
                                         L"{e7c0f0f0-0001-2345-9a11-0007d4c3b2a1}", L"e7c0f0f0 0001-2345-9a11-0007d4c3b2a1",
                                         L"e7c0f0f0-0001-2345-9a11-0007d4c3b2g1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(!etw_lv_parse_guid_name(bad[i], &g), "'%ls' was taken for a GUID", bad[i]);
}

/* the profile sources the kernel lists: those besides the timer are counted, a bad chain is -1 */
TEST(pmc_source_count, "the profile sources besides the timer are counted from the kernel's list")
{
    /* the timer (0), then source 2, then source 19: 0x20-byte records of little-endian
     * {NextEntryOffset, Source, ...}, the last NextEntryOffset 0 */
    etw_u8 b[8 + 3 * 0x20] = {[8] = 0x20, [0x28] = 0x20, [0x2C] = 2, [0x4C] = 19};
    CU_ASSERT_EQUAL(etw_lv_pmc_sources(b, sizeof b), 2);
    CU_ASSERT_EQUAL(etw_lv_pmc_sources(b, 8 + 0x20), -1); /* the chain runs past the answer */
    b[8] = 0; /* only the timer: a Hyper-V guest */
    CU_ASSERT_EQUAL(etw_lv_pmc_sources(b, sizeof b), 0);
    b[8] = 4; /* a NextEntryOffset inside the record */
    CU_ASSERT_EQUAL(etw_lv_pmc_sources(b, sizeof b), -1);
    CU_ASSERT_EQUAL(etw_lv_pmc_sources(b, 8), -1);
    CU_ASSERT_EQUAL(etw_lv_pmc_sources(NULL, 100), -1);
}
