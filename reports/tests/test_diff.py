"""etwconf-report diff OLD NEW: names the cases that changed, regressions first; exit 0/1/2."""
import json
import os
import shutil

from common import TmpCase, case_of, data, run_cli, read_records, dump_records, fix_footer


def _fail(rec, counted=True):
    rule = rec["rules"][0]
    rec.update(status="FAIL", counted=counted, mode="return", failed_rules=[rule],
               checks=[{"what": "return", "rule": rule, "expected": "87", "got": "0", "ok": False}],
               message="return: expected 87, got 0")


# (name, OLD, NEW: a sample or (case, fields) to change in OLD, exit status, texts, regexes)
DIFFS = [
    ("same run", "reference-10.0.jsonl", "reference-10.0.jsonl", 0, ["0 regressions"], []),
    ("fixes only", "wine-win10.jsonl", ("esi.class", dict(
        status="PASS", counted=False, mode=None, failed_rules=[], checks=[
            {"what": "return", "rule": "ESI.CLASS", "expected": "87", "got": "87", "ok": True}])),
     0, ["1 fixed"], [r"esi\.class\s+FAIL\s+-> PASS"]),
    ("failure detail changed", "wine-win10.jsonl", ("tqi.0b.exact", {"exception": "0xc0000005"}),
     0, ["same status, different failure (1):", "tqi.0b.exact"], []),
    ("different impls", "reference-10.0.jsonl", "wine-win10.jsonl", 1,
     ["note: comparing different implementations"], []),
]


class Diff(TmpCase):
    def make_pair(self):
        old = read_records("reference-10.0.jsonl")
        new = read_records("reference-10.0.jsonl")
        _fail(case_of(new, "tqi.05.exact"))                           # PASS -> FAIL
        case_of(new, "cti.wrap").update(status="CRASH", counted=True, mode="exception",
                                        exception="0xc0000005", failed_rules=["CTI.WRAP"],
                                        checks=[])
        case_of(new, "esi.class").update(status="SKIP", reason="not today", checks=[])
        new.insert(-1, dict(case_of(new, "er.null-out"), id="er.new-case"))   # added
        new = [r for r in new if r.get("id") != "rtg.null-args"]      # removed
        _fail(case_of(old, "ntc.unknown-code"))          # failing in OLD, passing in NEW
        fix_footer(old)
        fix_footer(new)
        return (self.write("old.jsonl", dump_records(old)), self.write("new.jsonl",
                                                                       dump_records(new)))

    def test_changes_named_regressions_first(self):
        old, new = self.make_pair()
        out, err = self.assertRan(run_cli("diff", old, new), 1)
        lines = out.splitlines()
        heads = [lines.index(h) for h in (
            "regressions (2):", "fixed (1):", "other status changes (1):",
            "added cases (only in NEW) (1):", "removed cases (only in OLD) (1):")]
        self.assertEqual(heads, sorted(heads))
        i_reg, i_fix, i_other, i_add, i_rem = heads
        reg = "\n".join(lines[i_reg:i_fix])
        self.assertRegex(reg, r"tqi\.05\.exact\s+PASS\s+-> FAIL")
        self.assertRegex(reg, r"cti\.wrap\s+PASS\s+-> CRASH")
        self.assertIn("rerun: build/etwconf run", reg)
        self.assertRegex("\n".join(lines[i_fix:i_other]), r"ntc\.unknown-code\s+FAIL\s+-> PASS")
        self.assertRegex(lines[i_other + 1], r"esi\.class\s+PASS\s+-> SKIP")
        self.assertIn("er.new-case", lines[i_add + 1])
        self.assertIn("rtg.null-args", lines[i_rem + 1])
        self.assertEqual(lines[-1].split(",")[0], "diff: 2 regressions")

    def test_reversed_pair_regresses(self):
        old, new = self.make_pair()
        # reversed, ntc.unknown-code goes PASS -> FAIL (and tqi.05.exact is fixed): a regression
        self.assertEqual(run_cli("diff", new, old)[0], 1)

    def test_exit_status_and_lines(self):
        for name, old, new, rc, out, regex in DIFFS:
            with self.subTest(name):
                if isinstance(new, tuple):      # OLD with one case changed
                    recs = read_records(old)
                    case_of(recs, new[0]).update(new[1])
                    new = self.write("n.jsonl", dump_records(fix_footer(recs)))
                o, _ = self.assertRan(run_cli("diff", data(old), data(new)), rc, out=out)
                for r in regex:
                    self.assertRegex(o, r)

    def test_json_output(self):
        old, new = self.make_pair()
        out, err = self.assertRan(run_cli("diff", "--json", old, new), 1)
        doc = json.loads(out)
        self.assertEqual(doc["regressions"], 2)
        kinds = [c["kind"] for c in doc["pairs"][0]["changes"]]
        self.assertEqual(kinds[:2], ["regression", "regression"])

    def test_incomplete_new_is_not_removed(self):
        rc, out, err = run_cli("diff", data("reference-10.0.jsonl"), data("truncated.jsonl"))
        self.assertIn("INCOMPLETE", out)
        self.assertIn("not run in NEW (NEW is incomplete)", out)
        self.assertNotIn("removed cases", out)

    def test_directories(self):
        a, b = (os.path.join(self.tmp, d) for d in "ab")
        for d in (a, b):
            os.makedirs(d)
            shutil.copy(data("reference-10.0.jsonl"), d)
        shutil.copy(data("reference-6.1.jsonl"), a)
        recs = read_records("reference-6.1.jsonl")
        _fail(case_of(recs, "cti.counter"))
        self.write("b/reference-6.1.jsonl", dump_records(fix_footer(recs)))
        out, err = self.assertRan(run_cli("diff", a, b), 1)
        self.assertEqual(out.count("diff: OLD"), 2)
        self.assertRegex(out, r"cti\.counter\s+PASS\s+-> FAIL")

    def test_bad_input_exit_2(self):
        for old, new in ((data("foreign.jsonl"), data("reference-6.1.jsonl")),
                         (data("reference-6.1.jsonl"), data("malformed.jsonl")),
                         (data("reference-6.1.jsonl"), os.path.join(self.tmp, "missing.jsonl"))):
            self.assertOneLineError(run_cli("diff", old, new))
        self.assertOneLineError(run_cli("diff", data("reference-6.1.jsonl")))
