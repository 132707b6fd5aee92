#!/bin/sh
# harness/tests/winci.sh BUILD - the "winci" test stage (mk/fleet.mk): the CI workflow for real
# Windows, .github/workflows/windows.yml, checked without Windows: 1. winci/workflow.py checks it;
# 2. the Windows job's one script runs under Wine with the workflow's command line (label "wine")
# and writes what CI uploads; 3. the report job's steps run on synthetic results of the three
# runners: with the committed (empty) baselines they pass; with a baseline folded in, a regression
# fails them. Last line: "winci: N passed, N failed, N skipped".
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
REPO=$(pwd)
. harness/tests/lib.sh
L=$B/test/winci
rm -rf "$L"
mkdir -p "$L"
T=$(mktemp -d "${TMPDIR:-/tmp}/etwconf-winci.XXXXXX")
cleanup() {
    (. harness/tests/wine-env.sh; wine_stop)
    cp -r "$T/job/out" "$L/windows-job-out" 2>/dev/null
    cp "$T"/*.out "$T"/*.err "$L/" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- 1. the workflow
WF=$T/workflow
part "$T/workflow.out" $PYTHON harness/tests/winci/workflow.py check "$WF"

# ---------------------------------------------------------------- 2. the Windows job under Wine
S=harness/windows/etwconf-ci.cmd
n=$(wc -l <"$S"); crlf=$(grep -c "$(printf '\r')\$" "$S")
[ "$n" -gt 10 ] && [ "$crlf" = "$n" ] && ok "$S has CRLF line ends ($n lines; .gitattributes keeps them)" || no "$S: $crlf of $n lines end in CRLF"
if ! command -v "${WINE:-wine}" >/dev/null 2>&1; then
    no "Wine is not installed: 'sh .ci/deps.sh windows' as root (make test does it)"
elif [ ! -f "$B/etwconf.exe" ] || [ ! -f "$B/etwconf-i686.exe" ]; then
    no "$B/etwconf.exe or $B/etwconf-i686.exe is missing: run 'make windows'"
else
    BA=$(cd "$B" && pwd)
    if [ ! -f "$BA/wineprefix/.etwconf-prefix" ]; then
        echo "winci: making the Wine prefix (harness/tests/wine.sh)"
        sh harness/tests/wine.sh run "$B" win10 >"$L/prefix.log" 2>&1 || no "the Wine prefix could not be made: $L/prefix.log"
    fi
    # beside the wine stage: a prefix of its own over the suite's (harness/tests/wine-env.sh); the
    # Wine commands below and cleanup use it through WINEPREFIX
    . harness/tests/wine-env.sh
    wine_overlay "$T/prefix"
    # the checkout as the runner has it: the script, and the exes downloaded into build/
    J=$T/job
    mkdir -p "$J/harness/windows" "$J/build"
    cp "$S" "$J/harness/windows/"
    cp "$B/etwconf.exe" "$B/etwconf-i686.exe" "$J/build/"
    line=$(cat "$WF/windows.line")
    printf 'winci: under Wine, in a copy of the checkout: %s\n' "$line"
    (
        . harness/tests/wine-env.sh
        timeout 30 "$WINESERVER" -p >/dev/null 2>&1
        timeout 120 "$WINE" cmd /c exit >/dev/null 2>&1
        cd "$J" && wine_run 300 cmd /c "$line" >"$T/job.out" 2>"$T/job.err"
    )
    rc=$?
    tr -d '\r' <"$T/job.out"
    O=$J/out
    st=$(tr -d '\r' <"$O/wine-status.txt" 2>/dev/null)
    x64=$($PYTHON harness/tests/checks.py facts "$O/wine-etwconf.jsonl")
    set -- $x64
    if [ "$1" = complete ] && [ "${3%%@*}" = wine ]; then
        ok "the Windows job ran etwconf.exe: out/wine-etwconf.jsonl is complete ($3, $4 cases)"
        echo "$st" | grep -qx "etwconf exit $2, results written" && ok "out/wine-status.txt: 'etwconf exit $2, results written' (the exit code is the footer's)" \
            || no "status file: $st"
    else
        no "out/wine-etwconf.jsonl: $x64"
    fi
    tr -d '\r' <"$O/wine-etwconf.stderr.txt" 2>/dev/null | grep -q "^wine@.*: [0-9]* cases: " && tr -d '\r' <"$O/wine-etwconf.stderr.txt" | grep -q "nothing left behind" &&
        ok "out/wine-etwconf.stderr.txt: the run's summary, then cleanup's 'nothing left behind'" || no "out/wine-etwconf.stderr.txt: $(tr -d '\r' <"$O/wine-etwconf.stderr.txt" 2>&1 | tail -n 2)"
    tr -d '\r' <"$T/job.out" | grep -q '^etwconf-ci: build\\etwconf.exe run --out out\\wine-etwconf.jsonl$' && ok "the job's log names each command" ||
        no "job log (exit $rc): $(head -n 2 "$T/job.out" | tr '\n' ' ')stderr: $(tr -d '\r' <"$T/job.err" | tail -n 3 | tr '\n' ' ')"
    if [ -f "$O/wine-etwconf-i686.jsonl" ] && echo "$st" | grep -q "^etwconf-i686 exit [01], results written"; then
        [ "$rc" = 0 ] && ok "etwconf-i686.exe ran under this Wine too; the job exits 0" || no "both exes ran, but the job exited $rc"
    else
        echo "$st" | grep -q "^etwconf-i686 exit .*, results missing" && [ "$rc" = 1 ] &&
            ok "an exe that cannot run is reported (status: results missing) and fails the job (exit 1)" || no "i686: job exit $rc, status: $st"
        skip "etwconf-i686.exe cannot run under this Wine (64-bit only: no wine32); it runs on the runners"
    fi
    (. harness/tests/wine-env.sh; cd "$J" &&
        wine_run 60 cmd /c 'harness\windows\etwconf-ci.cmd out2 wine build\nosuch.exe' >"$T/missing.out" 2>&1)
    rc=$?
    [ "$rc" = 1 ] && tr -d '\r' <"$J/out2/wine-status.txt" | grep -q "^nosuch exit none, results missing" &&
        ok "a missing exe: exit 1, named in the status file" || no "missing exe: exit $rc"
    (. harness/tests/wine-env.sh; cd "$J" &&
        wine_run 60 cmd /c 'harness\windows\etwconf-ci.cmd out3' >"$T/usage.out" 2>&1)
    rc=$?
    [ "$rc" = 2 ] && tr -d '\r' <"$T/usage.out" | grep -q "^usage: etwconf-ci.cmd OUTDIR LABEL EXE" &&
        ok "no exe given: usage, exit 2" || no "usage: exit $rc"
fi

# ---------------------------------------------------------------- 3. the report job
R=$T/report-job
mkdir -p "$R"
ln -s "$REPO/reports" "$R/reports"
ln -s "$REPO/spec" "$R/spec"
cp -r "$REPO/baselines" "$R/baselines"
mv "$WF/results" "$R/results"
nsteps=$(ls "$WF"/report-*.sh 2>/dev/null | wc -l)
run_step() { # run_step N: the report job's N-th run step, as the runner runs it (bash -e)
    (cd "$R" && GITHUB_STEP_SUMMARY="$T/step-summary.md" timeout 120 bash -e "$WF/report-$1.sh")
}
allok=1
for i in $(seq 0 $((nsteps - 1))); do
    run_step "$i" >"$T/report-step$i.out" 2>&1 || { allok=0; echo "step $i failed:"; cat "$T/report-step$i.out"; }
done
[ "$nsteps" -gt 0 ] || { allok=0; echo "the report job has no run step (workflow.py wrote none)"; }
[ "$allok" = 1 ] && ok "the report job's $nsteps steps pass on results of the three runners (6 runs)" || no "the report job failed on good results (${nsteps:-no} steps)"
n=$(grep -o 'windows@10\.0\.[0-9]*' "$R/build/report/index.html" 2>/dev/null | sort -u | wc -l)
[ -f "$R/build/report/index.html" ] && [ "$n" = 2 ] && grep -q "windows@10.0.26100" "$T/step-summary.md" &&
    ok "combined report: build/report/index.html (builds 20348, 26100), summary in the step summary" || no "combined report: $n builds"
[ "$(ls "$R/build/calibrate"/*.json 2>/dev/null | wc -l)" = 6 ] && ok "calibration: one expectations file per machine kind (6)" || no "calibration files: $(ls "$R/build/calibrate" 2>&1 | tr '\n' ' ')"
last=$((nsteps - 1))
[ "$(grep -c 'NO BASELINE yet' "$T/report-step$last.out")" = 6 ] && ok "baseline check: the committed baselines have no run folded in: said for each of 6 runs, not a failure" \
    || no "baseline check output: $(tail -n 2 "$T/report-step$last.out")"
(cd "$R" && $PYTHON reports/etwconf-report baseline update --dir baselines/windows results/*.jsonl >"$T/update.out" 2>&1) && [ "$(grep -c '^baseline: wrote' "$T/update.out")" = 6 ] &&
    ok "baseline update folds the six runs in" || no "baseline update: $(tail -n 2 "$T/update.out")"
# one more run, of windows-2022 x64 with a new failure, beside the six folded in: only it regresses
cp "$WF/worse.jsonl" "$R/results/windows-2022-etwconf-worse.jsonl"
run_step "$last" >"$T/worse.out" 2>&1; rc=$?
same='(results/windows-[a-z0-9-]*etwconf\(-i686\)\{0,1\}\.jsonl) as .*: 0 regressions'
[ "$(grep -c "^baseline: windows@.* $same" "$T/worse.out")" = 6 ] &&
    ok "the same results against those baselines: no regression" ||
    no "recheck: $(tail -n 1 "$T/worse.out")"
new="(results/windows-2022-etwconf-worse.jsonl) as 10.0.20348-server-x86_64: 1 regression"
[ "$rc" = 1 ] && grep -q "REGRESSION tqi.0b.exact" "$T/worse.out" &&
    grep -qF "$new" "$T/worse.out" &&
    grep -q "7 runs checked, 1 regression" "$T/worse.out" &&
    ok "a new failure on windows-2022 (x64) fails the report job's last step: REGRESSION tqi.0b.exact" ||
    no "regression not caught: exit $rc: $(tail -n 3 "$T/worse.out")"
finish winci
