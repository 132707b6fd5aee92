#!/bin/sh
# harness/tests/stages.sh STAGE... - run the test stages (make test-STAGE), TEST_JOBS of them at a
# time, and add up their counts.
#
# Each stage's output goes to BUILD/test/STAGE.log; the logs are printed whole, one after another in
# the order the stages are named (a stage's log appears as soon as it and every stage named before it
# have ended), then a summary with each stage's counts, wall time, CPU time (below: CG_ROOT) and start
# (seconds after the first stage started), the whole wall time and the CPU time the machine was busy
# meanwhile (on Linux), and last the total
# "N passed, N failed, N skipped". Every stage ends its output with a line "[NAME: ]N passed,
# N failed" (", N skipped" may follow); a stage that exits non-zero without counting a failure
# counts as one failure, and so does a stage that printed no such line, or one that counted nothing
# at all (0 passed, 0 failed, 0 skipped: it checked nothing) unless it only builds (TEST_BUILDERS).
# Wine starts that failed for a reason of the host and were run again (BUILD/test/wine-starts.log,
# harness/tests/wine-env.sh) are listed after the summary. Exit status 0 when nothing failed.
#
# Environment: MAKE (make), BUILD (build), TEST_JOBS (stages at once; default: the number of CPUs),
# TEST_FIRST (stages to start before the others, longest first, so that the short ones fill the gaps;
# the printed order stays the named order), TEST_EXCLUSIVE (stages of which at most one runs at a time,
# e.g. two that use the same Wine prefix), TEST_BUILDERS (stages that build and count no check),
# TEST_AFTER (items A:B: stage B starts only after stage A has
# ended, and is not run, but counted as skipped with the reason, when A failed; an A that is not among
# the stages is taken as ended), TEST_NICE (stages run at a lower CPU
# priority, TEST_NICE_LEVEL, default 5: long CPU-bound ones that fill the time others wait, so that
# those others, and the stages waited for, are not slowed by them), TEST_CGROUP (0: no control groups
# for the CPU times). Stages must not build the same files: the make target
# `test` builds what several stages share before it calls this script (Makefile: TEST_PREP), or a
# stage builds it that the others wait for (TEST_AFTER; winprep, mk/windows.mk).
set -u
MAKE=${MAKE:-make}
B=${BUILD:-build}
JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
D=$B/test
mkdir -p "$D"
now() { date +%s.%N | cut -c1-14; }
# since T: the seconds from T (a now()) to now, to a tenth
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f\n", b - a }'; }
# the busy CPU time of the whole machine so far, in clock ticks (Linux: /proc/stat; empty elsewhere):
# it also counts what the stages' times cannot, the daemons they start (Wine's server and services)
machine_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat 2>/dev/null; }
T0=$(now)
B0=$(machine_busy)

# the start order: TEST_FIRST (those that are named) first, then the rest as named
order=""
for st in ${TEST_FIRST:-}; do
    case " $* " in *" $st "*) order="$order $st" ;; esac
done
for st in "$@"; do
    case " $order " in *" $st "*) ;; *) order="$order $st" ;; esac
done

# a stage ends by writing its name into this FIFO (opened read-write: no open blocks, no reader is lost)
fifo=$D/.stages.$$
rm -f "$fifo"
mkfifo "$fifo" || { echo "stages.sh: cannot make the FIFO $fifo" >&2; exit 2; }
exec 3<>"$fifo"
rm -f "$fifo"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
}
trap 'cleanup; cg_end; exit 130' INT TERM

# Each stage's CPU time: where this user may make a cpuacct control group (Linux, cgroup v1, root),
# the stage runs in one of its own, which also counts the daemons it starts (Wine's server and
# services, sshd) and the processes it leaves behind; elsewhere the user+sys times of its waited-for
# processes (the shell's times), which miss those.
CG_ROOT=/sys/fs/cgroup/cpuacct
CG=""
if [ "${TEST_CGROUP:-1}" = 1 ] && [ -w "$CG_ROOT" ] && mkdir "$CG_ROOT/etwconf-stages-$$" 2>/dev/null; then
    CG=$CG_ROOT/etwconf-stages-$$
fi
cg_end() { # move what is left in the stages' groups back, and remove them
    [ -n "$CG" ] || return 0
    for g in "$CG"/*/; do
        [ -d "$g" ] || continue
        while read -r p; do echo "$p" >"$CG_ROOT/cgroup.procs" 2>/dev/null; done <"${g}cgroup.procs"
        rmdir "$g" 2>/dev/null
    done
    rmdir "$CG" 2>/dev/null
}

start() {
    st=$1
    (
        s=$(now)
        since "$T0" >"$D/$st.start"
        nice=""
        case " ${TEST_NICE:-} " in *" $st "*) nice="nice -n ${TEST_NICE_LEVEL:-5}" ;; esac
        g=""
        if [ -n "$CG" ] && mkdir "$CG/$st" 2>/dev/null; then g=$CG/$st; fi
        # the stage's make in its group (a child shell joins it, then becomes make)
        $nice sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "$g" \
            $MAKE --no-print-directory -s "test-$st" >"$D/$st.log" 2>&1 </dev/null 3>&-
        rc=$?
        # wall seconds, and the CPU seconds (user+sys) of everything the stage ran
        since "$s" >"$D/$st.time"
        if [ -n "$g" ] && [ -r "$g/cpuacct.usage" ]; then
            awk '{ printf "%.1f\n", $1 / 1e9 }' "$g/cpuacct.usage" >"$D/$st.cpu"
        else
            times >"$D/$st.cpu" # a builtin with a redirection: run by this shell, not a child
            awk 'NR == 2 { gsub(/s/, ""); split($1, u, "m"); split($2, y, "m");
                printf "%.1f\n", u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$D/$st.cpu" >"$D/$st.cpu.tmp"
            mv "$D/$st.cpu.tmp" "$D/$st.cpu"
        fi
        echo "$rc" >"$D/$st.rc"
        echo "$st" >&3
    ) &
    pids="$pids $!"
}

# print the logs of the stages that have ended, in the named order, up to the first still running
printed=0
flush() {
    i=0
    for fs in "$@"; do
        i=$((i + 1))
        [ "$i" -le "$printed" ] && continue
        [ -f "$D/$fs.rc" ] || return 0
        printf '\n===== stage %s =====\n' "$fs"
        cat "$D/$fs.log"
        printed=$i
    done
}

for st in "$@"; do rm -f "$D/$st.rc" "$D/$st.time" "$D/$st.cpu" "$D/$st.start" "$D/$st.notrun"; done
STARTS=$(cd "$D" && pwd)/wine-starts.log
WINE_START_LOG=$STARTS
export WINE_START_LOG
rm -f "$STARTS"
all=" $* "
# the stages ST comes after (TEST_AFTER), of those being run
after() {
    for dep in ${TEST_AFTER:-}; do
        [ "${dep#*:}" = "$1" ] || continue
        case $all in *" ${dep%%:*} "*) echo "${dep%%:*}" ;; esac
    done
}
# may ST start now? Not before the stages it comes after have ended, nor when it is exclusive and
# another exclusive stage runs
free() {
    for a in $(after "$1"); do
        [ -f "$D/$a.rc" ] || return 1
    done
    case " ${TEST_EXCLUSIVE:-} " in *" $1 "*) ;; *) return 0 ;; esac
    for r in $busy; do
        case " ${TEST_EXCLUSIVE:-} " in *" $r "*) return 1 ;; esac
    done
    return 0
}
# the stage that ST comes after (TEST_AFTER) and that failed or was not run, if there is one: ST is
# then not run (it would find missing what that stage builds, and build it itself, perhaps beside
# another stage)
after_failed() {
    for a in $(after "$1"); do
        { [ -f "$D/$a.notrun" ] || { [ -f "$D/$a.rc" ] && [ "$(cat "$D/$a.rc")" != 0 ]; }; } && { echo "$a"; return 0; }
    done
    return 1
}
not_run() {
    : >"$D/$1.notrun"
    if [ -f "$D/$2.notrun" ]; then why="was not run"; else why="failed (its log: $D/$2.log)"; fi
    { echo "$1: not run: it comes after the stage $2, which $why"
      echo "$1: 0 passed, 0 failed, 1 skipped"; } >"$D/$1.log"
    since "$T0" >"$D/$1.start"
    echo 0.0 >"$D/$1.time"; echo 0.0 >"$D/$1.cpu"; echo 0 >"$D/$1.rc"
}
running=0 busy="" pending=$order
while [ -n "$pending" ] || [ "$running" -gt 0 ]; do
    # start what may start, in the start order
    left="" skipped=0
    for st in $pending; do
        if a=$(after_failed "$st"); then
            not_run "$st" "$a"
            skipped=1
        elif [ "$running" -lt "$JOBS" ] && free "$st"; then
            start "$st"
            running=$((running + 1))
            busy="$busy $st"
        else
            left="$left $st"
        fi
    done
    pending=$left
    # a stage not run: look again at once, for the stages that come after it
    if [ "$skipped" = 1 ]; then flush "$@"; continue; fi
    [ "$running" -gt 0 ] || break
    read -r done_st <&3
    running=$((running - 1))
    nb=""
    for r in $busy; do [ "$r" = "$done_st" ] || nb="$nb $r"; done
    busy=$nb
    flush "$@"
done
wait
exec 3>&-
cg_end

# a stage that only builds (TEST_BUILDERS) and counts no check
builder() { case " ${TEST_BUILDERS:-} " in *" $1 "*) return 0 ;; esac; return 1; }
tp=0; tf=0; ts=0; bad=""
summary=""
rm -f "$D/notes"
for st in "$@"; do
    log=$D/$st.log
    rc=$(cat "$D/$st.rc" 2>/dev/null || echo 1)
    line=$(grep -E '^([A-Za-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" 2>/dev/null | tail -n 1)
    p=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p'); p=${p:-0}
    f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p'); f=${f:-0}
    s=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) skipped.*/\1/p'); s=${s:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    # a stage that says nothing of what it checked has checked nothing that anyone can see
    if [ -z "$line" ] && [ "$f" -eq 0 ]; then
        f=1; echo "$st: FAIL: the stage printed no count line ('N passed, N failed'): nothing it checked is counted" >>"$D/notes"
    elif [ $((p + f + s)) -eq 0 ] && ! builder "$st"; then
        f=1; echo "$st: FAIL: the stage counted no check at all (0 passed, 0 failed, 0 skipped)" >>"$D/notes"
    fi
    [ "$f" -ne 0 ] && bad="$bad $st"
    tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
    summary="$summary$(printf '  %-14s %5s passed %5s failed %5s skipped  (%ss, %ss CPU, from +%ss)' "$st" "$p" "$f" "$s" \
        "$(cat "$D/$st.time" 2>/dev/null || echo '?')" "$(cat "$D/$st.cpu" 2>/dev/null || echo '?')" \
        "$(cat "$D/$st.start" 2>/dev/null || echo '?')")
"
done
printf '\n===== summary =====\n%s' "$summary"
cpu=""
B1=$(machine_busy)
if [ -n "$B0" ] && [ -n "$B1" ]; then
    cpu=$(awk -v a="$B0" -v b="$B1" -v t="$(getconf CLK_TCK 2>/dev/null || echo 100)" 'BEGIN { printf ", the machine busy %.1f CPU-s", (b - a) / t }')
fi
echo "  $# stages, $JOBS at a time: $(since "$T0")s wall$cpu (logs in $D/)"
[ -f "$D/notes" ] && cat "$D/notes"
if [ -s "$STARTS" ]; then
    echo "Wine starts that failed for a reason of the host and were run again ($(wc -l <"$STARTS"), $STARTS):"
    sed 's/^/  /' "$STARTS"
fi
[ -n "$bad" ] && printf 'failing stages:%s\n' "$bad"
printf '%d passed, %d failed, %d skipped\n' "$tp" "$tf" "$ts"
[ "$tf" -eq 0 ]
