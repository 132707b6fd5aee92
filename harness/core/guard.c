/*
 * harness/core/guard.c - the portable half of guarded buffers: a pool of mappings for reuse, and the
 * layout and sentinel fill of a buffer inside its mapping. The platform layer maps, protects the
 * guard page and unmaps (posix_platform.c: mmap/mprotect; win_platform.c: VirtualAlloc/Protect).
 *
 * Mapping and unmapping per buffer cost most of a case (a TLB shootdown on the other CPU at every
 * munmap, measured by bench/), so a freed mapping is kept, its guard page still inaccessible.
 */
#include "harness/etwconf.h"
#include <string.h>

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
