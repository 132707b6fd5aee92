#!/bin/sh
# harness/tests/fuzz/test.sh BUILD SECONDS - the fuzz test stage (make test-fuzz): a libFuzzer pass
# of SECONDS over the targets of harness/tests/fuzz (run.sh), then the differential fuzzer against
# the reference and against mutants (diff.sh), and a target that hangs (hang.sh). Each part's own output is kept whole; the closing
# line adds their counts: "fuzz-all: N passed, N failed, N skipped".
set -u
B=$1 S=$2
shift 2
. "$(dirname "$0")/../lib.sh"
mkdir -p "$B/fuzz"
part "$B/fuzz/test-libfuzzer.log" sh harness/tests/fuzz/run.sh "$B" "$S" "$@"
part "$B/fuzz/test-diff.log" sh harness/tests/fuzz/diff.sh "$B" 3
part "$B/fuzz/test-hang.log" sh harness/tests/fuzz/hang.sh "$B"
summary fuzz-all
