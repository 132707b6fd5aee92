#!/bin/sh
# harness/tests/typed_refs.sh BUILD - a rule cited anywhere must exist: a misspelt rule id in a
# row, in a custom check or in the fuzzer, or a rule written as a string where a typed id belongs,
# fails the build with an error that names the file and line. Each mistake is made in a scratch
# copy of the tree, and only the object of the file it is in is built.
set -u
B=$1
. "$(dirname "$0")/lib.sh"
stage_tmp typed-refs
tar cf - Makefile mk spec reference harness cases tools 2>/dev/null | (cd "$T" && tar xf -)
cp -r "$B/gen" "$T/gen-orig" 2>/dev/null || true

# inject FILE PATTERN REPLACEMENT LABEL: replace the first line matching PATTERN (sed regex,
# applied to that line only), build FILE's object, and expect an error at FILE:LINE (or, for a
# mistake inside a row macro, the compiler's note that the failing macro was expanded there)
inject() {
    file=$1 pat=$2 rep=$3 label=$4
    line=$(grep -n -e "$pat" "$T/$file" | head -n 1 | cut -d: -f1)
    if [ -z "$line" ]; then no "$label: no line of $file matches $pat (the test is out of date)"; return; fi
    cp "$T/$file" "$T/$file.orig"
    sed -i "${line}s/$pat/$rep/" "$T/$file"
    if cmp -s "$T/$file" "$T/$file.orig"; then no "$label: the mistake was not made"; return; fi
    obj="build-typed/obj/${file%.c}.o"
    if (cd "$T" && make -s BUILD=build-typed "$obj") >"$T/out" 2>&1; then
        no "$label: $file:$line built without an error"
    elif grep -q ": error" "$T/out" && grep -q "^$file:$line:[0-9]*: \(error\|note: in expansion\)" "$T/out"; then
        ok "$label: the build fails at $file:$line ($(grep -m1 ": error" "$T/out" | sed 's/.*error: //' | cut -c1-60))"
    else
        no "$label: the build failed, but not at $file:$line: $(grep -m1 error "$T/out")"
    fi
    mv "$T/$file.orig" "$T/$file"
}

# the unchanged tree builds (so the failures below are the mistakes')
if (cd "$T" && make -s BUILD=build-typed build-typed/obj/cases/cti.o) >"$T/out" 2>&1; then
    ok "the scratch copy builds cases/cti.c"
else
    no "the scratch copy does not build: $(head -3 "$T/out")"
fi
inject cases/cti.c '\.rules = RULES(RID_CTI_NULL_HANDLE)' '.rules = RULES(RID_CTI_NULL_HANDEL)' "a misspelt rule in a row's .rules"
inject cases/tqi.c 'RETLEN(\([0-9]*\), RID_TQI_RETLEN_FAILURE)' 'RETLEN(\1, RID_TQI_RETLEN_FAILUR)' "a misspelt rule in a row's expectation"
inject cases/cti.c 'RID_CTI_LAST_ERROR, A_LASTERR' 'RID_CTI_LAST_EROR, A_LASTERR' "a misspelt rule in a custom check"
inject cases/tqi.c 'RETLEN(\([0-9]*\), RID_TQI_RETLEN_FAILURE)' 'RETLEN(\1, "TQI.RETLEN.FAILURE")' "a rule written as a string"
fz=$(grep -l 'RID_[A-Z0-9]*_[A-Z0-9_]*' tools/fuzz/*.c | head -n 1)
if [ -n "$fz" ]; then
    tok=$(grep -o 'RID_[A-Z0-9]*_[A-Z0-9_]*' "$fz" | grep -v '^RID_\(NONE\|PRIMARY\|END\)$' | head -n 1)
    inject "$fz" "$tok" "${tok}_TYPO" "a misspelt rule in the fuzzer ($tok)"
else
    no "the fuzzer cites no typed rule id (tools/fuzz/*.c)"
fi
summary typed-refs
