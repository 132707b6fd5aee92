/*
 * harness/core/guard.c - guarded buffers and guarded calls, over the platform's primitives
 * (harness/plat/plat.h: a mapping with an inaccessible page after it; a call that a fault ends).
 *
 * Guarded buffers: a pool of mappings for reuse, and the layout and sentinel fill of a buffer
 * inside its mapping. Mapping and unmapping per buffer cost most of a case (a TLB shootdown on
 * the other CPU at every munmap, measured by bench/), so a freed mapping is kept, its guard page
 * still inaccessible.
 *
 * Guarded calls: etw_guarded_call() runs a case body under plat_guarded_call(), telling the
 * platform which addresses are the case's guard pages.
 */
#include "harness/core/core.h"
#include <string.h>

const etw_u8 etw_sentinel[4] = {0xDE, 0xAD, 0xBE, 0xEF};

void etw_sentinel_fill(etw_u8 *start, size_t n)
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
static struct {
    etw_u8 *map;
    size_t map_len;
} pool[GUARD_POOL];
static int pooled;

etw_u8 *etw_guard_pool_take(size_t map_len)
{
    for (int i = 0; i < pooled; i++)
        if (pool[i].map_len == map_len) {
            etw_u8 *m = pool[i].map;
            pool[i] = pool[--pooled];
            return m;
        }
    return NULL;
}

bool etw_guard_pool_put(etw_u8 *map, size_t map_len)
{
    if (!map || pooled >= GUARD_POOL || map_len > GUARD_POOL_MAX)
        return false;
    pool[pooled].map = map;
    pool[pooled++].map_len = map_len;
    return true;
}

size_t etw_guard_body(size_t len, size_t page)
{
    return (ETW_PRE_ZONE + len + page - 1) / page * page;
}

void etw_guard_place(struct etw_guard *g, etw_u8 *map, size_t len, size_t page)
{
    size_t body = etw_guard_body(len, page);
    g->map = map;
    g->map_len = body + page;
    g->guard = map + body;
    g->guard_len = page;
    g->len = len;
    g->buf = g->guard - len;
    etw_sentinel_fill(g->buf - ETW_PRE_ZONE, ETW_PRE_ZONE + len);
}

bool etw_guard_alloc(struct etw_guard *g, size_t len)
{
    size_t page = plat_page_size();
    size_t body = etw_guard_body(len, page);
    etw_u8 *m = etw_guard_pool_take(body + page);
    if (!m && !(m = plat_map_guarded(body)))
        return false;
    memset(g, 0, sizeof *g);
    etw_guard_place(g, m, len, page);
    return true;
}

void etw_guard_free(struct etw_guard *g)
{
    if (g->map && !etw_guard_pool_put(g->map, g->map_len))
        plat_unmap_guarded(g->map, g->map_len - g->guard_len);
    memset(g, 0, sizeof *g);
}

/* ---------------------------------------------------------------- guarded calls */
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
