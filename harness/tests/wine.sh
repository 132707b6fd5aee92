#!/bin/sh
# harness/tests/wine.sh run|test|prefix BUILD "VERSIONS" - etwconf.exe under Wine (mk/windows.mk).
#
#   prefix  only set up the prefix, and leave its wineserver running for a minute (make test-wine
#           does this while the executables build; the test then finds the prefix current)
#   run   set up the prefix BUILD/wineprefix (made once per Wine version, headless, no debugger),
#         then for each winecfg version: AppDefaults\\etwconf.exe Version = V; etwconf.exe run -> BUILD/results/wine-V.jsonl
#   test  run, then check the Windows platform layer (imports, manifest, fingerprint, crash, hang,
#         overrun and child isolation with misbehaving DLLs, cleanup) and the results against the
#         known divergences in reports/expectations/wine.json. Last line: "wine: N passed, N failed, N skipped".
#
# Traps avoided (../shared/notes/wine-ci.md section 6): no DISPLAY (a crash dialog would hang), AeDebug
# Debugger="" (no winedbg), the first wine command gets stdio on /dev/null (background services
# would hold pipes open), a timeout on every wine command, CRLF stripped, the server killed at the end.
# WINE_FRESH=1 makes a new prefix even if the one in BUILD is current.
set -u
mode=${1:-}
B=${2:-build}
VERSIONS=${3:-"winxp64 vista win7 win8 win81 win10"}
PYTHON=${PYTHON:-python3}
EXE=$B/etwconf.exe
R=$B/results
L=$B/test/wine
case "$mode" in run | test | prefix) ;; *) echo "usage: harness/tests/wine.sh run|test|prefix BUILD [VERSIONS]" >&2; exit 2 ;; esac

. "$(dirname "$0")/lib.sh"
finish() {
    if [ "$mode" = test ]; then summary wine; else [ "$fail" = 0 ]; fi
    exit $?
}

if ! command -v wine >/dev/null 2>&1 || ! command -v wineserver >/dev/null 2>&1; then
    no "Wine is not installed: run 'sh .ci/deps.sh windows' as root (make test does it)"
    finish
fi
mkdir -p "$R" "$L" "$B"
. harness/tests/wine-env.sh

stop_server() { timeout 20 wineserver -k >/dev/null 2>&1; timeout 20 wineserver -w >/dev/null 2>&1; }
if [ "$mode" != prefix ]; then
    trap 'stop_server' EXIT
    trap 'stop_server; exit 130' INT TERM
    if [ ! -f "$EXE" ]; then
        no "$EXE is missing: run 'make windows'"
        finish
    fi
fi

# ---------------------------------------------------------------- the prefix
# prefix_up [SECONDS]: the wineserver stays up SECONDS after its last client (default: until stopped)
prefix_up() {
    want="$(wine --version 2>/dev/null) etwconf-prefix-1"
    fresh=0
    if [ "${WINE_FRESH:-0}" = 1 ] || [ ! -f "$WINEPREFIX/system.reg" ] || [ "$(cat "$WINEPREFIX/.etwconf-prefix" 2>/dev/null)" != "$want" ]; then
        stop_server
        rm -rf "$WINEPREFIX"
        mkdir -p "$WINEPREFIX"
        fresh=1
    fi
    timeout 30 wineserver -p${1:-} >/dev/null 2>&1 # persistent server; rc 2 if one runs already
    if [ "$fresh" = 1 ]; then
        echo "wine: making the prefix $WINEPREFIX ($(wine --version 2>/dev/null))"
        if ! timeout 300 wineboot -i >/dev/null 2>&1; then
            echo "wine: wineboot -i failed or timed out" >&2
            return 1
        fi
        timeout 60 wine reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' /v Debugger /t REG_SZ /d "" /f >/dev/null 2>&1 &&
            timeout 60 wine reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f >/dev/null 2>&1 || {
            echo "wine: cannot set up the prefix's debugger settings" >&2
            return 1
        }
        echo "$want" >"$WINEPREFIX/.etwconf-prefix"
    else
        timeout 120 wine cmd /c exit >/dev/null 2>&1 # start the services with stdio on /dev/null
    fi
    return 0
}

# ---------------------------------------------------------------- one version
run_version() {
    v=$1
    # the version for this exe only (AppDefaults wins over the prefix's winecfg setting): 0.4 s,
    # where 'winecfg -v' takes 2 s and was 95% of the sweep (bench/)
    if ! timeout 60 wine reg add "HKCU\\Software\\Wine\\AppDefaults\\$(basename "$EXE")" /v Version /t REG_SZ /d "$v" /f >/dev/null 2>&1; then
        echo "wine: setting the Windows version $v for $(basename "$EXE") failed" >&2
        return 1
    fi
    timeout 300 wine "$EXE" run --quiet --out "$R/wine-$v.jsonl" 2>"$L/wine-$v.stderr"
    rc=$?
    summary=$(tr -d '\r' <"$L/wine-$v.stderr" | grep -a '^wine@' | tail -n 1)
    echo "  ${summary:-wine@$v: no summary (exit $rc; see $L/wine-$v.stderr)}"
    if [ "$rc" -gt 1 ]; then
        echo "wine: etwconf.exe run at $v exited $rc (see $L/wine-$v.stderr)" >&2
        return 1
    fi
    if ! tail -n 1 "$R/wine-$v.jsonl" | grep -q '"type":"footer".*"complete":true'; then
        echo "wine: $R/wine-$v.jsonl has no complete footer" >&2
        return 1
    fi
    return 0
}

run_all() {
    start=$(date +%s)
    prefix_up || return 1
    bad=0
    for v in $VERSIONS; do
        run_version "$v" || bad=1
    done
    echo "wine: $(echo $VERSIONS | wc -w) version(s) in $(( $(date +%s) - start ))s -> $R/wine-*.jsonl"
    return $bad
}

if [ "$mode" = prefix ]; then
    prefix_up 60
    exit $?
fi
if [ "$mode" = run ]; then
    run_all
    rc=$?
    stop_server
    exit $rc
fi

# ================================================================ test
OBJDUMP=${OBJDUMP:-x86_64-w64-mingw32-objdump}
I686=$B/etwconf-i686.exe
D=$B/win64/tests

# 1. the executables: format, imports, manifest
for exe in "$EXE" "$I686"; do
    if [ ! -f "$exe" ]; then no "$exe was not built"; continue; fi
    fmt=$($OBJDUMP -f "$exe" 2>/dev/null | sed -n 's/.*file format //p' | head -n 1)
    want=pei-x86-64; [ "$exe" = "$I686" ] && want=pei-i386
    [ "$fmt" = "$want" ] && ok "$exe: $fmt (the ABI static asserts held for this layout)" || no "$exe: format '$fmt', expected $want"
    dlls=$($OBJDUMP -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'a-z' 'A-Z' | sort | tr '\n' ' ')
    [ "$dlls" = "ADVAPI32.DLL KERNEL32.DLL MSVCRT.DLL " ] && ok "$exe imports only from $dlls" || no "$exe imports from: $dlls"
    etw=$($OBJDUMP -p "$exe" | awk 'NF >= 3 && $2 ~ /^[0-9]+$/ {print $3}' |
        grep -xE 'TraceQueryInformation|TraceSetInformation|EventSetInformation|CreateTraceInstanceId|EventRegister|EventUnregister|RegisterTraceGuids[AW]|UnregisterTraceGuids|StartTrace[AW]|ControlTrace[AW]|QueryAllTraces[AW]|Etw[A-Za-z]*|Nt[A-Z][A-Za-z]*|Zw[A-Z][A-Za-z]*|RtlGetVersion|IsWow64Process2?' | tr '\n' ' ')
    [ -z "$etw" ] && ok "$exe: no static import of an API under test (all through GetProcAddress)" || no "$exe statically imports: $etw"
    n=0
    for g in e2011457-1546-43c5-a5fe-008deee3d3f0 35138b9a-5d96-4fbd-8e2d-a2440225f93a 4a2f28e3-53b9-4441-ba9c-d69d4a4a6e38 \
        1f676c76-80e1-4239-95bb-83d0f6d0da78 8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a asInvoker; do
        grep -aq "$g" "$exe" && n=$((n + 1))
    done
    [ "$n" = 6 ] && ok "$exe: manifest with the supportedOS GUIDs Vista..10 and asInvoker" || no "$exe: manifest incomplete ($n of 6 markers)"
done

# 2. every version
if run_all; then ok "etwconf.exe ran at every version: $VERSIONS"; else no "the Wine runs did not all complete"; fi

# 3. the results files, the fingerprint, and what the issue requires of Wine's results
files=""
for v in $VERSIONS; do files="$files $R/wine-$v.jsonl"; done
exe_sha=$(sha256sum "$EXE" | cut -d' ' -f1)
# the case table of the exe that ran, with each case's fixture (etwconf list --json)
timeout 60 wine "$EXE" list --json >"$L/cases.json" 2>"$L/cases.err" || no "etwconf.exe list --json failed: $(tr -d '\r' <"$L/cases.err" | tail -n 1)"
out=$($PYTHON - "$exe_sha" "$L/cases.json" $files <<'EOF'
import json, sys
sha = sys.argv[1]
NT = {"winxp64": "5.2", "vista": "6.0", "win7": "6.1", "win8": "6.2", "win81": "6.3", "win10": "10.0"}
# the cases that need an ETW session (a logger fixture)
try:
    table = json.load(open(sys.argv[2], encoding="utf-8"))
except Exception as e:
    print("FAIL %s: unreadable case list (%s)" % (sys.argv[2], e))
    table = []
logger_cases = {c["id"] for c in table if c["fixture"]["logger"] or c["fixture"]["logger2"]}
def say(ok, msg):
    print(("ok   " if ok else "FAIL ") + msg)
runs = {}
for f in sys.argv[3:]:
    v = f.rsplit("wine-", 1)[1][:-6]
    try:
        recs = [json.loads(l) for l in open(f, encoding="utf-8")]
    except Exception as e:
        say(False, "%s: unreadable (%s)" % (f, e)); continue
    h, ft, cases = recs[0], recs[-1], [r for r in recs if r.get("type") == "case"]
    fp = h.get("fingerprint", {})
    good = (h.get("type") == "header" and h["target"]["impl"] == "wine" and h["target"]["version"] == v
            and h["target"]["nt_version"] == NT.get(v) and h["target_id"] == "wine@" + v
            and ft.get("type") == "footer" and ft.get("complete") is True and ft.get("exit_code") in (0, 1)
            and h.get("cases_planned") == len(cases) == h["suite"]["cases"])
    say(good, "%s: wine@%s, NT %s, %d cases, complete" % (f, v, h["target"].get("nt_version"), len(cases)))
    fpok = (fp.get("wine_version") and fp.get("exe_sha256") == sha and fp.get("rtl_version", "").startswith(NT.get(v, "?") + ".")
            and fp.get("native_arch") == "x86_64" and fp.get("process_arch") == "x86_64" and fp.get("wow64") is False
            and "elevated" in fp and "privileges" in fp and fp.get("suite_version"))
    say(bool(fpok), "%s: fingerprint (RtlGetVersion %s, Wine %s on %s, exe SHA-256 matches)" % (f, fp.get("rtl_version"), fp.get("wine_version"), fp.get("wine_host")))
    runs[v] = {c["id"]: c for c in cases}
def got_has(c, s):
    return any(s in (k.get("got") or "") for k in c.get("checks", []) if not k.get("ok"))
w10 = runs.get("win10")
if w10:
    tqi_crash = [c for c in w10.values() if c["function"] == "TraceQueryInformation" and c["status"] == "CRASH"]
    say(len(tqi_crash) >= 20 and all(c["exception"] == "0x80000100" and c["mode"] == "exception" for c in tqi_crash),
        "win10: %d TraceQueryInformation cases reach sechost's stub: CRASH 0x80000100" % len(tqi_crash))
    reached = [c for c in w10.values() if c["function"] == "TraceQueryInformation" and c["status"] not in ("CRASH", "SKIP", "BROKEN")
               and not c["id"].startswith("exp.")]
    say(not reached, "win10: no TraceQueryInformation call case ends otherwise%s" % (": " + " ".join(c["id"] for c in reached) if reached else ""))
    for cid in ("gmi.not-found-query", "gmi.not-found-kernel", "ksi.short-query", "ksi.unknown-class-query", "ksi.set-only-class-query", "tpi.query"):
        c = w10.get(cid)
        say(bool(c) and c["status"] == "FAIL" and got_has(c, "0xC0000003"), "win10: %s FAILs with 0xC0000003 observed" % cid)
    c = w10.get("traits.once")
    say(bool(c) and c["status"] == "FAIL" and got_has(c, "0"), "win10: traits.once FAILs (Wine returns 0 for the second set)")
    cti = [c for c in w10.values() if c["function"] in ("CreateTraceInstanceId", "EtwCreateTraceInstanceId")]
    say(bool(cti) and all(c["status"] in ("FAIL", "SKIP") and (c["status"] == "SKIP" or c["mode"] == "missing-export") for c in cti)
        and w10.get("exp.advapi32.cti", {}).get("mode") == "missing-export",
        "win10: CreateTraceInstanceId is reported missing (%d cases FAIL, mode missing-export)" % sum(c["status"] == "FAIL" for c in cti))
w7 = runs.get("win7")
if w7:
    c = w7.get("exp.advapi32.tqi")
    say(bool(c) and c["status"] == "PASS", "win7: exp.advapi32.tqi PASSes (TraceQueryInformation arrives in advapi32 at 6.2)")
passed_fixture = ["%s@%s" % (c, v) for v, cs in runs.items() for c in sorted(logger_cases) if cs.get(c, {}).get("status") == "PASS"]
say(len(logger_cases) > 30 and not passed_fixture,
    "no case that needs an ETW session (%d cases) PASSes under Wine%s" % (len(logger_cases), ": " + " ".join(passed_fixture) if passed_fixture else ""))
broken = [c for cs in runs.values() for c in cs.values() if c["status"] == "BROKEN"]
say(all(c["id"] in logger_cases or c["id"] == "tqi.05.timer" for c in broken) and all((c.get("reason") or "").startswith(("fixture:", "reference value:")) for c in broken),
    "every BROKEN case (%d) is a fixture Wine cannot provide, with the reason" % len(broken))
EOF
)
echo "$out"
tally "$out"

# 4. the platform layer with misbehaving targets (Wine is at the last version now)
W() { timeout 120 wine "$EXE" "$@"; }
status() { grep -o "\"status\":\"$2\"" "$1" | wc -l | tr -d ' '; }
complete() { tail -n 1 "$1" | grep -q '"type":"footer".*"complete":true'; }
T=$L/platform
mkdir -p "$T"
for dll in crash stub overrun handled spin block; do
    [ -f "$D/$dll.dll" ] || no "$D/$dll.dll was not built"
done
W run --target "$D/crash.dll" --filter 'tqi.0b.*' --quiet --out "$T/crash.jsonl" 2>"$T/crash.err"; rc=$?
n=$(status "$T/crash.jsonl" CRASH)
[ "$n" -ge 5 ] && [ "$n" = "$(grep -c '"exception":"0xC0000005"' "$T/crash.jsonl")" ] && complete "$T/crash.jsonl" && [ "$rc" = 1 ] &&
    ok "crash.dll: $n access violations caught in-process, CRASH 0xC0000005, run complete, exit 1" || no "crash.dll: $n CRASH records, exit $rc"
W run --target "$D/stub.dll" --filter 'tqi.0b.*' --quiet --out "$T/stub.jsonl" 2>"$T/stub.err"
n=$(grep -c '"status":"CRASH".*"exception":"0x80000100"' "$T/stub.jsonl")
[ "$n" -ge 5 ] && complete "$T/stub.jsonl" && ok "stub.dll: $n EXCEPTION_WINE_STUB raised, CRASH 0x80000100" || no "stub.dll: $n CRASH 0x80000100 records"
W run --target "$D/overrun.dll" --filter 'tqi.0b.*' --quiet --out "$T/overrun.jsonl" 2>"$T/overrun.err"
n=$(grep -c '"status":"FAIL".*"mode":"overrun"' "$T/overrun.jsonl")
[ "$n" -ge 3 ] && grep -q '"rule":"GEN.BUFFER_BOUNDS","expected":"no write past the buffer","got":"a write 1 byte(s) past the end"' "$T/overrun.jsonl" &&
    ok "overrun.dll: the guard page catches the write past the buffer ($n FAIL, mode overrun, offset 0)" || no "overrun.dll: $n overrun FAILs"
W run --target "$D/handled.dll" --filter 'tqi.0b.*' --quiet --out "$T/handled.jsonl" 2>"$T/handled.err"
n=$(status "$T/handled.jsonl" CRASH)
[ "$n" = 0 ] && grep -q '"got":"998 (ERROR_NOACCESS)"' "$T/handled.jsonl" && ok "handled.dll: an exception the target handles itself is not a crash (FAIL, 998)" \
    || no "handled.dll: $n CRASH records for handled exceptions"
s=$(date +%s)
W run --target "$D/spin.dll" --case tqi.0b.exact --case tqi.0b.short --case tqi.0b.long --timeout-ms 300 --quiet --out "$T/spin.jsonl" 2>"$T/spin.err"
n=$(status "$T/spin.jsonl" TIMEOUT)
[ "$n" = 3 ] && complete "$T/spin.jsonl" && ok "spin.dll: a busy hang is interrupted by the watchdog: 3 TIMEOUT in $(( $(date +%s) - s ))s" || no "spin.dll: $n TIMEOUT records"
s=$(date +%s)
W run --target "$D/block.dll" --case tqi.0b.exact --case tqi.0b.short --timeout-ms 300 --quiet --out "$T/block.jsonl" 2>"$T/block.err"; rc=$?
n=$(status "$T/block.jsonl" TIMEOUT)
[ "$n" = 2 ] && complete "$T/block.jsonl" && [ "$rc" = 1 ] && ok "block.dll: a thread blocked in the system is given up: 2 TIMEOUT, run complete in $(( $(date +%s) - s ))s" \
    || no "block.dll: $n TIMEOUT records, exit $rc"
W run --target "$D/crash.dll" --case tqi.0b.exact --case tqi.0b.short --isolation child --quiet --out "$T/child-crash.jsonl" 2>/dev/null
[ "$(grep -c '"status":"CRASH".*"exception":"0xC0000005"' "$T/child-crash.jsonl")" = 2 ] && ok "child isolation: the child's exit code 0xC0000005 is the CRASH's exception" \
    || no "child isolation: crash.dll not reported"
W run --target "$D/stub.dll" --case tqi.0b.exact --isolation child --quiet --out "$T/child-stub.jsonl" 2>/dev/null
grep -q '"status":"CRASH".*"exception":"0x80000100"' "$T/child-stub.jsonl" && ok "child isolation: a child ending with 0x80000100 is a CRASH 0x80000100" \
    || no "child isolation: stub.dll not reported"
W run --target "$D/overrun.dll" --case tqi.0b.exact --isolation child --quiet --out "$T/child-overrun.jsonl" 2>/dev/null
grep -q '"status":"FAIL".*"mode":"overrun"' "$T/child-overrun.jsonl" && ok "child isolation: the guard page works in the child" || no "child isolation: overrun not reported"
W run --target "$D/block.dll" --case tqi.0b.exact --isolation child --timeout-ms 300 --quiet --out "$T/child-block.jsonl" 2>/dev/null
grep -q '"status":"TIMEOUT"' "$T/child-block.jsonl" && complete "$T/child-block.jsonl" && ok "child isolation: a hanging child is killed: TIMEOUT" || no "child isolation: hang not reported"
W run --filter 'tqi.0b.*' --isolation child --quiet --out "$T/child-live.jsonl" 2>/dev/null
W run --filter 'tqi.0b.*' --quiet --out "$T/inproc-live.jsonl" 2>/dev/null
same=$($PYTHON - "$T/child-live.jsonl" "$T/inproc-live.jsonl" <<'EOF'
import json, sys
def load(p):
    return {r["id"]: (r["status"], r.get("mode"), r.get("exception")) for r in map(json.loads, open(p)) if r["type"] == "case"}
a, b = load(sys.argv[1]), load(sys.argv[2])
print("yes %d" % len(a) if a == b and a else "no: " + str([k for k in a if a[k] != b.get(k)]))
EOF
)
case "$same" in yes*) ok "child isolation: the live tqi.0b.* cases end the same in a child per case as in-process (${same#yes } cases)" ;;
    *) no "child isolation and in-process disagree: $same" ;; esac
W run --target reference --quiet --out "$T/ref.jsonl" 2>"$T/ref.err"; rc=$?
[ "$rc" = 3 ] && grep -q "not part of etwconf.exe" "$T/ref.err" && ok "--target reference: exit 3, the exe tests the live system" || no "--target reference: exit $rc"
W cleanup >"$T/cleanup.out" 2>&1; rc=$?
[ "$rc" = 0 ] && tr -d '\r' <"$T/cleanup.out" | grep -q "nothing left behind" && ok "cleanup: exit 0, nothing left behind" || no "cleanup: exit $rc: $(tr -d '\r' <"$T/cleanup.out" | tail -n 1)"
W help 2>/dev/null | tr -d '\r' | grep -q "^  cleanup " && ok "help lists the cleanup command" || no "help does not list cleanup"

# 5. the known divergences of Wine
part "$L/expectations.out" $PYTHON reports/etwconf-report check --expectations reports/expectations/wine.json $files
finish
