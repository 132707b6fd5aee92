# harness/tests/wine-env.sh - the environment for headless Wine, sourced by the test scripts and
# bench/wine.sh with B set to the build directory. The Wine to use, as a Wine developer sets it:
#   WINE=PATH        the loader (default: wine from PATH; Debian's 64-bit loader, below)
#   WINESERVER=PATH  its server (default: server/wineserver or wineserver beside a WINE given as a
#                    path, else wineserver from PATH)
#   WINEPREFIX=DIR   the user's prefix: used as it is, never reset or deleted (WINE_OWN_PREFIX=0).
#                    Without it, the suite's own prefix B/wineprefix (WINE_OWN_PREFIX=1).
#   WINEDEBUG        kept when set (default -all)
# No Mono/Gecko/menu installs, no display (crashes would hang on winedbg's dialog).
if [ -z "${WINE:-}" ]; then
    WINE=wine
    # Debian's `wine` script picks the 32-bit loader once Wine's 32-bit part is installed, which
    # hands every 64-bit program to start.exe (one more process per start); the 64-bit loader runs
    # 64-bit programs itself and 32-bit ones through the 32-bit loader.
    if [ -x /usr/lib/wine/wine64 ] && [ "$(command -v wine 2>/dev/null)" = /usr/bin/wine ]; then
        WINE=/usr/lib/wine/wine64
    fi
fi
if [ -z "${WINESERVER:-}" ]; then
    WINESERVER=wineserver
    case $WINE in
        */*)
            d=$(dirname "$WINE")
            if [ -x "$d/server/wineserver" ]; then WINESERVER=$d/server/wineserver
            elif [ -x "$d/wineserver" ]; then WINESERVER=$d/wineserver
            fi ;;
    esac
fi
if [ -n "${WINEPREFIX:-}" ]; then
    WINE_OWN_PREFIX=0
    case $WINEPREFIX in /*) ;; *) WINEPREFIX=$(pwd)/$WINEPREFIX ;; esac
else
    WINE_OWN_PREFIX=1
    WINEPREFIX=$(cd "$B" && pwd)/wineprefix
    WINEARCH=win64
    export WINEARCH
fi
WINEDEBUG=${WINEDEBUG:--all}
WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-"mscoree,mshtml=;winemenubuilder.exe=d"}
export WINE WINESERVER WINEPREFIX WINEDEBUG WINEDLLOVERRIDES WINE_OWN_PREFIX
unset DISPLAY WAYLAND_DISPLAY

# wine_run SECONDS ARG...: "$WINE" ARG... with a time limit (wine_retry).
# wine_retry CMD...: a command that starts Wine (a wrapper such as strace around it, say). A start
# that failed for a reason of the host ("failed to map the shared user data": the address-space
# layout the kernel gave the process or a worker it starts) is no result about the program: the
# command is run again, at most WINE_START_TRIES times in all (default 3), each failed start a line
# in WINE_START_LOG (default B/test/wine-starts.log). The two streams are written out once it has
# ended, so a retry does not repeat them. Exit status: the command's, or 125 if no start worked.
WINE_HOST_START_FAILURES='failed to map the shared user data'
WINE_START_LOG=${WINE_START_LOG:-$(cd "${B:-.}" 2>/dev/null && pwd)/test/wine-starts.log}
export WINE_START_LOG
wine_run() {
    wr_secs=$1
    shift
    wine_retry timeout "$wr_secs" "$WINE" "$@"
}
wine_retry() {
    wr_dir=$(mktemp -d "${TMPDIR:-/tmp}/etwconf-wine-run.XXXXXX") || return 125
    wr_try=1 wr_max=${WINE_START_TRIES:-3}
    while :; do
        "$@" >"$wr_dir/out" 2>"$wr_dir/err"
        wr_rc=$?
        wr_why=$(tr -d '\r' <"$wr_dir/err" | grep -a -m 1 -F -e "$WINE_HOST_START_FAILURES")
        [ "$wr_rc" != 0 ] && [ -n "$wr_why" ] || break
        mkdir -p "$(dirname "$WINE_START_LOG")" 2>/dev/null
        echo "$(date -u +%H:%M:%S) start $wr_try of $wr_max failed for a reason of the host (exit $wr_rc: $wr_why): $*" >>"$WINE_START_LOG"
        if [ "$wr_try" -ge "$wr_max" ]; then
            cat "$wr_dir/err" >&2
            echo "wine_retry: Wine did not start, $wr_max times, for a reason of this host, not of the program ($wr_why): $*" >&2
            rm -rf "$wr_dir"
            return 125
        fi
        wr_try=$((wr_try + 1))
    done
    cat "$wr_dir/out"
    cat "$wr_dir/err" >&2
    rm -rf "$wr_dir"
    return "$wr_rc"
}

# wine_stop: end the prefix's wineserver and wait for its end
wine_stop() { timeout 20 "$WINESERVER" -k >/dev/null 2>&1; timeout 20 "$WINESERVER" -w >/dev/null 2>&1; }
# wine_stop_at_exit: wine_stop when the script ends, also on an interrupt (exit 130)
wine_stop_at_exit() { trap 'wine_stop' EXIT; trap 'wine_stop; exit 130' INT TERM; }

# wine_text ARGS...: what "$WINE" ARGS prints on both streams (Wine versions differ), without CRs;
# through a file: Wine's services, when the command starts them, keep its streams open
wine_text() {
    wt_out=$(mktemp "${TMPDIR:-/tmp}/etwconf-wine-text.XXXXXX") || return 1
    timeout 60 "$WINE" "$@" </dev/null >"$wt_out" 2>&1
    tr -d '\r' <"$wt_out"
    rm -f "$wt_out"
}
# wine_version: the Wine's version line ("wine-10.0 (Debian 10.0~repack-6)"), or nothing
wine_version() {
    wine_text --version | grep -m 1 '^wine-'
}

# wine_temp_dir: the Unix path of %TEMP% of the prefix's user (Wine 10.0's, Wine 8.0's), or nothing
wine_temp_dir() {
    ls -d "$WINEPREFIX"/drive_c/users/*/AppData/Local/Temp "$WINEPREFIX"/drive_c/users/*/Temp 2>/dev/null | grep -v '/users/Public/' | head -n 1
}

# wine_version_for EXE VERSION: Wine reports VERSION to programs with EXE's file name (AppDefaults,
# which wins over winecfg's setting); status 0 when it is set. A reg.exe that fails to start or to
# reach a fresh prefix's server is tried again, three times in all.
wine_version_for() {
    for wvf_try in 1 2 3; do
        wine_run 60 reg add "HKCU\\Software\\Wine\\AppDefaults\\$(basename "$1")" /v Version /t REG_SZ /d "$2" /f </dev/null >/dev/null 2>&1 &&
            return 0
    done
    return 1
}

# wine_overlay DIR: a prefix of its own over the suite's, for a test that runs beside the others:
# DIR (made afresh) links the suite prefix's drive_c but for a copy of its users folder (its own
# %TEMP%), and holds a copy of its registry: its own wineserver, registry, named objects and
# temporary files. WINEPREFIX becomes DIR. The suite's prefix must be made, its registry on disk
# (Wine replaces a registry file whole). Returns 1, WINEPREFIX unchanged, with a user's WINEPREFIX
# or when the suite's prefix is not made.
wine_overlay() {
    [ "$WINE_OWN_PREFIX" = 1 ] && [ -f "$WINEPREFIX/.etwconf-prefix" ] || return 1
    wine_overlay_of "$WINEPREFIX" "$1" || return 1
    WINEPREFIX=$(cd "$1" && pwd)
    export WINEPREFIX
}
# wine_overlay_of PREFIX DIR: make DIR (afresh) an overlay of the made prefix PREFIX, as above
wine_overlay_of() {
    rm -rf "$2" && mkdir -p "$2/drive_c" && cp -a "$1/dosdevices" "$2/" && cp -a "$1/drive_c/users" "$2/drive_c/" || return 1
    # no glob: a caller may have turned globbing off (set -f)
    ls -A "$1/drive_c" | while IFS= read -r e; do
        [ "$e" = users ] || ln -s "$1/drive_c/$e" "$2/drive_c/$e" || exit 1
    done || return 1
    cp "$1/system.reg" "$1/user.reg" "$1/userdef.reg" "$1/.update-timestamp" "$2/"
}
