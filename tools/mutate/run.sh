#!/bin/sh
# tools/mutate/run.sh - mutation testing of the suite (make mutate; see tools/mutate/README.md).
#
# Environment (the make target sets these): MUT_BUILD (the build directory: etwconf,
# obj/reference/*.o, mutate/mutate; default build), MUT_CC, MUT_CFLAGS, MUT_LDFLAGS (the mutants'
# build), MUT_JOBS (mutants run at once; default 1), MUT_FILTER (shell patterns: the ids of the
# mutants to run; default all), MUT_VERSIONS (default all, newest first) or MUT_VLIST (the same,
# comma-separated), MUT_DEF (default tools/mutate/mutants.def).
# Output: one line per mutant, a summary, $MUT_BUILD/mutate/report.md, and a last line
# "mutate: P passed, F failed, S skipped". Exit status 0 when every non-equivalent mutant is
# killed and every equivalent one survives.
T=${MUT_BUILD:-build}/mutate/mutate
[ -x "$T" ] || { printf '%s\n' "mutate: no $T (make $T)" "mutate: 0 passed, 1 failed"; exit 2; }
exec "$T" run "${MUT_DEF:-tools/mutate/mutants.def}"
