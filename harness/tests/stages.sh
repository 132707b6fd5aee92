#!/bin/sh
# harness/tests/stages.sh STAGE... - run each test stage (make test-STAGE), keep its log in
# build/test/STAGE.log, and add up the counts. Every stage ends its output with a line
# "N passed, N failed" (", N skipped" may follow); a stage that exits non-zero without such a
# line counts as one failure. The last line printed is the total, in the same form.
set -u
MAKE=${MAKE:-make}
mkdir -p build/test
tp=0; tf=0; ts=0; bad=""
summary=""
for st in "$@"; do
    log="build/test/$st.log"
    printf '\n===== stage %s =====\n' "$st"
    start=$(date +%s)
    $MAKE --no-print-directory -s "test-$st" >"$log" 2>&1
    rc=$?
    cat "$log"
    line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
    p=$(echo "$line" | sed -n 's/.*\b\([0-9][0-9]*\) passed.*/\1/p'); p=${p:-0}
    f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p'); f=${f:-0}
    s=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) skipped.*/\1/p'); s=${s:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    [ "$f" -ne 0 ] && bad="$bad $st"
    tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
    summary="$summary$(printf '  %-12s %5s passed %5s failed %5s skipped  (%ss)' "$st" "$p" "$f" "$s" "$(( $(date +%s) - start ))")
"
done
printf '\n===== summary =====\n%s' "$summary"
[ -n "$bad" ] && printf 'failing stages:%s (logs in build/test/)\n' "$bad"
printf '%d passed, %d failed, %d skipped\n' "$tp" "$tf" "$ts"
[ "$tf" -eq 0 ]
