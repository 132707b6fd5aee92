#!/bin/sh
# .ci/distros.sh [RELEASE...] - the README's two commands on fresh Debian systems, release after
# release (make test-distros; default: bookworm trixie). `--sources RELEASE` prints the apt sources
# the chroot of RELEASE gets; `--help` this text. As root on a Debian host, for each release:
#   1. debootstrap --variant=minbase from this host's Debian mirror (DISTROS_MIRROR replaces it),
#      cached as DISTROS_CACHE/RELEASE-minbase.tar (/var/cache/etwconf-distros) for
#      DISTROS_BASE_DAYS days (7); DISTROS_REFRESH=1 makes it anew
#   2. unpacked afresh into DISTROS_ROOT/RELEASE (/var/tmp/etwconf-distros) with /proc /sys /dev
#      /dev/pts /dev/shm bind-mounted, the host's resolv.conf and apt proxy, no service allowed to
#      start, the apt sources of a normal install from this host's mirrors, apt's downloads kept in
#      DISTROS_CACHE/archives/RELEASE
#   3. only make and git installed; a fresh clone of the current commit (uncommitted changes are
#      not tested)
#   4. as root with a clean environment: make run (before Wine is there), make test, make run; each
#      must exit 0, each make run rebuild build/report/index.html, and Wine's i686 runs must have
#      run (build/results/wine-i686-*.jsonl)
# Output: one line per release, PASS, FAIL (the command, its log, make test's failing stages) or
# SKIP (Debian's archive cannot be reached: why), then "distros: N passed, N failed, N skipped".
# Exit 1 when a release failed, 2 on bad usage. Logs: DISTROS_LOGS/RELEASE/ (build/distros). Each
# command is stopped after DISTROS_TIMEOUT seconds (5400). Everything mounted is unmounted and every
# process left in the chroot ended (by pid), also on failure and Ctrl-C; DISTROS_KEEP=1 keeps the
# unpacked system (unmounted). WINE32_ALIGN=1 (the default here: the chroots are thrown away) lets
# .ci/deps.sh match a lagging i386 index (README "Supported platforms"), so the i686 runs are
# required on every release; with WINE32_ALIGN=0 only on the releases in DISTROS_I686.
set -u
usage() { sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; --sources) ;; -*) usage >&2; exit 2 ;; esac
REPO=$(cd "$(dirname "$0")/.." && pwd)
RELEASES=${*:-bookworm trixie}
CACHE=${DISTROS_CACHE:-/var/cache/etwconf-distros}
ROOTS=${DISTROS_ROOT:-/var/tmp/etwconf-distros}
LOGS=${DISTROS_LOGS:-$REPO/build/distros}
TIMEOUT=${DISTROS_TIMEOUT:-5400}
ALIGN=${WINE32_ALIGN:-1}
I686_RELEASES=${DISTROS_I686:-}
[ "$ALIGN" = 1 ] && I686_RELEASES=$RELEASES

say() { echo "distros: $*"; }
now() { date +%s; }
die() { echo "distros: $*" >&2; exit 2; }

# "URI SUITE" for each Debian suite of this host's apt sources (any format; --no-release-info:
# also before the first apt-get update) named after the host's codename: the mirrors a fresh
# install of another release uses
host_sources() {
    apt-get indextargets --no-release-info --format '$(TARGET_OF) $(REPO_URI) $(RELEASE)' \
        2>/dev/null |
        awk -v c="$1" '$1 == "deb" && ($3 == c || index($3, c "-") == 1) && !seen[$2 $3]++ {
            sub(/\/$/, "", $2); print $2, $3 }'
}
HOST_CODE=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")
SOURCES=$([ -z "$HOST_CODE" ] || host_sources "$HOST_CODE")
[ -n "$SOURCES" ] || SOURCES="http://deb.debian.org/debian $HOST_CODE
http://deb.debian.org/debian $HOST_CODE-updates
http://deb.debian.org/debian-security $HOST_CODE-security"
HOST_MIRROR=$(echo "$SOURCES" | awk -v c="$HOST_CODE" '$2 == c { print $1; exit }')
MIRROR=${DISTROS_MIRROR:-${HOST_MIRROR:-http://deb.debian.org/debian}}

# the deb822 sources of RELEASE: this host's suites with the release's name
sources_for() {
    echo "$SOURCES" | while read -r uri suite; do
        [ "$uri" = "$HOST_MIRROR" ] && uri=$MIRROR
        printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n%s\n\n' "$uri" \
            "$1${suite#"$HOST_CODE"}" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
    done
}

if [ "${1:-}" = --sources ]; then
    sources_for "${2:?--sources RELEASE}"
    exit 0
fi
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount): sudo make test-distros"
command -v debootstrap >/dev/null 2>&1 ||
    die "debootstrap is missing: as root, sh .ci/deps.sh distros (make test-distros does it)"
for r in $RELEASES; do
    case $r in *[!a-z]*) die "'$r' is not a Debian release name (e.g. bookworm, trixie)" ;; esac
done
COMMIT=$(git -C "$REPO" rev-parse HEAD 2>/dev/null) ||
    die "$REPO is not a git clone: the test clones its current commit"
DIRTY=$(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null | head -n 1)

# can Debian's archive be reached for RELEASE? Status 0; 1 and the reason on stdout; 3 when the
# mirror answers that it has no such release (HTTP 404: a misspelt name, not a network problem)
reachable() {
    python3 - "$MIRROR/dists/$1/InRelease" <<'PY'
import sys, urllib.error, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=30) as r:
        r.read(64)
except urllib.error.HTTPError as e:
    print("%s: HTTP %s %s" % (sys.argv[1], e.code, e.reason))
    sys.exit(3 if e.code == 404 else 1)
except Exception as e:
    print("%s cannot be fetched: %s" % (sys.argv[1], e))
    sys.exit(1)
PY
}

# the mount points at or under DIR, deepest first
mounts_under() {
    awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}
# end every process whose root directory is DIR or below it (started in our chroot), by pid
end_processes() {
    for sig in TERM KILL; do
        found=""
        for p in /proc/[0-9]*; do
            r=$(readlink "$p/root" 2>/dev/null) || continue
            case $r in "$1" | "$1"/*)
                kill -s $sig "${p#/proc/}" 2>/dev/null && found="$found ${p#/proc/}" ;;
            esac
        done
        [ -z "$found" ] && return 0
        [ $sig = TERM ] && { say "ended the processes left in $1:$found"; sleep 3; }
    done
}
# unmount everything at or under DIR; status 1 when something stays mounted
unmount_all() {
    end_processes "$1"
    for m in $(mounts_under "$1"); do
        umount "$m" 2>/dev/null || { sleep 1; umount "$m" 2>/dev/null; } ||
            { umount -l "$m" 2>/dev/null && say "$m was busy: detached (umount -l)"; }
    done
    left=$(mounts_under "$1")
    [ -z "$left" ] || { say "still mounted: $left" >&2; return 1; }
}
# remove DIR when nothing is mounted under it (never through a mount: --one-file-system)
remove_tree() {
    [ -e "$1" ] || return 0
    unmount_all "$1" || { say "not removing $1: something is still mounted there" >&2; return 1; }
    rm -rf --one-file-system "$1"
}
bind() { mkdir -p "$2" && mount --bind "$1" "$2" && mount --make-private "$2"; }

CUR_ROOT="" BUILD_DIR=""
cleanup() {
    if [ -z "$CUR_ROOT" ]; then :
    elif [ "${DISTROS_KEEP:-0}" = 1 ]; then
        unmount_all "$CUR_ROOT" && say "kept $CUR_ROOT (DISTROS_KEEP=1)"
    else remove_tree "$CUR_ROOT"; fi
    CUR_ROOT=""
}
trap 'cleanup' EXIT
trap 'echo; say "interrupted: cleaning up"; cleanup; [ -z "$BUILD_DIR" ] || remove_tree "$BUILD_DIR"
    exit 130' INT TERM HUP

# run LOG COMMAND...: COMMAND (a program or a function) appending to LOG, in the background so
# that Ctrl-C is taken at once; its status
run_logged() {
    log=$1
    shift
    "$@" >>"$log" 2>&1 </dev/null 9>&- &
    wait $!
}
# in_chroot ROOT COMMAND: a shell command in ROOT as root, with the environment of a fresh login,
# stopped after TIMEOUT seconds
in_chroot() {
    root=$1
    shift
    timeout -k 30 "$TIMEOUT" chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
        SHELL=/bin/sh PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 TERM=dumb WINE32_ALIGN="$ALIGN" DEBIAN_FRONTEND=noninteractive \
        ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
        ${no_proxy:+no_proxy=$no_proxy} /bin/sh -c "$*"
}

# base RELEASE LOGDIR: the cached minbase tarball, made when missing or old; status 1 on failure
base() {
    tar=$CACHE/$1-minbase.tar
    if [ "${DISTROS_REFRESH:-0}" != 1 ] && [ -s "$tar" ] &&
        [ -z "$(find "$tar" -mtime +"${DISTROS_BASE_DAYS:-7}" 2>/dev/null)" ]; then
        BASE_HOW="cached $(date -r "$tar" '+%Y-%m-%d')"
        return 0
    fi
    BUILD_DIR=$CACHE/$1-build
    remove_tree "$BUILD_DIR" || return 1
    say "[$1] debootstrap --variant=minbase $1 from $MIRROR (log $2/debootstrap.log)"
    if ! run_logged "$2/debootstrap.log" timeout -k 30 "$TIMEOUT" debootstrap --variant=minbase \
        --cache-dir="$CACHE/archives/$1" "$1" "$BUILD_DIR" "$MIRROR"; then
        tail -n 3 "$2/debootstrap.log" | sed 's/^/distros:   /'
        remove_tree "$BUILD_DIR"
        return 1
    fi
    unmount_all "$BUILD_DIR" && tar -C "$BUILD_DIR" --numeric-owner -cpf "$tar.tmp" . &&
        mv "$tar.tmp" "$tar" || { rm -f "$tar.tmp"; return 1; }
    remove_tree "$BUILD_DIR"
    BUILD_DIR="" BASE_HOW="made"
}

passed=0 failed=0 skipped=0 LINES=""
result() { # STATUS RELEASE TEXT
    line=$(printf '%-4s %-9s %s' "$1" "$2" "$3")
    LINES="$LINES$line
"
    say "$line"
    case $1 in PASS) passed=$((passed + 1)) ;; FAIL) failed=$((failed + 1)) ;;
        SKIP) skipped=$((skipped + 1)) ;; esac
}
no() { result FAIL "$rel" "$1"; return 1; }
# fail_or_skip TEXT WHILE: a FAIL, or a SKIP when the archive cannot be reached (any more)
fail_or_skip() {
    if why=$(reachable "$rel"); then result FAIL "$rel" "$1"
    else result SKIP "$rel" "Debian's archive could not be reached $2: $why"; fi
}
# problem TEXT...: what makes the release fail, said at once (the result line sums it up)
problem() {
    bad="$bad; $*"
    say "[$rel] problem: $*"
}

# the bare system of rel unpacked in root, with make, git and the clone; status 1 on failure
prepare() {
    remove_tree "$root" || no "$root holds mounts that cannot be taken away" || return
    CUR_ROOT=$root
    say "[$rel] unpacking the bare system ($BASE_HOW) into $root"
    mkdir -p "$root" && tar -C "$root" --numeric-owner -xpf "$CACHE/$rel-minbase.tar" ||
        no "cannot unpack $CACHE/$rel-minbase.tar into $root" || return
    for d in proc sys dev dev/pts dev/shm; do
        bind "/$d" "$root/$d" || no "cannot bind-mount /$d into $root" || return
    done
    bind "$CACHE/archives/$rel" "$root/var/cache/apt/archives" ||
        no "cannot bind-mount the download cache" || return
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
    printf '#!/bin/sh\n# make test-distros: no service starts in this chroot\nexit 101\n' \
        >"$root/usr/sbin/policy-rc.d"
    chmod +x "$root/usr/sbin/policy-rc.d"
    rm -f "$root/etc/apt/sources.list"
    sources_for "$rel" >"$root/etc/apt/sources.list.d/debian.sources"
    proxy=$root/etc/apt/apt.conf.d/01proxy
    apt-config dump 2>/dev/null | grep -i '^Acquire::[a-z]*::Proxy' >"$proxy" || rm -f "$proxy"
    git -C "$REPO" bundle create "$root/root/etwconf.bundle" HEAD >"$L/setup.log" 2>&1 ||
        no "git bundle of $COMMIT failed: $L/setup.log" || return
    say "[$rel] installing make and git, cloning $COMMIT (log $L/setup.log)"
    run_logged "$L/setup.log" in_chroot "$root" "apt-get update &&
        apt-get install -y --no-install-recommends make git &&
        git -c advice.detachedHead=false clone -q /root/etwconf.bundle /root/etwconf &&
        cd /root/etwconf && git checkout -q $COMMIT && rm /root/etwconf.bundle &&
        git log -1 --format='cloned %H %s'" ||
        { fail_or_skip "installing make and git or cloning failed: $L/setup.log" \
            "while apt-get ran"; return 1; }
}

test_release() {
    rel=$1 L=$LOGS/$1 root=$ROOTS/$1
    rm -rf "$L"
    mkdir -p "$L" "$CACHE/archives/$rel" "$ROOTS"
    t0=$(now)
    why=$(reachable "$rel")
    case $? in
        0) ;;
        3) result FAIL "$rel" "the mirror has no release '$rel': $why"; return ;;
        *) result SKIP "$rel" "Debian's archive cannot be reached: $why"; return ;;
    esac
    exec 9>"$CACHE/$rel.lock"
    flock -n 9 || { say "[$rel] another make test-distros tests $rel: waiting for it"; flock 9; }
    ta=$(now)
    base "$rel" "$L" ||
        { fail_or_skip "debootstrap failed: $L/debootstrap.log" "while debootstrap ran"; return; }
    t_base=$(($(now) - ta)) ta=$(now)
    prepare || return
    t_setup=$(($(now) - ta))

    times="" bad="" n=0
    for cmd in "make run" "make test" "make run"; do
        n=$((n + 1))
        log=$L/$n-$(echo "$cmd" | tr ' ' -).log
        say "[$rel] $cmd ($n/3) started $(date '+%H:%M:%S') (log $log)"
        ta=$(now)
        touch "$L/.before"
        run_logged "$log" in_chroot "$root" "cd /root/etwconf && $cmd"
        rc=$?
        what="$cmd $(($(now) - ta))s"
        [ $rc = 0 ] || what="$what exit $rc"
        stages=""
        if [ "$cmd" = "make test" ]; then
            counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
            stages=$(sed -n 's/^failing stages: *//p' "$log" | tail -n 1)
            what="$what (${counts:-no count line}${stages:+; failing: $stages})"
        else
            opt=$(sed -n 's/^run: .* optional step(s) failed: *//p' "$log" | tail -n 1)
            [ -z "$opt" ] || what="$what (optional step failed: $opt)"
        fi
        if [ $rc != 0 ]; then
            [ $rc = 124 ] && rc="$rc, stopped after ${TIMEOUT}s"
            problem "$cmd ($n/3) exit $rc: $log${stages:+ (failing stages: $stages)}"
        elif [ "$cmd" = "make run" ] &&
            ! [ "$root/root/etwconf/build/report/index.html" -nt "$L/.before" ]; then
            problem "$cmd ($n/3) did not rebuild build/report/index.html: $log"
        fi
        say "[$rel] $what"
        times="$times, $what"
    done
    rm -f "$L/.before"
    # what is needed to read a failure once the chroot is gone: each stage's log, the 32-bit install
    mkdir -p "$L/stages"
    cp "$root"/root/etwconf/build/test/*.log "$L/stages/" 2>/dev/null
    cp "$root/root/etwconf/build/test/wine/wine32-deps.log" "$L/" 2>/dev/null
    i686=$(ls "$root"/root/etwconf/build/results/wine-i686-*.jsonl 2>/dev/null | wc -l)
    case " $I686_RELEASES " in *" $rel "*)
        [ "$i686" -gt 0 ] || problem "no i686 Wine run executed (build/results/wine-i686-*.jsonl:" \
            "none; Wine's 32-bit part: $L/wine32-deps.log)"
        i686="$i686 of them required" ;;
    esac
    summary="${times#, }; i686 Wine results: $i686; setup ${t_setup}s, base ${t_base}s ($BASE_HOW)"
    summary="$summary; all $(($(now) - t0))s"
    if [ -z "$bad" ]; then result PASS "$rel" "$summary"
    else fail_or_skip "$summary; logs $L" "after a command failed (logs $L)"; fi
}

# The whole run is one function, called on the script's last line: the shell has read all of the
# script before the first release starts, so editing or checking out the clone meanwhile is safe.
main() {
    say "testing $(git -C "$REPO" log -1 --format='%h %s' "$COMMIT") on: $RELEASES" \
        "(mirror $MIRROR; logs $LOGS)"
    [ -z "$DIRTY" ] || say "note: $REPO has uncommitted changes; the chroots test the commit only"
    T0=$(now)
    for rel in $RELEASES; do
        test_release "$rel"
        cleanup
    done
    echo
    say "summary ($(($(now) - T0))s, commit $(echo "$COMMIT" | cut -c1-12)):"
    printf '%s' "$LINES" | sed 's/^/  /'
    echo "distros: $passed passed, $failed failed, $skipped skipped"
    [ "$failed" = 0 ]
}
main; exit $?
