"""etwconf-report calibrate and baseline: synthetic runs on real Windows (header impl windows,
as etwconf.exe writes them on a live system, harness/RESULTS.md), in the style of
samples.py, with one rule confirmed, one counted rule contradicted and one rule not
exercised, on two machine kinds."""
import glob
import json
import os

from common import TmpCase, data, dump_records, fix_footer, run_cli, REPO
from etwconf_report import calibrate, catalog, expectations

# id, rules, outcome on the x64 server: "pass", "fail:RULE", "skip", "crash"
CASES = [
    ("tqi.class.first", ["TQI.CLASS.FIRST"], "pass"),               # SHOULD INFERRED: confirmed
    ("cti.last-error-success", ["CTI.LAST_ERROR_SUCCESS"], "pass"),  # SHOULD OBSERVED: confirmed
    ("tqi.0b.exact", ["TQI.0B.EXACT_SIZE", "TQI.0B.RETLEN"], "pass"),
    ("tsi.05.handle", ["TSI.05.HANDLE_ZERO"], "fail:TSI.05.HANDLE_ZERO"),  # MUST DOC: contradicted
    ("tsi.06.privilege", ["TSI.06.PRIVILEGE"], "skip"),              # not exercised
    # CTI.REGHANDLE_FIRST's check held
    ("esi.class", ["ESI.CLASS", "CTI.REGHANDLE_FIRST"], "fail:ESI.CLASS"),
]
COUNTED = {"TQI.0B.EXACT_SIZE", "TQI.0B.RETLEN", "TSI.05.HANDLE_ZERO", "ESI.CLASS"}


def live_run(build=20348, arch="x86_64", native="x86_64", product="server", override=None,
             complete=True):
    """A run of etwconf.exe on real Windows; override: {case id: outcome}."""
    tid = "windows@10.0.%d" % build
    fp = {"rtl_version": "10.0.%d" % build, "major": 10, "minor": 0, "build": build, "ubr": 2655,
          "product_type": product, "product_name": "Windows Server 2022 Datacenter",
          "native_arch": native, "process_arch": arch, "wow64": arch != native,
          "elevated": True, "admin": True, "exe_sha256": "ab" * 32, "suite_version": "0.1.0"}
    recs = [{"type": "header", "schema": "etwconf-results/1",
             "suite": {"name": "etwconf", "version": "0.1.0", "git": "0123456789ab"},
             "target": {"impl": "windows", "name": "windows", "path": None, "version": "10.0",
                        "nt_version": "10.0", "build": build, "emulated": False, "arch": arch},
             "target_id": tid, "host": {"os": "windows", "arch": native}, "fingerprint": fp,
             "started": "2026-11-23T12:00:00Z", "argv": ["etwconf.exe", "run"],
             "isolation": "batch", "timeout_ms": 5000, "cases_planned": len(CASES)}]
    for seq, (cid, rules, outcome) in enumerate(CASES, 1):
        outcome = (override or {}).get(cid, outcome)
        rec = {"type": "case", "seq": seq, "id": cid, "file": "cases/x.c", "line": seq,
               "function": "TraceSetInformation", "title": cid, "rules": rules,
               "status": "PASS", "counted": False, "mode": None, "failed_rules": [],
               "checks": [{"what": "return", "rule": r, "expected": "0", "got": "0", "ok": True}
                          for r in rules],
               "message": None, "reason": None, "exception": None, "duration_us": 9,
               "rerun": "etwconf.exe run --case " + cid}
        if outcome == "skip":
            rec.update(status="SKIP", checks=[], reason="needs administrator rights")
        elif outcome == "crash":
            rec.update(status="CRASH", checks=[], mode="exception", exception="0xC0000005",
                       failed_rules=list(rules), counted=bool(COUNTED & set(rules)))
        elif outcome.startswith("fail:"):
            bad = outcome[5:]
            rec["checks"] = [dict(c, got="87 (ERROR_INVALID_PARAMETER)", ok=False)
                             if c["rule"] == bad else c for c in rec["checks"]]
            rec.update(status="FAIL", mode="return", failed_rules=[bad], counted=bad in COUNTED,
                       message="return: expected 0, got 87")
        recs.append(rec)
    if complete:
        recs.append({"type": "footer", "finished": "2026-11-23T12:00:01Z", "duration_ms": 80,
                     "complete": True})
    return dump_records(fix_footer(recs))


class CalibrateTest(TmpCase):
    def setUp(self):
        super().setUp()
        self.x64 = self.write("server2022-x64.jsonl", live_run())
        # the i686 exe on the same machine: CTI.LAST_ERROR_SUCCESS contradicted there
        self.x86 = self.write("server2022-i686.jsonl", live_run(
            arch="i686", override={"cti.last-error-success": "fail:CTI.LAST_ERROR_SUCCESS"}))
        self.out = os.path.join(self.tmp, "cal")

    def calibrate(self, *files):
        return self.assertRan(run_cli("calibrate", "--out-dir", self.out, *files), 0)[0]

    def row(self, out, rule):
        """The rule's verdicts in the columns [1], [2]: the machine kinds, in the runs' order."""
        line = next((l for l in out.splitlines() if l.startswith(rule + " ")), None)
        self.assertIsNotNone(line, "no row for %s in:\n%s" % (rule, out))
        return line.split()[3:]

    def test_table_lists_and_files(self):
        out = self.calibrate(self.x64, self.x86)
        self.assertIn("[1] 10.0.20348-server-i686-on-x86_64: windows@10.0.20348", out)
        self.assertIn("[2] 10.0.20348-server-x86_64: windows@10.0.20348", out)
        # confirmed / contradicted / not exercised, per machine kind
        self.assertEqual(self.row(out, "TQI.CLASS.FIRST"), ["confirmed", "confirmed"])
        self.assertEqual(self.row(out, "TSI.05.HANDLE_ZERO"), ["CONTRADICTED", "CONTRADICTED"])
        self.assertEqual(self.row(out, "TSI.06.PRIVILEGE"), ["-", "-"])
        self.assertEqual(self.row(out, "CTI.LAST_ERROR_SUCCESS"), ["CONTRADICTED", "confirmed"])
        # the passing check of a failing case confirms its rule; a rule no case cites is "-"
        self.assertEqual(self.row(out, "CTI.REGHANDLE_FIRST"), ["confirmed", "confirmed"])
        self.assertEqual(self.row(out, "TQI.0E.SMALL"), ["-", "-"])
        for r in catalog.load().rules:        # every catalogue rule has its row
            self.row(out, r["id"])
        promo = out.split("promotion candidates:")[1].split("contradicted counted rules:")[0]
        self.assertIn("TQI.CLASS.FIRST [SHOULD, INFERRED]", promo)
        self.assertIn("CTI.REGHANDLE_FIRST [SHOULD, OBSERVED]", promo)
        self.assertNotIn("CTI.LAST_ERROR_SUCCESS", promo)     # contradicted on the i686 kind
        self.assertNotIn("TQI.0B.EXACT_SIZE", promo)          # counted rules are not candidates
        wrong = out.split("contradicted counted rules:")[1].split("calibrate: wrote")[0]
        self.assertIn("TSI.05.HANDLE_ZERO [MUST, DOC] on 10.0.20348-server-x86_64", wrong)
        self.assertIn("got 87 (ERROR_INVALID_PARAMETER)", wrong)
        self.assertIn("ESI.CLASS [MUST, DOC]", wrong)
        self.assertNotIn("CTI.LAST_ERROR_SUCCESS", wrong)     # SHOULD: not counted
        # the files, which check accepts from real Windows of that build only
        files = sorted(glob.glob(os.path.join(self.out, "*.json")))
        self.assertEqual([os.path.basename(f) for f in files], [
            "10.0.20348-server-i686-on-x86_64.json", "10.0.20348-server-x86_64.json"])
        with open(files[1], encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["target"], {"impl": "windows", "arch": "x86_64",
                                         "version": "10.0.20348", "native_arch": "x86_64",
                                         "product_type": "server"})
        ent = {e["case"]: e for e in doc["entries"]}
        self.assertEqual(sorted(ent), ["esi.class", "tsi.05.handle"])
        self.assertEqual(ent["tsi.05.handle"]["contradicts"], ["TSI.05.HANDLE_ZERO"])
        self.assertTrue(ent["tsi.05.handle"]["why"].startswith("TODO: explain"))
        self.assertEqual(len(doc["runs"]), 1)
        # each file with its own results, and all of them at once
        for f, r in ((files[1], self.x64), (files[0], self.x86)):
            self.assertRan(run_cli("check", "--expectations", f, r), 0,
                           out=["expectations: 5 passed, 0 failed, 1 skipped"])
        args = []
        for f in files:
            args += ["--expectations", f]
        self.assertRan(run_cli("check", *args, self.x64, self.x86), 0,
                       out=["expectations: 10 passed, 0 failed, 2 skipped"])
        # the quirk is accepted from real Windows of that build only: not from another build,
        # not from another product type, not from Wine
        other = self.write("w11.jsonl", live_run(build=26100, product="workstation"))
        self.assertRan(run_cli("check", "--expectations", files[1], other), 2, out=["not checked"])
        wine = self.write("wine.jsonl", live_run().replace('"impl": "windows"', '"impl": "wine"'))
        self.assertRan(run_cli("check", "--expectations", files[1], wine), 2)
        # a new failure on that build is not absorbed
        worse = self.write("worse.jsonl",
                           live_run(override={"tqi.0b.exact": "fail:TQI.0B.RETLEN"}))
        self.assertRan(run_cli("check", "--expectations", files[1], worse), 1, out=["UNEXPECTED"])

    def test_rerun_keeps_whys(self):
        self.calibrate(self.x64)
        path = os.path.join(self.out, "10.0.20348-server-x86_64.json")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = text.replace('"why": "TODO: explain: real Windows 10.0.20348-server-x86_64 does '
                            'this; the model expects otherwise (TSI.05.HANDLE_ZERO).',
                            '"why": "Server 2022 accepts a session handle for class 0x05 (Orbit '
                            'relies on it).')
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        self.calibrate(self.x64)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        ent = {e["case"]: e for e in doc["entries"]}
        self.assertTrue(ent["tsi.05.handle"]["why"].startswith("Server 2022 accepts"), ent)
        self.assertEqual(len(doc["runs"]), 1)      # the same run is not folded in twice

    def test_not_windows_is_refused(self):
        self.assertRan(run_cli("calibrate", "--out-dir", self.out, data("wine-win10.jsonl")), 2,
                       err=["real Windows"])
        self.assertFalse(os.path.exists(self.out))


class BaselineTest(TmpCase):
    def setUp(self):
        super().setUp()
        self.dir = os.path.join(self.tmp, "baselines")
        self.run1 = self.write("r1.jsonl", live_run())

    def base(self, *args):
        return run_cli("baseline", *args[:1], "--dir", self.dir, *args[1:])

    def test_cycle(self):
        self.assertRan(self.base("init", "10.0.20348,server,x86_64"), 0)
        path = os.path.join(self.dir, "10.0.20348-server-x86_64.json")
        # a placeholder accepts no failure
        self.assertRan(run_cli("check", "--expectations", path, self.run1), 1)
        self.assertRan(self.base("check", self.run1), 0, out=["NO BASELINE yet"])
        self.assertRan(self.base("check", "--require", self.run1), 1)
        self.assertRan(self.base("update", self.run1), 0)
        self.assertRan(self.base("check", self.run1), 0, out=["0 regressions"])
        # a regression: a case that passed now fails; another fails differently
        worse = self.write("r2.jsonl", live_run(override={"tqi.0b.exact": "fail:TQI.0B.RETLEN",
                                                          "esi.class": "crash"}))
        self.assertRan(self.base("check", worse), 1, out=[
            "REGRESSION tqi.0b.exact", "REGRESSION esi.class",
            "rerun: etwconf.exe run --case tqi.0b.exact"])
        # fixed: reported, not a failure
        better = self.write("r3.jsonl", live_run(override={"tsi.05.handle": "pass"}))
        self.assertRan(self.base("check", better), 0, out=["now passes tsi.05.handle"])
        # an incomplete run fails the check and is not folded in
        cut = self.write("r4.jsonl", live_run(complete=False))
        self.assertRan(self.base("check", cut), 1, out=["INCOMPLETE"])
        self.assertRan(self.base("update", cut), 2)

    def test_committed_baselines_are_valid(self):
        files = sorted(glob.glob(os.path.join(REPO, "baselines", "windows", "*.json")))
        self.assertTrue(files, "baselines/windows/ has no files")
        for f in files:
            exp = expectations.load(f)
            t = exp.doc["target"]
            self.assertEqual(t["impl"], "windows", f)
            key = "-".join([t["version"], t["product_type"], t["arch"]] +
                           (["on-" + t["native_arch"]] if t["native_arch"] != t["arch"] else []))
            self.assertEqual(os.path.basename(f), key + ".json")
            if not calibrate.has_runs(exp):
                # no real run folded in: nothing may be claimed about Windows
                self.assertEqual(exp.entries, [], f)
                self.assertIn("No real run", exp.doc.get("note", ""), f)
