# harness/tests/lib.sh - the shared part of the test stage scripts, sourced by each of them. It
# keeps the counts (the shell variables pass, fail and skip) and prints the closing line
# "NAME: N passed, N failed, N skipped" that harness/tests/stages.sh adds up.
#
#   ok / no / skip MSG   a check that held ("ok   MSG"), failed ("FAIL MSG"), or could not run here
#                        (MSG gives the reason: "skip MSG")
#   show TEXT            print TEXT (checks a helper printed) and count its ok / FAIL / skip lines
#   add_counts FILE      add FILE's last "[NAME: ]N passed, N failed[, N skipped]" line (a tool with
#                        its own counts); 1 failure when FILE has no such line
#   part LOG CMD...      run CMD, its output to LOG and printed whole, and add its counts; a
#                        non-zero exit with no failure counted is one failure
#   summary NAME         print the closing line; status 0 when nothing failed
#   finish NAME          summary NAME, then exit with its status
#   stage_tmp NAME       T: a new temporary directory, removed when the script exits
#   complete FILE        FILE, a results file, ends with a complete footer
#   count FILE STATUS [MODE]   the number of FILE's records of STATUS (and MODE)
#   within MS CMD...     run CMD every 50 ms until it succeeds (0) or MS milliseconds passed (1)
#   rc_of FILE           the exit status a background job wrote to FILE, or "?"
#   every DONE PLANNED WHAT [DETAIL]
#                        a check over a planned set: "ok WHAT (DONE of PLANNED)" when the set is not
#                        empty and all of it was done, else "FAIL WHAT: DONE of PLANNED[; DETAIL]"
#   chain_below PID      the processes between PID, an ancestor of this shell, and this shell (by
#                        parent pid, PID itself not); nothing when PID is no ancestor
#   pid_tree PID         PID and every process descended from it, one a line, found by parent pid
#   pe_imports EXE       the functions a PE file imports by name, one a line, from $OBJDUMP -p
#                        (x86_64-w64-mingw32-objdump; it reads i386 files too), in binutils 2.40's
#                        "vma hint name" and 2.44's "vma <none> hint name"; nothing without the tool
#                        or an import table
pass=0
fail=0
skip=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
skip() { skip=$((skip + 1)); echo "skip $*"; }
show() {
    printf '%s\n' "$1"
    pass=$((pass + $(printf '%s\n' "$1" | grep -c '^ok ')))
    fail=$((fail + $(printf '%s\n' "$1" | grep -c '^FAIL ')))
    skip=$((skip + $(printf '%s\n' "$1" | grep -c '^skip ')))
}
add_counts() {
    l=$(grep -E '^([A-Za-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" 2>/dev/null | tail -n 1)
    if [ -z "$l" ]; then
        no "$1: no count line"
        return 1
    fi
    set -- $(printf '%s\n' "$l" | sed 's/^[A-Za-z0-9-]*: //; s/[^0-9][^0-9]*/ /g') 0
    pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3))
}
part() {
    log=$1
    shift
    "$@" >"$log" 2>&1
    prc=$?
    cat "$log"
    f0=$fail
    add_counts "$log" || return 1
    if [ "$prc" -ne 0 ] && [ "$fail" -eq "$f0" ]; then
        no "$* exited $prc without counting a failure (see $log)"
    fi
    return 0
}
summary() {
    echo "$1: $pass passed, $fail failed, $skip skipped"
    [ "$fail" -eq 0 ]
}
finish() {
    summary "$1"
    exit $?
}
stage_tmp() {
    T=$(mktemp -d "${TMPDIR:-/tmp}/etwconf-$1.XXXXXX") || exit 2
    trap 'rm -rf "$T"' EXIT
}
complete() { tail -n 1 "$1" 2>/dev/null | grep -q '"type":"footer".*"complete":true'; }
count() {
    c=$(grep -c "\"status\":\"$2\"${3:+.*\"mode\":\"$3\"}" "$1" 2>/dev/null)
    echo "${c:-0}"
}
within() {
    wend=$(( $(date +%s%N) / 1000000 + $1 ))
    shift
    until "$@"; do
        [ $(( $(date +%s%N) / 1000000 )) -lt "$wend" ] || return 1
        sleep 0.05
    done
}
rc_of() { cat "$1" 2>/dev/null || echo "?"; }
every() {
    if [ "${2:-0}" -gt 0 ] 2>/dev/null && [ "$1" = "$2" ]; then
        ok "$3 ($1 of $2)"
    else
        no "$3: $1 of ${2:-0}${4:+; $4}"
    fi
}
chain_below() {
    cb="" cp=$$
    while :; do
        pp=$(sed 's/.*) [A-Za-z] \([0-9]*\) .*/\1/' "/proc/$cp/stat" 2>/dev/null)
        [ -n "$pp" ] && [ "$pp" -gt 1 ] || return 0
        [ "$cp" = $$ ] || cb="$cb $cp"
        [ "$pp" = "$1" ] && break
        cp=$pp
    done
    echo $cb
}
pid_tree() {
    ps -e -o pid=,ppid= 2>/dev/null | awk -v root="$1" '
        { parent[$1] = $2 }
        END {
            if (!(root in parent)) exit
            mine[root] = 1; print root
            for (grew = 1; grew; ) {
                grew = 0
                for (p in parent) if (!(p in mine) && (parent[p] in mine)) { mine[p] = 1; print p; grew = 1 }
            }
        }'
}
pe_imports() {
    "${OBJDUMP:-x86_64-w64-mingw32-objdump}" -p "$1" 2>/dev/null | awk '
        /^[[:space:]]*DLL Name:/ { dll = 1; next }
        dll && /^[[:space:]]*vma:/ { table = 1; next }
        /^[[:space:]]*$/ { dll = table = 0; next }
        table && NF >= 3 && $NF ~ /^[A-Za-z_][A-Za-z0-9_@]*$/ { print $NF }'
}
