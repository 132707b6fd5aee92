#!/bin/sh
# harness/tests/stages.sh - the two parts of `make test` that make itself does not do (mk/stages.mk).
#
# stages.sh NAME [AFTER...] -c LINE
#   make's shell for each recipe line of the stage target test-NAME (AFTER: the stages among its
#   prerequisites). Without STAGE_LOGS (`make test-NAME` by hand) it is sh -c LINE. With
#   STAGE_LOGS=DIR (make test) the line's output goes to DIR/NAME.log; DIR/NAME.rc, .time, .cpu and
#   .start get its exit status, wall and CPU seconds (in a cpuacct control group of its own where
#   one can be made, which also counts the daemons it starts; else its waited-for processes) and its
#   start after DIR/t0. NAME in TEST_NICE runs at nice level TEST_NICE_LEVEL (5); NAME in
#   TEST_EXCLUSIVE holds DIR/exclusive.lock (flock). It exits 0, so that make goes on: a stage after
#   one that failed or was not run is not run (its log says why; it counts as skipped), nor is a
#   line after a failed line of the stage.
#
# stages.sh --start NAME...
#   removes the stages' files of a former make test; notes the time and the machine's busy CPU time.
#
# stages.sh --summary MAKE-RC NAME...
#   prints each stage's log whole, in the named order, a summary with each stage's counts, times and
#   start, the Wine starts run again (DIR/wine-starts.log), the failing stages, and last "N passed,
#   N failed, N skipped". A stage that exits non-zero without counting a failure counts one, and so
#   does one that printed no count line or counted nothing. A stage that make did not run (what it
#   needs could not be built: MAKE-RC is not 0, one failure) is skipped with that reason.
set -u
now() { date +%s.%N | cut -c1-14; }
# the busy CPU ticks of the whole machine (Linux /proc/stat; empty elsewhere)
machine_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat 2>/dev/null; }
sum() { awk -v a="$1" -v b="$2" -v c="${3:-0}" 'BEGIN { printf "%.1f\n", a + b - c }'; }

if [ "${1:-}" = --start ]; then
    D=${STAGE_LOGS:?stages.sh: STAGE_LOGS names the directory of the logs}
    shift
    mkdir -p "$D" || exit 2
    for st in "$@"; do rm -f "$D/$st.log" "$D/$st.rc" "$D/$st.notrun" "$D/$st.start" "$D/$st.time" "$D/$st.cpu" "$D/$st.tms"; done
    rm -f "$D/wine-starts.log" "$D/notes"
    echo "$(now) $(machine_busy)" >"$D/t0"
    exit 0
elif [ "${1:-}" != --summary ]; then
    st=$1 after=""
    shift
    while [ $# -gt 2 ]; do after="$after $1"; shift; done
    [ -n "${STAGE_LOGS:-}" ] || exec /bin/sh "$@"
    D=$STAGE_LOGS L=$STAGE_LOGS/$st
    unset STAGE_LOGS
    [ -f "$L.notrun" ] || [ "$(cat "$L.rc" 2>/dev/null || echo 0)" != 0 ] && exit 0
    s=$(now)
    if [ ! -f "$L.start" ]; then
        read -r t0 _ <"$D/t0" 2>/dev/null || t0=$s
        sum "$s" 0 "$t0" >"$L.start"
        for a in $after; do
            if [ -f "$D/$a.notrun" ]; then why="was not run"
            elif [ "$(cat "$D/$a.rc" 2>/dev/null || echo 0)" != 0 ]; then why="failed (its log: $D/$a.log)"
            else continue; fi
            printf '%s\n' "$st: not run: it comes after the stage $a, which $why" "$st: 0 passed, 0 failed, 1 skipped" >"$L.log"
            : >"$L.notrun"; echo 0 >"$L.rc"; echo 0.0 >"$L.time"; echo 0.0 >"$L.cpu"
            exit 0
        done
    fi
    nice="" lock=""
    case " ${TEST_NICE:-} " in *" $st "*) nice="nice -n ${TEST_NICE_LEVEL:-5}" ;; esac
    case " ${TEST_EXCLUSIVE:-} " in *" $st "*) lock="flock $D/exclusive.lock" ;; esac
    CG_ROOT=/sys/fs/cgroup/cpuacct g=$CG_ROOT/etwconf-stage-$$
    { [ "${TEST_CGROUP:-1}" = 1 ] && [ -w "$CG_ROOT" ] && mkdir "$g" 2>/dev/null; } || g=""
    trap '[ -z "$g" ] || rmdir "$g" 2>/dev/null' EXIT
    trap 'exit 130' INT TERM
    # the line in its group: a child shell joins it, then becomes the stage's shell
    $lock $nice sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "$g" \
        /bin/sh "$@" >>"$L.log" 2>&1 </dev/null
    echo $? >"$L.rc"
    sum "$(cat "$L.time" 2>/dev/null || echo 0)" "$(now)" "$s" >"$L.time"
    if [ -n "$g" ]; then
        cpu=$(awk '{ printf "%.1f\n", $1 / 1e9 }' "$g/cpuacct.usage")
        # what the line left running (a daemon) goes back to the root group
        while read -r p; do echo "$p" >"$CG_ROOT/cgroup.procs"; done <"$g/cgroup.procs" 2>/dev/null
        rmdir "$g" 2>/dev/null
    else
        times >"$L.tms" # a builtin with a redirection: this shell's children, not a subshell's
        cpu=$(awk 'NR == 2 { gsub(/s/, ""); split($1, u, "m"); split($2, y, "m"); print u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$L.tms")
    fi
    sum "$(cat "$L.cpu" 2>/dev/null || echo 0)" "$cpu" >"$L.cpu"
    exit 0
fi

mrc=$2
shift 2
D=${STAGE_LOGS:?stages.sh: STAGE_LOGS names the directory of the logs}
tp=0 tf=0 ts=0 bad="" summary=""
note() { echo "$1" >>"$D/notes"; }
for st in "$@"; do
    L=$D/$st
    if [ ! -f "$L.rc" ] && [ "$mrc" != 0 ]; then
        printf '%s\n' "$st: not run: make could not build what it needs (make's errors are above)" "$st: 0 passed, 0 failed, 1 skipped" >"$L.log"
        echo 0 >"$L.rc"
    fi
    printf '\n===== stage %s =====\n' "$st"
    cat "$L.log" 2>/dev/null
    rc=$(cat "$L.rc" 2>/dev/null || echo 1)
    line=$(grep -E '^([A-Za-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$L.log" 2>/dev/null | tail -n 1)
    p=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p'); p=${p:-0}
    f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p'); f=${f:-0}
    s=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) skipped.*/\1/p'); s=${s:-0}
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    # a stage that says nothing of what it checked has checked nothing that anyone can see
    if [ -z "$line" ] && [ "$f" -eq 0 ]; then
        f=1; note "$st: FAIL: the stage printed no count line ('N passed, N failed'): nothing it checked is counted"
    elif [ $((p + f + s)) -eq 0 ]; then
        f=1; note "$st: FAIL: the stage counted no check at all (0 passed, 0 failed, 0 skipped)"
    fi
    [ "$f" -ne 0 ] && bad="$bad $st"
    tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
    summary="$summary$(printf '  %-14s %5s passed %5s failed %5s skipped  (%ss, %ss CPU, from +%ss)' "$st" "$p" "$f" "$s" \
        "$(cat "$L.time" 2>/dev/null || echo 0.0)" "$(cat "$L.cpu" 2>/dev/null || echo 0.0)" "$(cat "$L.start" 2>/dev/null || echo '?')")
"
done
if [ "$mrc" != 0 ]; then
    tf=$((tf + 1)) bad="$bad make"
    note "make: FAIL: make exited $mrc: something the stages need could not be built (make's errors are above)"
fi
printf '\n===== summary =====\n%s' "$summary"
read -r t0 b0 <"$D/t0" 2>/dev/null || t0=$(now) b0=""
b1=$(machine_busy)
cpu=""
[ -n "$b0" ] && [ -n "$b1" ] &&
    cpu=$(awk -v a="$b0" -v b="$b1" -v t="$(getconf CLK_TCK 2>/dev/null || echo 100)" 'BEGIN { printf ", the machine busy %.1f CPU-s", (b - a) / t }')
echo "  $# stages, ${TEST_JOBS:-?} jobs at a time: $(sum "$(now)" 0 "$t0")s wall$cpu (logs in $D/)"
[ -f "$D/notes" ] && cat "$D/notes"
S=$D/wine-starts.log
if [ -s "$S" ]; then
    echo "Wine starts that failed for a reason of the host and were run again ($(wc -l <"$S"), $S):"
    sed 's/^/  /' "$S"
fi
[ -n "$bad" ] && printf 'failing stages:%s\n' "$bad"
printf '%d passed, %d failed, %d skipped\n' "$tp" "$tf" "$ts"
[ "$tf" -eq 0 ]
