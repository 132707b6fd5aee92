#!/bin/sh
# harness/tests/emptysets_test.sh BUILD - the "emptysets" test stage: a check over a set (versions
# run, cases, hosts, files, mutants, tests) fails when the set is empty. Each check below runs the
# stages' own check code on an empty set, the way it would meet one (a Wine that ran nothing, a
# version table that is empty, a tool that printed nothing) and wants its FAIL line.
# Last line: "emptysets: N passed, N failed".
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
stage_tmp emptysets
# fails WHAT OUTPUT-FILE PATTERN...: each PATTERN (grep -E) matches a FAIL line of the output
fails() {
    what=$1 f=$2
    shift 2
    for p in "$@"; do
        grep -Eq "^FAIL $p" "$f" || { no "$what: no FAIL line matching '$p' on an empty set: $(grep -E '^(ok|FAIL)' "$f" | head -n 8 | tr '\n' '|')"; return; }
    done
    ok "$what: fails on an empty set ($# check(s): $(printf '%s; ' "$@" | cut -c1-160))"
}

# lib.sh every: the helper the shell stages count planned sets with
(every 0 0 "the runs at every version") >"$T/every.out"
(every 2 3 "the runs at every version") >>"$T/every.out"
(every "" "" "the runs at every version") >>"$T/every.out"
(every 3 3 "the runs at every version") >>"$T/every.out"
[ "$(grep -c '^FAIL the runs at every version: ' "$T/every.out")" = 3 ] && grep -qx 'ok   the runs at every version (3 of 3)' "$T/every.out" &&
    ok "every: 0 of 0, 2 of 3 and nothing planned fail; 3 of 3 passes" || no "every: $(tr '\n' '|' <"$T/every.out")"

# wine_results.py: wine.sh's checks of the results (its section 6) when Wine ran nothing
$PYTHON - "$T/cases.json" <<'PY'
import json, sys
cases = [{"id": "x.%d" % i, "fixture": {"logger": True, "logger2": False}} for i in range(40)]
json.dump({"cases": cases}, open(sys.argv[1], "w"))
PY
# (wine.sh's directories, all empty here: the script must get to its end, its last line)
mkdir -p "$T/wine-none"
C_T=$T/wine-none C_R=$T/wine-none C_L=$T/wine-none C_WP=$T/wine-none C_FIRST= \
    WINE_VERSION="wine-8.0 (Debian 8.0~repack-4)" WINE_PATH=/usr/bin/wine \
    $PYTHON "$HERE/wine_results.py" 0 "$T/cases.json" 0 >"$T/wine.out" 2>&1
if tail -n 1 "$T/wine.out" | grep -q 'was made for'; then
    fails "wine.sh's checks of the Wine results" "$T/wine.out" "Wine results to check: 0 file" "win10: no results" \
        "win7: no results" "no case that needs an ETW session \(40 cases\) PASSes under Wine, in 0 run" \
        "child isolation and in-process: " "wrapper results: "
else
    no "wine_results.py on no results did not get to its end: $(tail -n 3 "$T/wine.out" | tr '\n' '|')"
fi

# conformance.sh: the reference at every version of an empty table
if [ -x "$B/etwconf" ]; then
    sh "$HERE/conformance.sh" "$B/etwconf" "" >"$T/conf.out" 2>&1
    fails "conformance.sh with no version" "$T/conf.out" "the reference passes at every version of the table: 0 of 0"
else
    no "$B/etwconf is missing: make"
fi

# scenarios.sh: an etwconf that lists no case and runs nothing
S=$T/scen-build
mkdir -p "$S/scen" "$S/bad"
: >"$S/scen/noprobe.so"
: >"$S/bad/crash.so"
printf '%s\n' '#!/bin/sh' 'case $1 in list) echo "{\"cases\": []}" ;; esac' \
    'prev=""; for a in "$@"; do case $prev in --out) : >"$a" ;; --out-dir) mkdir -p "$a" ;; esac; prev=$a; done' >"$S/etwconf"
chmod +x "$S/etwconf"
PYTHON=$PYTHON sh "$HERE/scenarios.sh" "$S" >"$T/scen.out" 2>&1
fails "scenarios.sh with no scenario and no run" "$T/scen.out" "list --json: every scenario \(0\)" "list --json: ordinary rows \(0\)" \
    "reference: every scenario \(0\) PASSes" "reference: every record names its program"

# layers.py: no source to check, and no object
mkdir -p "$T/empty-root/obj"
$PYTHON "$HERE/layers.py" --root "$T/empty-root" "$T/empty-root/obj" >"$T/layers.out" 2>&1
fails "layers.py on a tree without C sources or objects" "$T/layers.out" "LAYERS maps harness/core/ to core, and it holds no C file" \
    ".*/obj: no objects of the sources found"
grep -q '^ok   [0-9]* checks hold' "$T/layers.out" && no "layers.py printed 'checks hold' for an empty tree" || ok "layers.py: no 'checks hold' for an empty tree"

# the mutation score: no mutant matches the filter (in a build directory of its own: the mutate
# stage may be running in BUILD/mutate meanwhile)
if [ -x "$B/mutate/mutate" ]; then
    mkdir -p "$T/mut-build/mutate"
    ln -s "$(cd "$B/mutate" && pwd)/mutate" "$T/mut-build/mutate/mutate"
    MUT_BUILD=$T/mut-build MUT_VLIST=10.0 MUT_FILTER=no.such.mutant MUT_JOBS=1 sh tools/mutate/run.sh >"$T/mut.out" 2>&1; rc=$?
    [ "$rc" != 0 ] && grep -q '^mutate: 0 passed, 1 failed' "$T/mut.out" && grep -q '^ERROR    no mutant of .* matches MUT_FILTER' "$T/mut.out" &&
        ok "mutate with a filter that matches no mutant: 1 failed, exit $rc, no score of nothing" || no "mutate with no mutant: exit $rc: $(tail -n 2 "$T/mut.out" | tr '\n' '|')"
else
    no "$B/mutate/mutate is missing: make $B/mutate/mutate"
fi

# reports/tests/run.py: a pattern that matches no test
$PYTHON reports/tests/run.py no.such.test >"$T/rep.out" 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q '^reports: 0 passed, 1 failed' "$T/rep.out" && ok "reports/tests/run.py with no test to run: 1 failed, exit 1" ||
    no "reports/tests/run.py with no test: exit $rc: $(tail -n 1 "$T/rep.out")"

summary emptysets
