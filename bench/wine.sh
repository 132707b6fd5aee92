# bench/wine.sh - sourced by bench/bench.sh: figures 2 (run under Wine vs hello.exe) and 3 (isolation
# cost under Wine). Uses its own prefix, $BUILD/bench/wineprefix, made as the suite makes its own
# (harness/tests/wine.sh prefix), and stops its wineserver at the end (also when interrupted).
WINE_REASON=""
WEXE=$BUILD/etwconf.exe
HELLO=$BIN/hello.exe
if ! command -v wine >/dev/null 2>&1 || ! command -v wineserver >/dev/null 2>&1; then
    WINE_REASON="wine is not installed (sh .ci/deps.sh windows)"
elif ! command -v "$MINGW64_CC" >/dev/null 2>&1; then
    WINE_REASON="$MINGW64_CC is not installed (sh .ci/deps.sh windows)"
elif ! $MAKE --no-print-directory BUILD="$BUILD" windows "$HELLO" >"$W/make-windows.log" 2>&1; then
    WINE_REASON="\`make windows $HELLO\` failed: $(grep -v '^make' "$W/make-windows.log" | tail -n 1 | tr '\t|' '  ')"
fi

if [ -n "$WINE_REASON" ]; then
    fig wine "Under Wine: full run in a warm prefix / hello.exe in the same prefix" \
        "not measured: $WINE_REASON" "<= 1.5x" "n/a" "-"
    fig wine-iso "Isolation cost under Wine (inproc, child)" "not measured: $WINE_REASON" "(reported)" "n/a" "-"
else
    # always the bench's own prefix (it is deleted below): a WINEPREFIX of the user's is not taken
    unset WINEPREFIX
    . harness/tests/wine-env.sh
    wine_stop_at_exit
    wine_stop
    rm -rf "$WINEPREFIX"
    say "Wine: fresh prefix"
    "$TIMEIT" -r 1 -w 0 fresh="env -u WINEPREFIX sh harness/tests/wine.sh prefix $B" >"$W/wine-fresh.tsv"
    "$WINESERVER" -p >/dev/null 2>&1 # persistent until wine_stop
    fig wine-fresh "Under Wine: fresh prefix cost (wineserver -p, wineboot -i, no debugger)" \
        "$(awk -F'\t' '{printf "%.1f s (exit %s)", $2/1e6, $7}' "$W/wine-fresh.tsv")" "(reported)" "-" \
        "timeit around the suite's own recipe (harness/tests/wine.sh prefix), once per machine or job"

    "$WINE" winecfg -v win10 </dev/null >/dev/null 2>&1 # the version the warm runs report
    WDEF=$("$WINE" "$WEXE" run --help 2>&1 | tr -d '\r' | help_iso '[a-z]* (default' | cut -d' ' -f1)
    WDEF=${WDEF:-unknown}
    # etwconf.exe has no reference inside: under Wine it tests Wine's own API ("live"), at the
    # Windows version the prefix reports. A full run = every case, one process.
    WRUN="$WINE $WEXE run --quiet --out $W/wine-run.jsonl"
    WROUNDS=$((ROUNDS + 4)) # cheap runs, noisy under Wine: more rounds
    say "Wine: warm runs ($WROUNDS rounds)"
    "$TIMEIT" -r "$WROUNDS" -w 1 -s "$W/wine.samples" hello="$WINE $HELLO" run="$WRUN" \
        run-inproc="$WRUN --isolation inproc" >"$W/wine.tsv"
    WN=$(cases_in "$W/wine-run.jsonl")
    RW=$(ratio "$W/wine.samples" run hello)
    fig wine "Under Wine: full run (every case against Wine's API, one process, default isolation = $WDEF) in a warm prefix / hello.exe" \
        "${RW}x ($(ms "$(col "$W/wine.tsv" run 2)") vs $(ms "$(col "$W/wine.tsv" hello 2)"))" "<= 1.5x" "$(yesno "$RW" 1.5)" \
        "timeit, $WROUNDS rounds, median per-round ratio; persistent wineserver, win10; $WN cases, complete footer: $(complete_in "$W/wine-run.jsonl")/1, worst exit $(col "$W/wine.tsv" run 7) (1 = Wine diverges)"

    # isolation per case under Wine, on a subset (a child costs tens of ms under Wine)
    WSUB='rtg.*'
    say "Wine: isolation"
    "$TIMEIT" -r 3 -w 0 -s "$W/wine-iso.samples" \
        inproc="$WINE $WEXE run --filter $WSUB --isolation inproc --quiet --out $W/wine-iso-inproc.jsonl" \
        child="$WINE $WEXE run --filter $WSUB --isolation child --quiet --out $W/wine-iso-child.jsonl" \
        >"$W/wine-iso.tsv"
    WSN=$(cases_in "$W/wine-iso-inproc.jsonl")
    RWIN=$(ratio "$W/wine.samples" run-inproc hello)
    PCW_INPROC=$(awk -v r="$RWIN" -v h="$(col "$W/wine.tsv" hello 2)" -v n="$WN" 'BEGIN{printf "%.0f", n ? (r-1)*h/n : 0}')
    fig wine-iso "Isolation cost under Wine, per case: child over inproc" \
        "$(per_case "$(diff_us "$W/wine-iso.samples" child inproc)" "$WSN") us (a whole in-process case: $PCW_INPROC us)" \
        "(reported)" "-" "timeit, 3 rounds, --filter '$WSUB' ($WSN cases), median per-round difference / cases"
    WDM=no
    case $WDEF in child | unknown) ;; *) WDM=yes ;; esac
    fig wine-iso-default "Default isolation of etwconf.exe is not a process per case" \
        "$WDEF (child only with --isolation child)" "not child" "$WDM" "from \`etwconf.exe run --help\`"
    wine_stop
    trap - EXIT INT TERM
    [ "${BENCH_KEEP_PREFIX:-0}" = 1 ] || rm -rf "$WINEPREFIX"
fi
