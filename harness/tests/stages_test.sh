#!/bin/sh
# harness/tests/stages_test.sh - the "scheduler" test stage: make test's way of running the stages
# (mk/stages.mk, harness/tests/stages.sh), on a made-up Makefile that includes mk/stages.mk, checked
# on what make test relies on (each numbered part below says what), and stage_builds.py (no file
# built twice at once). Last line: "scheduler: N passed, N failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
# make test runs this with its own settings in the environment: each run below sets its own
unset STAGE_LOGS TEST_NICE TEST_EXCLUSIVE TEST_JOBS WINE_START_LOG MAKEFLAGS MFLAGS MAKELEVEL
stage_tmp stages

# the made-up Makefile: STAGES and the recipes of T/stages.mk (each stage notes its start and end in
# T/events: "+NAME", "-NAME"), TEST_PREP "prep", and make test as the suite's Makefile runs it
cat >"$T/Makefile" <<EOF
BUILD := build
TEST_JOBS := 4
STAGES_SH := $HERE/stages.sh
TEST_PREP := prep
EV = echo \$1\$(@:test-%=%) >>$T/events
include $T/stages.mk
.PHONY: prep test \$(TEST_STAGES:%=test-%)
prep:
	@sleep 0.2; echo -prep >>$T/events
include $REPO/mk/stages.mk
test:
	@\$(TEST_RUN)
EOF
# run STAGE...: make test over them, output in T/out, exit status in T/rc
run() {
    rm -f "$T/events"
    (cd "$T" && make --no-print-directory test TEST_STAGES="$*" TEST_CGROUP=0) >"$T/out" 2>&1
    echo $? >"$T/rc"
}
# the total line (make's own line about the failed target may follow it)
total() { grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$T/out" | tail -n 1; }
# did stage A end before stage B started?
before() { awk -v a="-$1" -v b="+$2" '$0 == a { e = NR } $0 == b { s = NR } END { exit !(e && s && e < s) }' "$T/events"; }

# 1. TEST_PREP first, counts, a failure, an exit without a count, the logs whole in the named order
cat >"$T/stages.mk" <<'EOF'
test-one:
	@$(call EV,+); echo "log of one"; sleep 0.3; echo "one: 3 passed, 0 failed, 1 skipped"; $(call EV,-)
test-two:
	@$(call EV,+); echo "log of two"; echo "two: 2 passed, 1 failed"; $(call EV,-); exit 1
test-three:
	@$(call EV,+); echo "log of three"; $(call EV,-); exit 2
test-four:
	@$(call EV,+); echo "four: 5 passed, 0 failed"; $(call EV,-)
test-a:
	@$(call EV,+); sleep 0.3; echo "a: 1 passed, 0 failed"; $(call EV,-)
test-b: | test-a
	@$(call EV,+); echo "b: 1 passed, 0 failed"; $(call EV,-)
test-bad:
	@$(call EV,+); echo "bad: 0 passed, 1 failed"; $(call EV,-); exit 1
test-c: | test-bad
	@$(call EV,+); echo "c: 1 passed, 0 failed"; $(call EV,-)
test-d: | test-c
	@$(call EV,+); echo "d: 1 passed, 0 failed"; $(call EV,-)
test-lines:
	@echo "lines: 0 passed, 1 failed"; exit 1
	@echo "second line"; $(call EV,+)
test-needs: missing-file
	@$(call EV,+); echo "needs: 1 passed, 0 failed"
test-silent:
	@echo "log of silent"
test-empty:
	@echo "empty: 0 passed, 0 failed, 0 skipped"
test-p test-q:
	@$(call EV,+); sleep 0.2; echo "$(@:test-%=%): 1 passed, 0 failed"; $(call EV,-)
test-nice:
	@echo "nice: $$(nice) passed, 0 failed"
test-wine:
	@echo "12:00:00 start 1 of 3 failed for a reason of the host (exit 1: failed to map the shared user data): wine x.exe" >>"$$WINE_START_LOG"; echo "wine: 1 passed, 0 failed"
EOF
run one two three four
last=$(total)
[ "$last" = "10 passed, 2 failed, 1 skipped" ] && [ "$(cat "$T/rc")" = 2 ] &&
    ok "counts added up, a non-zero exit without a count is one failure: '$last', exit 2" || no "totals: '$last', exit $(cat "$T/rc")"
grep -q '^failing stages: two three$' "$T/out" && ok "the failing stages are named" || no "failing stages: $(grep failing "$T/out")"
order=$(grep '^===== stage ' "$T/out" | awk '{ print $3 }' | tr '\n' ' ')
[ "$order" = "one two three four " ] && grep -q '^log of one$' "$T/out" &&
    ok "the logs are printed whole, in the named order" || no "log order: $order"
[ "$(head -n 1 "$T/events")" = -prep ] && [ "$(grep -c '^+' "$T/events")" = 4 ] && ok "TEST_PREP is made before any stage starts" ||
    no "TEST_PREP and the stages: $(tr '\n' ' ' <"$T/events")"

# 2. a stage after another: waits, and after a failed one is not run but skipped with the reason
run a b bad c d
before a b && ok "test-b: | test-a: b starts after a has ended" || no "b did not wait for a: $(tr '\n' ' ' <"$T/events")"
grep -q '^c: not run: it comes after the stage bad, which failed' "$T/out" && ! grep -q '^+c$' "$T/events" &&
    grep -q "^d: not run: it comes after the stage c, which was not run" "$T/out" && ! grep -q '^+d$' "$T/events" &&
    [ "$(total)" = "2 passed, 1 failed, 2 skipped" ] &&
    ok "a stage after a failed one is not run, and neither is the one after it: each skipped with the reason" ||
    no "after a failure: $(grep -E '^(c|d):' "$T/out" | tr '\n' ' ') / $(total)"

# 3. a line after a failed line is not run; a stage whose prerequisite cannot be built is skipped,
#    the others run, and make's failure counts
run lines needs p
! grep -q '^second line' "$T/out" && ! grep -q '^+lines' "$T/events" && ok "a recipe line after a failed one is not run" ||
    no "the line after a failed line ran: $(grep -A2 'stage lines' "$T/out" | tr '\n' '|')"
grep -q "^needs: not run: make could not build what it needs" "$T/out" && grep -q '^+p$' "$T/events" &&
    grep -q '^make: FAIL: make exited 2' "$T/out" && [ "$(total)" = "1 passed, 2 failed, 1 skipped" ] &&
    [ "$(cat "$T/rc")" = 2 ] && ok "a stage whose prerequisite cannot be built is skipped with the reason, make's failure counts, the others run" ||
    no "a prerequisite that cannot be built: $(grep -E '^(needs|make):' "$T/out" | tr '\n' '|') $(total), exit $(cat "$T/rc")"

# 4. the summary: each stage's time and start, the totals; a stage that checked nothing fails
run p q silent empty
grep -Eq '^  p +1 passed +0 failed +0 skipped  \([0-9.]+s, [0-9.]+s CPU, from \+[0-9.]+s\)$' "$T/out" && grep -q '^  4 stages, 4 jobs at a time: ' "$T/out" &&
    ok "the summary gives each stage's wall time, CPU time and start" || no "summary: $(grep -A3 'summary' "$T/out" | tr '\n' '|')"
[ "$(total)" = "2 passed, 2 failed, 0 skipped" ] && [ "$(cat "$T/rc")" = 2 ] && grep -q '^failing stages: silent empty$' "$T/out" &&
    grep -q "^silent: FAIL: the stage printed no count line" "$T/out" && grep -q "^empty: FAIL: the stage counted no check at all" "$T/out" &&
    ok "a stage with no count line, and one that counted nothing, each fail" ||
    no "stages that checked nothing: $(total), exit $(cat "$T/rc"): $(grep -E '^(silent|empty|failing)' "$T/out" | tr '\n' '|')"

# 5. TEST_EXCLUSIVE take turns (flock), TEST_NICE runs at a lower priority; exit 0 when nothing failed
export TEST_EXCLUSIVE="p q" TEST_NICE=nice
run p q nice
unset TEST_EXCLUSIVE TEST_NICE
{ before p q || before q p; } && [ "$(cat "$T/rc")" = 0 ] && ok "TEST_EXCLUSIVE p q: they take turns; exit 0 when nothing failed" ||
    no "exclusive: $(tr '\n' ' ' <"$T/events"), exit $(cat "$T/rc")"
n=$(($(nice) + 5)); [ "$n" -le 19 ] || n=19
grep -q "^nice: $n passed, 0 failed$" "$T/out" && ok "TEST_NICE: the stage runs 5 nice levels lower" || no "TEST_NICE: $(grep '^nice:' "$T/out")"

# 6. the Wine starts that were run again (harness/tests/wine-env.sh) are listed after the summary
run wine p
grep -q '^Wine starts that failed for a reason of the host and were run again (1, .*/wine-starts.log):$' "$T/out" &&
    grep -q '^  12:00:00 start 1 of 3 failed .*: wine x.exe$' "$T/out" && [ "$(cat "$T/rc")" = 0 ] &&
    ok "Wine starts run again for a reason of the host are listed after the summary, and fail nothing" || no "Wine starts: $(tail -n 4 "$T/out" | tr '\n' '|')"
run p
! grep -q '^Wine starts' "$T/out" && ok "the list starts empty in each make test" || no "a former run's Wine starts were listed"

# 7. by hand, a stage prints to the terminal and writes no log
(cd "$T" && make -s test-four TEST_STAGES="four") >"$T/out" 2>&1
[ "$(cat "$T/out")" = "four: 5 passed, 0 failed" ] && ok "make test-NAME by hand prints the stage's output itself" ||
    no "make test-four by hand: $(tr '\n' '|' <"$T/out")"

# 8. no file built twice at once (harness/tests/stage_builds.py): the suite's own Makefile, then
#    made-up ones with a file that a stage's own make builds beside another stage, and with no stage
PYTHON=${PYTHON:-python3}
$PYTHON "$HERE/stage_builds.py" "$REPO" >"$T/builds.out" 2>&1 && ok "stage_builds.py: $(tail -n 2 "$T/builds.out" | cut -c6- | tr '\n' ' ')" ||
    no "stage_builds.py: $(grep '^FAIL' "$T/builds.out" | head -n 2 | tr '\n' ' ')"
mkdir -p "$T/mk" "$T/mk0"
printf '%s\n' 'TEST_STAGES := a b c d e f g' 'TEST_PREP := build/p' 'test-a test-b test-c test-d test-e test-f test-g: | build/p' \
    'test-a:' '	$(MAKE) build/shared' 'test-b: build/shared' 'test-c: build/own' '	$(MAKE) build/own' 'test-d: | test-e' 'test-e:' \
    'test-f:' '	$(MAKE) $(FG:%=build/%)' 'test-g: | test-f' '	$(MAKE) build/fg' 'FG := fg' 'build/shared build/own build/p build/fg:' '	touch $@' >"$T/mk/Makefile"
$PYTHON "$HERE/stage_builds.py" "$T/mk" >"$T/builds.out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q "^FAIL no file is built by a stage's own make .*: build/shared (a, b)$" "$T/builds.out" &&
    ok "stage_builds.py: a file a stage's own make builds beside another stage is named (build/shared (a, b)); one built before the stage, or by stages one after the other, is not" ||
    no "stage_builds.py on a shared file: exit $rc: $(tr '\n' ' ' <"$T/builds.out")"
printf '%s\n' 'TEST_STAGES := a b c d e f' 'TEST_PREP := build/p' 'test-a test-b test-c test-d test-e: | build/p' 'test-a test-b test-c test-d test-e test-f:' 'build/p:' >"$T/mk/Makefile"
$PYTHON "$HERE/stage_builds.py" "$T/mk" >"$T/builds.out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q '^FAIL every stage comes after TEST_PREP (build/p): not f$' "$T/builds.out" &&
    ok "stage_builds.py: a stage that does not come after TEST_PREP is named" || no "stage_builds.py, a stage before TEST_PREP: exit $rc: $(tr '\n' ' ' <"$T/builds.out")"
printf '%s\n' 'all:' >"$T/mk0/Makefile"
$PYTHON "$HERE/stage_builds.py" "$T/mk0" >"$T/builds.out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q '^FAIL the stages to look at: 0' "$T/builds.out" && ok "stage_builds.py: no stage to look at is a failure" ||
    no "stage_builds.py with no stage: exit $rc: $(tr '\n' ' ' <"$T/builds.out")"

summary scheduler
