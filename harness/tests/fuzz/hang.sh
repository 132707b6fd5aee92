#!/bin/sh
# harness/tests/fuzz/hang.sh BUILD - the differential fuzzer (etwconf fuzz) against a target whose
# functions never return (harness/tests/bad/hang.c): it must end within --seconds plus a bounded
# grace, reporting the hung call as a TIMEOUT disagreement with a replay command that reproduces
# it, and exit 1; and against one whose functions overflow their stack (harness/tests/bad/stack.c),
# which must be reported as crashes. (A target that returns is not cut short: diff.sh.) Every run
# is bounded by timeout(1), so a fuzzer that hangs fails the test.
# Last line: "fuzz-hang: N passed, N failed".
set -u
B=$1
E=$B/etwconf
W=$B/fuzz/hang
mkdir -p "$W"
. "$(dirname "$0")/../lib.sh"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# fz NAME ARGS...: etwconf fuzz under timeout(1), its output to $W/NAME.txt; "rc ms args" to
# $W/NAME.rc. judge NAME LIMIT_S reads them into rc and ms: 1 (a failed check) when it was killed
# or took longer than LIMIT_S
fz() {
    name=$1
    shift
    t0=$(now_ms)
    timeout -s KILL 30 "$E" fuzz "$@" >"$W/$name.txt" 2>&1
    echo "$? $(($(now_ms) - t0)) $*" >"$W/$name.rc"
}
judge() {
    read -r rc ms args <"$W/$1.rc" || rc=137 ms=0 args=?
    [ "$rc" -ne 137 ] || { no "$1: etwconf fuzz $args did not end within 30 s (killed)"; return 1; }
    [ "$ms" -le $(($2 * 1000)) ] || { no "$1: etwconf fuzz $args took $ms ms, over $2 s"; return 1; }
}

# 3 runs in the background: it waits out the default per-call timeout (5 s) while the others run
fz default --target "$B/bad/hang.so" --seconds 1 --seed 7 --quiet &
default_pid=$!

# 1. a hang at the first call it makes: reported within the per-call timeout
fz first --target "$B/bad/hang.so" --seconds 2 --seed 1 --timeout-ms 500
judge first 10 && {
    [ "$rc" -eq 1 ] && grep -q '^DISAGREEMENT 1 (seed 1, program [0-9]*, version [0-9.]*): TIMEOUT: the target hung at call [0-9]* of the program (no return after 500 ms)' "$W/first.txt" &&
    grep -q '^  call: \(TraceQueryInformation\|NtQuerySystemInformation\)(' "$W/first.txt" &&
    grep -q "^  replay: etwconf fuzz --target $B/bad/hang.so --seed 1 --program [0-9]* --timeout-ms 500\$" "$W/first.txt" &&
    grep -q '^fuzz: .*seed 1: 1 disagreement(s); the target hung$' "$W/first.txt" &&
        ok "a target that hangs: TIMEOUT disagreement at $(sed -n 's/^  call: \([A-Za-z]*\)(.*/\1/p' "$W/first.txt"), exit 1, in $ms ms" ||
        no "hang: exit $rc, $(head -c 600 "$W/first.txt")"
}

# 2. the replay command it printed reproduces the same hung call
replay=$(sed -n 's/^  replay: etwconf fuzz //p' "$W/first.txt")
call=$(grep -m1 '^  call: ' "$W/first.txt")
if [ -z "$replay" ]; then
    no "no replay command printed"
elif fz replay $replay && judge replay 10; then
    [ "$rc" -eq 1 ] && grep -q 'TIMEOUT: the target hung at call' "$W/replay.txt" &&
    grep -qF -- "$call" "$W/replay.txt" &&
        ok "the replay command reproduces the hung call ($ms ms)" ||
        no "replay '$replay': exit $rc, $(head -c 600 "$W/replay.txt")"
fi

# 4. a bad --timeout-ms is a usage error
timeout 10 "$E" fuzz --target "$B/bad/hang.so" --timeout-ms 0 >"$W/usage.txt" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--timeout-ms takes' "$W/usage.txt" && ok "--timeout-ms 0 is a usage error (exit 2)" ||
    no "--timeout-ms 0: exit $rc, $(cat "$W/usage.txt")"

# 5. a target that overflows its stack on the fuzz loop's thread: a crash disagreement with its
#    replay command, not a process killed by SIGSEGV without a word
fz stack --target "$B/bad/stack.so" --seconds 1 --seed 1 --quiet
judge stack 15 && {
    [ "$rc" -eq 1 ] && grep -q 'CRASH on the target at [0-9.]*: the target crashed with SIGSEGV' "$W/stack.txt" &&
    grep -q "^  replay: etwconf fuzz --target $B/bad/stack.so --seed 1 --program [0-9]*\$" "$W/stack.txt" &&
    grep -q '^fuzz: .*seed 1: [1-9][0-9]* disagreement(s)' "$W/stack.txt" &&
        ok "a target that overflows its stack: CRASH disagreements with replay commands, exit 1, in $ms ms" ||
        no "stack overflow: exit $rc (139: killed by SIGSEGV), $(tail -c 600 "$W/stack.txt")"
}

# 3. the default per-call timeout (5 s) and --seconds bound the run without --timeout-ms (started first)
wait "$default_pid"
judge default 12 && {
    [ "$rc" -eq 1 ] && grep -q 'TIMEOUT: the target hung at call [0-9]* of the program (no return after 5000 ms)' "$W/default.txt" &&
        ok "without --timeout-ms the hang ends the run after the default 5 s ($ms ms)" ||
        no "default timeout: exit $rc, $(head -c 600 "$W/default.txt")"
}

summary fuzz-hang
