/* harness/cli/cli.h - the commands of the etwconf command line (main.c dispatches; it also
 * registers the commands of tools/, tools/tools.h). The top layer: it may use every other. */
#ifndef ETWCONF_CLI_H
#define ETWCONF_CLI_H

#include "harness/exec/exec.h"
#include "harness/targets/targets.h"

#ifndef ETWCONF_PROG
#define ETWCONF_PROG "etwconf"
#endif
#ifndef ETWCONF_DEFAULT_TARGET /* etwconf.exe: "live", the system it runs on (mk/windows.mk) */
#define ETWCONF_DEFAULT_TARGET "reference"
#endif

/* a usage error: prints it and how to get help, returns 2 */
static inline int cli_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, ETWCONF_PROG ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '" ETWCONF_PROG " help'.\n");
    return 2;
}
int cli_cmd_run(int argc, char **argv); /* run.c */
int cli_cmd_worker(int argc, char **argv); /* worker.c: the hidden __worker command */

#endif
