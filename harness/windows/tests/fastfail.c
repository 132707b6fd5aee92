/* __fastfail: the process ends at once with STATUS_STACK_BUFFER_OVERRUN (0xC0000409), no handler
 * runs -> CRASH, the run goes on. The instruction is int 0x29 with the code in ecx. */
#include "bad.h"
static void fastfail(void)
{
    __asm__ volatile("movl $7, %%ecx; int $0x29" : : : "ecx", "memory");
}
BAD_TARGET(fastfail(); return 0)
