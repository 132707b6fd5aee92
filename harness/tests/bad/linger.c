/* A target that leaves a child behind in every call: the child sleeps for an hour holding every
 * descriptor the worker had (its result channel too), and writes its pid to $FAULT_PIDS. The call
 * returns once the child has written it (a child not yet scheduled when the run ends would be
 * killed before it says it exists, on a busy machine). The run must not wait for it, and it must be
 * gone when the run ends. */
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void linger(void)
{
    int ready[2];
    if (pipe(ready) != 0)
        return;
    pid_t p = fork();
    if (p == 0) {
        close(ready[0]);
        const char *f = getenv("FAULT_PIDS");
        int fd = f ? open(f, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
        if (fd >= 0) {
            dprintf(fd, "%d\n", (int)getpid()); /* one write: the line is appended whole */
            close(fd);
        }
        (void)!write(ready[1], "", 1);
        close(ready[1]);
        sleep(3600);
        _exit(0);
    }
    close(ready[1]);
    char c;
    while (p > 0 && read(ready[0], &c, 1) < 0 && errno == EINTR) {
    }
    close(ready[0]);
}
EXPORT etw_u32 TraceQueryInformation(etw_tracehandle h, etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)h, (void)c, (void)b, (void)l, (void)r; linger(); return 24; }
EXPORT etw_status NtQuerySystemInformation(etw_u32 c, void *b, etw_u32 l, etw_u32 *r) { (void)c, (void)b, (void)l, (void)r; linger(); return 0xC0000004u; }
