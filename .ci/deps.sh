#!/bin/sh
# .ci/deps.sh [--check] GROUP... - install the Debian packages etwconf needs, only those missing.
# This is the one place that knows the package list. Groups: core (build + unit tests), windows
# (mingw-w64 cross compilers, Wine; procps and strace for the faults stage), browser (Chromium, its
# WebDriver and Selenium for the report test), fuzz (clang + sanitizer runtimes), bench (timing
# tools), fleet (the OpenSSH server for the fleet runner's loopback test, whose service etwconf
# never starts; PyYAML and Ansible for the workflow and playbook checks), distros (debootstrap, for
# make test-distros), wine32 (Wine's 32-bit part, to run etwconf-i686.exe: only when this machine
# runs i386 code, which is probed, never assumed; otherwise the group is left out with the reason;
# it enables dpkg's i386 architecture, and takes it away again when the install fails and nothing
# i386 is installed. A failed install is not tried again for a day (the reason is kept in
# /var/tmp/etwconf-wine32.failed; WINE32_RETRY=1 tries anyway): a stale i386 mirror index stays
# stale for a while, and each try costs two apt-get updates). A plain install that fails on
# mismatched multi-arch versions is retried with matched versions (.ci/wine32-align.py; downgrades
# only with WINE32_ALIGN=1).
# Names are the release-independent ones (libclang-rt-dev, not libclang-rt-14-dev; pkgconf, which is
# what pkg-config is on Debian 12 and 13), so one list serves every supported Debian release.
# As root it runs apt-get; otherwise it uses sudo if it can; otherwise it prints the command to run.
# --check: install nothing; exit 1 with the command that installs what is missing (what the make
# targets that are not set-up targets use: only make run, make test and make deps install).
set -eu
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
WINE32_FAILED=/var/tmp/etwconf-wine32.failed
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
            elif [ "${WINE32_RETRY:-0}" != 1 ] && [ "${WINE32_ALIGN:-0}" != 1 ] && [ -n "$(find "$WINE32_FAILED" -mmin -1440 2>/dev/null)" ]; then
                echo "deps: wine32 not tried again: it failed at $(date -r "$WINE32_FAILED" '+%Y-%m-%d %H:%M'): $(head -n 1 "$WINE32_FAILED") (WINE32_RETRY=1 tries anyway)" >&2
            else
                echo "wine32:i386"
            fi ;;
        *) echo "deps.sh: unknown group '$1' (known: core windows browser fuzz bench fleet distros wine32)" >&2; exit 2 ;;
    esac
}
[ $# -gt 0 ] || { echo "usage: .ci/deps.sh [--check] GROUP... (core windows browser fuzz bench fleet distros wine32)" >&2; exit 2; }
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
    [ -z "$u" ] || echo "(apt's package lists here offer no version of$u yet: they may be old, which the apt-get update above fixes)" >&2
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
    *":i386 "*)
        if ! dpkg --print-foreign-architectures | grep -qx i386; then
            $SUDO dpkg --add-architecture i386 && added_i386=1
        fi ;;
esac
# An old package list may not know the packages; refresh it once, retrying a flaky mirror.
$SUDO apt-get update -qq >/dev/null 2>&1 || { sleep 5; $SUDO apt-get update -qq >/dev/null 2>&1 || true; }
u=$(unknown_here)
if [ -n "$u" ]; then
    echo "deps: apt on this system offers no version of$u (apt-get update did not bring one: is the archive reachable, and are these names in this Debian release? apt-cache policy NAME shows it)" >&2
fi
# --no-remove: never take an installed package away to make room (a stale i386 index can ask for
# wine64 to go)
install() { $SUDO apt-get install -y -qq --no-install-recommends --no-remove "$@" >"${TMPDIR:-/tmp}/etwconf-deps.$$" 2>&1; }
# When an i386 list is older than the amd64 one (the mirror's i386 index of a suite cannot be
# fetched), multi-arch libraries differ in version and the plain install fails: wine32-align.py
# finds matching versions by simulation. It may upgrade amd64 libraries (fine) or take one back
# to the version both lists have (a downgrade: only with WINE32_ALIGN=1, which .ci/run sets for
# its throw-away machine; elsewhere the command is printed for you to decide).
aligned() {
    case "$missing " in *":i386 "*) ;; *) return 1 ;; esac
    echo "deps: the plain install failed; looking for versions that both architectures have (a minute or two)" >&2
    args=$(python3 "$(dirname "$0")/wine32-align.py" $missing) || { echo "deps: $args" >&2; return 1; }
    down=$(LANG=C apt-get install -s --allow-downgrades --no-install-recommends $args 2>/dev/null | sed -n 's/^Inst \([^ ]*\) \[\([^]]*\)\] (\([^ ]*\).*/\1 \2 \3/p' |
        while read -r pk old new; do dpkg --compare-versions "$new" lt "$old" && echo "$pk $old -> $new"; done)
    if [ -n "$down" ] && [ "${WINE32_ALIGN:-0}" != 1 ]; then
        echo "deps: wine32:i386 not installed: this system's i386 package list lags its amd64 one, and WINE32_ALIGN=1 would take amd64 libraries back to the i386 list's versions" >&2
        echo "deps: installing$missing means taking these packages back to the version the i386 list has:" >&2
        echo "$down" | sed 's/^/deps:   /' >&2
        echo "deps: to do it: WINE32_ALIGN=1 (or run: apt-get install --allow-downgrades --no-remove $args)" >&2
        return 1
    fi
    [ -n "$down" ] && echo "$down" | sed 's/^/deps: downgraded to match i386: /' >&2
    install --allow-downgrades $args
}
if ! install $missing && ! aligned; then
    tail -n 3 "${TMPDIR:-/tmp}/etwconf-deps.$$" >&2
    case "$missing " in
        *":i386 "*) { grep -m1 '^E:' "${TMPDIR:-/tmp}/etwconf-deps.$$" || echo "apt-get install$missing failed"; } >"$WINE32_FAILED" 2>/dev/null || true ;;
    esac
    rm -f "${TMPDIR:-/tmp}/etwconf-deps.$$"
    if [ "$added_i386" = 1 ] && ! dpkg-query -W -f='${binary:Package}\n' | grep -q ':i386$'; then
        $SUDO dpkg --remove-architecture i386 && $SUDO apt-get update -qq >/dev/null 2>&1
        echo "deps: the i386 architecture was taken away again" >&2
    fi
    echo "deps: apt-get install failed; run by hand, as root: $(install_cmd)" >&2
    exit 1
fi
rm -f "${TMPDIR:-/tmp}/etwconf-deps.$$"
