/* A target that leaves a child behind in every call: the child sleeps for an hour holding every
 * descriptor the worker had (its result channel too), and writes its pid to $FAULT_PIDS. The run
 * must not wait for it, and it must be gone when the run ends. */
#include "common.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void linger(void)
{
    pid_t p = fork();
    if (p == 0) {
        const char *f = getenv("FAULT_PIDS");
        if (f) {
            char buf[32];
            int fd = open(f, O_WRONLY | O_APPEND | O_CREAT, 0600);
            int n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
            if (fd >= 0) {
                (void)!write(fd, buf, (size_t)n);
                close(fd);
            }
        }
        sleep(3600);
        _exit(0);
    }
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; linger(); return 24; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; linger(); return 0xC0000004u; }
