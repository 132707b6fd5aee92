/* harness/out/json.c - a small JSON writer: enough for the records of RESULTS.md, always valid UTF-8. */
#include "harness/out/out.h"
#include <stdlib.h>
#include <string.h>

void etw_json_init(struct etw_json *j)
{
    memset(j, 0, sizeof *j);
}

void etw_json_free(struct etw_json *j)
{
    free(j->buf);
    memset(j, 0, sizeof *j);
}

static void put(struct etw_json *j, const char *s, size_t n)
{
    if (j->oom)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 256;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *b = realloc(j->buf, cap);
        if (!b) {
            j->oom = true;
            return;
        }
        j->buf = b;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = 0;
}

static void puts_(struct etw_json *j, const char *s)
{
    put(j, s, strlen(s));
}

/* a string with every control character, quote, backslash and invalid byte escaped */
static void quoted(struct etw_json *j, const char *s)
{
    put(j, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char ch = *p;
        char esc[8];
        if (ch == '"' || ch == '\\' || ch < 0x20 || ch == 0x7F) {
            bool ctl = ch < 0x20 || ch == 0x7F;
            put(j, esc, (size_t)snprintf(esc, sizeof esc, ctl ? "\\u%04x" : "\\%c", ch));
            p++;
        } else if (ch < 0x80) {
            const unsigned char *q = p + 1;
            while (*q >= 0x20 && *q < 0x7F && *q != '"' && *q != '\\')
                q++;
            put(j, (const char *)p, (size_t)(q - p));
            p = q;
        } else {
            /* pass valid UTF-8 sequences through, replace anything else by U+FFFD */
            int n = ch >= 0xF0 && ch < 0xF5 ? 4 : ch >= 0xE0 ? 3 : ch >= 0xC2 && ch < 0xE0 ? 2 : 0;
            bool ok = n > 0;
            for (int i = 1; ok && i < n; i++)
                ok = (p[i] & 0xC0) == 0x80;
            if (ok) {
                put(j, (const char *)p, (size_t)n);
                p += n;
            } else {
                puts_(j, "\\ufffd");
                p++;
            }
        }
    }
    put(j, "\"", 1);
}

static void key(struct etw_json *j, const char *k)
{
    if (j->depth > 0) {
        if (!j->first[j->depth])
            put(j, ",", 1);
        j->first[j->depth] = false;
    }
    if (k) {
        quoted(j, k);
        put(j, ":", 1);
    }
}

static void open_(struct etw_json *j, const char *k, const char *brace)
{
    key(j, k);
    puts_(j, brace);
    if (j->depth + 1 < (int)(sizeof j->first / sizeof j->first[0]))
        j->depth++;
    j->first[j->depth] = true;
    j->closer[j->depth] = brace[0] == '{' ? '}' : ']';
}

void etw_json_obj(struct etw_json *j, const char *k)
{
    open_(j, k, "{");
}

void etw_json_arr(struct etw_json *j, const char *k)
{
    open_(j, k, "[");
}

void etw_json_end(struct etw_json *j)
{
    if (j->depth <= 0)
        return;
    put(j, &j->closer[j->depth], 1);
    j->depth--;
}

void etw_json_str(struct etw_json *j, const char *k, const char *v)
{
    key(j, k);
    if (v)
        quoted(j, v);
    else
        puts_(j, "null");
}

void etw_json_strs(struct etw_json *j, const char *const *kv)
{
    for (; *kv; kv += 2)
        etw_json_str(j, kv[0], kv[1]);
}

void etw_json_rules(struct etw_json *j, const char *k, const struct etw_case *c)
{
    etw_json_arr(j, k);
    for (int i = 0; etw_case_rule(c, i); i++)
        etw_json_str(j, NULL, etw_rule_name(etw_case_rule(c, i)));
    etw_json_end(j);
}

void etw_json_raw(struct etw_json *j, const char *k, const char *raw)
{
    key(j, k);
    puts_(j, raw);
}

void etw_json_int(struct etw_json *j, const char *k, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    etw_json_raw(j, k, b);
}

void etw_json_bool(struct etw_json *j, const char *k, bool v)
{
    etw_json_raw(j, k, v ? "true" : "false");
}
