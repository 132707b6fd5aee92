#!/bin/sh
# harness/tests/winetest.sh BUILD - the "winetest" stage (mk/winetest.mk): Wine's test formats.
#
#   1. `etwconf-report winetest` on results of the Linux build against the reference and
#      misbehaving libraries, with and without an expectations file: every line in Wine's format
#      (harness/tests/winetest_format.py), a line for each failed check, skip, crash and known
#      divergence the results and expectations say; the exit status; WINETEST_DEBUG=0; usage errors
#   2. `etwconf export-wine --todo` (the divergences from `etwconf-report winetest-todo`): every
#      data row exported, custom rows named, bad input refused
#   3. with mingw-w64: the exported test compiles with -Werror against harness/windows/winetest
#   4. with Wine: etwconf.exe's results at win10 in Wine's format with reports/expectations/wine.json, and the
#      exported test run at win10 and win7: known Wine divergences are todo, no failure, exit 0;
#      without the expectations the same test fails exactly where wine.json says Wine diverges
# Wine runs in a prefix of its own (BUILD/winetest/prefix, made once per Wine version), or in the
# user's WINEPREFIX, used as it is; headless (harness/tests/wine-env.sh). Last line: "winetest: N passed, N failed, N skipped".
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
MINGW64=${MINGW64:-x86_64-w64-mingw32-gcc}
MINGW32=${MINGW32:-i686-w64-mingw32-gcc}
WINE=${WINE:-wine}                  # a build tree's wine works too
WINESERVER=${WINESERVER:-wineserver}
E=$B/etwconf
T=$B/test/winetest
W=$B/winetest
FMT="$PYTHON harness/tests/winetest_format.py"
REPORT="$PYTHON reports/etwconf-report"
WINE_JSON=reports/expectations/wine.json
mkdir -p "$T" "$W"

. "$(dirname "$0")/lib.sh"

# ---------------------------------------------------------------- 1. etwconf-report winetest
# the results of the Linux build against the reference and misbehaving libraries, formatted with
# and without an expectations file
wt() { # NAME REPORT-ARGUMENTS...: T/NAME.txt and T/NAME.err; the exit status in rc
    n=$1; shift
    $REPORT winetest "$@" >"$T/$n.txt" 2>"$T/$n.err"; rc=$?
}
"$E" run --filter 'tqi.0b.*' --out "$T/ref.jsonl" >/dev/null 2>&1
wt ref "$T/ref.jsonl"
show "$($FMT grammar "$T/ref.txt" --rc $rc --failures 0)"
show "$($FMT results "$T/ref.txt" "$T/ref.jsonl" --rc $rc)"

cat >"$T/thirdparty.json" <<'EOF'
{"schema": "etwconf-expectations/1", "target": {"impl": "thirdparty"},
 "entries": [
  {"case": "tqi.0b.short", "versions": ["10.0"], "status": "FAIL", "mode": "return", "observed": "0 (ERROR_SUCCESS)", "why": "success.so returns 0 for everything"},
  {"case": "tqi.0b.reserved", "versions": ["6.2-10.0"], "status": "FAIL", "mode": "return", "why": "a divergence that is not there"},
  {"case": "tqi.0b.long", "status": "FAIL", "mode": "return", "observed": "87", "why": "an observed text that does not match"},
  {"case": "tqi.0b.handle", "versions": ["6.1"], "status": "FAIL", "why": "an entry for another version"},
  {"case": "tqi.0b.exact", "versions": ["10.0+"], "status": "CRASH", "why": "a crash that happens"}
 ]}
EOF
"$E" run --target "$B/bad/success.so" --filter 'tqi.0b.*' --out "$T/success.jsonl" >/dev/null 2>&1
wt success --expectations "$T/thirdparty.json" "$T/success.jsonl"
show "$($FMT grammar "$T/success.txt" --rc $rc)"
show "$($FMT results "$T/success.txt" "$T/success.jsonl" --expect "$T/thirdparty.json" --rc $rc)"
n=0
for p in ': Test failed: ' ': Test marked todo: ' ': Test succeeded inside todo block: ' ': tqi.0b.long: '; do
    grep -q "$p" "$T/success.txt" && n=$((n + 1))
done
[ "$n" = 4 ] && [ "$rc" -gt 0 ] && ok "success.so with an expectations file: failed, todo, succeeded-inside-todo and the changed-divergence trace all appear; exit $rc" ||
    no "success.so with an expectations file: $n of 4 kinds of line, exit $rc"
grep -q 'cases/tqi.c:[0-9]*: Test marked todo: tqi.0b.short \[TQI.0B.EXACT_SIZE\] return: expected 24 (ERROR_BAD_LENGTH), got 0 (ERROR_SUCCESS)$' "$T/success.txt" &&
    ok "a known divergence is todo at the check's file and line, with its rule, expected and got" || no "the todo line of tqi.0b.short is not as expected"

"$E" run --target "$B/bad/crash.so" --filter 'tqi.0b.*' --out "$T/crash.jsonl" >/dev/null 2>&1
wt crash "$T/crash.jsonl"
show "$($FMT grammar "$T/crash.txt" --rc $rc)"
show "$($FMT results "$T/crash.txt" "$T/crash.jsonl" --rc $rc)"
grep -q 'Test failed: tqi.0b.exact: unhandled exception SIGSEGV in TraceQueryInformation' "$T/crash.txt" &&
    ok "a crash is a failure naming the exception and the function (the run goes on)" || no "crash.so: no crash line"

"$E" run --emulate 6.1 --filter 'tqi.0b.*' --out "$T/skip.jsonl" >/dev/null 2>&1
wt skip "$T/skip.jsonl"
show "$($FMT results "$T/skip.txt" "$T/skip.jsonl" --rc $rc)"
[ "$(grep -c ': Tests skipped: tqi.0b.[a-z-]*: does not apply to 6.1' "$T/skip.txt")" = 7 ] && ok "SKIPs are 'Tests skipped:' lines with the reason" ||
    no "SKIP lines at 6.1: $(grep -c 'Tests skipped' "$T/skip.txt") of 7"

rm -rf "$T/all"
"$E" run --target "$B/bad/success.so" --emulate all --out-dir "$T/all" >/dev/null 2>&1
wt all "$T/all"/*.jsonl
show "$($FMT grammar "$T/all.txt" --rc $rc)"
[ "$rc" = 255 ] && ok "more than 255 failures: exit status 255, as Wine caps it" || no "every version with success.so: exit $rc, expected 255"
nf=$(ls "$T/all"/*.jsonl 2>/dev/null | wc -l); nu=$(grep -c 'tests executed' "$T/all.txt")
[ "$nf" -ge 6 ] && [ "$nu" -ge $((nf * 5)) ] && ok "$nf results files: the units of each are closed ($nu closing lines)" ||
    no "several results files: $nf files, $nu closing lines"

WINETEST_DEBUG=0 $REPORT winetest --expectations "$T/thirdparty.json" "$T/success.jsonl" >"$T/quiet.txt" 2>/dev/null; rc=$?
! grep -q 'Test marked todo\|tests executed' "$T/quiet.txt" && grep -q 'Test failed' "$T/quiet.txt" && [ "$rc" -gt 0 ] &&
    ok "WINETEST_DEBUG=0: no todo lines and no closing line, failures still printed, exit $rc" || no "WINETEST_DEBUG=0 output"
WINETEST_REPORT_SUCCESS=1 $REPORT winetest "$T/ref.jsonl" >"$T/passes.txt" 2>/dev/null
[ "$(grep -c ': Test succeeded$' "$T/passes.txt")" -gt 10 ] && ok "WINETEST_REPORT_SUCCESS=1: a 'Test succeeded' line per passing check" ||
    no "WINETEST_REPORT_SUCCESS=1: $(grep -c ': Test succeeded$' "$T/passes.txt") success lines"

$REPORT winetest --expectations "$WINE_JSON" >/dev/null 2>"$T/u1.err"; r1=$?
head -n 1 "$T/ref.jsonl" >"$T/header.json"
$REPORT winetest --expectations "$T/header.json" "$T/ref.jsonl" >/dev/null 2>"$T/u2.err"; r2=$?
$REPORT winetest --expectations "$T/missing.json" "$T/ref.jsonl" >/dev/null 2>"$T/u3.err"; r3=$?
"$E" run --format winetest >/dev/null 2>"$T/u4.err"; r4=$?
[ "$r1$r2$r3$r4" = 2222 ] && grep -q "no results files" "$T/u1.err" && grep -q "results file" "$T/u2.err" && grep -q "no such expectations file" "$T/u3.err" &&
    grep -q "etwconf-report winetest" "$T/u4.err" &&
    ok "usage errors exit 2 and say what to do (no results, a results file as expectations, a missing file, run --format)" ||
    no "usage errors: exits $r1 $r2 $r3 $r4"
wt notwine --expectations "$WINE_JSON" "$T/ref.jsonl"
grep -q "is for target wine.*nothing is todo" "$T/notwine.err" && ! grep -q "marked todo" "$T/notwine.txt" && [ "$rc" = 0 ] &&
    ok "an expectations file for another target: said on stderr, nothing is todo" || no "wine.json against the reference: exit $rc"

# ---------------------------------------------------------------- 2. export-wine
# the Wine this stage runs the exported test under ("10.0"; empty without Wine): its divergences are
# the todo_wine ones (wine.json keys entries by Wine version)
WV=$( (B=$B; . harness/tests/wine-env.sh; command -v "$WINE" >/dev/null 2>&1 && wine_version) | sed -n 's/^wine-\([^ ]*\).*/\1/p')
$REPORT winetest-todo ${WV:+--wine "$WV"} "$WINE_JSON" >"$T/wine-todo.txt"
"$E" export-wine --todo "$T/wine-todo.txt" --out "$T/etwconf.c" 2>"$T/export.err"; rc=$?
out=$("$E" list --json | $PYTHON -c '
import json, re, sys
cases = json.load(sys.stdin)["cases"]
src = open(sys.argv[1]).read()
data = [c["id"] for c in cases if c["function"] != "(custom)"]
custom = [c["id"] for c in cases if c["function"] == "(custom)"]
ids = re.findall(r"\.id = \"([^\"]+)\"", src)
head = src.split("*/", 1)[0]
print(("ok   " if ids == data else "FAIL ") + "export-wine: %d rows, one per data case, in table order" % len(ids))
print(("ok   " if all(c in head.split() for c in custom) else "FAIL ") + "export-wine: the %d custom cases left out are named" % len(custom))
lines = src.split("\n")
bad = [m.group(1) for m in re.finditer(r"\.id = \"([^\"]+)\", \.line = (\d+)", src) if ".id = \"%s\"" % m.group(1) not in lines[int(m.group(2)) - 1]]
print(("ok   " if not bad else "FAIL ") + "export-wine: each row knows its own line (failures point at the row)%s" % (": " + " ".join(bad[:5]) if bad else ""))
todo = re.findall(r"\.id = \"([^\"]+)\"(?:(?!\.id = ).)*?\.todo = \{([^}]*)\}", src, re.S)
wine = json.load(open(sys.argv[2]))["entries"]
listed = {e["case"] for e in wine}
print(("ok   " if todo and all(i in listed for i, _ in todo) else "FAIL ") + "export-wine: %d rows carry todo_wine versions, all listed in wine.json" % len(todo))
' "$T/etwconf.c" "$WINE_JSON")
show "$out"
[ "$rc" = 0 ] && grep -q '^START_TEST(etwconf)$' "$T/etwconf.c" && ! grep -q '#include "\(harness\|spec\|cases\)/' "$T/etwconf.c" &&
    ok "export-wine: exit 0, START_TEST(etwconf), standalone (no suite header)" || no "export-wine: exit $rc"
$REPORT winetest-todo "$T/thirdparty.json" >"$T/thirdparty-todo.txt"
"$E" export-wine --todo "$T/thirdparty-todo.txt" --out "$T/x.c" 2>"$T/export-bad.err"; r1=$?
"$E" export-wine --bogus >/dev/null 2>&1; r2=$?
"$E" export-wine --help | grep -q "usage: etwconf export-wine"; r3=$?
"$E" export-wine --unit Bad-Name >/dev/null 2>&1; r4=$?
"$E" export-wine --unit etw_trace 2>/dev/null | grep -q '^START_TEST(etw_trace)$'; r5=$?
[ "$r1" = 3 ] && grep -q "not Wine" "$T/export-bad.err" && [ "$r2$r3$r4$r5" = 2020 ] &&
    ok "export-wine: divergences of another target refused (3), unknown option (2), --help (0), --unit checked (2) and used" ||
    no "export-wine errors: $r1 $r2 $r3 $r4 $r5"

# ---------------------------------------------------------------- 3. the exported test compiles
if ! command -v "$MINGW64" >/dev/null 2>&1; then
    skip "the exported test is not compiled: $MINGW64 is not installed (sh .ci/deps.sh windows)"
    skip "Wine checks not run: $MINGW64 is not installed"
    summary winetest; exit $?
fi
"$E" export-wine --out "$T/etwconf-notodo.c" 2>/dev/null
cc_ok=1
for src in etwconf etwconf-notodo; do
    exe=$W/$(echo "$src" | tr - _)_test.exe
    if $MINGW64 -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Werror -O1 -DSTANDALONE \
        -I harness/windows/winetest -o "$exe" "$T/$src.c" 2>"$T/$src.cc.err"; then :; else cc_ok=0; head -n 20 "$T/$src.cc.err"; fi
done
if command -v "$MINGW32" >/dev/null 2>&1; then
    $MINGW32 -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Werror -O1 -DSTANDALONE \
        -I harness/windows/winetest -o "$W/etwconf_test-i686.exe" "$T/etwconf.c" 2>"$T/etwconf-i686.cc.err" &&
        ok "the exported test compiles for i686 too ($MINGW32 -Werror)" || { no "the exported test does not compile for i686"; head -n 20 "$T/etwconf-i686.cc.err"; }
else
    skip "the exported test is not compiled for i686: $MINGW32 is not installed"
fi
# as in a Wine tree: the unit on its own, the driver in a generated testlist.c that defines STANDALONE
printf '#define STANDALONE\n#include "wine/test.h"\nextern void func_etwconf(void);\nconst struct test winetest_testlist[] = {{"etwconf", func_etwconf}, {0, 0}};\n' >"$T/testlist.c"
$MINGW64 -std=gnu11 -Wall -Werror -O1 -I harness/windows/winetest -o "$W/etwconf_tree_test.exe" "$T/etwconf.c" "$T/testlist.c" 2>"$T/tree.cc.err" &&
    ok "the exported test builds as a unit of a Wine tree does (no STANDALONE; the driver in testlist.c)" ||
    { no "the exported test does not build as a Wine-tree unit"; head -n 20 "$T/tree.cc.err"; }
[ "$cc_ok" = 1 ] && ok "the exported test (with and without todo_wine) compiles with $MINGW64 -Wall -Wextra -Werror against harness/windows/winetest" ||
    no "the exported test does not compile (see $T/*.cc.err)"

# ---------------------------------------------------------------- 4. under Wine
if ! command -v "$WINE" >/dev/null 2>&1 || ! command -v "$WINESERVER" >/dev/null 2>&1; then
    skip "Wine checks not run: $WINE or $WINESERVER is not there (install Wine: sh .ci/deps.sh windows)"
    summary winetest; exit $?
fi
. harness/tests/wine-env.sh
# a prefix of the user's (WINEPREFIX) is used as it is; otherwise one of this stage's own, so that it
# can run beside the wine stage (make test runs the two one after the other when WINEPREFIX is given):
# over the suite's prefix when that is made (make test makes it first), else made here
overlay=0
if [ "$WINE_OWN_PREFIX" = 1 ]; then
    if wine_overlay "$W/overlay"; then overlay=1; else WINEPREFIX=$(cd "$W" && pwd)/prefix; fi
fi
export WINEPREFIX
stop_server() { timeout 20 "$WINESERVER" -k >/dev/null 2>&1; timeout 20 "$WINESERVER" -w >/dev/null 2>&1; }
trap 'stop_server' EXIT
trap 'stop_server; exit 130' INT TERM
# a prefix made before Wine's 32-bit part was installed lacks its syswow64: made again then
want="$(wine_version)$([ -e /usr/lib/wine/wine ] && echo ' wine32') etwconf-winetest-prefix-1"
if [ "$WINE_OWN_PREFIX" = 1 ] && [ "$overlay" = 0 ] && { [ ! -f "$WINEPREFIX/system.reg" ] || [ "$(cat "$WINEPREFIX/.etwconf-prefix" 2>/dev/null)" != "$want" ]; }; then
    stop_server
    rm -rf "$WINEPREFIX"
    mkdir -p "$WINEPREFIX"
    timeout 30 "$WINESERVER" -p >/dev/null 2>&1
    echo "winetest: making the prefix $WINEPREFIX ($(wine_version))"
    timeout 300 "$WINE" wineboot -i >/dev/null 2>&1 &&
        timeout 60 "$WINE" reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' /v Debugger /t REG_SZ /d "" /f >/dev/null 2>&1 &&
        echo "$want" >"$WINEPREFIX/.etwconf-prefix" || no "the Wine prefix $WINEPREFIX could not be made"
else
    timeout 30 "$WINESERVER" -p >/dev/null 2>&1
    timeout 120 "$WINE" cmd /c exit >/dev/null 2>&1 # the services, with stdio on /dev/null
fi

# The runs go side by side, each executable in a series of its own (the Windows version is set per
# executable name, and etwconf.exe takes one live run at a time), and are checked after, in order.
# series NAME COMMANDS: COMMANDS in the background, their output in T/series-NAME.out
series() { sn=$1; shift; ("$@") >"$T/series-$sn.out" 2>&1 & }
# the Wine stage's copy of etwconf.exe (manifest highestAvailable: the full token wherever Wine gives
# one, as wine.json's runs had it; mk/windows.mk WINE_EXE_DIR)
WEXE=$B/wine-elevated/etwconf.exe
if [ -f "$WEXE" ]; then
    cp "$WEXE" "$W/etwconf.exe"
    etwconf_runs() {
        wine_version_for etwconf.exe win10
        wine_run 300 "$W/etwconf.exe" run --quiet --out "$T/wine-win10.jsonl" >/dev/null 2>"$T/wine-win10.err"
    }
    series etwconf etwconf_runs
fi

# the exported test: todo where wine.json says, no failure, Wine's exit status
runx() { # EXE VERSION OUT: OUT, OUT.err, and the exit status in OUT.rc
    wine_version_for "$1" "$2"
    wine_run 300 "$1" etwconf >"$3" 2>"$3.err"
    echo $? >"$3.rc"
}
# the case ids of the lines of one kind ("Test marked todo" ...): the context after the prefix
ids_of() { tr -d '\r' <"$1" | sed -n "s/^[^:]*:[0-9]*: $2: \([a-z0-9.-]*\): .*/\1/p" | sort -u; }
# the cases wine.json lists at a version, for the Wine under test
listed_at() {
    $PYTHON - "$WINE_JSON" "$1" "$WV" <<'PY'
import sys
sys.path.insert(0, "reports")
from etwconf_report import expectations
exp = expectations.load(sys.argv[1])
class R:  # just enough of a run for names_run(): a version, and the Wine under test
    impl, version, version_name = "wine", sys.argv[2], sys.argv[2]
    header = {"fingerprint": {"wine_version": sys.argv[3]}}
    def version_names(self): return {self.version} | ({expectations.WINE_NT[self.version]} if self.version in expectations.WINE_NT else set())
    def nt(self): return expectations.nt_tuple(self.version)
for e in exp.entries:
    if e.names_run(R()):
        print(e.case)
PY
}
# EXE VERSION NAME LABEL: the exported test runs under Wine at VERSION with exit 0, and what it marks
# todo is a divergence wine.json lists at that version
todo_only_listed() {
    listed_at "$2" | sort -u >"$T/listed-$2"
    rc=$(rc_of "$T/export-$3.txt.rc")
    show "$($FMT grammar "$T/export-$3.txt" --rc $rc --failures 0)"
    ids_of "$T/export-$3.txt" "Test marked todo" >"$T/todo-$3"
    extra=$(comm -23 "$T/todo-$3" "$T/listed-$2" | tr '\n' ' ')
    n=$(wc -l <"$T/todo-$3")
    [ "$rc" = 0 ] && [ "$n" -gt 10 ] && [ -z "$extra" ] &&
        ok "$4 under Wine at $2: $n rows todo, each a known divergence of wine.json; no failure, exit 0" ||
        no "$4 at $2: exit $rc, $n todo rows${extra:+, not in wine.json: $extra} (see $T/export-$3.txt)"
}
run32=0
if [ "$cc_ok" = 1 ]; then
    # the 32-bit build of the same test, where this Wine runs 32-bit programs (Wine's 32-bit part)
    [ -f "$W/etwconf_test-i686.exe" ] && wine_run 60 "$B/etwconf-i686.exe" version </dev/null 2>/dev/null | grep -q '^etwconf ' && run32=1
    exported_runs() { runx "$W/etwconf_test.exe" win10 "$T/export-win10.txt"; runx "$W/etwconf_test.exe" win7 "$T/export-win7.txt"; }
    series exported exported_runs
    [ "$run32" = 1 ] && series i686 runx "$W/etwconf_test-i686.exe" win10 "$T/export-i686.txt"
    series notodo runx "$W/etwconf_notodo_test.exe" win10 "$T/export-notodo.txt"
fi
wait
if [ -f "$WEXE" ]; then
    wt wine-win10 --expectations "$WINE_JSON" "$T/wine-win10.jsonl"
    show "$($FMT grammar "$T/wine-win10.txt" --rc $rc --failures 0)"
    show "$($FMT results "$T/wine-win10.txt" "$T/wine-win10.jsonl" --expect "$WINE_JSON" --rc $rc)"
    n=$(grep -c 'Test marked todo' "$T/wine-win10.txt")
    [ "$rc" = 0 ] && [ "$n" -gt 100 ] && ok "etwconf.exe under Wine at win10 with wine.json: $n known divergences todo, no failure, exit 0" ||
        no "etwconf.exe's results at win10 in Wine's format: exit $rc, $n todo lines (see $T/wine-win10.txt)"
else
    skip "etwconf.exe's results under Wine in Wine's format: $WEXE is not built (make $WEXE)"
fi
if [ "$cc_ok" = 1 ]; then
    for v in win10 win7; do
        todo_only_listed "$W/etwconf_test.exe" "$v" "$v" "exported test"
    done
    if [ "$run32" = 1 ]; then
        todo_only_listed "$W/etwconf_test-i686.exe" win10 i686 "the i686 exported test"
    else
        skip "the i686 exported test is not run: this Wine does not run 32-bit programs (Wine's 32-bit part, .ci/deps.sh wine32) or $B/etwconf-i686.exe is not built"
    fi
    rc=$(rc_of "$T/export-notodo.txt.rc")
    show "$($FMT grammar "$T/export-notodo.txt" --rc $rc)"
    ids_of "$T/export-notodo.txt" "Test failed" >"$T/failed-notodo"
    extra=$(comm -23 "$T/failed-notodo" "$T/listed-win10" | tr '\n' ' ')
    n=$(wc -l <"$T/failed-notodo")
    [ "$rc" -gt 0 ] && [ "$n" -gt 10 ] && [ -z "$extra" ] &&
        ok "without the expectations the exported test fails under Wine (exit $rc, $n rows), only where wine.json says Wine diverges" ||
        no "exported test without todo_wine at win10: exit $rc, $n failing rows${extra:+; not in wine.json: $extra}"
    if [ ! -s "$T/export-notodo.txt" ]; then no "the exported test without --todo printed nothing"
    elif grep -q 'Test marked todo\|Test succeeded inside' "$T/export-notodo.txt"; then no "todo lines without --todo"
    else ok "without --todo nothing is todo"; fi
else
    skip "the exported test is not run under Wine: it did not compile"
fi
stop_server
summary winetest
