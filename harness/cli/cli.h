/* harness/cli/cli.h - the commands of the etwconf command line (main.c dispatches). */
#ifndef ETWCONF_CLI_H
#define ETWCONF_CLI_H

#include "harness/exec/exec.h"

#ifndef ETWCONF_PROG
#define ETWCONF_PROG "etwconf"
#endif
#ifndef ETWCONF_DEFAULT_TARGET /* etwconf.exe: "live", the system it runs on (mk/windows.mk) */
#define ETWCONF_DEFAULT_TARGET "reference"
#endif

int cli_usage_error(const char *fmt, const char *arg); /* prints, returns 2 */
int cli_cmd_run(int argc, char **argv); /* run.c */
extern const char cli_run_help[];
int cli_cmd_worker(int argc, char **argv); /* worker.c: the hidden __worker command */

#endif
