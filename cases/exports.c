/* cases/exports.c - which module exports which function, by version (spec/rules/exports.def). */
#include "cases/common.h"

#define EXPORT_CASE(id_, rule, mod, name, ...)                                                                              \
    CASE(.id = id_, .rules = rule, .title = mod "!" name " is exported where the rule says", .fn = FN_EXPORT,               \
         .args = {.module = mod, .export_name = name}, .expect = {__VA_ARGS__})

static const struct etw_case cases[] = {
    EXPORT_CASE("exp.advapi32.tqi", "EXP.ADVAPI32.TQI", "advapi32", "TraceQueryInformation",
                AT(V5_2, V6_1, ABSENT), FROM(V6_2, PRESENT))
    EXPORT_CASE("exp.kernelbase.tqi", "EXP.KERNELBASE.TQI", "kernelbase", "TraceQueryInformation", AT(V6_2, V6_2, PRESENT))
    EXPORT_CASE("exp.sechost.tqi", "EXP.SECHOST.TQI", "sechost", "TraceQueryInformation", FROM(V6_3, PRESENT))
    EXPORT_CASE("exp.advapi32.tsi", "EXP.ADVAPI32.TSI", "advapi32", "TraceSetInformation",
                AT(V5_2, V6_0, ABSENT), FROM(V6_1, PRESENT))
    EXPORT_CASE("exp.ntdll.etwcti", "EXP.NTDLL.ETWCTI", "ntdll", "EtwCreateTraceInstanceId", ALL(PRESENT))
    EXPORT_CASE("exp.advapi32.cti", "EXP.ADVAPI32.CTI", "advapi32", "CreateTraceInstanceId", ALL(PRESENT))
    EXPORT_CASE("exp.advapi32.esi", "EXP.ADVAPI32.ESI", "advapi32", "EventSetInformation",
                AT(V5_2, V6_1, ABSENT), FROM(V6_2, PRESENT))
    EXPORT_CASE("exp.ntdll.etwesi", "EXP.NTDLL.ETWESI", "ntdll", "EtwEventSetInformation", FROM(V6_2, PRESENT))
    EXPORT_CASE("exp.advapi32.eventregister", "EXP.ADVAPI32.EVENTREGISTER", "advapi32", "EventRegister", FROM(V6_0, PRESENT))
    EXPORT_CASE("exp.advapi32.eventunregister", "EXP.ADVAPI32.EVENTREGISTER", "advapi32", "EventUnregister", FROM(V6_0, PRESENT))
    EXPORT_CASE("exp.advapi32.registertraceguidsw", "EXP.ADVAPI32.RTG", "advapi32", "RegisterTraceGuidsW", ALL(PRESENT))
    EXPORT_CASE("exp.advapi32.unregistertraceguids", "EXP.ADVAPI32.RTG", "advapi32", "UnregisterTraceGuids", ALL(PRESENT))
    EXPORT_CASE("exp.ntdll.ntquerysysteminformation", "EXP.NTDLL.NTQSI", "ntdll", "NtQuerySystemInformation", ALL(PRESENT))
    EXPORT_CASE("exp.ntdll.ntsetsysteminformation", "EXP.NTDLL.NTQSI", "ntdll", "NtSetSystemInformation", ALL(PRESENT))
    EXPORT_CASE("exp.ntdll.nttracecontrol", "EXP.NTDLL.NTTRACECONTROL", "ntdll", "NtTraceControl", FROM(V6_0, PRESENT))
    /* added for mutation testing (tools/mutate) */
    EXPORT_CASE("exp.ntdll.nttracecontrol-before-60", "EXP.NTDLL.NTTRACECONTROL", "ntdll", "NtTraceControl", AT(V5_2, V5_2, ABSENT))
};
CASE_TABLE(cases_exports, cases);
