/* harness/targets/win_live/bind.c - the bottom of the live target: the system modules the API lives
 * in, and resolving the table of bind.def (bind.h) from them or from a twin; with the two small
 * conversions every file of the folder uses (a function pointer, UTF-8). */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the modules the API lives in */
const char *const mod_names[NMODS] = {"advapi32", "sechost", "kernelbase", "ntdll", "kernel32"};
HMODULE mod_handles[NMODS];

HMODULE load_system_module(const char *name)
{
    char file[80], path[MAX_PATH + 80];
    if (strpbrk(name, "\\/:") || strlen(name) > 60)
        return NULL;
    snprintf(file, sizeof file, "%s.dll", name);
    HMODULE h = GetModuleHandleA(file);
    if (h)
        return h;
    UINT n = GetSystemDirectoryA(path, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        return NULL;
    snprintf(path + n, sizeof path - n, "\\%s", file);
    return LoadLibraryA(path);
}

void load_modules(void)
{
    for (size_t i = 0; i < NMODS; i++)
        mod_handles[i] = load_system_module(mod_names[i]);
}

HMODULE module_of(const char *name)
{
    for (size_t i = 0; i < NMODS; i++)
        if (!_stricmp(name, mod_names[i]))
            return mod_handles[i];
    return load_system_module(name);
}

void *fn_ptr(FARPROC p)
{
    void *v;
    memcpy(&v, &p, sizeof v);
    return v;
}

void utf8(char *out, size_t cap, const WCHAR *w)
{
    if (!WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)cap, NULL, NULL))
        out[0] = 0;
}

/* ---------------------------------------------------------------- the table */
/* a stub per entry for a function the system lacks: the table's missing value */
#define LB_FN(from, module, other, cc, ret, name, params, missing)                                                                   \
    static ret cc lb_missing_##name params                                                                                           \
    {                                                                                                                                \
        SetLastError(ERROR_PROC_NOT_FOUND);                                                                                          \
        return missing;                                                                                                              \
    }
#include "harness/targets/win_live/bind.def"
#undef LB_FN

struct lb_fns lb = {
#define LB_FN(from, module, other, cc, ret, name, params, missing) .p_##name = lb_missing_##name,
#include "harness/targets/win_live/bind.def"
#undef LB_FN
};
bool lb_present[LB_COUNT];

typedef void *(__cdecl *pfn_twin_proc)(const char *module, const char *name);
typedef const char *(__cdecl *pfn_twin_model)(void);
static struct {
    HMODULE dll;
    pfn_twin_proc proc;
    char path[MAX_PATH * 3];
    const char *model;
} twin;

static void *system_proc(const char *module, const char *name)
{
    HMODULE h = module_of(module);
    return h ? fn_ptr(GetProcAddress(h, name)) : NULL;
}

void *lb_proc(const char *module, const char *name)
{
    return twin.proc ? twin.proc(module, name) : system_proc(module, name);
}

const char *lb_twin(void)
{
    return twin.proc ? twin.path : NULL;
}

const char *lb_twin_model(void)
{
    return twin.proc ? twin.model : NULL;
}

/* the twin named by ETWCONF_TWIN, when it is set: false and err when it cannot be used */
static bool load_twin(char *err, size_t len)
{
    WCHAR w[MAX_PATH + 1];
    DWORD n = GetEnvironmentVariableW(L"ETWCONF_TWIN", w, MAX_PATH);
    if (n == 0)
        return true;
    if (n >= MAX_PATH) {
        snprintf(err, len, "ETWCONF_TWIN is longer than %d characters: give the twin's path in full, shorter", MAX_PATH);
        return false;
    }
    utf8(twin.path, sizeof twin.path, w);
    twin.dll = LoadLibraryExW(w, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    if (!twin.dll) {
        snprintf(err, len, "ETWCONF_TWIN names '%s', which cannot be loaded (error %lu): build it with 'make twin', or unset ETWCONF_TWIN "
                           "to test this system", twin.path, (unsigned long)GetLastError());
        return false;
    }
    twin.proc = (pfn_twin_proc)fn_ptr(GetProcAddress(twin.dll, "Twin_GetProcAddress"));
    pfn_twin_model model = (pfn_twin_model)fn_ptr(GetProcAddress(twin.dll, "Twin_Model"));
    if (!twin.proc || !model) {
        twin.proc = NULL;
        snprintf(err, len, "ETWCONF_TWIN names '%s', which is not the Windows twin (no Twin_GetProcAddress and Twin_Model export): "
                           "build it with 'make twin'", twin.path);
        return false;
    }
    twin.model = model();
    return true;
}

bool lb_bind(char *err, size_t len)
{
    static bool done, ok;
    static char saved[400];
    if (done) {
        if (!ok)
            snprintf(err, len, "%s", saved);
        return ok;
    }
    done = true;
    ok = load_twin(saved, sizeof saved);
    if (!ok)
        snprintf(err, len, "%s", saved);
    void *p;
#define LB_FN(from, module, other, cc, ret, name, params, missing)                                                                   \
    p = twin.proc && !strcmp(#from, "TWIN") ? twin.proc(module, #name) : system_proc(module, #name);                                 \
    if (!p && other)                                                                                                                 \
        p = twin.proc && !strcmp(#from, "TWIN") ? twin.proc(other ? other : "", #name) : system_proc(other ? other : "", #name);    \
    lb_present[LB_ID_##name] = p != NULL;                                                                                            \
    if (p)                                                                                                                           \
        memcpy(&lb.p_##name, &p, sizeof p);
#include "harness/targets/win_live/bind.def"
#undef LB_FN
    return ok;
}
