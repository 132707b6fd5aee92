/* harness/plat/portable.c - the primitives that are the same on every host: the one table of
 * architecture names and the one this program was built for, and closing a results file with the
 * first error it met. */
#include "harness/plat/plat.h"
#include <errno.h>

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
