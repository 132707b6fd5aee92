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

bool etw_live_prefix(const wchar_t **s, const wchar_t *lit)
{
    const wchar_t *p = *s;
    for (; *lit; lit++, p++)
        if (!*p || towlower((wint_t)*p) != towlower((wint_t)*lit))
            return false;
    *s = p;
    return true;
}

/* "etwconf-<pid>-<n>" at *s: the pid, s moved past it; 0 if not */
static unsigned long pid_dash(const wchar_t **s)
{
    const wchar_t *p = *s;
    if (!etw_live_prefix(&p, prefix))
        return 0;
    unsigned long pid = number(&p);
    if (!pid || *p++ != L'-')
        return 0;
    *s = p;
    return pid;
}

unsigned long etw_live_session_owner(const wchar_t *name)
{
    const wchar_t *s = name;
    unsigned long pid = s ? pid_dash(&s) : 0;
    return pid && number(&s) && !*s ? pid : 0;
}

bool etw_live_run_dir_name(wchar_t *out, size_t cap, unsigned long pid, const unsigned char rnd[ETW_LIVE_RUN_RANDOM])
{
    static const wchar_t hex[] = L"0123456789abcdef";
    int n = swprintf(out, cap, L"%ls%lu-", prefix, pid);
    if (n < 0 || (size_t)n + 2 * ETW_LIVE_RUN_RANDOM + 1 > cap)
        return false;
    for (int i = 0; i < ETW_LIVE_RUN_RANDOM; i++) {
        out[n++] = hex[rnd[i] >> 4];
        out[n++] = hex[rnd[i] & 15];
    }
    out[n] = 0;
    return true;
}

unsigned long etw_live_run_dir_owner(const wchar_t *name)
{
    const wchar_t *s = name;
    unsigned long pid = s ? pid_dash(&s) : 0;
    for (int i = 0; pid && i < 2 * ETW_LIVE_RUN_RANDOM; i++, s++)
        if (!iswxdigit((wint_t)*s) || *s > 0x7F)
            return 0;
    return pid && !*s ? pid : 0;
}

unsigned long etw_live_run_file_seq(const wchar_t *name)
{
    const wchar_t *s = name;
    if (!s || (!etw_live_prefix(&s, L"kernel-") && !etw_live_prefix(&s, L"private-")))
        return 0;
    unsigned long n = number(&s);
    return n && etw_live_prefix(&s, L".etl") && !*s ? n : 0;
}

static bool separator(wchar_t c)
{
    return c == L'\\' || c == L'/';
}

bool etw_live_final_path_is(const wchar_t *final, const wchar_t *parent, const wchar_t *name)
{
    if (!final || !parent || !name || !*parent || !*name)
        return false;
    const wchar_t *s = final;
    if (!etw_live_prefix(&s, parent))
        return false;
    if (!separator(parent[wcslen(parent) - 1]) && !separator(*s++))
        return false;
    return etw_live_prefix(&s, name) && !*s;
}
