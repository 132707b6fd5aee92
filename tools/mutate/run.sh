#!/bin/sh
# tools/mutate/run.sh - mutation testing of the suite (make mutate; see tools/mutate/README.md).
#
# For every mutant of tools/mutate/mutants.def: apply it to a copy of its reference file, build
# the reference with it as a shared library (as build/libetwref.so is built, so it exports the
# control API), run the whole suite against it at every version, and record whether some case
# noticed (FAIL, CRASH or TIMEOUT at some version: the mutant is KILLED) or not (it SURVIVED).
#
# Environment (the make target sets these):
#   MUT_BUILD     build directory holding etwconf, obj/reference/*.o and the mutate tool (default build)
#   MUT_CC        compiler (default cc)             MUT_CFLAGS  flags for the mutated file
#   MUT_VERSIONS  versions to run (default: all)    MUT_JOBS    mutants built and run at once (default 1)
#   MUT_FILTER    only mutants whose id matches one of these shell patterns (default: all)
#   MUT_DEF       the mutant list (default tools/mutate/mutants.def)
#   MUT_LDFLAGS   linker options for the mutants (default: gold without the LTO plugin, if it works)
# Output: one line per mutant, a summary, $MUT_BUILD/mutate/report.md, and a last line
#   "mutate: P passed, F failed, S skipped" (passed = killed, failed = a non-equivalent survivor,
#   an equivalent mutant that was killed, or a mutant that does not build; skipped = equivalent).
# Exit status: 0 when every non-equivalent mutant is killed and every equivalent one survives.
set -u
B=${MUT_BUILD:-build}
CC=${MUT_CC:-cc}
CFLAGS=${MUT_CFLAGS:--std=c11 -O2 -I. -D_GNU_SOURCE -fPIC -fvisibility=hidden -w}
VERSIONS=${MUT_VERSIONS:-all}
# newest first: most rules apply from 6.2 or 10.0 on, so most mutants are killed at the first versions
# (worked out once: the calls for each mutant get it from the environment)
if [ -n "${MUT_VLIST:-}" ]; then
    VLIST=$MUT_VLIST
elif [ "$VERSIONS" = all ]; then
    VLIST=$("$B/etwconf" versions | awk '{ print $1 }' | sed -n '1!G;h;$p' | tr '\n' ',' | sed 's/,$//')
else
    VLIST=$(echo "$VERSIONS" | tr ' ' ',')
fi
JOBS=${MUT_JOBS:-1}
FILTER=${MUT_FILTER:-*}
DEF=${MUT_DEF:-tools/mutate/mutants.def}
TOOL=$B/mutate/mutate
W=$B/mutate/work
LDFLAGS=${MUT_LDFLAGS:-}

# does the mutant id match one of the MUT_FILTER patterns?
wanted() {
    set -f # the patterns are for the ids, not for file names
    for pat in $FILTER; do
        # shellcheck disable=SC2254
        case "$1" in $pat) set +f; return 0 ;; esac
    done
    set +f
    return 1
}

# the linker: gold without the LTO plugin links a mutant in two thirds of the time of the default
# (the code is the same; only the layout of the library differs): the first that the compiler takes
# without a word. MUT_LDFLAGS overrides the choice.
pick_ldflags() {
    for f in "-fuse-ld=gold -fno-use-linker-plugin" "-fuse-ld=gold" ""; do
        # shellcheck disable=SC2086
        if msg=$(echo 'int x;' | $CC $f -shared -fPIC -o "$W/ld-probe.so" -x c - 2>&1) && [ -z "$msg" ]; then
            rm -f "$W/ld-probe.so"
            echo "$f"
            return
        fi
    done
}

# one MUTANT: build and run it, write $W/ID/result: "STATUS|kills|detail". Its source is already
# in $W/ID (mutate apply-each). It starts no process it can do without: one compiler driver
# compiles and links, the versions run in one etwconf run, one sed reads the results files
one() {
    id=$1 file=$2 eq=$3
    d=$W/$id
    base=${file##*/}
    if [ ! -f "$d/$base" ]; then
        mkdir -p "$d"
        echo "ERROR|0|does not apply: $(grep -F -m1 "$id" "$W/apply.log" | tr '\n' ' ')" >"$d/result"; return
    fi
    objs=""
    for o in "$B"/obj/reference/*.o; do
        [ "${o##*/}" = "${base%.c}.o" ] || objs="$objs $o"
    done
    # shellcheck disable=SC2086
    if ! $CC $CFLAGS -pipe -shared $LDFLAGS -Wl,-Bsymbolic -o "$d/mutant.so" $objs "$d/$base" -lpthread 2>"$d/build.log"; then
        echo "ERROR|0|does not build: $(grep -m1 -i error "$d/build.log")" >"$d/result"; return
    fi
    kills="" counted=0 n=0 runerr=""
    # the versions in one run, newest first, until one counts a failure: a mutant is killed by its
    # first counted failure (a survivor runs at every version). In process, as the built-in
    # reference runs, until a crash, hang or overrun; worker processes from then on
    "$B/etwconf" run --target "$d/mutant.so" --emulate "$VLIST" --quiet --isolation fallback --timeout-ms 2000 --stop-on-counted \
        --out-dir "$d/out" 2>>"$d/run.log"
    rc=$?
    [ "$rc" -gt 1 ] && runerr="etwconf run exited $rc"
    # case records: "id status counted" for every FAIL, CRASH and TIMEOUT, each file's after that
    # file's path (the version is in the file name; it may hold a dash: 6.1.7601-esi); the lines of
    # other statuses are dropped before the substitution, which is the slow part
    set -- "$d"/out/*.jsonl
    if [ -f "$1" ]; then
        LC_ALL=C sed -s -n -e '1{F;d}' -e '/"status":"\(FAIL\|CRASH\|TIMEOUT\)"/!d' \
            -e 's/^{"type":"case","seq":[0-9]*,"id":"\([^"]*\)".*"status":"\(FAIL\|CRASH\|TIMEOUT\)","counted":\(true\|false\).*/\1 \2 \3/p' \
            "$@" >"$d/kills"
    else
        : >"$d/kills"
    fi
    v=""
    while read -r cid st cnt; do
        case $cid in "$d"/out/*) v=${cid##*/mutant.so-}; v=${v%.jsonl}; continue ;; esac
        n=$((n + 1))
        [ "$cnt" = true ] && counted=$((counted + 1))
        if [ "$n" -le 3 ]; then
            if [ "$cnt" = true ]; then kills="$kills $cid@$v($st,counted)"; else kills="$kills $cid@$v($st)"; fi
        fi
    done <"$d/kills"
    if [ -n "$runerr" ] && [ "$n" -eq 0 ]; then
        echo "ERROR|0|$runerr" >"$d/result"
    elif [ "$n" -gt 0 ]; then
        kind=uncounted; [ "$counted" -gt 0 ] && kind=counted
        echo "KILLED|$n|$kind:$kills" >"$d/result"
    else
        echo "SURVIVED|0|" >"$d/result"
    fi
}

# several mutants per shell: "ID FILE EQ" triples
if [ "${1:-}" = some ]; then
    shift
    while [ $# -ge 3 ]; do
        one "$1" "$2" "$3"
        shift 3
    done
    exit 0
fi

[ -x "$TOOL" ] || { echo "mutate: $TOOL is missing (run make mutate)" >&2; exit 2; }
"$TOOL" check "$DEF" || { echo "mutate: 0 passed, 1 failed"; exit 1; }
rm -rf "$W"
mkdir -p "$W"
list=$B/mutate/list.txt
"$TOOL" list "$DEF" >"$list" || exit 1
start=$(date +%s)

# the mutants wanted, the equivalent ones first: they run at every version, the longest jobs, so
# they do not come last and leave a CPU idle at the end
todo=$B/mutate/todo.txt
while IFS='	' read -r id file kind eq desc; do
    wanted "$id" && printf '%s %s %s %s\n' "$eq" "$id" "$file" "$eq"
done <"$list" | sort -s -r -k1,1 | cut -d' ' -f2- >"$todo"
# every source at once (one process), then build and run, MUT_JOBS at a time, a few mutants per shell
# shellcheck disable=SC2046
"$TOOL" apply-each "$DEF" "$W" $(cut -d' ' -f1 "$todo") 2>"$W/apply.log"
MUT_VLIST=$VLIST MUT_LDFLAGS=${MUT_LDFLAGS-$(pick_ldflags)}
export MUT_VLIST MUT_LDFLAGS
xargs -P "$JOBS" -n 24 sh "$0" some <"$todo"
rm -f "$W"/*/mutant.so

# report
rep=$B/mutate/report.md
total=0 killed=0 killed_counted=0 survived=0 eqs=0 eqkilled=0 errors=0
surv_lines="" eq_lines="" bad_lines=""
{
    echo "# Mutation testing report"
    echo
    echo "Mutants: \`$DEF\`. Each was built as a target and run at: $VLIST (in that order, until a version counts a failure)."
    echo "KILLED = some case FAILed, CRASHed or TIMED OUT at some version (counted: a counted failure among them)."
    echo
    echo "| mutant | kind | result | first kills |"
    echo "|---|---|---|---|"
} >"$rep"
while IFS='	' read -r id file kind eq desc; do
    wanted "$id" || continue
    total=$((total + 1))
    r="ERROR|0|no result"
    [ -f "$W/$id/result" ] && read -r r <"$W/$id/result"
    st=${r%%|*}; rest=${r#*|}; n=${rest%%|*}; detail=${rest#*|}
    case "$st" in
        KILLED)
            if [ "$eq" = 1 ]; then
                eqkilled=$((eqkilled + 1)); line="EQUIV-KILLED $id: listed as equivalent, but killed by$detail"
                bad_lines="$bad_lines$line
"
            else
                killed=$((killed + 1))
                case "$detail" in counted:*) killed_counted=$((killed_counted + 1)) ;; esac
                line="KILLED   $id ($n failing case runs; ${detail%%:*}):${detail#*:}"
            fi ;;
        SURVIVED)
            if [ "$eq" = 1 ]; then
                eqs=$((eqs + 1)); why=$("$TOOL" why "$DEF" "$id")
                line="EQUIV    $id: $why"
                eq_lines="$eq_lines- \`$id\` ($desc): $why
"
            else
                survived=$((survived + 1)); line="SURVIVED $id ($kind): $desc"
                surv_lines="$surv_lines- \`$id\` ($kind, $file): $desc
"
                bad_lines="$bad_lines$line
"
            fi ;;
        *)
            errors=$((errors + 1)); line="ERROR    $id: $detail"
            bad_lines="$bad_lines$line
" ;;
    esac
    echo "$line"
    case $detail in *"|"*) detail=$(printf '%s\n' "$detail" | sed 's/|/\\|/g') ;; esac
    if [ "$eq" = 1 ]; then st="$st (equivalent)"; fi
    echo "| \`$id\` | $kind | $st | $detail |" >>"$rep"
done <"$list"

# no mutant run is no score: a filter that matches none, or an empty list, fails
if [ "$total" -eq 0 ]; then
    errors=1
    bad_lines="ERROR    no mutant of $DEF matches MUT_FILTER '$FILTER': nothing was tested
"
fi
score=$(awk -v k="$killed" -v l="$((killed + survived + errors))" 'BEGIN { if (l) printf "%.1f", 100 * k / l; else printf "0.0" }')
{
    echo
    echo "## Score"
    echo
    echo "$killed of $((killed + survived + errors)) non-equivalent mutants killed ($score%); $killed_counted of them by a counted failure."
    echo "$eqs mutants listed as equivalent (not in the score)."
    echo
    echo "## Survivors"
    echo
    [ -n "$surv_lines" ] && printf '%s' "$surv_lines" || echo "None."
    echo
    echo "## Equivalent mutants"
    echo
    [ -n "$eq_lines" ] && printf '%s' "$eq_lines" || echo "None."
} >>"$rep"

echo
echo "mutation score: $killed/$((killed + survived + errors)) non-equivalent mutants killed ($score%), $killed_counted by a counted failure; $eqs equivalent; $(( $(date +%s) - start ))s"
[ -n "$bad_lines" ] && printf 'problems:\n%s' "$bad_lines"
echo "report: $rep"
echo "mutate: $killed passed, $((survived + eqkilled + errors)) failed, $eqs skipped"
[ $((survived + eqkilled + errors)) -eq 0 ]
