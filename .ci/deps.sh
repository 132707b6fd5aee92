#!/bin/sh
# .ci/deps.sh [--check] GROUP... - install the Debian packages etwconf needs, only those missing:
# the one package list, by names every supported Debian release has (libclang-rt-dev, pkgconf).
# As root it runs apt-get, otherwise sudo if it can, otherwise it prints the command to run;
# --check installs nothing and exits 1 with that command (for the make targets other than make
# run, make test and make deps, which install). wine32 (Wine's 32-bit part, for etwconf-i686.exe)
# is left out, with the reason, unless this machine runs i386 code (probed, never assumed); it
# enables dpkg's i386 architecture, and takes it away again when the install fails and nothing
# i386 is installed. A failed wine32 install is not tried again for a day (WINE32_RETRY=1 tries
# anyway): a stale i386 index stays stale a while, and each try costs two apt-get updates.
set -eu
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
WINE32_FAILED=/var/tmp/etwconf-wine32.failed
GROUPS="core windows browser fuzz bench fleet distros wine32"
LOG=${TMPDIR:-/tmp}/etwconf-deps.$$
pkgs_for() {
    case "$1" in
        core) echo "gcc make libc6-dev pkgconf python3 libcunit1-dev" ;;
        windows) echo "gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 wine wine64 procps strace" ;;
        browser) echo "chromium chromium-driver python3-selenium" ;;
        fuzz) echo "clang libclang-rt-dev" ;;
        bench) echo "time" ;;
        fleet) echo "openssh-server openssh-client python3-yaml ansible ansible-lint" ;;
        distros) echo "debootstrap" ;;
        wine32)
            if ! why=$(sh "$(dirname "$0")/../harness/tests/i386-probe.sh" 2>&1); then
                echo "deps: wine32 left out: $why" >&2
            elif [ "${WINE32_RETRY:-0}" != 1 ] && [ "${WINE32_ALIGN:-0}" != 1 ] &&
                [ -n "$(find "$WINE32_FAILED" -mmin -1440 2>/dev/null)" ]; then
                echo "deps: wine32 not tried again: it failed at" \
                    "$(date -r "$WINE32_FAILED" '+%Y-%m-%d %H:%M'): $(head -n 1 "$WINE32_FAILED")" \
                    "(WINE32_RETRY=1 tries anyway)" >&2
            else
                echo "wine32:i386"
            fi ;;
        *) echo "deps.sh: unknown group '$1' (known: $GROUPS)" >&2; exit 2 ;;
    esac
}
[ $# -gt 0 ] || { echo "usage: .ci/deps.sh [--check] GROUP... ($GROUPS)" >&2; exit 2; }
missing=""
for group in "$@"; do
    pkgs=$(pkgs_for "$group") || exit 2
    for p in $pkgs; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
        fi
    done
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "etwconf needs these Debian packages (or your system's equivalents):$missing" >&2
    echo "This is not a Debian system: install them with your package manager, then run make again." >&2
    exit 1
fi
i386_on() { dpkg --print-foreign-architectures | grep -qx i386; }
# the command that installs what is missing on this system: the i386 architecture first when a
# :i386 package is wanted and dpkg does not have it yet, the package lists refreshed
install_cmd() {
    c="apt-get update && apt-get install -y$missing"
    case "$missing " in *":i386 "*) i386_on || c="dpkg --add-architecture i386 && $c" ;; esac
    echo "$c"
}
# the names apt's lists on this system offer no version of (an i386 name is asked only when dpkg has
# the architecture: apt has no i386 lists before)
unknown_here() {
    for p in $missing; do
        case $p in *:i386) i386_on || continue ;; esac
        cand=$(LANG=C apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
        [ -n "$cand" ] && [ "$cand" != "(none)" ] || printf ' %s' "$p"
    done
}
tell() {
    echo "etwconf needs these packages:$missing" >&2
    echo "Install them as root:  $(install_cmd)" >&2
    u=$(unknown_here)
    [ -z "$u" ] || echo "(apt's package lists here offer no version of$u yet: they may be old," \
        "which the apt-get update above fixes)" >&2
}
if [ "$check" = 1 ]; then
    tell
    echo "(or, as root: sh .ci/deps.sh $*; make test and make run install what they need themselves)" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"
else
    tell
    exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
added_i386=0
case "$missing " in
    *":i386 "*) i386_on || { $SUDO dpkg --add-architecture i386 && added_i386=1; } ;;
esac
# An old package list may not know the packages; refresh it once, retrying a flaky mirror.
$SUDO apt-get update -qq >/dev/null 2>&1 || { sleep 5; $SUDO apt-get update -qq >/dev/null 2>&1 || true; }
u=$(unknown_here)
[ -z "$u" ] || echo "deps: apt on this system offers no version of$u (apt-get update did not" \
    "bring one: is the archive reachable, and are these names in this Debian release?" \
    "apt-cache policy NAME shows it)" >&2
# --no-remove: never take an installed package away to make room (a stale i386 index can ask for
# wine64 to go)
install() { $SUDO apt-get install -y -qq --no-install-recommends --no-remove "$@" >"$LOG" 2>&1; }
# When the plain install fails on a lagging i386 list, wine32-align.py finds versions both
# architectures have; taking an amd64 library back to an older one needs WINE32_ALIGN=1 (.ci/run
# sets it for its throw-away machine), elsewhere the command is printed for you to decide.
aligned() {
    case "$missing " in *":i386 "*) ;; *) return 1 ;; esac
    echo "deps: the plain install failed; looking for versions that both architectures have (a minute or two)" >&2
    args=$(python3 "$(dirname "$0")/wine32-align.py" $missing) || { echo "deps: $args" >&2; return 1; }
    down=$(LANG=C apt-get install -s --allow-downgrades --no-install-recommends $args 2>/dev/null |
        sed -n 's/^Inst \([^ ]*\) \[\([^]]*\)\] (\([^ ]*\).*/\1 \2 \3/p' |
        while read -r pk old new; do
            dpkg --compare-versions "$new" lt "$old" && echo "$pk $old -> $new"
        done)
    if [ -n "$down" ] && [ "${WINE32_ALIGN:-0}" != 1 ]; then
        echo "deps: wine32:i386 not installed: this system's i386 package list lags its" \
            "amd64 one; installing$missing means taking these packages back to the i386" \
            "list's version:" >&2
        echo "$down" | sed 's/^/deps:   /' >&2
        echo "deps: to do it: WINE32_ALIGN=1 (or run: apt-get install --allow-downgrades --no-remove $args)" >&2
        return 1
    fi
    [ -n "$down" ] && echo "$down" | sed 's/^/deps: downgraded to match i386: /' >&2
    install --allow-downgrades $args
}
if ! install $missing && ! aligned; then
    tail -n 3 "$LOG" >&2
    case "$missing " in *":i386 "*)
        { grep -m1 '^E:' "$LOG" || echo "apt-get install$missing failed"; } >"$WINE32_FAILED" \
            2>/dev/null || true ;;
    esac
    rm -f "$LOG"
    if [ "$added_i386" = 1 ] && ! dpkg-query -W -f='${binary:Package}\n' | grep -q ':i386$'; then
        $SUDO dpkg --remove-architecture i386 && $SUDO apt-get update -qq >/dev/null 2>&1
        echo "deps: the i386 architecture was taken away again" >&2
    fi
    echo "deps: apt-get install failed; run by hand, as root: $(install_cmd)" >&2
    exit 1
fi
rm -f "$LOG"
