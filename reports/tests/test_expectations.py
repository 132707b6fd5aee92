"""Expectations: check (XFAIL, XPASS, CHANGED, UNEXPECTED, STALE) and update-expectations."""
import glob
import json
import os
import re

from common import (TmpCase, case_of, data, run_cli, read_records, dump_records, fix_footer,
                    REPORTS, WINE_EXP)
from etwconf_report import expectations, ingest
from etwconf_report.util import parse_version_spec, nt_tuple, run_key

WINE = [data("wine-win7.jsonl"), data("wine-win10.jsonl")]


def _json(path):
    """An expectations file, an entry per case (the file has one for the cases of a list)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["entries"] = [dict(e, case=c) for e in doc["entries"]
                      for c in ([e["case"]] if isinstance(e["case"], str) else e["case"])]
    return doc


def load_doc():
    return _json(WINE_EXP)


class ExpCase(TmpCase):
    def exp(self, doc):
        return self.write("exp.json", json.dumps(doc, indent=1))

    def check(self, doc, *results):
        """`check` of results (the Wine samples when none) against the expectations doc."""
        return run_cli("check", "--expectations", self.exp(doc), *(results or WINE))

    def update(self, out, *results, arch=(), said=()):
        """update-expectations --impl wine of results into out (its stdout holds said): the
        file, an entry per case."""
        self.assertRan(run_cli("update-expectations", "--impl", "wine", *arch, "--out", out,
                               *results), 0, out=said)
        return _json(out)


class Check(ExpCase):
    def test_samples_match(self):
        out, err = self.assertRan(run_cli("check", "--expectations", WINE_EXP, *WINE), 0)
        self.assertRegex(out.splitlines()[-1], r"^expectations: \d+ passed, 0 failed, \d+ skipped$")
        self.assertIn("(33 XFAIL)", out)      # 27 cases and 6 client scenarios

    def test_failures(self):
        """Each way the results depart from the file is a line (kind, run, case, what), exit 1."""
        def edit(case, **kw):
            return lambda doc: [e.update(kw) for e in doc["entries"] if e["case"] == case]

        def add(case, version, status, why):
            return lambda doc: doc["entries"].append(
                {"case": case, "versions": [version], "status": status, "why": why})
        recs = read_records("wine-win10.jsonl")
        case_of(recs, "rtg.count-limit").update(status="CRASH", mode="exception",
                                                exception="0xc0000005")   # a TIMEOUT entry
        crash = [self.write("w.jsonl", dump_records(fix_footer(recs)))]
        for edits, results, want in (
                ([lambda doc: doc["entries"].remove(
                    next(e for e in doc["entries"] if e["case"] == "esi.class"))], WINE,
                 [r"UNEXPECTED wine@win10 esi\.class: FAIL, mode return, got "]),
                ([add("cti.counter", "win10", "FAIL", "was broken")], WINE,
                 [r"XPASS +wine@win10 cti\.counter: expected FAIL but the case passed"]),
                ([edit("tqi.0b.exact", observed="0xc0000005"), edit("esi.class", mode="output")],
                 WINE, [r'CHANGED +wine@win10 tqi\.0b\.exact: expected CRASH, mode exception, '
                        r'observed "0xc0000005".*, got CRASH, mode exception, exception 0x80000100',
                        r"CHANGED +wine@win10 esi\.class: expected FAIL, mode output"]),
                ([], crash, [r"CHANGED +wine@win10 rtg\.count-limit: expected TIMEOUT"]),
                ([add("tqi.no-such-case", "win10", "CRASH", "renamed long ago"),
                  add("tqi.also-gone", "win81", "CRASH", "no win81 run given: not checked")], WINE,
                 [r"STALE +wine@win10 tqi\.no-such-case: .*exp\.json:"])):
            doc = load_doc()
            for f in edits:
                f(doc)
            out, err = self.assertRan(self.check(doc, *results), 1)
            got = [l for l in out.splitlines() if l.split(" ")[0] in expectations.FAILURE_KINDS]
            self.assertEqual(len(got), len(want), out)
            for w in want:
                self.assertTrue([l for l in got if re.match(w, l)], (w, got))
            self.assertRegex(out.splitlines()[-1], r"^expectations: \d+ passed, %d failed"
                             % len(want))

    def test_stale_not_claimed_for_incomplete_runs(self):
        recs = read_records("wine-win10.jsonl")
        p = self.write("w.jsonl", dump_records(recs[:10]))      # no footer
        # the 9 cases that ran all match their entries
        out, err = self.assertRan(self.check(load_doc(), p), 0, out=["INCOMPLETE"])
        self.assertNotIn("STALE", out)

    def test_versions_forms(self):
        at = expectations.version_run
        # the harness's Wine runs give the winecfg name as target.version, plus nt_version
        recs = read_records("wine-win7.jsonl")
        recs[0]["target"].update(version="win7", nt_version="6.1")
        real7 = ingest.load(self.write("w7.jsonl", dump_records(recs)))
        self.assertEqual(real7.nt(), (6, 1))
        win = ingest.load(data("windows-10.0.19045.jsonl"))
        self.assertEqual(win.key(), (10, 0, 19045, 0))
        # a run, the "versions" that name it (None: left out), those that do not
        for run, yes, no in (
                (ingest.load(data("wine-win7.jsonl")), [None, "6.0-6.1"], [["win10"], "6.2-10.0"]),
                (ingest.load(data("wine-win10.jsonl")), [["win10"], ["10.0"], "6.2-10.0",
                                                         ["6.1+"]], []),
                (real7, [["win7"], ["6.1"], "6.0-6.1"], ["6.2-10.0"]),
                (win, [["10.0.19045"], ["10.0"], ["10.0.19045+"], ["10.0.17763-10.0.26100"],
                       ["6.0-10.0.19045"]],
                 [["10.0.22621"], ["10.0.20348+"], ["10.0.14393-10.0.17763"]]),
                (at("wine", "win10"), [], [["10.0.19045+"]]),     # no build: 10.0 is 10240
                (at("reference", "6.1.7601-esi"), [["6.1.7601-esi"]], []),
                (at("reference", "6.1"), [], [["6.1.7601-esi-6.3"]]),
                (at("reference", "win8"), [["6.1.7601-esi-6.3"]], [])):
            for versions in yes + no:
                e = expectations.Entry({"case": "x", "status": "FAIL", "why": "w",
                                        "versions": versions}, 0, None)
                self.assertEqual(e.names_run(run), versions in yes, (run.path, versions))
        # build ranges: a build stands for itself with its updates, an NT version for all its builds
        for f, cases in (
                (parse_version_spec, (
                    ("6.2-10.0", ("range", (6, 2, 0, 0), (10, 0, 0xFFFF, 0xF))),
                    ("10.0.19045+", ("range", (10, 0, 19045, 0), None)),
                    ("10.0.17763-10.0.26100", ("range", (10, 0, 17763, 0), (10, 0, 26100, 0xF))),
                    ("win11-24h2", ("name", "win11-24h2")), ("win81", ("name", "win81")),
                    ("win10-1809-win11-24h2", ("range", (10, 0, 17763, 0), (10, 0, 26100, 0xF))),
                    ("10.0.17763-10.0.x", None))),
                (run_key, (("win11-24h2", (10, 0, 26100, 0)), ("6.1.7601-esi", (6, 1, 7601, 1)),
                           ("10.0", (10, 0, 10240, 0)))),
                (nt_tuple, (("winxp64", (5, 2)),))):
            for arg, want in cases:
                self.assertEqual(f(arg), want, arg)
        self.assertEqual(run_key("win10", "10.0", 18362), (10, 0, 18362, 0))
        self.assertLess(nt_tuple("6.3"), nt_tuple("10.0"))

    def test_arch(self):
        doc = load_doc()
        doc["target"]["arch"] = "i686"
        self.assertIn("arch i686", self.assertOneLineError(self.check(doc)))
        del doc["target"]["arch"]
        self.assertRan(self.check(doc), 0)

    def test_other_impls_noted_not_checked(self):
        self.assertRan(run_cli("check", "--expectations", WINE_EXP, data("reference-6.1.jsonl"),
                               *WINE), 0, out=["reference@6.1", "not checked"])

    def test_bad_expectation_files(self):
        good = open(WINE_EXP).read()
        cases = [
            ("syntax", good.replace('"status": "FAIL"', '"status" "FAIL"', 1), ":11:"),
            ("schema", good.replace("etwconf-expectations/1", "etwconf-expectations/9"),
             "schema"),
            ("results", open(data("reference-6.1.jsonl")).read().splitlines()[0],
             "results file"),
            ("no-why", good.replace(', "why": "EventSetInformation accepts every class"', ""),
             ":14: entry for esi.class"),
            ("case", good.replace('"case": "gmi.size"', '"case": ["gmi.size", ""]'),
             ':18: entries[8] has no "case"'),
            ("status", good.replace('"status": "TIMEOUT"', '"status": "SLOW"'), "status"),
            ("version", good.replace('"versions": ["win10"]', '"versions": ["win12"]', 1),
             "unknown version"),
            ("range", good.replace('"6.2-10.0"', '"6.2-banana"'), "unknown version"),
            ("entries", '{"schema": "etwconf-expectations/1", "target": {"impl": "wine"}, '
                        '"entries": {}}', "entries"),
            ("target", '{"schema": "etwconf-expectations/1", "entries": []}', "target"),
            ("array", "[]", "not an expectations file"),
            ("binary", b"\xff\xfe\x00garbage", "UTF-8"),
            ("arch", good.replace('"case": "esi.class"', '"case": "esi.class", "arch": "i686"'),
             '"arch" must be one of target.arch (x86_64)'),
            ("arches", good.replace('"arch": "x86_64"', '"arch": []'), '"target.arch" must be'),
        ]
        for name, text, must in cases:
            with self.subTest(name):
                p = self.write(name + ".json", text)
                line = self.assertOneLineError(run_cli("check", "--expectations", p, *WINE), p)
                self.assertIn(must, line)
        self.assertIn("update-expectations", self.assertOneLineError(
            run_cli("check", "--expectations", os.path.join(self.tmp, "none.json"), *WINE)))
        self.assertOneLineError(run_cli("check", *WINE))

    def test_report_shows_xfail_and_xpass(self):
        doc = load_doc()
        doc["entries"].append({"case": "cti.counter", "versions": ["win10"], "status": "FAIL",
                               "why": "was broken"})
        self.assertRan(run_cli("report", "--out", self.tmp, "--expectations", self.exp(doc),
                               *WINE), 0)
        page = open(os.path.join(self.tmp, "index.html")).read()
        for want in ("XFAIL", "XPASS", "was broken"):
            self.assertIn(want, page)
        self.assertIn("XPASS", open(os.path.join(self.tmp, "summary.md")).read())
        self.assertIn("1 XPASS", run_cli("summary", "--expectations", self.exp(doc), *WINE)[1])


class Update(ExpCase):
    def test_generate_then_check_clean(self):
        out = os.path.join(self.tmp, "wine.json")
        doc = self.update(out, *WINE)
        self.assertEqual(doc["schema"], "etwconf-expectations/1")
        self.assertEqual(doc["target"], {"impl": "wine"})
        self.assertTrue(all(e["why"] == "TODO: explain" for e in doc["entries"]))
        crash = [e for e in doc["entries"] if e["case"] == "tqi.0b.exact"][0]
        self.assertEqual(crash, {"case": "tqi.0b.exact", "versions": ["win10"], "status": "CRASH",
                                 "mode": "exception", "observed": "0x80000100",
                                 "why": "TODO: explain"})
        (gmi,) = [e for e in doc["entries"] if e["case"] == "gmi.size"]
        self.assertEqual(gmi["versions"], ["win7", "win10"])
        lines = open(out).read().splitlines()
        self.assertEqual(lines[0], '{"schema": "etwconf-expectations/1",')
        # an entry a line; the cases that fail alike are one entry, their ids over lines of 100
        grouped = json.load(open(out))["entries"]
        self.assertEqual(len([l for l in lines if l.lstrip().startswith('{"case"')]), len(grouped))
        self.assertLess(len(grouped), len(doc["entries"]))
        self.assertFalse([l for l in lines if '"why"' not in l and len(l) > 100])
        self.assertRan(run_cli("check", "--expectations", out, *WINE), 0)

    def test_keeps_why_observed_and_versions_not_run(self):
        out = os.path.join(self.tmp, "wine.json")
        doc = load_doc()
        doc["comment"] = "kept top-level key"
        for e in doc["entries"]:
            if e["case"] == "esi.class":
                e["bug"] = "https://bugs.winehq.org/show_bug.cgi?id=1"
        doc["entries"].append({"case": "tqi.04.output", "versions": ["win81"], "status": "FAIL",
                               "why": "only seen on win81"})
        with open(out, "w") as f:
            json.dump(doc, f)
        new = self.update(out, data("wine-win10.jsonl"))
        self.assertEqual(new["target"], {"impl": "wine", "arch": "x86_64"})
        self.assertEqual(new["comment"], "kept top-level key")
        by = {}
        for e in new["entries"]:
            by.setdefault(e["case"], []).append(e)
        self.assertEqual(by["esi.class"][0]["why"], "EventSetInformation accepts every class")
        self.assertEqual(by["esi.class"][0]["observed"], "ERROR_SUCCESS")   # the human's text
        self.assertEqual(by["esi.class"][0]["bug"], "https://bugs.winehq.org/show_bug.cgi?id=1")
        # tsi.03.size named win7 and win10; only win10 ran: win7 is kept
        self.assertEqual(by["tsi.03.size"][0]["versions"], ["win7", "win10"])
        self.assertEqual(by["tsi.03.size"][0]["why"], "TraceSetInformation only knows class 2")
        # an entry for a version not run is kept as it was
        w81 = [e for e in by["tqi.04.output"] if e["versions"] == ["win81"]]
        self.assertEqual(w81[0]["why"], "only seen on win81")
        # no TODO: every failure had an entry
        self.assertFalse([e for e in new["entries"] if e["why"] == "TODO: explain"])
        self.assertRan(run_cli("check", "--expectations", out, *WINE), 0)

    def test_new_failure_gets_todo(self):
        out = self.write("wine.json", open(WINE_EXP).read())
        recs = read_records("wine-win10.jsonl")
        case_of(recs, "cti.wrap").update(
            status="FAIL", counted=True, mode="return", failed_rules=["CTI.WRAP"],
            checks=[{"what": "id", "rule": "CTI.WRAP", "expected": "1", "got": "0", "ok": False}])
        fix_footer(recs)
        new = self.update(out, self.write("w.jsonl", dump_records(recs)), said=["1 need a why"])
        wrap = [e for e in new["entries"] if e["case"] == "cti.wrap"]
        self.assertEqual(wrap, [{"case": "cti.wrap", "versions": ["win10"], "status": "FAIL",
                                 "mode": "return", "observed": "0", "why": "TODO: explain"}])

    def test_wrong_impl(self):
        x = os.path.join(self.tmp, "x.json")
        self.assertIn("no results for impl wine", self.assertOneLineError(run_cli(
            "update-expectations", "--impl", "wine", "--out", x, data("reference-6.1.jsonl"))))
        self.assertOneLineError(run_cli("update-expectations", "--out", x,
                                        data("reference-6.1.jsonl")))


class CommittedExpectationFiles(TmpCase):
    """Files in reports/expectations/ (written by hand, e.g. wine.json) follow the format."""

    def test_committed_files_parse(self):
        files = sorted(glob.glob(os.path.join(REPORTS, "expectations", "*.json")))
        if not files:
            self.skipTest("no files in reports/expectations/ yet")
        for p in files:
            with self.subTest(os.path.basename(p)):
                x = expectations.load(p)
                self.assertTrue(x.impl)


class WineVersions(ExpCase):
    """Entries keyed by Wine version ("wine"), and files made from runs of several Wines."""

    def wine_run(self, name, version, skip_exact=False):
        """wine-win10.jsonl as a run of Wine `version`; skip_exact: tqi.0b.exact SKIPs there, as
        a case does whose build the catalogue does not know"""
        recs = read_records("wine-win10.jsonl")
        recs[0]["fingerprint"]["wine_version"] = version
        if skip_exact:
            r = case_of(recs, "tqi.0b.exact")
            for k in ("mode", "exception", "counted", "failed_rules"):
                r.pop(k, None)
            r.update(status="SKIP", checks=[], reason="unknown for 10.0.19043")
        fix_footer(recs)
        return self.write(name, dump_records(recs))

    def test_wine_specs(self):
        def entry(wine):
            return expectations.Entry({"case": "x", "status": "FAIL", "why": "w", "wine": wine},
                                      0, None)
        for item, yes, no in (("8.0", "8.0.2", "8.1"), ("8.0-9.22", "9.0-rc1", "10.0"),
                              ("10.0+", "11.0", "9.22"), ("10.0+", "10.0", None)):
            self.assertTrue(entry(item).names_wine(yes), (item, yes))
            self.assertFalse(entry(item).names_wine(no), (item, no))
        self.assertTrue(entry(None).names_wine(None))
        for bad in ("10", "x", "9.5-8.0", "10.0-rc1+", ""):
            self.assertIsNone(expectations.parse_wine_spec(bad), bad)

    def test_check_keys_entries_by_wine_version(self):
        w8 = self.wine_run("w8.jsonl", "8.0")
        w10 = self.wine_run("w10.jsonl", "10.0", skip_exact=True)
        doc = load_doc()
        exact = [e for e in doc["entries"] if e["case"] == "tqi.0b.exact"][0]
        # unkeyed, the Wine 8 entry is held against Wine 10 and fails there
        out, err = self.assertRan(self.check(doc, w8, w10), 1)
        self.assertRegex(out, r"CHANGED +wine@win10 .*tqi\.0b\.exact")
        # keyed by Wine version, each run meets its own entry
        exact["wine"] = "8.0"
        doc["entries"].append({"case": "tqi.0b.exact", "versions": ["win10"], "wine": "10.0+",
                               "status": "SKIP", "observed": "unknown for 10.0.19043",
                               "why": "Wine 10 reports build 19043"})
        self.assertRan(self.check(doc, w8, w10), 0)
        # a newer Wine is held to the newest entries ("10.0+"), not to Wine 8's
        w11 = self.wine_run("w11.jsonl", "11.0", skip_exact=True)
        self.assertRan(self.check(doc, w11), 0)
        out, err = self.assertRan(self.check(doc, self.wine_run("w11b.jsonl", "11.0")), 1)
        self.assertRegex(out, r"CHANGED +wine@win10 tqi\.0b\.exact: expected SKIP, Wine 10\.0\+")

    def test_generate_from_two_wines(self):
        w8 = self.wine_run("w8.jsonl", "8.0")
        w10 = self.wine_run("w10.jsonl", "10.0", skip_exact=True)
        out = self.write("wine.json", open(WINE_EXP).read())
        new = self.update(out, w8, w10)
        self.assertEqual(new["wine_versions"], ["wine-8.0", "wine-10.0"])
        self.assertEqual([(e["versions"], e.get("wine"), e["status"]) for e in new["entries"]
                          if e["case"] == "tqi.0b.exact"], [(["win10"], "8.0", "CRASH")])
        self.assertFalse([e for e in new["entries"] if e["case"] != "tqi.0b.exact" and "wine" in e])
        self.assertRan(run_cli("check", "--expectations", out, w8, w10), 0)
        # made again from Wine 10 alone: what the file says about Wine 8 stays
        self.assertEqual(self.update(out, w10)["entries"], new["entries"])
        # an entry of Wine 8 that Wine 10 no longer meets is kept for Wine 8 only
        recs = read_records("wine-win10.jsonl")
        recs[0]["fingerprint"]["wine_version"] = "10.0"
        esi = case_of(recs, "esi.class")
        esi.update(status="PASS", checks=[], failed_rules=[], counted=False)
        esi.pop("mode", None)
        fix_footer(recs)
        esi = [e for e in self.update(out, self.write("w10c.jsonl", dump_records(recs)))["entries"]
               if e["case"] == "esi.class"]
        self.assertEqual([(e["versions"], e.get("wine")) for e in esi], [(["win10"], "8.0")])

    def test_bad_wine_keys(self):
        for bad in ("10", ["8.0", 3], [], "10.0-8.0"):
            doc = load_doc()
            doc["entries"][0]["wine"] = bad
            self.assertIn('"wine"', self.assertOneLineError(self.check(doc)))
        doc = load_doc()
        doc["target"]["impl"] = "windows"
        doc["entries"][0]["wine"] = "8.0"
        self.assertIn("is for a file of impl wine", self.assertOneLineError(
            self.check(doc, data("reference-6.1.jsonl"))))

    def test_winetest_todo_by_wine_version(self):
        from etwconf_report import winetest
        doc = load_doc()
        doc["wine_versions"] = ["wine-8.0", "wine-10.0"]
        for e in doc["entries"]:
            if e["case"] == "tqi.0b.exact":
                e["wine"] = "8.0"
        path = self.write("w.json", json.dumps(doc))
        exp = expectations.load(path)
        exact = lambda lines: [l for l in lines if l.startswith("tqi.0b.exact ")]
        self.assertTrue(exact(winetest.todo_lines(exp, "8.0")))
        self.assertFalse(exact(winetest.todo_lines(exp, "10.0")))
        self.assertFalse(exact(winetest.todo_lines(exp)))          # the newest: 10.0
        self.assertRan(run_cli("winetest-todo", "--wine", "8.0", path), 0,
                       out=["tqi.0b.exact 10.0 CRASH exception"])
        self.assertIn("is not a Wine version",
                      self.assertOneLineError(run_cli("winetest-todo", "--wine", "ten", path)))


class Arches(ExpCase):
    """One file for two arches: an entry with "arch" holds for that arch's runs only."""

    def win10(self, name, arch, exception):
        recs = read_records("wine-win10.jsonl")
        recs[0]["target"]["arch"] = arch
        case_of(recs, "tqi.0b.exact").update(exception=exception)
        return self.write(name, dump_records(fix_footer(recs)))

    def problems(self, doc, *results):
        """check's STALE and CHANGED lines; check itself must have run (exit 0 or 1)"""
        rc, out, err = self.check(doc, *results)
        self.assertIn(rc, (0, 1), "check refused the file: %s" % err)
        return [l for l in out.splitlines() if l.split()[:1] in (["STALE"], ["CHANGED"])]

    def test_record_an_arch_then_check_each(self):
        out = self.write("wine.json", open(WINE_EXP).read())
        w32 = self.win10("w32.jsonl", "i686", "0xc0000005")
        doc = self.update(out, w32, arch=("--arch", "i686"))
        self.assertEqual(doc["target"]["arch"], ["x86_64", "i686"])
        exact = [(e.get("arch"), e["observed"], e["why"][:5])
                 for e in doc["entries"] if e["case"] == "tqi.0b.exact"]
        self.assertEqual(exact, [("x86_64", "0x80000100", "secho"),
                                 ("i686", "0xc0000005", "TODO:")])
        self.assertFalse([e for e in doc["entries"] if "arch" in e and e["case"] != "tqi.0b.exact"])
        self.assertRan(run_cli("check", "--expectations", out, w32, *WINE), 0)
        # each arch is held to its own entry: the 32-bit exception in a 64-bit run is a change
        w64 = self.win10("w64.jsonl", "x86_64", "0xc0000005")
        self.assertEqual(len(self.problems(doc, w64)), 1)
        self.assertEqual(len(self.problems(doc, self.win10("x.jsonl", "i686", "0x80000100"))), 1)
        # recorded again from the 64-bit runs alone, the i686 entries stay
        self.assertEqual([e for e in self.update(out, *WINE)["entries"] if e.get("arch") == "i686"],
                         [e for e in doc["entries"] if e.get("arch") == "i686"])
        # an entry of one arch whose case is gone is stale in that arch's runs only
        doc["entries"].append({"case": "tqi.gone", "arch": "i686", "versions": ["win10"],
                               "status": "CRASH", "why": "renamed"})
        self.assertEqual(self.problems(doc, *WINE), [])
        self.assertIn("tqi.gone", self.problems(doc, w32, *WINE)[0])
