/*
 * harness/core/guard.c - guarded buffers and guarded calls over the platform's primitives. Mapping
 * and unmapping per buffer cost most of a case (a TLB shootdown on the other CPU at every munmap,
 * measured by bench/), so a freed mapping is kept in a pool, its guard page still inaccessible.
 */
#include "harness/core/core.h"
#include <string.h>

const etw_u8 etw_sentinel[4] = {0xDE, 0xAD, 0xBE, 0xEF};

/* fill n bytes from start with the sentinel, start being at phase 0 of the pattern: a guarded
 * buffer is filled from buf - ETW_PRE_ZONE, so that buf[i] = etw_sentinel[i mod 4] */
static void sentinel_fill(etw_u8 *start, size_t n)
{
    etw_u8 block[64];
    for (int i = 0; i < 64; i++)
        block[i] = etw_sentinel[i & 3];
    for (; n >= sizeof block; start += sizeof block, n -= sizeof block)
        memcpy(start, block, sizeof block);
    memcpy(start, block, n);
}

#define GUARD_POOL 32
#define GUARD_POOL_MAX (4u << 20) /* larger mappings are unmapped, not kept */
static struct pooled {
    etw_u8 *map;
    size_t map_len;
} pool[GUARD_POOL];
static int pooled;

bool etw_guard_alloc(struct etw_guard *g, size_t len)
{
    size_t page = plat_page_size();
    size_t body = (ETW_PRE_ZONE + len + page - 1) / page * page; /* before the guard page */
    etw_u8 *m = NULL;
    for (int i = 0; i < pooled && !m; i++)
        if (pool[i].map_len == body + page) {
            m = pool[i].map;
            pool[i] = pool[--pooled];
        }
    if (!m && !(m = plat_map_guarded(body)))
        return false;
    *g = (struct etw_guard){.map = m, .map_len = body + page, .guard = m + body, .guard_len = page,
                            .len = len};
    g->buf = g->guard - len;
    sentinel_fill(g->buf - ETW_PRE_ZONE, ETW_PRE_ZONE + len);
    return true;
}

void etw_guard_free(struct etw_guard *g)
{
    if (g->map && pooled < GUARD_POOL && g->map_len <= GUARD_POOL_MAX) /* kept, guard page intact */
        pool[pooled++] = (struct pooled){g->map, g->map_len};
    else if (g->map)
        plat_unmap_guarded(g->map, g->map_len - g->guard_len);
    memset(g, 0, sizeof *g);
}

struct guarded {
    struct etw_ctx *ctx;
    void (*fn)(struct etw_ctx *);
};

static void guarded_run(void *p)
{
    struct guarded *g = p;
    g->fn(g->ctx);
}

static bool guarded_hit(void *p, uintptr_t a, long *off)
{
    struct etw_ctx *ctx = ((struct guarded *)p)->ctx;
    for (int i = 0; ctx && i < ctx->nguards; i++) {
        struct etw_guard *g = ctx->guards[i];
        if (a >= (uintptr_t)g->guard && a < (uintptr_t)g->guard + g->guard_len) {
            *off = (long)(a - (uintptr_t)g->guard);
            return true;
        }
    }
    return false;
}

int etw_guarded_call(struct etw_ctx *ctx, void (*fn)(struct etw_ctx *), char *exception, size_t exlen, long *fault_offset)
{
    struct guarded g = {ctx, fn};
    struct plat_call c = {.fn = guarded_run, .arg = &g, .guard_hit = guarded_hit};
    enum plat_end k = plat_guarded_call(&c);
    if (k == PLAT_GUARD_HIT)
        *fault_offset = c.offset;
    else if (k != PLAT_RETURNED)
        snprintf(exception, exlen, "%s", c.exception);
    return (int)k;
}
