#!/bin/sh
# tools/mutate/run.sh - mutation testing of the suite (make mutate; see tools/mutate/README.md).
#
# Environment (the make target sets these):
#   MUT_BUILD     the build directory: etwconf, obj/reference/*.o, mutate/mutate (default build)
#   MUT_CC        compiler (default cc)             MUT_CFLAGS  flags for the mutated files
#   MUT_VERSIONS  versions to run (default: all)    MUT_JOBS    mutants run at once (default 1)
#   MUT_FIRST     the versions to run first         MUT_LDFLAGS more linker options
#   MUT_VLIST     all the versions, comma-separated, in the order they are run (instead of these)
#   MUT_FILTER    only mutants whose id matches one of these shell patterns (default: all)
#   MUT_DEF       the mutant list (default tools/mutate/mutants.def)
# Output: one line per mutant, a summary, $MUT_BUILD/mutate/report.md, and a last line
#   "mutate: P passed, F failed, S skipped" (passed = killed, failed = a non-equivalent survivor,
#   an equivalent mutant that was killed, or a mutant that does not build; skipped = equivalent).
# Exit status: 0 when every non-equivalent mutant is killed and every equivalent one survives.
T=${MUT_BUILD:-build}/mutate/mutate
if [ ! -x "$T" ]; then
    echo "mutate: $T is missing (run make mutate)" >&2
    echo "mutate: 0 passed, 1 failed"
    exit 2
fi
exec "$T" run "${MUT_DEF:-tools/mutate/mutants.def}"
