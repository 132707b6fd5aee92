/* harness/tests/unit_versions.c - versions are builds: names and numbers parsed, version keys and
 * their ranges, the reference emulating by build, UNKNOWN() naming the build. */
#define UNIT_SUITE "versions are builds"
#include "unit.h"

TEST(parse_names, "names, aliases and build numbers parse")
{
    /* "win11" is Wine's name, not an entry; a part of an alias ("server") is not one */
    static const struct {
        const char *name;
        unsigned id;
    } names[] = {{"6.1", ETW_V6_1}, {"win7", ETW_V6_1}, {"win7-sp1", ETW_V6_1},
                 {"win7-rtm", ETW_V6_1_7600}, {"6.1.7601-esi", ETW_V6_1_7601_ESI},
                 {"win11-24h2", ETW_V10_0_26100}, {"server2025", ETW_V10_0_26100},
                 {"10.0.26100", ETW_V10_0_26100}, {"server2019", ETW_V10_0_17763},
                 {"10", ETW_V10_0}, {"10.0", ETW_V10_0}, {"win11", 0}, {"server", 0}, {"", 0},
                 {"7", 0}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECKF(etw_version_parse(names[i].name) == names[i].id, "'%s' does not parse to 0x%X",
               names[i].name, names[i].id);
    CU_ASSERT_STRING_EQUAL(etw_version_name(ETW_V6_3), "6.3");
    /* every entry: its name and each alias give it back, its key orders the table */
    for (size_t i = 0; i < etw_version_count; i++) {
        const struct etw_version_info *e = &etw_versions[i];
        CHECKF(etw_version_parse(e->name) == e->id, "%s does not parse to its entry", e->name);
        CHECKF(etw_version_info(e->id) == e, "%s: lookup by id", e->name);
        CHECKF(etw_version_by_key(e->key) == e, "%s: lookup by key", e->name);
        CHECKF(i == 0 || etw_versions[i - 1].key < e->key, "%s is not after %s", e->name, i ? etw_versions[i - 1].name : "");
        char a[64];
        snprintf(a, sizeof a, "%s", e->aliases);
        for (char *t = strtok(a, " "); t; t = strtok(NULL, " "))
            CHECKF(etw_version_parse(t) == e->id, "alias %s does not parse to %s", t, e->name);
    }
}

static bool holds(const struct etw_expect *x, unsigned key)
{
    return key >= x->vmin && key <= x->vmax;
}

TEST(ranges, "ranges compare version keys")
{
    const struct etw_expect nt61 = AT(V6_1, V6_1), esi = AT(V6_1_7601_ESI, V6_1_7601_ESI), rtm = AT(V5_2, V6_1_7600),
                            from10 = FROM(V10_0), mid = AT(V10_0_17763, V10_0_19045), late = FROM(V10_0_20348);
    unsigned k7600 = ETW_VKEY(0x0601, 7600, 0), k7601 = ETW_VKEY(0x0601, 7601, 0), k7601u = ETW_VKEY(0x0601, 7601, 1),
             k18362 = ETW_VKEY(0x0A00, 18362, 0), k26100 = ETW_VKEY(0x0A00, 26100, 0), k27000 = ETW_VKEY(0x0A00, 27000, 0);
    CU_ASSERT(holds(&nt61, k7600) && holds(&nt61, k7601) && holds(&nt61, k7601u)); /* V6_1: every 6.1 build */
    CU_ASSERT(!holds(&esi, k7601) && holds(&esi, k7601u) && !holds(&esi, k7600));
    CU_ASSERT(holds(&rtm, k7600) && !holds(&rtm, k7601));
    CU_ASSERT(holds(&from10, k18362) && holds(&from10, k27000) && !holds(&from10, k7601u)); /* FROM(V10_0): every 10.0 build */
    CU_ASSERT(holds(&mid, k18362) && !holds(&mid, k26100) && holds(&mid, ETW_VKEY(0x0A00, 19045, 3)));
    CU_ASSERT(holds(&late, k26100) && holds(&late, k27000) && !holds(&late, k18362));
    char b[32];
    etw_version_bound_name(ETW_VHI(V6_1), true, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "6.1");
    etw_version_bound_name(ETW_VLO(V10_0_19045), false, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "10.0.19045");
    etw_version_bound_name(ETW_VHI(V10_0_19045), true, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "10.0.19045");
    etw_version_key_name(k18362, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "10.0.18362");
    etw_version_key_name(k7601u, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "6.1.7601-esi");
    CU_ASSERT_STRING_EQUAL(etw_version_enum_name(ETW_VLO(V10_0_26100), false), "V10_0_26100");
    CU_ASSERT_STRING_EQUAL(etw_version_enum_name(ETW_VHI(V10_0), true), "V10_0");
    CU_ASSERT(etw_version_enum_name(ETW_VLO(V10_0), true) == NULL);
}

TEST(reference_by_build, "the reference emulates by build")
{
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V6_1_7601_ESI, 0), 0);
    CU_ASSERT(EtwRef_GetProcAddress("advapi32", "EventSetInformation") != NULL);
    CU_ASSERT_EQUAL(EtwRef_GetVersion(), ETW_V6_1);
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V6_1, 0), 0); /* 6.1 SP1, no update */
    CU_ASSERT(EtwRef_GetProcAddress("advapi32", "EventSetInformation") == NULL);
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V6_1, 7600), 0);
    CU_ASSERT(EtwRef_GetProcAddress("advapi32", "EventSetInformation") == NULL);
    CU_ASSERT(EtwRef_GetProcAddress("advapi32", "TraceSetInformation") != NULL);
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V10_0, 18362), 0); /* a build the table does not name */
    CU_ASSERT(EtwRef_GetProcAddress("sechost", "TraceQueryInformation") != NULL);
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V10_0_26100, 0), 0);
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V10_0_26100, 1234), -1); /* an entry with another build */
    CU_ASSERT_EQUAL(EtwRef_SetVersion(0x0A01, 0), -1);
    CU_ASSERT_EQUAL(EtwRef_SetVersion(ETW_V10_0, 0), 0);
}

/* UNKNOWN() skips with the build run; a narrower range before a wider one picks the build */
TEST(unknown_names_the_build, "UNKNOWN() names the build; the narrower range comes first")
{
    struct etw_runner r = {0};
    const struct etw_case *c = etw_case_find("exp.ntdll.etwesi"), *a = etw_case_find("exp.advapi32.esi");
    CU_ASSERT_FATAL(c != NULL && a != NULL);
    static const struct {
        unsigned v;
        enum etw_status_kind ntdll, advapi32;
        const char *reason;
    } at[] = {{ETW_V6_1_7601_ESI, R_SKIP, R_PASS, "unknown for 6.1.7601-esi"},
              {ETW_V6_1, R_SKIP, R_SKIP, "does not apply to 6.1"},
              {ETW_V6_1_7600, R_SKIP, R_PASS, "does not apply to 6.1.7600"},
              {ETW_V10_0_26100, R_PASS, R_PASS, NULL}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        const struct etw_version_info *e = etw_version_info(at[i].v);
        unit_runner_at(&r, at[i].v);
        struct etw_result res;
        etw_run_case(&r, c, &res);
        CHECKF(res.status == at[i].ntdll, "exp.ntdll.etwesi at %s: %s %s", e->name, etw_status_name(res.status), res.reason);
        if (at[i].reason)
            CHECKF(!strncmp(res.reason, at[i].reason, strlen(at[i].reason)), "at %s: reason '%s'", e->name, res.reason);
        etw_run_case(&r, a, &res);
        CHECKF(res.status == at[i].advapi32, "exp.advapi32.esi at %s: %s %s", e->name, etw_status_name(res.status), res.reason);
    }
    unit_runner_at(&r, ETW_V10_0);
}
