#!/bin/sh
# harness/tests/badtargets.sh BUILD - wrong implementations that must be caught: each is run with
# the real CLI and the results file is checked. A run must complete (footer present) whatever the
# target does, and each bad behaviour must show up with the right status.
set -u
B=${1:-build}
E=$B/etwconf
. "$(dirname "$0")/lib.sh"
stage_tmp badtargets

# 1. success for everything: FAILs, never a crash; the run completes and exits 1
"$E" run --target "$B/bad/success.so" --filter 'tqi.*' --quiet --out "$T/success.jsonl" 2>"$T/success.err"; rc=$?
[ "$rc" = 1 ] && ok "success.so: exit status 1 (not conformant)" || no "success.so: exit status $rc, expected 1"
n=$(count "$T/success.jsonl" FAIL); [ "$n" -ge 20 ] && ok "success.so: $n cases FAIL" || no "success.so: only $n FAIL records"
n=$(count "$T/success.jsonl" PASS); echo "     (success.so: $n cases pass anyway: those expecting ERROR_SUCCESS with nothing checked beyond it)"
grep -q '"id":"tqi.0b.short".*"status":"FAIL".*"counted":true' "$T/success.jsonl" && ok "success.so: tqi.0b.short is a counted FAIL" \
    || no "success.so: tqi.0b.short not a counted FAIL"
grep -q '"status":"SKIP".*EtwRef_StartLogger' "$T/success.jsonl" && ok "success.so: fixture cases SKIP naming the missing control function" \
    || no "success.so: fixture cases do not say why they skip"

# 2. crash: CRASH with the signal, every case gets a record, the run completes
"$E" run --target "$B/bad/crash.so" --filter 'tqi.0b.*' --quiet --out "$T/crash.jsonl" 2>"$T/crash.err"; rc=$?
n=$(count "$T/crash.jsonl" CRASH); [ "$n" -ge 5 ] && ok "crash.so: $n cases CRASH" || no "crash.so: $n CRASH records"
grep -q '"exception":"SIGSEGV"' "$T/crash.jsonl" && ok "crash.so: the record names SIGSEGV" || no "crash.so: no SIGSEGV in the records"
planned=$(sed -n 's/.*"cases_planned":\([0-9]*\).*/\1/p' "$T/crash.jsonl")
records=$(grep -c '"type":"case"' "$T/crash.jsonl")
[ "$planned" = "$records" ] && ok "crash.so: a record for each of the $planned planned cases" || no "crash.so: $records records for $planned cases"
[ "$rc" = 1 ] && ok "crash.so: exit status 1" || no "crash.so: exit status $rc"
"$E" run --target "$B/bad/crash.so" --filter 'tqi.0b.*' --isolation inproc --quiet --out "$T/crash-inproc.jsonl" 2>/dev/null
n=$(count "$T/crash-inproc.jsonl" CRASH); [ "$n" -ge 5 ] && complete "$T/crash-inproc.jsonl" && ok "crash.so (inproc): $n CRASH, run complete" \
    || no "crash.so (inproc): $n CRASH records"
"$E" run --target "$B/bad/crash.so" --case tqi.0b.exact --case cti.counter --isolation child --quiet --out "$T/crash-child.jsonl" 2>/dev/null
complete "$T/crash-child.jsonl" && grep -q '"status":"CRASH"' "$T/crash-child.jsonl" && ok "crash.so (child): CRASH, run complete" \
    || no "crash.so (child): not caught"

# 3. hang: TIMEOUT, the worker is replaced, the run completes
start=$(date +%s)
"$E" run --target "$B/bad/hang.so" --filter 'tqi.0b.*' --timeout-ms 300 --quiet --out "$T/hang.jsonl" 2>"$T/hang.err"; rc=$?
n=$(count "$T/hang.jsonl" TIMEOUT); [ "$n" -ge 5 ] && ok "hang.so: $n cases TIMEOUT in $(( $(date +%s) - start ))s" || no "hang.so: $n TIMEOUT records"
"$E" run --target "$B/bad/hang.so" --case tqi.0b.exact --case tqi.0b.short --isolation inproc --timeout-ms 200 --quiet --out "$T/hang-inproc.jsonl" 2>/dev/null
n=$(count "$T/hang-inproc.jsonl" TIMEOUT); [ "$n" = 2 ] && ok "hang.so (inproc): 2 TIMEOUT" || no "hang.so (inproc): $n TIMEOUT records"

# 4. overrun: the guard page catches the write past the buffer; FAIL, mode overrun
"$E" run --target "$B/bad/overrun.so" --filter 'tqi.0b.*' --quiet --out "$T/overrun.jsonl" 2>"$T/overrun.err"; rc=$?
n=$(count "$T/overrun.jsonl" FAIL overrun); [ "$n" -ge 3 ] && ok "overrun.so: $n cases FAIL with mode overrun" || no "overrun.so: $n overrun FAILs"
grep -q '"rule":"GEN.BUFFER_BOUNDS","expected":"no write past the buffer"' "$T/overrun.jsonl" && ok "overrun.so: the check cites GEN.BUFFER_BOUNDS" \
    || no "overrun.so: GEN.BUFFER_BOUNDS not cited"
for so in success crash hang overrun; do
    complete "$T/$so.jsonl" && ok "$so.so: run complete" || no "$so.so: no complete footer"
done

# 5. results survive a killed run: every line already written is valid JSON
"$E" run --target "$B/bad/hang.so" --filter 'tqi.*' --timeout-ms 5000 --quiet --out "$T/killed.jsonl" 2>/dev/null &
pid=$!
# the run has started (its header is written), then 2 s into its hanging cases
within 30000 test -s "$T/killed.jsonl"
sleep 2; kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null
lines=$(wc -l < "$T/killed.jsonl")
[ "$lines" -ge 1 ] && python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' \
    "$T/killed.jsonl" 2>/dev/null && ok "killed run: $lines complete JSON line(s) survive" ||
    no "killed run: results file unreadable"

# 6. a target that cannot be loaded: a clear error, exit 3
"$E" run --target "$T/does-not-exist.so" --quiet --out "$T/x.jsonl" 2>"$T/load.err"; rc=$?
[ "$rc" = 3 ] && grep -q "cannot load target" "$T/load.err" && ok "missing target: exit 3 with 'cannot load target'" || no "missing target: exit $rc"

# 7. a worker process that cannot be started is tried again, a bounded number of times, each failed
# start said on stderr, then the run ends with exit 3 (a pids control group that allows no new
# process makes every start fail; where none can be made here, SKIP with the reason)
cg=/sys/fs/cgroup/pids/etwconf-badtargets-$$
if mkdir "$cg" 2>/dev/null; then
    sh -c 'echo $$ >"$1/cgroup.procs" && echo 1 >"$1/pids.max" && shift && exec "$@"' sh "$cg" \
        "$E" run --target "$B/libetwref.so" --isolation batch --quiet --out "$T/nostart.jsonl" 2>"$T/nostart.err"; rc=$?
    rmdir "$cg" 2>/dev/null
    n=$(grep -c 'start [1-3] of 3)$' "$T/nostart.err")
    [ "$rc" = 3 ] && [ "$n" = 3 ] && ok "a worker that cannot start: 3 starts tried, each said, then exit 3" ||
        no "a worker that cannot start: exit $rc, $n of 3 starts said: $(tr '\n' '|' <"$T/nostart.err" | cut -c1-300)"
else
    skip "a worker that cannot start: no pids control group can be made here (cgroup v1 pids, as root)"
fi

summary badtargets
