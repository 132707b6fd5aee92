#!/bin/sh
# harness/tests/fuzz/sanitize.sh SANBUILD TSAN_BIN - make sanitize, after the harness and the
# reference were built with ASan and UBSan into SANBUILD and the ThreadSanitizer test into TSAN_BIN:
# the unit tests and the conformance run (every version, batch isolation, against the built-in
# reference and against SANBUILD/libetwref.so; one process per target), a short differential fuzz
# under ASan (SAN_FUZZ_SECONDS, default 5; or SAN_FUZZ_CALLS calls of seed SAN_FUZZ_SEED), and the TSan test. A sanitizer
# report aborts the process that made it, so it shows as a failure below.
# Last line: "sanitize: N passed, N failed, N skipped".
set -u
S=$1 TSAN=$2
VERSIONS="$(awk -F'"' '/^VERSION/ { print $2 }' spec/versions.def)"
# the harness catches SIGSEGV on its guard pages itself: ASan must leave the signal to it
export ASAN_OPTIONS=handle_segv=0:allow_user_segv_handler=1:detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1
. "$(dirname "$0")/../lib.sh"
W=$S/sanitize
mkdir -p "$W"

sanreport() { grep -m3 -E 'runtime error|ERROR: (Address|Leak|Undefined)|SUMMARY: ' "$@" 2>/dev/null; }

# 1. the unit tests
"$S/unit-tests" >"$W/unit.log" 2>&1
rc=$?
line=$(grep -E '^unit: [0-9]+ passed' "$W/unit.log" | tail -n 1)
[ "$rc" -eq 0 ] && [ -z "$(sanreport "$W/unit.log")" ] && ok "unit tests under ASan+UBSan: $line" \
    || no "unit tests under ASan+UBSan (exit $rc): $line $(sanreport "$W/unit.log")"

# 2. the conformance run, every version, batch isolation: one process per target runs them all
# (--emulate all, a results file per version), each version's file is judged on its own, and the
# process on its exit status and its sanitizer reports (a leak shows only at exit)
# the versions are the set each target's run is judged over: none is a failure, not a pass
[ -n "$VERSIONS" ] || no "conformance under ASan+UBSan: spec/versions.def gives no version to judge the runs at"
for target in reference "$S/libetwref.so"; do
    dir=$W/$(basename "$target")
    rm -rf "$dir"
    "$S/etwconf" run --target "$target" --emulate all --isolation batch --quiet --out-dir "$dir" 2>"$W/err"
    rc=$?
    for v in $VERSIONS; do
        out=$dir/$(basename "$target")-$v.jsonl
        line=$(grep -F "@$v: " "$W/err" | tail -n 1)
        if [ ! -f "$out" ]; then
            no "conformance under ASan+UBSan: $target@$v: no results file (the run stopped before this version); $(sanreport "$W/err")"
            continue
        fi
        notok=$(grep -c '"status":"\(FAIL\|CRASH\|TIMEOUT\|BROKEN\)"' "$out")
        [ -n "$line" ] && [ "$notok" -eq 0 ] && grep -q '"type":"footer"' "$out" &&
            ok "conformance under ASan+UBSan: $target@$v: $(printf '%s\n' "$line" | sed 's/.*cases: //; s/, 0 broken.*//')" ||
            no "conformance under ASan+UBSan: $target@$v: $notok not PASS/SKIP${line:+; $line}; $(sanreport "$W/err") $(grep -m1 '"status":"\(FAIL\|CRASH\)"' "$out" | head -c 300)"
    done
    [ "$rc" -eq 0 ] && [ -z "$(sanreport "$W/err")" ] && ok "conformance under ASan+UBSan: $target, every version in one process: exit 0, no sanitizer report" \
        || no "conformance under ASan+UBSan: $target, every version in one process: exit $rc; $(sanreport "$W/err")"
done

# 3. the differential fuzzer, the reference under ASan on both sides
if [ -n "${SAN_FUZZ_CALLS:-}" ]; then bound="--calls $SAN_FUZZ_CALLS"; else bound="--seconds ${SAN_FUZZ_SECONDS:-5}"; fi
# shellcheck disable=SC2086
"$S/etwconf" fuzz --target "$S/libetwref.so" $bound --seed "${SAN_FUZZ_SEED:-5}" --quiet >"$W/fuzz.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ -z "$(sanreport "$W/fuzz.log")" ] && ok "etwconf fuzz under ASan+UBSan: $(tail -n 1 "$W/fuzz.log")" \
    || no "etwconf fuzz under ASan+UBSan (exit $rc): $(sanreport "$W/fuzz.log") $(grep -m1 DISAGREEMENT "$W/fuzz.log")"

# 4. ThreadSanitizer: instance ids from several threads
"$TSAN" >"$W/tsan.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] && ! grep -q 'WARNING: ThreadSanitizer' "$W/tsan.log" && ok "ThreadSanitizer: $(tail -n 1 "$W/tsan.log")" \
    || no "ThreadSanitizer (exit $rc): $(grep -m2 -E 'WARNING|FAIL' "$W/tsan.log")"

summary sanitize
