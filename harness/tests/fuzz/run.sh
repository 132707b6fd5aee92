#!/bin/sh
# harness/tests/fuzz/run.sh BUILD BUDGET TARGET... - runs each libFuzzer target
# (BUILD/fuzz/fuzz_TARGET, from harness/tests/fuzz/fuzz_TARGET.c) on a working corpus seeded from
# harness/tests/fuzz/corpus/TARGET (the repository's seeds are read, never written). BUDGET is
# either a number of seconds, shared among the targets (make fuzz: the working corpus is
# BUILD/fuzz/corpus-TARGET and grows from one run to the next), or runs=N: N inputs per target with
# seed 1 from a fresh working corpus (the test stage: a pass bounded by work, not by the clock, so it
# costs the same on a busy machine as on an idle one). A crash, a sanitizer report, a leak or a
# timeout fails the target and leaves its input in BUILD/fuzz/TARGET-crash-*.
# Last line: "fuzz: N passed, N failed, N skipped".
set -u
B=$1 BUDGET=$2
shift 2
n=$#
. "$(dirname "$0")/../lib.sh"
case $BUDGET in
    runs=[1-9]*) runs=${BUDGET#runs=} ;;
    [1-9]*) runs="" per=$((BUDGET / n)); [ "$per" -lt 1 ] && per=1 ;;
    *) echo "usage: run.sh BUILD SECONDS|runs=N TARGET..." >&2; exit 2 ;;
esac
for t in "$@"; do
    bin=$B/fuzz/fuzz_$t log=$B/fuzz/$t.log
    if [ -n "$runs" ]; then
        work=$B/fuzz/test-corpus-$t
        rm -rf "$work"
        bound="-runs=$runs -seed=1" what="with seed 1"
    else
        work=$B/fuzz/corpus-$t
        bound="-max_total_time=$per" what="in ${per}s"
    fi
    mkdir -p "$work"
    # shellcheck disable=SC2086
    "$bin" $bound -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$B/fuzz/$t-" "$work" "harness/tests/fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ] && { [ -z "$runs" ] || [ "$done_runs" = "$runs" ]; }; then
        ok "fuzz_$t: ${done_runs:-?} inputs $what, $cov, no crash, leak or sanitizer report"
    elif [ "$rc" -eq 0 ]; then
        no "fuzz_$t: ran ${done_runs:-?} inputs, not the $runs asked for (see $log)"
    else
        no "fuzz_$t (exit $rc): $(grep -m1 -E 'ERROR|runtime error|SUMMARY|deadly|Timeout' "$log")"
        grep -A12 -m1 -E 'ERROR|runtime error' "$log" | sed 's/^/     /'
        echo "     input: $(ls "$B"/fuzz/"$t"-* 2>/dev/null | head -n 1); log: $log"
    fi
done
summary fuzz
