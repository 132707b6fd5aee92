#!/bin/sh
# harness/tests/fuzz/diff.sh BUILD [CALLS] - the differential fuzzer (etwconf fuzz) finds no
# disagreement in CALLS calls of seed 3 (default 150000) between the reference built as a library
# and the built-in reference, and finds one against mutants of the reference
# (tools/mutate/mutants.def), each reduced to a case row that the harness checked: PASS on the
# reference, FAIL on the mutant. Every run is bounded by a number of calls with a fixed seed, not
# by the clock: the same programs on a busy machine as on an idle one. Seed 3's first 150000 calls
# reach every line and branch of the reference library and of the harness (but the timers of its
# platform layer) that seed 1's first 500000 reach (clang source-based coverage; of the fuzzer's
# own code, one branch fewer).
# Last line: "fuzz-diff: N passed, N failed, N skipped".
set -u
B=$1 N=${2:-150000}
E=$B/etwconf
W=$B/fuzz/diff
mkdir -p "$W"
. "$(dirname "$0")/../lib.sh"

# under a 1000 ms watchdog: a target that returns is not cut short (a TIMEOUT is a disagreement)
"$E" fuzz --target "$B/libetwref.so" --calls "$N" --seed 3 --timeout-ms 1000 --quiet \
    >"$W/reference.txt" 2>&1
rc=$?
calls=$(sed -n 's/^fuzz: \([0-9]*\) calls.*/\1/p' "$W/reference.txt")
rate=$(sed -n 's/^fuzz: .*(\([0-9]* calls\/s; [0-9]* calls per CPU second\)).*/\1/p' "$W/reference.txt")
if [ "$rc" -eq 0 ] && [ "${calls:-0}" -ge "$N" ]; then
    ok "etwconf fuzz --target $B/libetwref.so: no disagreement, none a TIMEOUT (--timeout-ms" \
        "1000), in $calls calls (seed 3; $rate)"
elif [ "$rc" -eq 0 ]; then
    no "etwconf fuzz against the reference library made ${calls:-no} calls, not $N: $(tail -n 1 "$W/reference.txt")"
else
    no "etwconf fuzz against the reference library exited $rc: $(grep -m1 DISAGREEMENT "$W/reference.txt")"
fi

# one mutant per API family; each must be caught (seed 1 finds each within a few thousand calls) and
# reduced to a row the harness confirms. Built as make mutate builds its mutants: without optimisation.
"$B/mutate/mutate" list tools/mutate/mutants.def >"$W/list.txt"
for m in tqi.0b.exact-to-min gmi.set-access-dropped ntc.22.too-small-code cti.zero-not-skipped traits.once-dropped tsi.04.code; do
    file=$(awk -F'\t' -v id="$m" '$1 == id { print $2 }' "$W/list.txt")
    base=$(basename "$file" .c)
    objs=$(ls "$B"/obj/reference/*.o | grep -v "/$base.o\$")
    if ! "$B/mutate/mutate" apply tools/mutate/mutants.def "$m" "$W/$m.c" ||
       ! ${CC:-cc} -std=c11 -O0 -g0 -I. -D_GNU_SOURCE -fPIC -fvisibility=hidden -w -c -o "$W/$m.o" "$W/$m.c" ||
       ! ${CC:-cc} -shared -Wl,-Bsymbolic -o "$W/$m.so" $objs "$W/$m.o" -lpthread; then
        no "$m: could not build the mutant"; continue
    fi
    "$E" fuzz --target "$W/$m.so" --calls 200000 --seed 1 --max 1 --quiet >"$W/$m.txt" 2>&1
    rc=$?
    first=$(grep -m1 '^DISAGREEMENT' "$W/$m.txt" | sed 's/^DISAGREEMENT 1 ([^)]*): //')
    if [ "$rc" -eq 1 ] && grep -q 'CASE(.id = "fuzz\.' "$W/$m.txt" &&
       { grep -q 'row check (the harness ran the row): PASS on the reference at [0-9a-z. -]*; [A-Z]* on the target' "$W/$m.txt" &&
         ! grep -q 'row check.*PASS on the target\|row check.*; NOT at' "$W/$m.txt" || grep -q 'needs a FN_CUSTOM case' "$W/$m.txt"; }; then
        ok "$m: found ($first), reduced to $(sed -n 's/^  minimal: .*; \([0-9]*\) call(s) at.*/\1/p' "$W/$m.txt") call(s), $(grep -q 'needs a FN_CUSTOM' "$W/$m.txt" && echo 'a custom-case sketch' || echo 'a row the harness checked')"
    else
        no "$m: exit $rc, $(head -c 300 "$W/$m.txt")"
    fi
    rm -f "$W/$m.so" "$W/$m.o"
done
summary fuzz-diff
