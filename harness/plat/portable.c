/* harness/plat/portable.c - the primitives that are the same on every host: the one table of
 * architecture names, and closing a results file with the first error it met. */
#include "harness/plat/plat.h"
#include <errno.h>

const char *plat_arch_name(enum plat_arch a)
{
    static const char *const names[] = {"unknown", "x86_64", "i686", "aarch64", "arm", "ia64"};
    return (unsigned)a < sizeof names / sizeof names[0] ? names[a] : "unknown";
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
