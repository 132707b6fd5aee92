#!/bin/sh
# harness/tests/fleet.sh BUILD - the "fleet" test stage (mk/fleet.mk): etwconf-fleet's unit tests
# (harness/windows/fleet/test_fleet.py), then etwconf-fleet against fake Windows hosts over
# loopback SSH. Last line: "fleet: N passed, N failed, N skipped".
# The test's own sshd (own keys and config in a temporary directory, free ports of 127.0.0.1, one
# per host: Match LocalPort -> ForceCommand fleet/fakewin.sh, the exe under Wine at that host's
# version) and its own ssh_config (ssh -F: ~/.ssh neither read nor written; checked at the end).
# Hosts: w7 (win7), w81 (win81; legacy scp; its shell loses the exit code), w10 (win10; its
# connection drops after 6 cases, once), vista (nothing listens). Run 1: all four (exit 4); run 2
# resumes (w10 completes, exit 0); run 3 --fresh after w7 became win10 (regressions, exit 1).
# Every wait is bounded (timeouts on sshd's start, each fleet run, each ssh/scp inside it).
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
. harness/tests/lib.sh
SSHD=${SSHD:-/usr/sbin/sshd}
SFTP_SERVER=${SFTP_SERVER:-/usr/lib/openssh/sftp-server}
for t in "$SSHD" "$SFTP_SERVER" ssh scp ssh-keygen wine wineserver; do
    command -v "$t" >/dev/null 2>&1 || { no "$t is missing: 'sh .ci/deps.sh fleet windows' as root (make test does it)"; finish fleet; }
done
[ -f "$B/etwconf.exe" ] || { no "$B/etwconf.exe is missing: run 'make windows'"; finish fleet; }

REPO=$(pwd)
BA=$(cd "$B" && pwd)
L=$BA/test/fleet
rm -rf "$L"
mkdir -p "$L"
FLEET="$PYTHON $REPO/harness/windows/fleet/etwconf-fleet"
T=$(mktemp -d "${TMPDIR:-/tmp}/etwconf-fleet.XXXXXX")
sshd_pid=""
ssh_home=$(getent passwd "$(id -u)" | cut -d: -f6)/.ssh
home_state() {
    [ -e "$ssh_home" ] || { echo absent; return; }
    ls -la --time-style=full-iso "$ssh_home" 2>&1
    find "$ssh_home" -type f -exec sha256sum {} + 2>&1 | sort
}
before=$(home_state)
cleanup() {
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
    [ "${WINE_PREFIX_SHARED:-0}" = 1 ] || (. harness/tests/wine-env.sh; wine_stop)
    for p in "$T"/hosts/*/prefix; do    # each fake host's own wineserver (fleet/fakewin.sh)
        [ -d "$p" ] && (. harness/tests/wine-env.sh; WINEPREFIX=$p; wine_stop)
    done
    cp -r "$T/out/report" "$T/out/logs" "$T/sshd.log" "$T/sshd_config" "$T"/run*.out "$L/" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- without SSH
part "$T/unit.out" $PYTHON harness/windows/fleet/test_fleet.py

# ---------------------------------------------------------------- the Wine prefix
if [ ! -f "$BA/wineprefix/.etwconf-prefix" ]; then
    echo "fleet: making the Wine prefix (harness/tests/wine.sh)"
    sh harness/tests/wine.sh run "$B" win10 >"$L/prefix.log" 2>&1 || { no "the Wine prefix could not be made: $L/prefix.log"; finish fleet; }
fi
# the hosts' prefixes are overlays of this one (fleet/fakewin.sh): its registry must be on disk, so
# its server is stopped; under make test (WINE_PREFIX_SHARED=1) that was done before the stages,
# and the wine stage may be using it now: left alone
[ "${WINE_PREFIX_SHARED:-0}" = 1 ] ||
    (. harness/tests/wine-env.sh; timeout 120 "$WINE" cmd /c exit >/dev/null 2>&1; wine_stop)

# ---------------------------------------------------------------- sshd on 127.0.0.1
ssh-keygen -q -t ed25519 -N '' -C etwconf-fleet-test-host -f "$T/hostkey" &&
    ssh-keygen -q -t ed25519 -N '' -C etwconf-fleet-test-client -f "$T/client" || { no "ssh-keygen failed"; finish fleet; }
cp "$T/client.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
for h in w7:win7 w81:win81 w10:win10; do mkdir -p "$T/hosts/${h%:*}" && echo "${h#*:}" >"$T/hosts/${h%:*}/version"; done
: >"$T/hosts/w81/lose-exit"
echo 6 >"$T/hosts/w10/drop"
# an sshd started by root separates privileges and needs its empty directory (Debian's service
# creates it at boot); nothing else outside the temporary directory is touched
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then mkdir -p /run/sshd && chmod 755 /run/sshd; fi
start_sshd() { # free ports (the kernel's choice, released just before sshd binds them), the config, sshd
    set -- $($PYTHON -c 'import socket
ss = [socket.socket() for _ in range(4)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
    P7=$1 P81=$2 P10=$3 PDOWN=$4
    # bash as the user's shell, seeing SSH_CLIENT at level 1, would read ~/.bashrc first (a version
    # manager's setup there cost a third of this test's CPU); SHLVL=1 keeps it from that, as a
    # Windows host's cmd.exe reads nothing of the kind
    {
        echo "# the fleet test's own sshd: loopback only, its own keys, nothing from /etc/ssh"
        for p in "$P7" "$P81" "$P10"; do echo "ListenAddress 127.0.0.1:$p"; done
        printf '%s\n' "HostKey $T/hostkey" "PidFile $T/sshd.pid" "AuthorizedKeysFile $T/authorized_keys" \
            "AuthenticationMethods publickey" "PasswordAuthentication no" "KbdInteractiveAuthentication no" \
            "PermitRootLogin prohibit-password" "UsePAM no" "StrictModes no" "AllowTcpForwarding no" "AllowAgentForwarding no" \
            "X11Forwarding no" "PermitTunnel no" "PrintMotd no" "MaxStartups 30" "LogLevel VERBOSE" "SetEnv SHLVL=1" \
            "Subsystem sftp $SFTP_SERVER"
        for h in "$P7 w7" "$P81 w81" "$P10 w10"; do
            printf 'Match LocalPort %s\n    ForceCommand sh %s %s %s %s %s\n' "${h% *}" "$REPO/harness/tests/fleet/fakewin.sh" \
                "$REPO" "$BA" "$T/hosts/${h#* }" "$T/listener.pid"
        done
    } >"$T/sshd_config"
    if ! "$SSHD" -t -f "$T/sshd_config" >"$T/sshd-t.log" 2>&1; then
        no "sshd rejects the test configuration: $(tail -n 2 "$T/sshd-t.log")"
        finish fleet
    fi
    "$SSHD" -D -e -f "$T/sshd_config" 2>"$T/sshd.log" &
    sshd_pid=$!
    echo "$sshd_pid" >"$T/listener.pid" # the fake hosts drop a connection through it (fleet/fakewin.sh)
    # listening on its three ports, or gone (the log may not exist yet: grep then counts nothing, 0)
    sshd_settled() { [ "$(cat "$T/sshd.log" 2>/dev/null | grep -c 'Server listening on 127.0.0.1')" -ge 3 ] || ! kill -0 "$sshd_pid" 2>/dev/null; }
    within 30000 sshd_settled
    [ "$(grep -c 'Server listening on 127.0.0.1' "$T/sshd.log")" = 3 ]
}
# a port taken by someone else between the choice and the bind: one more try with new ports
start_sshd || { echo "fleet: sshd did not start ($(tail -n 1 "$T/sshd.log")); new ports"; kill "$sshd_pid" 2>/dev/null; start_sshd; }
if [ "$(grep -c 'Server listening on 127.0.0.1' "$T/sshd.log")" = 3 ] && ! grep -q 'Server listening on 0.0.0.0\|Server listening on ::' "$T/sshd.log"; then
    ok "sshd listens on 127.0.0.1:$P7,$P81,$P10 only (own host key, own config)"
else
    no "sshd did not start within 30 s ($(kill -0 "$sshd_pid" 2>/dev/null && echo "still running" || echo "exited")): $(tail -n 3 "$T/sshd.log")"; finish fleet
fi
: >"$T/known_hosts"
for p in "$P7" "$P81" "$P10" "$PDOWN"; do echo "[127.0.0.1]:$p $(cut -d' ' -f1,2 "$T/hostkey.pub")" >>"$T/known_hosts"; done
cat >"$T/ssh_config" <<EOF
Host *
    IdentityFile $T/client
    IdentitiesOnly yes
    IdentityAgent none
    UserKnownHostsFile $T/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    UpdateHostKeys no
    LogLevel ERROR
    # loopback only: the classic key exchange; OpenSSH's post-quantum default (sntrup761 in 9,
    # ML-KEM in 10) costs the ssh client most of its CPU here
    KexAlgorithms curve25519-sha256
EOF
U=$(id -un)
# half of the cases (t*: TraceQueryInformation, TraceSetInformation, the traits), which fail on
# every one of these versions
cat >"$T/inv1" <<EOF
# the fake hosts (harness/tests/fleet.sh)
w7     $U@127.0.0.1  etwconf.exe  port=$P7    expect=win7   args="--filter t*"
w81    $U@127.0.0.1  etwconf.exe  port=$P81   expect=win81  args="--filter t*"  transfer=scp
w10    $U@127.0.0.1  etwconf.exe  port=$P10   expect=win10  args="--filter t* --isolation child"
vista  $U@127.0.0.1  etwconf.exe  port=$PDOWN expect=vista
EOF
grep -v '^vista' "$T/inv1" | sed 's/ --isolation child//' >"$T/inv2"
sed 's/ expect=win7//' "$T/inv2" >"$T/inv3"
O=$T/out
fleet() {
    timeout 600 $FLEET run "$@" --out "$O" --exe-dir "$B" --ssh-config "$T/ssh_config" --timeout 300 \
        --transfer-timeout 60 --connect-timeout 5 --fetch-tries 2 --fetch-delay 1 --progress-interval 20
}
# facts OUT HOST...: per host "HOST COMPLETE EXIT TARGET CASES PLANNED state=STATUS,EXIT,SSH_EXIT"
# (checks.py facts of its results, then its state file), then "parallel yes|no N": whether every
# host that reached its run (N of them) started before any finished
facts() {
    $PYTHON - "$@" <<'EOF'
import json, os, sys
sys.path.insert(0, "harness/tests")
from checks import facts
ran = []
for h in sys.argv[2:]:
    try:
        st = json.load(open(os.path.join(sys.argv[1], "state", h + ".json"), encoding="utf-8"))
    except (OSError, ValueError):
        st = {}
    print("%s %s state=%s,%s,%s" % (h, facts(os.path.join(sys.argv[1], "results", h + ".jsonl")),
                                    st.get("status"), st.get("exit_code"), st.get("ssh_exit")))
    if st.get("target_id"):
        ran.append(st)
par = ran and max(s["started"] for s in ran) < min(s["finished"] for s in ran)
print("parallel %s %d" % ("yes" if par else "no", len(ran)))
EOF
}
fact() { sed -n "s/^$1 //p" "$T/facts"; } # fact HOST: its line of the last facts

$FLEET run "$T/inv1" --out "$O" --exe-dir "$B" --ssh-config "$T/ssh_config" --dry-run >"$T/dry.out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "^\[w81\] scp -F $T/ssh_config .* -P $P81 -O " "$T/dry.out" &&
    grep -q "^\[w7\] ssh .* -p $P7 -n $U@127.0.0.1 '.\\\\etwconf.exe run --quiet --out RESULTS.jsonl --filter t\*'" "$T/dry.out" &&
    grep -q "^\[w10\] ssh .*'.\\\\etwconf.exe run --quiet --out RESULTS.jsonl --filter t\* --isolation child'" "$T/dry.out" && [ ! -d "$O/results" ] &&
    ok "--dry-run prints the scp/ssh commands (legacy scp -O for w81, cmd-style command line) and runs nothing" || no "--dry-run: exit $rc: $(head -n 3 "$T/dry.out")"

# ---------------------------------------------------------------- run 1
fleet "$T/inv1" >"$T/run1.out" 2>&1; rc=$?
cat "$T/run1.out"
[ "$rc" = 4 ] && ok "run 1: exit 4 (a host failed or is incomplete; the others reported)" || no "run 1: exit $rc, expected 4"
facts "$O" w7 w81 w10 vista >"$T/facts"
f7=$(fact w7); f81=$(fact w81); f10=$(fact w10)
case "$f7" in "complete 1 wine@win7 "*) ok "w7: complete, wine@win7 ($f7)" ;; *) no "w7: $f7" ;; esac
case "$f81" in "complete 1 wine@win81 "*) ok "w81: complete over the legacy scp protocol, wine@win81" ;; *) no "w81: $f81" ;; esac
case "$f7" in *" state=complete,1,1") ok "w7: state complete, exit 1 from the footer" ;; *) no "w7 state: $f7" ;; esac
case "$f81" in *" state=complete,1,0")
    grep -q '^\[w81\] complete: wine@win81, .* exit 1 from the results footer (not conformant); ssh said 0, not used' "$T/run1.out" &&
        ok "w81: its shell lost the exit code (ssh 0): the result is exit 1, from the results footer" || no "w81: $(grep '^\[w81\]' "$T/run1.out" | tail -n 1)" ;;
    *) no "w81 state: $f81" ;; esac
set -- $f10
case "$f10" in "partial None wine@win10 "*)
    [ "$4" -ge 6 ] && [ "$4" -lt "$5" ] && ok "w10: dropped mid-run: its partial results are kept ($4 of $5 cases, no footer)" \
        || no "w10: $f10" ;;
    *) no "w10: $f10" ;; esac
cp "$O/results/w10.jsonl" "$L/w10-partial.jsonl" 2>/dev/null
case "$f10" in *" state=incomplete,None,255")
    grep -q '^\[w10\] INCOMPLETE: wine@win10: .* cases kept in .*the SSH connection failed or dropped (ssh exit 255)' "$T/run1.out" &&
        ok "w10: reported INCOMPLETE (connection dropped, ssh exit 255)" || no "w10: $(grep '^\[w10\]' "$T/run1.out" | tail -n 1)" ;;
    *) no "w10 state: $f10" ;; esac
case "$(fact vista)" in *" state=failed,"*)
    grep -Eq "^\[vista\] FAILED: upload failed \(scp exit (1|255)\): ssh: connect to host 127.0.0.1 port $PDOWN: Connection refused" "$T/run1.out" && [ ! -e "$O/results/vista.jsonl" ] &&
        ok "vista: unreachable, reported FAILED with ssh's reason (scp gives 255 or, depending on when the refusal comes, 1); the rest went on" ||
        no "vista: $(grep '^\[vista\]' "$T/run1.out" | tail -n 1)" ;;
    *) no "vista state: $(fact vista)" ;; esac
[ "$(fact parallel)" = "yes 3" ] && ok "the three reachable hosts ran in parallel (every host started before any finished)" || no "hosts in parallel: $(fact parallel)"
n=0
for h in w7 w81 w10 vista; do grep -q "^\[$h\] upload etwconf.exe" "$T/run1.out" && n=$((n + 1)); done
for h in w7 w81 w10; do grep -q "^\[$h\] run etwconf.exe run --out etwconf-" "$T/run1.out" && grep -q "^\[$h\] run ended after" "$T/run1.out" && n=$((n + 1)); done
[ "$n" = 7 ] && ok "progress per host: upload, run, run ended, result" || no "progress lines: $n of 7"
R=$O/report
[ -f "$R/index.html" ] && grep -q 'wine@win7' "$R/index.html" && grep -q 'wine@win81' "$R/index.html" && grep -q 'wine@win10' "$R/index.html" &&
    grep -q 'INCOMPLETE' "$R/summary.md" && grep -q 'wine@win10' "$R/summary.md" &&
    [ -s "$R/junit.xml" ] &&
    ok "the combined report: index.html with the three targets, summary.md marks wine@win10 INCOMPLETE, junit.xml" ||
    no "report: $(ls "$R" 2>&1 | tr '\n' ' ')"
row=$(grep -o 'data-text="tqi.class.set".*' "$R/index.html" | sed 's|</tr>.*||')
case $row in *'c-SKIP" title="wine@win7:'*) ;; *) row="" ;; esac
case $row in *'c-CRASH" title="wine@win81:'*'c-na">n/a'*) ok "the report's rule x host matrix: TQI.CLASS.SET is SKIP on win7, CRASH on win81, n/a on the dropped win10" ;;
    *) no "the report's matrix row of TQI.CLASS.SET: $(echo "$row" | sed 's/<[^>]*>/ /g' | tr -s ' ' | cut -c1-200)" ;; esac
grep -q "no previous run" "$R/diff.txt" && ok "diff: no previous run yet, said so" || no "diff.txt: $(cat "$R/diff.txt")"

# ---------------------------------------------------------------- run 2: resume
sum7=$(sha256sum <"$O/results/w7.jsonl")
fleet "$T/inv2" >"$T/run2.out" 2>&1; rc=$?
cat "$T/run2.out"
[ "$rc" = 0 ] && ok "run 2 (resume): exit 0, every host complete" || no "run 2: exit $rc, expected 0"
grep -q '^\[w7\] already complete (wine@win7, exit 1): skipped' "$T/run2.out" && grep -q '^\[w81\] already complete' "$T/run2.out" &&
    ! grep -q '^\[w7\] upload' "$T/run2.out" && [ "$(sha256sum <"$O/results/w7.jsonl")" = "$sum7" ] &&
    ok "resume: w7 and w81 were complete and are skipped (results untouched)" || no "resume: $(grep '^\[w7\]' "$T/run2.out")"
facts "$O" w10 >"$T/facts"
case "$(fact w10)" in "complete 1 wine@win10 "*) ok "w10 reran and completed ($(fact w10))" ;; *) no "w10 after resume: $(fact w10)" ;; esac

# ---------------------------------------------------------------- run 3: fresh, a host changed
echo win10 >"$T/hosts/w7/version"
fleet "$T/inv3" --fresh >"$T/run3.out" 2>&1; rc=$?
cat "$T/run3.out"
[ "$rc" = 1 ] && ok "run 3 (--fresh, w7 upgraded to win10): exit 1, a regression against the previous run" || no "run 3: exit $rc, expected 1"
[ -f "$O/previous/w7.jsonl" ] && [ "$(sha256sum <"$O/previous/w7.jsonl")" = "$sum7" ] && ok "--fresh kept the last results as previous/" || no "previous/ not kept"
grep -q "^diff: OLD wine@win7 .* -> NEW wine@win10" "$R/diff.txt" && grep -q "^regressions (" "$R/diff.txt" &&
    grep -q "^  tqi.0b.exact  *SKIP    -> CRASH" "$R/diff.txt" && grep -q '^fleet: \[w7\] [0-9]* regressions against the previous run: ' "$T/run3.out" &&
    ok "diff.txt: w7's regressions against the previous run (tqi.0b.exact SKIP -> CRASH)" || no "diff.txt: $(head -n 3 "$R/diff.txt" | cut -c1-120)"
grep -q "^diff: OLD wine@win81 .* -> NEW wine@win81" "$R/diff.txt" && ok "diff.txt pairs every host with its previous run" || no "diff.txt: no w81 pair"

$FLEET status "$T/inv3" --out "$O" --exe-dir "$B" >"$T/status.out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "^w7  *complete  *wine@win10" "$T/status.out" && grep -q "^w81  *complete  *wine@win81" "$T/status.out" &&
    ok "status: every host's state from the last run" || no "status: exit $rc: $(head -n 2 "$T/status.out")"
# run 4: the inventory still says w7 is win7: a host at another version than expected is FAILED
# (one case shows the version)
sed '/^w7 /s/--filter t\*/--case tqi.0b.exact/' "$T/inv2" >"$T/inv4"
O=$T/out4 fleet "$T/inv4" --host w7 >"$T/run4.out" 2>&1; rc=$?
[ "$rc" = 4 ] && grep -q "^\[w7\] FAILED: the host is wine@win10, the inventory expects win7" "$T/run4.out" && [ -f "$T/out4/results/w7.jsonl" ] &&
    ! grep -q "^\[w81\]" "$T/run4.out" &&
    ok "--host w7 with expect=win7 on a win10 host: FAILED (wrong version), results kept, exit 4" || no "run 4: exit $rc: $(grep '^\[w7\]' "$T/run4.out" | tail -n 1)"

[ "$before" = "$(home_state)" ] && ok "the user's ~/.ssh is untouched ($(echo "$before" | head -n 1 | cut -c1-40))" || no "~/.ssh changed"
kill "$sshd_pid" 2>/dev/null
sshd_gone() { ! kill -0 "$sshd_pid" 2>/dev/null; }
within 5000 sshd_gone && { ok "the test's sshd stopped"; sshd_pid=""; } || no "sshd did not stop"
finish fleet
