#!/bin/sh
# harness/tests/scenarios.sh BUILD - the client scenarios (cases/clients.c, spec/programs.def):
#   1. every program has a scenario, and `etwconf list --json` gives each its program and steps;
#   2. the reference passes every scenario at every version where the program runs (SKIP before);
#   3. a hand-broken target (BUILD/scen/noprobe.so: the 0x07 probe does not write the size) makes
#      the PerfView, pmctrace and DTrace scenarios FAIL with the probe step named, and the
#      scenarios that make no probe still pass;
#   4. a target that crashes records the step it crashed at, in a worker process and in process.
# Last line: "scenarios: N passed, N failed".
set -u
B=${1:-build}
PYTHON=${PYTHON:-python3}
E=$B/etwconf
T=$B/test/scenarios
mkdir -p "$T"
. "$(dirname "$0")/lib.sh"
for f in "$E" "$B/scen/noprobe.so" "$B/bad/crash.so"; do
    [ -f "$f" ] || { no "$f is missing: run 'make test-scenarios'"; summary scenarios; exit 1; }
done

"$E" list --json >"$T/list.json" 2>"$T/list.err" || no "etwconf list --json failed (see $T/list.err)"
"$E" run --emulate all --filter 'client.*' --quiet --out-dir "$T/ref" 2>"$T/ref.err"; rc=$?
[ "$rc" = 0 ] && ok "reference: every scenario at every version, exit 0" || no "reference: etwconf run exited $rc (see $T/ref.err)"
"$E" run --target "$B/scen/noprobe.so" --filter 'client.*' --quiet --out "$T/noprobe.jsonl" 2>"$T/noprobe.err"; rc=$?
[ "$rc" = 1 ] && ok "noprobe.so: exit 1 (counted failures)" || no "noprobe.so: exit $rc, expected 1 (see $T/noprobe.err)"
"$E" run --target "$B/bad/crash.so" --filter 'client.*' --quiet --out "$T/crash-worker.jsonl" 2>/dev/null
"$E" run --target "$B/bad/crash.so" --filter 'client.*' --isolation inproc --quiet --out "$T/crash-inproc.jsonl" 2>/dev/null

out=$($PYTHON - "$T" <<'PYEOF'
import glob, json, os, sys
sys.path[:0] = ["spec", "harness/tests"]
import rules
from checks import say, cases
T = sys.argv[1]

progs = {p["id"]: p for p in rules.programs()}
listed = {c["id"]: c for c in json.load(open(os.path.join(T, "list.json")))["cases"]}
scen = {i: c for i, c in listed.items() if i.startswith("client.")}
say(len(progs) >= 17, "spec/programs.def: %d programs read by spec/rules.py" % len(progs))
missing = sorted(p for p in progs if not any(c.get("program", {}).get("id") == p for c in scen.values()))
say(not missing, "every program has a scenario (%d scenarios)%s" % (len(scen), ": missing " + " ".join(missing) if missing else ""))
cids = {c.get("program", {}).get("id") for c in scen.values()}
say(cids == set(progs), "the C table and spec/rules.py read the same programs%s" % (": " + " ".join(sorted(cids ^ set(progs))) if cids != set(progs) else ""))
bad = [i for i, c in scen.items() if not (c.get("program", {}).get("id") in progs and i.startswith("client.%s." % c["program"]["id"])
       and c["program"].get("name") and ": " in c["program"].get("source", "") and c.get("steps")
       and all(s.get("what") and s.get("consequence") for s in c["steps"]))]
say(scen and not bad, "list --json: every scenario (%d) has its program (id, name, 'repo: path') and steps (what, consequence)%s" % (len(scen), ": " + " ".join(bad) if bad else ""))
ordinary = [c for i, c in listed.items() if not i.startswith("client.")]
say(ordinary and not [c for c in ordinary if "program" in c], "list --json: ordinary rows (%d) carry no program" % len(ordinary))

# 2. the reference
runs = {}
for f in sorted(glob.glob(os.path.join(T, "ref", "reference-*.jsonl"))):
    runs[f.rsplit("reference-", 1)[1][:-6]] = cases(f)
say(sorted(runs) == sorted(v["name"] for v in rules.versions()), "reference: results at %s (every entry of spec/versions.def)" % " ".join(sorted(runs)))
wrong = ["%s@%s %s" % (i, v, r["status"]) for v, cs in runs.items() for i, r in cs.items() if r["status"] not in ("PASS", "SKIP")]
say(runs and scen and not wrong and all(len(cs) == len(scen) for cs in runs.values()),
    "reference: every scenario (%d) PASSes or does not apply, at %d version(s)%s" % (len(scen), len(runs), ": " + ", ".join(wrong) if wrong else ""))
at10 = runs.get("10.0", {})
say(at10 and all(r["status"] == "PASS" for r in at10.values()), "reference@10.0: all %d scenarios PASS" % len(at10))
skips = [r for cs in runs.values() for r in cs.values() if r["status"] == "SKIP"]
say(skips and all("needs Windows" in (r.get("reason") or "") for r in skips), "reference: a scenario SKIPs only where its program does not run (%d, with the reason)" % len(skips))
say(runs and all(r.get("program", {}).get("id") and "step" not in r for cs in runs.values() for r in cs.values()),
    "reference: every record names its program; a PASS or SKIP names no step")

# 3. the hand-broken target
np = cases(os.path.join(T, "noprobe.jsonl"))
for cid in ("client.perfview.profile-sources", "client.pmctrace.pmc-trace", "client.dtrace-etw.pmc-info"):
    r = np.get(cid, {})
    good = (r.get("status") == "FAIL" and r.get("step") == 1 and "TQI(0, 0x07, NULL, 0" in (r.get("step_what") or "")
            and r.get("consequence") and listed[cid]["steps"][0]["consequence"] == r.get("consequence")
            and "TQI.07.NULL_PROBE" in r.get("failed_rules", []) and r.get("program", {}).get("id") == cid.split(".")[1])
    say(good, "noprobe.so: %s FAILs at step %s (%s) -> %s" % (cid, r.get("step"), r.get("step_what"), r.get("consequence")))
probe_free = ["client.tracy.systrace", "client.tracy.etw-session", "client.fibratus.kernel-flags", "client.krabsetw.kernel-groups", "client.ferrisetw.pr44-profile-sources",
              "client.chromium.provider-traits"]
still = [c for c in probe_free if np.get(c, {}).get("status") != "PASS"]
say(not still, "noprobe.so: the scenarios that make no probe still PASS%s" % (": " + " ".join(still) if still else ""))

# 4. crashes keep their step
for name in ("worker", "inproc"):
    cr = cases(os.path.join(T, "crash-%s.jsonl" % name))
    crashed = [r for r in cr.values() if r["status"] == "CRASH"]
    good = crashed and all(isinstance(r.get("step"), int) and r["step"] >= 1 and r.get("step_what") and r.get("consequence") for r in crashed)
    say(bool(good), "crash.so (%s): %d scenario CRASHes, each with the step it crashed at" % (name, len(crashed)))
PYEOF
)
show "$out"
summary scenarios
