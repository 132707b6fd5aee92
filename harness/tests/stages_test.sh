#!/bin/sh
# harness/tests/stages_test.sh - the "scheduler" test stage: harness/tests/stages.sh runs made-up
# stages (a stand-in for make that plays each one from a script) and is checked on what make test
# relies on: the counts added up, a stage that exits non-zero without counting a failure counted as
# one, TEST_AFTER's order, a stage after a failed one not run but skipped with the reason, at most
# TEST_JOBS at once, TEST_EXCLUSIVE taking turns, the logs printed whole in the named order, a stage
# that counts nothing (no count line, or nothing counted) failing, the Wine starts run again listed,
# no file built by two stages that may run at once (stage_builds.py), and the exit status. Last line: "scheduler: N passed, N failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
# make test runs this with its own settings in the environment: each run below sets its own
unset TEST_FIRST TEST_AFTER TEST_EXCLUSIVE TEST_NICE TEST_NICE_LEVEL TEST_JOBS TEST_BUILDERS WINE_START_LOG
T=$(mktemp -d "${TMPDIR:-/tmp}/etwconf-stages.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT

# the stand-in for make: "fake-make --no-print-directory -s test-NAME" runs T/plays/NAME.sh, which
# notes when it started and ended (T/events, one line each: "+NAME" or "-NAME")
cat >"$T/fake-make" <<EOF
#!/bin/sh
for a in "\$@"; do st=\${a#test-}; done
echo "+\$st" >>"$T/events"
sh "$T/plays/\$st.sh"; rc=\$?
echo "-\$st" >>"$T/events"
exit \$rc
EOF
chmod +x "$T/fake-make"
mkdir -p "$T/plays"
play() { printf '%s\n' "$2" >"$T/plays/$1.sh"; }

# run STAGE...: stages.sh over them, output in T/out, exit status in T/rc
run() {
    rm -f "$T/events"
    MAKE="$T/fake-make" BUILD="$T/build" TEST_CGROUP=0 sh "$HERE/stages.sh" "$@" >"$T/out" 2>&1
    echo $? >"$T/rc"
}
# the most stages that ran at once (from the events)
peak() { awk '/^\+/ { n++; if (n > m) m = n } /^-/ { n-- } END { print m + 0 }' "$T/events"; }
# did stage A end before stage B started?
before() { awk -v a="-$1" -v b="+$2" '$0 == a { e = NR } $0 == b { s = NR } END { exit !(e && s && e < s) }' "$T/events"; }

# 1. counts, a failure, an exit without a count, the named order of the logs
play one 'echo "log of one"; sleep 0.3; echo "one: 3 passed, 0 failed, 1 skipped"'
play two 'echo "log of two"; echo "two: 2 passed, 1 failed"; exit 1'
play three 'echo "log of three"; exit 2'
play four 'echo "four: 5 passed, 0 failed"'
TEST_JOBS=4 TEST_FIRST="four" run one two three four
last=$(tail -n 1 "$T/out")
[ "$last" = "10 passed, 2 failed, 1 skipped" ] && [ "$(cat "$T/rc")" = 1 ] &&
    ok "counts added up, a non-zero exit without a count is one failure: '$last', exit 1" || no "totals: '$last', exit $(cat "$T/rc")"
grep -q '^failing stages: two three$' "$T/out" && ok "the failing stages are named" || no "failing stages: $(grep failing "$T/out")"
order=$(grep '^===== stage ' "$T/out" | awk '{ print $3 }' | tr '\n' ' ')
[ "$order" = "one two three four " ] && grep -q '^log of one$' "$T/out" &&
    ok "the logs are printed whole, in the named order (four started first)" || no "log order: $order"
# one at a time, so that the start order is the order the stages run in
TEST_JOBS=1 TEST_FIRST="four three" run one two three four
starts=$(grep '^+' "$T/events" | tr -d '+' | tr '\n' ' ')
[ "$starts" = "four three one two " ] && ok "TEST_FIRST starts first, then the rest in the named order" || no "start order: $starts"

# 2. TEST_AFTER: waits, and a stage after a failed one is not run but skipped with the reason
play a 'sleep 0.3; echo "a: 1 passed, 0 failed"'
play b 'echo "b: 1 passed, 0 failed"'
play bad 'echo "bad: 0 passed, 1 failed"; exit 1'
play c 'echo "c: 1 passed, 0 failed"'
play d 'echo "d: 1 passed, 0 failed"'
TEST_JOBS=4 TEST_AFTER="a:b bad:c c:d" run a b bad c d
before a b && ok "TEST_AFTER a:b: b starts after a has ended" || no "b did not wait for a: $(tr '\n' ' ' <"$T/events")"
grep -q '^c: not run: it comes after the stage bad, which failed' "$T/out" && ! grep -q '^+c$' "$T/events" &&
    grep -q "^d: not run: it comes after the stage c, which was not run" "$T/out" && ! grep -q '^+d$' "$T/events" &&
    [ "$(tail -n 1 "$T/out")" = "2 passed, 1 failed, 2 skipped" ] &&
    ok "a stage after a failed one is not run, and neither is the one after it: each skipped with the reason" ||
    no "after a failure: $(grep -E '^(c|d):' "$T/out" | tr '\n' ' ') / $(tail -n 1 "$T/out")"

# 3. TEST_JOBS and TEST_EXCLUSIVE
for s in p q r s; do play $s "sleep 0.2; echo \"$s: 1 passed, 0 failed\""; done
TEST_JOBS=2 run p q r s
[ "$(peak)" = 2 ] && ok "TEST_JOBS=2: at most two stages at once" || no "TEST_JOBS=2: $(peak) at once"
TEST_JOBS=4 TEST_EXCLUSIVE="p q" run p q r s
{ before p q || before q p; } && [ "$(peak)" -ge 2 ] && ok "TEST_EXCLUSIVE p q: they take turns, the others run beside them" ||
    no "exclusive: $(tr '\n' ' ' <"$T/events")"

# 4. the summary: each stage's time and start, the totals
TEST_JOBS=4 run p q
grep -Eq '^  p +1 passed +0 failed +0 skipped  \([0-9.]+s, [0-9.]+s CPU, from \+[0-9.]+s\)$' "$T/out" && grep -q '^  2 stages, 4 at a time: ' "$T/out" &&
    [ "$(cat "$T/rc")" = 0 ] && ok "the summary gives each stage's wall time, CPU time and start; exit 0 when nothing failed" ||
    no "summary: $(grep -A3 'summary' "$T/out" | tr '\n' '|')"

# 5. a stage that checked nothing fails: no count line (exit 0), or a count of nothing; a stage
#    that only builds (TEST_BUILDERS) may count nothing
play silent 'echo "log of silent"'
play empty 'echo "empty: 0 passed, 0 failed, 0 skipped"'
play build 'echo "build: 0 passed, 0 failed"'
TEST_JOBS=4 TEST_BUILDERS="build" run silent empty build p
[ "$(tail -n 1 "$T/out")" = "1 passed, 2 failed, 0 skipped" ] && [ "$(cat "$T/rc")" = 1 ] && grep -q '^failing stages: silent empty$' "$T/out" &&
    grep -q "^silent: FAIL: the stage printed no count line" "$T/out" && grep -q "^empty: FAIL: the stage counted no check at all" "$T/out" &&
    ok "a stage with no count line, and one that counted nothing, each fail (a builder that counts nothing does not)" ||
    no "stages that checked nothing: $(tail -n 1 "$T/out"), exit $(cat "$T/rc"): $(grep -E '^(silent|empty|failing)' "$T/out" | tr '\n' '|')"
TEST_JOBS=4 run build
[ "$(cat "$T/rc")" = 1 ] && ok "without TEST_BUILDERS the same stage that counts nothing fails" || no "an unlisted builder that counts nothing passed"

# 6. the Wine starts that were run again (harness/tests/wine-env.sh) are listed after the summary
play wine 'echo "12:00:00 start 1 of 3 failed for a reason of the host (exit 1: failed to map the shared user data): wine x.exe" >>"$WINE_START_LOG"; echo "wine: 1 passed, 0 failed"'
TEST_JOBS=4 run wine p
grep -q '^Wine starts that failed for a reason of the host and were run again (1, .*/wine-starts.log):$' "$T/out" &&
    grep -q '^  12:00:00 start 1 of 3 failed .*: wine x.exe$' "$T/out" && [ "$(cat "$T/rc")" = 0 ] &&
    ok "Wine starts run again for a reason of the host are listed after the summary, and fail nothing" || no "Wine starts: $(tail -n 4 "$T/out" | tr '\n' '|')"
TEST_JOBS=4 run p
! grep -q '^Wine starts' "$T/out" && ok "the list starts empty in each make test" || no "a former run's Wine starts were listed"

# 7. no two stages that may run at once build the same file (harness/tests/stage_builds.py): the
#    suite's own Makefile, then made-up ones with a shared file, and with no stage at all
PYTHON=${PYTHON:-python3}
REPO=$(cd "$HERE/../.." && pwd)
$PYTHON "$HERE/stage_builds.py" "$REPO" >"$T/builds.out" 2>&1 && ok "stage_builds.py: $(tail -n 1 "$T/builds.out" | cut -c6-)" ||
    no "stage_builds.py: $(grep '^FAIL' "$T/builds.out" | head -n 2 | tr '\n' ' ')"
mkdir -p "$T/mk" "$T/mk0"
printf '%s\n' 'TEST_STAGES := a b c d e f g' 'TEST_PREP := build/p' 'TEST_AFTER := f:g' 'test-a: build/shared build/own' 'test-b: build/shared' \
    'test-c: build/p' 'test-d:' 'test-e:' 'test-f: build/fg' 'test-g: build/fg' 'build/shared build/own build/p build/fg:' '	touch $@' >"$T/mk/Makefile"
$PYTHON "$HERE/stage_builds.py" "$T/mk" >"$T/builds.out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q '^FAIL no file is built by two stages .*: build/shared (a, b)$' "$T/builds.out" &&
    ok "stage_builds.py: a file two stages build is named (build/shared (a, b)); one built before them, or by stages that take turns, is not" ||
    no "stage_builds.py on a shared file: exit $rc: $(tr '\n' ' ' <"$T/builds.out")"
printf '%s\n' 'all:' >"$T/mk0/Makefile"
$PYTHON "$HERE/stage_builds.py" "$T/mk0" >"$T/builds.out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q '^FAIL the stages to look at: 0' "$T/builds.out" && ok "stage_builds.py: no stage to look at is a failure" ||
    no "stage_builds.py with no stage: exit $rc: $(tr '\n' ' ' <"$T/builds.out")"

summary scheduler
