"""harness/tests/wine_results.py SHA CASES.json SHA32 RESULTS... - section 6 of the Wine stage
(harness/tests/wine.sh): the results of etwconf.exe under Wine, each file's header, fingerprint
and runner; what Wine is known to do; the child and in-process runs, the rerun command and the
wrapper's results (the environment's C_T, C_FIRST, C_WP); Wine's test format; the results
against reports/expectations/wine.json. SHA and SHA32: the exes' SHA-256 sums; CASES.json: the
case table (etwconf list --json). "ok" / "FAIL" lines; run from the repository's top."""
import json, os, sys
sha, sha32 = sys.argv[1], sys.argv[3]
# the version table (spec/versions.def): winecfg name -> NT version; winecfg's other names
# (dlls/ntdll/version.c) name the same NT versions, and etwconf.exe reports them by the table's name
sys.path[:0] = ["spec", os.path.dirname(os.path.abspath(__file__))]
import rules
import winetest_format as wf
from checks import say, records
NT = {v["wine"]: v["name"] for v in rules.versions()}
CANON = {"win2003": "winxp64", "win2008": "vista", "win2008r2": "win7", "win11": "win10"}
NT.update({a: NT[c] for a, c in CANON.items() if c in NT})
WINE_VERSION = os.environ["WINE_VERSION"]
# the cases that need an ETW session (a logger fixture)
table = json.load(open(sys.argv[2], encoding="utf-8"))["cases"]
logger_cases = {c["id"] for c in table if c["fixture"]["logger"] or c["fixture"]["logger2"]}
# the checks below hold over the runs: none to check is a failure, not a pass
say(len(sys.argv) > 4, "Wine results to check: %d file(s)" % (len(sys.argv) - 4))
runs = {}
tokens = {}  # run -> "elevated/elevation type" of its token
for f in sys.argv[4:]:
    i686 = "/wine-i686-" in f
    v = f.rsplit("-", 1)[1][:-6]
    try:
        recs = records(f)
    except Exception as e:
        say(False, "%s: unreadable (%s)" % (f, e)); continue
    h, ft, cases = recs[0], recs[-1], [r for r in recs if r.get("type") == "case"]
    fp = h.get("fingerprint", {})
    good = (h.get("type") == "header" and h["target"]["impl"] == "wine" and h["target"]["version"] in (v, CANON.get(v))
            and h["target"]["nt_version"] == NT.get(v) and h["target_id"] == "wine@" + h["target"]["version"]
            and ft.get("type") == "footer" and ft.get("complete") is True and ft.get("exit_code") in (0, 1)
            and h.get("cases_planned") == len(cases) == h["suite"]["cases"])
    say(good, "%s: wine@%s, NT %s, %d cases, complete" % (f, h["target"].get("version"), h["target"].get("nt_version"), len(cases)))
    arch, wow64 = ("i686", True) if i686 else ("x86_64", False)
    fpok = (fp.get("wine_version") and fp.get("exe_sha256") == (sha32 if i686 else sha) and fp.get("rtl_version", "").startswith(NT.get(v, "?") + ".")
            and fp.get("native_arch") == "x86_64" and fp.get("process_arch") == arch and fp.get("wow64") is wow64
            and "elevated" in fp and "privileges" in fp and fp.get("suite_version"))
    say(bool(fpok), "%s: fingerprint (RtlGetVersion %s, %s process, Wine %s on %s, exe SHA-256 matches)" % (f, fp.get("rtl_version"), fp.get("process_arch"), fp.get("wine_version"), fp.get("wine_host")))
    # the Wine that ran is the one asked for: the loader's --version and what ntdll says agree
    say(WINE_VERSION.split(" ")[0] == "wine-%s" % fp.get("wine_version"),
        "%s: the run reports Wine %s, as '%s --version' says (%s)" % (f, fp.get("wine_version"), os.environ["WINE_PATH"], WINE_VERSION))
    rn = h.get("runner") or {}
    rr = [c["rerun"] for c in cases if not c["rerun"].startswith("WINE=") or " rerun " not in c["rerun"]
          or (" %s run " % v) not in c["rerun"]]
    say(rn.get("wine_version") == WINE_VERSION and rn.get("windows_version") == v and not rr,
        "%s: the header records the runner (%s, %s), every rerun command runs under that Wine at %s" % (f, rn.get("wine_version"), rn.get("wineprefix"), v))
    tokens["%s%s" % ("i686 " if i686 else "", v)] = "%s/%s" % (fp.get("elevated"), fp.get("elevation_type"))
    if not i686:
        runs[v] = {c["id"]: c for c in cases}
# the Wine stage's exes ask for the full administrator token (manifest highestAvailable), as the hosted
# Windows runners run the suite: Wine 8.0 and 10.0 give it; a Wine that does not is named here
limited = sorted("%s (elevated/type %s)" % (k, t) for k, t in tokens.items() if t != "True/full")
say(tokens and not limited, "every run had the full administrator token (%d runs)%s" % (len(tokens), ": not " + ", ".join(limited) if limited else ""))
def got_has(c, s):
    return any(s in (k.get("got") or "") for k in c.get("checks", []) if not k.get("ok"))
w10 = runs.get("win10")
if not w10:
    say(False, "win10: no results of a 64-bit run at win10 to check the known Wine behaviours in")
else:
    tqi_crash = [c for c in w10.values() if c["function"] == "TraceQueryInformation" and c["status"] == "CRASH"]
    say(len(tqi_crash) >= 20 and all(c["exception"] == "0x80000100" and c["mode"] == "exception" for c in tqi_crash),
        "win10: %d TraceQueryInformation cases reach sechost's stub: CRASH 0x80000100" % len(tqi_crash))
    reached = [c for c in w10.values() if c["function"] == "TraceQueryInformation" and c["status"] not in ("CRASH", "SKIP", "BROKEN")
               and not c["id"].startswith("exp.")]
    say(not reached, "win10: no TraceQueryInformation call case ends otherwise%s" % (": " + " ".join(c["id"] for c in reached) if reached else ""))
    for cid in ("gmi.not-found-query", "gmi.not-found-kernel", "ksi.short-query", "ksi.unknown-class-query", "ksi.set-only-class-query", "tpi.query"):
        c = w10.get(cid)
        say(bool(c) and c["status"] == "FAIL" and got_has(c, "0xC0000003"), "win10: %s FAILs with 0xC0000003 observed" % cid)
    c = w10.get("traits.once")
    say(bool(c) and c["status"] == "FAIL" and got_has(c, "0"), "win10: traits.once FAILs (Wine returns 0 for the second set)")
    cti = [c for c in w10.values() if c["function"] in ("CreateTraceInstanceId", "EtwCreateTraceInstanceId")]
    say(bool(cti) and all(c["status"] in ("FAIL", "SKIP") and (c["status"] == "SKIP" or c["mode"] == "missing-export") for c in cti)
        and w10.get("exp.advapi32.cti", {}).get("mode") == "missing-export",
        "win10: CreateTraceInstanceId is reported missing (%d cases FAIL, mode missing-export)" % sum(c["status"] == "FAIL" for c in cti))
    scen = [c for c in w10.values() if c["id"].startswith("client.") and c["status"] in ("FAIL", "CRASH", "TIMEOUT")]
    say(len(scen) >= 10 and all(c.get("program", {}).get("id") and isinstance(c.get("step"), int) and c.get("step_what") and c.get("consequence")
                                for c in scen) and w10.get("client.perfview.profile-sources", {}).get("step") == 1,
        "win10: %d client scenarios break, each naming its program, step and consequence (PerfView at step 1)" % len(scen))
c = runs.get("win7", {}).get("exp.advapi32.tqi")
say(bool(c) and c["status"] == "PASS", "win7: exp.advapi32.tqi PASSes (TraceQueryInformation arrives in advapi32 at 6.2)"
    if "win7" in runs else "win7: no results of a 64-bit run at win7 to check the known Wine behaviours in")
passed_fixture = ["%s@%s" % (c, v) for v, cs in runs.items() for c in sorted(logger_cases) if cs.get(c, {}).get("status") == "PASS"]
say(len(logger_cases) > 30 and runs and not passed_fixture,
    "no case that needs an ETW session (%d cases) PASSes under Wine, in %d run(s)%s" % (len(logger_cases), len(runs), ": " + " ".join(passed_fixture) if passed_fixture else ""))
broken = [c for cs in runs.values() for c in cs.values() if c["status"] == "BROKEN"]
say(all(c["id"] in logger_cases or c["id"] == "tqi.05.timer" for c in broken) and all((c.get("reason") or "").startswith(("fixture:", "reference value:")) for c in broken),
    "every BROKEN case (%d) is a fixture Wine cannot provide, with the reason" % len(broken))
E = os.environ
# the platform layer: the live tqi.0b.* cases end the same in a child per case as in-process
def outcomes(p):
    return {r["id"]: (r["status"], r.get("mode"), r.get("exception")) for r in records(p) if r["type"] == "case"}
try:
    a, b = outcomes(E["C_T"] + "/child-live.jsonl"), outcomes(E["C_T"] + "/inproc-live.jsonl")
    say(a == b and a, "child isolation: the live tqi.0b.* cases end the same in a child per case as in-process (%d cases)%s"
        % (len(a), "" if a == b else ": they disagree on " + " ".join(k for k in a if a[k] != b.get(k))))
except (OSError, ValueError, KeyError) as e:
    say(False, "child isolation and in-process: %s" % e)
# a record's rerun command, as printed, reruns its case under this Wine at that version
first = E["C_FIRST"]
if first:
    import shlex, subprocess
    old_path, new_path = "%s/wine-%s.jsonl" % (E["C_R"], first), E["C_T"] + "/rerun.jsonl"
    try:
        old = records(old_path)
        cmd = old[6]["rerun"]
        with open(E["C_T"] + "/rerun.err", "w") as err:
            subprocess.run(["sh", "-c", "%s --out %s" % (cmd, shlex.quote(new_path))], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=err)
        new = records(new_path)
        nc, oc = [r for r in new if r["type"] == "case"], old[6]
        say(len(nc) == 1 and nc[0]["id"] == oc["id"] and nc[0]["status"] == oc["status"]
            and new[0]["target_id"] == old[0]["target_id"],
            "a Wine record's rerun command, run as printed, reruns its case (%s@%s) under %s at %s"
            % (nc[0]["id"] if nc else "-", new[0]["target_id"], WINE_VERSION, first))
    except (OSError, ValueError, KeyError, IndexError) as e:
        say(False, "the rerun command of %s's 7th record: %s (%s/rerun.err)" % (old_path, e, E["C_T"]))
# the wrapper's results record the wrapper, the user's prefix and the version
try:
    h = json.loads(open(E["C_WP"] + "/results/wine-win2008r2.jsonl").readline())
    r = h.get("runner", {})
    say(r.get("wine") == E["C_WP"] + "/wine" and r.get("wineprefix") == E["C_WP"] + "/prefix"
        and r.get("windows_version") == "win2008r2" and h["target"]["nt_version"] == "6.1",
        "the results record the wrapper, the user's prefix and win2008r2 (NT 6.1)%s" % ("" if r else ": no runner"))
except (OSError, ValueError, KeyError) as e:
    say(False, "wrapper results: %s" % e)
# etwconf.exe's results at win10 in Wine's test format, with wine.json: every known divergence todo
wj = "reports/expectations/wine.json"
if "win10" in runs:
    out = E["C_L"] + "/wine-win10.txt"
    wf.report(out, "winetest", "--expectations", wj, "%s/wine-win10.jsonl" % E["C_R"])
    wf.grammar(out, 0)
    wf.results(out, "%s/wine-win10.jsonl" % E["C_R"], wj)
    n = sum("Test marked todo" in l for l in open(out))
    say(wf.rc_of(out) == 0 and n > 100,
        "etwconf.exe under Wine at win10 with wine.json: %d known divergences todo, no failure, exit 0" % n)
# the results against the known divergences, and which Wine they were written down for
d = json.load(open(wj))
made_for = d.get("wine_versions", [])
if WINE_VERSION.split(" ")[0] in made_for:
    print("wine: %s was made for %s; this is %s" % (wj, " ".join(made_for), WINE_VERSION))
else:
    print("WARNING: %s was made for %s (its wine_versions), but this run uses %s (%s)." % (
        wj, " ".join(made_for) or "an unnamed Wine version", WINE_VERSION, E["WINE_PATH"]))
    print("WARNING: a difference below may be a change in Wine or in its environment, not in the suite; to record "
          "this Wine: make wine-record (README \"Your Wine's results\").")
if any("/wine-i686-" in f for f in sys.argv[4:]) and "i686" not in d["target"].get("arch", "i686"):
    # without entries of their own the 32-bit runs are held to the 64-bit ones (Wine builds the
    # same code for both), so that a difference between the two shows up as a failure
    d["target"]["arch"] = ["x86_64", "i686"]
    wj = E["C_L"] + "/wine-expectations.json"
    json.dump(d, open(wj, "w"))
if sys.argv[4:]:
    wf.report(E["C_L"] + "/expectations.out", "check", "--expectations", wj, *sys.argv[4:])
