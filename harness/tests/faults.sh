#!/bin/sh
# harness/tests/faults.sh BUILD - fault injection against the runner: misbehaving targets, full or
# limited results files, interrupts, bad command lines; under Wine, DLLs that end their process in
# every way Windows offers, and the live target's private directory. Each checks that every case is
# recorded (or the footer says it is not) and that the footer and the exit status are honest. Last
# line: "faults: N passed, N failed". The groups below run side by side, each into a file of its
# own, printed in this file's order once all have ended.
set -u
B=${1:-build}
E=$B/etwconf
PYTHON=${PYTHON:-python3} # run with -S below: a quicker start
. harness/tests/lib.sh
stage_tmp faults

# honest FILE COMPLETE RC OK FAIL: a check of a results file, decided once every group has ended
# (checks.py resolve, one Python start): it passes when RC (the check's other conditions) is 0 and
# the file is honest (checks.honest) with complete:COMPLETE. {h} in the messages becomes what the
# file holds, or what is wrong with it.
honest() { printf 'HONEST\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5"; }

# ---------------------------------------------------------------- targets that misbehave
linux_targets() {
    # 1. prints to stdout; results on stdout must stay clean, in process and in a worker
    for iso in inproc batch; do
        "$E" run --target "$B/bad/print.so" --filter 'tqi.0b.*' --isolation $iso --quiet >"$T/print-$iso.jsonl" 2>"$T/print-$iso.err"; rc=$?
        [ "$rc" = 1 ] && grep -q 'garbage from the target' "$T/print-$iso.err"
        honest "$T/print-$iso.jsonl" true $? "print.so ($iso): results on stdout stay valid, the target's output went to stderr; {h}, exit 1" \
            "print.so ($iso): {h}, exit $rc"
    done

    # 2. forks in every call: the copy runs the worker's loop too; each case recorded once
    s=$(date +%s)
    timeout 120 "$E" run --target "$B/bad/fork.so" --filter 'tqi.0b.*' --quiet --out "$T/fork.jsonl" 2>"$T/fork.err"; rc=$?
    [ "$rc" = 1 ]
    honest "$T/fork.jsonl" true $? "fork.so: {h} in $(( $(date +%s) - s ))s, exit 1" "fork.so: {h}, exit $rc"

    # 3. leaves a child behind that holds the result channel: the run does not wait, the child is gone
    s=$(date +%s)
    FAULT_PIDS="$T/linger.pids" timeout 120 "$E" run --target "$B/bad/linger.so" --filter 'tqi.0b.*' --quiet --out "$T/linger.jsonl" 2>"$T/linger.err"; rc=$?
    took=$(( $(date +%s) - s ))
    # the children still running (from /proc); a zombie is gone
    lingering() {
        left=0
        for p in $(cat "$T/linger.pids" 2>/dev/null); do
            st=Z
            [ -r "/proc/$p/stat" ] && read -r _ _ st _ <"/proc/$p/stat" 2>/dev/null
            [ "$st" = Z ] || left=$((left + 1))
        done
        [ "$left" = 0 ]
    }
    within 1000 lingering # gone within a second of the run's end
    n=$(wc -l <"$T/linger.pids" 2>/dev/null || echo 0)
    [ "$rc" = 1 ] && [ "$took" -lt 30 ] && [ "$n" -ge 1 ] && [ "$left" = 0 ]
    honest "$T/linger.jsonl" true $? "linger.so: {h} in ${took}s; the $n children left behind were killed with the worker's group" \
        "linger.so: {h}, exit $rc, ${took}s, $left of $n children still running"
    for p in $(cat "$T/linger.pids" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done

    # 4. scribbles on every descriptor, the result channel too: refused, recorded, the run goes on
    timeout 120 "$E" run --target "$B/bad/scribble.so" --filter 'tqi.0b.*' --quiet --out "$T/scribble.jsonl" 2>"$T/scribble.err"; rc=$?
    [ "$rc" = 1 ] && grep -q '"exception":"bad result"' "$T/scribble.jsonl"
    honest "$T/scribble.jsonl" true $? "scribble.so: a corrupt result channel is a CRASH for that case, never trusted; {h}" \
        "scribble.so: {h}, exit $rc"

    # 5. exit(0) and pthread_exit: a CRASH each in a worker; in process complete:false, exit 3
    for so in exit thread_exit; do
        timeout 60 "$E" run --target "$B/bad/$so.so" --filter 'tqi.0b.*' --quiet --out "$T/$so.jsonl" 2>"$T/$so.err"; rc=$?
        n=$(count "$T/$so.jsonl" CRASH)
        [ "$rc" = 1 ] && [ "$n" -ge 5 ]
        honest "$T/$so.jsonl" true $? "$so.so (batch): $n CRASH; {h}" "$so.so (batch): {h}, $n CRASH, exit $rc"
        timeout 60 "$E" run --target "$B/bad/$so.so" --filter 'tqi.0b.*' --isolation inproc --quiet --out "$T/$so-inproc.jsonl" 2>"$T/$so-inproc.err"; rc=$?
        [ "$rc" = 3 ]
        honest "$T/$so-inproc.jsonl" false $? "$so.so (inproc): the process ended inside a case: {h}, exit 3" "$so.so (inproc): {h}, exit $rc"
    done

    # 6. an overrun leaves the target's state damaged: the worker is replaced, no later case hangs
    timeout 120 "$E" run --target "$B/bad/sticky.so" --filter 'tqi.0b.*' --timeout-ms 2000 --quiet --out "$T/sticky.jsonl" 2>"$T/sticky.err"
    n=$(grep -c '"mode":"overrun"' "$T/sticky.jsonl") to=$(count "$T/sticky.jsonl" TIMEOUT)
    [ "$to" = 0 ] && [ "$n" -ge 3 ]
    honest "$T/sticky.jsonl" true $? "sticky.so: a worker whose target wrote out of bounds is replaced: $n overruns, no TIMEOUT; {h}" \
        "sticky.so: {h}, $to TIMEOUT, $n overruns"
}

# ---------------------------------------------------------------- how a run ends
# an interrupt, a library that ends the process or blocks its end, output errors
linux_run_ends() {
    # 7. SIGINT during an in-process run: footer complete:false, exit 3. A run that had ended before
    # the signal came proves nothing: tried once more
    for attempt in 1 2; do
        rm -f "$T/int.jsonl"
        "$E" run --target "$B/bad/hang.so" --filter 'tqi.*' --isolation inproc --timeout-ms 500 --quiet --out "$T/int.jsonl" 2>"$T/int.err" &
        pid=$!
        # in its hanging cases (after the header: before it, a background job ignores SIGINT)
        within 30000 grep -q '"status":"TIMEOUT"' "$T/int.jsonl"
        kill -INT $pid 2>/dev/null; wait $pid; rc=$?
        ended=0; grep -q '"type":"footer".*"complete":true' "$T/int.jsonl" && ended=1
        [ "$ended" = 1 ] || break
    done
    [ "$rc" = 3 ]
    honest "$T/int.jsonl" false $? "SIGINT in an in-process run: {h}, exit 3" \
        "SIGINT in process: {h}, exit $rc$([ "$ended" = 1 ] && echo " (the run had ended before the signal, twice)")"

    # 8. a constructor that aborts or calls exit(0): a clear error, exit 3, no old results file left
    #    looking current; a destructor that blocks: the complete run still ends
    for so in ctor_abort ctor_exit; do
        echo '{"type":"header","old":true}' >"$T/ctor.jsonl"
        timeout 60 "$E" run --target "$B/bad/$so.so" --quiet --out "$T/ctor.jsonl" 2>"$T/ctor.err"; rc=$?
        [ "$rc" = 3 ] && grep -q "its constructor crashed, exited" "$T/ctor.err" && ! grep -q '"old"' "$T/ctor.jsonl" &&
            ok "$so.so: exit 3 with a message, the old results file is not left in place" || no "$so.so: exit $rc: $(cat "$T/ctor.err")"
    done
    s=$(date +%s)
    timeout 60 "$E" run --target "$B/bad/dtor_block.so" --filter 'tqi.0b.*' --isolation inproc --quiet --out "$T/dtor.jsonl" 2>"$T/dtor.err"; rc=$?
    [ "$rc" = 1 ]
    honest "$T/dtor.jsonl" true $? "dtor_block.so: the run ends in $(( $(date +%s) - s ))s although the library's destructor blocks; {h}" \
        "dtor_block.so: exit $rc, {h}"

    "$E" run --filter 'tqi.*' --quiet --out /dev/full 2>"$T/full.err"; rc=$?
    [ "$rc" = 3 ] && grep -q 'writing the results to /dev/full failed' "$T/full.err" && ! grep -q ' -> /dev/full' "$T/full.err" &&
        ok "--out /dev/full: exit 3 and says the results are incomplete" || no "--out /dev/full: exit $rc: $(tail -n 1 "$T/full.err")"
    "$E" run --filter 'tqi.*' --quiet 2>"$T/full2.err" >/dev/full; rc=$?
    [ "$rc" = 3 ] && grep -q 'writing the results to stdout failed' "$T/full2.err" && ok "results on stdout to /dev/full: exit 3" || no "stdout to /dev/full: exit $rc"
    (ulimit -f 8; exec "$E" run --emulate 10.0 --quiet --out "$T/limited.jsonl") 2>"$T/limit.err"; rc=$?
    [ "$rc" = 3 ] && grep -q 'failed' "$T/limit.err" && head -n 1 "$T/limited.jsonl" | grep -q '^{"type":"header"' &&
        ok "a file-size limit (4 KiB): exit 3 and a message; the file holds a readable prefix" ||
        no "file-size limit: exit $rc: $(tail -n 1 "$T/limit.err")"
    "$E" run --target "$B/bad/crash.so" --filter 'tqi.0b.*' --quiet --out /dev/full 2>"$T/full3.err"; rc=$?
    [ "$rc" = 3 ] && ok "a worker run writing to /dev/full: exit 3" || no "worker run to /dev/full: exit $rc"
}

# ---------------------------------------------------------------- the verdict and the command line
linux_cli() {
    "$E" run --case tqi.0b.exact --quiet --out "$T/one.jsonl" 2>"$T/one.err"; rc=$?
    grep -q '1 of [0-9]* cases (a filtered run: no verdict on the whole suite)' "$T/one.err" && [ "$rc" = 0 ] &&
        ok "a filtered run says '1 of N cases' and gives no verdict on the whole suite" || no "filtered run: $(cat "$T/one.err")"
    for c in run list rules versions lint; do
        "$E" $c --help >"$T/help.out" 2>&1; rc=$?
        [ "$rc" = 0 ] && grep -q "usage: .* $c" "$T/help.out" && ok "$c --help: help, exit 0" || no "$c --help: exit $rc"
    done
    "$E" run --timeout-ms '' --quiet --out "$T/x.jsonl" 2>"$T/tmo.err"; rc=$?
    [ "$rc" = 2 ] && grep -q 'timeout-ms' "$T/tmo.err" && ok "--timeout-ms '': usage error (exit 2)" || no "--timeout-ms '': exit $rc"
    "$E" run --emulate , --quiet --out "$T/x.jsonl" 2>"$T/emu.err"; rc=$?
    [ "$rc" = 2 ] && ! grep -q '(null)' "$T/emu.err" && ok "--emulate ,: usage error (exit 2) naming the value" || no "--emulate ,: exit $rc: $(head -n 1 "$T/emu.err")"
    lib=$(basename "$(ldconfig -p 2>/dev/null | sed -n 's/.* => \(.*libm\.so\.6\)$/\1/p' | head -n 1)")
    [ -n "$lib" ] || lib=libm.so.6
    case $E in /*) e=$E ;; *) e=$(pwd)/$E ;; esac # a BUILD given as an absolute path too
    (cd "$T" && "$e" run --target "$lib" --quiet --out x.jsonl) 2>"$T/sys.err"; rc=$?
    [ "$rc" = 3 ] && grep -q "\./NAME" "$T/sys.err" && ok "--target $lib (no slash): not looked up in the system's library path; says to give ./NAME" ||
        no "--target $lib: exit $rc: $(cat "$T/sys.err")"
    bad=$(printf 'bad\377name.so')
    cp "$B/bad/success.so" "$T/$bad"
    "$E" run --target "$T/$bad" --filter 'tqi.0b.*' --quiet --out "$T/utf8.jsonl" 2>/dev/null; rc=$?
    $PYTHON reports/etwconf-report summary "$T/utf8.jsonl" >"$T/utf8.out" 2>&1; rrc=$?
    [ "$rc" = 1 ] && [ "$rrc" = 0 ] && ok "a target file name that is not UTF-8: results the report accepts" || no "invalid UTF-8 file name: run exit $rc, report exit $rrc: $(tail -n 1 "$T/utf8.out")"
}

# ---------------------------------------------------------------- DLLs under Wine (etwconf.exe)
# EXE DLLDIR LABEL TIMEOUT-MS DLL:ISOLATION:STATUS...: two cases each, each ends as STATUS, the run
# goes on, and its results are honest (a worker process under Wine costs a few tenths of a second)
dll_faults() {
    exe=$1 dir=$2 label=$3 tmo=$4
    shift 4
    for run in "$@"; do
        dll=${run%%:*}; rest=${run#*:}; iso=${rest%:*}; want=${rest#*:}
        f=$T/w-$label-$dll-$iso
        wine_run 180 "$exe" run --target "$dir/$dll.dll" --case tqi.0b.exact --case tqi.0b.short --isolation "$iso" \
            --timeout-ms "$tmo" --quiet --out "$f.jsonl" 2>"$f.err"; rc=$?
        n=$(count "$f.jsonl" "$want")
        [ "$rc" = 1 ] && [ "$n" = 2 ]
        good=$? err=$(tr '\t\n' '  ' <"$f.err" | cut -c1-200) # what Wine said, should it fail
        honest "$f.jsonl" true $good "$dll.dll ($label$iso, Wine): each case a $want, the run goes on; {h}" \
            "$dll.dll ($label$iso, Wine): {h}, $n $want, exit $rc; $err"
    done
}

# the 64-bit exe: DLLs that end their process or thread, or overflow their stack; one that prints
wine_dll_exits() {
    dll_faults "$B/etwconf.exe" "$B/win64/tests" "" 5000 exitprocess:auto:CRASH exitprocess:child:CRASH exitthread:auto:CRASH \
        terminate:auto:CRASH
}
wine_dll_faults() {
    D=$B/win64/tests
    dll_faults "$B/etwconf.exe" "$D" "" 5000 fastfail:auto:CRASH overflow:auto:CRASH
    wine_run 60 "$B/etwconf.exe" run --target "$D/print.dll" --case tqi.0b.exact --case tqi.0b.short --isolation inproc --quiet >"$T/w-print.jsonl" 2>"$T/w-print.err"; rc=$?
    [ "$rc" = 1 ] && grep -q 'garbage from the target' "$T/w-print.err"
    honest "$T/w-print.jsonl" true $? "print.dll (inproc, Wine): results on stdout stay valid, the DLL's output went to stderr; {h}" \
        "print.dll (inproc, Wine): {h}, exit $rc"
}

# the 32-bit exe against the same DLLs built for 32 bits, where Wine runs 32-bit programs
wine_i686_faults() {
    if wine_run 60 "$B/etwconf-i686.exe" version </dev/null 2>/dev/null | tr -d '\r' | grep -q '^etwconf '; then
        dll_faults "$B/etwconf-i686.exe" "$B/win32/tests" "i686, " 1000 crash:inproc:CRASH overrun:inproc:FAIL \
            exitprocess:auto:CRASH overflow:batch:CRASH
        # spin.dll keeps a CPU busy until the watchdog stops it: a tenth of a second is enough
        dll_faults "$B/etwconf-i686.exe" "$B/win32/tests" "i686, " 100 spin:inproc:TIMEOUT
    else
        skip "the 32-bit DLL faults: this Wine does not run 32-bit programs (Wine's 32-bit part: .ci/deps.sh wine32)"
    fi
}

# a DllMain that ends the process, crashes or hangs while loading: exit 3, a message, no old
# results file; a DLL_PROCESS_DETACH that never returns: the run completes, every process ends
wine_dllmain_faults() {
    D=$B/win64/tests
    for dll in dllmain_exit:2000 dllmain_crash:2000 dllmain_hang:1000; do
        lt=${dll#*:} dll=${dll%:*}
        echo '{"type":"header","stale":true}' >"$T/w-$dll.jsonl"
        s=$(date +%s)
        wine_run 60 "$B/etwconf.exe" run --target "$D/$dll.dll" --case tqi.0b.exact --load-timeout-ms "$lt" --quiet \
            --out "$T/w-$dll.jsonl" 2>"$T/w-$dll.err"; rc=$?
        took=$(( $(date +%s) - s ))
        msg=$(tr -d '\r' <"$T/w-$dll.err" | tail -n 1)
        [ "$rc" = 3 ] && [ ! -s "$T/w-$dll.jsonl" ] && [ "$took" -lt 40 ] && printf '%s' "$msg" | grep -q "cannot load target.*DllMain" &&
            ok "$dll.dll (Wine): exit 3 in ${took}s, the old results file emptied; ${msg#etwconf.exe: }" ||
            no "$dll.dll (Wine): exit $rc in ${took}s, $(wc -c <"$T/w-$dll.jsonl") bytes of results: $msg"
    done
    for iso in auto inproc; do
        wine_run 60 "$B/etwconf.exe" run --target "$D/detach_hang.dll" --case tqi.0b.exact --case tqi.0b.short --isolation $iso --quiet \
            --out "$T/w-detach-$iso.jsonl" 2>/dev/null; rc=$?
        [ "$rc" = 1 ]
        honest "$T/w-detach-$iso.jsonl" true $? "detach_hang.dll ($iso, Wine): the run ends although DLL_PROCESS_DETACH hangs; {h}" \
            "detach_hang.dll ($iso, Wine): exit $rc (124: it hung), {h}"
    done
}

# the live target's private directory: each process that starts the NT Kernel Logger writes its log
# file in %TEMP%\etwconf-<pid>-<32 random hex digits>, created new, emptied and removed at its end;
# seen in the system calls of a traced wineserver, for two worker processes (child isolation, two
# kernel-logger cases of 6.1). cleanup's refusal of a symlink below exercises the check a new
# directory passes (run_dir_open_checked).
wine_private_dir() {
    tmpw=$(wine_temp_dir)
    if ! command -v strace >/dev/null 2>&1; then
        skip "the live target's private directory under Wine: strace is not installed (apt-get install strace), the directory is seen through it"
    elif [ -z "$tmpw" ]; then
        no "the live target's private directory: no Temp directory in $WINEPREFIX"
    else
        # Wine's server creates and deletes the files: it starts anew, traced
        wine_stop
        mkdir -p "$T/strace"
        # the Wine stage's copy: the kernel logger takes the full token (mk/windows.mk WINE_EXE_DIR)
        wine_retry timeout 120 strace -ff -qq --seccomp-bpf -e trace=mkdir,mkdirat,openat,unlink,unlinkat,rmdir -o "$T/strace/s" "$WINE" "$B/wine-elevated/etwconf.exe" run \
            --case gen.bounds-groupmask --case gmi.set-before-62 --emulate 6.1 --isolation child --quiet --out "$T/w-dir.jsonl" 2>/dev/null
        $PYTHON -S - "$T/strace" "$(ls "$tmpw" | grep -c '^etwconf-')" <<'EOF2'
import os, re, sys
# one file per process (-ff): no system call split across lines by another process's
text = "".join(open(os.path.join(sys.argv[1], f), encoding="utf-8", errors="replace").read() for f in sorted(os.listdir(sys.argv[1])))
left = int(sys.argv[2])
made = re.findall(r'mkdir(?:at)?\((?:AT_FDCWD, )?"[^"]*/Temp/(etwconf-[0-9]+-[0-9a-f]{32})", 0\d+\) = 0', text)
other = re.findall(r'mkdir(?:at)?\((?:AT_FDCWD, )?"[^"]*/Temp/(etwconf-[^"/]*)"', text)
bad = []
if len(made) != 2 or len(set(made)) != 2 or len(other) != 2:
    bad.append("directories made: %s (of %s)" % (made, other))
for d in made:
    new = re.findall(r'openat\(AT_FDCWD, "[^"]*/%s/(kernel-[0-9]+\.etl)", [^)]*O_CREAT\|O_EXCL' % d, text)
    gone = re.findall(r'unlink(?:at)?\((?:AT_FDCWD, )?"[^"]*/%s/(kernel-[0-9]+\.etl)"(?:, 0)?\) = 0' % d, text)
    if not new or sorted(new) != sorted(gone):
        bad.append("%s: files created new %s, deleted %s" % (d, new, gone))
    if not re.search(r'rmdir\("[^"]*/%s"\) = 0|unlinkat\(AT_FDCWD, "[^"]*/%s", AT_REMOVEDIR\) = 0' % (d, d), text):
        bad.append("%s: not removed" % d)
if left:
    bad.append("%d etwconf-* entries left in Temp" % left)
pids = [d.split("-")[1] for d in made]
print(("FAIL " + "; ".join(bad)) if bad else
      "ok   two processes (pids %s) each made a private directory etwconf-<pid>-<32 random hex> (%s), created kernel-N.etl in it with O_EXCL, deleted it and removed the directory; nothing left in Temp" % (", ".join(pids), ", ".join(m[-32:] for m in made)))
EOF2
    fi
}

# cleanup: leftovers of a process that is gone, by exact name; a symlink named like one is never
# entered. Then one live run at a time: a second run while the first holds the system is refused.
wine_live_runs() {
    tmpw=$(wine_temp_dir)
    if [ -n "$tmpw" ]; then
        h1=00112233445566778899aabbccddeeff h2=ffeeddccbbaa99887766554433221100 h3=0123456789abcdef0123456789abcdef
        mkdir -p "$T/victim" "$tmpw/etwconf-4000000-$h1" "$tmpw/etwconf-4000000-$h2" "$tmpw/etwconf-4000000-short"
        echo precious >"$T/victim/kernel-1.etl"
        touch "$tmpw/etwconf-4000000-$h1/kernel-1.etl" "$tmpw/etwconf-4000000-$h1/kernel-2.etl" "$tmpw/etwconf-4000000-$h2/kernel-1.etl" \
            "$tmpw/etwconf-4000000-$h2/notes.txt" "$tmpw/etwconf-4000000-short/kernel-1.etl"
        ln -s "$T/victim" "$tmpw/etwconf-4000000-$h3"
        wine_run 60 "$B/etwconf.exe" cleanup >"$T/cleanup.out" 2>&1; rc=$?
        [ ! -e "$tmpw/etwconf-4000000-$h1" ] && [ -f "$tmpw/etwconf-4000000-$h2/notes.txt" ] && [ ! -e "$tmpw/etwconf-4000000-$h2/kernel-1.etl" ] &&
            [ -f "$tmpw/etwconf-4000000-short/kernel-1.etl" ] && [ -L "$tmpw/etwconf-4000000-$h3" ] && [ -f "$T/victim/kernel-1.etl" ] &&
            why=$(tr -d '\r' <"$T/cleanup.out" | sed -n "s/^left alone: .*$h3 (\(.*\))\$/\1/p") && [ -n "$why" ] &&
            ok "cleanup (Wine): a gone process's private directory emptied and removed, one holding a foreign file emptied of ours and kept, a wrongly named one untouched, and a symlink named like one not entered ($why) (exit $rc)" ||
            no "cleanup (Wine): exit $rc: $(tr -d '\r' <"$T/cleanup.out" | tr '\n\\' '|/')" # no backslashes for echo
        rm -rf "$tmpw/etwconf-4000000-"*
    else
        no "cleanup (Wine): no Temp directory in $WINEPREFIX (wine_temp_dir, harness/tests/wine-env.sh)"
    fi
    # The first run, once it has claimed the system (its header is written after the claim), is
    # held (SIGSTOP to its job's processes, by pid) until the second has been answered. A first run
    # that ended before it could be held proves nothing: tried once more.
    for attempt in 1 2; do
        rm -f "$T/live-a.jsonl" "$T/live-b.jsonl"
        wine_run 120 "$B/etwconf.exe" run --filter 'tqi.0b.*' --isolation child --quiet --out "$T/live-a.jsonl" 2>"$T/live-a.err" &
        apid=$!
        within 30000 test -s "$T/live-a.jsonl"
        alive=0
        wpids=$(pid_tree "$apid")
        [ -n "$wpids" ] && kill -STOP $wpids 2>/dev/null && alive=1
        wine_run 60 "$B/etwconf.exe" run --case tqi.0b.exact --quiet --out "$T/live-b.jsonl" 2>"$T/live-b.err"; rc=$?
        [ -n "$wpids" ] && kill -CONT $wpids 2>/dev/null
        wait $apid; arc=$?
        if [ "$rc" = 3 ] && grep -q 'another etwconf.exe run is testing this system' "$T/live-b.err" && [ "$arc" -le 1 ]; then
            honest "$T/live-a.jsonl" true 0 "two live runs at once (Wine): the second is refused (exit 3), the first completes; {h}" \
                "two live runs at once (Wine): the second is refused, the first's results: {h}"
            return
        elif [ "$alive" = 1 ]; then
            honest "$T/live-a.jsonl" true 1 "" "two live runs at once: second exit $rc ($(tr -d '\r' <"$T/live-b.err" | tail -n 1)) while the first ran, first exit $arc ($(tr -d '\r' <"$T/live-a.err" | tail -n 1)), {h}"
            return
        fi
    done
    skip "two live runs at once (Wine): the first run ended before it could be held, twice: nothing shows whether the second would have been refused"
}

# ---------------------------------------------------------------- side by side
# Each group's lines go to T/GROUP.out. The Wine groups run in the background in prefixes of the
# stage's own (wine_overlay): wine_private_dir in one, the others in another; in a user's
# WINEPREFIX one after another.
LINUX_GROUPS="linux_targets linux_run_ends linux_cli"
WINE_GROUPS="wine_dll_exits wine_dll_faults wine_i686_faults wine_dllmain_faults wine_private_dir wine_live_runs"
bg=""
trap 'kill $bg 2>/dev/null; exit 130' INT TERM # the groups too (each of their commands has a time limit)
for g in $LINUX_GROUPS; do
    $g >"$T/$g.out" 2>&1 &
    bg="$bg $!"
done
groups=$LINUX_GROUPS
if command -v "${WINE:-wine}" >/dev/null 2>&1 && [ -f "$B/etwconf.exe" ]; then
    . harness/tests/wine-env.sh
    suite_prefix=$WINEPREFIX
    # beside the wine stage, not in its prefix (harness/tests/wine-env.sh)
    if wine_overlay "$T/prefix" && (wine_overlay_of "$suite_prefix" "$T/prefix-dir"); then
        (WINEPREFIX=$(cd "$T/prefix-dir" && pwd); export WINEPREFIX; wine_private_dir) >"$T/wine_private_dir.out" 2>&1 &
        bg="$bg $!"
        # Wine's services start once, before the groups' first runs
        wine_run 120 cmd /c exit </dev/null >/dev/null 2>&1
        for g in $WINE_GROUPS; do
            [ "$g" = wine_private_dir ] && continue
            $g >"$T/$g.out" 2>&1 &
            bg="$bg $!"
        done
    else
        for g in $WINE_GROUPS; do
            ($g) >"$T/$g.out" 2>&1 # a subshell, as in the background: the lines are counted once, below
        done
    fi
    groups="$groups $WINE_GROUPS"
    wait
    wine_stop
    [ ! -d "$T/prefix-dir" ] || (WINEPREFIX=$T/prefix-dir; wine_stop)
else
    wait
    echo "FAIL Wine or $B/etwconf.exe is missing: the DLL faults are not tested (sh .ci/deps.sh windows; make windows)" >"$T/nowine.out"
    groups="$groups nowine"
fi
set --
for g in $groups; do set -- "$@" "$T/$g.out"; done
$PYTHON -S harness/tests/checks.py resolve "$@"
# each group checks something: one that printed no check (it stopped early) is a failure, not silence
for g in $groups; do
    show "$(cat "$T/$g.out")"
    grep -q '^\(ok\|FAIL\|skip\) ' "$T/$g.out" || no "$g: the group printed no check (its output: $(head -c 300 "$T/$g.out" | tr '\n' ' '))"
done

summary faults
