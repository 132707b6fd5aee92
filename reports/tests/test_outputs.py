"""index.html, summary.md and junit.xml: content, escaping, structure."""
import base64
import html
import hashlib
import os
import re
import time
import xml.dom.minidom
import xml.etree.ElementTree as ET

from common import (TmpCase, case_of, data, run_cli, read_records, dump_records, fix_footer, GOOD,
                    HOSTILE, WINE_EXP)
from browser import Page, text
from etwconf_report import render_html


def table_rows(raw, table_id):
    """The rows of the table with id table_id, each a list of its cells' texts."""
    i = raw.index('id="%s"' % table_id)
    return [[text(c) for c in re.findall(r"<t[hd][^>]*>.*?</t[hd]>", tr, re.S)]
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", raw[i:raw.index("</table>", i)], re.S)]


def columns(head, first):
    """{"impl@version": index} of a matrix's head row, whose target cells read "impl version
    mark" (from index first on)."""
    return {"@".join(h.split()[:2]): i for i, h in enumerate(head) if i >= first and "@" not in h}


def parse_page(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.raw = f.read()
    p.feed(p.raw)
    p.close()
    p.alltext = "".join(p.text)
    p.articles = {a: html.unescape(re.sub(r"<[^>]+>", "", body)) for a, body in re.findall(
        r'<article [^>]*id="([^"]*)"[^>]*>(.*?)</article>', p.raw, re.S)}
    p.matrix = table_rows(p.raw, "matrix-table")
    return p


class SampleReport(TmpCase):
    """The report of the samples (GOOD, truncated, hostile) with the sample program list and
    Wine's expectations, written once (into the samples' directory) for every class that reads
    it: rc, stdout, stderr, out (the directory), page (parsed), raw, md and junit_path."""
    _made = {}

    @classmethod
    def setUpClass(cls):
        r = SampleReport._made
        if not r:
            r["out"] = data("report")
            files = [data(n) for n in GOOD + ["truncated.jsonl", "hostile.jsonl"]]
            r["rc"], r["stdout"], r["stderr"] = run_cli(
                "report", "--out", r["out"], "--programs", data("programs.def"),
                "--expectations", WINE_EXP, *files)
            r["page"] = parse_page(os.path.join(r["out"], "index.html"))
            r["raw"] = r["page"].raw
            with open(os.path.join(r["out"], "summary.md"), encoding="utf-8") as f:
                r["md"] = f.read()
            r["junit_path"] = os.path.join(r["out"], "junit.xml")
        for k, v in r.items():
            setattr(cls, k, v)

    def section(self, sid):
        """The page's <section id=sid>, as markup."""
        i = self.raw.index('<section id="%s"' % sid)
        return self.raw[i:self.raw.index("</section>", i)]


class Reports(SampleReport):
    def test_exit_and_message(self):
        self.assertEqual(self.rc, 0, self.stderr)
        self.assertIn("index.html", self.stdout)
        self.assertNotIn("Traceback", self.stderr)

    def test_only_our_script_runs(self):
        self.assertEqual(self.page.scripts, [render_html.JS])
        digest = base64.b64encode(hashlib.sha256(render_html.JS.encode()).digest()).decode()
        (csp,) = [dict(a).get("content") for t, a in self.page.tags
                  if t == "meta" and dict(a).get("http-equiv") == "Content-Security-Policy"]
        self.assertIn("'sha256-%s'" % digest, csp)
        self.assertIn("default-src 'none'", csp)

    def test_elements_and_links(self):
        """No element or handler from the results, nothing outside the page, no dangling link."""
        links = 0
        for tag, attrs in self.page.tags:
            self.assertNotIn(tag, ("img", "svg", "iframe", "object", "embed", "b", "i", "link"),
                             "injected <%s>" % tag)
            for k, v in attrs:
                self.assertFalse(k.startswith("on"), "event handler %s=%r on <%s>" % (k, v, tag))
                if k == "action":
                    self.assertFalse((v or "").lower().startswith("javascript:"), v)
                if k in ("href", "src"):
                    self.assertTrue((v or "").startswith("#"), "external reference %s=%r" % (k, v))
                if k == "href" and len(v) > 1:
                    self.assertIn(v[1:], self.page.ids, "dangling link %s" % v)
                    links += 1
        self.assertGreater(links, 0, "no anchor link to follow")
        self.assertNotRegex(self.raw, r"@import|url\(")

    def test_hostile_strings_shown_as_text(self):
        self.assertIn(HOSTILE, self.page.alltext)
        self.assertIn("</script><script>alert(2)</script>", self.page.alltext)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt;", self.raw)
        self.assertIn("&lt;a href=javascript:alert(4)&gt;src&lt;/a&gt;", self.raw)   # a source
        for bad in ("<script>alert", "<img", "\x1b", "\x00"):
            self.assertNotIn(bad, self.raw)

    def test_page_texts(self):
        """The verdicts, the skip reasons, the coverage."""
        for want in ("What breaks where", "conformant", "1 failure of MUST rules (1 case)",
                     "1 divergence (not counted)", "INCOMPLETE",     # windows, reference@6.2
                     "no failures so far (incomplete run)",
                     "no footer: the run stopped after 14 of 58 planned cases",
                     "reference@6.1", "reference@10.0", "wine@win7", "wine@win10",
                     "windows@10.0.19045", "reference@6.2",
                     "TraceQueryInformation is not exported before 6.2", "Rules per function",
                     "Rules with no case", "not testable"):
            self.assertIn(want, self.page.alltext)

    def test_matrix(self):
        rows = self.page.matrix
        head = rows[0]
        self.assertEqual(head[:4], ["Rule", "Strength", "Function", "Cases"])
        self.assertEqual(len(head), 4 + 7)
        self.assertEqual([r[0].split(" (")[0] for r in rows if len(r) == 1], [
            "MUST rules", "SHOULD, MAY and inferred rules", "Informative rules",
            "Rules not in this catalogue"])
        by_rule = {r[0]: r for r in rows if len(r) > 4}
        cols = columns(head, 4)
        sechost = by_rule["EXP.SECHOST.TQI"]
        self.assertTrue(sechost[cols["wine@win10"]].startswith("FAIL"), sechost)
        self.assertTrue(sechost[cols["reference@6.1"]].startswith("SKIP"), sechost)
        self.assertTrue(sechost[cols["reference@10.0"]].startswith("PASS"), sechost)
        self.assertTrue(by_rule["TQI.RC.WIN32"][cols["wine@win10"]].startswith("CRASH xfail"))
        # a rule no case ran: n/a everywhere
        self.assertEqual(set(by_rule["EXP.ADVAPI32.RTG"][4:]), {"n/a"})
        # the strength groups hold the right rules
        self.assertEqual(by_rule["TQI.CLASS.FIRST"][1], "SHOULD (inferred)")

    def test_failure_details(self):
        arts = self.page.articles
        (t,) = [t for t in arts.values() if "esi.class" in t and "wine@win10" in t]
        for want in ("87 (ERROR_INVALID_PARAMETER)", "0 (ERROR_SUCCESS)", "cases/provider.c:120",
                     "WINEPREFIX=build/wine-win10 wine build/etwconf.exe run --case esi.class",
                     "ESI.CLASS", "source:", "XFAIL"):
            self.assertIn(want, t)
        crash = [t for t in arts.values() if "tqi.0b.exact" in t and "wine@win10" in t][0]
        self.assertIn("0x80000100", crash)

    def test_filters_present_but_hidden_without_js(self):
        (f,) = [dict(a) for t, a in self.page.tags if dict(a).get("id") == "filters"]
        self.assertIn("hidden", f)
        self.assertGreater(sum(1 for t, a in self.page.tags if dict(a).get("data-filter")), 100)

    def test_first_screen_order(self):
        """Targets under test come first, each with its verdict; the reference is one line per
        range of builds with the same verdict, its builds folded away in <details>."""
        sec = self.section("verdicts")
        first = sec[:sec.index('<details class="ref-range"')]
        rows = re.findall(r'<tr class="verdict-row" data-target="\d+"><th><a [^>]*>([^<]*)</a>'
                          r'</th><td class="vd"><a [^>]*class="verdict verdict-(\w+)"', first)
        self.assertEqual(sorted(html.unescape(r[0]) for r in rows), sorted(
            ["wine@win7", "wine@win10", "windows@10.0.19045", "thirdparty@" + HOSTILE]))
        self.assertNotIn("ref-row", first)
        ranges = re.findall(r'<details class="ref-range" id="reference-\d+"><summary>(.*?)'
                            r'</summary>(.*?)</details>', sec, re.S)
        texts = [" ".join(re.sub(r"<[^>]+>", "", html.unescape(s)).split()) for s, _ in ranges]
        self.assertEqual(texts, [
            "reference: conformant at 1 build, 6.1.7601 (each build)",
            "reference: no failures so far (incomplete run) at 1 build, 6.2.9200 (each build)",
            "reference: conformant at 1 build, 10.0.19041 (each build)"])
        for _, body in ranges:     # each build is in its range, folded away
            self.assertEqual(len(re.findall(r'class="verdict-row ref-row"', body)), 1, body)

    def test_family_matrix(self):
        """API family x target: counted failures / cases, linked to the family's failures."""
        sec = self.section("families")
        rows = re.findall(r'<tr class="family-row"><th class="rid">([^<]*)</th>(.*?)</tr>', sec)
        fams = dict(rows)
        self.assertIn("NtTraceControl", fams)
        tqi = fams["TraceQueryInformation"]
        cells = re.findall(r'<td class="cell c-(\w+)( xf)?"[^>]*>(?:<a href="#([^"]+)">)?'
                           r'(\d+/\d+|n/a)', tqi)
        # thirdparty (whose function is another), windows, wine@win7, wine@win10, then the
        # three reference ranges
        self.assertEqual(len(cells), 7, tqi)
        by_state = [(c[0], c[3]) for c in cells]
        self.assertEqual(by_state[:2], [("na", "n/a"), ("FAIL", "1/24")])   # TQI.0B.VERSION
        self.assertEqual(by_state[3], ("CRASH", "22/24"))       # wine@win10: known stubs
        self.assertEqual(cells[3][1], " xf")
        self.assertEqual(by_state[4], ("PASS", "0/24"))
        for c in cells:
            if not c[3].startswith(("0/", "n/a")):
                self.assertTrue(c[2].startswith("ff-"), c)
                self.assertIn(c[2], self.page.ids)
        # the family's failures: every case of it, linked to its article
        link = cells[3][2]
        li = re.search(r'<li id="%s">(.*?)</li>' % link, self.raw).group(1)
        self.assertEqual(len(re.findall(r'href="#f-\d+-\d+"', li)), 22 + 0, li)

    def test_markdown(self):
        md = self.md
        for want in ("INCOMPLETE", "&lt;script&gt;",
                     "- `reference`: conformant at 1 build, 6\\.1\\.7601"):
            self.assertIn(want, md)
        self.assertNotIn("<script", md)
        self.assertNotIn("<img", md)
        under = md[md.index("## Targets under test"):md.index("## Reference")]
        self.assertEqual(len(re.findall(r"^- ", under, re.M)), 4, under)   # one per target
        self.assertGreaterEqual(len(re.findall(r"^  - ", under, re.M)), 8, under)
        self.assertNotIn("reference@", under)
        # each names the programs it breaks, in one line
        wine = under[under.index("- `wine@win10`: **"):]
        self.assertIn("\n  - breaks 6 of 10 programs: PerfView / TraceEvent, pmctrace,", wine)

    def test_markdown_fits_100_columns(self):
        """No line of summary.md is longer than 100 characters, but for a word longer than a line
        (a URL); hostile strings and rerun commands included."""
        lines = self.md.splitlines()
        self.assertGreater(len(lines), 100)
        self.assertIn("rerun: ", self.md)
        for line in lines:
            if len(line) > 100:
                self.assertEqual(len(line.split()), 1, line)
        self.assertNotRegex(self.md, r"\n\|")       # no table

    def test_junit_parses_and_counts(self):
        tree = ET.parse(self.junit_path)
        xml.dom.minidom.parse(self.junit_path)    # a second, stricter parser
        root = tree.getroot()
        self.assertEqual(root.tag, "testsuites")
        suites = root.findall("testsuite")
        self.assertEqual(len(suites), 7)
        total = 0
        for s in suites:
            cases = s.findall("testcase")
            self.assertEqual(int(s.get("tests")), len(cases))
            for attr, tag in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
                self.assertEqual(int(s.get(attr)), sum(c.find(tag) is not None for c in cases))
            total += len(cases)
        self.assertEqual(int(root.get("tests")), total)

    def test_junit_mapping(self):
        root = ET.parse(self.junit_path).getroot()
        suites = {s.get("name"): s for s in root.findall("testsuite")}
        ref = suites["reference@6.1"]
        self.assertEqual(len(ref.findall("testcase")), 58)
        sk = [c for c in ref.findall("testcase") if c.find("skipped") is not None]
        self.assertTrue(all(c.find("skipped").get("message") for c in sk))
        win = suites["windows@10.0.19045"]
        fails = {c.get("name"): c.find("failure") for c in win.findall("testcase")
                 if c.find("failure") is not None}
        self.assertEqual(set(fails), {"tqi.0e.small", "tqi.0b.version", "client.miniperf-h.pmc"})
        self.assertIn("not counted", fails["tqi.0e.small"].get("message"))
        # with expectations, Wine's known failures (a case, a scenario) are expected failures
        wine = {c.get("name"): c for c in suites["wine@win10"].findall("testcase")}
        for name in ("tqi.0b.exact", "client.krabsetw.group-mask"):
            self.assertIn("expected failure", wine[name].find("skipped").get("message"))
        inc = suites["reference@6.2"]
        self.assertEqual(inc.findall("testcase")[-1].get("name"), "(run incomplete)")
        self.assertIsNotNone(inc.findall("testcase")[-1].find("error"))
        host = [s for n, s in suites.items() if n.startswith("thirdparty@")][0]
        self.assertIn(HOSTILE, host.get("name"))
        kinds = [[x.tag for x in c if x.tag in ("failure", "error", "skipped")]
                 for c in host.findall("testcase")]
        self.assertEqual(kinds, [[], ["failure"], ["error"], ["skipped"], ["error"], ["failure"],
                                 ["skipped"]])


class JunitWithoutExpectations(TmpCase):
    def test_fail_crash_timeout_skip(self):
        """Each status's element; a scenario's failure names its program and step (the record
        alone names them: no program list)."""
        self.assertRan(run_cli("report", "--out", self.tmp, "--programs", "",
                               data("wine-win10.jsonl")), 0)
        root = ET.parse(os.path.join(self.tmp, "junit.xml")).getroot()
        recs = {r["id"]: r for r in read_records("wine-win10.jsonl") if r["type"] == "case"}
        self.assertEqual(len(list(root.iter("testcase"))), len(recs))
        for tc in root.iter("testcase"):
            st = recs[tc.get("name")]["status"]
            child = [c.tag for c in tc if c.tag in ("failure", "error", "skipped")]
            want = {"PASS": [], "FAIL": ["failure"], "CRASH": ["error"], "TIMEOUT": ["error"],
                    "BROKEN": ["error"], "SKIP": ["skipped"]}[st]
            self.assertEqual(child, want, tc.get("name"))
            if st == "SKIP":
                self.assertEqual(tc.find("skipped").get("message"),
                                 recs[tc.get("name")]["reason"])
        (tracy,) = [c for c in root.iter("testcase") if c.get("name") == "client.tracy.sampling"]
        f = tracy.find("failure")
        self.assertTrue(f.get("message").startswith(
            "Tracy breaks at step 1 TSI(0, 0x05, {0, 1250}, 8) -> CPU sampling is silently "
            "not enabled: no samples -- return: expected"), f.get("message"))
        self.assertIn("program: Tracy (tracy), source: wolfpld/tracy", f.text)
        self.assertIn("then: CPU sampling is silently not enabled", f.text)


class Performance(TmpCase):
    def test_ten_targets_of_300_cases(self):
        recs = read_records("wine-win10.jsonl")
        head, cases = recs[0], [r for r in recs if r["type"] == "case"]
        files = []
        for t in range(10):
            out = [dict(head, target_id="wine@perf%d" % t)] + [
                dict(cases[i % len(cases)], id="%s.%d" % (cases[i % len(cases)]["id"], i))
                for i in range(300)]
            out.append({"type": "footer", "counts": {}, "total": 0, "complete": True})
            files.append(self.write("p%d.jsonl" % t, dump_records(fix_footer(out))))
        # the CPU time of the report, not the wall time: other work on a shared machine (and the
        # test stages running side by side) stretches the wall clock, not the work done
        before = time.process_time()
        rc, o, err = run_cli("report", "--out", os.path.join(self.tmp, "out"), *files)
        took = time.process_time() - before
        self.assertEqual(rc, 0, err)
        self.assertLess(took, 2.0, "report of 10 x 300 cases took %.2f s of CPU time" % took)


class Verdicts(TmpCase):
    def summaries(self, *paths):
        from etwconf_report import analysis, catalog, ingest
        return analysis.summarize(ingest.load_many(list(paths)), catalog.load())

    def test_verdict_words(self):
        s = {x.run.label: x for x in self.summaries(*[data(n) for n in GOOD])}
        self.assertEqual(s["reference@6.1"].verdict, "conformant")
        self.assertTrue(s["reference@6.1"].conformant)
        self.assertEqual(s["windows@10.0.19045"].verdict, "1 failure of MUST rules (1 case)")
        # tqi.0e.small and the miniperf.h scenario (its ERROR_BAD_LENGTH is a MAY rule)
        self.assertIn("2 divergences (not counted)", s["windows@10.0.19045"].verdict_detail)
        self.assertRegex(s["wine@win10"].verdict,
                         r"^\d+ failures of MUST rules, 22 crashes or timeouts \(31 cases\)$")
        self.assertIn("1 case broken", s["wine@win10"].verdict_detail)

    def test_incomplete_and_crash_only(self):
        """A run killed with counted failures; a crash of a case of a MAY rule alone."""
        cut = read_records("wine-win10.jsonl")[:20]       # killed after 19 cases
        recs = read_records("reference-10.0.jsonl")
        r = case_of(recs, "tqi.04.larger")          # a MAY (inferred) rule only
        r.update(status="CRASH", counted=False, mode="exception", exception="SIGSEGV",
                 failed_rules=r["rules"], checks=[])
        fix_footer(recs)
        s = {x.run.label: x for x in self.summaries(
            self.write("w.jsonl", dump_records(cut)), self.write("r.jsonl", dump_records(recs)))}
        self.assertFalse(s["wine@win10"].conformant)
        self.assertTrue(s["wine@win10"].verdict.endswith(", incomplete run"))
        self.assertFalse(s["reference@10.0"].conformant)
        self.assertEqual(s["reference@10.0"].verdict, "1 crash (1 case)")
