#!/bin/sh
# harness/tests/fleet/fakewin.sh REPO BUILD HOSTDIR LISTENER - one fake Windows host of the fleet test
# (harness/tests/fleet.sh): the ForceCommand of one port of the test's own sshd, whose listening
# process's pid is in the file LISTENER. It answers etwconf-fleet's commands as a Windows OpenSSH
# server with cmd.exe does: the SFTP subsystem and legacy scp (-t/-f) in HOSTDIR; .\NAME.exe ARGS
# runs HOSTDIR/NAME.exe under Wine at the version in HOSTDIR/version (an unknown program: cmd's
# "is not recognized", exit 9009). Behaviour files in HOSTDIR, written by the test:
#   drop       N: once (until HOSTDIR/dropped exists), after N case records kill the exe and
#              this SSH session: the connection drops mid-run
#   lose-exit  exit 0 whatever the exe returned, as a remote shell that loses the exit code
set -u
REPO=$1
B=$2
H=$3
LISTENER=$4
cmd=${SSH_ORIGINAL_COMMAND:-}
cd "$H" || exit 1
case "$cmd" in
    */sftp-server) exec "$cmd" -d "$H" ;;
    "scp -t "* | "scp -f "*) exec sh -c "$cmd" ;;
    "") echo "fakewin: this host runs commands only" >&2; exit 1 ;;
esac
set -f
# shellcheck disable=SC2086
set -- $cmd
exe=${1#.\\}
shift
if [ ! -f "$H/$exe" ] || [ "${exe%.exe}" = "$exe" ] || [ "$(basename "$exe")" != "$exe" ]; then
    printf "'%s' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n" "$exe" >&2
    exit 9009
fi
version=$(cat "$H/version")
run_exe="${exe%.exe}-$version.exe"
cp -f "$exe" "$run_exe" || exit 1
. "$REPO/harness/tests/lib.sh"
. "$REPO/harness/tests/wine-env.sh"
# A machine of its own: a live run takes a machine-wide lock, so hosts sharing one wineserver would
# queue. Each host has its own prefix (server, registry, %TEMP%) over the shared prefix's drive_c
# (wine_overlay_of); the exe runs as NAME-VERSION.exe, the AppDefaults key that sets its version.
# The server stays up between SSH sessions, as a Windows machine does (the test stops it at its end).
if [ ! -f "$H/prefix/.update-timestamp" ]; then
    wine_overlay_of "$WINEPREFIX" "$H/prefix" ||
        { echo "fakewin: the shared prefix $WINEPREFIX has no registry on disk" >&2; exit 1; }
    WINEPREFIX=$H/prefix timeout 20 "$WINESERVER" -p >/dev/null 2>&1
fi
WINEPREFIX=$H/prefix
# set once per exe name: the host's registry keeps it, as a Windows machine keeps its version
if [ ! -f "$H/prefix/.version-$run_exe" ]; then
    wine_version_for "$run_exe" "$version" || { echo "fakewin: cannot set the Windows version $version" >&2; exit 1; }
    : >"$H/prefix/.version-$run_exe"
fi
if [ -f "$H/drop" ] && [ ! -f "$H/dropped" ]; then
    n=$(cat "$H/drop") out="" prev=""
    for a in "$@"; do [ "$prev" = "--out" ] && out=$a; prev=$a; done
    wine_run 600 "./$run_exe" "$@" &
    job=$!
    # until N case records are written (or the exe ended), at most 2 minutes: lib.sh's within
    cut_reached() { ! kill -0 "$job" 2>/dev/null || [ "$(grep -c '"type":"case"' "$out" 2>/dev/null)" -ge "$n" ] 2>/dev/null; }
    within 120000 cut_reached
    # the exe (the job's processes; Wine starts none the session waits for), then the connection:
    # each process of the session holds its socket or waits on one that does; the listener, which
    # serves the other hosts, is not among them
    kill -KILL $(pid_tree "$job") 2>/dev/null
    : >"$H/dropped"
    # this session's processes: those between the listener and this script (OpenSSH's per-connection
    # processes, whatever it names them: sshd, sshd-session; then the user's shell)
    chain=$(chain_below "$(cat "$LISTENER" 2>/dev/null)")
    if [ -z "$chain" ]; then
        echo "fakewin: the listening sshd (pid file $LISTENER) is no ancestor of this session: the connection cannot be dropped" >&2
        exit 1
    fi
    kill -KILL $chain
    exit 1
fi
wine_run 600 "./$run_exe" "$@"
rc=$?
[ -f "$H/lose-exit" ] && exit 0
exit $rc
