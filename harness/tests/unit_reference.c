/* harness/tests/unit_reference.c - unit tests of the reference implementation's internals:
 * the parts the case table reaches only indirectly (exports table, handles, fault injection,
 * state reset, translation of masks). */
#define UNIT_SUITE "reference"
#include "unit.h"
#include "reference/internal.h"

static const etw_guid g = {1, 2, 3, {4}}; /* a provider of the tests' own */

TEST(exports_by_version, "exports follow the emulated version")
{
    static const struct {
        const char *mod, *name;
        unsigned first;
    } t[] = {{"advapi32", "TraceQueryInformation", ETW_V6_2}, {"sechost", "TraceQueryInformation", ETW_V6_3},
             {"advapi32", "TraceSetInformation", ETW_V6_1}, {"ntdll", "EtwCreateTraceInstanceId", ETW_V5_2},
             {"advapi32", "EventSetInformation", ETW_V6_2}, {"ntdll", "NtTraceControl", ETW_V6_0}};
    static const unsigned vs[] = {ETW_V5_2, ETW_V6_0, ETW_V6_1, ETW_V6_2, ETW_V6_3, ETW_V10_0};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (size_t k = 0; k < 6; k++) {
            unit_reference_at(vs[k]);
            void *p = EtwRef_GetProcAddress(t[i].mod, t[i].name);
            CHECKF((p != NULL) == (vs[k] >= t[i].first), "%s!%s at %s: %s", t[i].mod, t[i].name, etw_version_name(vs[k]),
                   p ? "exported" : "missing");
        }
    unit_reference_at(ETW_V10_0);
    CU_ASSERT_PTR_NOT_NULL(EtwRef_GetProcAddress("ADVAPI32.DLL", "TraceQueryInformation")); /* case-insensitive, .dll optional */
    CU_ASSERT_PTR_NULL(EtwRef_GetProcAddress("kernelbase", "TraceQueryInformation")); /* 6.2 only */
    CU_ASSERT_PTR_NULL(EtwRef_GetProcAddress("advapi32", "NoSuchFunction"));
    CU_ASSERT_PTR_NULL(EtwRef_GetProcAddress(NULL, "TraceQueryInformation"));
    CU_ASSERT_PTR_NOT_NULL(EtwRef_Symbol("EtwRef_EnableGroup"));
    CU_ASSERT_EQUAL(EtwRef_SetVersion(0x0501, 0), -1);
}

TEST(fault_injection_counts, "an injected allocation fault fires once")
{
    unit_reference_at(ETW_V10_0);
    etw_u8 buf[0x1000];
    etw_u32 rl = 0;
    EtwRef_FailAllocation(1);
    EQ_U32(TraceQueryInformation(0, ETW_TraceProfileSourceListInfo, buf, sizeof buf, &rl), ETW_ERROR_OUTOFMEMORY);
    /* the fault is spent: the next call succeeds */
    EQ_U32(TraceQueryInformation(0, ETW_TraceProfileSourceListInfo, buf, sizeof buf, &rl), ETW_ERROR_SUCCESS);
    EtwRef_FailAllocation(2); /* the second allocation fails: TQI makes only one here */
    EQ_U32(TraceQueryInformation(0, ETW_TraceProfileSourceListInfo, buf, sizeof buf, &rl), ETW_ERROR_SUCCESS);
    EtwRef_FailAllocation(0);
}

TEST(logger_ids, "logger ids and the kernel logger")
{
    unit_reference_at(ETW_V10_0);
    etw_tracehandle k, a, b;
    const etw_u32 m[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CU_ASSERT_EQUAL(EtwRef_StartLogger(ETWREF_LOGGER_KERNEL, m, &k), 0);
    EQ_U32(k, 0xFFFF);
    CU_ASSERT_EQUAL(EtwRef_StartLogger(ETWREF_LOGGER_KERNEL, m, &k), -1); /* one kernel logger */
    CU_ASSERT_EQUAL(EtwRef_StartLogger(ETWREF_LOGGER_SYSTEM, NULL, &a), 0);
    CU_ASSERT_EQUAL(EtwRef_StartLogger(ETWREF_LOGGER_PLAIN, NULL, &b), 0);
    CU_ASSERT(a != b && a != 0 && b != 0);
    etw_tracehandle miss = EtwRef_MissingLoggerHandle();
    CU_ASSERT(miss != a && miss != b && miss != k);
    etw_u32 got[8];
    CU_ASSERT_EQUAL(EtwRef_GetLoggerMasks(0xFFFF, got), 0);
    CU_ASSERT_EQUAL(memcmp(got, m, sizeof m), 0);
    CU_ASSERT_EQUAL(EtwRef_StopLogger(a), 0);
    CU_ASSERT_EQUAL(EtwRef_StopLogger(a), -1);
    EtwRef_Reset();
    CU_ASSERT_EQUAL(EtwRef_GetLoggerMasks(0xFFFF, got), -1); /* reset stops everything */
}

TEST(enable_flags_translation, "EnableFlags translation and the profile privilege")
{
    unit_reference_at(ETW_V10_0);
    etw_tracehandle k;
    const etw_u32 none[8] = {0};
    EtwRef_StartLogger(ETWREF_LOGGER_KERNEL, none, &k);
    ETW_EVENT_TRACE_GROUPMASK_INFORMATION gm = {ETW_EventTraceGroupMaskInformation, k, {{ETW_EVENT_TRACE_FLAG_PROFILE | 0x1}}};
    EQ_U32(NtSetSystemInformation(ETW_SystemPerformanceTraceInformation, &gm, sizeof gm), 0);
    etw_u32 kept[8];
    EtwRef_GetLoggerMasks(k, kept);
    /* the kernel keeps PERF_PROFILE in Masks[1]; the flag in Masks[0] stays as given */
    EQ_U32(kept[1] & 2, 2);
    EQ_U32(kept[0], ETW_EVENT_TRACE_FLAG_PROFILE | 0x1);
    /* without the privilege the same request is refused */
    EtwRef_SetPrivilege(ETWREF_PRIV_SYSTEM_PROFILE, 0);
    EQ_U32(NtSetSystemInformation(ETW_SystemPerformanceTraceInformation, &gm, sizeof gm), ETW_STATUS_PRIVILEGE_NOT_HELD);
}

TEST(reghandle_encoding, "REGHANDLE sequence numbers make stale handles invalid")
{
    unit_reference_at(ETW_V10_0);
    etw_reghandle h = 0, h2 = 0;
    EQ_U32(EventRegister(&g, NULL, NULL, &h), 0);
    CU_ASSERT((h >> 48) != 0); /* sequence number in the top 16 bits */
    CU_ASSERT((h & 1) == 0);
    EQ_U32(EventUnregister(h), 0);
    EQ_U32(EventRegister(&g, NULL, NULL, &h2), 0);
    CU_ASSERT(h != h2); /* same slot, new sequence: the old handle is stale */
    EQ_U32(EtwEventSetInformation(h, ETW_EventProviderBinaryTrackInfo, NULL, 0), ETW_ERROR_INVALID_HANDLE);
    EQ_U32(EtwEventSetInformation(h2, ETW_EventProviderBinaryTrackInfo, NULL, 0), 0);
    EQ_U32(EtwEventSetInformation(h2 | 1, ETW_EventProviderBinaryTrackInfo, NULL, 0), ETW_ERROR_INVALID_HANDLE);
}

TEST(traits_parser_edges, "traits parser edges; a failed set does not count")
{
    unit_reference_at(ETW_V10_0);
    etw_reghandle h;
    EventRegister(&g, NULL, NULL, &h);
    /* exactly 3 bytes: size 3, empty name */
    etw_u8 min[] = {3, 0, 0};
    EQ_U32(EtwEventSetInformation(h, ETW_EventProviderSetTraits, min, 3), 0);
    EQ_U32(EtwEventSetInformation(h, ETW_EventProviderSetTraits, min, 3), ETW_ERROR_GEN_FAILURE);
    /* a failed set does not use up the one set */
    etw_reghandle h2;
    EventRegister(&g, NULL, NULL, &h2);
    etw_u8 bad[] = {4, 0, 'x', 'y'};
    EQ_U32(EtwEventSetInformation(h2, ETW_EventProviderSetTraits, bad, 4), ETW_ERROR_FILE_CORRUPT);
    etw_u8 good[] = {4, 0, 'x', 0};
    EQ_U32(EtwEventSetInformation(h2, ETW_EventProviderSetTraits, good, 4), 0);
}

TEST(cti_wrap_and_pid, "instance ids wrap past zero; foreign process")
{
    unit_reference_at(ETW_V5_2);
    static const etw_guid g = {9, 9, 9, {9}};
    ETW_TRACE_GUID_REGISTRATION r = {&g, NULL};
    etw_tracehandle reg;
    EQ_U32(RegisterTraceGuidsW((etw_wmidprequest)(uintptr_t)1, NULL, &g, 1, &r, NULL, NULL, &reg), 0);
    CU_ASSERT_EQUAL(EtwRef_SetClassCounter(r.RegHandle, 0xFFFFFFFF), 0);
    ETW_EVENT_INSTANCE_INFO info;
    EQ_U32(EtwCreateTraceInstanceId(r.RegHandle, &info), 0);
    EQ_U32(info.InstanceId, 1); /* 0xFFFFFFFF + 1 = 0 is skipped */
    CU_ASSERT_EQUAL(EtwRef_SetClassProcessId(r.RegHandle, 1), 0);
    EQ_U32(EtwCreateTraceInstanceId(r.RegHandle, &info), 87);
    CU_ASSERT_EQUAL(EtwRef_SetClassCounter((etw_handle)&g, 0), -1); /* not a class handle */
    EQ_U32(UnregisterTraceGuids(reg), 0);
    EQ_U32(UnregisterTraceGuids(reg), 87);
}

TEST(status_translation, "NTSTATUS to Win32 translation")
{
    EQ_U32(ref_status_to_win32(ETW_STATUS_WMI_INSTANCE_NOT_FOUND), 4201);
    EQ_U32(ref_status_to_win32(ETW_STATUS_NOT_IMPLEMENTED), ETW_ERROR_INVALID_FUNCTION);
    EQ_U32(ref_status_to_win32(ETW_STATUS_INFO_LENGTH_MISMATCH), ETW_ERROR_BAD_LENGTH);
    EQ_U32(ref_status_to_win32(ETW_STATUS_BUFFER_TOO_SMALL), ETW_ERROR_INSUFFICIENT_BUFFER);
}
