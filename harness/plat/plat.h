/*
 * harness/plat/plat.h - what the portable harness needs from the host, and nothing more: one
 * implementation in harness/plat/posix/ (Linux), one in harness/plat/win/ (Windows and Wine).
 * Nothing here knows cases, results or runs (harness/exec/ builds those on top).
 */
#ifndef ETWCONF_PLAT_H
#define ETWCONF_PLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- host */
/* the host's start-up (fault handlers, console, error modes): once, first */
void plat_init(void);
uint64_t plat_now_us(void); /* monotonic */
const char *plat_host_os(void); /* "linux", "windows" */
enum plat_arch { PLAT_ARCH_UNKNOWN, PLAT_ARCH_X86_64, PLAT_ARCH_I686, PLAT_ARCH_AARCH64, PLAT_ARCH_ARM, PLAT_ARCH_IA64 };
const char *plat_arch_name(enum plat_arch a); /* "x86_64", "i686", ... "unknown" */
const char *plat_host_arch(void);
const char *plat_process_arch(void);
/* SIGINT/SIGTERM (Ctrl-C) set the flag plat_interrupted() reads; the second one ends the process */
void plat_catch_interrupts(void);
bool plat_interrupted(void);
/* fn runs once when the process ends in any way the platform sees (exit, a fatal fault, a closed
 * console); up to 8 */
void plat_at_end(void (*fn)(void));
/* run the plat_at_end() functions now, last registered first (the exit, plat_exit, fatal paths) */
void plat_run_end_fns(void);
/* end the process now: the plat_at_end() functions run and stdio is flushed, no library's
 * destructors (a target's may block or crash after the results are complete) */
void plat_exit(int code);
/* stdout as a stream of its own, fd 1 pointed at stderr so that nothing a target prints reaches
 * it; NULL when it cannot be done */
FILE *plat_private_stdout(void);
/* fclose, returning the first error (errno value) of the whole stream's writes, flush and close */
int plat_close_checked(FILE *f);

/* ---------------------------------------------------------------- memory */
size_t plat_page_size(void);
/* len bytes (a multiple of the page size) read-write, followed by one inaccessible page */
void *plat_map_guarded(size_t len);
void plat_unmap_guarded(void *map, size_t len); /* len as given to plat_map_guarded */
/* len zeroed bytes shared with worker processes started later; NULL where a worker is a new
 * program (Windows) */
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
/* run c->fn(c->arg) so that a fault ends the call, not the process (deadlines: plat_run_watched) */
enum plat_end plat_guarded_call(struct plat_call *c);
/* for the platforms' plat_guarded_call: fill c's out fields for how it ended (fault: its name) */
enum plat_end plat_call_ended(struct plat_call *c, enum plat_end k, long off, const char *fault);
/* a fault the platform knows leaves the process intact (Wine's unimplemented-function stub,
 * 0x80000100, raised before anything happened); any other may have damaged it */
bool plat_fault_intact(const char *exception);
/* run loop(arg) with in-process deadlines: a guarded call that runs past timeout_ms ends as
 * PLAT_TIMEOUT. Where a call blocked in the system cannot be interrupted (Windows), the platform
 * gives that thread up after a grace period, calls abandoned(arg) from another thread and runs
 * loop(arg) again on a new thread. false if loop could not be started. */
bool plat_run_watched(void (*loop)(void *arg), void (*abandoned)(void *arg), void *arg, unsigned timeout_ms);
/* inside a guarded call of a watched run: its deadline becomes ms from now (0: none) */
void plat_deadline_ms(unsigned ms);
/* run fn(arg, i) on n threads at once and wait; false if they could not start. A thread's write
 * into a guard page of the call that started it ends that call. */
bool plat_threads(int n, void (*fn)(void *arg, int i), void *arg);

/* ---------------------------------------------------------------- worker processes */
typedef intptr_t plat_chan; /* the worker's end of its result channel: an fd or a HANDLE */
struct plat_proc;
/* a worker process in a process group (a job) of its own: POSIX forks and runs fn(arg, chan);
 * Windows starts this executable again with argv and "--chan N". Its stdin is empty, its stdout
 * the runner's stderr. NULL with err filled on failure. */
struct plat_proc *plat_proc_start(int (*fn)(void *arg, plat_chan chan), void *arg, const char *const *argv, char *err, size_t errlen);
/* what the worker sent: > 0 bytes; 0 when it has ended and everything it sent was read; -1 when
 * nothing came within ms. Never waits for processes the worker left behind. */
long plat_proc_read(struct plat_proc *p, void *buf, size_t cap, unsigned ms);
unsigned long plat_proc_id(const struct plat_proc *p);
/* end the worker (its group killed, reaped within seconds), say how in how ("exit 0", "SIGSEGV",
 * "0xC0000005", "killed") and free p; true when it exited with status 0 */
bool plat_proc_end(struct plat_proc *p, char *how, size_t len);
/* in the worker: send len bytes on the channel; false when the runner is gone */
bool plat_chan_write(plat_chan c, const void *buf, size_t len);
bool plat_chan_parse(const char *s, plat_chan *c); /* the "--chan N" value */

/* ---------------------------------------------------------------- libraries */
/* load a shared library by path (never from the system search path); NULL with err filled. POSIX
 * only: a DLL target on Windows is loaded by harness/targets/win_live/dll.c. */
void *plat_lib_open(const char *path, char *err, size_t errlen);
void *plat_lib_sym(void *lib, const char *name);

#endif
