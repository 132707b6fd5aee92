#!/bin/sh
# harness/tests/fuzz/test.sh BUILD RUNS TARGET... - the fuzz test stage (make test-fuzz): a libFuzzer
# pass of RUNS inputs over each target of harness/tests/fuzz (run.sh), then the differential fuzzer
# against the reference and against mutants (diff.sh); meanwhile, in the background, targets that
# hang (hang.sh, which spends most of its time waiting for timeouts). Each part's own output is
# kept whole; the closing line adds their counts: "fuzz-all: N passed, N failed, N skipped".
set -u
B=$1 RUNS=$2
shift 2
. "$(dirname "$0")/../lib.sh"
mkdir -p "$B/fuzz"
hang_log=$B/fuzz/test-hang.log
sh harness/tests/fuzz/hang.sh "$B" >"$hang_log.run" 2>&1 &
hang_pid=$!
part "$B/fuzz/test-libfuzzer.log" sh harness/tests/fuzz/run.sh "$B" "runs=$RUNS" "$@"
part "$B/fuzz/test-diff.log" sh harness/tests/fuzz/diff.sh "$B"
wait "$hang_pid"
hang_rc=$?
part "$hang_log" sh -c 'cat "$1"; exit "$2"' sh "$hang_log.run" "$hang_rc"
summary fuzz-all
