/* harness/targets/win_live/fingerprint.c - the fingerprint of the system and the executable in the results header. */
#include "harness/targets/win_live/live.h"
#include <string.h>

static bool reg_string(HKEY k, const WCHAR *name, char *out, size_t cap)
{
    WCHAR w[256] = {0};
    DWORD type = 0, sz = sizeof w - sizeof(WCHAR);
    if (RegQueryValueExW(k, name, NULL, &type, (BYTE *)w, &sz) != ERROR_SUCCESS || (type != REG_SZ && type != REG_EXPAND_SZ))
        return false;
    utf8(out, cap, w);
    return out[0] != 0;
}

/* an IMAGE_FILE_MACHINE_* value, by the platform's one table of names */
static const char *machine_name(USHORT m)
{
    static const USHORT machines[] = {[PLAT_ARCH_X86_64] = 0x8664, [PLAT_ARCH_I686] = 0x014c,
        [PLAT_ARCH_AARCH64] = 0xAA64, [PLAT_ARCH_ARM] = 0x01c4, [PLAT_ARCH_IA64] = 0x0200};
    int a = PLAT_ARCH_IA64;
    while (a > PLAT_ARCH_UNKNOWN && machines[a] != m)
        a--;
    return plat_arch_name((enum plat_arch)a);
}

/* "10.0.19045": RtlGetVersion's answer, in both fingerprints */
static void rtl_version(char *buf, size_t len)
{
    snprintf(buf, len, "%lu.%lu.%lu", (unsigned long)L.vi.dwMajorVersion, (unsigned long)L.vi.dwMinorVersion,
             (unsigned long)L.vi.dwBuildNumber);
}

/* which suite and which exe wrote the results */
static void suite_fields(struct etw_json *j)
{
    etw_json_str(j, "suite_version", ETWCONF_VERSION);
    char hex[65];
    const wchar_t *exe = win_exe_path();
    etw_json_str(j, "exe_sha256", exe[0] && win_sha256_file(exe, hex) ? hex : NULL);
}

/* the file version of a loaded module, "6.1.7601.23403", from its VS_VERSIONINFO resource (no
 * version.dll: FindResource on the mapped image works on every version from 5.2 on); false if none */
static bool module_file_version(HMODULE h, char *buf, size_t len)
{
    HRSRC r = h ? FindResourceW(h, MAKEINTRESOURCEW(1), MAKEINTRESOURCEW(16) /* RT_VERSION */) : NULL;
    HGLOBAL g = r ? LoadResource(h, r) : NULL;
    const BYTE *p = g ? (const BYTE *)LockResource(g) : NULL;
    DWORD n = r ? SizeofResource(h, r) : 0;
    /* VS_FIXEDFILEINFO follows the "VS_VERSION_INFO" key, 32-bit aligned: find its signature */
    for (DWORD o = 0; p && o + 16 <= n && o < 256; o += 4) {
        DWORD w[4];
        memcpy(w, p + o, sizeof w);
        if (w[0] == 0xFEEF04BDu) {
            snprintf(buf, len, "%lu.%lu.%lu.%lu", (unsigned long)(w[2] >> 16), (unsigned long)(w[2] & 0xFFFF),
                     (unsigned long)(w[3] >> 16), (unsigned long)(w[3] & 0xFFFF));
            return true;
        }
    }
    return false;
}

void live_fingerprint(struct etw_target *t, struct etw_json *j)
{
    char buf[512];
    /* the DLLs the API lives in: a patch changes exports without changing the build */
    etw_json_obj(j, "dll_versions");
    for (size_t i = 0; i < 4 /* advapi32, sechost, kernelbase, ntdll */; i++)
        etw_json_str(j, mod_names[i], module_file_version(mod_handles[i], buf, sizeof buf) ? buf : NULL);
    etw_json_end(j);
    rtl_version(buf, sizeof buf);
    etw_json_str(j, "rtl_version", buf);
    etw_json_int(j, "major", L.vi.dwMajorVersion);
    etw_json_int(j, "minor", L.vi.dwMinorVersion);
    etw_json_int(j, "build", L.vi.dwBuildNumber);
    HKEY k;
    bool have_key = RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", 0, KEY_QUERY_VALUE, &k) == ERROR_SUCCESS;
    DWORD ubr = 0, type = 0, sz = sizeof ubr;
    if (have_key && RegQueryValueExW(k, L"UBR", NULL, &type, (BYTE *)&ubr, &sz) == ERROR_SUCCESS && type == REG_DWORD)
        etw_json_int(j, "ubr", ubr);
    else
        etw_json_str(j, "ubr", NULL);
    utf8(buf, sizeof buf, L.vi.szCSDVersion);
    etw_json_str(j, "service_pack", buf[0] ? buf : NULL);
    static const char *const ptypes[] = {"unknown", "workstation", "domain_controller", "server"};
    etw_json_str(j, "product_type", ptypes[L.vi.wProductType <= 3 ? L.vi.wProductType : 0]);
    etw_json_str(j, "product_name", have_key && reg_string(k, L"ProductName", buf, sizeof buf) ? buf : NULL);
    etw_json_str(j, "edition", have_key && reg_string(k, L"EditionID", buf, sizeof buf) ? buf : NULL);
    if (have_key && (reg_string(k, L"DisplayVersion", buf, sizeof buf) || reg_string(k, L"ReleaseId", buf, sizeof buf)))
        etw_json_str(j, "display_version", buf);
    if (have_key)
        RegCloseKey(k);
    USHORT pm = 0, nm = 0;
    BOOL w = FALSE;
    bool v2 = IsWow64Process2(GetCurrentProcess(), &pm, &nm);
    bool v1 = !v2 && IsWow64Process(GetCurrentProcess(), &w);
    etw_json_str(j, "native_arch", v2 ? machine_name(nm) : plat_host_arch());
    etw_json_str(j, "process_arch", plat_process_arch());
    etw_json_raw(j, "wow64", !v2 && !v1 ? "null" : (v2 ? pm != 0 : w != 0) ? "true" : "false");
    etw_json_str(j, "wow64_check",
                 v2 ? "IsWow64Process2" : v1 ? "IsWow64Process+GetNativeSystemInfo" : "none");
    etw_json_raw(j, "elevated", L.elevated < 0 ? "null" : L.elevated == 1 ? "true" : "false");
    static const char *const etypes[] = {NULL, "default", "full", "limited"};
    etw_json_str(j, "elevation_type", L.elevation_type >= 1 && L.elevation_type <= 3 ? etypes[L.elevation_type] : NULL);
    etw_json_bool(j, "administrators_member", L.admin_member);
    etw_json_bool(j, "admin", L.admin);
    etw_json_obj(j, "privileges");
    char pb[8192];
    DWORD len = 0;
    if (L.token && GetTokenInformation(L.token, TokenPrivileges, pb, sizeof pb, &len)) {
        TOKEN_PRIVILEGES *tp = (TOKEN_PRIVILEGES *)pb;
        for (DWORD i = 0; i < tp->PrivilegeCount; i++) {
            char name[128];
            DWORD nl = sizeof name;
            if (!LookupPrivilegeNameA(NULL, &tp->Privileges[i].Luid, name, &nl))
                continue;
            /* as the run found it (the suite adjusts SeSystemProfilePrivilege per case and restores it) */
            bool en = (tp->Privileges[i].Attributes & SE_PRIVILEGE_ENABLED) != 0;
            if (!strcmp(name, SE_SYSTEM_PROFILE))
                en = L.profile_initial == 1;
            etw_json_str(j, name, en ? "enabled" : "disabled");
        }
    }
    etw_json_end(j);
    static const char *const kl[] = {"not running", "running (not started by etwconf)", "unknown (no right to query it)"};
    etw_json_str(j, "kernel_logger_at_start", kl[L.kernel_at_start]);
    if (L.wine) {
        etw_json_str(j, "wine_version", L.wine_version);
        snprintf(buf, sizeof buf, "%s %s", L.wine_sys ? L.wine_sys : "?", L.wine_release ? L.wine_release : "?");
        etw_json_str(j, "wine_host", buf);
    }
    /* the twin of Windows the run was answered by (ETWCONF_TWIN): the version and personality it models */
    if (lb_twin())
        etw_json_str(j, "twin", lb_twin_model());
    suite_fields(j);
    const wchar_t *exe = win_exe_path();
    const wchar_t *base = wcsrchr(exe, L'\\');
    utf8(buf, sizeof buf, base ? base + 1 : exe);
    etw_json_str(j, "exe_name", buf);
}

/* a DLL target: the host it ran on, and the suite */
void dll_fingerprint(struct etw_target *t, struct etw_json *j)
{
    char buf[64];
    rtl_version(buf, sizeof buf);
    etw_json_str(j, "host_rtl_version", buf);
    if (L.wine)
        etw_json_str(j, "wine_version", L.wine_version);
    suite_fields(j);
}
