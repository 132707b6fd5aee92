/* harness/tests/unit_livefx.c - the live Windows fixtures' setup logic (harness/targets/win_live/
 * build.c), checked here: mode bits per session kind, the group-enable parameters, the deny-ACE
 * call, the session GUIDs whose security may be changed, finding the provider traits in an
 * event's extended data. The values are the Windows SDK's (evntrace.h, evntcons.h). */
#include "unit.h"
#include "harness/case.h"
#include "harness/etwconf.h"
#include "harness/targets/win_live/build.h"

static void test_kinds_match_case_h(void)
{
    EQ_U32(ETW_LV_KERNEL, LG_KERNEL);
    EQ_U32(ETW_LV_SYSTEM, LG_SYSTEM);
    EQ_U32(ETW_LV_PLAIN, LG_PLAIN);
    EQ_U32(ETW_LV_NOACCESS, LG_NOACCESS);
    EQ_U32(ETW_LV_PRIVATE, LG_PRIVATE);
}

static void test_session_plans(void)
{
    struct etw_lv_session_plan p;
    /* the SDK's values */
    EQ_U32(ETW_LV_PRIVATE_LOGGER_MODE, 0x800);
    EQ_U32(ETW_LV_PRIVATE_IN_PROC, 0x20000);
    EQ_U32(ETW_LV_SYSTEM_LOGGER_MODE, ETW_EVENT_TRACE_SYSTEM_LOGGER_MODE);
    CU_ASSERT_FATAL(etw_lv_session_plan(LG_PRIVATE, &p));
    EQ_U32(p.log_file_mode, 0x800 | 0x20000 | 0x400);
    CU_ASSERT(!(p.log_file_mode & ETW_LV_REAL_TIME_MODE));
    CU_ASSERT(p.query_by_handle && !p.log_file && !p.deny_enable);
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

static void test_group_enable_params(void)
{
    struct etw_lv_enable_params e;
    memset(&e, 0xAB, sizeof e);
    etw_lv_group_enable_params(&e);
    EQ_U32(e.version, 2);
    EQ_U32(e.enable_property, 0x20); /* EVENT_ENABLE_PROPERTY_PROVIDER_GROUP */
    EQ_U32(e.control_flags, 0);
    EQ_U32(e.filter_desc_count, 0);
    static const etw_guid zero;
    CU_ASSERT(!memcmp(&e.source_id, &zero, sizeof zero));
}

static void test_deny_enable_call(void)
{
    struct etw_lv_access_call a = {99, 99, true};
    etw_lv_deny_enable_call(&a);
    EQ_U32(a.operation, 2); /* EventSecurityAddDACL: adds an ACE, keeps the others */
    EQ_U32(a.rights, 0x80); /* TRACELOG_GUID_ENABLE */
    CU_ASSERT(!a.allow);
}

static void test_session_guids(void)
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

static void test_find_traits(void)
{
    /* provider "Me" with a group trait: 2 (size) + 3 ("Me", NUL) + 19 (TraitSize 2, TraitType 1, a GUID) */
    etw_u8 blob[2 + 3 + 19] = {0};
    blob[0] = sizeof blob;
    memcpy(blob + 2, "Me", 3);
    blob[5] = 19, blob[7] = 1; /* TraitSize 19, TraitType 1 (group) */
    etw_u8 other[4] = {1, 2, 3, 4};
    etw_u8 mem[64];
    memcpy(mem, other, 4);
    memcpy(mem + 8, blob, sizeof blob);
    mem_base = mem;
    struct etw_lv_ext_item items[2] = {{0, 2 /* SID */, 0, 4, 0}, {0, ETW_LV_EXT_TYPE_PROV_TRAITS, 0, sizeof blob, 8}};
    etw_u32 size = 99;
    const char *why = NULL;
    EQ_U32(ETW_LV_EXT_TYPE_PROV_TRAITS, 12);
    EQ_U32(sizeof(struct etw_lv_ext_item), 16);
    const etw_u8 *b = etw_lv_find_traits(items, 2, identity, &size, &why);
    CU_ASSERT(b == mem + 8 && size == sizeof blob && why == NULL);
    /* no traits item */
    CU_ASSERT(!etw_lv_find_traits(items, 1, identity, &size, &why) && size == 0 && why && strstr(why, "no EVENT_HEADER_EXT_TYPE_PROV_TRAITS"));
    /* the leading size disagrees with DataSize */
    items[1].data_size = sizeof blob - 1;
    CU_ASSERT(!etw_lv_find_traits(items, 2, identity, &size, &why) && why && strstr(why, "leading size"));
    /* an unterminated name */
    etw_u8 bad[4] = {4, 0, 'A', 'B'};
    memcpy(mem + 40, bad, 4);
    items[1].data_ptr = 40, items[1].data_size = 4;
    CU_ASSERT(!etw_lv_find_traits(items, 2, identity, &size, &why) && why && strstr(why, "NUL-terminated"));
    /* too short */
    items[1].data_size = 2;
    CU_ASSERT(!etw_lv_find_traits(items, 2, identity, &size, &why) && why && strstr(why, "shorter"));
}

void unit_livefx_register(void)
{
    CU_pSuite s = CU_add_suite("live Windows fixtures (setup logic)", NULL, NULL);
    CU_add_test(s, "the session kinds are case.h's", test_kinds_match_case_h);
    CU_add_test(s, "each session kind gets its mode bits (private: PRIVATE_LOGGER_MODE | PRIVATE_IN_PROC)", test_session_plans);
    CU_add_test(s, "a group enable sets EVENT_ENABLE_PROPERTY_PROVIDER_GROUP in version-2 parameters", test_group_enable_params);
    CU_add_test(s, "the no-access session adds a DACL entry denying TRACELOG_GUID_ENABLE", test_deny_enable_call);
    CU_add_test(s, "security is changed only for a session GUID this process created", test_session_guids);
    CU_add_test(s, "the PROV_TRAITS extended data item is found and checked", test_find_traits);
}
