#!/bin/sh
# harness/tests/winetest.sh BUILD - the "winetest" stage (mk/winetest.mk): Wine's test formats.
#
#   1. `etwconf-report winetest` on results of the Linux build (reference and misbehaving
#      libraries, with and without expectations): Wine's format (winetest_format.py), a line for
#      each failed check, skip, crash and known divergence; the exit status; usage errors
#   2. `etwconf export-wine --todo`: every data row exported, custom rows named, bad input refused
#   3. with mingw-w64: the exported test compiles with -Werror against harness/windows/winetest
#   4. with Wine, at win10 and win7: known Wine divergences are todo, no failure, exit 0; without
#      the expectations the test fails exactly where wine.json says Wine diverges
# Wine runs in a prefix of its own over the suite's (BUILD/winetest/overlay), or in the user's
# WINEPREFIX. Last line: "winetest: N passed, N failed, N skipped".
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
WINE_JSON=reports/expectations/wine.json
mkdir -p "$T" "$W"

. "$(dirname "$0")/lib.sh"
# fmt: the commands on stdin, in one winetest_format.py; its lines counted (never after a pipe)
fmt() {
    fo=$($PYTHON harness/tests/winetest_format.py 2>&1)
    frc=$?
    show "$fo"
    [ "$frc" = 0 ] || printf '%s\n' "$fo" | grep -q '^FAIL' || no "winetest_format.py exited $frc"
}

# ---------------------------------------------------------------- 1, 2. the report and export-wine
"$E" run --filter 'tqi.0b.*' --out "$T/ref.jsonl" >/dev/null 2>&1
head -n 1 "$T/ref.jsonl" >"$T/header.json"
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
"$E" run --target "$B/bad/crash.so" --filter 'tqi.0b.*' --out "$T/crash.jsonl" >/dev/null 2>&1
"$E" run --emulate 6.1 --filter 'tqi.0b.*' --out "$T/skip.jsonl" >/dev/null 2>&1
rm -rf "$T/all"
"$E" run --target "$B/bad/success.so" --emulate all --out-dir "$T/all" >/dev/null 2>&1
# the Wine this stage runs the exported test under ("10.0"; empty without Wine): its todo_wine
WV=$( (B=$B; . harness/tests/wine-env.sh; command -v "$WINE" >/dev/null 2>&1 && wine_version) | sed -n 's/^wine-\([^ ]*\).*/\1/p')
fmt <<EOF
report $T/ref.txt winetest $T/ref.jsonl
grammar $T/ref.txt --failures 0
results $T/ref.txt $T/ref.jsonl
report $T/success.txt winetest --expectations $T/thirdparty.json $T/success.jsonl
grammar $T/success.txt
results $T/success.txt $T/success.jsonl --expect $T/thirdparty.json
report $T/crash.txt winetest $T/crash.jsonl
grammar $T/crash.txt
results $T/crash.txt $T/crash.jsonl
report $T/skip.txt winetest $T/skip.jsonl
results $T/skip.txt $T/skip.jsonl
report $T/all.txt winetest $(echo "$T"/all/*.jsonl)
grammar $T/all.txt
report $T/quiet.txt WINETEST_DEBUG=0 winetest --expectations $T/thirdparty.json $T/success.jsonl
report $T/passes.txt WINETEST_REPORT_SUCCESS=1 winetest $T/ref.jsonl
report $T/u1.txt winetest --expectations $WINE_JSON
report $T/u2.txt winetest --expectations $T/header.json $T/ref.jsonl
report $T/u3.txt winetest --expectations $T/missing.json $T/ref.jsonl
report $T/notwine.txt winetest --expectations $WINE_JSON $T/ref.jsonl
report $T/wine-todo.txt winetest-todo ${WV:+--wine $WV} $WINE_JSON
report $T/thirdparty-todo.txt winetest-todo $T/thirdparty.json
EOF
rc=$(rc_of "$T/success.txt.rc")
n=0
for p in ': Test failed: ' ': Test marked todo: ' ': Test succeeded inside todo block: ' ': tqi.0b.long: '; do
    grep -q "$p" "$T/success.txt" && n=$((n + 1))
done
[ "$n" = 4 ] && [ "$rc" -gt 0 ] && ok "success.so with an expectations file: failed, todo, succeeded-inside-todo and the changed-divergence trace all appear; exit $rc" ||
    no "success.so with an expectations file: $n of 4 kinds of line, exit $rc"
grep -q 'cases/tqi.c:[0-9]*: Test marked todo: tqi.0b.short \[TQI.0B.EXACT_SIZE\] return: expected 24 (ERROR_BAD_LENGTH), got 0 (ERROR_SUCCESS)$' "$T/success.txt" &&
    ok "a known divergence is todo at the check's file and line, with its rule, expected and got" || no "the todo line of tqi.0b.short is not as expected"
grep -q 'Test failed: tqi.0b.exact: unhandled exception SIGSEGV in TraceQueryInformation' "$T/crash.txt" &&
    ok "a crash is a failure naming the exception and the function (the run goes on)" || no "crash.so: no crash line"
[ "$(grep -c ': Tests skipped: tqi.0b.[a-z-]*: does not apply to 6.1' "$T/skip.txt")" = 7 ] && ok "SKIPs are 'Tests skipped:' lines with the reason" ||
    no "SKIP lines at 6.1: $(grep -c 'Tests skipped' "$T/skip.txt") of 7"
rc=$(rc_of "$T/all.txt.rc")
[ "$rc" = 255 ] && ok "more than 255 failures: exit status 255, as Wine caps it" || no "every version with success.so: exit $rc, expected 255"
nf=$(ls "$T/all"/*.jsonl 2>/dev/null | wc -l); nu=$(grep -c 'tests executed' "$T/all.txt")
[ "$nf" -ge 6 ] && [ "$nu" -ge $((nf * 5)) ] && ok "$nf results files: the units of each are closed ($nu closing lines)" ||
    no "several results files: $nf files, $nu closing lines"
rc=$(rc_of "$T/quiet.txt.rc")
! grep -q 'Test marked todo\|tests executed' "$T/quiet.txt" && grep -q 'Test failed' "$T/quiet.txt" && [ "$rc" -gt 0 ] &&
    ok "WINETEST_DEBUG=0: no todo lines and no closing line, failures still printed, exit $rc" || no "WINETEST_DEBUG=0 output"
[ "$(grep -c ': Test succeeded$' "$T/passes.txt")" -gt 10 ] && ok "WINETEST_REPORT_SUCCESS=1: a 'Test succeeded' line per passing check" ||
    no "WINETEST_REPORT_SUCCESS=1: $(grep -c ': Test succeeded$' "$T/passes.txt") success lines"
"$E" run --format winetest >/dev/null 2>"$T/u4.err"; r4=$?
r="$(rc_of "$T/u1.txt.rc")$(rc_of "$T/u2.txt.rc")$(rc_of "$T/u3.txt.rc")$r4"
[ "$r" = 2222 ] && grep -q "no results files" "$T/u1.txt.err" && grep -q "results file" "$T/u2.txt.err" &&
    grep -q "no such expectations file" "$T/u3.txt.err" && grep -q "etwconf-report winetest" "$T/u4.err" &&
    ok "usage errors exit 2 and say what to do (no results, a results file as expectations, a missing file, run --format)" ||
    no "usage errors: exits $r"
rc=$(rc_of "$T/notwine.txt.rc")
grep -q "is for target wine.*nothing is todo" "$T/notwine.txt.err" && ! grep -q "marked todo" "$T/notwine.txt" && [ "$rc" = 0 ] &&
    ok "an expectations file for another target: said on stderr, nothing is todo" || no "wine.json against the reference: exit $rc"

"$E" export-wine --todo "$T/wine-todo.txt" --out "$T/etwconf.c" 2>"$T/export.err"; rc=$?
"$E" list --json >"$T/cases.json"
fmt <<EOF
exported $T/etwconf.c $T/cases.json $WINE_JSON
EOF
[ "$rc" = 0 ] && grep -q '^START_TEST(etwconf)$' "$T/etwconf.c" && ! grep -q '#include "\(harness\|spec\|cases\)/' "$T/etwconf.c" &&
    ok "export-wine: exit 0, START_TEST(etwconf), standalone (no suite header)" || no "export-wine: exit $rc"
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
    finish winetest
fi
"$E" export-wine --out "$T/etwconf-notodo.c" 2>/dev/null
CFLAGS="-std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Werror -O1 -I harness/windows/winetest"
cc_ok=1
$MINGW64 $CFLAGS -DSTANDALONE -o "$W/etwconf_test.exe" "$T/etwconf.c" 2>"$T/etwconf.cc.err" || { cc_ok=0; head -n 20 "$T/etwconf.cc.err"; }
# without todo_wine, as in a Wine tree: the driver in a testlist.c that defines STANDALONE
printf '#define STANDALONE\n#include "wine/test.h"\nextern void func_etwconf(void);\nconst struct test winetest_testlist[] = {{"etwconf", func_etwconf}, {0, 0}};\n' >"$T/testlist.c"
$MINGW64 $CFLAGS -o "$W/etwconf_notodo_test.exe" "$T/etwconf-notodo.c" "$T/testlist.c" 2>"$T/tree.cc.err" &&
    ok "the exported test builds as a unit of a Wine tree does (no STANDALONE; the driver in testlist.c)" ||
    { cc_ok=0; no "the exported test does not build as a Wine-tree unit"; head -n 20 "$T/tree.cc.err"; }
[ "$cc_ok" = 1 ] && ok "the exported test (with and without todo_wine) compiles with $MINGW64 -Wall -Wextra -Werror against harness/windows/winetest" ||
    no "the exported test does not compile (see $T/*.cc.err)"
if command -v "$MINGW32" >/dev/null 2>&1; then
    $MINGW32 $CFLAGS -DSTANDALONE -o "$W/etwconf_test-i686.exe" "$T/etwconf.c" 2>"$T/etwconf-i686.cc.err" &&
        ok "the exported test compiles for i686 too ($MINGW32 -Werror)" || { no "the exported test does not compile for i686"; head -n 20 "$T/etwconf-i686.cc.err"; }
else
    skip "the exported test is not compiled for i686: $MINGW32 is not installed"
fi

# ---------------------------------------------------------------- 4. under Wine
if ! command -v "$WINE" >/dev/null 2>&1 || ! command -v "$WINESERVER" >/dev/null 2>&1; then
    skip "Wine checks not run: $WINE or $WINESERVER is not there (install Wine: sh .ci/deps.sh windows)"
    finish winetest
fi
if [ "$cc_ok" != 1 ]; then
    skip "the exported test is not run under Wine: it did not compile"
    finish winetest
fi
. harness/tests/wine-env.sh
# a prefix of the user's is used as it is; otherwise one over the suite's (made here if need be)
if [ "$WINE_OWN_PREFIX" = 1 ] && ! wine_overlay "$W/overlay"; then
    (unset WINEPREFIX; sh harness/tests/wine.sh prefix "$B") >"$T/prefix.log" 2>&1
    wine_stop
    wine_overlay "$W/overlay" || no "no Wine prefix to run in: $WINEPREFIX could not be made ($T/prefix.log)"
fi
export WINEPREFIX
wine_stop_at_exit
timeout 30 "$WINESERVER" -p >/dev/null 2>&1
timeout 120 "$WINE" cmd /c exit </dev/null >/dev/null 2>&1 # the services, with stdio on /dev/null

# The runs go side by side, each executable in a series of its own (the Windows version is set per
# executable name), and are checked after.
runx() { # EXE VERSION OUT: OUT, OUT.err, and the exit status in OUT.rc
    wine_version_for "$1" "$2"
    wine_run 300 "$1" etwconf >"$3" 2>"$3.err"
    echo $? >"$3.rc"
}
# the 32-bit build of the same test, where this Wine runs 32-bit programs (Wine's 32-bit part)
run32=0
[ -f "$W/etwconf_test-i686.exe" ] && wine_run 60 "$B/etwconf-i686.exe" version </dev/null 2>/dev/null | grep -q '^etwconf ' && run32=1
(runx "$W/etwconf_test.exe" win10 "$T/export-win10.txt"; runx "$W/etwconf_test.exe" win7 "$T/export-win7.txt") &
[ "$run32" = 1 ] && runx "$W/etwconf_test-i686.exe" win10 "$T/export-i686.txt" &
runx "$W/etwconf_notodo_test.exe" win10 "$T/export-notodo.txt"
wait
wine_stop
fmt <<EOF
grammar $T/export-win10.txt --failures 0
grammar $T/export-win7.txt --failures 0
$([ "$run32" = 1 ] && echo "grammar $T/export-i686.txt --failures 0")
grammar $T/export-notodo.txt
EOF
# the cases wine.json lists at a Windows version (by spec/versions.def's name) for this Wine
for v in win10 win7; do
    nt=$(awk -F'"' -v w=$v '/^VERSION/ && $4 == w { print $2 }' spec/versions.def)
    awk -v v="$nt" 'NR > 1 && $2 == v { print $1 }' "$T/wine-todo.txt" | sort -u >"$T/listed-$v"
done
# the case ids of the lines of one kind ("Test marked todo" ...): the context after the prefix
ids_of() { tr -d '\r' <"$1" | sed -n "s/^[^:]*:[0-9]*: $2: \([a-z0-9.-]*\): .*/\1/p" | sort -u; }
# VERSION NAME LABEL: the exported test ran under Wine at VERSION with exit 0, and what it marks
# todo is a divergence wine.json lists at that version
todo_only_listed() {
    rc=$(rc_of "$T/export-$2.txt.rc")
    ids_of "$T/export-$2.txt" "Test marked todo" >"$T/todo-$2"
    extra=$(comm -23 "$T/todo-$2" "$T/listed-$1" | tr '\n' ' ')
    n=$(wc -l <"$T/todo-$2")
    [ "$rc" = 0 ] && [ "$n" -gt 10 ] && [ -z "$extra" ] &&
        ok "$3 under Wine at $1: $n rows todo, each a known divergence of wine.json; no failure, exit 0" ||
        no "$3 at $1: exit $rc, $n todo rows${extra:+, not in wine.json: $extra} (see $T/export-$2.txt)"
}
todo_only_listed win10 win10 "exported test"
todo_only_listed win7 win7 "exported test"
if [ "$run32" = 1 ]; then
    todo_only_listed win10 i686 "the i686 exported test"
else
    skip "the i686 exported test is not run: this Wine does not run 32-bit programs (Wine's 32-bit part, .ci/deps.sh wine32) or $B/etwconf-i686.exe is not built"
fi
rc=$(rc_of "$T/export-notodo.txt.rc")
ids_of "$T/export-notodo.txt" "Test failed" >"$T/failed-notodo"
extra=$(comm -23 "$T/failed-notodo" "$T/listed-win10" | tr '\n' ' ')
n=$(wc -l <"$T/failed-notodo")
[ "$rc" -gt 0 ] && [ "$n" -gt 10 ] && [ -z "$extra" ] &&
    ok "without the expectations the exported test fails under Wine (exit $rc, $n rows), only where wine.json says Wine diverges" ||
    no "exported test without todo_wine at win10: exit $rc, $n failing rows${extra:+; not in wine.json: $extra}"
if [ ! -s "$T/export-notodo.txt" ]; then no "the exported test without --todo printed nothing"
elif grep -q 'Test marked todo\|Test succeeded inside' "$T/export-notodo.txt"; then no "todo lines without --todo"
else ok "without --todo nothing is todo"; fi
summary winetest
