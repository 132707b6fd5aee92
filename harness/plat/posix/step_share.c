/*
 * harness/plat/posix/step_share.c - the step slot of client scenarios (harness/scenario.h) in a
 * shared anonymous page, mapped before main: worker processes forked later write their step into
 * it, so when a worker dies inside a scenario the runner still records the step it had reached.
 * Workers run one at a time, so one slot is enough. If the mapping fails the slot stays in process
 * memory and such a record says the step is unknown.
 */
#include "harness/scenario.h"
#include <sys/mman.h>

__attribute__((constructor)) static void share_step_slot(void)
{
    void *p = mmap(NULL, sizeof(struct etw_step_slot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        etw_step_slot = p;
}
