/* harness/targets/targets.h - the targets, each a struct etw_target for the core: the built-in
 * reference, a library from a path, the live Windows system (win_live/); target.c is shared. */
#ifndef ETWCONF_TARGETS_H
#define ETWCONF_TARGETS_H

#include "harness/out/out.h"

/* fill the control pointers of t from its sym() (EtwRef_* names, adapted) */
void etw_target_bind_control(struct etw_target *t);
/* the built-in reference (statically linked libetwref.a; not in etwconf.exe) */
struct etw_target *etw_target_reference(void);
/* open a target: "reference" or a library path on Linux; "live" or a DLL path on Windows. NULL
 * and err filled on failure (harness/targets/) */
struct etw_target *etw_target_open(const char *spec, char *err, size_t errlen);
/* how long loading a library target may take in the probe process that loads it first (its
 * constructor or DllMain), in milliseconds: the run ends with exit 3 after that (run --load-timeout-ms) */
extern unsigned etw_target_load_ms;
#endif
