/* harness/core/versions.c - the version table of spec/versions.def: lookups, names, parsing. */
#include "harness/core/core.h"
#include <string.h>

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
    if ((key & 0xFFFFFu) == (hi ? 0xFFFFFu : 0))
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
