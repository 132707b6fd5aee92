/*
 * harness/plat/posix/host.c - host primitives on Linux: time, names, interrupts, end-of-process
 * hooks, the private stdout, guarded mappings (mmap), threads and shared libraries (dlopen).
 */
#include "harness/plat/plat.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

void plat_init(void)
{
    signal(SIGPIPE, SIG_IGN); /* a closed reader is an error return, not the end of the process */
    signal(SIGXFSZ, SIG_IGN); /* a file-size limit too: the write fails with EFBIG and is reported */
}

uint64_t plat_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

const char *plat_host_os(void)
{
    return "linux";
}

const char *plat_host_arch(void)
{
    return plat_process_arch();
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    if (interrupted) { /* the second one: end now */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    interrupted = sig;
}

void plat_catch_interrupts(void)
{
    struct sigaction sa = {.sa_handler = on_interrupt}; /* no SA_RESTART: a poll returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

bool plat_interrupted(void)
{
    return interrupted != 0;
}

void plat_exit(int code)
{
    plat_run_end_fns();
    fflush(NULL);
    _exit(code);
}

FILE *plat_private_stdout(void)
{
    fflush(stdout);
    int fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return NULL;
    }
    dup2(2, 1); /* what a target prints goes to stderr */
    return f;
}

size_t plat_page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

void *plat_map_guarded(size_t len)
{
    size_t page = plat_page_size();
    void *p = mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (mprotect((unsigned char *)p + len, page, PROT_NONE) != 0) {
        munmap(p, len + page);
        return NULL;
    }
    return p;
}

void plat_unmap_guarded(void *map, size_t len)
{
    munmap(map, len + plat_page_size());
}

void *plat_shared_alloc(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

struct thread_arg {
    void (*fn)(void *, int);
    void *arg;
    int i;
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    a->fn(a->arg, a->i);
    return NULL;
}

bool plat_threads(int n, void (*fn)(void *arg, int i), void *arg)
{
    pthread_t th[16];
    struct thread_arg ta[16];
    int started = 0;
    if (n > 16)
        n = 16;
    for (int i = 0; i < n; i++) {
        ta[i] = (struct thread_arg){fn, arg, i};
        if (pthread_create(&th[i], NULL, thread_main, &ta[i]) != 0)
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    return started == n;
}

void *plat_lib_open(const char *path, char *err, size_t errlen)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(err, errlen, "%s", dlerror());
    return h;
}

void *plat_lib_sym(void *lib, const char *name)
{
    return dlsym(lib, name);
}
