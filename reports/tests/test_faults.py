"""Fault injection for the report tool: a footer that claims a complete run the file does not
hold, bytes that are not UTF-8, a FIFO or a device given as a results file, and a filtered run.
Each test checks the message, the exit status and every output (summary, report: HTML,
Markdown, JUnit; check; diff). Every command runs under a deadline, so a read that blocks fails
the test instead of hanging the stage."""
import json
import os
import stat
import xml.etree.ElementTree as ET

from common import TmpCase, data, deadline, run_cli, read_records, dump_records, fix_footer, \
    WINE_EXP
from etwconf_report import ingest, expectations
from etwconf_report.ingest import InputError

T = 30      # seconds: a bound on every command of these tests


def _cli(*args):
    return run_cli(*args, timeout=T)


class Outputs(TmpCase):
    def outputs(self, path, want):
        """Run summary, report (index.html, summary.md, junit.xml), check and diff over PATH:
        summary and report exit 0, check and diff 0 or 1, and each output (a command's stdout)
        holds the texts WANT gives it. Returns what each said, and junit.xml's one testsuite as
        "suite", its properties as "props"."""
        r = {"summary": _cli("summary", path)}
        out = os.path.join(self.tmp, "rep-" + os.path.basename(path))
        r["report"] = _cli("report", "--out", out, path)
        self.assertEqual(r["report"][0], 0, r["report"][2])
        for name in ("index.html", "summary.md", "junit.xml"):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                r[name] = f.read()
        (r["suite"],) = ET.fromstring(r["junit.xml"]).findall("testsuite")
        r["props"] = {p.get("name"): p.get("value") for p in r["suite"].iter("property")}
        r["check"] = _cli("check", "--expectations", WINE_EXP, path)
        r["diff"] = _cli("diff", data("wine-win10.jsonl"), path)
        for name, texts in want.items():
            got = r[name]
            if isinstance(got, tuple):
                self.assertIn(got[0], (0, 1) if name in ("check", "diff") else (0,), got[2])
                got = got[1]
            for text in texts:
                self.assertIn(text, got, name)
        return r


def _wine(n=None, status=None, **header):
    """wine-win10's records: the first n cases (all when None) of STATUS (any when None),
    header fields replaced, the footer recomputed so that it adds up."""
    recs = read_records("wine-win10.jsonl")
    cases = [r for r in recs[1:-1] if status in (None, r["status"])]
    recs = fix_footer(recs[:1] + cases[:n] + recs[-1:])
    recs[0].update(header)
    return recs


class LyingFooter(Outputs):
    """A footer that adds up and claims "complete", over 3 of the 221 planned cases."""

    def test_every_output_says_incomplete(self):
        recs = _wine(3, cases_planned=221)
        self.assertNotIn("complete", [k for k, v in recs[-1].items() if v is False])
        path = self.write("lying.jsonl", dump_records(recs))
        why = "3 of the 221 planned"
        run = ingest.load(path)
        self.assertFalse(run.complete)
        self.assertIn(why, run.incomplete_reason)
        self.assertIn("claims a complete run", run.incomplete_reason)
        r = self.outputs(path, {
            "summary": ["INCOMPLETE"], "report": ["1 incomplete"],
            "index.html": ["INCOMPLETE", why], "summary.md": ["**INCOMPLETE**", why],
            "check": ["INCOMPLETE run (the footer claims a complete run, but the file has 3 of "
                      "the 221"],
            "diff": ["INCOMPLETE: the footer claims a complete run",
                     "not run in NEW (NEW is incomplete)"]})
        self.assertIn(why, r["summary"][2])
        self.assertNotIn(": 1 conformant", r["summary"][1])
        last = r["suite"].findall("testcase")[-1]
        self.assertEqual(last.get("name"), "(run incomplete)")
        self.assertIn(why, last.find("error").get("message"))
        self.assertEqual(r["props"]["complete"], "false")
        self.assertNotIn("removed cases", r["diff"][1])


def _damage(line_index, old, new):
    """wine-win10.jsonl as bytes with one replacement in line line_index (0 = header)."""
    with open(data("wine-win10.jsonl"), "rb") as f:
        lines = f.read().split(b"\n")
    assert old in lines[line_index], (line_index, old)
    lines[line_index] = lines[line_index].replace(old, new, 1)
    return b"\n".join(lines)


class Utf8Damage(Outputs):
    """One byte that is not UTF-8: the record (or the field) is reported, the rest is read."""

    def test_bad_byte_in_a_field_keeps_the_record(self):
        path = self.write("field.jsonl", _damage(3, b'"title":"', b'"title":"\xff'))
        run = ingest.load(path)
        self.assertEqual((run.complete, len(run.cases)), (True, 58))
        self.assertTrue(run.cases[2]["title"].startswith("\\xff"), run.cases[2]["title"])
        self.assertTrue(any(":4: invalid UTF-8 (byte 0xff" in w and '"title"' in w
                            for w in run.warnings), run.warnings)
        out, err = self.assertRan(_cli("summary", path), 0,
                                  err=["field.jsonl:4: invalid UTF-8 (byte 0xff", '"title"'])
        self.assertNotIn("INCOMPLETE", out)

    def test_bad_byte_between_fields_drops_one_record(self):
        path = self.write("record.jsonl", _damage(5, b',"seq":', b',\xfe"seq":'))
        run = ingest.load(path)
        self.assertEqual((run.complete, len(run.cases)), (False, 57))
        self.assertNotIn(run.by_id, [None])
        self.assertIn("damaged file: line 6 (invalid UTF-8 (byte 0xfe", run.incomplete_reason)
        self.assertIn("57 case records read of the 58 the footer counts", run.incomplete_reason)
        r = self.outputs(path, {
            "summary": ["INCOMPLETE"], "index.html": ["damaged file: line 6"],
            "summary.md": ["damaged file: line 6"],
            "check": ["INCOMPLETE run (damaged file: line 6"],
            "diff": ["INCOMPLETE: damaged file: line 6", "not run in NEW (NEW is incomplete) (1)"]})
        for text in ("record.jsonl:6: invalid UTF-8 (byte 0xfe at column",
                     "the record is dropped, the rest of the file is read"):
            self.assertIn(text, r["summary"][2])
        cases = r["suite"].findall("testcase")
        self.assertEqual(cases[-1].get("name"), "(run incomplete)")
        self.assertEqual(len(cases), 58)   # 57 read + the incomplete mark

    def test_dropped_records_leave_the_run_incomplete(self):
        with open(data("wine-win10.jsonl"), "rb") as f:
            lines = f.read().split(b"\n")
        for name, raw, n, whys in (
                ("extra", b"\n".join(lines[:3] + [b'{"type":"case","id":"\xff\xfe"}'] + lines[3:]),
                 58, ['line 4 (invalid UTF-8 (byte 0xff at column 22) in "id")']),
                ("footer", _damage(-2, b'"total"', b'\xc3"total"'), 58,
                 ["no footer", "damaged file: line 60"]),
                # damage on every line: bounded and named
                ("all", b"\n".join(lines[:1] + [l.replace(b",", b",\xff", 1) for l in lines[1:-2]]
                                   + lines[-2:]), 0, ["and 55 more"])):
            with self.subTest(name):
                path = self.write(name + ".jsonl", raw)
                run = ingest.load(path)
                self.assertEqual((run.complete, len(run.cases)), (False, n))
                for why in whys:
                    self.assertIn(why, run.incomplete_reason)
        out, err = self.assertRan(_cli("report", "--out", os.path.join(self.tmp, "r"), path), 0)
        self.assertNotIn("Traceback", err)

    def test_header_that_cannot_be_read_refuses_the_file(self):
        path = self.write("header.jsonl", _damage(0, b'"schema"', b'\xff"schema"'))
        line = self.assertOneLineError(_cli("summary", path), "header.jsonl:1:")
        self.assertIn("invalid UTF-8 (byte 0xff", line)

class NotAFile(TmpCase):
    """A FIFO, a device or a directory: a one-line error and exit 2, without blocking."""

    def setUp(self):
        super().setUp()
        if not hasattr(os, "mkfifo"):
            self.skipTest("no FIFOs on this system")
        self.fifo = os.path.join(self.tmp, "results.jsonl")
        os.mkfifo(self.fifo)

    def test_load_does_not_block(self):
        with deadline(T, "ingest.load"), self.assertRaises(InputError) as cm:
            ingest.load(self.fifo)
        self.assertIn("is a FIFO (named pipe), not a regular file", str(cm.exception))

    def test_every_command_refuses_a_fifo(self):
        good = data("wine-win10.jsonl")
        out = os.path.join(self.tmp, "rep")
        for args in (("summary", self.fifo), ("report", "--out", out, self.fifo),
                     ("check", "--expectations", WINE_EXP, self.fifo),
                     ("check", "--expectations", self.fifo, good),
                     ("diff", good, self.fifo), ("diff", self.fifo, good),
                     ("summary", "--programs", self.fifo, good),
                     ("summary", "--rules", self.fifo, good),
                     ("update-expectations", "--impl", "wine", "--out",
                      os.path.join(self.tmp, "x.json"), self.fifo)):
            with self.subTest(args[0] + " " + " ".join(a for a in args[1:] if a.startswith("-"))):
                line = self.assertOneLineError(_cli(*args), self.fifo)
                self.assertIn("FIFO", line)
                self.assertFalse(os.path.exists(os.path.join(out, "index.html")))

    def test_skip_bad_reports_the_rest(self):
        out = os.path.join(self.tmp, "rep")
        self.assertRan(_cli("report", "--skip-bad", "--out", out, self.fifo,
                            data("wine-win10.jsonl")), 0,
                       err=["skipped: %s: is a FIFO (named pipe)" % self.fifo])
        self.assertTrue(os.path.exists(os.path.join(out, "index.html")))

    def test_devices_and_directories(self):
        for path, what in (("/dev/zero", "character device"), ("/dev/null", "character device"),
                           (self.tmp, "directory")):
            if not os.path.exists(path):
                continue
            with self.subTest(path):
                self.assertIn(what, self.assertOneLineError(_cli("summary", path), path))
        self.assertTrue(stat.S_ISFIFO(os.stat(self.fifo).st_mode))


class Filtered(Outputs):
    """A run of part of the suite is never plainly conformant: the verdict says N of M cases."""

    def filtered(self, n=4, **header):
        """A file of n passing cases of wine-win10, n planned, header fields replaced."""
        recs = _wine(n, "PASS", cases_planned=n, **header)
        return self.write("filtered-%d.jsonl" % n, dump_records(recs))

    def test_every_output_says_n_of_m(self):
        path = self.filtered(suite={"name": "etwconf", "version": "0.1.0", "cases": 221},
                             argv=["build/etwconf", "run", "--filter", "tqi"])
        run = ingest.load(path)
        self.assertEqual((run.complete, run.filtered, run.scope()),
                         (True, True, "4 of 221 cases (--filter tqi)"))
        scope = "4 of 221 cases"
        r = self.outputs(path, {
            "summary": ["no failures in 4 of 221 cases (--filter tqi) (a filtered run: no "
                        "verdict on the whole suite)", "0 conformant",
                        "1 filtered without failures"],
            "report": ["(0 conformant, 0 not, 1 filtered)"],
            "index.html": [scope], "summary.md": [scope],
            "check": ["filtered run, " + scope],
            "diff": ["filtered: " + scope, "not run in NEW (NEW is a filtered run"]})
        self.assertNotRegex(r["summary"][1], r"(?m)^\S+\s+conformant\b")
        self.assertNotIn('class="verdict verdict-good"', r["index.html"])
        self.assertNotIn(">conformant<", r["index.html"])
        self.assertIn(scope, r["props"]["verdict"])
        self.assertEqual(r["props"]["filtered"], "4 of 221 cases (--filter tqi)")
        self.assertNotIn("STALE", r["check"][1])
        self.assertNotIn("removed cases", r["diff"][1])

    def test_summary_says_the_scope(self):
        for name, path, want in (
                ("plan below the suite", self.filtered(3, suite={"name": "etwconf", "cases": 221}),
                 "no failures in 3 of 221 cases (a filtered run"),
                ("--case, no suite count",
                 self.filtered(1, argv=["etwconf.exe", "run", "--case", "exp.advapi32.tqi"]),
                 "no failures in 1 case (--case exp.advapi32.tqi)"),
                # PASS, SKIP, FAIL (counted)
                ("failures", self.write("f.jsonl", dump_records(_wine(
                    3, cases_planned=3, suite={"cases": 221}))),
                 "(1 case), in 3 of 221 cases (a filtered run)")):
            with self.subTest(name):
                self.assertRan(_cli("summary", path), 0, out=[want])

    def test_whole_suite_is_not_filtered(self):
        path = self.filtered(4, suite={"name": "etwconf", "cases": 4})
        out, err = self.assertRan(_cli("summary", path), 0)
        self.assertRegex(out, r"(?m)^\S+\s+conformant\s")
        self.assertIn("1 conformant", out)

    def test_entries_outside_the_filter_are_kept(self):
        path = self.filtered(2, suite={"cases": 221})
        out = self.write("exp.json", open(WINE_EXP, encoding="utf-8").read())
        before = json.load(open(out, encoding="utf-8"))["entries"]
        self.assertRan(_cli("update-expectations", "--impl", "wine", "--out", out, path), 0,
                       err=["a filtered run (2 of 221 cases)"])
        after = json.load(open(out, encoding="utf-8"))["entries"]
        def key(x):
            return (json.dumps(x["case"]), x["status"], x.get("mode"), x["why"])
        self.assertEqual(sorted(map(key, before)), sorted(map(key, after)))
        run = ingest.load(data("wine-win10.jsonl"))
        old_x, new_x = (expectations.load(p) for p in (WINE_EXP, out))
        named = [e for e in old_x.entries if e.names_run(run)]
        self.assertTrue(named, "no entry of %s names the run" % WINE_EXP)
        for e in named:
            self.assertTrue(new_x.entries_for(run, e.case), e.case)
