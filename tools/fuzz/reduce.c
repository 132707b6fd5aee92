/*
 * tools/fuzz/reduce.c - reducing a disagreeing program to a minimal one.
 */
#include "tools/fuzz/fuzz.h"
#include <string.h>

/* does q still make the sides disagree? A disagreement at an earlier call than the last is a
 * shorter reproducer: q is cut there */
static bool still(struct fz_prog *q)
{
    if (!fz_run_prog(q, q->ncalls) || fz.dis.call < 0)
        return false;
    q->ncalls = fz.dis.call + 1;
    return true;
}

/* drop what is not needed; on return *p is minimal and still disagrees at its last call */
void fz_reduce(struct fz_prog *p, int at)
{
    static struct fz_prog q;
    p->ncalls = at + 1;
    /* 1. earlier calls */
    for (int i = 0; i < p->ncalls - 1;) {
        q = *p;
        memmove(&q.calls[i], &q.calls[i + 1], sizeof q.calls[0] * (size_t)(q.ncalls - i - 1));
        q.ncalls--;
        /* a sequence handle whose maker is gone would point elsewhere: keep such makers */
        if (still(&q))
            *p = q;
        else
            i++;
    }
    /* 1b. instance ids: earlier ids taken from class 0 are the counter preset of the fixture */
    {
        const struct fz_call *lc = &p->calls[p->ncalls - 1];
        int k = 0;
        bool only = p->ncalls > 1 && (lc->fn == FN_ETWCTI || lc->fn == FN_CTI) && lc->h == H_CLASS && lc->hval == 0;
        for (int i = 0; only && i < p->ncalls - 1; i++) {
            const struct fz_call *c = &p->calls[i];
            only = (c->fn == FN_ETWCTI || c->fn == FN_CTI) && !c->buf_null;
            k += c->h == H_CLASS && c->hval == 0;
        }
        if (only) {
            q = *p;
            q.calls[0] = p->calls[p->ncalls - 1];
            q.ncalls = 1;
            q.fx.counter = (p->fx.set_counter ? p->fx.counter : 0) + (etw_u32)k;
            q.fx.set_counter = true;
            if (still(&q))
                *p = q;
        }
    }
    /* 2. the fixture, piece by piece */
#define TRY(change)                                                                                                         \
    do {                                                                                                                    \
        q = *p;                                                                                                             \
        change;                                                                                                             \
        if (memcmp(&q, p, sizeof q) && still(&q))                                                                           \
            *p = q;                                                                                                         \
    } while (0)
    TRY(q.restrict_group = false);
    TRY(q.fx.logger2 = LG_NONE);
    TRY((q.fx.ndisallow = 0, q.fx.disallow = NULL));
    TRY(memset(q.fx.masks, 0, sizeof q.fx.masks));
    for (int m = 0; m < 8; m++)
        TRY(q.fx.masks[m] = 0);
    TRY(q.fx.profile_priv = PRIV_ANY);
    TRY(q.fx.foreign_pid = false);
    TRY((q.fx.set_counter = false, q.fx.counter = 0));
    while (p->fx.classes > 1) {
        int before = p->fx.classes;
        TRY(q.fx.classes--);
        if (p->fx.classes == before)
            break;
    }
    TRY((q.fx.classes = 0, q.fx.foreign_pid = false, q.fx.set_counter = false));
    TRY(q.fx.provider = false);
    TRY((q.fx.logger = LG_NONE, memset(q.fx.masks, 0, sizeof q.fx.masks)));
    if (p->fx.logger != LG_NONE && p->fx.logger != LG_SYSTEM)
        TRY(q.fx.logger = LG_SYSTEM);
    /* 3. the last call */
    int last = p->ncalls - 1;
    TRY(q.calls[last].fail_alloc = 0);
    TRY(q.calls[last].retlen_null = false);
    TRY(q.calls[last].buf_null = false);
    if (p->calls[last].h == H_LOGGER_HIGH || p->calls[last].h == H_VALUE)
        TRY(q.calls[last].hval = p->calls[last].h == H_VALUE ? 1 : 0x10000);
    /* shorten the input, then zero its bytes */
    while (p->calls[last].in_len) {
        etw_u32 before = p->calls[last].in_len;
        TRY(q.calls[last].in_len = 0);
        TRY(q.calls[last].in_len /= 2);
        if (p->calls[last].in_len)
            TRY(q.calls[last].in_len--);
        if (p->calls[last].in_len == before)
            break;
    }
    for (etw_u32 i = 0; i < p->calls[last].in_len; i++)
        if (p->calls[last].in[i])
            TRY(q.calls[last].in[i] = 0);
#undef TRY
}
