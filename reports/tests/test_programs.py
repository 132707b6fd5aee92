"""Programs affected: client-scenario records in every output, the program matrix, diff naming
programs, spec/programs.def, and results of older runs (no scenario fields) unchanged."""
import itertools
import json
import os
import re
import xml.etree.ElementTree as ET

from common import (TmpCase, case_of, data, run_cli, read_records, dump_records, fix_footer,
                    GOOD, HOSTILE)
from test_outputs import SampleReport, columns, parse_page, table_rows
from browser import programs_block, md_items, text
from etwconf_report import programs as P

PROGRAMS_DEF = data("programs.def")
SCENARIO_KEYS = ("program", "step", "step_what", "consequence")


def strip_scenarios(recs):
    """The same run as an older suite wrote it: no client scenarios, no scenario fields."""
    out = [{k: v for k, v in r.items() if k not in SCENARIO_KEYS} for r in recs
           if not (r.get("type") == "case" and r["id"].startswith("client."))]
    out[0]["cases_planned"] = sum(1 for r in out if r.get("type") == "case")
    return fix_footer(out)


class Outputs(SampleReport):
    def target_block(self, label):
        """The Programs affected subsection of one target, as text."""
        head, body = programs_block(self.raw, label) or self.fail("no programs for " + label)
        return head + " " + text(body)

    def test_target_blocks(self):
        """Each target's block: its programs' states, scenarios, steps, calls, consequences and
        reasons (hostile strings as text)."""
        for label, wants in (
                ("wine@win10", (
                    "6 broken, 3 work, 1 without a scenario in this run", "PerfView / TraceEvent",
                    "client.perfview.profile-sources", "CRASH", "counted", "step 1",
                    "TQI(0, 0x07, NULL, 0, &len)", "krabsetw", "XFAIL",
                    "the exception 0x80000100 ends the program at its first call",
                    "throws: the kernel trace does not start", "works: fibratus", "Optick",
                    # a crash in a worker has no step
                    "step unknown", "the scenario crashed (0x80000100)",
                    "No scenario in this run: Optick")),
                ("windows@10.0.19045", (
                    "miniperf.h (miniperf-h) public gist (Martins Mozeiko): miniperf.h (MiniPerf) "
                    "broken client.miniperf-h.pmc FAIL not counted step 1 TQI(0, 0x07, NULL, 0, "
                    "&size) __debugbreak",
                    "1 program not exercised: SeSystemProfilePrivilege not held (run elevated) "
                    "SeSystemProfilePrivilege not held (run elevated): SKIP pmctrace "
                    "client.pmctrace.find-pmc")),
                ("reference@6.1", (
                    "not exercised: the program makes these calls on Windows 6.2+ only",)),
                ("reference@6.2", ("no client scenarios",)),      # cut before its scenarios
                ("thirdparty@" + HOSTILE, (
                    HOSTILE + " & co", "TQI(" + HOSTILE + ")",
                    "not exercised: <b>not</b> " + HOSTILE,
                    HOSTILE + " `tick` | pipe ]]> \\x1b[31m"))):
            t = self.target_block(label)
            for want in wants:
                self.assertIn(want, t, label)

    def test_broken_rows_link_to_the_failure(self):
        sec = self.section("programs")
        (link,) = re.findall(r'<a href="#(f-\d+-\d+)"><code>client\.perfview\.profile-sources'
                             r'</code></a>', sec)
        art = self.page.articles[link]
        for want in ("Program", "PerfView / TraceEvent", "Step", "step 1", "Then",
                     "ends the program"):
            self.assertIn(want, art)

    def test_program_matrix(self):
        """Programs x targets, only the programs that break on some target."""
        sec = self.section("programs")
        rows = table_rows(sec, "program-table")
        head = rows[0]
        self.assertEqual(head[0], "Program")
        self.assertEqual(len(head), 1 + 4 + 3)      # 4 targets under test, 3 reference ranges
        col = columns(head, 1)
        by = {r[0].split(" (")[0]: r for r in rows[1:]}
        # every row breaks somewhere; what works or is not exercised everywhere has no row
        self.assertTrue(by)
        for name, r in by.items():
            self.assertTrue(any(c.startswith("breaks") for c in r[1:]), r)
        for name in ("fibratus", "go-winio", "Optick", "Classic instance ids"):
            self.assertNotIn(name, by)
        for name, target, want in (
                ("PerfView / TraceEvent", "wine@win10", "breaks at step 1"),
                ("PerfView / TraceEvent", "reference@10.0.19041", "works 1/1"),
                ("PerfView / TraceEvent", "reference@6.1.7601", "not exercised 0/1"),
                ("pmctrace", "wine@win10", "breaks (step unknown)"),
                ("pmctrace", "windows@10.0.19045", "not exercised"),
                ("miniperf.h", "windows@10.0.19045", "breaks at step 1")):
            self.assertTrue(by[name][col[target]].startswith(want), (target, by[name]))
        # no scenarios in that run
        self.assertEqual(by["PerfView / TraceEvent"][col["reference@6.2.9200"]], "n/a")
        # known failures are striped like the rule matrix's XFAIL cells
        self.assertRegex(sec, r'class="cell c-CRASH xf"[^>]*><a href="#f-\d+-\d+">breaks at '
                              r'step 1</a>')

    def test_not_exercised_one_line_each(self):
        """Per target, the scenarios not exercised fold into one line that gives the reasons,
        and unfold to every scenario with its reason."""
        sec = self.section("programs")
        folds = re.findall(r'<details class="not-run"><summary>(.*?)</summary><ul>(.*?)</ul>',
                           sec)
        self.assertGreaterEqual(len(folds), 3)      # windows, wine@win7, reference@6.1
        for summary, items in folds:
            for reason in re.findall(r"<li>(.*?): ", items):
                self.assertIn(reason, summary)

    def test_markdown_programs(self):
        md = self.md
        self.assertIn("## Programs affected", md)
        self.assertLess(md.index("## Programs affected"), md.index("### `wine@win10`"))
        progs = md[md.index("## Programs affected"):]
        block = progs[progs.index("### `wine@win10`"):]
        block = block[:block.index("\n### ")]
        items = md_items(block)
        self.assertIn("10 programs: 6 broken, 3 work, 1 without a scenario in this run.", items)
        (line,) = [l for l in items if l.startswith("- **PerfView / TraceEvent**")]
        for want in ("breaks at step 1", "TQI\\(0, 0x07, NULL, 0, &amp;len\\)",
                     "the exception 0x80000100 ends the program at its first call",
                     "`client.perfview.profile-sources`", "CRASH, counted", "[XFAIL]"):
            self.assertIn(want, line)
        self.assertRegex(line, r"\(index\.html#f-6-\d+\)")
        self.assertIn("breaks \\(step unknown\\)", block)
        all_items = md_items(progs)
        self.assertIn("- Not exercised: SeSystemProfilePrivilege not held \\(run elevated\\): "
                      "pmctrace `client.pmctrace.find-pmc`", all_items)
        self.assertIn("FAIL, not counted", " ".join(all_items))
        # no table, no <script>: test_outputs' Markdown tests of this summary
        self.assertNotIn("<i>", md)

    def props(self, label):
        for s in ET.parse(self.junit_path).getroot().findall("testsuite"):
            if s.get("name") == label:
                return {p.get("name"): p.get("value") for p in s.iter("property")}
        self.fail("no testsuite " + label)

    def test_junit_properties(self):
        p = self.props("wine@win10")
        self.assertEqual(p["programs"], "10 programs: 6 broken, 3 work, 1 without a scenario "
                                        "in this run")
        self.assertEqual(p["program.perfview"], "broken: step 1 TQI(0, 0x07, NULL, 0, &len) -> "
                         "the exception 0x80000100 ends the program at its first call "
                         "(client.perfview.profile-sources CRASH, counted)")
        self.assertEqual(p["program.perfview.name"], "PerfView / TraceEvent")
        self.assertTrue(p["program.pmctrace"].startswith("broken: step unknown -> the scenario "
                                                         "crashed (0x80000100)"))
        self.assertEqual(p["program.fibratus"], "works: 1 of 1 scenarios passed")
        self.assertEqual(p["program.optick"], "absent: no scenario for this program in this run")
        w = self.props("windows@10.0.19045")
        self.assertIn("not counted", w["program.miniperf-h"])
        self.assertEqual(w["program.pmctrace"], "not exercised: client.pmctrace.find-pmc: "
                         "SeSystemProfilePrivilege not held (run elevated)")
        self.assertFalse([k for k in self.props("reference@6.2") if k.startswith("program")])
        # hostile names stay text (both XML parsers read the file: test_junit_parses_and_counts)
        p = self.props("thirdparty@" + HOSTILE)
        self.assertEqual(p["program.evil<i>x</i>.name"], HOSTILE + " & co")
        self.assertIn("TQI(" + HOSTILE + ")", p["program.evil<i>x</i>"])
        with open(self.junit_path, encoding="utf-8") as f:
            raw = f.read()
        self.assertNotIn("<script>", raw)
        self.assertNotIn("<i>", raw)


class Summary(TmpCase):
    def test_summary_lines(self):
        out, err = self.assertRan(run_cli("summary", "--programs", PROGRAMS_DEF,
                                          *[data(n) for n in GOOD + ["truncated.jsonl"]]), 0)
        lines = out.splitlines()
        i = [n for n, l in enumerate(lines) if l.startswith("wine@win10 ")][0]
        block = [l.strip() for l in itertools.takewhile(lambda l: l.startswith(" "),
                                                         lines[i + 1:])]
        self.assertEqual(block[1], "10 programs: 6 broken, 3 work, 1 without a scenario in "
                                   "this run")
        self.assertIn("broken: PerfView / TraceEvent [perfview]: step 1 TQI(0, 0x07, NULL, 0, "
                      "&len) -> the exception 0x80000100 ends the program at its first call "
                      "(client.perfview.profile-sources CRASH, counted)", block)
        self.assertTrue(any(b.startswith("broken: pmctrace [pmctrace]: step unknown") for b in
                            block), block)
        self.assertIn("working: fibratus, go-winio, Classic instance ids (documented pattern)",
                      block)
        self.assertIn("no scenario in this run: Optick", block)
        self.assertIn("not exercised (SeSystemProfilePrivilege not held (run elevated)): "
                      "pmctrace [client.pmctrace.find-pmc]", [l.strip() for l in lines])
        self.assertTrue(any("(client.miniperf-h.pmc FAIL, not counted)" in l for l in lines))
        # the incomplete run without scenarios has no programs lines
        j = [n for n, l in enumerate(lines) if l.startswith("reference@6.2 ")][0]
        self.assertFalse(lines[j + 1].startswith(" "), lines[j + 1])

    def test_programs_option_errors(self):
        self.assertIn("--programs", self.assertOneLineError(run_cli(
            "summary", "--programs", os.path.join(self.tmp, "none.def"), data("wine-win10.jsonl")),
            "none.def"))
        bad = self.write("bad.def", 'PROGRAM("a", "A", "r", "s")\nPROGRAM(b, "B", "r", "s", "n")'
                         '\nPROGRAM("perfview", "PerfView", "r", "s", "n")\n')
        # a bad list is a warning: the records still name the programs
        out, err = self.assertRan(run_cli("summary", "--programs", bad, data("wine-win10.jsonl")),
                                  0, out=["[perfview]: step 1"])
        self.assertRegex(err, r"etwconf-report: warning: .*bad\.def:1")
        self.assertNotIn("Traceback", err)


class ProgramsDef(TmpCase):
    def test_sample_def(self):
        known = P.load_known(PROGRAMS_DEF, required=True)
        self.assertEqual(known.problems, [])
        self.assertEqual(len(known.programs), 10)
        self.assertEqual(known.by_id["optick"]["name"], "Optick")

    def test_without_a_list(self):
        """The records alone name the programs: no absent ones, names from the records."""
        from etwconf_report import ingest
        run = ingest.load(data("wine-win10.jsonl"))
        tp = P.TargetPrograms(run, P.Known())
        self.assertEqual(len(tp.programs), 9)
        self.assertEqual(tp.by_id["perfview"].name, "PerfView / TraceEvent")
        self.assertEqual(tp.by_id["perfview"].cell_text(), "breaks at step 1")
        self.assertEqual(tp.counts()[P.ABSENT], 0)

    def test_scenarios_the_harness_could_not_follow(self):
        """A scenario's record without its program object (a worker crash, an older harness) is
        still a scenario of the program its id names; step null and "unknown" texts are the
        harness's form for a step it could not follow."""
        recs = read_records("wine-win10.jsonl")
        for k in SCENARIO_KEYS:
            case_of(recs, "client.tracy.sampling").pop(k, None)
        case_of(recs, "client.pmctrace.find-pmc").update(
            step=None, step_what="unknown: the step reached was not passed back",
            consequence="unknown")
        self.assertRan(run_cli("summary", "--programs", "",
                               self.write("w.jsonl", dump_records(recs))), 0, out=[
            "broken: tracy [tracy]: step unknown -> return: expected 0 (ERROR_SUCCESS), got 50 "
            "(ERROR_NOT_SUPPORTED); what the program does then is not recorded",
            "broken: pmctrace [pmctrace]: step unknown (the step reached was not passed back) -> "
            "the scenario crashed (0x80000100); what the program does then is not recorded "
            "(client.pmctrace.find-pmc CRASH, counted)"])


class BadScenarioFields(TmpCase):
    def test_refused_in_one_line(self):
        for key, value, want in (("program", "perfview", '"program" is a string'),
                                 ("step", 0, '"step" is 0, must be at least 1'),
                                 ("step", "2", '"step" is a string')):
            with self.subTest(key=key, value=value):
                recs = read_records("wine-win10.jsonl")
                case_of(recs, "client.tracy.sampling")[key] = value
                p = self.write("b.jsonl", dump_records(recs))
                line = self.assertOneLineError(
                    run_cli("report", "--out", os.path.join(self.tmp, "o"), p), "b.jsonl:")
                self.assertIn("client.tracy.sampling", line)
                self.assertIn(want, line)


class OlderRuns(TmpCase):
    """Results without scenario records read and render as before."""

    def test_report_summary_junit_diff(self):
        files = [self.write(n, dump_records(strip_scenarios(read_records(n))))
                 for n in ("reference-10.0.jsonl", "wine-win10.jsonl")]
        self.assertRan(run_cli("report", "--out", self.tmp, "--programs", PROGRAMS_DEF, *files), 0)
        page = parse_page(os.path.join(self.tmp, "index.html"))
        self.assertIn("This run has no client-scenario cases", page.alltext)
        self.assertIn("No client-scenario cases in these results.", page.alltext)
        self.assertNotIn("program-table", page.ids)
        with open(os.path.join(self.tmp, "summary.md"), encoding="utf-8") as f:
            self.assertNotIn("Programs affected", f.read())
        root = ET.parse(os.path.join(self.tmp, "junit.xml")).getroot()
        self.assertFalse([p for p in root.iter("property") if p.get("name").startswith(
            "program")])
        out, err = self.assertRan(run_cli("summary", "--programs", PROGRAMS_DEF, *files), 0)
        self.assertNotIn("program", out)
        self.assertEqual(len(out.splitlines()), 4)    # two targets, a MUST line, the total
        out, err = self.assertRan(run_cli("diff", *files), 1)
        self.assertNotIn("program", out)
        self.assertRegex(out.splitlines()[-1], r"^diff: \d+ regressions, .* \d+ unchanged$")


class DiffPrograms(TmpCase):
    def pair(self, edit_new, edit_old=None):
        """(old, new): reference-10.0 with edit(cases by id) applied; cases it adds go last."""
        files = []
        for name, edit in (("old.jsonl", edit_old), ("new.jsonl", edit_new)):
            recs = read_records("reference-10.0.jsonl")
            by = {r["id"]: r for r in recs if r.get("type") == "case"}
            if edit:
                n = len(by)
                edit(by)
                recs[-1:-1] = list(by.values())[n:]
                fix_footer(recs)
            files.append(self.write(name, dump_records(recs)))
        return files

    @staticmethod
    def break_perfview(by, step=2):
        by["client.perfview.profile-sources"].update(
            status="FAIL", counted=True, mode="return", failed_rules=["TQI.07.FORMAT"],
            checks=[{"what": "return", "rule": "TQI.07.FORMAT", "expected": "0",
                     "got": "87", "ok": False}], message="return: expected 0, got 87",
            step=step, step_what="TQI(0, 0x07, buf, len, &len)",
            consequence="throws: profile-source discovery fails")

    def test_broken_and_fixed_by_a_change(self):
        old, new = self.pair(self.break_perfview)
        out, err = self.assertRan(run_cli("diff", old, new), 1)
        lines = out.splitlines()
        i = lines.index("programs broken by this change (1):")
        self.assertEqual(lines[i + 1], "  PerfView / TraceEvent [perfview]: "
                         "client.perfview.profile-sources PASS -> FAIL at step 2 TQI(0, 0x07, "
                         "buf, len, &len) -> throws: profile-source discovery fails; was working")
        self.assertLess(i, lines.index("regressions (1):"))
        reg = lines[lines.index("regressions (1):") + 1]
        self.assertIn("step 2 TQI(0, 0x07, buf, len, &len) -> throws", reg)
        self.assertTrue(lines[-1].endswith("; 1 program broken, 0 fixed"), lines[-1])
        out, err = self.assertRan(run_cli("diff", "--json", old, new), 1)
        doc = json.loads(out)
        self.assertEqual((doc["programs_broken"], doc["programs_fixed"]), (1, 0))
        (prog,) = doc["pairs"][0]["programs"]
        self.assertEqual((prog["kind"], prog["program"], prog["before"], prog["after"]),
                         ("broken", "perfview", "works", "broken"))
        self.assertEqual(prog["cases"][0]["step"], 2)
        # the other way round the program is fixed
        out, err = self.assertRan(run_cli("diff", new, old), 0)
        self.assertIn("programs fixed by this change (1):\n  PerfView / TraceEvent [perfview]: "
                      "client.perfview.profile-sources FAIL -> PASS; now works", out)
        self.assertNotIn("programs broken by", out)
        self.assertTrue(out.splitlines()[-1].endswith("; 0 programs broken, 1 fixed"))

    def test_already_broken_is_not_newly_broken(self):
        """FAIL -> CRASH is a regression, a step changed a changed failure; neither breaks the
        program, which was broken already."""
        def crash(by):
            by["client.perfview.profile-sources"].update(
                status="CRASH", counted=True, mode="exception", exception="0xc0000005",
                failed_rules=["TQI.07.FORMAT"], checks=[], step=1)
        for edit, rc, want in ((crash, 1, []), (lambda by: self.break_perfview(by, 3), 0, [
                "same status, different failure (1):", "step 3"])):
            old, new = self.pair(edit, self.break_perfview)
            out, err = self.assertRan(run_cli("diff", old, new), rc, out=want)
            self.assertNotIn("programs broken by", out)
            self.assertTrue(out.splitlines()[-1].endswith("; 0 programs broken, 0 fixed"))

    def test_fixed_but_still_broken(self):
        def two(by, fail_first=False):     # a second perfview scenario, broken at step 3
            second = json.loads(json.dumps(by["client.perfview.profile-sources"]))
            second["id"] = "client.perfview.kernel-provider"
            by[second["id"]] = second
            self.break_perfview({"client.perfview.profile-sources": second}, 3)
            if fail_first:
                self.break_perfview(by)
        old, new = self.pair(two, lambda by: two(by, True))
        out, err = self.assertRan(run_cli("diff", old, new), 0)
        self.assertIn("  PerfView / TraceEvent [perfview]: client.perfview.profile-sources FAIL -> "
                      "PASS; still broken: client.perfview.kernel-provider step 3 TQI(0, 0x07, "
                      "buf, len, &len) -> throws: profile-source discovery fails", out)
        out, err = self.assertRan(run_cli("diff", new, old), 1)
        self.assertIn("PASS -> FAIL at step 2 TQI(0, 0x07, buf, len, &len) -> throws: "
                      "profile-source discovery fails; already broken before "
                      "(client.perfview.kernel-provider)", out)
