#!/bin/sh
# bench/bench.sh - the benchmarks of bench/README.md (which says how they are timed), run by
# `make bench` once the suite and bench/ programs are built. Writes $BUILD/bench/results.md.
# Environment: BUILD (build), MAKE (make), BENCH_ROUNDS (7), MINGW64_CC.
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
ROUNDS=${BENCH_ROUNDS:-7}
MINGW64_CC=${MINGW64_CC:-x86_64-w64-mingw32-gcc}
B=$BUILD/bench
BIN=$B/bin
W=$B/work
ETW=$BUILD/etwconf
TIMEIT=$BIN/timeit
NVERS=$(grep -c '^VERSION' spec/versions.def)
FIG=$B/figures.tsv
RES=$B/results.md
for p in "$ETW" "$TIMEIT" "$BIN/cti_bench"; do
    [ -x "$p" ] || { echo "bench: $p is missing: run 'make bench', which builds it" >&2; exit 3; }
done
rm -rf "$W"
mkdir -p "$W"
: >"$FIG"
START=$(date +%s)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
say() { echo "bench: $*" >&2; }

# fig ID FIGURE MEASURED TARGET MET HOW
fig() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$FIG"; }

# over a timeit samples file ("LABEL ROUND US" lines): the median over rounds of A/B (ratio FILE A
# B) or of A-B in us (diff_us FILE A B)
median_of() {
    awk -v a="$2" -v b="$3" -v op="$1" '$1==a{x[$2]=$3} $1==b{y[$2]=$3}
        END{n=0; for(r in x) if((r in y) && (op == "-" || y[r]>0)) v[n++]=op == "-" ? x[r]-y[r] : x[r]/y[r];
            for(i=1;i<n;i++){t=v[i]; for(j=i-1;j>=0&&v[j]>t;j--) v[j+1]=v[j]; v[j+1]=t}
            if(!n){print "nan"; exit} m = n%2 ? v[int(n/2)] : (v[n/2-1]+v[n/2])/2
            printf(op == "-" ? "%.0f" : "%.2f", m)}' "$4"
}
ratio() { median_of / "$2" "$3" "$1"; }
diff_us() { median_of - "$2" "$3" "$1"; }
# col SUMMARY LABEL N: column N of a timeit summary line (2 median us, 6 maxrss KB, 7 worst exit)
col() { awk -F'\t' -v l="$2" -v c="$3" '$1==l{print $c}' "$1"; }
ms() { awk -v u="$1" 'BEGIN{printf "%.1f ms", u/1000}'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a+0 <= b+0)}'; } # a <= b (numbers)
yesno() { if le "$1" "$2"; then echo yes; else echo no; fi; }
per_case() { awk -v d="$1" -v n="$2" 'BEGIN{printf "%.1f", n ? d/n : 0}'; }
# footer totals of result files: cases run, and whether every file is complete
cases_in() {
    cat "$@" 2>/dev/null | sed -n 's/.*"type":"footer".*"total":\([0-9]*\).*/\1/p' |
        awk '{s+=$1} END{print s+0}'
}
complete_in() { cat "$@" 2>/dev/null | grep -c '"type":"footer".*"complete":true'; }
# id+status of every case record, one per line (to compare two runs)
statuses() { sed -n 's/.*"type":"case".*"id":"\([^"]*\)".*"status":"\([A-Z]*\)".*/\1 \2/p' "$@"; }

# one process, every version (what `make results` does): $1 = isolation ('' = default)
allv() {
    mkdir -p "$W/run$1"
    echo "$ETW run --target reference --emulate all${1:+ --isolation $1} --quiet --out-dir $W/run$1"
}
help_iso() { sed -n '/--isolation/,/--timeout/p' | grep -o "$1" | head -n 1; }
DEFAULT_ISO=$("$ETW" run --help 2>&1 | help_iso '[a-z]* (default' | cut -d' ' -f1)
DEFAULT_ISO=${DEFAULT_ISO:-unknown}

# ============================================================ 1. native run
say "native run ($ROUNDS rounds)"
"$TIMEIT" -r "$ROUNDS" -w 1 -s "$W/native.samples" floor="$ETW version" run="$(allv '')" \
    run-batch="$(allv batch)" run-inproc="$(allv inproc)" >"$W/native.tsv"
CH_ROUNDS=$((ROUNDS / 3 > 2 ? ROUNDS / 3 : 2))
say "child isolation ($CH_ROUNDS rounds)"
"$TIMEIT" -r "$CH_ROUNDS" -w 0 -s "$W/child.samples" floor="$ETW version" \
    run-inproc="$(allv inproc)" run-child="$(allv child)" >"$W/child.tsv"

NCASES=$(cases_in "$W"/run/*.jsonl)
NCOMPLETE=$(complete_in "$W"/run/*.jsonl)
WORST=$(awk -F'\t' '$7>w{w=$7} END{print w+0}' "$W/native.tsv" "$W/child.tsv")
statuses "$W"/run/*.jsonl >"$W/run.status"
same_as_run() {
    statuses "$@" >"$W/cmp.status"
    if [ -s "$W/run.status" ] && cmp -s "$W/run.status" "$W/cmp.status"; then echo yes; else echo no; fi
}
FLOOR=$(col "$W/native.tsv" floor 2)
R_RUN=$(ratio "$W/native.samples" run floor)
fig native "Native run: every case x $NVERS versions, one process (\`etwconf run --emulate all\`, as \`make results\`), default isolation ($DEFAULT_ISO), / floor" \
    "${R_RUN}x ($(ms "$(col "$W/native.tsv" run 2)") vs $(ms "$FLOOR"))" "<= 10x floor" "$(yesno "$R_RUN" 10)" \
    "timeit, $ROUNDS rounds, median of per-round ratios; floor = \`etwconf version\`; $NCASES cases in $NCOMPLETE/$NVERS complete files, worst exit status $WORST"
for m in batch inproc child; do
    s=native t=$W/native.tsv
    [ $m = child ] && s=child t=$W/child.tsv
    r=$(ratio "$W/$s.samples" "run-$m" floor)
    fig "native-$m" "Native run, --isolation $m, / floor" "${r}x ($(ms "$(col "$t" "run-$m" 2)"))" "<= 10x floor" \
        "$(yesno "$r" 10)" "$s rounds; statuses identical to the default run: $(same_as_run "$W"/run$m/*.jsonl)"
done

# ============================================================ 3. isolation (native)
NONE=$(cases_in "$W"/runinproc/*.jsonl)
PC_INPROC=$(per_case "$(($(col "$W/native.tsv" run-inproc 2) - FLOOR))" "$NONE")
fig iso-inproc "Isolation cost, Linux, inproc: a whole case in process, guard included" "$PC_INPROC us" \
    "(reported)" "-" "(inproc run - floor) / $NONE cases"
fig iso-batch "Isolation cost, Linux, batch (one worker process, replaced after a crash): per case over inproc" \
    "$(per_case "$(diff_us "$W/native.samples" run-batch run-inproc)" "$NONE") us" "(reported)" "-" \
    "median per-round difference of the two runs / $NONE cases"
fig iso-child "Isolation cost, Linux, child (a process per case): per case over inproc" \
    "$(per_case "$(diff_us "$W/child.samples" run-child run-inproc)" "$NONE") us" "(reported)" "-" \
    "$CH_ROUNDS rounds, median per-round difference / $NONE cases"
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
    together=""
    [ "$nt" -gt 1 ] && together="; the threads ran at the same time for ${overlap}% of it"
    fig "cti-$nt" "Reference hot path: EtwCreateTraceInstanceId, $nt thread(s), one class / raw atomic increments" \
        "${r}x ($cm vs $am M calls/s), $dup duplicate ids" ">= 0.5x, no duplicate" "$met" \
        "bench/cti_bench.c, $rounds rounds of 8M calls, median per-round ratio; every id 1..N checked once ($bad bad ids, $failed failed calls)$together"
done <"$W/cti.tsv"

# ============================================================ 5. fuzz rate
say "fuzz"
# the reference as a library (the built-in copy is the oracle; fuzz refuses --target reference)
/usr/bin/time -f 'cpu %U %S wall %e' -o "$W/fuzz-time" "$ETW" fuzz --target "$BUILD/libetwref.so" \
    --seconds 3 --seed 1 >"$W/fuzz-out" 2>&1
frc=$?
calls=$(sed -n 's/^fuzz: \([0-9][0-9]*\) calls.*/\1/p' "$W/fuzz-out" | tail -n 1)
cpu=$(awk '/^cpu/{print $2 + $3}' "$W/fuzz-time" 2>/dev/null)
if [ -z "$calls" ] || [ -z "$cpu" ]; then
    fig fuzz "Fuzz rate: etwconf fuzz against the reference" \
        "not measured: could not read a call count from its output (exit $frc): $(tail -n 1 "$W/fuzz-out" | tr '\t|' '  ')" \
        ">= 1M calls/s per core" "n/a" "-"
else
    rate=$(awk -v c="$calls" -v t="$cpu" 'BEGIN{printf "%.2f", (t > 0 ? c/t/1e6 : 0)}')
    fig fuzz "Fuzz rate: etwconf fuzz --target $BUILD/libetwref.so (the reference; the built-in copy is the oracle) --seconds 3 --seed 1" \
        "${rate}M calls per CPU-second ($calls calls, exit $frc)" ">= 1M calls/s per core" "$(yesno 1 "$rate")" \
        "the call count it prints / its user+sys CPU time (/usr/bin/time): one CPU-second is one core busy for a second"
fi

# ============================================================ 2. + 3. Wine
. bench/wine.sh

# ============================================================ results.md
END=$(date +%s)
{
    echo "# etwconf benchmarks"
    echo
    echo "Written by \`make bench\` (bench/bench.sh, see bench/README.md) on $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' + uncommitted changes'),"
    echo "$(nproc) cores, load average $LOAD0 at the start and $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) at the end; the bench took $((END - START)) s."
    echo "Ratios are medians of per-round ratios of commands timed next to each other (absolute times drift on a shared machine)."
    echo
    echo "| figure | measured | target | met | how measured |"
    echo "|---|---|---|---|---|"
    awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6}' "$FIG"
    echo
    echo "## Raw medians"
    echo
    echo "timeit columns: label, median us, min us, max us, rounds, peak RSS KB, worst exit status."
    echo
    echo '```'
    for f in native child wine-fresh wine wine-iso; do
        [ -s "$W/$f.tsv" ] && { echo "# timeit: $f"; cat "$W/$f.tsv"; }
    done
    echo "# cti_bench: cti threads atomic_Mops cti_Mops ratio dups bad failed rounds overlap_pct"
    cat "$W/cti.tsv"
    echo '```'
} >"$RES"
echo "bench: $RES ($((END - START)) s)"
awk -F'\t' '{printf "  %-12s %-4s %s\n", $1, $5, $3}' "$FIG"
