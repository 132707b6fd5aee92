#!/bin/sh
# tools/mutate/run.sh - make mutate: runs every mutant (tools/mutate/README.md). The make target
# sets MUT_BUILD (default build), MUT_CC, MUT_CFLAGS, MUT_LDFLAGS, MUT_JOBS, MUT_FILTER (patterns
# of mutant ids), MUT_VERSIONS or MUT_VLIST (comma-separated), MUT_DEF (default
# tools/mutate/mutants.def). The last line says "mutate: P passed, F failed, S skipped".
T=${MUT_BUILD:-build}/mutate/mutate
[ -x "$T" ] || { printf '%s\n' "mutate: no $T (make $T)" "mutate: 0 passed, 1 failed"; exit 2; }
exec "$T" run "${MUT_DEF:-tools/mutate/mutants.def}"
