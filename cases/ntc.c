/* cases/ntc.c - NtTraceControl paths (spec/rules/ntc.def). */
#include "cases/common.h"

#define GET_DL ETW_NTC_GET_DISALLOW_LIST
#define HANDLE_IN IN(U64(0)), .patch = PATCH_HANDLE64, .patch_off = 0

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
    /* added for mutation testing (tools/mutate) */
    CASE(.id = "ntc.1c.count-short", .rules = RULES(RID_NTC_1C_FORMAT), .title = "0x1C with a count of 0 and 24 bytes: STATUS_INVALID_PARAMETER",
         .fn = FN_NTC, .fx = {.logger = LG_SYSTEM},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 24, IN(U32(0), U32(0), GUIDB(DAL_G3)),
                  .patch = PATCH_LOGGER32, .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER))})
    CASE(.id = "ntc.retsize-kept-on-failure", .rules = RULES(RID_NTC_RETSIZE_ON_FAILURE, RID_NTC_1C_FORMAT),
         .title = "a failed 0x1C (not one of the codes that report a size on failure) leaves ReturnSize alone", .fn = FN_NTC,
         .fx = {.logger = LG_SYSTEM},
         .args = {.cls = ETW_NTC_UPDATE_DISALLOW_LIST, .handle = H_LOGGER, .len = 8, IN(U32(0), U32(1)), .patch = PATCH_LOGGER32,
                  .out_buf = B_NULL},
         .expect = {FROM(V10_0, .rc = ST(INVALID_PARAMETER), RC_RULE(RID_NTC_1C_FORMAT), RETLEN_KEPT(RID_NTC_RETSIZE_ON_FAILURE))})
};
CASE_TABLE(cases_ntc, cases);
