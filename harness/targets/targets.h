/* harness/targets/targets.h - the targets, each a struct etw_target for the core: the built-in
 * reference, a library from a path, the live Windows system (win_live/); target.c is shared. */
#ifndef ETWCONF_TARGETS_H
#define ETWCONF_TARGETS_H

#include "harness/out/out.h"

/* fill the control pointers of t from its sym() (EtwRef_* names, adapted); a library reports
 * Windows 10 (one that emulates a version is told which: set_version) */
void etw_target_bind_control(struct etw_target *t);
/* the built-in reference (statically linked libetwref.a; not in etwconf.exe) */
struct etw_target *etw_target_reference(void);
/* open a target: "reference" or a library path on Linux; "live" or a DLL path on Windows. NULL
 * and err filled on failure (harness/targets/) */
struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen);
/* how long loading a library target may take in the probe process that loads it first (its
 * constructor or DllMain), in milliseconds: the run ends with exit 3 after that (run --load-timeout-ms) */
extern unsigned etw_target_load_ms;
/* load a library in a probe process first (plat_proc_start: fn(arg) on POSIX, this executable with
 * argv on Windows), which writes "loaded\n" or "failed <error>\n" once the load returns and ends:
 * 1 loaded (also where no process can be started), 0 failed (*code), -1 it ended or hung before
 * (how: how it ended, *late: after etw_target_load_ms) */
int etw_target_probe(int (*fn)(void *arg, plat_chan chan), void *arg, const char *const *argv,
                     unsigned long *code, char *how, size_t hlen, bool *late);
#endif
