# bench/wine.sh - sourced by bench/bench.sh: figures 2 (run under Wine vs hello.exe) and 3 (isolation
# cost under Wine). Uses its own prefix, $BUILD/bench/wineprefix, set up as shared/notes/wine-ci.md
# section 1 says, and kills its wineserver at the end (also when the bench is interrupted).
WINE_REASON=""
WEXE=$BUILD/etwconf.exe
HELLO=$BIN/hello.exe
if ! command -v wine >/dev/null 2>&1 || ! command -v wineserver >/dev/null 2>&1; then
    WINE_REASON="wine is not installed (sh .ci/deps.sh windows)"
elif ! command -v "$MINGW64_CC" >/dev/null 2>&1; then
    WINE_REASON="$MINGW64_CC is not installed (sh .ci/deps.sh windows)"
fi
if [ -z "$WINE_REASON" ]; then
    say "make windows"
    if ! $MAKE --no-print-directory BUILD="$BUILD" windows >"$W/make-windows.log" 2>&1; then
        if grep -q "No rule to make target .windows" "$W/make-windows.log"; then
            WINE_REASON="\`make windows\` does not exist yet (mk/windows.mk), so there is no etwconf.exe"
        else
            WINE_REASON="\`make windows\` failed: $(grep -v '^make' "$W/make-windows.log" | tail -n 1 | tr '\t|' '  ')"
        fi
    elif [ ! -f "$WEXE" ]; then
        WINE_REASON="\`make windows\` did not build $WEXE"
    elif ! $MAKE --no-print-directory BUILD="$BUILD" "$HELLO" "$BIN/isobench.exe" >"$W/make-hello.log" 2>&1; then
        WINE_REASON="could not build $HELLO and $BIN/isobench.exe: $(tail -n 1 "$W/make-hello.log")"
    fi
fi

if [ -n "$WINE_REASON" ]; then
    for id in wine wine-fresh wine-sweep wine-mem wine-iso; do
        case $id in
        wine) f="Under Wine: full run in a warm prefix / hello.exe in the same prefix"; t="<= 1.5x" ;;
        wine-fresh) f="Under Wine: fresh prefix cost"; t="(reported)" ;;
        wine-mem) f="Peak memory under Wine"; t="(reported)" ;;
        wine-iso) f="Isolation cost under Wine (inproc, child)"; t="(reported)" ;;
        wine-sweep) f="Under Wine: the 6-version sweep"; t="(reported)" ;;
        esac
        fig "$id" "$f" "not measured: $WINE_REASON" "$t" "n/a" "-"
    done
else
    # always the bench's own prefix (it is deleted below): a WINEPREFIX of the user's is not taken
    unset WINEPREFIX
    . harness/tests/wine-env.sh
    wine_stop() {
        "$WINESERVER" -k >/dev/null 2>&1
        "$WINESERVER" -w >/dev/null 2>&1
    }
    trap 'wine_stop' EXIT
    trap 'wine_stop; exit 130' INT TERM
    wine_stop
    rm -rf "$WINEPREFIX"
    # fresh prefix: until the first program has run (wine-ci.md section 1)
    say "Wine: fresh prefix"
    "$TIMEIT" -r 1 -w 0 -o "$W/wine-fresh.log" fresh="sh bench/wine-prefix.sh $HELLO" >"$W/wine-fresh.tsv"
    FRESH_US=$(col "$W/wine-fresh.tsv" fresh 2)
    FRESH_RC=$(col "$W/wine-fresh.tsv" fresh 7)
    fig wine-fresh "Under Wine: fresh prefix cost (wineserver -p, wineboot -i, AeDebug, first hello.exe)" \
        "$(awk -v u="$FRESH_US" 'BEGIN{printf "%.1f s", u/1e6}') (exit $FRESH_RC); then $(du -sm "$WINEPREFIX" 2>/dev/null | cut -f1) MB on disk" \
        "(reported)" "-" "timeit around bench/wine-prefix.sh, once; a warm run needs this only once per machine/job"

    "$WINE" winecfg -v win10 </dev/null >/dev/null 2>&1 # the version the warm runs report (wine-ci.md: set it explicitly)
    WDEF=$("$WINE" "$WEXE" help 2>/dev/null | tr -d '\r' | sed -n '/--isolation/,/--timeout/p' | grep -o '([a-z]*default[^;)]*' | head -n 1)
    WDEF=${WDEF:-unknown}
    case $WDEF in *"in this process"* | *inproc*) WDEF=inproc ;; esac
    # etwconf.exe has no reference inside: under Wine it tests Wine's own API ("live"), at the Windows version the
    # prefix reports (win10, set by bench/wine-prefix.sh). A full run = every case, one process.
    WRUN="$WINE $WEXE run --quiet --out $W/wine-run.jsonl"
    WROUNDS=$((ROUNDS + 4)) # cheap runs, noisy under Wine: more rounds
    say "Wine: warm runs ($WROUNDS rounds)"
    "$TIMEIT" -r "$WROUNDS" -w 1 -s "$W/wine.samples" \
        hello="$WINE $HELLO" \
        run="$WRUN" \
        run-inproc="$WRUN --isolation inproc" \
        version="$WINE $WEXE version" \
        run1="$WINE $WEXE run --case exp.advapi32.tqi --quiet --out $W/wine-run1.jsonl" \
        norcl="$WINE $WEXE run --quiet --out $W/wine-norcl.jsonl $(all_but rtg.count-limit)" \
        >"$W/wine.tsv"
    WN=$(cases_in "$W/wine-run.jsonl")
    WC=$(complete_in "$W/wine-run.jsonl")
    WWORST=$(col "$W/wine.tsv" run 7)
    RW=$(ratio "$W/wine.samples" run hello)
    fig wine "Under Wine: full run (every case against Wine's API, one process, default isolation = $WDEF) in a warm prefix / hello.exe" \
        "${RW}x ($(ms "$(col "$W/wine.tsv" run 2)") vs $(ms "$(col "$W/wine.tsv" hello 2)"))" "<= 1.5x" "$(yesno "$RW" 1.5)" \
        "timeit, $WROUNDS rounds, median per-round ratio; persistent wineserver, win10; $WN cases, complete footer: $WC/1, worst exit $WWORST (1 = Wine diverges)"

    RWV=$(ratio "$W/wine.samples" version hello)
    RW1=$(ratio "$W/wine.samples" run1 hello)
    RWN=$(ratio "$W/wine.samples" norcl hello)
    fig wine-diag "Diagnostic under Wine, / hello.exe: \`etwconf.exe version\`; a run of one case; the full run without rtg.count-limit" \
        "${RWV}x / ${RW1}x / ${RWN}x" "(diagnostic)" "-" \
        "same rounds: the exe's own start; + opening the target and the results header (fingerprint); what the one 1 MiB guarded-buffer case costs"

    # the version sweep as \`make wine\` does it (harness/tests/wine.sh): the version for this exe
    # (AppDefaults), then a run, for each version
    say "Wine: version sweep (1 round)"
    set --
    for v in $(awk -F'"' '/^VERSION/ { print $4 }' spec/versions.def); do
        set -- "$@" "cfg-$v=$WINE reg add HKCU\\Software\\Wine\\AppDefaults\\$(basename "$WEXE") /v Version /t REG_SZ /d $v /f" \
            "run-$v=$WINE $WEXE run --quiet --out $W/wine-sweep-$v.jsonl"
    done
    "$TIMEIT" -r 1 -w 0 "$@" hello="$WINE $HELLO" >"$W/wine-sweep.tsv" # one round: in this order
    SW_ALL=$(awk -F'\t' '$1 ~ /^(cfg|run)-/{s+=$2} END{print s+0}' "$W/wine-sweep.tsv")
    SW_CFG=$(awk -F'\t' '$1 ~ /^cfg-/{s+=$2} END{print s+0}' "$W/wine-sweep.tsv")
    SW_CFGS=$(awk -F'\t' '$1 ~ /^cfg-/{printf "%s%s %.1f s", (n++ ? ", " : ""), substr($1, 5), $2/1e6}' "$W/wine-sweep.tsv")
    RS=$(awk -v a="$SW_ALL" -v h="$(col "$W/wine-sweep.tsv" hello 2)" 'BEGIN{printf "%.2f", (h > 0 ? a/(6*h) : 0)}')
    fig wine-sweep "Under Wine: the 6-version sweep as \`make wine\` does it (set the exe's AppDefaults version, then a run, per version) / 6 x hello.exe" \
        "${RS}x ($(ms "$SW_ALL"), of which setting the version $(ms "$SW_CFG"): $SW_CFGS)" "(reported)" "-" \
        "timeit, 1 round (it is long), each step timed; $(complete_in "$W"/wine-sweep-*.jsonl)/6 complete files"

    /usr/bin/time -v "$WINE" "$WEXE" run --quiet --out "$W/wine-mem.jsonl" 2>"$W/tv-wine" >/dev/null
    /usr/bin/time -v "$WINE" "$HELLO" 2>"$W/tv-hello" >/dev/null
    fig wine-mem "Peak memory under Wine (full run / hello.exe)" "$(peak_kb "$W/tv-wine") KB / $(peak_kb "$W/tv-hello") KB" \
        "(reported)" "-" "/usr/bin/time -v on \`wine etwconf.exe run\` (that process, not the persistent wineserver)"

    # isolation per case under Wine, on a subset (a child costs tens of ms under Wine)
    WSUB='rtg.*'
    say "Wine: isolation"
    "$TIMEIT" -r 3 -w 0 -s "$W/wine-iso.samples" \
        inproc="$WINE $WEXE run --filter $WSUB --isolation inproc --quiet --out $W/wine-iso-inproc.jsonl" \
        child="$WINE $WEXE run --filter $WSUB --isolation child --quiet --out $W/wine-iso-child.jsonl" \
        >"$W/wine-iso.tsv"
    "$WINE" "$BIN/isobench.exe" 3 20000 10 2>/dev/null | tr -d '\r' >"$W/wine-isobench.tsv"
    WGUARD=$(awk -F'\t' '{printf "%.2f", 2 * ($2 - $3) / 1000}' "$W/wine-isobench.tsv")
    WFORK=$(awk -F'\t' '{printf "%.0f", $4}' "$W/wine-isobench.tsv")
    WSN=$(cases_in "$W/wine-iso-inproc.jsonl")
    PCW_CHILD=$(awk -v d="$(diff_us "$W/wine-iso.samples" child inproc)" -v n="$WSN" 'BEGIN{printf "%.0f", n ? d/n : 0}')
    RWIN=$(ratio "$W/wine.samples" run-inproc hello)
    PCW_INPROC=$(awk -v r="$RWIN" -v h="$(col "$W/wine.tsv" hello 2)" -v n="$WN" 'BEGIN{printf "%.0f", n ? (r-1)*h/n : 0}')
    fig wine-iso "Isolation cost under Wine, per case: the in-process guard (2 calls) / child over inproc" \
        "${WGUARD:-?} us / $PCW_CHILD us (a whole in-process case: $PCW_INPROC us; a bare CreateProcess+wait: ${WFORK:-?} us)" "(reported)" "-" \
        "guard and CreateProcess: bench/isobench.c built with harness/win_*.c, under Wine; child: timeit, 3 rounds, --filter '$WSUB' ($WSN cases), median per-round difference / cases"
    WDM=no
    [ "$WDEF" = inproc ] && WDM=yes
    fig wine-iso-default "Default isolation of etwconf.exe is the cheap one" "$WDEF (child only with --isolation child)" "inproc" "$WDM" \
        "from \`etwconf.exe help\`"
    wine_stop
    trap - EXIT INT TERM
    [ "${BENCH_KEEP_PREFIX:-0}" = 1 ] || rm -rf "$WINEPREFIX"
fi
