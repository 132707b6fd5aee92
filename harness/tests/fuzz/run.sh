#!/bin/sh
# harness/tests/fuzz/run.sh BUILD SECONDS TARGET... - runs each libFuzzer target
# (BUILD/fuzz/fuzz_TARGET, from harness/tests/fuzz/fuzz_TARGET.c) for its share of SECONDS, on a
# working corpus in BUILD/fuzz/corpus-TARGET seeded from harness/tests/fuzz/corpus/TARGET (the
# repository's seeds are read, never written). A crash, a sanitizer report, a leak or a timeout
# fails the target and leaves its input in BUILD/fuzz/TARGET-crash-*.
# Last line: "fuzz: N passed, N failed, N skipped".
set -u
B=$1 SECONDS_ALL=$2
shift 2
n=$#
per=$((SECONDS_ALL / n)); [ "$per" -lt 1 ] && per=1
. "$(dirname "$0")/../lib.sh"
for t in "$@"; do
    bin=$B/fuzz/fuzz_$t work=$B/fuzz/corpus-$t log=$B/fuzz/$t.log
    mkdir -p "$work"
    "$bin" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$B/fuzz/$t-" "$work" "harness/tests/fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ]; then
        ok "fuzz_$t: ${runs:-?} inputs in ${per}s, $cov, no crash, leak or sanitizer report"
    else
        no "fuzz_$t (exit $rc): $(grep -m1 -E 'ERROR|runtime error|SUMMARY|deadly|Timeout' "$log")"
        grep -A12 -m1 -E 'ERROR|runtime error' "$log" | sed 's/^/     /'
        echo "     input: $(ls "$B"/fuzz/"$t"-* 2>/dev/null | head -n 1); log: $log"
    fi
done
summary fuzz
