/* cases/provider.c - EventRegister, EventSetInformation, provider traits and groups, disallow lists
 * (spec/rules/provider.def; seed 003). */
#include "cases/common.h"
#include "cases/enable_log.h"

/* traits blobs: UINT16 TraitsSize, NUL-terminated UTF-8 name, then {UINT16 size, UINT8 type, data} */
#define NAME_ONLY U16(8), 'E', 't', 'w', 'C', 'f', 0
#define GROUP_TRAITS(g) U16(27), 'E', 't', 'w', 'C', 'f', 0, U16(19), U8(1), GUIDB(g)
#define WITH_GROUP GROUP_TRAITS(GROUP_G)
/* a second provider group, one the caller may join while GROUP_G is restricted */
#define GROUP_OPEN 0x6e0b0c01, 0x1234, 0x4abc, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x08
#define WITH_CUSTOM U16(13), 'E', 't', 'w', 'C', 'f', 0, U16(5), U8(200), 0xAB, 0xCD

static void er_null_out(struct etw_ctx *c);
static void er_success(struct etw_ctx *c);
static void traits_once(struct etw_ctx *c);
static void traits_large(struct etw_ctx *c);
static void traits_group_permission(struct etw_ctx *c);
static void dal_group_enable(struct etw_ctx *c);
static void dal_per_session(struct etw_ctx *c);
static void dal_dynamic(struct etw_ctx *c);
static void dal_private(struct etw_ctx *c);
static void esi_stale_reused(struct etw_ctx *c);
static void traits_in_events(struct etw_ctx *c);

/* a malformed traits blob: refused (the format rule, seed 003) with ERROR_FILE_CORRUPT (Chappell) */
#define TRAITS_BAD(id_, rule_, title_, len_, ...)                                                                           \
    CASE(.id = id_, .rules = RULES(rule_, RID_TRAITS_FORMAT_CODE), .title = title_, .fn = FN_ESI, .fx = {.provider = true},    \
         .args = {.handle = H_REG, .cls = ETW_EventProviderSetTraits, .len = len_, __VA_ARGS__},                              \
         .expect = {FROM(V10_0, .rc = ERR(FILE_CORRUPT), RC_RULE(RID_TRAITS_FORMAT_CODE), FAILS(rule_))})
#define ESI_CASE(id_, rules_, title_, cls_, len_, from, rc_, ...)                                                           \
    CASE(.id = id_, .rules = rules_, .title = title_, .fn = FN_ESI, .fx = {.provider = true},                               \
         .args = {.handle = H_REG, .cls = cls_, .len = len_, __VA_ARGS__}, .expect = {FROM(from, .rc = rc_)})

static const struct etw_case cases[] = {
    CASE(.id = "er.null-out", .rules = RULES(RID_ER_NULL_OUT), .title = "EventRegister with a NULL RegHandle: ERROR_INVALID_PARAMETER",
         .fn = FN_CUSTOM, .run = er_null_out, .expect = {FROM(V6_0)})
    CASE(.id = "er.success", .rules = RULES(RID_ER_SUCCESS), .title = "EventRegister gives ERROR_SUCCESS and a non-zero handle", .fn = FN_CUSTOM,
         .run = er_success, .expect = {FROM(V6_0)})
    /* ---- EventSetInformation argument checks */
    ESI_CASE("esi.class-reserved1", RULES(RID_ESI_CLASS_RESERVED1), "class 1 (EventProviderSetReserved1): ERROR_NOT_SUPPORTED", 1, 4, V6_2,
             ERR(NOT_SUPPORTED))
    CASE(.id = "esi.class-4", .rules = RULES(RID_ESI_CLASS), .title = "class 4 is not an EventSetInformation class in the first Windows 10",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 4, .len = 0},
         .expect = {AT(V6_2, ETW_VKEY(0x0A00, 10240, 0xF), .rc = ERR(NOT_SUPPORTED)), UNKNOWN(V10_0_14393, ETW_VMAX)})
    ESI_CASE("esi.class-255", RULES(RID_ESI_CLASS), "class 255: ERROR_NOT_SUPPORTED", 255, 4, V6_2, ERR(NOT_SUPPORTED))
    ESI_CASE("esi.class-high", RULES(RID_ESI_CLASS), "class 0x80000002: ERROR_NOT_SUPPORTED", 0x80000002u, 8, V6_2, ERR(NOT_SUPPORTED))
    CASE(.id = "esi.class-version-traits", .rules = RULES(RID_ESI_CLASS_VERSION), .title = "traits (class 2) are not supported before 10.0",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 2, .len = 8, IN(NAME_ONLY)},
         .expect = {AT(V6_2, V6_3, .rc = ERR(NOT_SUPPORTED))})
    CASE(.id = "esi.class-version-desctype", .rules = RULES(RID_ESI_CLASS_VERSION), .title = "descriptor type (class 3) is not supported before 10.0",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 3, .len = 1, IN(1)},
         .expect = {AT(V6_2, V6_3, .rc = ERR(NOT_SUPPORTED))})
    ESI_CASE("esi.bintrack-length", RULES(RID_ESI_BINTRACK_LENGTH), "class 0 with a length of 4: ERROR_INVALID_PARAMETER", 0, 4, V6_2,
             ERR(INVALID_PARAMETER))
    CASE(.id = "esi.bintrack-ok", .rules = RULES(RID_ESI_BINTRACK_LENGTH), .title = "class 0 with a NULL buffer of length 0 succeeds", .fn = FN_ESI,
         .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 0, .buf = B_NULL, .len = 0}, .expect = {FROM(V6_2, .rc = ERR(SUCCESS))})
    CASE(.id = "esi.traits-null", .rules = RULES(RID_ESI_TRAITS_ARGS), .title = "traits with a NULL buffer and a length: ERROR_INVALID_PARAMETER",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 2, .buf = B_NULL, .len = 8},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER))})
    /* too short for a TraitsSize and a NUL-terminated name, too long for a UINT16 TraitsSize: refused
     * by the seed's format, with the code of EventSetInformation's own length check (decompilation) */
    CASE(.id = "esi.traits-2-bytes", .rules = RULES(RID_TRAITS_FORMAT_NAME, RID_ESI_TRAITS_BOUNDS), .title = "a 2-byte traits blob: ERROR_INVALID_PARAMETER",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 2, .len = 2, IN(U16(2))},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER), RC_RULE(RID_ESI_TRAITS_BOUNDS), FAILS(RID_TRAITS_FORMAT_NAME))})
    CASE(.id = "esi.traits-64k", .rules = RULES(RID_TRAITS_FORMAT_SIZE, RID_ESI_TRAITS_BOUNDS), .title = "a 0x10000-byte traits blob: ERROR_INVALID_PARAMETER",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 2, .len = 0x10000},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER), RC_RULE(RID_ESI_TRAITS_BOUNDS), FAILS(RID_TRAITS_FORMAT_SIZE))})
    ESI_CASE("esi.desctype-length", RULES(RID_ESI_DESCTYPE_ARGS), "descriptor type with 2 bytes: ERROR_INVALID_PARAMETER", 3, 2, V10_0,
             ERR(INVALID_PARAMETER), IN(1, 0))
    CASE(.id = "esi.desctype-null", .rules = RULES(RID_ESI_DESCTYPE_ARGS), .title = "descriptor type with a NULL buffer: ERROR_INVALID_PARAMETER",
         .fn = FN_ESI, .fx = {.provider = true}, .args = {.handle = H_REG, .cls = 3, .buf = B_NULL, .len = 1},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER))})
    ESI_CASE("esi.desctype-value", RULES(RID_ESI_DESCTYPE_ARGS), "descriptor type 2 (not a BOOLEAN): ERROR_INVALID_PARAMETER", 3, 1, V10_0,
             ERR(INVALID_PARAMETER), IN(2))
    ESI_CASE("esi.desctype-ok", RULES(RID_ESI_DESCTYPE_ARGS), "descriptor type 1 succeeds", 3, 1, V10_0, ERR(SUCCESS), IN(1))
    CASE(.id = "esi.args-before-handle", .rules = RULES(RID_ESI_ARGS_FIRST), .title = "bad traits arguments with a bad handle: the arguments are checked first",
         .fn = FN_ESI, .args = {.handle = H_VALUE, .value = 0x1234, .cls = 2, .buf = B_NULL, .len = 8},
         .expect = {FROM(V10_0, .rc = ERR(INVALID_PARAMETER))})
    CASE(.id = "esi.bad-handle", .rules = RULES(RID_ESI_BAD_HANDLE), .title = "a handle that was never registered is rejected", .fn = FN_ESI,
         .args = {.handle = H_VALUE, .value = 0x1234, .cls = 0, .buf = B_NULL, .len = 0},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_HANDLE), ALSO(ERR(INVALID_PARAMETER)))})
    CASE(.id = "esi.zero-handle", .rules = RULES(RID_ESI_BAD_HANDLE), .title = "handle 0 is rejected", .fn = FN_ESI,
         .args = {.handle = H_ZERO, .cls = 0, .buf = B_NULL, .len = 0},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_HANDLE), ALSO(ERR(INVALID_PARAMETER)))})
    CASE(.id = "esi.stale-handle", .rules = RULES(RID_ESI_BAD_HANDLE), .title = "a handle after EventUnregister is rejected", .fn = FN_ESI,
         .fx = {.provider = true}, .args = {.handle = H_REG_STALE, .cls = 0, .buf = B_NULL, .len = 0},
         .expect = {FROM(V6_2, .rc = ERR(INVALID_HANDLE), ALSO(ERR(INVALID_PARAMETER)))})
    /* ---- provider traits */
    ESI_CASE("traits.name-only", RULES(RID_TRAITS_SET, RID_TRAITS_NAME_ONLY), "a blob with a name and no traits is accepted", 2, 8, V10_0, ERR(SUCCESS),
             IN(NAME_ONLY))
    ESI_CASE("traits.group", RULES(RID_TRAITS_GROUP, RID_TRAITS_SET), "a group trait (type 1, a 16-byte GUID) is accepted", 2, 27, V10_0, ERR(SUCCESS),
             IN(WITH_GROUP))
    ESI_CASE("traits.empty-name", RULES(RID_TRAITS_EMPTY_NAME, RID_TRAITS_SET),
             "an empty provider name with a group trait (MicrosoftTelemetry.h's 22-byte blob) is accepted", 2, 22, V10_0, ERR(SUCCESS),
             IN(U16(22), 0, U16(19), U8(1), 0x1a, 0x73, 0x50, 0x4f, 0xcf, 0x89, 0x82, 0x47, 0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x04, 0x76, 0xba))
    ESI_CASE("traits.custom", RULES(RID_TRAITS_CUSTOM), "a trait of type 200 (for external developers) is accepted", 2, 13, V10_0, ERR(SUCCESS),
             IN(WITH_CUSTOM))
    TRAITS_BAD("traits.size-too-big", RID_TRAITS_FORMAT_SIZE, "TraitsSize larger than the blob: ERROR_FILE_CORRUPT", 8,
               IN(U16(9), 'E', 't', 'w', 'C', 'f', 0))
    TRAITS_BAD("traits.size-too-small", RID_TRAITS_FORMAT_SIZE, "TraitsSize smaller than the blob: ERROR_FILE_CORRUPT", 8,
               IN(U16(7), 'E', 't', 'w', 'C', 'f', 0))
    TRAITS_BAD("traits.no-nul", RID_TRAITS_FORMAT_NAME, "a name without its NUL: ERROR_FILE_CORRUPT", 7,
               IN(U16(7), 'E', 't', 'w', 'C', 'f'))
    TRAITS_BAD("traits.trait-overruns", RID_TRAITS_FORMAT_TRAITS, "a trait that claims more bytes than remain: ERROR_FILE_CORRUPT", 12,
               IN(U16(12), 'E', 't', 'w', 'C', 'f', 0, U16(6), U8(200), 0xAB))
    TRAITS_BAD("traits.trait-too-short", RID_TRAITS_FORMAT_TRAITS, "a trait whose TraitSize is below 3: ERROR_FILE_CORRUPT", 11,
               IN(U16(11), 'E', 't', 'w', 'C', 'f', 0, U16(2), U8(200)))
    TRAITS_BAD("traits.trailing-bytes", RID_TRAITS_FORMAT_TRAITS, "two bytes after the last trait: ERROR_FILE_CORRUPT", 15,
               IN(U16(15), 'E', 't', 'w', 'C', 'f', 0, U16(5), U8(200), 0xAB, 0xCD, 0x01, 0x02))
    CASE(.id = "traits.once", .rules = RULES(RID_TRAITS_ONCE, RID_TRAITS_ONCE_CODE), .title = "traits set once cannot be set again", .fn = FN_CUSTOM,
         .run = traits_once, .fx = {.provider = true}, .expect = {FROM(V10_0)})
    CASE(.id = "traits.large", .rules = RULES(RID_TRAITS_SIZE_ADVICE), .title = "a 300-byte well-formed blob is accepted: 256 bytes is advice",
         .fn = FN_CUSTOM, .run = traits_large, .fx = {.provider = true}, .expect = {FROM(V10_0)})
    CASE(.id = "traits.group-permission", .rules = RULES(RID_TRAITS_GROUP_PERMISSION, RID_TRAITS_GROUP_PERMISSION_CODE),
         .title = "a group the caller may not join: a group enable does not reach the registration, while it reaches a member of an open group",
         .fn = FN_CUSTOM, .run = traits_group_permission, .fx = {.logger = LG_SYSTEM}, .needs = NEED_RESTRICT_GROUP | NEED_ENABLE_GROUP,
         .expect = {FROM(V10_0)})
    /* ---- provider groups and disallow lists */
    CASE(.id = "dal.group-enable", .rules = RULES(RID_DAL_GROUP_ENABLE),
         .title = "a group enable reaches every member but the disallowed one: its enable callback is called with the session's level and keywords",
         .fn = FN_CUSTOM, .run = dal_group_enable, .fx = {.logger = LG_SYSTEM}, .needs = NEED_ENABLE_GROUP, .expect = {FROM(V10_0)})
    CASE(.id = "dal.per-session", .rules = RULES(RID_DAL_PER_SESSION), .title = "a list set on one session leaves another session's list empty",
         .fn = FN_CUSTOM, .run = dal_per_session, .fx = {.logger = LG_SYSTEM, .logger2 = LG_SYSTEM}, .expect = {FROM(V10_0)})
    CASE(.id = "dal.dynamic", .rules = RULES(RID_DAL_DYNAMIC), .title = "a second list replaces the first", .fn = FN_CUSTOM, .run = dal_dynamic,
         .fx = {.logger = LG_SYSTEM}, .expect = {FROM(V10_0)})
    CASE(.id = "dal.private-session", .rules = RULES(RID_DAL_PRIVATE_SESSION, RID_DAL_PRIVATE_SESSION_CODE),
         .title = "a group enable on a private session reaches no member, while the same enable on a system-logger session does",
         .fn = FN_CUSTOM, .run = dal_private, .fx = {.logger = LG_PRIVATE, .logger2 = LG_SYSTEM}, .needs = NEED_ENABLE_GROUP,
         .expect = {FROM(V10_0)})
    /* added for mutation testing (tools/mutate) */
    TRAITS_BAD("traits.trait-size-two", RID_TRAITS_FORMAT_TRAITS, "a trait whose TraitSize is 2, with a well-formed trait after it: ERROR_FILE_CORRUPT", 13,
               IN(U16(13), 'E', 't', 'w', 'C', 'f', 0, U16(2), U16(3), U8(200)))
    TRAITS_BAD("traits.trait-overruns-by-one", RID_TRAITS_FORMAT_TRAITS, "a trait that claims one byte more than remains: ERROR_FILE_CORRUPT", 12,
               IN(U16(12), 'E', 't', 'w', 'C', 'f', 0, U16(5), U8(200), 0xAB))
    CASE(.id = "esi.stale-reused", .rules = RULES(RID_ESI_BAD_HANDLE),
         .title = "a handle stays stale when its registration slot is reused by a new registration", .fn = FN_CUSTOM,
         .run = esi_stale_reused, .expect = {FROM(V6_2)})
    CASE(.id = "traits.in-events", .rules = RULES(RID_TRAITS_IN_EVENTS),
         .title = "an event written after the traits are set carries them (EVENT_HEADER_EXT_TYPE_PROV_TRAITS), as a real-time consumer reads it",
         .fn = FN_CUSTOM, .run = traits_in_events, .fx = {.logger = LG_PLAIN}, .needs = NEED_EVENTS, .expect = {FROM(V10_0)})
};
CASE_TABLE(cases_provider, cases);

static const etw_guid prov_a = {0xA0A0A0A0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0xA}};
static const etw_guid prov_b = {0xB0B0B0B0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0xB}};
static const etw_guid group_g = MK_GUID(GROUP_G);
static const etw_guid group_open = MK_GUID(GROUP_OPEN);
static const etw_u8 blob_group[] = {WITH_GROUP};
static const etw_u8 blob_group_open[] = {GROUP_TRAITS(GROUP_OPEN)};
static const etw_u8 blob_name[] = {NAME_ONLY};

/* EventRegister, EventSetInformation and EventUnregister; false when one is missing (the case
 * has then ended) */
struct prov_fns {
    etw_pfn_EventRegister er;
    etw_pfn_EventSetInformation esi;
    etw_pfn_EventUnregister eu;
};
static bool prov_fns(struct etw_ctx *c, struct prov_fns *f)
{
    f->er = API(c, etw_pfn_EventRegister, FN_EVENTREGISTER);
    f->esi = f->er ? API(c, etw_pfn_EventSetInformation, FN_ESI) : NULL;
    f->eu = f->esi ? API(c, etw_pfn_EventUnregister, FN_EVENTUNREGISTER) : NULL;
    return f->eu != NULL;
}

/* what a group enable tells each member it reaches (cases/enable_log.h) */
static const char *group_enable_wanted(char *buf, size_t len)
{
    snprintf(buf, len, "IsEnabled 1, level %u, keywords 0x%llx", ETW_GROUP_ENABLE_LEVEL, (unsigned long long)ETW_GROUP_ENABLE_KEYWORDS);
    return buf;
}

/* the state check that a registration's enable callback was not called to enable it */
static void check_not_enabled(struct etw_ctx *c, enum etw_rule_id rule, const char *what, const struct etw_enable_log *l)
{
    char w[160];
    const char *v = etw_enable_log_verdict(l, false, 0, 0, w, sizeof w);
    CHECK(c, rule, A_STATE, what, !v, "not called to enable", "%s", v ? v : "not called to enable");
}

static void er_null_out(struct etw_ctx *c)
{
    etw_pfn_EventRegister er = API(c, etw_pfn_EventRegister, FN_EVENTREGISTER);
    if (er)
        CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 87, er(&prov_a, NULL, NULL, NULL));
}

static void er_success(struct etw_ctx *c)
{
    etw_pfn_EventRegister er = API(c, etw_pfn_EventRegister, FN_EVENTREGISTER);
    etw_pfn_EventUnregister eu = er ? API(c, etw_pfn_EventUnregister, FN_EVENTUNREGISTER) : NULL;
    if (!eu)
        return;
    etw_reghandle h = 0;
    etw_u32 rc = er(&prov_a, NULL, NULL, &h);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 0, rc);
    CHECK(c, RID_PRIMARY, A_OUTPUT, "output: RegHandle", h != 0, "non-zero", "0x%llx", (unsigned long long)h);
    if (!rc)
        eu(h);
}

static void traits_once(struct etw_ctx *c)
{
    etw_pfn_EventSetInformation esi = API(c, etw_pfn_EventSetInformation, FN_ESI);
    if (!esi)
        return;
    etw_u32 rc = esi(c->fixture.reg, ETW_EventProviderSetTraits, (void *)blob_name, sizeof blob_name);
    if (!CHECK_WIN32(c, RID_TRAITS_SET, A_RETURN, "return (first set)", 0, rc))
        return;
    rc = esi(c->fixture.reg, ETW_EventProviderSetTraits, (void *)blob_group, sizeof blob_group);
    CHECK(c, RID_TRAITS_ONCE, A_RETURN, "return (second set) fails", rc != 0, "an error", "%u", rc);
    CHECK_WIN32(c, RID_TRAITS_ONCE_CODE, A_RETURN, "return (second set)", ETW_ERROR_GEN_FAILURE, rc);
}

static void traits_large(struct etw_ctx *c)
{
    etw_pfn_EventSetInformation esi = API(c, etw_pfn_EventSetInformation, FN_ESI);
    etw_u8 *b = esi ? etw_guarded(c, 300) : NULL;
    if (!b)
        return;
    /* size, "EtwCf\0", one custom trait filling the rest (300 - 8 = 292 bytes) */
    memcpy(b, blob_name, sizeof blob_name);
    b[0] = 300 & 0xFF, b[1] = 300 >> 8;
    b[8] = 292 & 0xFF, b[9] = 292 >> 8, b[10] = 201;
    memset(b + 11, 0x42, 300 - 11);
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return", 0, esi(c->fixture.reg, ETW_EventProviderSetTraits, b, 300));
}

/* the enable callbacks of a registration in the restricted group G and of one in an open group;
 * both groups enabled on the session: G's member is not told, the open group's member is (which
 * shows that the session's group enables reach members at all). Seed 003 says membership is
 * denied, not that EventSetInformation fails: its return is the inferred rule's. */
static void traits_group_permission(struct etw_ctx *c)
{
    struct prov_fns f;
    if (!prov_fns(c, &f))
        return;
    static struct etw_enable_log la, lo; /* the callbacks may come from another thread: not on the stack */
    memset((void *)&la, 0, sizeof la);
    memset((void *)&lo, 0, sizeof lo);
    etw_reghandle a = 0, o = 0;
    c->t->restrict_group(&group_g); /* NEED_RESTRICT_GROUP */
    if (f.er(&prov_a, etw_enable_log_cb, &la, &a) || f.er(&prov_b, etw_enable_log_cb, &lo, &o) ||
        f.esi(o, ETW_EventProviderSetTraits, (void *)blob_group_open, sizeof blob_group_open)) {
        etw_broken(c, "fixture: registering two providers, one in an open group, failed");
    } else {
        etw_u32 rc = f.esi(a, ETW_EventProviderSetTraits, (void *)blob_group, sizeof blob_group);
        CHECK_WIN32(c, RID_TRAITS_GROUP_PERMISSION_CODE, A_RETURN, "return (joining the restricted group)", ETW_ERROR_ACCESS_DENIED, rc);
        etw_u32 na = 0, no = 0, rg = 0, ro = 0;
        char wo[160], want[80];
        const char *vo = NULL;
        if (la.calls || lo.calls)
            etw_broken(c, "fixture: an enable callback was called before the groups were enabled (someone enabled a provider's GUID)");
        else if ((rg = etw_enable_group(c, c->fixture.logger, &group_g, &na)) || (ro = etw_enable_group(c, c->fixture.logger, &group_open, &no)))
            etw_broken(c, "fixture: enabling the groups on the session returned %u (restricted group) and %u (open group): what reaches a member cannot be seen",
                       rg, ro);
        else if ((vo = etw_enable_log_verdict(&lo, true, ETW_GROUP_ENABLE_LEVEL, ETW_GROUP_ENABLE_KEYWORDS, wo, sizeof wo)))
            etw_broken(c, "fixture: the open group's member was not enabled as wanted (%s; wanted %s): a group enable is not seen here", vo,
                       group_enable_wanted(want, sizeof want));
        else {
            check_not_enabled(c, RID_TRAITS_GROUP_PERMISSION, "state: the refused member's enable callback", &la);
            if (na != ETW_ENABLED_UNKNOWN)
                CHECK_U32(c, RID_TRAITS_GROUP_PERMISSION, A_STATE, "state: members of the restricted group enabled", 0, na);
        }
    }
    if (a)
        f.eu(a);
    if (o)
        f.eu(o);
}

static bool set_list(struct etw_ctx *c, etw_tracehandle h, const etw_guid *g, etw_u32 n)
{
    etw_pfn_TraceSetInformation tsi = API(c, etw_pfn_TraceSetInformation, FN_TSI);
    return tsi && CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (TraceSetDisallowList)", 0, tsi(h, ETW_TraceSetDisallowList, (void *)g, 16 * n));
}

static bool get_list(struct etw_ctx *c, etw_tracehandle h, etw_guid out[4], etw_u32 *n)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_u32 len = 0;
    if (!tqi || !CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (TraceDisallowListQuery)", 0, tqi(h, ETW_TraceDisallowListQuery, out, 64, &len)))
        return false;
    *n = len / 16;
    return true;
}

/* two members of the group, B on the session's disallow list: the group enable reaches A (its
 * callback is called with the session's level and keywords) and not B */
static void dal_group_enable(struct etw_ctx *c)
{
    struct prov_fns f;
    if (!prov_fns(c, &f))
        return;
    static struct etw_enable_log la, lb; /* the callbacks may come from another thread: not on the stack */
    memset((void *)&la, 0, sizeof la);
    memset((void *)&lb, 0, sizeof lb);
    etw_reghandle a = 0, b = 0;
    if (f.er(&prov_a, etw_enable_log_cb, &la, &a) || f.er(&prov_b, etw_enable_log_cb, &lb, &b) ||
        f.esi(a, ETW_EventProviderSetTraits, (void *)blob_group, sizeof blob_group) ||
        f.esi(b, ETW_EventProviderSetTraits, (void *)blob_group, sizeof blob_group)) {
        etw_broken(c, "fixture: registering two providers in the group failed");
    } else if (la.calls || lb.calls) {
        etw_broken(c, "fixture: a member's enable callback was called before the group was enabled (someone enabled its GUID)");
    } else if (set_list(c, c->fixture.logger, &prov_b, 1)) {
        etw_u32 enabled = 0;
        char wa[160], want[80];
        group_enable_wanted(want, sizeof want);
        etw_u32 rc = etw_enable_group(c, c->fixture.logger, &group_g, &enabled);
        if (CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (group enable)", 0, rc)) {
            const char *va = etw_enable_log_verdict(&la, true, ETW_GROUP_ENABLE_LEVEL, ETW_GROUP_ENABLE_KEYWORDS, wa, sizeof wa);
            CHECK(c, RID_PRIMARY, A_STATE, "state: the member's enable callback", !va, want, "%s", va ? va : want);
            check_not_enabled(c, RID_PRIMARY, "state: the disallowed member's enable callback", &lb);
            if (enabled != ETW_ENABLED_UNKNOWN)
                CHECK_U32(c, RID_PRIMARY, A_STATE, "state: members enabled (2 members, 1 disallowed)", 1, enabled);
        }
    }
    if (a)
        f.eu(a);
    if (b)
        f.eu(b);
}

/* a list set on one session; the other session's list is read back empty. That the query of an
 * empty list succeeds is known from decompilation only (TQI.0E.EMPTY): its return is checked under
 * that rule, and only a successful query shows the other session's list. */
static void dal_per_session(struct etw_ctx *c)
{
    etw_pfn_TraceQueryInformation tqi = API(c, etw_pfn_TraceQueryInformation, FN_TQI);
    etw_guid got[4];
    etw_u32 len = 0;
    if (!tqi || !set_list(c, c->fixture.logger, dal_two, 2))
        return;
    etw_u32 rc = tqi(c->fixture.logger2, ETW_TraceDisallowListQuery, got, sizeof got, &len);
    if (CHECK_WIN32(c, RID_TQI_0E_EMPTY, A_RETURN, "return (TraceDisallowListQuery on the other session)", 0, rc))
        CHECK_U32(c, RID_PRIMARY, A_STATE, "state: GUIDs on the other session", 0, len / 16);
}

static void dal_dynamic(struct etw_ctx *c)
{
    etw_guid got[4];
    etw_u32 n = 0;
    if (!set_list(c, c->fixture.logger, dal_two, 2) || !set_list(c, c->fixture.logger, dal_one, 1) || !get_list(c, c->fixture.logger, got, &n))
        return;
    CHECK(c, RID_PRIMARY, A_STATE, "state: the list", n == 1 && !memcmp(got, dal_one, 16), "the second list (1 GUID)", "%u GUID(s)%s", n,
              n == 1 && memcmp(got, dal_one, 16) ? ", not the second list" : "");
}

/* a member of the group; the group enabled on the private session first (the member is not
 * told), then on the system-logger session (it is: the control that shows a group enable is seen
 * here). Seed 003 says private sessions cannot control groups, not that the enable call fails:
 * its return is the inferred rule's. */
static void dal_private(struct etw_ctx *c)
{
    struct prov_fns f;
    if (!prov_fns(c, &f))
        return;
    static struct etw_enable_log la; /* the callback may come from another thread: not on the stack */
    memset((void *)&la, 0, sizeof la);
    etw_reghandle a = 0;
    if (f.er(&prov_a, etw_enable_log_cb, &la, &a) || f.esi(a, ETW_EventProviderSetTraits, (void *)blob_group, sizeof blob_group)) {
        etw_broken(c, "fixture: registering a provider in the group failed");
    } else if (la.calls) {
        etw_broken(c, "fixture: the member's enable callback was called before the group was enabled (someone enabled its GUID)");
    } else {
        etw_u32 np = 0, ns = 0, rs = 0;
        etw_u32 rc = etw_enable_group(c, c->fixture.logger, &group_g, &np);
        CHECK_WIN32(c, RID_DAL_PRIVATE_SESSION_CODE, A_RETURN, "return (group enable on the private session)", ETW_ERROR_NOT_SUPPORTED, rc);
        struct etw_enable_log seen; /* what the private session's group enable told the member */
        memcpy(&seen, (const void *)&la, sizeof seen);
        char ws[160], want[80];
        const char *vs = NULL;
        if (!seen.enables) /* not told: that means something only if the same enable on a system-logger session tells it */
            vs = (rs = etw_enable_group(c, c->fixture.logger2, &group_g, &ns)) ? "the enable call failed"
                 : etw_enable_log_verdict(&la, true, ETW_GROUP_ENABLE_LEVEL, ETW_GROUP_ENABLE_KEYWORDS, ws, sizeof ws);
        if (vs) {
            etw_broken(c, "fixture: enabling the group on a system-logger session did not reach the member either (%s, returned %u; wanted %s): "
                          "a group enable is not seen here", vs, rs, group_enable_wanted(want, sizeof want));
        } else {
            check_not_enabled(c, RID_DAL_PRIVATE_SESSION, "state: the member's enable callback after the private session's group enable", &seen);
            if (!rc && np != ETW_ENABLED_UNKNOWN)
                CHECK_U32(c, RID_DAL_PRIVATE_SESSION, A_STATE, "state: members enabled by the private session", 0, np);
        }
    }
    if (a)
        f.eu(a);
}

/* register A, unregister it, register B (which may reuse A's slot): A's handle must stay invalid */
static void esi_stale_reused(struct etw_ctx *c)
{
    etw_pfn_EventRegister er = API(c, etw_pfn_EventRegister, FN_EVENTREGISTER);
    etw_pfn_EventUnregister eu = er ? API(c, etw_pfn_EventUnregister, FN_EVENTUNREGISTER) : NULL;
    etw_pfn_EventSetInformation esi = eu ? API(c, etw_pfn_EventSetInformation, FN_ESI) : NULL;
    if (!esi)
        return;
    etw_reghandle a = 0, b = 0;
    if (er(&prov_a, NULL, NULL, &a) || eu(a) || er(&prov_b, NULL, NULL, &b)) {
        etw_broken(c, "fixture: registering, unregistering and registering again failed");
        return;
    }
    etw_u32 rc = esi(a, ETW_EventProviderBinaryTrackInfo, NULL, 0);
    CHECK(c, RID_PRIMARY, A_RETURN, "return (the unregistered handle)", rc == ETW_ERROR_INVALID_HANDLE || rc == ETW_ERROR_INVALID_PARAMETER,
              "6 (ERROR_INVALID_HANDLE) or 87 (ERROR_INVALID_PARAMETER)", "%u%s", rc, a == b ? " (the new handle equals the old one)" : "");
    CHECK_WIN32(c, RID_PRIMARY, A_RETURN, "return (the new handle)", ETW_ERROR_SUCCESS, esi(b, ETW_EventProviderBinaryTrackInfo, NULL, 0));
    eu(b);
}

/* the traits set on a registration come back in the PROV_TRAITS item of an event it writes, read
 * by a real-time consumer of the case's session (only a live Windows target reads events) */
static void traits_in_events(struct etw_ctx *c)
{
    static const etw_guid prov_t = {0xC0C0C0C0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0xC}};
    static const etw_u8 blob_custom[] = {WITH_CUSTOM};
    struct prov_fns f;
    if (!prov_fns(c, &f))
        return;
    etw_reghandle h = 0;
    if (f.er(&prov_t, NULL, NULL, &h)) {
        etw_broken(c, "fixture: EventRegister failed");
        return;
    }
    etw_u32 rc = f.esi(h, ETW_EventProviderSetTraits, (void *)blob_custom, sizeof blob_custom);
    if (rc) {
        etw_broken(c, "fixture: setting the traits (EventSetInformation class 2) returned %u", rc);
    } else {
        etw_u8 got[512];
        etw_u32 n = 0;
        const char *absent = NULL;
        char why[300] = "";
        enum etw_fx fx = etw_event_traits(c, c->fixture.logger, &prov_t, h, got, sizeof got, &n, &absent, why, sizeof why);
        if (fx == ETW_FX_SKIP)
            etw_skip(c, "%s", why);
        else if (fx != ETW_FX_OK)
            etw_broken(c, "%s", why);
        else if (!n)
            CHECK(c, RID_TRAITS_IN_EVENTS, A_STATE, "state: the event's PROV_TRAITS item", false, "the 13-byte traits blob that was set",
                  "none: %s", absent ? absent : "no reason given");
        else
            CHECK(c, RID_TRAITS_IN_EVENTS, A_STATE, "state: the event's PROV_TRAITS item", n == sizeof blob_custom && !memcmp(got, blob_custom, n),
                  "the 13-byte traits blob that was set", "%u bytes%s", n, n == sizeof blob_custom && !memcmp(got, blob_custom, n) ? "" : " that differ from it");
    }
    f.eu(h);
}
