/* harness/targets/win_live/names.c - exact names of what the suite creates (names.h). */
#include "harness/targets/win_live/names.h"
#include <wctype.h>

static const wchar_t prefix[] = L"etwconf-";

/* digits at *s (no sign, no leading zero, at most 10): the value, s moved past them; 0 if none */
static unsigned long number(const wchar_t **s)
{
    const wchar_t *p = *s;
    unsigned long v = 0;
    int n = 0;
    if (*p == L'0')
        return 0;
    while (*p >= L'0' && *p <= L'9' && n < 10) {
        v = v * 10 + (unsigned long)(*p++ - L'0');
        n++;
    }
    if (!n || (*p >= L'0' && *p <= L'9') || v > 0xFFFFFFFFul)
        return 0;
    *s = p;
    return v;
}

/* "etwconf-<pid>-<n>" followed by tail exactly (compared without case); the pid or 0 */
static unsigned long owner(const wchar_t *s, const wchar_t *tail)
{
    for (const wchar_t *p = prefix; *p; p++, s++)
        if (towlower((wint_t)*s) != (wint_t)*p)
            return 0;
    unsigned long pid = number(&s);
    if (!pid || *s++ != L'-' || !number(&s))
        return 0;
    for (; *tail; tail++, s++)
        if (towlower((wint_t)*s) != towlower((wint_t)*tail))
            return 0;
    return *s ? 0 : pid;
}

unsigned long etw_live_session_owner(const wchar_t *name)
{
    return name ? owner(name, L"") : 0;
}

unsigned long etw_live_kernel_name_owner(const wchar_t *base)
{
    return base ? owner(base, L"-kernel.etl") : 0;
}

unsigned long etw_live_kernel_file_owner(const wchar_t *path, const wchar_t *dir)
{
    if (!path || !dir || !*dir)
        return 0;
    size_t n = wcslen(dir);
    if (dir[n - 1] != L'\\' && dir[n - 1] != L'/')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (towlower((wint_t)path[i]) != towlower((wint_t)dir[i]) || !path[i])
            return 0;
    return etw_live_kernel_name_owner(path + n);
}
