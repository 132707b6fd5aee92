#!/bin/sh
# tools/mutate/test-anchors.sh BUILD - the mutants are anchored to tags, not to text.
#
# A copy of reference/ is edited without changing its behaviour: InformationLength renamed to
# Length (sed 's/InformationLength/Length/g'), SessionHandle to Session and ReturnLength to
# RetLen, and every block-comment line reflowed (split after its first sentence). Then:
#   - 'mutate check' against the copy finds every mutant, exactly once on its tagged line;
#   - every mutant applied to the copy gives the same code as the mutant applied to reference/
#     and then edited the same way (so no 'to:' text names a renamed parameter either);
# and the checks can fail: a misspelt tag, a duplicated tag, a changed tagged line, a mutant
# naming a parameter and a counted rule left without a mutant are each reported.
# Last line: "mutate-anchors: N passed, N failed".
set -u
B=${1:-build}
T=$B/mutate/mutate
DEF=tools/mutate/mutants.def
W=$B/mutate/anchors
. harness/tests/lib.sh
[ -x "$T" ] || { echo "mutate-anchors: $T is missing (make $T)"; echo "mutate-anchors: 0 passed, 1 failed"; exit 1; }
rm -rf "$W" && mkdir -p "$W/ref" "$W/orig" "$W/edited"

# the behaviour-neutral edits, applied in place to the files given
edit() {
    sed -i -e 's/InformationLength/Length/g' -e 's/\bSessionHandle\b/Session/g' -e 's/\bReturnLength\b/RetLen/g' \
        -e 's/^\( *\* [^.]*[a-z]\)\. \([A-Z].*\)$/\1.\n *  \2/' "$@"
}
cp reference/*.c reference/*.h "$W/ref/" 2>/dev/null || cp reference/*.c "$W/ref/"
edit "$W"/ref/*.c
if cmp -s reference/trace.c "$W/ref/trace.c" || ! grep -q '^ \*  [A-Z]' "$W"/ref/*.c || grep -q InformationLength "$W"/ref/*.c; then
    no "the edits did not change the copy as intended"
fi

# 1. every mutant is found in the edited copy
if out=$("$T" --ref "$W/ref" check "$DEF" 2>&1); then
    ok "mutate check against the renamed and reflowed copy: ${out#mutate check: }"
else
    no "mutate check against the renamed and reflowed copy: $(echo "$out" | head -n 5)"
fi

# 2. applying a mutant commutes with the edits; $1: the mutant list, $2: mutant ids; prints the ids that do not
# (each side's mutants written by one 'mutate apply-each', the edits run once over every mutated file,
# and one diff compares them all)
differing() {
    rm -rf "$W/orig" "$W/edited" && mkdir -p "$W/orig" "$W/edited"
    # shellcheck disable=SC2086
    "$T" apply-each "$1" "$W/orig" $2 2>/dev/null
    # shellcheck disable=SC2086
    "$T" --ref "$W/ref" apply-each "$1" "$W/edited" $2 2>/dev/null
    for id in $2; do # a mutant that does not apply on either side
        set -- "$W/orig/$id"/*.c "$W/edited/$id"/*.c
        if [ ! -f "$1" ] || [ ! -f "$2" ]; then
            echo "$id"; rm -rf "${W:?}/orig/$id" "${W:?}/edited/$id"
        fi
    done
    set -- "$W"/orig/*/*.c
    [ -f "$1" ] && edit "$@"
    # a file in one folder only is reported too: each of them names a mutant
    diff -rq "$W/orig" "$W/edited" | sed -n 's|^Files .*/orig/\([^/]*\)/[^/]*\.c and .* differ$|\1|p; s|^Only in [^:]*/\([^/:]*\): [^/]*\.c$|\1|p'
}
ids=$("$T" list "$DEF" | cut -f1 | tr '\n' ' ')
n=$(echo "$ids" | wc -w)
diffs=$(differing "$DEF" "$ids")
if [ "$n" -eq 0 ]; then
    no "no mutant listed in $DEF: nothing to compare on the edited copy"
elif [ -z "$diffs" ]; then
    ok "all $n mutants give the same code on the edited copy as on reference/ edited afterwards"
else
    no "mutants whose code differs on the edited copy (a text names a renamed parameter or a comment):" $diffs
fi

# 3. the checks can fail
expect_fail() { # WHAT PATTERN REF DEF: mutate check must fail and say PATTERN
    if out=$("$T" --ref "$3" check "$4" 2>&1); then
        no "$1: mutate check passed"
    elif echo "$out" | grep -q "$2"; then
        ok "$1: $(echo "$out" | grep -m1 "$2" | sed 's/^[^ ]* //')"
    else
        no "$1: mutate check failed without saying '$2': $(echo "$out" | head -n 3)"
    fi
}
broken() { # NAME SED-EXPRESSION: a copy of the edited reference with trace.c changed
    rm -rf "$W/$1" && cp -r "$W/ref" "$W/$1" && sed -i "$2" "$W/$1/trace.c"
    cmp -s "$W/ref/trace.c" "$W/$1/trace.c" && no "$1: the sed expression changed nothing"
}
broken misspelt 's/@TQI\.04\.MIN_SIZE /@TQI.04.MIN_SZE /'
expect_fail "a misspelt tag" "no rule TQI.04.MIN_SZE" "$W/misspelt" "$DEF"
broken duplicated 's|@TQI\.05\.RETLEN |@TQI.05.RETLEN @TQI.04.RETLEN |'
expect_fail "a tag given twice" "tag @TQI.04.RETLEN also at" "$W/duplicated" "$DEF"
broken changed '/@TQI\.CLASS\.SET:04/s/ETW_V6_2/ETW_V6_3/'
expect_fail "a changed tagged line" "'from' occurs 0 times in the code of the line tagged @TQI.CLASS.SET:04" "$W/changed" "$DEF"
awk '/^\[cti.zero-not-skipped\]/ { skip = 1; next } /^\[/ { skip = 0 } !skip' "$DEF" >"$W/no-wrap.def"
expect_fail "a counted rule without a mutant" "counted rule CTI.WRAP has no mutant" "$W/ref" "$W/no-wrap.def"
{ cat "$DEF"; printf '\n[probe.names-a-parameter]\nat: TQI.04.MIN_SIZE\nkind: size-off-by-one\ndesc: probe\nfrom: <\nto: < InformationLength + 0 *\n'; } >"$W/names.def"
diffs=$(differing "$W/names.def" probe.names-a-parameter)
[ "$diffs" = probe.names-a-parameter ] && ok "a mutant whose 'to:' names InformationLength is reported" \
    || no "a mutant whose 'to:' names InformationLength is not reported"

summary mutate-anchors
