#!/bin/sh
# .ci/deps.sh GROUP... - install the Debian packages etwconf needs, only those missing.
# Groups: core (build + unit tests), windows (mingw-w64 cross compilers, Wine), browser (Chromium
# for the report test), fuzz (clang + sanitizer runtimes), bench (timing tools), fleet (the OpenSSH
# server for the fleet runner's loopback test; its service is never started by etwconf).
# As root it runs apt-get; otherwise it uses sudo if it can; otherwise it prints the command to run.
set -eu
pkgs_for() {
    case "$1" in
        core) echo "gcc make libc6-dev pkg-config python3 libcunit1-dev" ;;
        windows) echo "gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 wine wine64" ;;
        browser) echo "chromium" ;;
        fuzz) echo "clang libclang-rt-14-dev" ;;
        bench) echo "time valgrind" ;;
        fleet) echo "openssh-server openssh-client" ;;
        *) echo "deps.sh: unknown group '$1' (known: core windows browser fuzz bench fleet)" >&2; exit 2 ;;
    esac
}
missing=""
for group in "$@"; do
    for p in $(pkgs_for "$group"); do
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
if [ "$(id -u)" = 0 ]; then SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"
else
    echo "etwconf needs these packages:$missing" >&2
    echo "Run as root:  apt-get update && apt-get install -y$missing" >&2
    exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# An old package list may not know the packages; refresh it once, retrying a flaky mirror.
$SUDO apt-get update -qq >/dev/null 2>&1 || { sleep 5; $SUDO apt-get update -qq >/dev/null 2>&1 || true; }
if ! $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null; then
    echo "deps: apt-get install failed; run by hand: apt-get install -y$missing" >&2
    exit 1
fi
