#!/bin/sh
# harness/tests/twin.sh - the "twin" stage: etwconf.exe's live mode under Wine against the Windows
# twin (harness/twin/), a model of Windows's ETW, in a Wine prefix of its own over the suite's.
#
#   0. etwconf.exe imports nothing of the binding table (harness/targets/win_live/bind.def)
#   1. builds: a whole live run at several builds of spec/versions.def agrees, case by case (status
#      and counted flag), with `etwconf run --target reference --emulate BUILD`, but where the record
#      says why a live system runs a case otherwise; every live fixture executes. The same for
#      etwconf-i686.exe against the 32-bit twin at one build, where Wine runs 32-bit programs
# The checks of the runs are queued and made at the end in one Python process (harness/tests/twin_check.py).
#   2. personalities (harness/twin/personalities.def): a focused run per personality ends with true
#      verdicts (a fixture it defeats is BROKEN or SKIP with the reason, never counted)
#   3. after every run, one whose worker was killed included, nothing the run started is left: no
#      session, no security entry (the twin's state, twinctl.exe), no file in %TEMP%
#   4. planted bugs: the live target built from a patched copy of its source is caught by the checks
#      above, each one
#
# A personality listed in AFTER_LIVE_FIXES defeats a fixture that cannot prove itself yet
# (harness/windows/README.md): its failures are reported as skips, and one that passes is a failure
# ("take it off the list"), so the list stays true. worker-killed-security stands for the security
# entries a killed worker leaves, checked apart from its sessions.
#
# Usage: sh harness/tests/twin.sh BUILD   (MAKE, PYTHON from make)
B=${1:-build}
. harness/tests/lib.sh
PY=${PYTHON:-python3}
MAKE=${MAKE:-make}
T=$B/test/twin
rm -rf "$T"
mkdir -p "$T"
AFTER_LIVE_FIXES=""
BUILDS="6.1 6.3 10.0.19045"

# the Wine stages' copies of the exes (mk/windows.mk WINE_EXE_DIR): their manifest asks for the
# highest token, which a Wine that starts programs with a limited one (10.0) then gives them, as
# the live fixtures need
X=$B/wine-elevated
if ! command -v "${WINE:-wine}" >/dev/null 2>&1 || [ ! -f "$B/twin/etwtwin.dll" ] || [ ! -f "$X/etwconf.exe" ]; then
    no "Wine, $X/etwconf.exe or $B/twin/etwtwin.dll is missing: the twin is not tested (sh .ci/deps.sh windows; make test-twin builds them)"
    summary twin
    exit 1
fi
. harness/tests/wine-env.sh
BASE_PREFIX=$WINEPREFIX
wine_overlay "$T/prefix" || true
winpath() { printf 'Z:%s/%s' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")" | tr / '\\'; }
DLL=$(winpath "$B/twin/etwtwin.dll")
timeout 120 "$WINE" cmd /c exit </dev/null >/dev/null 2>&1 # Wine's services start once
# %TEMP% of the prefix, where a live run makes its private directory: C:\... is WINEPREFIX/drive_c/...
WTEMP=$(timeout 60 "$WINE" cmd /c 'echo %TEMP%' </dev/null 2>/dev/null | tr -d '\r')
temp_dir() { printf '%s/drive_c/%s' "$WINEPREFIX" "$(printf '%s' "$WTEMP" | sed 's/^[Cc]:\\//' | tr '\\' /)"; }
TEMPDIR=$(temp_dir)
if [ -d "$TEMPDIR" ]; then ok "the prefix's %TEMP% is $TEMPDIR"; else no "the prefix's %TEMP% is not at $TEMPDIR"; fi
"$B/etwconf" list --json >"$T/cases.json"

# twin_run NAME VERSION PERSONALITY EXE [etwconf run options]: a live run against the twin; results
# T/NAME.jsonl, the twin's state file T/NAME.state and its report T/NAME.state.txt (harness/twin/twin.h)
# (with SHORT_TEMP set: a run whose %TEMP% and %TMP% are that, set by cmd: Wine sets them from its
# registry, not from the environment it is started with)
twin_run() {
    n=$1 v=$2 p=$3 exe=$4
    shift 4
    if [ -n "${SHORT_TEMP:-}" ]; then
        set -- cmd /c "set TEMP=$SHORT_TEMP&&set TMP=$SHORT_TEMP&&$(winpath "$exe") run --out $(winpath "$T/$n.jsonl") $*"
    else
        set -- "$exe" run --out "$(winpath "$T/$n.jsonl")" "$@"
    fi
    ETWCONF_TWIN=$DLL ETWCONF_TWIN_VERSION=$v ETWCONF_TWIN_PERSONALITY=$p ETWCONF_TWIN_STATE=$(winpath "$T/$n.state") \
        timeout 120 "$WINE" "$@" </dev/null >"$T/$n.out" 2>"$T/$n.err"
    # what the run left in %TEMP%, for the leftovers check; then it goes, so the next run starts clean
    tdir=${SHORT_TEMP:+$TEMPDIR/etwconf twin long temp}
    tdir=${tdir:-$TEMPDIR}
    { [ -d "$tdir" ] && echo "# $tdir" && ls -A "$tdir"; } >"$T/$n.temp.txt" 2>&1
    # a leftover, to be read: what it holds, and whether it goes by itself a moment later (then a
    # process of the run was still ending when the run returned)
    if ls -d "$tdir"/etwconf-* >/dev/null 2>&1; then
        { ls -laR "$tdir"/etwconf-*; sleep 2; echo "# 2 s later"; ls -A "$tdir"; } >"$T/$n.temp-detail.txt" 2>&1
    fi
    rm -rf "$tdir"/etwconf-*
}
# queue GROUP MODE CHECK ARGS...: a check of harness/tests/twin_check.py, run with the others at the end
# (one Python process for the stage); MODE says how the group's lines count (twin_check.py batch)
queue() {
    (IFS=$(printf '\t'); printf '%s\n' "$*") >>"$T/checks.txt"
}

# ---------------------------------------------------------------- 0. the binding
# a function of bind.def that etwconf.exe imported statically would bypass the table (and the twin)
OBJDUMP=${OBJDUMP:-x86_64-w64-mingw32-objdump}
names=$(sed -n 's/^LB_FN([A-Z]*, "[a-z0-9]*", [^,]*, [^,]*, [^,]*, \([A-Za-z0-9_]*\),.*/\1/p' harness/targets/win_live/bind.def)
imports=$(pe_imports "$B/etwconf.exe")
bad=""
for f in $names; do
    printf '%s\n' "$imports" | grep -qx "$f" && bad="$bad $f"
done
if [ "$(echo $names | wc -w)" -lt 20 ] || [ -z "$imports" ]; then
    no "bind.def lists $(echo $names | wc -w) functions and $OBJDUMP finds $(printf '%s\n' "$imports" | grep -c .) imports of $B/etwconf.exe: too few to check"
elif [ -n "$bad" ]; then
    no "etwconf.exe imports statically what bind.def binds (a call site without its macro in bind.h?):$bad"
else
    ok "etwconf.exe imports none of the $(echo $names | wc -w) functions of bind.def statically ($(printf '%s\n' "$imports" | grep -c .) imports)"
fi

# and none looks a function up around the table: GetProcAddress belongs to the table's resolver
# and the module plumbing (bind.c) and to DLL targets (dll.c)
around=$(grep -n 'GetProcAddress(' harness/targets/win_live/*.c | grep -v '^harness/targets/win_live/\(bind\|dll\)\.c:')
if [ -n "$around" ]; then
    no "the live target looks functions up around bind.def (add them to the table): $(echo $around)"
else
    ok "the live target looks up its Windows functions through bind.def only"
fi

KERNEL='--case tqi.04.exact --case gmi.set-roundtrip'
# personality_cases NAME: the focused run's options (cases where the personality shows)
personality_cases() {
    case $1 in
        path-*|kernel-foreign) echo "$KERNEL" ;;
        ace-no-effect) echo "--case gmi.set-access --case tsi.04.no-access" ;;
        private-refused) echo "--case dal.private-session" ;;
        events-*) echo "--timeout-ms 1000 --case traits.in-events" ;; # events 2 s late: after the case's deadline
        overrun-*) echo "--case tqi.0b.exact" ;;
        no-pmc) echo "--filter tqi.07.* --case tqi.05.listed-sources --case tsi.05.pmc-source" ;; # with and without the pmc-sources need
        worker-killed) echo "--isolation batch --case gmi.set-access --case tsi.04.no-access --case gmi.query-no-access" ;;
        *) echo "$KERNEL" ;;
    esac
}
# events-never waits out the consumer's whole deadline (10 s): its run (section 2) starts first, in
# a prefix of its own (its own %TEMP% and wineserver) over the suite's, beside every other run
bg=""
if [ "$WINEPREFIX" != "$BASE_PREFIX" ]; then
    (
        p=events-never
        if wine_overlay_of "$BASE_PREFIX" "$T/prefix-$p"; then
            WINEPREFIX=$(cd "$T/prefix-$p" && pwd)
            export WINEPREFIX
            TEMPDIR=$(temp_dir)
            timeout 120 "$WINE" cmd /c exit </dev/null >/dev/null 2>&1 # its services start first, as above
            twin_run "p-$p" 10.0 "$p" "$X/etwconf.exe" $(personality_cases "$p")
            wine_stop
        else
            echo "the prefix $T/prefix-$p could not be made over $BASE_PREFIX" >"$T/p-$p.err"
        fi
    ) &
    bg=$!
fi

# ---------------------------------------------------------------- 1. builds
for v in $BUILDS; do
    twin_run "build-$v" "$v" windows "$X/etwconf.exe"
    "$B/etwconf" run --target reference --emulate "$v" --out "$T/ref-$v.jsonl" >/dev/null 2>&1
    queue "$v" require agree "$T/ref-$v.jsonl" "$T/build-$v.jsonl" "$T/cases.json"
    queue "$v" require leftovers "$T/build-$v.state.txt" "$T/build-$v.temp.txt"
done

# etwconf-i686.exe against the 32-bit twin, at the last build, where Wine runs 32-bit programs here
v=$(echo $BUILDS | awk '{ print $NF }')
if [ ! -f "$X/etwconf-i686.exe" ] || [ ! -f "$B/twin/etwtwin-i686.dll" ]; then
    skip "[i686] $X/etwconf-i686.exe or $B/twin/etwtwin-i686.dll is not built (mingw-w64's i686 compiler is missing)"
elif ! timeout 60 "$WINE" "$X/etwconf-i686.exe" version </dev/null >/dev/null 2>&1; then
    skip "[i686] Wine runs no 32-bit program here (its 32-bit part is not installed: .ci/deps.sh wine32)"
else
    dll64=$DLL
    DLL=$(winpath "$B/twin/etwtwin-i686.dll")
    twin_run "i686-$v" "$v" windows "$X/etwconf-i686.exe"
    DLL=$dll64
    queue "i686 $v" require agree "$T/ref-$v.jsonl" "$T/i686-$v.jsonl" "$T/cases.json"
    queue "i686 $v" require leftovers "$T/i686-$v.state.txt" "$T/i686-$v.temp.txt"
fi

# ---------------------------------------------------------------- 2, 3. personalities
# the personalities, in the table's order
PERSONALITIES=$(sed -n 's/^TW_PERSONALITY("\([a-z0-9-]*\)".*/\1/p' harness/twin/personalities.def)
[ "$(echo "$PERSONALITIES" | wc -w)" -ge 13 ] && ok "personalities.def lists $(echo $PERSONALITIES | wc -w) personalities" ||
    no "personalities.def lists fewer personalities than the 13 planned: $PERSONALITIES"
for p in $PERSONALITIES; do
    [ "$p" = windows ] && continue
    if [ "$p" = path-long ]; then # a short %TEMP%, as on the hosted runners: the long form differs from it
        mkdir -p "$TEMPDIR/etwconf twin long temp"
        SHORT_TEMP=$(timeout 60 "$WINE" "$B/twin/twinctl.exe" short "$WTEMP\\etwconf twin long temp" </dev/null 2>/dev/null | tr -d '\r')
        case $SHORT_TEMP in *"long temp"*|"") no "[$p] no 8.3 short form of the directory etwconf twin long temp in %TEMP%" ;; esac
    fi
    if [ "$p" = events-never ] && [ -n "${bg:-}" ]; then
        : # running since section 1, beside the others (below)
    else
        twin_run "p-$p" 10.0 "$p" "$X/etwconf.exe" $(personality_cases "$p")
    fi
    [ "$p" = path-long ] && rm -rf "$TEMPDIR/etwconf twin long temp"
    SHORT_TEMP=
    mode=require
    case " $AFTER_LIVE_FIXES " in *" $p "*) mode=after-fixes ;; esac
    queue "$p" $mode verdicts "$T/p-$p.jsonl" "$p"
    if [ "$p" = worker-killed ]; then # the runner stops a killed worker's sessions; its security entries need their fix
        queue "$p" $mode leftovers "$T/p-$p.state.txt" "$T/p-$p.temp.txt" sessions
        smode=require
        case " $AFTER_LIVE_FIXES " in *" $p-security "*) smode=after-fixes ;; esac
        queue "$p-security" $smode leftovers "$T/p-$p.state.txt" "$T/p-$p.temp.txt" security
    else
        queue "$p" $mode leftovers "$T/p-$p.state.txt" "$T/p-$p.temp.txt" $([ "$p" = kernel-foreign ] && echo foreign)
    fi
done

# ---------------------------------------------------------------- 4. planted bugs
# Each plant NAME FILE CASES... (in T/plants.txt): etwconf.exe built from a copy of FILE (of
# harness/targets/win_live/) with the text of T/NAME.from replaced by that of T/NAME.to (the copies
# made in one Python process), run on CASES against the twin as documented; the checks above must
# fail on it
# a release that never stops the kernel logger (it stops one by its handle once proved ours)
printf '%s' '        live_control(s->h, NULL, EVENT_TRACE_CONTROL_STOP, NULL);
    slot_free(s);' >"$T/kernel-stop.from"
printf '%s' '        ;
    slot_free(s);' >"$T/kernel-stop.to"
# a no-access fixture whose entry denies nothing
printf '%s' '    struct etw_lv_access_call a = etw_lv_deny_enable;' >"$T/no-deny.from"
printf '%s' '    struct etw_lv_access_call a = etw_lv_deny_enable;
    a.allow = true;' >"$T/no-deny.to"
# a consumer that never opens its trace
printf '%s' '    th = OpenTraceW(&lf);' >"$T/no-open.from"
printf '%s' '    th = (TRACEHANDLE)INVALID_HANDLE_VALUE;' >"$T/no-open.to"
cat >"$T/plants.txt" <<'EOF'
kernel-stop sessions.c tqi.04.exact
no-deny sessions.c gmi.set-access tsi.04.no-access
no-open events.c traits.in-events
EOF
"$PY" - "$T" <<'PY'
import os, sys
t = sys.argv[1]
for line in open(t + "/plants.txt"):
    name, f = line.split()[:2]
    src = "harness/targets/win_live/" + f
    text, old, new = (open(p, encoding="utf-8").read() for p in (src, "%s/%s.from" % (t, name), "%s/%s.to" % (t, name)))
    if text.count(old) != 1:
        print("%s: the planted text is not once in %s: update the plant in harness/tests/twin.sh" % (name, src))
        continue
    os.makedirs("%s/plant-%s" % (t, name), exist_ok=True)
    open("%s/plant-%s/%s" % (t, name, f), "w", encoding="utf-8").write(text.replace(old, new))
PY
while read -r pn f cases; do
    d=$T/plant-$pn
    if [ ! -f "$d/$f" ]; then
        no "[plant $pn] cannot be planted in harness/targets/win_live/$f"
        continue
    fi
    if ! $MAKE --no-print-directory -s twin-plant BUILD="$B" PLANT_SRC="$d/$f" PLANT_DIR="$d" \
        PLANT_OBJ="$B/win64/obj/harness/targets/win_live/${f%.c}.o" >"$d/build.log" 2>&1; then
        no "[plant $pn] does not build: $d/build.log"
        continue
    fi
    args=""
    for c in $cases; do args="$args --case $c"; done
    twin_run "plant-$pn" 10.0 windows "$d/etwconf.exe" $args
    if [ ! -s "$T/plant-$pn.jsonl" ]; then
        no "[plant $pn] the planted exe wrote no results: $T/plant-$pn.err"
        continue
    fi
    queue "$pn" plant verdicts "$T/plant-$pn.jsonl" windows
    queue "$pn" plant leftovers "$T/plant-$pn.state.txt" "$T/plant-$pn.temp.txt"
done <"$T/plants.txt"

[ -z "${bg:-}" ] || wait "$bg"
wine_stop
show "$("$PY" harness/tests/twin_check.py batch "$T/checks.txt" 2>&1)"
summary twin
