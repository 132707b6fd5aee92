#!/bin/sh
# harness/tests/wine.sh run|test|prefix BUILD "VERSIONS" - etwconf.exe under Wine (mk/windows.mk).
# harness/tests/wine.sh rerun EXE VERSION ARGS... - what a Wine record's "rerun" command calls.
#
#   prefix  only set up the prefix, its wineserver left running for a minute
#   run     set up the prefix (the suite's own BUILD/wineprefix: made once per Wine version,
#           headless, no debugger), then run etwconf.exe at each Windows version V this Wine knows
#           -> BUILD/results/wine-V.jsonl, and etwconf-i686.exe where Wine runs 32-bit programs
#           -> BUILD/results/wine-i686-V.jsonl
#   test    run, then check the platform layer with misbehaving DLLs, the rerun commands, the
#           WINE/WINEPREFIX contract (a wrapper as a build tree's wine) and the results against
#           reports/expectations/wine.json. Last line: "wine: N passed, N failed, N skipped".
#   rerun   set EXE's Windows version to VERSION in the prefix and run EXE ARGS under Wine
# WINE, WINESERVER, WINEPREFIX (never reset or deleted), WINEDEBUG: harness/tests/wine-env.sh.
# WINE_RESULTS, WINE_LOGS: where the results and logs go (BUILD/results, BUILD/test/wine). WINE32=0:
# no 32-bit part. WINE_FRESH=1 remakes the suite's own prefix even if it is current.
# No DISPLAY, no winedbg, the first wine command's stdio on /dev/null (background services would
# hold pipes open), a timeout on every wine command, CRLF stripped, the server killed at the end.
set -u
mode=${1:-}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$mode" = rerun ]; then
    [ $# -ge 3 ] || { echo "usage: harness/tests/wine.sh rerun EXE VERSION ARGS..." >&2; exit 2; }
    EXE=$2 V=$3
    shift 3
    B=.
    WINE_START_LOG=${WINE_START_LOG:-/dev/stderr} # a start run again is said where the user sees it
    . "$HERE/wine-env.sh"
    wine_version_for "$EXE" "$V" ||
        { echo "wine.sh rerun: cannot set the Windows version $V for $(basename "$EXE") in $WINEPREFIX" >&2; exit 3; }
    wine_retry "$WINE" "$EXE" "$@"
    exit $?
fi
B=${2:-build}
VERSIONS=${3:-$(awk -F'"' '/^VERSION/ { print $4 }' spec/versions.def)}
PYTHON=${PYTHON:-python3}
# the Wine stage's copies of the exes, manifest highestAvailable: the full token (mk/windows.mk)
EXE=$B/wine-elevated/etwconf.exe
I686=$B/wine-elevated/etwconf-i686.exe
R=${WINE_RESULTS:-$B/results}
L=${WINE_LOGS:-$B/test/wine}
case "$mode" in run | test | prefix) ;; *) echo "usage: harness/tests/wine.sh run|test|prefix BUILD [VERSIONS]" >&2; exit 2 ;; esac

. "$HERE/lib.sh"
finish() {
    if [ "$mode" = test ]; then summary wine; else [ "$fail" = 0 ]; fi
    exit $?
}

mkdir -p "$R" "$L" "$B"
. "$HERE/wine-env.sh"
if ! command -v "$WINE" >/dev/null 2>&1 || ! command -v "$WINESERVER" >/dev/null 2>&1; then
    no "Wine is not there (WINE=$WINE, WINESERVER=$WINESERVER): run 'sh .ci/deps.sh windows' as root (make test does it), or set WINE to your build tree's wine"
    finish
fi
WINE_VERSION=$(wine_version)
WINE_PATH=$(command -v "$WINE")
case $WINE_PATH in /*) ;; *) WINE_PATH=$(pwd)/$WINE_PATH ;; esac

if [ "$mode" != prefix ]; then
    wine_stop_at_exit
    if [ ! -f "$EXE" ]; then
        no "$EXE is missing: run 'make wine' (it builds the Wine stage's copies of the exes)"
        finish
    fi
fi

# Does this machine run i386 code, and does this Wine run 32-bit programs? I386_WHY says why not.
I386=0 I386_WHY=""
i386_probe() {
    if [ "${WINE32:-1}" = 0 ]; then I386_WHY="WINE32=0 was set"; return; fi
    if ! I386_WHY=$(sh "$HERE/i386-probe.sh" "$L" 2>&1); then return; fi
    if [ ! -f "$I686" ]; then I386_WHY="$I686 was not built"; return; fi
    # a Wine without its 32-bit part may end without a word and exit 0: the output must be there
    wine_run 60 "$I686" version </dev/null >"$L/i686-version.out" 2>"$L/i686-version.err"
    if ! tr -d '\r' <"$L/i686-version.out" | grep -q '^etwconf '; then
        I386_WHY="this machine runs i386 code, but $WINE_VERSION does not run etwconf-i686.exe (no output from its 'version' command; Wine's 32-bit part is missing: Debian's wine32:i386, which 'sh .ci/deps.sh wine32' installs as root and make test installs first, or a WoW64 build of Wine)"
        [ -s "$L/wine32-deps.log" ] && I386_WHY="$I386_WHY; .ci/deps.sh wine32 did not install it: $(grep -E '^(E:|deps: wine32)' "$L/wine32-deps.log" | head -n 1)"
        return
    fi
    I386=1
}

# prefix_up [SECONDS]: the wineserver stays up SECONDS after its last client (default: until stopped)
prefix_up() {
    if [ "$WINE_OWN_PREFIX" = 1 ]; then
        # remade when Wine changes, also when Debian's 32-bit part comes (the prefix then gets syswow64)
        want="$WINE_VERSION $WINE_PATH$([ -e /usr/lib/wine/wine ] && echo ' wine32') etwconf-prefix-2"
        if [ "${WINE_FRESH:-0}" = 1 ] || [ ! -f "$WINEPREFIX/system.reg" ] || [ "$(cat "$WINEPREFIX/.etwconf-prefix" 2>/dev/null)" != "$want" ]; then
            wine_stop
            rm -rf "$WINEPREFIX"
        fi
    fi
    fresh=0
    [ -f "$WINEPREFIX/system.reg" ] || fresh=1
    mkdir -p "$WINEPREFIX"
    timeout 30 "$WINESERVER" -p${1:-} >/dev/null 2>&1 # persistent server; rc 2 if one runs already
    if [ "$fresh" = 1 ]; then
        echo "wine: making the prefix $WINEPREFIX ($WINE_VERSION)"
        if ! timeout 300 "$WINE" wineboot -i </dev/null >/dev/null 2>&1; then
            echo "wine: wineboot -i in $WINEPREFIX failed or timed out" >&2
            return 1
        fi
    else
        timeout 120 "$WINE" cmd /c exit </dev/null >/dev/null 2>&1 # start the services with stdio on /dev/null
    fi
    if [ "$WINE_OWN_PREFIX" = 1 ] && [ ! -f "$WINEPREFIX/.etwconf-prefix" ]; then
        timeout 60 "$WINE" reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' /v Debugger /t REG_SZ /d "" /f </dev/null >/dev/null 2>&1 &&
            timeout 60 "$WINE" reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f </dev/null >/dev/null 2>&1 || {
            echo "wine: cannot set up the prefix's debugger settings" >&2
            return 1
        }
        echo "$want" >"$WINEPREFIX/.etwconf-prefix"
    fi
    return 0
}

# the Windows versions this Wine knows (winecfg's table), one per line; asked once per Wine
known_versions() {
    kv=$L/versions-$(printf '%s %s' "$WINE_PATH" "$WINE_VERSION" | cksum | cut -d' ' -f1).txt
    # a table row is a name and the Windows it stands for ("  win10   Windows 10"), on either stream
    [ -s "$kv" ] || wine_text winecfg '/?' |
        sed -n 's/^[[:space:]]*\(win[a-z0-9]*\|vista\|nt[0-9]*\)[[:space:]]\{1,\}.*Windows.*/\1/p' | awk '!seen[$0]++' >"$kv"
    cat "$kv"
}

# stamp: each results file in $L/stamp.txt (FILE VERSION EXE PREFIX) gets the "runner" in its
# header, and each case's "rerun" reruns it under that Wine, in that prefix, at that version
stamp() {
    [ -s "$L/stamp.txt" ] || return 0
    $PYTHON - "$L/stamp.txt" "$WINE_PATH" "$WINESERVER" "$WINEDEBUG" "$WINE_VERSION" "$HERE/wine.sh" "$WINE_OWN_PREFIX" <<'EOF'
import json, os, shlex, sys
runs, wine, server, debug, wine_version, script, own = sys.argv[1:]
for line in open(runs, encoding="utf-8"):
    path, version, exe, prefix = line.rstrip("\n").split("\t")
    exe = os.path.abspath(exe)
    cmd = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in
                   (("WINE", wine), ("WINESERVER", server), ("WINEPREFIX", prefix), ("WINEDEBUG", debug)))
    cmd += " sh %s rerun %s %s" % (shlex.quote(script), shlex.quote(exe), shlex.quote(version))
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "header":
                r["runner"] = {"wine": wine, "wineserver": server, "wine_version": wine_version, "wineprefix": prefix,
                               "own_prefix": own == "1", "windows_version": version, "exe": exe}
            elif r.get("type") == "case" and r.get("rerun"):
                # the exe's own rerun starts with its Windows path; the options after it are kept
                old = r["rerun"]
                k = old.find(" run ")
                r["rerun"] = cmd + (old[k:] if k >= 0 else " run --case " + r["id"])
            out.append(json.dumps(r, ensure_ascii=False, separators=(",", ":")))
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)
EOF
}

# run_version EXE V OUT
run_version() {
    x=$1 v=$2 out=$3
    if ! wine_version_for "$x" "$v"; then
        echo "wine: setting the Windows version $v for $(basename "$x") failed" >&2
        return 1
    fi
    err=$L/$(basename "$out" .jsonl).stderr
    wine_run 300 "$x" run --quiet --out "$out" 2>"$err" </dev/null
    rc=$?
    summary=$(tr -d '\r' <"$err" | grep -a '^wine@' | tail -n 1)
    tok=$(head -n 1 "$out" 2>/dev/null | grep -o '"elevation_type":"[a-z]*"' | cut -d'"' -f4)
    echo "  $(basename "$x"): ${summary:-wine@$v: no summary (exit $rc; see $err)} (token: ${tok:-unknown})"
    if [ "$rc" -gt 1 ]; then
        echo "wine: $(basename "$x") run at $v exited $rc (see $err)" >&2
        return 1
    fi
    if ! complete "$out"; then
        echo "wine: $out has no complete footer" >&2
        return 1
    fi
    printf '%s\t%s\t%s\t%s\n' "$out" "$v" "$x" "$WINEPREFIX" >>"$L/stamp.txt"
}

# the versions asked for that this Wine does not know: a clear error each, and left out of the run
check_versions() {
    known=$(known_versions | tr '\n' ' ')
    RUN_VERSIONS="" UNKNOWN=""
    for v in $VERSIONS; do
        case " $known " in
            *" $v "*) RUN_VERSIONS="$RUN_VERSIONS $v" ;;
            *) UNKNOWN="$UNKNOWN $v"
               echo "wine: $WINE_VERSION does not know the Windows version '$v' (it knows: ${known% }); left out" >&2 ;;
        esac
    done
    [ -n "$known" ] || echo "wine: could not read the version names from '$WINE winecfg /?'" >&2
    [ -z "$UNKNOWN" ]
}

# run_series EXE PREFIX: EXE at every version asked for -> R/wine-PREFIXVERSION.jsonl; status 1 when
# a run did not complete
run_series() {
    sb=0
    for v in $RUN_VERSIONS; do
        run_version "$1" "$v" "$R/wine-$2$v.jsonl" || sb=1
    done
    return $sb
}

run_all() {
    start=$(date +%s)
    rm -f "$L/stamp.txt"
    echo "wine: $WINE_VERSION ($WINE_PATH, server $WINESERVER), prefix $WINEPREFIX ($([ "$WINE_OWN_PREFIX" = 1 ] && echo "the suite's own" || echo "WINEPREFIX, kept as it is")), WINEDEBUG=$WINEDEBUG"
    prefix_up || return 1
    bad=0
    check_versions || bad=1
    [ -n "$RUN_VERSIONS" ] || return 1
    # One system takes one live run at a time: in the suite's own prefix the 32-bit series runs
    # beside the 64-bit one in a prefix of its own over it (BUILD/wineprefix-i686); in a user's
    # prefix the two take turns.
    i386_probe
    pid32=""
    if [ "$I386" = 1 ] && [ "$WINE_OWN_PREFIX" = 1 ]; then
        # the overlay copies the registry from disk: a prefix just made has it only in its server
        [ -f "$WINEPREFIX/system.reg" ] && [ -f "$WINEPREFIX/user.reg" ] || wine_stop
        (
            wine_overlay "$B/wineprefix-i686" || { echo "wine: cannot make the prefix $B/wineprefix-i686 over $WINEPREFIX" >&2; exit 1; }
            run_series "$I686" i686-; b32=$?
            wine_stop
            exit $b32
        ) >"$L/series-i686.out" 2>&1 &
        pid32=$!
    fi
    run_series "$EXE" "" || bad=1
    if [ -n "$pid32" ]; then
        wait "$pid32" || bad=1
        cat "$L/series-i686.out"
    elif [ "$I386" = 1 ]; then
        run_series "$I686" i686- || bad=1
    else
        echo "wine: etwconf-i686.exe not run: $I386_WHY"
    fi
    stamp || { echo "wine: cannot add the runner and rerun commands to the results ($L/stamp.txt)" >&2; bad=1; }
    echo "wine: $(echo $RUN_VERSIONS | wc -w) version(s) in $(( $(date +%s) - start ))s -> $R/wine-*.jsonl"
    return $bad
}

if [ "$mode" = prefix ]; then
    prefix_up 60
    exit $?
fi
if [ "$mode" = run ]; then
    run_all
    rc=$?
    wine_stop
    exit $rc
fi

# ================================================================ test
OBJDUMP=${OBJDUMP:-x86_64-w64-mingw32-objdump}
D=$B/win64/tests

# 1. the executables: format, imports, manifest (asInvoker; the stage's copies highestAvailable)
for exe in "$B/etwconf.exe" "$B/etwconf-i686.exe" "$EXE" "$I686"; do
    if [ ! -f "$exe" ]; then no "$exe was not built"; continue; fi
    fmt=$($OBJDUMP -f "$exe" 2>/dev/null | sed -n 's/.*file format //p' | head -n 1)
    level=asInvoker; [ "$exe" = "$EXE" ] || [ "$exe" = "$I686" ] && level=highestAvailable
    want=pei-x86-64; case $exe in *-i686.exe) want=pei-i386 ;; esac
    [ "$fmt" = "$want" ] && ok "$exe: $fmt (the ABI static asserts held for this layout)" || no "$exe: format '$fmt', expected $want"
    dlls=$($OBJDUMP -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'a-z' 'A-Z' | sort | tr '\n' ' ')
    [ "$dlls" = "ADVAPI32.DLL KERNEL32.DLL MSVCRT.DLL " ] && ok "$exe imports only from $dlls" || no "$exe imports from: $dlls"
    imports=$(pe_imports "$exe")
    etw=$(printf '%s\n' "$imports" |
        grep -xE 'TraceQueryInformation|TraceSetInformation|EventSetInformation|CreateTraceInstanceId|EventRegister|EventUnregister|RegisterTraceGuids[AW]|UnregisterTraceGuids|StartTrace[AW]|ControlTrace[AW]|QueryAllTraces[AW]|Etw[A-Za-z]*|Nt[A-Z][A-Za-z]*|Zw[A-Z][A-Za-z]*|RtlGetVersion|IsWow64Process2?' | tr '\n' ' ')
    if ! printf '%s\n' "$imports" | grep -qx GetProcAddress; then
        no "$exe: $OBJDUMP -p lists $(printf '%s\n' "$imports" | grep -c .) imported functions, GetProcAddress not among them: its import table could not be read"
    elif [ -z "$etw" ]; then ok "$exe: no static import of an API under test among its $(printf '%s\n' "$imports" | grep -c .) imports (all through GetProcAddress)"
    else no "$exe statically imports: $etw"
    fi
    n=0
    for g in e2011457-1546-43c5-a5fe-008deee3d3f0 35138b9a-5d96-4fbd-8e2d-a2440225f93a 4a2f28e3-53b9-4441-ba9c-d69d4a4a6e38 \
        1f676c76-80e1-4239-95bb-83d0f6d0da78 8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a "level=\"$level\""; do
        grep -aq "$g" "$exe" && n=$((n + 1))
    done
    [ "$n" = 6 ] && ok "$exe: manifest with the supportedOS GUIDs Vista..10 and $level" || no "$exe: manifest incomplete ($n of 6 markers, level $level)"
done

# a wrapper standing in for a build tree's wine, in a prefix of the user's (over the suite's, or
# made by Wine), runs beside the main runs; checked in section 5. The overlay copies the registry
# from disk: a prefix just made has it only in its server.
WRAP=$L/wrapper
rm -rf "$WRAP"
mkdir -p "$WRAP"
[ "$WINE_OWN_PREFIX" = 1 ] && { [ -f "$WINEPREFIX/system.reg" ] && [ -f "$WINEPREFIX/user.reg" ] || wine_stop; }
(wine_overlay "$WRAP/prefix") || mkdir -p "$WRAP/prefix"
echo "a file of the user's" >"$WRAP/prefix/user-file"
cat >"$WRAP/wine" <<EOF
#!/bin/sh
printf '%s\n' "WINEPREFIX=\$WINEPREFIX WINEDEBUG=\$WINEDEBUG: \$*" >>"$(cd "$WRAP" && pwd)/calls.log"
exec "$WINE_PATH" "\$@"
EOF
chmod +x "$WRAP/wine"
(
    unset WINE WINESERVER WINEPREFIX WINE_OWN_PREFIX WINEARCH
    wp=$(cd "$WRAP" && pwd)
    WINEDEBUG=fixme-all WINE_RESULTS=$WRAP/results WINE_LOGS=$WRAP/logs WINE32=0 ${MAKE:-make} --no-print-directory -s wine \
        WINE="$wp/wine" WINEPREFIX="$wp/prefix" BUILD="$B" WINE_VERSIONS=win2008r2 >"$WRAP/make.log" 2>&1 </dev/null
    echo $? >"$WRAP/make.rc"
) &
WRAP_PID=$!

# 2. every version; complete_runs PREFIX: how many of RUN_VERSIONS have a complete results file
complete_runs() {
    cr=0
    for v in $RUN_VERSIONS; do complete "$R/wine-$1$v.jsonl" && cr=$((cr + 1)); done
    echo "$cr"
}
run_all; all_rc=$?
planned=$(echo $VERSIONS | wc -w)
every "$(complete_runs "")" "$planned" "etwconf.exe ran at every version asked for, complete:$RUN_VERSIONS" \
    "${UNKNOWN:+unknown to this Wine:$UNKNOWN; }see $L/*.stderr"
[ "$all_rc" = 0 ] || no "the Wine runs did not all complete (wine.sh run exit $all_rc)"
if [ "$I386" = 1 ]; then
    every "$(complete_runs i686-)" "$planned" "this machine runs i386 code and Wine ran etwconf-i686.exe at every version, complete" \
        "see $L/*.stderr"
else
    skip "etwconf-i686.exe at every version: $I386_WHY"
fi

# 3. the platform layer with misbehaving targets (Wine is at the last version now)
W() { wine_run 120 "$EXE" "$@" </dev/null; }
T=$L/platform
mkdir -p "$T"
for dll in crash stub overrun handled refused slowreset spin block; do
    [ -f "$D/$dll.dll" ] || no "$D/$dll.dll was not built"
done
# bg NAME ARGS...: etwconf.exe ARGS in the background (most of a run's time is Wine's waiting),
# --out T/NAME.jsonl, stderr T/NAME.err, exit status T/NAME.rc, start and end seconds T/NAME.time
bg() {
    name=$1; shift
    rm -f "$T/$name.jsonl" "$T/$name.rc"
    (s=$(date +%s); W "$@" --quiet --out "$T/$name.jsonl" 2>"$T/$name.err"; echo $? >"$T/$name.rc"; echo "$s $(date +%s)" >"$T/$name.time") &
}
took() { awk '{ print $2 - $1 }' "$T/$1.time" 2>/dev/null || echo "?"; }
bg crash run --target "$D/crash.dll" --filter 'tqi.0b.*'
bg stub run --target "$D/stub.dll" --filter 'tqi.0b.*'
bg overrun run --target "$D/overrun.dll" --filter 'tqi.0b.*'
bg handled run --target "$D/handled.dll" --filter 'tqi.0b.*'
bg refused run --target "$D/refused.dll" --filter 'tqi.0b.*'
bg slowreset run --target "$D/slowreset.dll" --case tqi.0b.exact --timeout-ms 500
bg slowreset-budget run --target "$D/slowreset.dll" --case tqi.0b.exact --timeout-ms 500 --fixture-timeout-ms 700
bg slowreset-inproc run --target "$D/slowreset.dll" --case tqi.0b.exact --timeout-ms 500 --fixture-timeout-ms 700 --isolation inproc
bg spin run --target "$D/spin.dll" --case tqi.0b.exact --case tqi.0b.short --case tqi.0b.long --timeout-ms 300
bg block run --target "$D/block.dll" --case tqi.0b.exact --case tqi.0b.short --timeout-ms 300
bg child-crash run --target "$D/crash.dll" --case tqi.0b.exact --case tqi.0b.short --isolation child
bg child-stub run --target "$D/stub.dll" --case tqi.0b.exact --isolation child
bg child-overrun run --target "$D/overrun.dll" --case tqi.0b.exact --isolation child
bg child-block run --target "$D/block.dll" --case tqi.0b.exact --isolation child --timeout-ms 300
wait
# the live runs: one at a time on a system (a second live run is refused while one tests it)
W run --filter 'tqi.0b.*' --isolation child --quiet --out "$T/child-live.jsonl" 2>/dev/null
W run --filter 'tqi.0b.*' --quiet --out "$T/inproc-live.jsonl" 2>/dev/null
rc=$(rc_of "$T/crash.rc")
n=$(count "$T/crash.jsonl" CRASH)
[ "$n" -ge 5 ] && [ "$n" = "$(grep -c '"exception":"0xC0000005"' "$T/crash.jsonl")" ] && complete "$T/crash.jsonl" && [ "$rc" = 1 ] &&
    ok "crash.dll: $n access violations caught in-process, CRASH 0xC0000005, run complete, exit 1" || no "crash.dll: $n CRASH records, exit $rc"
n=$(grep -c '"status":"CRASH".*"exception":"0x80000100"' "$T/stub.jsonl")
[ "$n" -ge 5 ] && complete "$T/stub.jsonl" && ok "stub.dll: $n EXCEPTION_WINE_STUB raised, CRASH 0x80000100" || no "stub.dll: $n CRASH 0x80000100 records"
n=$(grep -c '"status":"FAIL".*"mode":"overrun"' "$T/overrun.jsonl")
[ "$n" -ge 3 ] && grep -q '"rule":"GEN.BUFFER_BOUNDS","expected":"no write past the buffer","got":"a write 1 byte(s) past the end"' "$T/overrun.jsonl" &&
    ok "overrun.dll: the guard page catches the write past the buffer ($n FAIL, mode overrun, offset 0)" || no "overrun.dll: $n overrun FAILs"
n=$(count "$T/handled.jsonl" CRASH)
[ "$n" = 0 ] && grep -q '"got":"998 (ERROR_NOACCESS)"' "$T/handled.jsonl" && ok "handled.dll: an exception the target handles itself is not a crash (FAIL, 998)" \
    || no "handled.dll: $n CRASH records for handled exceptions"
n=$(grep -c '"status":"FAIL".*"mode":"overrun"' "$T/refused.jsonl")
[ "$n" -ge 3 ] && [ "$(count "$T/refused.jsonl" CRASH)" = 0 ] &&
    grep -q '"got":"an access past the end; with room after the buffer the call wrote 4 byte(s) past it"' "$T/refused.jsonl" &&
    ok "refused.dll: a write past the buffer refused with 998, as Windows does from kernel mode, is the same overrun ($n FAIL, mode overrun)" ||
    no "refused.dll: $n overrun FAILs"
n=$(($(count "$T/slowreset.jsonl" TIMEOUT) + $(count "$T/slowreset.jsonl" BROKEN)))
[ "$n" = 0 ] && complete "$T/slowreset.jsonl" &&
    ok "slowreset.dll: a fixture (the reset) longer than --timeout-ms does not make the call a TIMEOUT" ||
    no "slowreset.dll: $n TIMEOUT or BROKEN records with the fixture within its budget"
[ "$(count "$T/slowreset-budget.jsonl" TIMEOUT)" = 0 ] && [ "$(count "$T/slowreset-budget.jsonl" BROKEN)" = 1 ] &&
    grep -q 'did not finish within its budget of 700 ms' "$T/slowreset-budget.jsonl" &&
    ok "slowreset.dll: a fixture past --fixture-timeout-ms is BROKEN, not a TIMEOUT (its worker killed)" ||
    no "slowreset.dll: a fixture past its budget: $(grep -o '"status":"[A-Z]*"' "$T/slowreset-budget.jsonl" | tr '\n' ' ')"
[ "$(count "$T/slowreset-inproc.jsonl" BROKEN)" = 1 ] && grep -q 'within its budget of 700 ms; it was interrupted' "$T/slowreset-inproc.jsonl" &&
    ok "slowreset.dll (inproc): the watchdog ends a fixture past its budget as BROKEN, not a TIMEOUT" ||
    no "slowreset.dll (inproc): $(grep -o '"status":"[A-Z]*"' "$T/slowreset-inproc.jsonl" | tr '\n' ' ')"
n=$(count "$T/spin.jsonl" TIMEOUT)
[ "$n" = 3 ] && complete "$T/spin.jsonl" && ok "spin.dll: a busy hang is interrupted by the watchdog: 3 TIMEOUT in $(took spin)s" || no "spin.dll: $n TIMEOUT records"
rc=$(rc_of "$T/block.rc")
n=$(count "$T/block.jsonl" TIMEOUT)
[ "$n" = 2 ] && complete "$T/block.jsonl" && [ "$rc" = 1 ] && ok "block.dll: a thread blocked in the system is given up: 2 TIMEOUT, run complete in $(took block)s" \
    || no "block.dll: $n TIMEOUT records, exit $rc"
[ "$(grep -c '"status":"CRASH".*"exception":"0xC0000005"' "$T/child-crash.jsonl")" = 2 ] && ok "child isolation: the child's exit code 0xC0000005 is the CRASH's exception" \
    || no "child isolation: crash.dll not reported"
grep -q '"status":"CRASH".*"exception":"0x80000100"' "$T/child-stub.jsonl" && ok "child isolation: a child ending with 0x80000100 is a CRASH 0x80000100" \
    || no "child isolation: stub.dll not reported"
grep -q '"status":"FAIL".*"mode":"overrun"' "$T/child-overrun.jsonl" && ok "child isolation: the guard page works in the child" || no "child isolation: overrun not reported"
grep -q '"status":"TIMEOUT"' "$T/child-block.jsonl" && complete "$T/child-block.jsonl" && ok "child isolation: a hanging child is killed: TIMEOUT" || no "child isolation: hang not reported"
W run --target reference --quiet --out "$T/ref.jsonl" 2>"$T/ref.err"; rc=$?
[ "$rc" = 3 ] && grep -q "not part of etwconf.exe" "$T/ref.err" && ok "--target reference: exit 3, the exe tests the live system" || no "--target reference: exit $rc"
W cleanup >"$T/cleanup.out" 2>&1; rc=$?
[ "$rc" = 0 ] && tr -d '\r' <"$T/cleanup.out" | grep -q "nothing left behind" && ok "cleanup: exit 0, nothing left behind" || no "cleanup: exit $rc: $(tr -d '\r' <"$T/cleanup.out" | tail -n 1)"
W help 2>/dev/null | tr -d '\r' | grep -q "^  cleanup " && ok "help lists the cleanup command" || no "help does not list cleanup"

# 4. the version names
first=$(echo $RUN_VERSIONS | cut -d' ' -f1)
if [ -n "$first" ]; then
    printf '%s\n' $(known_versions) | grep -qx win2003 && ok "winecfg's version names are accepted: $(known_versions | tr '\n' ' ')" \
        || no "could not read the version names of $WINE_VERSION"
    WINE_RESULTS=$T/unknown sh "$HERE/wine.sh" run "$B" "win9000" >"$T/unknown.out" 2>&1; rc=$?
    [ "$rc" != 0 ] && grep -q "does not know the Windows version 'win9000' (it knows: " "$T/unknown.out" && [ ! -f "$T/unknown/wine-win9000.jsonl" ] &&
        ok "an unknown version name is an error naming the ones $WINE_VERSION knows (exit $rc)" || no "unknown version name: exit $rc: $(tail -n 1 "$T/unknown.out")"
fi

# 5. the wrapper: make wine WINE=wrapper WINEPREFIX=DIR used that binary and that prefix
wait "$WRAP_PID"
wrc=$(rc_of "$WRAP/make.rc")
wp=$(cd "$WRAP" && pwd)
calls=$(grep -c "^WINEPREFIX=$wp/prefix WINEDEBUG=fixme-all: " "$WRAP/calls.log" 2>/dev/null)
others=$(grep -vc "^WINEPREFIX=$wp/prefix " "$WRAP/calls.log" 2>/dev/null)
runs=$(grep -c ' run --quiet --out ' "$WRAP/calls.log" 2>/dev/null)
# a start that failed for a reason of the host was run again (wine_run, wine-env.sh): one more call each
retried=$(grep -F " $wp/wine " "$WINE_START_LOG" 2>/dev/null | grep -c ' run --quiet --out ')
calls=${calls:-0} others=${others:-0} runs=${runs:-0}
[ "$wrc" = 0 ] && [ "$calls" -ge 4 ] && [ "$others" = 0 ] && [ "$runs" = $((1 + retried)) ] &&
    ok "make wine WINE=wrapper WINEPREFIX=DIR: all $calls Wine calls went through the wrapper, in DIR, with the user's WINEDEBUG ($runs runs)" ||
    no "make wine WINE=wrapper WINEPREFIX=DIR: exit $wrc, $calls calls through the wrapper in DIR, $others elsewhere, $runs runs ($retried retried): $(tail -n 2 "$WRAP/make.log" | tr '\n' ' ')"
# Wine saved the last run's version (no run of the suite's own sweep sets win2008r2) in its registry
[ -f "$WRAP/prefix/user-file" ] && grep -qF '"Version"="win2008r2"' "$WRAP/prefix/user.reg" 2>/dev/null && [ ! -f "$WRAP/prefix/.etwconf-prefix" ] &&
    ok "the user's prefix is used as it is: their file kept, Wine's registry there holds the run's version, no stamp of the suite's own prefix" ||
    no "the user's prefix was changed or not used"
(WINEPREFIX=$wp/prefix; wine_stop)
rm -rf "$WRAP/prefix"

# 6. the results in one Python process: the files, the fingerprint, what Wine is known to do, the
# child and in-process runs, the rerun command, the wrapper's results, Wine's test format, and the
# results against the known divergences (reports/expectations/wine.json, both arches)
files=""
for v in $RUN_VERSIONS; do
    files="$files $R/wine-$v.jsonl"
    [ "$I386" = 1 ] && files="$files $R/wine-i686-$v.jsonl"
done
sha=$(sha256sum "$EXE" | cut -d' ' -f1)
sha32=$(sha256sum "$I686" 2>/dev/null | cut -d' ' -f1)
# the case table, with each case's fixture: the Linux build's, of the same sources (no Wine start)
"$B/etwconf" list --json >"$L/cases.json" 2>"$L/cases.err" || no "$B/etwconf list --json failed: $(tail -n 1 "$L/cases.err")"
rm -f "$L/expectations.out"
export WINE_PATH C_T="$T" C_R="$R" C_L="$L" C_FIRST="$first" C_WP="$wp"
out=$(WINE_VERSION=$WINE_VERSION $PYTHON "$HERE/wine_results.py" "$sha" "$L/cases.json" "$sha32" $files 2>&1)
prc=$?
show "$out"
[ "$prc" = 0 ] || no "the checks of the results ended with exit $prc"
x=$L/expectations.out
if [ -f "$x" ]; then
    cat "$x" "$x.err"
    f0=$fail
    add_counts "$x" && [ "$(cat "$x.rc")" != 0 ] && [ "$fail" = "$f0" ] &&
        no "etwconf-report check exited $(cat "$x.rc") without counting a failure"
else
    no "the results were not checked against reports/expectations/wine.json"
fi
finish
