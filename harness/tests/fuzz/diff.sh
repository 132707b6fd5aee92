#!/bin/sh
# harness/tests/fuzz/diff.sh BUILD SECONDS - the differential fuzzer (etwconf fuzz) finds no
# disagreement between the reference built as a library and the built-in reference, and finds
# one against mutants of the reference (tools/mutate/mutants.def), each reduced to a case row
# that the harness checked: PASS on the reference, FAIL on the mutant.
# Last line: "fuzz-diff: N passed, N failed".
set -u
B=$1 S=${2:-3}
E=$B/etwconf
W=$B/fuzz/diff
mkdir -p "$W"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

"$E" fuzz --target "$B/libetwref.so" --seconds "$S" --seed 1 --quiet >"$W/reference.txt" 2>&1
rc=$?
rate=$(sed -n 's/^fuzz: .*(\([0-9]* calls\/s; [0-9]* calls per CPU second\)).*/\1/p' "$W/reference.txt")
[ "$rc" -eq 0 ] && ok "etwconf fuzz --target $B/libetwref.so: no disagreement in ${S}s ($rate)" \
    || bad "etwconf fuzz against the reference library exited $rc: $(grep -m1 DISAGREEMENT "$W/reference.txt")"

# one mutant per API family; each must be caught and reduced to a row the harness confirms
for m in tqi.0b.exact-to-min gmi.set-access-dropped ntc.22.too-small-code cti.zero-not-skipped traits.once-dropped tsi.04.code; do
    file=$("$B/mutate/mutate" list tools/mutate/mutants.def | awk -F'\t' -v id="$m" '$1 == id { print $2 }')
    base=$(basename "$file" .c)
    objs=$(ls "$B"/obj/reference/*.o | grep -v "/$base.o\$")
    if ! "$B/mutate/mutate" apply tools/mutate/mutants.def "$m" "$W/$m.c" ||
       ! ${CC:-cc} -std=c11 -O2 -I. -D_GNU_SOURCE -fPIC -fvisibility=hidden -w -c -o "$W/$m.o" "$W/$m.c" ||
       ! ${CC:-cc} -shared -Wl,-Bsymbolic -o "$W/$m.so" $objs "$W/$m.o" -lpthread; then
        bad "$m: could not build the mutant"; continue
    fi
    "$E" fuzz --target "$W/$m.so" --seconds 20 --seed 1 --max 1 --quiet >"$W/$m.txt" 2>&1
    rc=$?
    first=$(grep -m1 '^DISAGREEMENT' "$W/$m.txt" | sed 's/^DISAGREEMENT 1 ([^)]*): //')
    if [ "$rc" -eq 1 ] && grep -q 'CASE(.id = "fuzz\.' "$W/$m.txt" &&
       { grep -q 'row check (the harness ran the row): PASS on the reference at [0-9. ]*; [A-Z]* on the target' "$W/$m.txt" &&
         ! grep -q 'row check.*PASS on the target\|row check.*; NOT at' "$W/$m.txt" || grep -q 'needs a FN_CUSTOM case' "$W/$m.txt"; }; then
        ok "$m: found ($first), reduced to $(sed -n 's/^  minimal: .*; \([0-9]*\) call(s) at.*/\1/p' "$W/$m.txt") call(s), $(grep -q 'needs a FN_CUSTOM' "$W/$m.txt" && echo 'a custom-case sketch' || echo 'a row the harness checked')"
    else
        bad "$m: exit $rc, $(head -c 300 "$W/$m.txt")"
    fi
    rm -f "$W/$m.so" "$W/$m.o"
done
echo "fuzz-diff: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
