/* harness/targets/win_live/dll.c - a DLL that exports the API under its Windows names as a target. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- DLL targets */
static void *dll_sym(struct etw_target *t, const char *name)
{
    return fn_ptr(GetProcAddress((HMODULE)t->handle, name));
}

struct etw_target *win_dll_target(const char *path, char *err, size_t errlen)
{
    HMODULE h = NULL;
    bool has_dir = strpbrk(path, "\\/") != NULL;
    if (has_dir)
        h = LoadLibraryExA(path, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    else {
        char local[MAX_PATH + 8];
        snprintf(local, sizeof local, ".\\%s", path);
        h = LoadLibraryExA(local, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    }
    if (!h) {
        snprintf(err, errlen,
                 "cannot load target '%s' (error %lu): a target is 'live' (this system, the default) or a DLL exporting the API under "
                 "its Windows names",
                 path, GetLastError());
        return NULL;
    }
    if (!L.open && !L.mods[MOD_NTDLL]) {
        open_common(); /* version and token of the host, for the fingerprint */
    }
    struct etw_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *b1 = strrchr(path, '\\'), *b2 = strrchr(path, '/');
    const char *base = b1 > b2 ? b1 : b2;
    t->spec = path;
    t->impl = "thirdparty";
    t->name = base ? base + 1 : path;
    t->arch = plat_process_arch();
    t->handle = h;
    t->sym = dll_sym;
    etw_target_bind_control(t);
    t->version = ETW_V10_0;
    t->fingerprint = dll_fingerprint;
    return t;
}
