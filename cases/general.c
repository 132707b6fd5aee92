/* cases/general.c - rules that hold for every function (spec/rules/general.def). Every case checks
 * GEN.BUFFER_BOUNDS; these rows name it as their subject. */
#include "cases/common.h"

static const struct etw_case cases[] = {
    CASE(.id = "gen.bounds-tqi-version", .rules = RULES(RID_GEN_BUFFER_BOUNDS), .title = "TraceVersionInfo writes inside its 8 bytes only",
         .fn = FN_TQI, .args = {.cls = 0x0B, .len = EXACT(0)}, .expect = {AT(V10_0, V10_0_17763, .rc = ERR(SUCCESS), PREFIX(RID_TQI_0B_VERSION, U32(1))),
                    FROM(B_19H1, .rc = ERR(SUCCESS), PREFIX(RID_TQI_0B_VERSION_LATER, U32(1)))})
    CASE(.id = "gen.bounds-groupmask", .rules = RULES(RID_GEN_BUFFER_BOUNDS), .title = "a group-mask query writes inside its 0x30 bytes only",
         .fn = FN_NTQSI, .fx = {.logger = LG_KERNEL}, .args = {.cls = ETW_SystemPerformanceTraceInformation, .len = 0x30, GM_QUERY, .handle = H_LOGGER},
         .expect = {FROM(V6_0, .rc = ST(SUCCESS))})
    CASE(.id = "gen.bounds-instance-id", .rules = RULES(RID_GEN_BUFFER_BOUNDS, RID_CTI_OUTPUT), .title = "EtwCreateTraceInstanceId writes inside EVENT_INSTANCE_INFO only",
         .fn = FN_ETWCTI, .fx = {.classes = 1}, .args = {.handle = H_CLASS, .len = EXACT(0)}, .expect = {ALL(.rc = ERR(SUCCESS))})
};
CASE_TABLE(cases_general, cases);
