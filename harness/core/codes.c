/* harness/core/codes.c - names for Win32 codes, NTSTATUS values, versions and functions. */
#include "harness/etwconf.h"
#include <string.h>

#define C(n) {ETW_ERROR_##n, "ERROR_" #n}
static const struct {
    etw_u32 v;
    const char *name;
} win32[] = {
    C(SUCCESS), C(INVALID_FUNCTION), C(ACCESS_DENIED), C(INVALID_HANDLE), C(NOT_ENOUGH_MEMORY), C(OUTOFMEMORY), C(BAD_LENGTH),
    C(GEN_FAILURE), C(NOT_SUPPORTED), C(INVALID_PARAMETER), C(CALL_NOT_IMPLEMENTED), C(INSUFFICIENT_BUFFER), C(MORE_DATA),
    C(NOACCESS), C(PRIVILEGE_NOT_HELD), C(FILE_CORRUPT), C(NO_SYSTEM_RESOURCES), C(INCORRECT_SIZE), C(WMI_GUID_NOT_FOUND),
    C(WMI_INSTANCE_NOT_FOUND),
};
#undef C
#define C(n) {(etw_u32)ETW_STATUS_##n, "STATUS_" #n}
static const struct {
    etw_u32 v;
    const char *name;
} ntstatus[] = {
    C(SUCCESS), C(MORE_ENTRIES), C(BUFFER_OVERFLOW), C(UNSUCCESSFUL), C(NOT_IMPLEMENTED), C(INVALID_INFO_CLASS),
    C(INFO_LENGTH_MISMATCH), C(ACCESS_VIOLATION), C(INVALID_HANDLE), C(INVALID_PARAMETER), C(INVALID_DEVICE_REQUEST),
    C(NO_MEMORY), C(ACCESS_DENIED), C(BUFFER_TOO_SMALL), C(PRIVILEGE_NOT_HELD), C(INSUFFICIENT_RESOURCES), C(NOT_SUPPORTED),
    C(FILE_CORRUPT_ERROR), C(WMI_GUID_NOT_FOUND), C(WMI_INSTANCE_NOT_FOUND), {0x80000100u, "EXCEPTION_WINE_STUB"},
};
#undef C

const char *etw_win32_name(etw_u32 code)
{
    for (size_t i = 0; i < sizeof win32 / sizeof win32[0]; i++)
        if (win32[i].v == code)
            return win32[i].name;
    return NULL;
}

const char *etw_ntstatus_name(etw_u32 status)
{
    for (size_t i = 0; i < sizeof ntstatus / sizeof ntstatus[0]; i++)
        if (ntstatus[i].v == status)
            return ntstatus[i].name;
    return NULL;
}

bool etw_code_parse(const char *name, bool nt, etw_u32 *v)
{
    size_t n = nt ? sizeof ntstatus / sizeof ntstatus[0] : sizeof win32 / sizeof win32[0];
    for (size_t i = 0; i < n; i++)
        if (!strcmp(nt ? ntstatus[i].name : win32[i].name, name))
            return *v = nt ? ntstatus[i].v : win32[i].v, true;
    return false;
}

void etw_format_code(char *buf, size_t len, etw_u32 v, bool nt)
{
    const char *n = nt ? etw_ntstatus_name(v) : etw_win32_name(v);
    if (nt || v > 0xFFFF)
        snprintf(buf, len, n ? "0x%08X (%s)" : "0x%08X", v, n);
    else
        snprintf(buf, len, n ? "%u (%s)" : "%u", v, n);
}

const struct etw_version_info etw_versions[] = {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb)                                                \
    {nt, build, update, ETW_VKEY(nt, build, update), ETW_##sym, #sym, name, wine, label, aliases, kb},
#include "spec/versions.def"
#undef VERSION
};
const size_t etw_version_count = sizeof etw_versions / sizeof etw_versions[0];
const char etw_why_unknown[] = "unknown for this build";

const struct etw_version_info *etw_version_info(unsigned id)
{
    for (size_t i = 0; i < etw_version_count; i++)
        if (etw_versions[i].id == id)
            return &etw_versions[i];
    return NULL;
}

const struct etw_version_info *etw_version_by_key(unsigned key)
{
    for (size_t i = 0; i < etw_version_count; i++)
        if (etw_versions[i].key == key)
            return &etw_versions[i];
    return NULL;
}

const struct etw_version_info *etw_version_at(unsigned key)
{
    const struct etw_version_info *at = NULL;
    for (size_t i = 0; i < etw_version_count; i++)
        if (etw_versions[i].key <= key)
            at = &etw_versions[i];
    return at;
}

const char *etw_version_name(unsigned id)
{
    const struct etw_version_info *i = etw_version_info(id);
    return i ? i->name : "?";
}

void etw_version_key_name(unsigned key, char *buf, size_t len)
{
    const struct etw_version_info *i = etw_version_by_key(key);
    unsigned nt = ETW_VKEY_NT(key);
    if (i)
        snprintf(buf, len, "%s", i->name);
    else if (ETW_VKEY_UPDATE(key))
        snprintf(buf, len, "%u.%u.%u+%u", nt >> 8, nt & 0xFF, ETW_VKEY_BUILD(key), ETW_VKEY_UPDATE(key));
    else
        snprintf(buf, len, "%u.%u.%u", nt >> 8, nt & 0xFF, ETW_VKEY_BUILD(key));
}

void etw_version_bound_name(unsigned key, bool hi, char *buf, size_t len)
{
    for (size_t i = 0; i < etw_version_count; i++)
        if (key == (hi ? ETW_VHI(etw_versions[i].id) : ETW_VLO(etw_versions[i].id))) {
            snprintf(buf, len, "%s", etw_versions[i].name);
            return;
        }
    unsigned nt = ETW_VKEY_NT(key);
    if (!hi && (key & 0xFFFFFu) == 0)
        snprintf(buf, len, "%u.%u", nt >> 8, nt & 0xFF);
    else if (hi && (key & 0xFFFFFu) == 0xFFFFFu)
        snprintf(buf, len, "%u.%u", nt >> 8, nt & 0xFF);
    else
        etw_version_key_name(hi ? key & ~0xFu : key, buf, len);
}

static bool word_in(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; n && (p = strstr(p, w)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return true;
    return false;
}

unsigned etw_version_parse(const char *s)
{
    for (size_t i = 0; s && *s && i < etw_version_count; i++)
        if (!strcmp(etw_versions[i].name, s) || !strcmp(etw_versions[i].wine, s) || word_in(etw_versions[i].aliases, s))
            return etw_versions[i].id;
    if (s && !strcmp(s, "10"))
        return ETW_V10_0;
    return 0;
}

unsigned etw_version_parse_key(const char *s)
{
    unsigned id = etw_version_parse(s);
    const struct etw_version_info *i = id ? etw_version_info(id) : NULL;
    if (i)
        return i->key;
    unsigned maj, min, build = 0;
    int n = 0;
    if (!s || (sscanf(s, "%u.%u%n", &maj, &min, &n) != 2))
        return 0;
    if (s[n] == '.') {
        int m = 0;
        if (sscanf(s + n, ".%u%n", &build, &m) != 1)
            return 0;
        n += m;
    }
    if (s[n] || maj > 15 || min > 255 || build > 0xFFFF || (maj == 0 && min == 0))
        return 0;
    return ETW_VKEY(maj << 8 | min, build, 0);
}

/* ---------------------------------------------------------------- functions */
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

void *etw_resolve(struct etw_target *t, enum etw_fn fn, const char **where)
{
    static _Thread_local char w[96];
    if (fn >= FN_COUNT || !fns[fn].name)
        return NULL;
    if (!t->proc) {
        snprintf(w, sizeof w, "%s", fns[fn].name);
        if (where)
            *where = w;
        return t->sym(t, fns[fn].name);
    }
    for (int i = 0; i < 3 && fns[fn].modules[i]; i++) {
        void *p = t->proc(fns[fn].modules[i], fns[fn].name);
        if (p) {
            snprintf(w, sizeof w, "%s!%s", fns[fn].modules[i], fns[fn].name);
            if (where)
                *where = w;
            return p;
        }
    }
    snprintf(w, sizeof w, "%s!%s", fns[fn].modules[0], fns[fn].name);
    if (where)
        *where = w;
    return NULL;
}
