/*
 * harness/out/expect.c - known-divergence (expectations) files in C, for --format winetest and
 * export-wine, and the small JSON reader they need.
 *
 * The file format is reports/README.md's (schema etwconf-expectations/1). What is read here is
 * the subset reports/etwconf_report/expectations.py defines for matching: the target (impl,
 * arch), and per entry the case, the versions (left out = all; "all"; a name such as "win7" or
 * "6.1"; "6.2+"; "6.2-10.0"), the status, the mode, the observed text and the why. Matching
 * (harness/out/winetest.c) is the Python's entry_matches(): same status, same mode when the entry
 * gives one, and the observed text found in what the case reports.
 */
#include "harness/out/winetest.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- JSON */
struct jp {
    const char *s, *p;
    char *err;
    size_t errlen;
    int depth;
};

static int jp_line(struct jp *j)
{
    int n = 1;
    for (const char *q = j->s; q < j->p; q++)
        n += *q == '\n';
    return n;
}

static bool jp_fail(struct jp *j, const char *what)
{
    if (j->err && !j->err[0])
        snprintf(j->err, j->errlen, "line %d: %s", jp_line(j), what);
    return false;
}

static void jp_ws(struct jp *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
        j->p++;
}

static void put_utf8(char *o, size_t *n, unsigned cp)
{
    if (cp < 0x80)
        o[(*n)++] = (char)cp;
    else if (cp < 0x800) {
        o[(*n)++] = (char)(0xC0 | cp >> 6);
        o[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        o[(*n)++] = (char)(0xE0 | cp >> 12);
        o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        o[(*n)++] = (char)(0xF0 | cp >> 18);
        o[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static bool hex4(const char *p, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int c = p[i];
        if (!isxdigit(c))
            return false;
        *v = *v * 16 + (unsigned)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
    }
    return true;
}

static bool jp_string(struct jp *j, char **out)
{
    const char *q = ++j->p; /* after the quote */
    size_t cap = 1;
    while (*q && *q != '"') {
        if (*q == '\\' && q[1])
            q++;
        q++, cap += 4;
    }
    if (*q != '"')
        return jp_fail(j, "unterminated string");
    char *o = malloc(cap + 4);
    if (!o)
        return jp_fail(j, "out of memory");
    size_t n = 0;
    while (*j->p != '"') {
        unsigned char c = (unsigned char)*j->p++;
        if (c < 0x20) {
            free(o);
            return jp_fail(j, "control character in a string");
        }
        if (c != '\\') {
            o[n++] = (char)c;
            continue;
        }
        c = (unsigned char)*j->p++;
        unsigned cp;
        switch (c) {
        case '"': case '\\': case '/': o[n++] = (char)c; break;
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'u':
            if (!hex4(j->p, &cp)) {
                free(o);
                return jp_fail(j, "bad \\u escape");
            }
            j->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && j->p[0] == '\\' && j->p[1] == 'u') {
                unsigned lo;
                if (hex4(j->p + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    j->p += 6;
                }
            }
            put_utf8(o, &n, cp);
            break;
        default: free(o); return jp_fail(j, "bad escape in a string");
        }
    }
    j->p++;
    o[n] = 0;
    *out = o;
    return true;
}

static bool jp_value(struct jp *j, struct etw_jval *v);
static void jfree_kids(struct etw_jval *v);

static bool jp_push(struct etw_jval *v, struct etw_jval *kid, size_t *cap)
{
    if (v->nkids == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        struct etw_jval *k = realloc(v->kids, nc * sizeof *k);
        if (!k)
            return false;
        v->kids = k;
        *cap = nc;
    }
    v->kids[v->nkids++] = *kid;
    return true;
}

static bool jp_value(struct jp *j, struct etw_jval *v)
{
    memset(v, 0, sizeof *v);
    jp_ws(j);
    if (++j->depth > 64)
        return jp_fail(j, "nested too deep");
    bool ok = true;
    char c = *j->p;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? J_OBJ : J_ARR;
        size_t cap = 0;
        j->p++;
        jp_ws(j);
        if (*j->p == (c == '{' ? '}' : ']'))
            j->p++;
        else
            for (;;) {
                struct etw_jval kid;
                char *key = NULL;
                jp_ws(j);
                if (c == '{') {
                    if (*j->p != '"' || !jp_string(j, &key)) {
                        ok = jp_fail(j, "expected a member name");
                        break;
                    }
                    jp_ws(j);
                    if (*j->p++ != ':') {
                        free(key);
                        ok = jp_fail(j, "expected ':'");
                        break;
                    }
                }
                if (!jp_value(j, &kid)) {
                    free(key);
                    jfree_kids(&kid);
                    ok = false;
                    break;
                }
                kid.key = key;
                if (!jp_push(v, &kid, &cap)) {
                    ok = jp_fail(j, "out of memory");
                    break;
                }
                jp_ws(j);
                if (*j->p == ',') {
                    j->p++;
                    continue;
                }
                if (*j->p == (c == '{' ? '}' : ']')) {
                    j->p++;
                    break;
                }
                ok = jp_fail(j, c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
                break;
            }
    } else if (c == '"') {
        v->type = J_STR;
        ok = jp_string(j, &v->str);
    } else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
        v->type = J_BOOL;
        v->b = c == 't';
        j->p += v->b ? 4 : 5;
    } else if (!strncmp(j->p, "null", 4)) {
        j->p += 4;
    } else if (c == '-' || isdigit((unsigned char)c)) {
        char *end;
        v->type = J_NUM;
        v->num = strtod(j->p, &end);
        if (end == j->p)
            ok = jp_fail(j, "bad number");
        j->p = end;
    } else {
        ok = jp_fail(j, c ? "unexpected character" : "unexpected end of text");
    }
    j->depth--;
    return ok;
}

static void jfree_kids(struct etw_jval *v)
{
    for (size_t i = 0; i < v->nkids; i++)
        jfree_kids(&v->kids[i]);
    free(v->kids);
    free(v->str);
    free(v->key);
    memset(v, 0, sizeof *v);
}

struct etw_jval *etw_jparse(const char *text, char *err, size_t errlen)
{
    struct jp j = {text, text, err, errlen, 0};
    if (err && errlen)
        err[0] = 0;
    if (!strncmp(j.p, "\xEF\xBB\xBF", 3))
        j.p += 3;
    struct etw_jval *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    bool ok = jp_value(&j, v);
    jp_ws(&j);
    if (ok && *j.p)
        ok = jp_fail(&j, "text after the JSON value");
    if (!ok) {
        etw_jfree(v);
        return NULL;
    }
    return v;
}

void etw_jfree(struct etw_jval *v)
{
    if (!v)
        return;
    jfree_kids(v);
    free(v);
}

const struct etw_jval *etw_jget(const struct etw_jval *obj, const char *key)
{
    if (!obj || obj->type != J_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->nkids; i++)
        if (obj->kids[i].key && !strcmp(obj->kids[i].key, key))
            return &obj->kids[i];
    return NULL;
}

const char *etw_jstr(const struct etw_jval *obj, const char *key)
{
    const struct etw_jval *v = etw_jget(obj, key);
    return v && v->type == J_STR ? v->str : NULL;
}

/* ---------------------------------------------------------------- versions */
/* other names winecfg knows for the NT versions of the table (reports/etwconf_report/util.py WINE_NT) */
static const struct {
    const char *name;
    unsigned nt;
} wine_aliases[] = {{"winxp", 0x0501}, {"win2003", 0x0502}, {"win2008", 0x0600}, {"win2008r2", 0x0601}, {"win11", 0x0A00}};

static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* a Wine name of the table or an alias -> its NT version; else 0 */
static unsigned wine_name_nt(const char *s)
{
    for (size_t i = 0; i < etw_version_count; i++)
        if (ieq(etw_versions[i].wine, s))
            return etw_versions[i].nt;
    for (size_t i = 0; i < sizeof wine_aliases / sizeof wine_aliases[0]; i++)
        if (ieq(wine_aliases[i].name, s))
            return wine_aliases[i].nt;
    return 0;
}

/* the key range a version names: "6.1", "win7" (every 6.1 build), "10.0.19045", "win11-24h2",
 * "6.1.7601-esi" (that build with its updates); false if none (reports/etwconf_report/util.py version_bounds) */
static bool bounds_of(const char *s, size_t n, unsigned *lo, unsigned *hi)
{
    char buf[48];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *p = buf;
    while (*p == ' ')
        p++;
    unsigned w = wine_name_nt(p);
    if (w)
        return *lo = ETW_VLO(w), *hi = ETW_VHI(w), true;
    unsigned id = etw_version_parse(p);
    if (id)
        return *lo = ETW_VLO(id), *hi = ETW_VHI(id), true;
    unsigned key = etw_version_parse_key(p); /* "10.0.19045", "6.3" (the whole text, nothing after it) */
    if (!key)
        return false;
    if (strchr(strchr(p, '.') + 1, '.')) /* a build: with its updates */
        return *lo = key, *hi = key | 0xFu, true;
    return *lo = key & ~0xFFFFFu, *hi = key | 0xFFFFFu, true; /* an NT version: every build */
}

static bool spec_names(const char *spec, const char *impl, unsigned v, unsigned key, const char *label)
{
    size_t n = strlen(spec);
    unsigned lo, hi, lo2, hi2;
    if (ieq(spec, "all"))
        return true;
    if (n > 1 && spec[n - 1] == '+' && bounds_of(spec, n - 1, &lo, &hi))
        return key >= lo;
    if (!bounds_of(spec, n, &lo, &hi)) /* names hold '-' too (win11-24h2): the first split that gives two versions */
        for (const char *dash = strchr(spec, '-'); dash; dash = strchr(dash + 1, '-'))
            if (bounds_of(spec, (size_t)(dash - spec), &lo, &hi) && bounds_of(dash + 1, strlen(dash + 1), &lo2, &hi2))
                return lo <= key && key <= hi2;
    /* a name: one the run's version answers to (ingest.py Run.version_names) */
    const struct etw_version_info *vi = etw_version_info(v);
    if (label && ieq(spec, label))
        return true;
    if (vi && ieq(spec, vi->name))
        return true;
    return impl && !strcmp(impl, "wine") && vi && ieq(spec, vi->wine);
}

bool etw_xentry_names(const struct etw_xentry *e, const char *impl, unsigned v, unsigned key, const char *label)
{
    if (!e->versions)
        return true;
    if (e->versions->type == J_STR)
        return spec_names(e->versions->str, impl, v, key, label);
    for (size_t i = 0; i < e->versions->nkids; i++)
        if (e->versions->kids[i].type == J_STR && spec_names(e->versions->kids[i].str, impl, v, key, label))
            return true;
    return false;
}

void etw_xentry_describe(const struct etw_xentry *e, char *buf, size_t len)
{
    int o = snprintf(buf, len, "%s", e->status);
    if (e->mode && o >= 0 && (size_t)o < len)
        o += snprintf(buf + o, len - (size_t)o, ", mode %s", e->mode);
    if (e->observed && o >= 0 && (size_t)o < len)
        snprintf(buf + o, len - (size_t)o, ", observed \"%s\"", e->observed);
}

/* ---------------------------------------------------------------- loading */
static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (!b) {
            fclose(f);
            snprintf(err, errlen, "%s: out of memory", path);
            return NULL;
        }
        n += fread(b + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        if (cap >= (64u << 20)) {
            free(b);
            fclose(f);
            snprintf(err, errlen, "%s: larger than 64 MiB: not an expectations file", path);
            return NULL;
        }
        cap *= 2;
        char *nb = realloc(b, cap);
        if (!nb)
            free(b);
        b = nb;
    }
    fclose(f);
    b[n] = 0;
    return b;
}

struct etw_xfile *etw_xfile_load(const char *path, char *err, size_t errlen)
{
    static const char *const statuses[] = {"FAIL", "CRASH", "TIMEOUT", "SKIP", "BROKEN"};
    char jerr[160];
    struct etw_xfile *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    x->path = malloc(strlen(path) + 1);
    if (x->path)
        strcpy(x->path, path);
    if (!(x->text = slurp(path, err, errlen)))
        goto bad;
    if (!(x->doc = etw_jparse(x->text, jerr, sizeof jerr))) {
        /* JSON Lines whose first line is a results header: the wrong kind of file, not bad JSON */
        char *nl = strchr(x->text, '\n'), e2[16];
        if (nl)
            *nl = 0;
        struct etw_jval *first = nl ? etw_jparse(x->text, e2, sizeof e2) : NULL;
        const char *sch = etw_jstr(first, "schema");
        if (sch && !strncmp(sch, "etwconf-results/", 16))
            snprintf(err, errlen, "%s: this is a results file (JSON Lines), not an expectations file: give an expectations file "
                     "(reports/expectations/*.json)", path);
        else
            snprintf(err, errlen, "%s: not valid JSON (%s): fix the JSON syntax", path, jerr);
        etw_jfree(first);
        goto bad;
    }
    const char *schema = etw_jstr(x->doc, "schema");
    if (!schema || strcmp(schema, "etwconf-expectations/1")) {
        snprintf(err, errlen, "%s: \"schema\" is not \"etwconf-expectations/1\"%s", path,
                 schema && !strncmp(schema, "etwconf-results/", 16) ? ": this is a results file, not an expectations file"
                                                                    : ": not an expectations file (format: reports/README.md)");
        goto bad;
    }
    const struct etw_jval *target = etw_jget(x->doc, "target");
    x->impl = etw_jstr(target, "impl");
    x->arch = etw_jstr(target, "arch");
    if (!x->impl || !x->impl[0]) {
        snprintf(err, errlen, "%s: \"target\" must be an object with \"impl\" (reference, thirdparty, windows, wine)", path);
        goto bad;
    }
    const struct etw_jval *ents = etw_jget(x->doc, "entries");
    if (!ents || ents->type != J_ARR) {
        snprintf(err, errlen, "%s: \"entries\" must be a list", path);
        goto bad;
    }
    x->entries = calloc(ents->nkids + 1, sizeof *x->entries);
    if (!x->entries) {
        snprintf(err, errlen, "out of memory");
        goto bad;
    }
    /* the line of each entry: the n-th "case" key of the text, when the count agrees */
    size_t ncase = 0;
    for (const char *p = x->text; (p = strstr(p, "\"case\"")); p++)
        ncase++;
    const char *scan = x->text;
    int line = 1;
    for (size_t i = 0; i < ents->nkids; i++) {
        const struct etw_jval *e = &ents->kids[i];
        struct etw_xentry *xe = &x->entries[x->nentries];
        if (ncase == ents->nkids) {
            const char *at = strstr(scan, "\"case\"");
            for (; scan < at; scan++)
                line += *scan == '\n';
            xe->line = line;
            scan = at + 1;
        }
        xe->case_id = etw_jstr(e, "case");
        xe->status = etw_jstr(e, "status");
        xe->mode = etw_jstr(e, "mode");
        xe->observed = etw_jstr(e, "observed");
        xe->why = etw_jstr(e, "why");
        xe->versions = etw_jget(e, "versions");
        if (xe->versions && xe->versions->type == J_NULL)
            xe->versions = NULL;
        if (!xe->case_id || !xe->case_id[0]) {
            snprintf(err, errlen, "%s: entries[%lu] has no \"case\" (the case id)", path, (unsigned long)i);
            goto bad;
        }
        bool known = false;
        for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
            known |= xe->status && !strcmp(xe->status, statuses[k]);
        if (!known) {
            snprintf(err, errlen, "%s:%d: entry for %s: \"status\" must be FAIL, CRASH, TIMEOUT, SKIP or BROKEN", path, xe->line, xe->case_id);
            goto bad;
        }
        if (!xe->why || !xe->why[0]) {
            snprintf(err, errlen, "%s:%d: entry for %s: \"why\" is missing; say why the failure is expected", path, xe->line, xe->case_id);
            goto bad;
        }
        if (xe->versions && xe->versions->type != J_STR && xe->versions->type != J_ARR) {
            snprintf(err, errlen, "%s:%d: entry for %s: \"versions\" must be a list of version names", path, xe->line, xe->case_id);
            goto bad;
        }
        x->nentries++;
    }
    return x;
bad:
    etw_xfile_free(x);
    return NULL;
}

void etw_xfile_free(struct etw_xfile *x)
{
    if (!x)
        return;
    etw_jfree(x->doc);
    free(x->text);
    free(x->path);
    free(x->entries);
    free(x);
}
