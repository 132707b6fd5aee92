/* harness/core/functions.c - the API functions a row calls: their names, the modules that export
 * them and their export rule, what they return; resolving one on a target. */
#include "harness/core/core.h"

static const struct {
    const char *name;
    const char *modules[3];
    enum etw_rule_id export_rule;
    bool ntstatus;
} fns[FN_COUNT] = {
    [FN_TQI] = {"TraceQueryInformation", {"advapi32", "sechost", "kernelbase"}, RID_EXP_ADVAPI32_TQI, false},
    [FN_TSI] = {"TraceSetInformation", {"advapi32", "sechost"}, RID_EXP_ADVAPI32_TSI, false},
    [FN_NTQSI] = {"NtQuerySystemInformation", {"ntdll"}, RID_EXP_NTDLL_NTQSI, true},
    [FN_NTSSI] = {"NtSetSystemInformation", {"ntdll"}, RID_EXP_NTDLL_NTQSI, true},
    [FN_NTC] = {"NtTraceControl", {"ntdll"}, RID_EXP_NTDLL_NTTRACECONTROL, true},
    [FN_ETWCTI] = {"EtwCreateTraceInstanceId", {"ntdll"}, RID_EXP_NTDLL_ETWCTI, false},
    [FN_CTI] = {"CreateTraceInstanceId", {"advapi32"}, RID_EXP_ADVAPI32_CTI, false},
    [FN_ESI] = {"EventSetInformation", {"advapi32"}, RID_EXP_ADVAPI32_ESI, false},
    [FN_ETWESI] = {"EtwEventSetInformation", {"ntdll"}, RID_EXP_NTDLL_ETWESI, false},
    [FN_NTQIP] = {"NtQueryIntervalProfile", {"ntdll"}, RID_NONE, true},
    [FN_REGISTERTRACEGUIDS] = {"RegisterTraceGuidsW", {"advapi32"}, RID_EXP_ADVAPI32_RTG, false},
    [FN_UNREGISTERTRACEGUIDS] = {"UnregisterTraceGuids", {"advapi32"}, RID_EXP_ADVAPI32_RTG, false},
    [FN_EVENTREGISTER] = {"EventRegister", {"advapi32"}, RID_EXP_ADVAPI32_EVENTREGISTER, false},
    [FN_EVENTUNREGISTER] = {"EventUnregister", {"advapi32"}, RID_EXP_ADVAPI32_EVENTREGISTER, false},
    [FN_GETLASTERROR] = {"GetLastError", {"kernel32"}, RID_NONE, false},
    [FN_SETLASTERROR] = {"SetLastError", {"kernel32"}, RID_NONE, false},
    [FN_EXPORT] = {"(export)", {NULL}, RID_NONE, false},
    [FN_CUSTOM] = {"(custom)", {NULL}, RID_NONE, false},
};

const char *etw_fn_name(enum etw_fn fn)
{
    return fn < FN_COUNT && fns[fn].name ? fns[fn].name : "?";
}

bool etw_fn_returns_ntstatus(enum etw_fn fn)
{
    return fn < FN_COUNT && fns[fn].ntstatus;
}

enum etw_rule_id etw_fn_export_rule(enum etw_fn fn)
{
    return fn < FN_COUNT ? fns[fn].export_rule : RID_NONE;
}

const char *etw_fn_module(enum etw_fn fn, int i)
{
    return fn < FN_COUNT && i < 3 ? fns[fn].modules[i] : NULL;
}

void *etw_resolve(struct etw_target *t, enum etw_fn fn, const char **where)
{
    static _Thread_local char w[96];
    if (fn >= FN_COUNT || !fns[fn].name)
        return NULL;
    if (where)
        *where = w;
    if (!t->proc) {
        snprintf(w, sizeof w, "%s", fns[fn].name);
        return t->sym(t, fns[fn].name);
    }
    for (int i = 0; i < 3 && fns[fn].modules[i]; i++) {
        void *p = t->proc(fns[fn].modules[i], fns[fn].name);
        if (p) {
            snprintf(w, sizeof w, "%s!%s", fns[fn].modules[i], fns[fn].name);
            return p;
        }
    }
    snprintf(w, sizeof w, "%s!%s", fns[fn].modules[0], fns[fn].name);
    return NULL;
}
