/* harness/fuzz.c - differential fuzzing (issue 5). Not written yet: says so and fails. */
#include "harness/etwconf.h"

int etw_cmd_fuzz(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "etwconf fuzz: not implemented yet\n");
    return 3;
}
