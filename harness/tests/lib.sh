# harness/tests/lib.sh - the shared part of the test stage scripts, sourced by each of them
# (harness/tests/*.sh, harness/tests/*/*.sh). It keeps the counts and prints the closing line
# "NAME: N passed, N failed, N skipped" that harness/tests/stages.sh adds up.
#
#   ok MSG...          a check that held:   "ok   MSG"
#   no MSG...          a check that failed: "FAIL MSG"
#   skip MSG...        a check that could not run here, with the reason: "skip MSG"
#   tally TEXT         count the "ok " / "FAIL " / "skip " lines of TEXT (checks printed by a helper,
#                      e.g. an embedded Python script); the caller prints TEXT itself
#   show TEXT          print TEXT and tally it
#   add_counts FILE    add the last "[NAME: ]N passed, N failed[, N skipped]" line of FILE (a tool
#                      with its own counts); 1 failure when FILE has no such line
#   part LOG CMD...    run a program with its own counts: its output goes to LOG and is printed
#                      whole, its closing line is added (add_counts); a non-zero exit with no
#                      failure counted is one failure
#   summary NAME       print the closing line; its status is 0 when nothing failed
#   within MS CMD...   run CMD every 50 ms until it succeeds (status 0) or MS milliseconds have
#                      passed (status 1): a wait for a condition, not for a fixed time
#   rc_of FILE         the exit status a background job wrote to FILE, or "?" when it wrote none
#   every DONE PLANNED WHAT [DETAIL]
#                      a check over a planned set (versions, cases, hosts, files): "ok WHAT (DONE of
#                      PLANNED)" when the set is not empty and all of it was done; otherwise a
#                      failure "WHAT: DONE of PLANNED[; DETAIL]". An empty set is never a pass.
#   chain_below PID    the processes between PID, an ancestor of this shell, and this shell: from
#                      PID's child down to this shell's parent, through their parent pids (never
#                      PID itself); nothing when PID is no ancestor
#   pid_tree PID       PID and every process descended from it (by parent pid), one a line: a
#                      background job's own processes, found by pid, never by name or command line
#
# The counters are the shell variables pass, fail and skip.
pass=0
fail=0
skip=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
skip() { skip=$((skip + 1)); echo "skip $*"; }
tally() {
    pass=$((pass + $(printf '%s\n' "$1" | grep -c '^ok ')))
    fail=$((fail + $(printf '%s\n' "$1" | grep -c '^FAIL ')))
    skip=$((skip + $(printf '%s\n' "$1" | grep -c '^skip ')))
}
show() {
    printf '%s\n' "$1"
    tally "$1"
}
# the counts of a closing line: "P F S" (S is 0 when the line has no skipped part)
count_line() {
    printf '%s\n' "$1" | sed -n 's/^\([A-Za-z0-9-]*: \)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed\(, \([0-9][0-9]*\) skipped\)\{0,1\}$/\2 \3 \5/p' |
        awk 'NF { print $1, $2, ($3 == "" ? 0 : $3) }'
}
add_counts() {
    l=$(grep -E '^([A-Za-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" 2>/dev/null | tail -n 1)
    if [ -z "$l" ]; then
        no "$1: no count line"
        return 1
    fi
    set -- $(count_line "$l")
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
