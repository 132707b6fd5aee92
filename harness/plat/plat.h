/*
 * harness/plat/plat.h - the platform primitives: what the portable harness needs from the host
 * and nothing more. One implementation per host: harness/plat/posix/ (Linux) and
 * harness/plat/win/ (Windows and Wine). Nothing here knows cases, results or runs: the runner
 * (harness/exec/) builds the plan loop, the isolation policy and the worker protocol on top.
 *
 *   memory     pages with an inaccessible guard page after them
 *   calls      a guarded call: a fault, a write into a guard page or a hang ends the call, not
 *              the process
 *   threads    run a function on n threads at once
 *   processes  a worker process and its result channel; the worker's group goes with it
 *   libraries  load a shared library, look a symbol up
 *   host       time, host names, interrupts, the process's own stdout
 */
#ifndef ETWCONF_PLAT_H
#define ETWCONF_PLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- host */
/* the host's start-up: fault handlers, console, error modes. Call once, first. */
void plat_init(void);
uint64_t plat_now_us(void); /* monotonic */
const char *plat_host_os(void); /* "linux", "windows" */
/* architectures, named once: the host's (native) and this process's */
enum plat_arch { PLAT_ARCH_UNKNOWN, PLAT_ARCH_X86_64, PLAT_ARCH_I686, PLAT_ARCH_AARCH64, PLAT_ARCH_ARM, PLAT_ARCH_IA64 };
const char *plat_arch_name(enum plat_arch a); /* "x86_64", "i686", ... "unknown" */
const char *plat_host_arch(void);
const char *plat_process_arch(void);
/* SIGINT/SIGTERM (Ctrl-C on Windows) set a flag instead of ending the process; the second one ends
 * it. plat_interrupted() is that flag. */
void plat_catch_interrupts(void);
bool plat_interrupted(void);
/* fn runs when the process ends in any way the platform sees: exit, a fatal fault, a closed
 * console. Up to 8; each runs once. For restoring what a target changed and for footers. */
void plat_at_end(void (*fn)(void));
/* end the process now with code: the plat_at_end() functions run and stdio is flushed, but no
 * library's destructors (a target's may block or crash after the results are complete) */
void plat_exit(int code);
/* the process's stdout as a stream of its own, and fd 1 pointed at stderr: whatever a target
 * prints can no longer reach the stream returned. NULL when it cannot be done. */
FILE *plat_private_stdout(void);
/* a file's content may be trusted after fclose only if every write, the flush and the close
 * succeeded: fclose, reporting the first error (errno value) of the whole stream. */
int plat_close_checked(FILE *f);

/* ---------------------------------------------------------------- memory */
size_t plat_page_size(void);
/* len bytes (a multiple of the page size) read-write, followed by one inaccessible page */
void *plat_map_guarded(size_t len);
void plat_unmap_guarded(void *map, size_t len); /* len as given to plat_map_guarded */
/* len zeroed bytes that worker processes started later share with this one (POSIX: a shared
 * mapping that fork keeps); NULL where a worker is a new program (Windows) */
void *plat_shared_alloc(size_t len);

/* ---------------------------------------------------------------- guarded calls */
enum plat_end { PLAT_RETURNED, PLAT_GUARD_HIT, PLAT_FAULT, PLAT_TIMEOUT };
struct plat_call {
    void (*fn)(void *arg);
    void *arg;
    /* a fault at addr: true when it is a write into one of the call's guard pages, *offset how far
     * into the page. Called in fault context (signal handler, exception filter): no locks. */
    bool (*guard_hit)(void *arg, uintptr_t addr, long *offset);
    /* out */
    long offset; /* PLAT_GUARD_HIT */
    char exception[48]; /* PLAT_FAULT: "SIGSEGV", "0xC0000005"; PLAT_TIMEOUT: "timeout" */
};
/* run c->fn(c->arg) so that a fault ends the call, not the process. Deadlines apply only inside
 * plat_run_watched(). */
enum plat_end plat_guarded_call(struct plat_call *c);
/* true for a fault the platform knows leaves the process intact: an exception raised on purpose
 * before anything happened (Wine's unimplemented-function stub, 0x80000100). Any other fault may
 * have damaged the process. */
bool plat_fault_intact(const char *exception);
/* run loop(arg) with in-process deadlines: a guarded call that runs past timeout_ms ends as
 * PLAT_TIMEOUT. Where a call blocked in the system cannot be interrupted (Windows), the platform
 * gives that thread up after a grace period, calls abandoned(arg) from another thread and runs
 * loop(arg) again on a new thread. false if loop could not be started. */
bool plat_run_watched(void (*loop)(void *arg), void (*abandoned)(void *arg), void *arg, unsigned timeout_ms);
/* inside a guarded call of a watched run: its deadline becomes ms from now (0: none). Elsewhere
 * nothing happens. */
void plat_deadline_ms(unsigned ms);
/* run fn(arg, i) on n threads at once (i = 0..n-1) and wait for them; false if they could not
 * start. A helper thread that writes into a guard page of the call that started it ends that call. */
bool plat_threads(int n, void (*fn)(void *arg, int i), void *arg);

/* ---------------------------------------------------------------- worker processes */
typedef intptr_t plat_chan; /* the worker's end of its result channel: an fd or a HANDLE */
struct plat_proc;
/* start a worker process in a process group (a job on Windows) of its own. POSIX forks: the child
 * runs fn(arg, chan) and exits with its return. Windows starts this executable again with argv
 * followed by "--chan N"; its main hands that to the same worker code. The worker's stdin is
 * empty and its stdout goes to the runner's stderr. NULL with err filled on failure. */
struct plat_proc *plat_proc_start(int (*fn)(void *arg, plat_chan chan), void *arg, const char *const *argv, char *err, size_t errlen);
/* what the worker sent: > 0 bytes; 0 when it has ended and everything it sent was read; -1 when
 * nothing came within ms. Never waits for processes the worker left behind. */
long plat_proc_read(struct plat_proc *p, void *buf, size_t cap, unsigned ms);
unsigned long plat_proc_id(const struct plat_proc *p);
/* end the worker: kill it and its group if still there, reap it (within a few seconds), describe
 * how it ended in how ("exit 0", "SIGSEGV", "0xC0000005", "killed") and free p. Returns true when
 * it exited normally with status 0. */
bool plat_proc_end(struct plat_proc *p, char *how, size_t len);
/* in the worker: send len bytes on the channel; false when the runner is gone */
bool plat_chan_write(plat_chan c, const void *buf, size_t len);
bool plat_chan_parse(const char *s, plat_chan *c); /* the "--chan N" value */

/* ---------------------------------------------------------------- libraries */
/* load a shared library by path (never from the system search path); NULL with err filled */
void *plat_lib_open(const char *path, char *err, size_t errlen);
void *plat_lib_sym(void *lib, const char *name);

#endif
