/* harness/plat/arch.c - the one table of architecture names, for every host (portable). */
#include "harness/plat/plat.h"

const char *plat_arch_name(enum plat_arch a)
{
    static const char *const names[] = {"unknown", "x86_64", "i686", "aarch64", "arm", "ia64"};
    return (unsigned)a < sizeof names / sizeof names[0] ? names[a] : "unknown";
}
