/* harness/tests/rowprint_synthetic.h - rows for the row printer's test (unit_rowprint.c) that set
 * what no row of cases/ sets: every field away from its default, in the forms the macros do not
 * cover too, and CreateTraceInstanceId's InstanceId (printed by name, not by offset). */
#include "harness/suite/suite.h"

static const etw_guid syn_guids[2] = {{0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}},
                                      {0xA1A2A3A4, 0xB1B2, 0xC1C2, {0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8}}};
static const struct etw_case rowprint_synthetic[] = {
    {.file = "synthetic", .line = 1, .id = "unit.rowprint.\"every\\field\"", .rules = {RID_TQI_0B_EXACT_SIZE, RID_GEN_BUFFER_BOUNDS},
     .title = "a row with every field set\t(tab)", .fn = FN_NTC, .needs = NEED_THREADS | NEED_PROFILE_HELD,
     .fx = {.logger = LG_PRIVATE, .logger2 = LG_SYSTEM, .masks = {1, 2, 3, 4, 5, 6, 7, 0xFFFFFFFF}, .disallow = syn_guids,
            .ndisallow = 2, .classes = 3, .provider = true, .profile_priv = PRIV_NOT_HELD, .fail_alloc = 2, .foreign_pid = true,
            .set_counter = true, .counter = 0xFFFFFFFE},
     .args = {.handle = H_LOGGER_HIGH, .value = 0xABCD00000000ull, .cls = 0x22, .buf = B_NULL, .len = -3, .len_rel = true,
              .retlen_null = true, .in = (const etw_u8[]){1, 2, 0xFF}, .in_len = 3, .patch = PATCH_LOGGER32, .patch_off = 4,
              .out_buf = B_NULL, .out_len = 48, .module = "ntdll", .export_name = "NtTraceControl"},
     .expect = {{.vmin = ETW_VLO(V5_2), .vmax = ETW_VHI(V6_0), .kind = XK_SKIP, .why = "not \"here\""},
                {.vmin = ETW_VLO(V6_1), .vmax = ETW_VHI(V6_1), .rc = 0xC0000023u, .rc_alt_ok = true, .rc_alt = 0x80000005u,
                 .rc_rule = RID_NTC_NULL_IS_ZERO, .fail_rule = RID_NTC_COPY_ON_SUCCESS, .rl = RL_EQ, .rl_value = 32,
                 .rl_rule = RID_TQI_RETLEN_FAILURE, .out = OUT_BYTES, .out_bytes = (const etw_u8[]){7, 8}, .out_len = 2, .out_off = 5,
                 .out_rule = RID_TQI_0B_EXACT_SIZE},
                {.vmin = ETW_VLO(V6_2), .vmax = ETW_VHI(V6_2), .why = "a note", .rc = 0x1234u, .rc_alt = 5, .rl = RL_UNTOUCHED, .rl_value = 9,
                 .rl_rule = RID_TQI_RETLEN_FAILURE, .out = OUT_PREFIX, .out_rule = RID_TQI_0B_EXACT_SIZE, .out_off = 3},
                {.vmin = ETW_VLO(V6_3), .vmax = ETW_VHI(V6_3), .rl_rule = RID_TQI_RETLEN_FAILURE, .out = OUT_UNTOUCHED,
                 .out_rule = RID_GEN_BUFFER_BOUNDS, .out_off = 1},
                {.vmin = ETW_VLO(V6_1_7601_ESI), .vmax = ETW_VKEY(0x0A00, 18362, 0xF), .kind = XK_ABSENT, .rc = 1},
                {.vmin = ETW_VLO(0x0A01u), .vmax = ETW_VHI(V10_0_17763), .kind = XK_PRESENT, .out = OUT_PREFIX,
                 .out_bytes = (const etw_u8[]){0, 0, 0, 1}, .out_len = 4, .out_off = 4, .out_rule = RID_TQI_0B_EXACT_SIZE}}},
    {.file = "synthetic", .line = 2, .id = "unit.cti", .rules = {RID_CTI_COUNTER}, .title = "t", .fn = FN_ETWCTI,
     .args = {.handle = H_CLASS, .len_rel = true},
     .expect = {{.vmin = ETW_VLO(V5_2), .vmax = ETW_VHI(V10_0), .out = OUT_PREFIX, .out_rule = RID_CTI_COUNTER,
                 .out_off = offsetof(ETW_EVENT_INSTANCE_INFO, InstanceId), .out_bytes = (const etw_u8[]){2, 0, 0, 0}, .out_len = 4}}},
};
#define NSYN (sizeof rowprint_synthetic / sizeof rowprint_synthetic[0]) /* printed last */
