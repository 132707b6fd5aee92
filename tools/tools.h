/*
 * tools/tools.h - the commands tools/ adds to the etwconf command line; harness/cli/main.c
 * registers them, so that nothing below the command line depends on tools/.
 */
#ifndef ETWCONF_TOOLS_H
#define ETWCONF_TOOLS_H

int etw_cmd_fuzz(int argc, char **argv); /* etwconf fuzz (tools/fuzz/cmd.c) */
int etw_cmd_export_wine(int argc, char **argv); /* etwconf export-wine (tools/export_wine/) */

#endif
