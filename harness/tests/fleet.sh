#!/bin/sh
# harness/tests/fleet.sh BUILD - the "fleet" test stage (mk/fleet.mk): etwconf-fleet's unit tests
# (harness/windows/fleet/test_fleet.py), then etwconf-fleet against fake Windows hosts over
# loopback SSH. Last line: "fleet: N passed, N failed, N skipped".
#
# The test starts Debian's OpenSSH server as an instance of its own: its own host key, authorized
# key and sshd_config in a temporary directory, listening on free ports of 127.0.0.1 only, one
# port per fake host (Match LocalPort -> ForceCommand harness/tests/fleet/fakewin.sh, which runs
# the uploaded exe under Wine at that host's Windows version). The client side uses an ssh_config
# of its own (ssh -F: the user's ~/.ssh is neither read for keys nor written; checked at the end).
# Hosts: w7 (win7), w81 (win81; legacy scp protocol; its shell loses the exit code), w10 (win10;
# its connection drops after 12 cases, once) and vista (nothing listens: unreachable).
#   run 1  all four in parallel: w7 and w81 complete, w10 incomplete (partial results kept), vista
#          failed, the report and the diff note are written, exit 4
#   run 2  the same again: w7 and w81 are skipped (resume), w10 completes, exit 0
#   run 3  --fresh after w7's "VM" was upgraded to win10: the diff against the previous run
#          shows its regressions, exit 1
# Every wait is bounded (timeouts on sshd start, each fleet run, each ssh/scp inside it).
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
. harness/tests/lib.sh
finish() {
    summary fleet
    exit $?
}
SSHD=${SSHD:-/usr/sbin/sshd}
SFTP_SERVER=${SFTP_SERVER:-/usr/lib/openssh/sftp-server}
for t in "$SSHD" "$SFTP_SERVER"; do
    [ -x "$t" ] || { no "$t is missing: install openssh-server ('sh .ci/deps.sh fleet' as root; make test does it)"; finish; }
done
for t in ssh scp ssh-keygen wine wineserver; do
    command -v "$t" >/dev/null 2>&1 || { no "$t is missing: 'sh .ci/deps.sh fleet windows' as root"; finish; }
done
[ -f "$B/etwconf.exe" ] || { no "$B/etwconf.exe is missing: run 'make windows'"; finish; }

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
    if [ -e "$ssh_home" ]; then
        ls -la --time-style=full-iso "$ssh_home" 2>&1
        find "$ssh_home" -type f -exec sha256sum {} + 2>&1 | sort
    else
        echo "absent"
    fi
}
before=$(home_state)
cleanup() {
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
    [ "${WINE_PREFIX_SHARED:-0}" = 1 ] ||
        (. harness/tests/wine-env.sh; timeout 20 "$WINESERVER" -k >/dev/null 2>&1; timeout 20 "$WINESERVER" -w >/dev/null 2>&1)
    for p in "$T"/hosts/*/prefix; do    # each fake host's own wineserver (fleet/fakewin.sh)
        [ -d "$p" ] && (. harness/tests/wine-env.sh; WINEPREFIX=$p; export WINEPREFIX; timeout 20 "$WINESERVER" -k >/dev/null 2>&1)
    done
    cp -r "$T/out/report" "$L/report" 2>/dev/null
    cp -r "$T/out/logs" "$L/logs" 2>/dev/null
    cp "$T/sshd.log" "$T/sshd_config" "$T"/run*.out "$L/" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- without SSH: the command line
$PYTHON harness/windows/fleet/test_fleet.py >"$T/unit.out" 2>&1
add_counts "$T/unit.out" || cat "$T/unit.out"
$FLEET --help >"$T/help.out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "Exit codes: 0 every host complete" "$T/help.out" && grep -q "transfer=sftp|scp" "$T/help.out" &&
    ok "--help: exit 0, inventory format and exit codes" || no "--help: exit $rc"
printf 'w1 me@host etwconf.exe colour=red\n' >"$T/bad1"
printf 'w1 me@host etwconf.exe\nw1 me@other etwconf.exe\n' >"$T/bad2"
printf 'w1 me@host nosuch.exe\n' >"$T/bad3"
for n in 1 2 3; do
    $FLEET run "$T/bad$n" --out "$T/badout" --exe-dir "$B" >"$T/bad$n.out" 2>&1; rc=$?
    case $n in 1) want="bad1:1: unknown option 'colour=red'" ;; 2) want="bad2:2: host w1 is already defined at line 1" ;;
        3) want="bad3:1: nosuch.exe not found" ;; esac
    [ "$rc" = 2 ] && grep -qF "$want" "$T/bad$n.out" && [ "$(wc -l <"$T/bad$n.out")" = 1 ] && [ ! -e "$T/badout/results" ] &&
        ok "bad inventory $n: exit 2, one line: $want" || no "bad inventory $n: exit $rc: $(cat "$T/bad$n.out")"
done

# ---------------------------------------------------------------- the Wine prefix
if [ ! -f "$BA/wineprefix/.etwconf-prefix" ]; then
    echo "fleet: making the Wine prefix (harness/tests/wine.sh)"
    sh harness/tests/wine.sh run "$B" win10 >"$L/prefix.log" 2>&1 || { no "the Wine prefix could not be made: $L/prefix.log"; finish; }
fi
# the hosts run in prefixes of their own over this one (fleet/fakewin.sh): its registry must be on
# disk, so its wineserver is stopped here, not kept. WINE_PREFIX_SHARED=1 (make test): the prefix
# was made and its server stopped before the stages started, and the wine stage may be running in
# it now: its server is left alone (Wine replaces a registry file whole when it saves)
[ "${WINE_PREFIX_SHARED:-0}" = 1 ] ||
    (. harness/tests/wine-env.sh; timeout 120 "$WINE" cmd /c exit >/dev/null 2>&1; timeout 20 "$WINESERVER" -k >/dev/null 2>&1;
        timeout 30 "$WINESERVER" -w >/dev/null 2>&1)

# ---------------------------------------------------------------- sshd on 127.0.0.1
ssh-keygen -q -t ed25519 -N '' -C etwconf-fleet-test-host -f "$T/hostkey" &&
    ssh-keygen -q -t ed25519 -N '' -C etwconf-fleet-test-client -f "$T/client" || { no "ssh-keygen failed"; finish; }
cp "$T/client.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
for h in w7 w81 w10; do mkdir -p "$T/hosts/$h"; done
echo win7 >"$T/hosts/w7/version"
echo win81 >"$T/hosts/w81/version"
: >"$T/hosts/w81/lose-exit"
echo win10 >"$T/hosts/w10/version"
echo 12 >"$T/hosts/w10/drop"
fake="sh $REPO/harness/tests/fleet/fakewin.sh $REPO $BA"
# an sshd started by root separates privileges and needs its empty directory (Debian's service
# creates it at boot); nothing else outside the temporary directory is touched
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then mkdir -p /run/sshd && chmod 755 /run/sshd; fi
start_sshd() { # free ports (the kernel's choice, released just before sshd binds them), the config, sshd
ports=$($PYTHON - <<'EOF'
import socket
socks = []
for _ in range(4):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
)
set -- $ports
P7=$1 P81=$2 P10=$3 PDOWN=$4
cat >"$T/sshd_config" <<EOF
# the fleet test's own sshd: loopback only, its own keys, nothing from /etc/ssh
ListenAddress 127.0.0.1:$P7
ListenAddress 127.0.0.1:$P81
ListenAddress 127.0.0.1:$P10
HostKey $T/hostkey
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
AllowTcpForwarding no
AllowAgentForwarding no
X11Forwarding no
PermitTunnel no
PrintMotd no
MaxStartups 30
LogLevel VERBOSE
# sshd runs each command through the user's shell; bash, seeing SSH_CLIENT at level 1, would read the
# user's ~/.bashrc first (a version manager's setup there cost a third of this test's CPU). A
# Windows host's cmd.exe reads nothing of the kind.
SetEnv SHLVL=1
Subsystem sftp $SFTP_SERVER
Match LocalPort $P7
    ForceCommand $fake $T/hosts/w7 $T/listener.pid
Match LocalPort $P81
    ForceCommand $fake $T/hosts/w81 $T/listener.pid
Match LocalPort $P10
    ForceCommand $fake $T/hosts/w10 $T/listener.pid
EOF
    if ! "$SSHD" -t -f "$T/sshd_config" >"$T/sshd-t.log" 2>&1; then
        no "sshd rejects the test configuration: $(tail -n 2 "$T/sshd-t.log")"
        finish
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
    no "sshd did not start within 30 s ($(kill -0 "$sshd_pid" 2>/dev/null && echo "still running" || echo "exited")): $(tail -n 3 "$T/sshd.log")"; finish
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
cat >"$T/inv1" <<EOF
# the fake hosts (harness/tests/fleet.sh)
w7     $U@127.0.0.1  etwconf.exe  port=$P7    expect=win7
w81    $U@127.0.0.1  etwconf.exe  port=$P81   expect=win81  transfer=scp
w10    $U@127.0.0.1  etwconf.exe  port=$P10   expect=win10  args="--isolation child"
vista  $U@127.0.0.1  etwconf.exe  port=$PDOWN expect=vista
EOF
grep -v '^vista' "$T/inv1" | sed 's/ args="--isolation child"//' >"$T/inv2"
sed 's/ expect=win7//' "$T/inv2" >"$T/inv3"
O=$T/out
fleet() {
    timeout 600 $FLEET run "$@" --out "$O" --exe-dir "$B" --ssh-config "$T/ssh_config" --timeout 300 \
        --transfer-timeout 60 --connect-timeout 5 --fetch-tries 2 --fetch-delay 1 --progress-interval 20
}
js() { # js FILE EXPR: a value from a JSON file
    $PYTHON -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$1" "$2" 2>/dev/null
}
footer() { # footer FILE: "complete=... exit=... cases=N tid=..."
    $PYTHON - "$1" <<'EOF'
import json, sys
try:
    recs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
except Exception as e:
    print("unreadable"); sys.exit()
f = recs[-1] if recs[-1].get("type") == "footer" else {}
print("complete=%s exit=%s cases=%d planned=%s tid=%s" % (f.get("complete"), f.get("exit_code"),
      sum(r.get("type") == "case" for r in recs), recs[0].get("cases_planned"), recs[0].get("target_id")))
EOF
}

$FLEET run "$T/inv1" --out "$O" --exe-dir "$B" --ssh-config "$T/ssh_config" --dry-run >"$T/dry.out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "^\[w81\] scp -F $T/ssh_config .* -P $P81 -O " "$T/dry.out" && grep -q "^\[w7\] ssh .* -p $P7 -n $U@127.0.0.1 '.\\\\etwconf.exe run --quiet --out RESULTS.jsonl'" "$T/dry.out" &&
    grep -q "^\[w10\] ssh .*'.\\\\etwconf.exe run --quiet --out RESULTS.jsonl --isolation child'" "$T/dry.out" && [ ! -d "$O/results" ] &&
    ok "--dry-run prints the scp/ssh commands (legacy scp -O for w81, cmd-style command line) and runs nothing" || no "--dry-run: exit $rc: $(head -n 3 "$T/dry.out")"

# ---------------------------------------------------------------- run 1
s=$(date +%s)
fleet "$T/inv1" >"$T/run1.out" 2>&1; rc=$?
cat "$T/run1.out"
echo "(run 1: $(( $(date +%s) - s ))s)"
[ "$rc" = 4 ] && ok "run 1: exit 4 (a host failed or is incomplete; the others reported)" || no "run 1: exit $rc, expected 4"
f7=$(footer "$O/results/w7.jsonl"); f81=$(footer "$O/results/w81.jsonl"); f10=$(footer "$O/results/w10.jsonl")
case "$f7" in "complete=True exit=1 "*"tid=wine@win7") ok "w7: complete, wine@win7 ($f7)" ;; *) no "w7: $f7" ;; esac
case "$f81" in "complete=True exit=1 "*"tid=wine@win81") ok "w81: complete over the legacy scp protocol, wine@win81" ;; *) no "w81: $f81" ;; esac
[ "$(js "$O/state/w7.json" 'd["status"], d["exit_code"], d["ssh_exit"]')" = "('complete', 1, 1)" ] &&
    ok "w7: state complete, exit 1 from the footer" || no "w7 state: $(js "$O/state/w7.json" 'd')"
[ "$(js "$O/state/w81.json" 'd["status"], d["exit_code"], d["ssh_exit"]')" = "('complete', 1, 0)" ] && grep -q '^\[w81\] complete: wine@win81, .* exit 1 from the results footer (not conformant); ssh said 0, not used' "$T/run1.out" &&
    ok "w81: its shell lost the exit code (ssh 0): the result is exit 1, from the results footer" || no "w81 state: $(js "$O/state/w81.json" 'd')"
cases10=$(echo "$f10" | sed -n 's/.*cases=\([0-9]*\) planned=\([0-9]*\).*/\1/p'); planned10=$(echo "$f10" | sed -n 's/.*planned=\([0-9]*\).*/\1/p')
case "$f10" in "complete=None exit=None "*"tid=wine@win10")
    [ "${cases10:-0}" -ge 12 ] && [ "$cases10" -lt "${planned10:-0}" ] && ok "w10: dropped mid-run: its partial results are kept ($cases10 of $planned10 cases, no footer)" \
        || no "w10: $f10" ;;
    *) no "w10: $f10" ;; esac
cp "$O/results/w10.jsonl" "$L/w10-partial.jsonl" 2>/dev/null
[ "$(js "$O/state/w10.json" 'd["status"], d["ssh_exit"]')" = "('incomplete', 255)" ] && grep -q '^\[w10\] INCOMPLETE: wine@win10: .* cases kept in .*the SSH connection failed or dropped (ssh exit 255)' "$T/run1.out" &&
    ok "w10: reported INCOMPLETE (connection dropped, ssh exit 255)" || no "w10 state: $(js "$O/state/w10.json" 'd')"
[ "$(js "$O/state/vista.json" 'd["status"]')" = failed ] && grep -Eq "^\[vista\] FAILED: upload failed \(scp exit (1|255)\): ssh: connect to host 127.0.0.1 port $PDOWN: Connection refused" "$T/run1.out" && [ ! -e "$O/results/vista.jsonl" ] &&
    ok "vista: unreachable, reported FAILED with ssh's reason (scp gives 255 or, depending on when the refusal comes, 1); the rest went on" || no "vista: $(grep '^\[vista\]' "$T/run1.out" | tail -n 1)"
par=$($PYTHON - "$O/state" <<'EOF'
import json, sys, os
st = [json.load(open(os.path.join(sys.argv[1], h + ".json"))) for h in ("w7", "w81", "w10")]
print("yes" if max(s["started"] for s in st) < min(s["finished"] for s in st) else "no")
EOF
)
[ "$par" = yes ] && ok "the three reachable hosts ran in parallel (every host started before any finished)" || no "hosts ran one after another"
n=0
for h in w7 w81 w10 vista; do grep -q "^\[$h\] upload etwconf.exe" "$T/run1.out" && n=$((n + 1)); done
for h in w7 w81 w10; do grep -q "^\[$h\] run etwconf.exe run --out etwconf-" "$T/run1.out" && grep -q "^\[$h\] run ended after" "$T/run1.out" && n=$((n + 1)); done
[ "$n" = 7 ] && ok "progress per host: upload, run, run ended, result" || no "progress lines: $n of 7"
R=$O/report
[ -f "$R/index.html" ] && grep -q 'wine@win7' "$R/index.html" && grep -q 'wine@win81' "$R/index.html" && grep -q 'wine@win10' "$R/index.html" &&
    grep -q 'INCOMPLETE' "$R/summary.md" && grep -q 'wine@win10' "$R/summary.md" &&
    ok "the combined report: index.html with the three targets, summary.md marks wine@win10 INCOMPLETE" || no "report: $(ls "$R" 2>&1 | tr '\n' ' ')"
head -n 2 "$R/matrix.txt" | tr -s ' ' >"$T/mhead"
grep -q "^host w7 w81 w10" "$T/mhead" && grep -q "^target wine@win7 wine@win81 wine@win10\*$" "$T/mhead" && grep -q '^TQI.CLASS.SET  *SKIP  *CRASH  *n/a$' "$R/matrix.txt" &&
    ok "the rule x host matrix: TQI.CLASS.SET is SKIP on win7, CRASH on win81, n/a on the dropped win10" || no "matrix.txt: $(head -n 3 "$R/matrix.txt")"
grep -q "no previous run" "$R/diff.txt" && ok "diff: no previous run yet, said so" || no "diff.txt: $(cat "$R/diff.txt")"

# ---------------------------------------------------------------- run 2: resume
sum7=$(sha256sum <"$O/results/w7.jsonl")
s=$(date +%s)
fleet "$T/inv2" >"$T/run2.out" 2>&1; rc=$?
cat "$T/run2.out"
echo "(run 2: $(( $(date +%s) - s ))s)"
[ "$rc" = 0 ] && ok "run 2 (resume): exit 0, every host complete" || no "run 2: exit $rc, expected 0"
grep -q '^\[w7\] already complete (wine@win7, exit 1): skipped' "$T/run2.out" && grep -q '^\[w81\] already complete' "$T/run2.out" &&
    ! grep -q '^\[w7\] upload' "$T/run2.out" && [ "$(sha256sum <"$O/results/w7.jsonl")" = "$sum7" ] &&
    ok "resume: w7 and w81 were complete and are skipped (results untouched)" || no "resume: $(grep '^\[w7\]' "$T/run2.out")"
f10=$(footer "$O/results/w10.jsonl")
case "$f10" in "complete=True exit=1 "*"tid=wine@win10") ok "w10 reran and completed ($f10)" ;; *) no "w10 after resume: $f10" ;; esac

# ---------------------------------------------------------------- run 3: fresh, a host changed
echo win10 >"$T/hosts/w7/version"
s=$(date +%s)
fleet "$T/inv3" --fresh >"$T/run3.out" 2>&1; rc=$?
cat "$T/run3.out"
echo "(run 3: $(( $(date +%s) - s ))s)"
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
timeout 300 $FLEET run "$T/inv2" --host w7 --out "$T/out4" --exe-dir "$B" --ssh-config "$T/ssh_config" --timeout 300 \
    --transfer-timeout 60 --connect-timeout 5 >"$T/run4.out" 2>&1; rc=$?
[ "$rc" = 4 ] && grep -q "^\[w7\] FAILED: the host is wine@win10, the inventory expects win7" "$T/run4.out" && [ -f "$T/out4/results/w7.jsonl" ] &&
    ! grep -q "^\[w81\]" "$T/run4.out" &&
    ok "--host w7 with expect=win7 on a win10 host: FAILED (wrong version), results kept, exit 4" || no "run 4: exit $rc: $(grep '^\[w7\]' "$T/run4.out" | tail -n 1)"

after=$(home_state)
[ "$before" = "$after" ] && ok "the user's ~/.ssh is untouched ($(echo "$after" | head -n 1 | cut -c1-40))" || no "~/.ssh changed"
kill "$sshd_pid" 2>/dev/null
sshd_gone() { ! kill -0 "$sshd_pid" 2>/dev/null; }
within 5000 sshd_gone
kill -0 "$sshd_pid" 2>/dev/null && no "sshd did not stop" || { ok "the test's sshd stopped"; sshd_pid=""; }
finish
