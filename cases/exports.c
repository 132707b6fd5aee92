/* cases/exports.c - which module exports which function, by version (spec/rules/exports.def). */
#include "cases/common.h"

#define EXPORT_CASE(id_, rule, mod, name, ...)                                                                              \
    CASE(.id = id_, .rules = RULES(rule), .title = mod "!" name " is exported where the rule says", .fn = FN_EXPORT,               \
         .args = {.module = mod, .export_name = name}, .expect = {__VA_ARGS__})

static const struct etw_case cases[] = {
    EXPORT_CASE("exp.advapi32.tqi", RID_EXP_ADVAPI32_TQI, "advapi32", "TraceQueryInformation",
                AT(V5_2, V6_1, ABSENT), FROM(V6_2, PRESENT))
    EXPORT_CASE("exp.kernelbase.tqi", RID_EXP_KERNELBASE_TQI, "kernelbase", "TraceQueryInformation",
                AT(V5_2, V6_1, ABSENT), AT(V6_2, V6_2, PRESENT))
    EXPORT_CASE("exp.sechost.tqi", RID_EXP_SECHOST_TQI, "sechost", "TraceQueryInformation", AT(V5_2, V6_1, ABSENT),
                NA(V6_2, V6_2, "in 6.2 the function is KERNELBASE's; whether SECHOST also exports it no source says"), FROM(V6_3, PRESENT))
    EXPORT_CASE("exp.advapi32.tsi", RID_EXP_ADVAPI32_TSI, "advapi32", "TraceSetInformation",
                AT(V5_2, V6_0, ABSENT), FROM(V6_1, PRESENT))
    EXPORT_CASE("exp.ntdll.etwcti", RID_EXP_NTDLL_ETWCTI, "ntdll", "EtwCreateTraceInstanceId", ALL(PRESENT))
    EXPORT_CASE("exp.advapi32.cti", RID_EXP_ADVAPI32_CTI, "advapi32", "CreateTraceInstanceId", ALL(PRESENT))
    /* 6.1 SP1 gained it with an update: a 6.1.7601 whose updates are not known may have it or not */
    EXPORT_CASE("exp.advapi32.esi", RID_EXP_ADVAPI32_ESI, "advapi32", "EventSetInformation", AT(V5_2, V6_0, ABSENT), AT(V6_1_7600, V6_1_7600, ABSENT),
                AT(V6_1_7601_ESI, V6_1_7601_ESI, PRESENT),
                NA(V6_1, V6_1, "6.1 SP1 exports it once KB3080149 is installed: this system's updates are not known"),
                FROM(V6_2, PRESENT))
    EXPORT_CASE("exp.ntdll.etwesi", RID_EXP_NTDLL_ETWESI, "ntdll", "EtwEventSetInformation", AT(V5_2, V6_0, ABSENT),
                UNKNOWN(V6_1_7601_ESI, V6_1_7601_ESI), FROM(V6_2, PRESENT))
    EXPORT_CASE("exp.advapi32.eventregister", RID_EXP_ADVAPI32_EVENTREGISTER, "advapi32", "EventRegister", AT(V5_2, V5_2, ABSENT),
                FROM(V6_0, PRESENT))
    EXPORT_CASE("exp.advapi32.eventunregister", RID_EXP_ADVAPI32_EVENTREGISTER, "advapi32", "EventUnregister", AT(V5_2, V5_2, ABSENT),
                FROM(V6_0, PRESENT))
    EXPORT_CASE("exp.advapi32.registertraceguidsw", RID_EXP_ADVAPI32_RTG, "advapi32", "RegisterTraceGuidsW", ALL(PRESENT))
    EXPORT_CASE("exp.advapi32.unregistertraceguids", RID_EXP_ADVAPI32_RTG, "advapi32", "UnregisterTraceGuids", ALL(PRESENT))
    EXPORT_CASE("exp.ntdll.ntquerysysteminformation", RID_EXP_NTDLL_NTQSI, "ntdll", "NtQuerySystemInformation", ALL(PRESENT))
    EXPORT_CASE("exp.ntdll.ntsetsysteminformation", RID_EXP_NTDLL_NTQSI, "ntdll", "NtSetSystemInformation", ALL(PRESENT))
    EXPORT_CASE("exp.ntdll.nttracecontrol", RID_EXP_NTDLL_NTTRACECONTROL, "ntdll", "NtTraceControl", FROM(V6_0, PRESENT))
    /* where a function moved away from, or where a module took it over */
    EXPORT_CASE("exp.kernelbase.tqi-moved", RID_EXP_KERNELBASE_TQI_MOVED, "kernelbase", "TraceQueryInformation", FROM(V6_3, ABSENT))
    EXPORT_CASE("exp.sechost.tsi", RID_EXP_SECHOST_TSI, "sechost", "TraceSetInformation", AT(V5_2, V6_0, ABSENT),
                NA(V6_1, V6_2, "ADVAPI32 (6.1) and KERNELBASE (6.2) implement it; whether SECHOST also exports it no source says"), FROM(V6_3, PRESENT))
    /* the export tables of real kernelbase.dll files: 6.1.7601 updates without it, 6.2.9200 with it, 6.3 without it */
    EXPORT_CASE("exp.kernelbase.tsi", RID_EXP_KERNELBASE_TSI, "kernelbase", "TraceSetInformation", AT(V5_2, V6_0, ABSENT),
                NA(V6_1_7600, V6_1_7600, "no export table of 6.1 RTM's KERNELBASE is in the evidence"), AT(V6_1, V6_1_7601_ESI, ABSENT),
                AT(V6_2, V6_2, PRESENT), AT(V6_3, V6_3, ABSENT), UNKNOWN(V10_0, V10_0))
    /* added for mutation testing (tools/mutate) */
    EXPORT_CASE("exp.ntdll.nttracecontrol-before-60", RID_EXP_NTDLL_NTTRACECONTROL, "ntdll", "NtTraceControl", AT(V5_2, V5_2, ABSENT))
};
CASE_TABLE(cases_exports, cases);
