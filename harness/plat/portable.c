/* harness/plat/portable.c - the primitives that are the same on every host: the one table of
 * architecture names and the one this program was built for, closing a results file with the
 * first error it met, the end hooks and the end of a guarded call. */
#include "harness/plat/plat.h"
#include <errno.h>
#include <stdlib.h>

const char *plat_arch_name(enum plat_arch a)
{
    static const char *const names[] = {"unknown", "x86_64", "i686", "aarch64", "arm", "ia64"};
    return (unsigned)a < sizeof names / sizeof names[0] ? names[a] : "unknown";
}

/* the architecture this program was compiled for */
const char *plat_process_arch(void)
{
#if defined(_M_X64) || defined(__x86_64__)
    return plat_arch_name(PLAT_ARCH_X86_64);
#elif defined(_M_IX86) || defined(__i386__)
    return plat_arch_name(PLAT_ARCH_I686);
#elif defined(_M_ARM64) || defined(__aarch64__)
    return plat_arch_name(PLAT_ARCH_AARCH64);
#elif defined(_M_ARM) || defined(__arm__)
    return plat_arch_name(PLAT_ARCH_ARM);
#else
    return plat_arch_name(PLAT_ARCH_UNKNOWN);
#endif
}

int plat_close_checked(FILE *f)
{
    int err = ferror(f) ? EIO : 0;
    errno = 0;
    if (fflush(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    return err;
}

static void (*end_fns[8])(void);
static int nend;

/* atomic: a fatal fault, a closed console and the exit may race, and each hook runs once */
void plat_run_end_fns(void)
{
    int n;
    while ((n = __atomic_sub_fetch(&nend, 1, __ATOMIC_SEQ_CST)) >= 0)
        end_fns[n]();
    __atomic_store_n(&nend, 0, __ATOMIC_SEQ_CST);
}

void plat_at_end(void (*fn)(void))
{
    static bool registered;
    if (!registered)
        registered = atexit(plat_run_end_fns) == 0;
    if (nend < 8)
        end_fns[nend++] = fn;
}

enum plat_end plat_call_ended(struct plat_call *c, enum plat_end k, long off, const char *fault)
{
    c->exception[0] = 0;
    if (k == PLAT_GUARD_HIT)
        c->offset = off;
    else if (k == PLAT_FAULT)
        snprintf(c->exception, sizeof c->exception, "%s", fault);
    else if (k == PLAT_TIMEOUT)
        snprintf(c->exception, sizeof c->exception, "timeout");
    return k;
}
