/* cases/ntc.c - NtTraceControl paths (spec/rules/ntc.def). */
#include "cases/common.h"

#define GET_DL ETW_NTC_GET_DISALLOW_LIST
#define HANDLE_IN IN(U64(0)), .patch = PATCH_HANDLE64, .patch_off = 0
#define TRACK ETW_NTC_TRACK_PROVIDER_BINARY
#define UPD_DL ETW_NTC_UPDATE_DISALLOW_LIST
#define TRAITS ETW_NTC_SET_PROVIDER_TRAITS
#define DESCTYPE ETW_NTC_USE_DESCRIPTOR_TYPE
/* the 0x1E input: registration object handle, traits pointer, traits size (ETW_NTC_SET_TRAITS_INPUT) */
#define TRAITS_IN(h, ptr, size) IN(U64(h), U64(ptr), U16(size), U16(0), U32(0))
/* the 0x1F input: registration object handle, BOOLEAN, padding */
#define DESCTYPE_IN(h, b) IN(U64(h), U8(b), 0, 0, 0, 0, 0, 0, 0)
/* an unknown code before the version that brought it (NTC.CODES); no fixture, so it runs on 6.0 too */
#define CODE_FROM(id_, code_, title_, first_, last_before_, ...)                                                            \
    CASE(.id = id_, .rules = RULES(RID_NTC_CODES), .title = title_, .fn = FN_NTC,                                            \
         .args = {.cls = code_, .len = 8, IN(U64(0)), .out_buf = B_NULL}, .expect = {AT(V6_0, last_before_, .rc = ST(INVALID_DEVICE_REQUEST)), __VA_ARGS__})

static void ntc1a_ok(struct etw_ctx *c);
static void ntc1e_bad_handle(struct etw_ctx *c);
static void ntc1e_ok(struct etw_ctx *c);
static void ntc1f_ok(struct etw_ctx *c);
static void ntc1f_boolean(struct etw_ctx *c);
static void ntc1c_replace(struct etw_ctx *c);

static const struct etw_case cases[] = {
    CASE(.id = "ntc.retsize-null", .rules = RULES(RID_NTC_RETSIZE_NULL), .title = "a NULL ReturnSize from user mode: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .fx = {.logger = LG_SYSTEM},
         .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 8, HANDLE_IN, .out_len = 64, .retlen_null = true},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.unknown-code", .rules = RULES(RID_NTC_UNKNOWN_CODE), .title = "an unknown function code: STATUS_INVALID_DEVICE_REQUEST",
         .fn = FN_NTC, .args = {.cls = 0xFFFF, .buf = B_NULL, .len = 0, .out_buf = B_NULL},
         .expect = {FROM(V6_0, .rc = ST(INVALID_DEVICE_REQUEST))})
    CASE(.id = "ntc.null-in-is-zero", .rules = RULES(RID_NTC_NULL_IS_ZERO, RID_NTC_22_INPUT),
         .title = "a NULL InBuffer with length 8 counts as no input: 0x22 rejects it", .fn = FN_NTC, .fx = {.logger = LG_SYSTEM},
         .args = {.cls = GET_DL, .buf = B_NULL, .len = 8, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER), RC_RULE(RID_NTC_22_INPUT))})
    CASE(.id = "ntc.null-out-is-zero", .rules = RULES(RID_NTC_NULL_IS_ZERO, RID_NTC_22_TOO_SMALL),
         .title = "a NULL OutBuffer with length 64 counts as no room: STATUS_BUFFER_TOO_SMALL", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2},
         .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 8, HANDLE_IN, .out_buf = B_NULL, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(BUFFER_TOO_SMALL), RC_RULE(RID_NTC_22_TOO_SMALL), RETLEN(32, RID_NTC_22_TOO_SMALL))})
    CASE(.id = "ntc.no-memory", .rules = RULES(RID_NTC_NO_MEMORY), .title = "no pool for the double buffer: STATUS_NO_MEMORY", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM, .fail_alloc = 1}, .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 8, HANDLE_IN, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(NO_MEMORY))})
    CASE(.id = "ntc.copy-on-success", .rules = RULES(RID_NTC_COPY_ON_SUCCESS, RID_NTC_RETSIZE_ON_FAILURE, RID_NTC_22_TOO_SMALL),
         .title = "a failed 0x22 leaves OutBuffer alone but reports the size", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2},
         .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 8, HANDLE_IN, .out_len = 16},
         .expect = {FROM(V10_0, .rc = ST(BUFFER_TOO_SMALL), RC_RULE(RID_NTC_22_TOO_SMALL), RETLEN(32, RID_NTC_RETSIZE_ON_FAILURE),
                         UNTOUCHED(RID_NTC_COPY_ON_SUCCESS))})
    CASE(.id = "ntc.retsize-kept-on-failure", .rules = RULES(RID_NTC_RETSIZE_ON_FAILURE, RID_NTC_1C_FORMAT),
         .title = "a failed 0x1C (not one of the codes that report a size on failure) leaves ReturnSize alone", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 8, IN(U32(0), U32(1)), .patch = PATCH_LOGGER32,
                  .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER), RC_RULE(RID_NTC_1C_FORMAT), RETLEN_KEPT(RID_NTC_RETSIZE_ON_FAILURE))})
    CASE(.id = "ntc.22.ok", .rules = RULES(RID_NTC_RETSIZE_ON_FAILURE, RID_TQI_0E_OUTPUT), .title = "0x22 returns the list and its size", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2},
         .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 8, HANDLE_IN, .out_len = 48},
         .expect = {FROM(V10_0, .rc = ST(SUCCESS), RETLEN(32, RID_NTC_RETSIZE_ON_FAILURE), OUTPUT(RID_TQI_0E_OUTPUT, GUIDB(DAL_G1), GUIDB(DAL_G2)))})
    CASE(.id = "ntc.22.short-input", .rules = RULES(RID_NTC_22_INPUT), .title = "0x22 with 4 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM}, .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 4, IN(U32(0)), .patch = PATCH_LOGGER32, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.22.long-input", .rules = RULES(RID_NTC_22_INPUT), .title = "0x22 with 16 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM}, .args = {.cls = GET_DL, .handle = H_LOGGER, .len = 16, HANDLE_IN, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.22.bad-logger", .rules = RULES(RID_NTC_22_BAD_LOGGER), .title = "0x22 for a logger id with no session: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .args = {.cls = GET_DL, .handle = H_MISSING, .len = 8, HANDLE_IN, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER), UNTOUCHED(RID_NTC_COPY_ON_SUCCESS))})
    CASE(.id = "ntc.22.no-kernel-alias", .rules = RULES(RID_NTC_22_BAD_LOGGER), .title = "0x22 does not read 0xFFFF as the NT Kernel Logger",
         .fn = FN_NTC, .fx = {.logger = LG_KERNEL}, .args = {.cls = GET_DL, .handle = H_VALUE, .value = 0xFFFF, .len = 8, HANDLE_IN, .out_len = 64},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1c.short", .rules = RULES(RID_NTC_1C_FORMAT), .title = "0x1C with 4 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM}, .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 4, IN(U32(0)),
                                              .patch = PATCH_LOGGER32, .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1c.count-mismatch", .rules = RULES(RID_NTC_1C_FORMAT), .title = "0x1C whose count does not match its length: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .fx = {.logger = LG_SYSTEM},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 8, IN(U32(0), U32(1)), .patch = PATCH_LOGGER32,
                  .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1c.empty", .rules = RULES(RID_NTC_1C_FORMAT), .title = "0x1C with a count of 0 and 8 bytes clears the list", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 8, IN(U32(0), U32(0)), .patch = PATCH_LOGGER32,
                  .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(SUCCESS))})
    CASE(.id = "ntc.1c.one", .rules = RULES(RID_NTC_1C_FORMAT), .title = "0x1C with one GUID and 24 bytes is accepted", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 24, IN(U32(0), U32(1), GUIDB(DAL_G3)),
                  .patch = PATCH_LOGGER32, .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(SUCCESS))})
    CASE(.id = "ntc.1c.count-short", .rules = RULES(RID_NTC_1C_FORMAT), .title = "0x1C with a count of 0 and 24 bytes: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .fx = {.logger = LG_SYSTEM},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 24, IN(U32(0), U32(0), GUIDB(DAL_G3)),
                  .patch = PATCH_LOGGER32, .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})

    /* ---- the function codes by version (called directly, not through their user-mode callers) */
    CODE_FROM("ntc.codes.1a-from-62", TRACK, "0x1A (track provider binary) is unknown before 6.2", 0x1A, V6_1)
    CODE_FROM("ntc.codes.1c-from-10", UPD_DL, "0x1C (update disallow list) is unknown before 10.0", 0x1C, V6_3)
    CODE_FROM("ntc.codes.1e-from-10", TRAITS, "0x1E (set provider traits) is unknown before 10.0", 0x1E, V6_3)
    CODE_FROM("ntc.codes.1f-from-10", DESCTYPE, "0x1F (use descriptor type) is unknown before 10.0", 0x1F, V6_3)
    CODE_FROM("ntc.codes.22-from-10", GET_DL, "0x22 (get disallow list) is unknown before 10.0", 0x22, V6_3)

    /* ---- 0x1A track provider binary (EventSetInformation class 0) */
    CASE(.id = "ntc.1a.short", .rules = RULES(RID_NTC_1A_INPUT), .title = "0x1A with 4 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = TRACK, .len = 4, IN(U32(0)), .out_buf = B_NULL}, .expect = {FROM(V6_2, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1a.long", .rules = RULES(RID_NTC_1A_INPUT), .title = "0x1A with 16 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .fx = {.provider = true}, .args = {.cls = TRACK, .handle = H_REG, .len = 16, IN(U64(0), U64(0)), .patch = PATCH_HANDLE64, .out_buf = B_NULL},
         .expect = {FROM(V6_2, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1a.null-in", .rules = RULES(RID_NTC_1A_INPUT, RID_NTC_NULL_IS_ZERO), .title = "0x1A with a NULL InBuffer of length 8 has no input",
         .fn = FN_NTC, .args = {.cls = TRACK, .buf = B_NULL, .len = 8, .out_buf = B_NULL}, .expect = {FROM(V6_2, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1a.no-registration", .rules = RULES(RID_NTC_1A_HANDLE, RID_NTC_HANDLE_CODE),
         .title = "0x1A with 8 bytes that are no registration object's handle fails", .fn = FN_NTC,
         .args = {.cls = TRACK, .len = 8, IN(U64(0)), .out_buf = B_NULL},
         .expect = {FROM(V6_2, .rc = ST(INVALID_HANDLE), RC_RULE(RID_NTC_HANDLE_CODE), FAILS(RID_NTC_1A_HANDLE))})
    CASE(.id = "ntc.1a.ok", .rules = RULES(RID_NTC_1A_SUCCESS),
         .title = "0x1A with the handle of a registration succeeds with a ReturnSize of 0", .fn = FN_CUSTOM, .run = ntc1a_ok,
         .fx = {.provider = true}, .needs = NEED_REG_ENTRY_HANDLE, .expect = {FROM(V6_2)})

    /* ---- 0x1C update disallow list (TraceSetInformation class 0x0A) */
    CASE(.id = "ntc.1c.replace", .rules = RULES(RID_NTC_1C_REPLACE), .title = "0x1C replaces the logger's list and 0x22 returns the new one",
         .fn = FN_CUSTOM, .run = ntc1c_replace, .fx = {.logger = LG_SYSTEM, .disallow = dal_two, .ndisallow = 2}, .expect = {FROM(V10_0)})
    CASE(.id = "ntc.1c.bad-logger", .rules = RULES(RID_NTC_1C_BAD_LOGGER), .title = "0x1C for a logger id with no session: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .args = {.cls = UPD_DL, .handle = H_MISSING, .len = 8, IN(U32(0), U32(0)), .patch = PATCH_LOGGER32, .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1c.no-kernel-alias", .rules = RULES(RID_NTC_1C_BAD_LOGGER), .title = "0x1C does not read logger id 0xFFFF as the NT Kernel Logger",
         .fn = FN_NTC, .fx = {.logger = LG_KERNEL}, .args = {.cls = UPD_DL, .len = 8, IN(U32(0xFFFF), U32(0)), .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})

    /* ---- 0x1E set provider traits (EventSetInformation class 2) */
    CASE(.id = "ntc.1e.input-short", .rules = RULES(RID_NTC_1E_BUFFERS), .title = "0x1E with 0x17 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = TRAITS, .len = 0x17, TRAITS_IN(0, 0x10000, 8), .out_len = 0x78}, .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.input-long", .rules = RULES(RID_NTC_1E_BUFFERS), .title = "0x1E with 0x20 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = TRAITS, .len = 0x20, TRAITS_IN(0, 0x10000, 8), .out_len = 0x78}, .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.output-short", .rules = RULES(RID_NTC_1E_BUFFERS), .title = "0x1E with a 0x77-byte output buffer: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .args = {.cls = TRAITS, .len = 0x18, TRAITS_IN(0, 0x10000, 8), .out_len = 0x77},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.output-long", .rules = RULES(RID_NTC_1E_BUFFERS), .title = "0x1E with a 0x10001-byte output buffer: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .args = {.cls = TRAITS, .len = 0x18, TRAITS_IN(0, 0x10000, 8), .out_len = 0x10001},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.output-null", .rules = RULES(RID_NTC_1E_BUFFERS, RID_NTC_NULL_IS_ZERO),
         .title = "0x1E with a NULL OutBuffer of length 0x78 has no output room: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = TRAITS, .len = 0x18, TRAITS_IN(0, 0x10000, 8), .out_buf = B_NULL, .out_len = 0x78},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.traits-null", .rules = RULES(RID_NTC_1E_TRAITS), .title = "0x1E with a NULL traits pointer: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = TRAITS, .len = 0x18, TRAITS_IN(0, 0, 8), .out_len = 0x78}, .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.traits-size-zero", .rules = RULES(RID_NTC_1E_TRAITS), .title = "0x1E with a traits size of 0: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .args = {.cls = TRAITS, .len = 0x18, TRAITS_IN(0, 0x10000, 0), .out_len = 0x78},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1e.bad-handle", .rules = RULES(RID_NTC_1E_HANDLE, RID_NTC_HANDLE_CODE),
         .title = "0x1E with a well-formed blob and a handle that names no registration fails", .fn = FN_CUSTOM, .run = ntc1e_bad_handle,
         .expect = {FROM(V10_0)})
    CASE(.id = "ntc.1e.ok", .rules = RULES(RID_NTC_1E_SUCCESS), .title = "0x1E sets a registration's traits once; a second call: STATUS_UNSUCCESSFUL",
         .fn = FN_CUSTOM, .run = ntc1e_ok, .fx = {.provider = true}, .needs = NEED_REG_ENTRY_HANDLE, .expect = {FROM(V10_0)})

    /* ---- 0x1F use descriptor type (EventSetInformation class 3) */
    CASE(.id = "ntc.1f.input-short", .rules = RULES(RID_NTC_1F_BUFFERS), .title = "0x1F with 8 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = DESCTYPE, .len = 8, DESCTYPE_IN(0, 1), .out_buf = B_NULL}, .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1f.input-long", .rules = RULES(RID_NTC_1F_BUFFERS), .title = "0x1F with 0x11 input bytes: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = DESCTYPE, .len = 0x11, DESCTYPE_IN(0, 1), .out_buf = B_NULL}, .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1f.output", .rules = RULES(RID_NTC_1F_BUFFERS), .title = "0x1F with an 8-byte output buffer: STATUS_INVALID_PARAMETER", .fn = FN_NTC,
         .args = {.cls = DESCTYPE, .len = 0x10, DESCTYPE_IN(0, 1), .out_len = 8}, .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.1f.bad-handle", .rules = RULES(RID_NTC_1F_HANDLE, RID_NTC_HANDLE_CODE),
         .title = "0x1F with BOOLEAN 1 and a handle that names no registration fails", .fn = FN_NTC,
         .args = {.cls = DESCTYPE, .len = 0x10, DESCTYPE_IN(0, 1), .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_HANDLE), RC_RULE(RID_NTC_HANDLE_CODE), FAILS(RID_NTC_1F_HANDLE))})
    CASE(.id = "ntc.1f.boolean", .rules = RULES(RID_NTC_1F_BOOLEAN), .title = "0x1F with a registration's handle and BOOLEAN 2: STATUS_INVALID_PARAMETER",
         .fn = FN_CUSTOM, .run = ntc1f_boolean, .fx = {.provider = true}, .needs = NEED_REG_ENTRY_HANDLE, .expect = {FROM(V10_0)})
    CASE(.id = "ntc.1f.ok", .rules = RULES(RID_NTC_1F_SUCCESS), .title = "0x1F with a registration's handle and BOOLEAN 1, then 0, succeeds",
         .fn = FN_CUSTOM, .run = ntc1f_ok, .fx = {.provider = true}, .needs = NEED_REG_ENTRY_HANDLE, .expect = {FROM(V10_0)})
};
CASE_TABLE(cases_ntc, cases);

/* ---------------------------------------------------------------- custom cases: codes that take a registration object */
/* The registration object's handle behind the fixture's REGHANDLE. Windows keeps it inside NTDLL's
 * registration entry, out of reach of any public API; a target that models it names it through
 * EtwRef_RegEntryHandle, and elsewhere the case SKIPs (the rows' NEED_REG_ENTRY_HANDLE). */
static bool reg_entry_handle(struct etw_ctx *c, etw_u64 *h)
{
    typedef int (*fn_t)(etw_reghandle, etw_u64 *);
    fn_t f = c->t->sym ? (fn_t)c->t->sym(c->t, "EtwRef_RegEntryHandle") : NULL;
    if (!f || f(c->fixture.reg, h)) {
        etw_broken(c, "EtwRef_RegEntryHandle refused the fixture's registration");
        return false;
    }
    return true;
}

static void ntc1a_ok(struct etw_ctx *c)
{
    etw_pfn_NtTraceControl ntc = API(c, etw_pfn_NtTraceControl, FN_NTC);
    etw_u64 h = 0;
    if (!ntc || !reg_entry_handle(c, &h))
        return;
    etw_u32 rs = ETW_SENTINEL32;
    etw_status st = ntc(TRACK, &h, sizeof h, NULL, 0, &rs);
    CHECK_NTSTATUS(c, RID_NTC_1A_SUCCESS, A_RETURN, "return", 0, (etw_u32)st);
    CHECK_U32(c, RID_NTC_1A_SUCCESS, A_RETLEN, "ReturnSize", 0, rs);
}

static const etw_u8 name_only_blob[] = {8, 0, 'E', 't', 'w', 'C', 'f', 0};

static etw_status set_traits(etw_pfn_NtTraceControl ntc, etw_u8 *out, etw_u64 h)
{
    ETW_NTC_SET_TRAITS_INPUT in;
    memset(&in, 0, sizeof in);
    in.RegEntryHandle = h;
    in.Traits = (etw_u64)(uintptr_t)name_only_blob;
    in.TraitsSize = sizeof name_only_blob;
    etw_u32 rs = 0;
    return ntc(TRAITS, &in, sizeof in, out, 0x78, &rs);
}

static void ntc1e_bad_handle(struct etw_ctx *c)
{
    etw_pfn_NtTraceControl ntc = API(c, etw_pfn_NtTraceControl, FN_NTC);
    etw_u8 *out = ntc ? etw_guarded(c, 0x78) : NULL;
    if (!out)
        return;
    etw_status st = set_traits(ntc, out, 0);
    CHECK(c, RID_NTC_1E_HANDLE, A_RETURN, "return (handle 0)", (etw_u32)st >= 0xC0000000u, "an error status", "0x%08X", (unsigned)st);
    CHECK_NTSTATUS(c, RID_NTC_HANDLE_CODE, A_RETURN, "return code (handle 0)", (etw_u32)ETW_STATUS_INVALID_HANDLE, (etw_u32)st);
}

static void ntc1e_ok(struct etw_ctx *c)
{
    etw_pfn_NtTraceControl ntc = API(c, etw_pfn_NtTraceControl, FN_NTC);
    etw_u64 h = 0;
    etw_u8 *out = ntc ? etw_guarded(c, 0x78) : NULL;
    if (!out || !reg_entry_handle(c, &h))
        return;
    CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (first)", 0, (etw_u32)set_traits(ntc, out, h));
    CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (second, same registration)", (etw_u32)ETW_STATUS_UNSUCCESSFUL, (etw_u32)set_traits(ntc, out, h));
}

static etw_status use_desctype(etw_pfn_NtTraceControl ntc, etw_u64 h, etw_u8 b, etw_u32 *rs)
{
    etw_u8 in[0x10] = {0};
    memcpy(in, &h, 8);
    in[8] = b;
    return ntc(DESCTYPE, in, sizeof in, NULL, 0, rs);
}

static void ntc1f_ok(struct etw_ctx *c)
{
    etw_pfn_NtTraceControl ntc = API(c, etw_pfn_NtTraceControl, FN_NTC);
    etw_u64 h = 0;
    if (!ntc || !reg_entry_handle(c, &h))
        return;
    for (etw_u8 b = 1;; b = 0) {
        etw_u32 rs = ETW_SENTINEL32;
        etw_status st = use_desctype(ntc, h, b, &rs);
        CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, b ? "return (BOOLEAN 1)" : "return (BOOLEAN 0)", 0, (etw_u32)st);
        CHECK_U32(c, RID_PRIMARY, A_RETLEN, b ? "ReturnSize (BOOLEAN 1)" : "ReturnSize (BOOLEAN 0)", 0, rs);
        if (!b)
            break;
    }
}

static void ntc1f_boolean(struct etw_ctx *c)
{
    etw_pfn_NtTraceControl ntc = API(c, etw_pfn_NtTraceControl, FN_NTC);
    etw_u64 h = 0;
    if (!ntc || !reg_entry_handle(c, &h))
        return;
    etw_u32 rs = 0;
    CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (BOOLEAN 2)", (etw_u32)ETW_STATUS_INVALID_PARAMETER, (etw_u32)use_desctype(ntc, h, 2, &rs));
}

static void ntc1c_replace(struct etw_ctx *c)
{
    etw_pfn_NtTraceControl ntc = API(c, etw_pfn_NtTraceControl, FN_NTC);
    etw_u8 *out = ntc ? etw_guarded(c, 64) : NULL;
    if (!out)
        return;
    etw_u8 in[8 + 16];
    ETW_NTC_DISALLOW_LIST_HEADER hd = {(etw_u32)(c->fixture.logger & 0xFFFF), 1};
    memcpy(in, &hd, sizeof hd);
    memcpy(in + 8, &dal_one[0], 16);
    etw_u32 rs = 0;
    etw_status st = ntc(UPD_DL, in, sizeof in, NULL, 0, &rs);
    if (!CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (0x1C, one GUID)", 0, (etw_u32)st))
        return;
    etw_tracehandle h = c->fixture.logger;
    rs = ETW_SENTINEL32;
    st = ntc(GET_DL, &h, sizeof h, out, 64, &rs);
    CHECK_NTSTATUS(c, RID_PRIMARY, A_RETURN, "return (0x22 after)", 0, (etw_u32)st);
    CHECK_U32(c, RID_PRIMARY, A_STATE, "state: ReturnSize of 0x22", 16, rs);
    CHECK(c, RID_PRIMARY, A_STATE, "state: the list", rs == 16 && !memcmp(out, &dal_one[0], 16), "the one GUID set, the two before gone", "%s",
          rs == 16 && !memcmp(out, &dal_one[0], 16) ? "the one GUID set" : "another list");
}

