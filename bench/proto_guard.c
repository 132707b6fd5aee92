/*
 * bench/proto_guard.c - a proposed etw_guard_alloc/etw_guard_free for harness/core/guard.c,
 * measured by `make bench` (the "proto" rows): etwconf linked with this file and a copy of
 * posix_platform.o whose own two functions are made weak (objcopy --weaken-symbol), nothing else changed.
 *
 * Differences from the harness version:
 *  - freed mappings go to a small pool keyed by their length and are reused: no munmap per case (an
 *    munmap after a case has run threads costs a TLB-shootdown IPI to every other CPU), no mmap/mprotect
 *    and no fresh page faults for the next buffer of the same size (the guard page stays PROT_NONE);
 *  - only [buf - ETW_PRE_ZONE, guard) is filled with the sentinel, 4 bytes at a time (ETW_PRE_ZONE is a
 *    multiple of 4, so the pattern keeps buf[i] = sentinel[i mod 4]), not the whole page-rounded body byte
 *    by byte with two modulos each. Nothing reads the bytes before buf - ETW_PRE_ZONE.
 */
#include "harness/etwconf.h"
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define POOL 8
static struct {
    etw_u8 *map;
    size_t len;
} pool[POOL];

bool etw_guard_alloc(struct etw_guard *g, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (ETW_PRE_ZONE + len + page - 1) / page * page;
    memset(g, 0, sizeof *g);
    g->map_len = body + page;
    etw_u8 *m = NULL;
    for (int i = 0; i < POOL && !m; i++)
        if (pool[i].map && pool[i].len == g->map_len) {
            m = pool[i].map;
            pool[i].map = NULL;
        }
    bool fresh = m == NULL;
    if (fresh) {
        void *p = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        m = p;
    }
    g->map = m;
    g->guard = m + body;
    g->guard_len = page;
    g->len = len;
    g->buf = g->guard - len;
    etw_u8 *p = g->buf - ETW_PRE_ZONE;
    for (; p + 4 <= g->guard; p += 4)
        memcpy(p, etw_sentinel, 4);
    for (int i = 0; p < g->guard; p++, i++)
        *p = etw_sentinel[i];
    if (fresh && mprotect(g->guard, page, PROT_NONE) != 0) {
        munmap(m, g->map_len);
        return false;
    }
    return true;
}

void etw_guard_free(struct etw_guard *g)
{
    if (g->map) {
        int i = 0;
        while (i < POOL && pool[i].map)
            i++;
        if (i < POOL) {
            pool[i].map = g->map;
            pool[i].len = g->map_len;
        } else {
            munmap(g->map, g->map_len);
        }
    }
    memset(g, 0, sizeof *g);
}
