#!/bin/sh
# harness/tests/ansible.sh BUILD - make test-ansible (mk/fleet.mk): the playbook of
# harness/windows/ansible/, as far as this machine can check it without Windows: ansible-lint and
# --syntax-check pass (and the latter fails on a broken copy); the example inventory puts its hosts
# in the group etwconf over SSH and WinRM; the playbook runs here (its Windows play has no host:
# Ansible's Windows modules need PowerShell, which the fleet stage's fake hosts lack) and its report
# play writes one report of the results it finds. Last line: "ansible: N passed, N failed, N skipped".
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
. harness/tests/lib.sh
D=harness/windows/ansible
L=$B/test/ansible
rm -rf "$L"
mkdir -p "$L"
for t in ansible-playbook ansible-inventory ansible-lint; do
    command -v "$t" >/dev/null 2>&1 || { no "$t is missing: 'sh .ci/deps.sh fleet' as root (make test does it)"; finish ansible; }
done
# no user configuration, nothing written to ~/.ansible, no network (--offline: ansible-lint would
# look for newer versions and collections)
: >"$L/ansible.cfg"
export ANSIBLE_CONFIG="$(cd "$L" && pwd)/ansible.cfg" ANSIBLE_NOCOLOR=1 ANSIBLE_LOCAL_TEMP="$(cd "$L" && pwd)/tmp" ANSIBLE_HOME="$(cd "$L" && pwd)/home"

# ---------------------------------------------------------------- 1. lint and syntax
(cd "$D" && ansible-lint --offline --nocolor etwconf.yml inventory.example.yml) >"$L/lint.out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "^Passed" "$L/lint.out" && ok "ansible-lint passes on etwconf.yml and inventory.example.yml ($(grep '^Passed' "$L/lint.out"))" ||
    { no "ansible-lint: exit $rc (the playbook needs the collection ansible.windows: Debian's ansible package, sh .ci/deps.sh fleet)"
        tail -n 20 "$L/lint.out"; }
ansible-playbook -i "$D/inventory.example.yml" "$D/etwconf.yml" --syntax-check >"$L/syntax.out" 2>&1 &&
    ok "ansible-playbook --syntax-check passes" || { no "ansible-playbook --syntax-check"; tail -n 5 "$L/syntax.out"; }
sed 's/^    - name: Copy the exe$/    - name: Copy the exe\n      no_such_keyword: 1/' "$D/etwconf.yml" >"$L/broken.yml"
# ansible-core 2.14 (Debian 12) says "ERROR! ...", 2.19 (Debian 13) "[ERROR]: ..."
! ansible-playbook "$L/broken.yml" --syntax-check >"$L/broken.out" 2>&1 && grep -qE '^(ERROR!|\[ERROR\]:)' "$L/broken.out" &&
    grep -q "name: Copy the exe" "$L/broken.out" &&
    ok "--syntax-check fails on a copy with a broken task, naming it" || no "--syntax-check passed a broken playbook"

# ---------------------------------------------------------------- 2. the example inventory
ansible-inventory -i "$D/inventory.example.yml" --list >"$L/inventory.json" 2>"$L/inventory.err"
out=$($PYTHON - "$L/inventory.json" <<'PY'
import json, sys
inv = json.load(open(sys.argv[1]))
hosts = inv.get("etwconf", {}).get("hosts", [])
hv = inv.get("_meta", {}).get("hostvars", {})
conns = sorted({hv[h].get("ansible_connection") for h in hosts})
print(len(hosts), " ".join(str(c) for c in conns), hv.get("win81-x86", {}).get("etwconf_exe"))
PY
)
[ "$out" = "4 ssh winrm etwconf-i686.exe" ] && ok "the example inventory: 4 hosts in the group etwconf, over ssh and winrm, per-host variables" ||
    no "the example inventory: $out $(head -n 2 "$L/inventory.err")"

# ---------------------------------------------------------------- 3. the playbook's run here
O=$(cd "$L" && pwd)/fleet
mkdir -p "$O/results"
"$B/etwconf" run --filter 'tqi.0b.*' --quiet --out "$O/results/host-a.jsonl" >/dev/null 2>&1
"$B/etwconf" run --filter 'tqi.0b.*' --emulate 6.1 --quiet --out "$O/results/host-b.jsonl" >/dev/null 2>&1
printf 'etwconf:\n  hosts: {}\n' >"$L/none.yml"
ansible-playbook -i "$L/none.yml" "$D/etwconf.yml" -e "etwconf_out=$O" >"$L/run.out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "skipping: no hosts matched" "$L/run.out" && grep -q 'reference@10.0' "$O/report/index.html" 2>/dev/null &&
    grep -q 'reference@6.1' "$O/report/index.html" && [ -s "$O/report/summary.md" ] && [ -s "$O/report/junit.xml" ] &&
    ok "the playbook runs: no Windows host to reach, the report play writes one report of both results files" ||
    { no "the playbook's run: exit $rc"; tail -n 15 "$L/run.out"; }
summary ansible
