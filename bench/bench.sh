#!/bin/sh
# bench/bench.sh - the benchmarks of bench/README.md, run by `make bench` (mk/bench.mk)
# once the suite and bench/ programs are built. Writes $BUILD/bench/results.md.
#
# Every figure is a ratio (or a difference) of commands timed next to each other in the same run,
# round by round (bench/timeit.c rotates their order every round), and the median over the rounds:
# absolute times drift on a shared machine, ratios much less. Absolute medians are listed too.
#
# Environment: BUILD (build), MAKE (make), BENCH_ROUNDS (7), BENCH_SKIP_FRESH (0), BENCH_FRESH_LIMIT (150 s),
# MINGW64_CC.
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
ROUNDS=${BENCH_ROUNDS:-7}
FRESH_LIMIT=${BENCH_FRESH_LIMIT:-150} # seconds; each fresh-clone `make test` is stopped there (0: no limit)
MINGW64_CC=${MINGW64_CC:-x86_64-w64-mingw32-gcc}
B=$BUILD/bench
BIN=$B/bin
W=$B/work
ETW=$BUILD/etwconf
TIMEIT=$BIN/timeit
VERSIONS="$(awk -F'"' '/^VERSION/ { print $2 }' spec/versions.def)"
FIG=$B/figures.tsv
NOTES=$B/notes.md
RES=$B/results.md
for p in "$ETW" "$TIMEIT" "$BIN/isobench" "$BIN/cti_bench"; do
    [ -x "$p" ] || { echo "bench: $p is missing: run 'make bench', which builds it" >&2; exit 3; }
done
rm -rf "$W"
mkdir -p "$W"
: >"$FIG"
: >"$NOTES"
START=$(date +%s)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
say() { echo "bench: $*" >&2; }

# fig ID FIGURE MEASURED TARGET MET HOW
fig() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$FIG"; }
note() { printf '%s\n' "$*" >>"$NOTES"; }

# awk helpers over a timeit samples file ("LABEL ROUND US" lines)
# ratio FILE A B: median over rounds of A/B;  diff FILE A B: median over rounds of A-B (us)
ratio() {
    awk -v a="$2" -v b="$3" '$1==a{x[$2]=$3} $1==b{y[$2]=$3}
        END{n=0; for(r in x) if((r in y) && y[r]>0) v[n++]=x[r]/y[r];
            for(i=1;i<n;i++){t=v[i]; for(j=i-1;j>=0&&v[j]>t;j--) v[j+1]=v[j]; v[j+1]=t}
            if(!n){print "nan"; exit} printf "%.2f", n%2 ? v[int(n/2)] : (v[n/2-1]+v[n/2])/2}' "$1"
}
diff_us() {
    awk -v a="$2" -v b="$3" '$1==a{x[$2]=$3} $1==b{y[$2]=$3}
        END{n=0; for(r in x) if(r in y) v[n++]=x[r]-y[r];
            for(i=1;i<n;i++){t=v[i]; for(j=i-1;j>=0&&v[j]>t;j--) v[j+1]=v[j]; v[j+1]=t}
            if(!n){print "nan"; exit} printf "%.0f", n%2 ? v[int(n/2)] : (v[n/2-1]+v[n/2])/2}' "$1"
}
# col SUMMARY LABEL N: column N of a timeit summary line (2 median us, 6 maxrss KB, 7 worst exit)
col() { awk -F'\t' -v l="$2" -v c="$3" '$1==l{print $c}' "$1"; }
ms() { awk -v u="$1" 'BEGIN{printf "%.1f ms", u/1000}'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a+0 <= b+0)}'; } # a <= b (numbers)
yesno() { if le "$1" "$2"; then echo yes; else echo no; fi; }
# footer totals of result files: cases run, and whether every file is complete
cases_in() { cat "$@" 2>/dev/null | sed -n 's/.*"type":"footer".*"total":\([0-9]*\).*/\1/p' | awk '{s+=$1} END{print s+0}'; }
complete_in() { n=0; for f in "$@"; do grep -q '"type":"footer".*"complete":true' "$f" 2>/dev/null && n=$((n + 1)); done; echo $n; }
# id+status of every case record, one per line (to compare two runs)
statuses() { sed -n 's/.*"type":"case".*"id":"\([^"]*\)".*"status":"\([A-Z]*\)".*/\1 \2/p' "$@"; }
peak_kb() { sed -n 's/.*Maximum resident set size (kbytes): *//p' "$1" | sort -n | tail -n 1; }

# one process, every version (what `make results` does since --emulate all): $1 = binary, $2 = isolation ('' =
# default), $3 = output dir, $4... = extra options
allv() {
    bin=$1 iso=$2 dir=$3
    shift 3
    mkdir -p "$dir"
    echo "$bin run --target reference --emulate all${iso:+ --isolation $iso} --quiet --out-dir $dir $*"
}
# the same as six processes, one per version (how `make results` ran before --emulate all)
six() {
    s=""
    mkdir -p "$W/$1"
    for v in $VERSIONS; do
        s="$s${s:+ ;; }$ETW run --target reference --emulate $v --quiet --out $W/$1/reference-$v.jsonl"
    done
    echo "$s"
}
# every case id but $1, as --case options
all_but() { "$ETW" list | awk -v x="$1" '$1 != x {printf "--case %s ", $1}'; }

DEFAULT_ISO=$("$ETW" help | sed -n '/--isolation/,/--timeout/p' | grep -o '[a-z]* (default' | head -n 1 | cut -d' ' -f1)
DEFAULT_ISO=${DEFAULT_ISO:-unknown}

# ============================================================ 1. native run
say "native run ($ROUNDS rounds)"
"$TIMEIT" -r "$ROUNDS" -w 1 -s "$W/native.samples" \
    floor="$ETW version" \
    run="$(allv "$ETW" '' "$W/run")" \
    run-batch="$(allv "$ETW" batch "$W/run-batch")" \
    run-inproc="$(allv "$ETW" inproc "$W/run-inproc")" \
    six="$(six six)" \
    inproc-norcl="$(allv "$ETW" inproc "$W/norcl" "$(all_but rtg.count-limit)")" \
    >"$W/native.tsv"
CH_ROUNDS=$((ROUNDS / 3 > 2 ? ROUNDS / 3 : 2))
say "child isolation ($CH_ROUNDS rounds)"
"$TIMEIT" -r "$CH_ROUNDS" -w 0 -s "$W/child.samples" \
    floor="$ETW version" \
    run-inproc="$(allv "$ETW" inproc "$W/run-inproc")" \
    run-child="$(allv "$ETW" child "$W/run-child")" \
    >"$W/child.tsv"

RUNF=$(ls "$W"/run/*.jsonl 2>/dev/null)
NCASES=$(cases_in $RUNF)
NCOMPLETE=$(complete_in $RUNF)
WORST=$(awk -F'\t' '$7>w{w=$7} END{print w+0}' "$W/native.tsv" "$W/child.tsv")
statuses $RUNF >"$W/run.status"
same_as_run() { statuses "$@" >"$W/cmp.status"; if cmp -s "$W/run.status" "$W/cmp.status"; then echo yes; else echo no; fi; }
FLOOR=$(col "$W/native.tsv" floor 2)
R_RUN=$(ratio "$W/native.samples" run floor)
R_SIX=$(ratio "$W/native.samples" six floor)
fig native "Native run: every case x 6 versions, one process (\`etwconf run --emulate all\`, as \`make results\`), default isolation ($DEFAULT_ISO), / floor" \
    "${R_RUN}x ($(ms "$(col "$W/native.tsv" run 2)") vs $(ms "$FLOOR"))" "<= 10x floor" "$(yesno "$R_RUN" 10)" \
    "timeit, $ROUNDS rounds, median of per-round ratios; floor = \`etwconf version\`; $NCASES cases in $NCOMPLETE/6 complete files, worst exit status $WORST"
for m in batch inproc; do
    r=$(ratio "$W/native.samples" "run-$m" floor)
    fig "native-$m" "Native run, --isolation $m, / floor" "${r}x ($(ms "$(col "$W/native.tsv" "run-$m" 2)"))" "<= 10x floor" \
        "$(yesno "$r" 10)" "same rounds; statuses identical to the default run: $(same_as_run "$W"/run-$m/*.jsonl)"
done
r=$(ratio "$W/child.samples" run-child floor)
fig native-child "Native run, --isolation child (a process per case), / floor" "${r}x ($(ms "$(col "$W/child.tsv" run-child 2)"))" \
    "<= 10x floor" "$(yesno "$r" 10)" "timeit, $CH_ROUNDS rounds (slow mode), own floor; statuses identical: $(same_as_run "$W"/run-child/*.jsonl)"
fig native-six "Native run as 6 processes, one per version (before --emulate all), / floor" "${R_SIX}x ($(ms "$(col "$W/native.tsv" six 2)"))" \
    "<= 10x floor" "$(yesno "$R_SIX" 10)" "same rounds; statuses identical: $(same_as_run "$W"/six/*.jsonl)"
RI=$(ratio "$W/native.samples" run-inproc floor)
RN=$(ratio "$W/native.samples" inproc-norcl floor)
fig native-diag "Diagnostic: --isolation inproc without the case rtg.count-limit (213 --case options), / floor" \
    "${RN}x (with it: ${RI}x)" "(diagnostic)" "-" "same rounds; what the one 1 MiB guarded-buffer case costs"

# peak memory (/usr/bin/time -v)
if [ -x /usr/bin/time ]; then
    /usr/bin/time -v $(allv "$ETW" '' "$W/tv-run") 2>"$W/tv-run.log" >/dev/null
    /usr/bin/time -v "$ETW" version 2>"$W/tv-floor.log" >/dev/null
    fig native-mem "Peak memory, native run (default isolation: the parent; the batch worker is a fork of it) / floor" \
        "$(peak_kb "$W/tv-run.log") KB / $(peak_kb "$W/tv-floor.log") KB" "(reported)" "-" \
        "/usr/bin/time -v, Maximum resident set size (the largest of the process and the children it waited for)"
else
    fig native-mem "Peak memory, native run" "not measured: /usr/bin/time missing (sh .ci/deps.sh bench)" "(reported)" "-" "-"
fi

# ============================================================ 3. isolation (native)
say "isolation microbench"
"$BIN/isobench" 5 >"$W/iso.tsv"
GUARD_NS=$(awk -F'\t' '{print $2 - $3}' "$W/iso.tsv")
FORK_US=$(awk -F'\t' '{print $4}' "$W/iso.tsv")
NONE=$(cases_in "$W"/run-inproc/*.jsonl)
# per-case cost of each mode over inproc (same process count, so no process start in the difference)
D_BATCH=$(diff_us "$W/native.samples" run-batch run-inproc)
D_CHILD=$(diff_us "$W/child.samples" run-child run-inproc)
PC_BATCH=$(awk -v d="$D_BATCH" -v n="$NONE" 'BEGIN{printf "%.1f", n ? d/n : 0}')
PC_CHILD=$(awk -v d="$D_CHILD" -v n="$NONE" 'BEGIN{printf "%.1f", n ? d/n : 0}')
GUARD_US=$(awk -v g="$GUARD_NS" 'BEGIN{printf "%.1f", 2*g/1000}')
PC_INPROC=$(awk -v u="$(col "$W/native.tsv" run-inproc 2)" -v f="$FLOOR" -v n="$NONE" 'BEGIN{printf "%.1f", n ? (u-f)/n : 0}')
fig iso-inproc "Isolation cost, Linux, inproc: the in-process guard per case (2 guarded calls: body, teardown)" \
    "$GUARD_US us (a whole case, guard included: $PC_INPROC us)" "(reported)" "-" \
    "bench/isobench.c: plat_guarded_call around an empty body minus a direct call, median of 5 x 20000"
fig iso-batch "Isolation cost, Linux, batch (one worker process, replaced after a crash): per case over inproc" \
    "$PC_BATCH us" "(reported)" "-" "median per-round difference of the two runs / $NONE cases"
fig iso-child "Isolation cost, Linux, child (a process per case): per case over inproc" \
    "$PC_CHILD us (bare fork+wait: $FORK_US us)" "(reported)" "-" "$CH_ROUNDS rounds / $NONE cases; isobench: fork, _exit, waitpid"
R_DEF=$(ratio "$W/native.samples" run run-inproc) # "run" is the default isolation
DEFMET=no
[ "$DEFAULT_ISO" != child ] && le "$R_DEF" 1.2 && DEFMET=yes
fig iso-default "Default isolation ($DEFAULT_ISO) is the cheap one: its run / the cheapest mode's (inproc)" \
    "${R_DEF}x" "not child, <= 1.2x inproc" "$DEFMET" "median per-round ratio; child is used only when asked for"

# ============================================================ 4. reference hot path
say "EtwCreateTraceInstanceId"
if ! "$BIN/cti_bench" selftest >"$W/cti-selftest.log"; then
    echo "bench: the duplicate-id checker of cti_bench failed its self-test:" >&2
    cat "$W/cti-selftest.log" >&2
    exit 3
fi
"$BIN/cti_bench" 5 >"$W/cti.tsv"
while IFS='	' read -r _ nt am cm r dup bad failed rounds overlap; do
    met=no
    le 0.5 "$r" && [ "$dup" = 0 ] && [ "$bad" = 0 ] && [ "$failed" = 0 ] && met=yes
    fig "cti-$nt" "Reference hot path: EtwCreateTraceInstanceId, $nt thread(s), one class / raw atomic increments" \
        "${r}x ($cm vs $am M calls/s), $dup duplicate ids" ">= 0.5x, no duplicate" "$met" \
        "bench/cti_bench.c, $rounds rounds of 8M calls, median per-round ratio; every id 1..N checked once ($bad bad ids, $failed failed calls)$([ "$nt" -gt 1 ] && echo "; the threads ran at the same time for ${overlap}% of it")"
done <"$W/cti.tsv"

# ============================================================ 5. fuzz rate
say "fuzz"
FUZZ_SECONDS=3
"$ETW" fuzz --help >"$W/fuzz-help" 2>&1
frc=$?
if [ $frc -ne 0 ] || grep -qi "not implemented" "$W/fuzz-help"; then
    fig fuzz "Fuzz rate: etwconf fuzz against the reference" \
        "not measured: \`etwconf fuzz --help\` says: $(head -n 1 "$W/fuzz-help" | tr '\t|' '  ') (exit $frc)" ">= 1M calls/s per core" "n/a" "-"
else
    # the reference as a library (the built-in copy is the oracle; fuzz refuses --target reference)
    /usr/bin/time -f 'cpu %U %S wall %e' -o "$W/fuzz-time" "$ETW" fuzz --target "$BUILD/libetwref.so" --seconds $FUZZ_SECONDS --seed 1 \
        >"$W/fuzz-out" 2>&1
    frc=$?
    calls=$(sed -n 's/^fuzz: \([0-9][0-9]*\) calls.*/\1/p' "$W/fuzz-out" | tail -n 1)
    cpu=$(awk '/^cpu/{print $2 + $3}' "$W/fuzz-time")
    wall=$(awk '/^cpu/{print $5}' "$W/fuzz-time")
    if [ -z "$calls" ] || [ -z "$cpu" ]; then
        fig fuzz "Fuzz rate: etwconf fuzz against the reference" \
            "not measured: could not read a call count from its output (exit $frc): $(tail -n 1 "$W/fuzz-out" | tr '\t|' '  ')" \
            ">= 1M calls/s per core" "n/a" "-"
    else
        rate=$(awk -v c="$calls" -v t="$cpu" 'BEGIN{printf "%.2f", (t > 0 ? c/t/1e6 : 0)}')
        wrate=$(awk -v c="$calls" -v t="$wall" 'BEGIN{printf "%.2f", (t > 0 ? c/t/1e6 : 0)}')
        fig fuzz "Fuzz rate: etwconf fuzz --target $BUILD/libetwref.so (the reference; the built-in copy is the oracle) --seconds $FUZZ_SECONDS --seed 1" \
            "${rate}M calls per CPU-second (${wrate}M per wall second, $calls calls, exit $frc)" ">= 1M calls/s per core" \
            "$(yesno 1 "$rate")" "the call count it prints / its user+sys CPU time (/usr/bin/time): one CPU-second is one core busy for a second"
    fi
fi

# ============================================================ live profiles of missed targets
# profile TITLE CMD...: perf record (software clock) of CMD, its top symbols into results.md
profile() {
    title=$1
    shift
    command -v perf >/dev/null 2>&1 || return 0
    if ! perf record -q -e cpu-clock -F 5000 -o "$W/perf.data" -- "$@" >/dev/null 2>"$W/perf-rec.log"; then
        printf '%s: perf record failed here (%s).\n\n' "$title" "$(tail -n 1 "$W/perf-rec.log")" >>"$W/profiles.md"
        return 0
    fi
    {
        printf '%s, profiled in this run (`perf record -e cpu-clock -- %s`), top symbols by self time:\n\n```\n' "$title" "$*"
        perf report -i "$W/perf.data" --no-children --sort dso,sym -g none 2>/dev/null | grep '%' | head -n 12
        printf '```\n\n'
    } >>"$W/profiles.md"
}
: >"$W/profiles.md"
if awk -F'\t' '$1=="native" && $5=="no"{f=1} END{exit !f}' "$FIG"; then
    say "profiling the native run"
    mkdir -p "$W/prof"
    profile "The native run (in process, all versions)" "$ETW" run --target reference --emulate all --isolation inproc --quiet --out-dir "$W/prof"
fi
if awk -F'\t' '$1=="fuzz" && $5=="no"{f=1} END{exit !f}' "$FIG"; then
    say "profiling fuzz"
    profile "etwconf fuzz" "$ETW" fuzz --target "$BUILD/libetwref.so" --seconds 2 --seed 1 --quiet
fi
[ -s "$W/profiles.md" ] && sed -i '1i ## Profiles taken in this run (missed targets)\n' "$W/profiles.md"

# ============================================================ 2. + 3. Wine
. bench/wine.sh

# ============================================================ 6. fresh machine
# `make test` in a fresh clone of HEAD, given what is left of the 5 minutes of `make bench` (from
# BENCH_T0, set by mk/bench.mk; less 30 s for the rest: removing the clone, results.md), at most
# BENCH_FRESH_LIMIT; a run stopped there is "more than N s".
left() { echo $((270 - ($(date +%s) - ${BENCH_T0:-$START}))); }
# the limit of the fresh run: 0 = none
limit() {
    if [ "${BENCH_FRESH_LIMIT:-150}" = 0 ]; then echo 0; return; fi
    l=$(left)
    [ "$FRESH_LIMIT" -lt "$l" ] && l=$FRESH_LIMIT
    echo "$l"
}
if [ "${BENCH_SKIP_FRESH:-0}" = 1 ]; then
    fig fresh "Fresh-machine cost: \`make test\` in a fresh clone" "not measured: BENCH_SKIP_FRESH=1 was set" "< 60 s" "n/a" "-"
else
    FD=$(mktemp -d /tmp/etwconf-bench-fresh.XXXXXX)
    REV=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
    lim=$(limit)
    say "fresh clone + make test, HEAD $REV (limit $lim s)"
    if ! git clone -q "$(pwd)" "$FD/head" 2>"$W/fresh-head.clone"; then
        says="not measured: git clone failed: $(head -n 1 "$W/fresh-head.clone")"
    elif [ "$lim" != 0 ] && [ "$lim" -lt 30 ]; then
        says="not measured: the other figures used up the 5 minutes of \`make bench\` (run it alone with BENCH_FRESH_LIMIT=0)"
    else
        # the clone's own defaults: nothing of this make (MAKEFLAGS, BUILD) or of the bench's Wine prefix
        "$TIMEIT" -r 1 -w 0 -t "$lim" -o "$W/fresh-head.log" "head=env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u WINEPREFIX -u WINEDEBUG -u WINEARCH -u WINEDLLOVERRIDES -u WINE -u WINESERVER $MAKE -C $FD/head --no-print-directory test" >"$W/fresh-head.tsv"
        # a wineserver of the clone's Wine stages (persistent, outside the process group) must not outlive
        # it: each prefix the clone made is told to stop its own server (the clone ran the default
        # wineserver; no process is looked up by name)
        find "$FD/head" -maxdepth 6 -name system.reg 2>/dev/null | while IFS= read -r reg; do
            WINEPREFIX=${reg%/system.reg} timeout 20 wineserver -k >/dev/null 2>&1
        done
        secs=$(awk -F'\t' '$1=="head"{printf "%.1f", $2/1e6}' "$W/fresh-head.tsv") rc=$(col "$W/fresh-head.tsv" head 7)
        if [ "$rc" = 137 ] && [ "$lim" != 0 ]; then
            says="more than $lim s: stopped at the bench's time limit; stages printed by then: $(grep -o '^===== stage [a-z0-9-]* =====' "$W/fresh-head.log" | sed 's/===== stage \(.*\) =====/\1/' | tr '\n' ' ' | sed 's/ $//')"
        else
            says="$secs s (make test exit $rc: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$W/fresh-head.log" | tail -n 1))"
        fi
    fi
    rm -rf "$FD"
    met=no
    [ -n "${rc:-}" ] && [ "$rc" = 0 ] && le "$secs" 59.999 && met=yes
    fig fresh "Fresh-machine cost: \`make test\` in a fresh clone of HEAD (dependencies installed)" "$says" \
        "< 60 s, make test passes" "$met" \
        "git clone of HEAD $REV, then timeit around \`make test\`, once (log: $W/fresh-head.log; stage times below)"
    if grep -q '===== summary =====' "$W/fresh-head.log" 2>/dev/null; then
        note "Stage times of the fresh-clone \`make test\` of HEAD $REV (as it printed them):"
        note ""
        note '```'
        note "$(sed -n '/===== summary =====/,$p' "$W/fresh-head.log" | tail -n +2 | grep .)"
        note '```'
        note ""
    fi
fi

# ============================================================ results.md
END=$(date +%s)
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
if perf stat -e instructions true >/dev/null 2>"$W/perf.log" && ! grep -q "not supported" "$W/perf.log"; then
    PERF="perf stat -e instructions works here"
else
    PERF="perf stat -e instructions does not work here (hardware counters: $(grep -o 'not supported' "$W/perf.log" | head -n 1 || echo 'unavailable')): software events only (perf record -e cpu-clock)"
fi
{
    echo "# etwconf benchmarks"
    echo
    echo "Written by \`make bench\` (bench/bench.sh, see bench/README.md) on $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' + uncommitted changes'),"
    echo "$(nproc) cores, load average $LOAD0 at the start and $LOAD1 at the end; the bench took $((END - START)) s."
    echo "Ratios are medians of per-round ratios of commands timed next to each other (absolute times drift on a shared machine)."
    echo
    echo "| figure | measured | target | met | how measured |"
    echo "|---|---|---|---|---|"
    awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6}' "$FIG"
    echo
    echo "Profiling: $PERF."
    echo
    if [ -s "$NOTES" ]; then
        cat "$NOTES"
        echo
    fi
    echo "## Raw medians"
    echo
    echo "timeit columns: label, median us, min us, max us, rounds, peak RSS KB, worst exit status."
    echo
    echo '```'
    for f in native child wine-fresh wine wine-sweep wine-iso fresh-head; do
        [ -s "$W/$f.tsv" ] && { echo "# timeit: $f"; cat "$W/$f.tsv"; }
    done
    echo "# isobench (Linux): iso guard_ns direct_ns fork_us rounds"
    cat "$W/iso.tsv"
    if [ -s "$W/wine-isobench.tsv" ]; then
        echo "# isobench.exe (Wine): iso guard_ns direct_ns createprocess_us rounds"
        cat "$W/wine-isobench.tsv"
    fi
    echo "# cti_bench: cti threads atomic_Mops cti_Mops ratio dups bad failed rounds overlap_pct"
    cat "$W/cti.tsv"
    echo '```'
} >"$RES"
cat "$W/profiles.md" >>"$RES" 2>/dev/null
echo "bench: $RES ($((END - START)) s)"
awk -F'\t' '{printf "  %-12s %-4s %s\n", $1, $5, $3}' "$FIG"
