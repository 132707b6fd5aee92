#!/usr/bin/env python3
"""The browser stage: open rendered reports in headless Chromium (Debian's chromium).

Checks that the matrix and the verdicts render, the "Programs affected" section and the scenario
view (programs x targets) too, that the page's script ran to the end with no console message
(errors, CSP violations), that markup planted in a results file stays text, and that the page
still reads with JavaScript off. For the build report: when its results hold client scenarios
(make wine, make run), every such target has its programs listed, Wine at win10 included, and
summary.md beside it has them too. Screenshots are kept in BUILD/report/:
  sample-screenshot.png  the report of reports/tests/data (always; -tall.png: 1400x3200)
  screenshot.png         BUILD/report/index.html, when `make run`/`make report` made one
The last line is "browser: N passed, N failed, N skipped"; exit 1 when a check failed.
Usage: browser.py [--build BUILD]
"""
import argparse
import html.parser
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.dirname(HERE)
REPO = os.path.dirname(REPORTS)
DATA = os.path.join(HERE, "data")
SAMPLES = ["reference-6.1.jsonl", "reference-10.0.jsonl", "wine-win7.jsonl", "wine-win10.jsonl",
           "windows-10.0.19045.jsonl", "truncated.jsonl", "hostile.jsonl"]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]
TIMEOUT = 60


class Checks:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def ok(self, cond, name, detail=""):
        if cond:
            self.passed += 1
            print("ok    %s" % name)
        else:
            self.failed += 1
            print("FAIL  %s%s" % (name, (": " + detail) if detail else ""))
        sys.stdout.flush()
        return cond

    def skip(self, name, why):
        self.skipped += 1
        print("skip  %s: %s" % (name, why))


def find_chromium():
    if "CHROMIUM" in os.environ:           # CHROMIUM=/path/to/chrome (empty: pretend absent)
        p = os.environ["CHROMIUM"]
        return p if p and os.access(p, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


def chromium(exe, args, url):
    """Run one headless Chromium; returns (rc, stdout, stderr). Kills its process group after."""
    udd = tempfile.mkdtemp(prefix="etwconf-chromium-")
    cmd = [exe] + FLAGS + ["--user-data-dir=" + udd] + args + [url]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        _kill_group(p.pid)
        out, err = p.communicate()
        rc = "timeout after %d s" % TIMEOUT
    finally:
        _kill_group(p.pid)             # helpers (zygote, gpu) that outlived the browser
        shutil.rmtree(udd, ignore_errors=True)
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def console_lines(stderr):
    return [l for l in stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_data(self, d):
        self.text.append(d)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _programs_block(dom, target):
    """The "Programs affected" subsection of one target in the rendered DOM, or None."""
    for m in re.finditer(r'<h3 id="programs-\d+">(.*?)</h3>(.*?)(?=<h3 id="programs-|</section>)',
                         dom, re.S):
        head = re.sub(r"<[^>]+>", "", m.group(1))
        if head.split(" ", 1)[0] == target:
            return head, m.group(2)
    return None


def check_programs(c, dom, label, scenario_targets, expect=None):
    """The Programs affected section and the scenario view. scenario_targets: labels of the
    targets whose results hold client scenarios. expect: {target: [texts its block shows]}."""
    c.ok('<section id="programs">' in dom and '<h2>Programs affected</h2>' in dom,
         "%s: Programs affected section rendered" % label)
    if not scenario_targets:
        c.ok('<section id="scenarios">' in dom and "No client-scenario cases" in dom,
             "%s: scenario view says there are no scenarios" % label)
        return
    rows = re.findall(r'<tr class="prog-row">', dom)
    cells = re.findall(r'<td class="cell c-[A-Za-z]+[^"]*"[^>]*><a href="#[^"]+">'
                       r'(works|breaks at step \d+|breaks \(step unknown\)|not exercised)', dom)
    c.ok('id="scenario-table"' in dom and rows and cells,
         "%s: scenario view rendered (%d programs, %d cells)" % (label, len(rows), len(cells)))
    for t in scenario_targets:
        blk = _programs_block(dom, t)
        if not c.ok(blk is not None and '<table class="programs"' in blk[1],
                    "%s: programs affected listed for %s" % (label, t)):
            continue
        head, body = blk
        broken = re.findall(r'<tr id="p-\d+-\d+" class="prog-broken">', body)
        if broken:
            # each failing scenario's row: step, the call made there, what the program does then
            fails = re.findall(r"<td>(step (?:\d+|unknown)[^<]*)</td><td>(.*?)</td><td>(.*?)</td>"
                               r"</tr>", body)
            c.ok(len(fails) >= len(broken) and all(cons.strip() for _, _, cons in fails),
                 "%s: %s: %d broken programs, each with its step and consequence (%s)" % (
                     label, t, len(broken), head.split("\u2014")[-1].strip()))
        for text in (expect or {}).get(t, ()):
            c.ok(text in body, "%s: %s's programs show %r" % (label, t, text))


def check_page(c, exe, path, label, shot, must=(), hostile=False, scenario_targets=(),
               expect_programs=None):
    url = "file://" + os.path.abspath(path)
    # one Chromium dumps the DOM and takes the screenshot (the report's script does not depend
    # on the window's size); the screenshot is checked further down
    if os.path.exists(shot):
        os.unlink(shot)
    rc, dom, err = chromium(exe, ["--dump-dom", "--screenshot=" + shot, "--window-size=1400,1000",
                                  "--hide-scrollbars"], url)
    if not c.ok(rc == 0 and "<html" in dom, "%s: chromium --dump-dom" % label,
                "rc %s; stderr tail: %s" % (rc, err[-500:])):
        return
    c.ok('id="etwconf-js-ready"' in dom, "%s: page script ran to the end (ready marker)" % label)
    bad = console_lines(err)
    c.ok(not bad, "%s: no console messages" % label, " | ".join(bad[:3]))
    m = re.search(r'id="f-count"[^>]*>showing (\d+) of (\d+) rows', dom)
    c.ok(m is not None and m.group(1) == m.group(2) and int(m.group(2)) > 0,
         "%s: filters built by the script (f-count)" % label)
    c.ok(re.search(r'<div class="filters" id="filters"(?! hidden)[^>]*>', dom) is not None,
         "%s: filter bar shown" % label)
    c.ok('id="matrix-table"' in dom and dom.count('class="cell ') > 0,
         "%s: rule x target matrix rendered" % label)
    c.ok(dom.count('class="verdict-row"') > 0 and 'class="verdict verdict-' in dom,
         "%s: verdicts rendered" % label)
    for text in must:
        c.ok(text in dom, "%s: shows %r" % (label, text))
    check_programs(c, dom, label, scenario_targets, expect_programs)
    tags = Tags()
    tags.feed(dom)
    if hostile:
        injected = [(t, a) for t, a in tags.tags if t in ("img", "svg", "iframe", "b", "i")
                    or any(k.startswith("on") for k, _ in a)]
        c.ok(not injected, "%s: no element or handler injected from results strings" % label,
             repr(injected[:3]))
        c.ok("<script>alert(1)</script>" in "".join(tags.text),
             "%s: injected markup shown as text" % label)
        c.ok(sum(1 for t, _ in tags.tags if t == "script") == 1,
             "%s: only the report's own script" % label)
    # Without JavaScript the page is complete and the filters stay hidden. (Chromium's
    # --dump-dom needs script, so the script is taken out of a copy of the page instead.)
    with open(path, encoding="utf-8") as f:
        page = f.read()
    nojs_dir = tempfile.mkdtemp(prefix="etwconf-nojs-")
    try:
        nojs = os.path.join(nojs_dir, "index.html")
        with open(nojs, "w", encoding="utf-8") as f:
            f.write(re.sub(r"<script>.*?</script>", "", page, flags=re.S))
        rc, dom2, err2 = chromium(exe, ["--dump-dom"], "file://" + nojs)
    finally:
        shutil.rmtree(nojs_dir, ignore_errors=True)
    c.ok(rc == 0 and 'class="verdict verdict-' in dom2 and 'id="matrix-table"' in dom2
         and 'id="etwconf-js-ready"' not in dom2 and '<section id="programs">' in dom2
         and ('id="scenario-table"' in dom2) == bool(scenario_targets)
         and re.search(r'<div class="filters" id="filters" hidden', dom2) is not None,
         "%s: readable without JavaScript (filters hidden, content shown)" % label)
    size = png_size(shot) if os.path.exists(shot) else None
    c.ok(size == (1400, 1000), "%s: screenshot %s" % (label, shot),
         "size %s %s" % (size, err[-300:]))
    tall = shot.replace(".png", "-tall.png")      # down to the matrix, for people to look at
    rc, _, err4 = chromium(exe, ["--screenshot=" + tall, "--window-size=1400,3200",
                                 "--hide-scrollbars"], url)
    c.ok(rc == 0 and png_size(tall) == (1400, 3200), "%s: screenshot %s" % (label, tall),
         err4[-300:])


def scenario_targets_of(page_path):
    """The targets of a written report whose results hold client scenarios (read from the page:
    the report names them in its programs section)."""
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    out = []
    for m in re.finditer(r'<h3 id="programs-\d+">(.*?)</h3>', page, re.S):
        head = re.sub(r"<[^>]+>", "", m.group(1))
        if "no client scenarios" not in head:
            out.append(head.split(" ", 1)[0])
    return out


def check_build_summary(c, report_dir, targets):
    """summary.md of the build report: Wine at win10's programs with step and consequence."""
    if "wine@win10" not in targets:
        c.skip("build report: Wine at win10's programs", "no wine@win10 results with client "
               "scenarios in the build report (make wine, then make report)")
        return
    try:
        with open(os.path.join(report_dir, "summary.md"), encoding="utf-8") as f:
            md = f.read()
    except OSError as e:
        c.ok(False, "build report: summary.md readable", str(e))
        return
    m = re.search(r"^### `wine@win10`: (.*)$", md, re.M)
    c.ok("## Programs affected" in md and m is not None,
         "build report: summary.md lists Wine at win10's programs")
    if m and " broken" in m.group(1):
        c.ok(re.search(r"^- \*\*.+\*\* .* breaks (at step \d+|\\\(step unknown\\\))", md, re.M)
             is not None, "build report: summary.md gives each broken program's step")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    a = ap.parse_args(argv)
    build = os.path.join(REPO, a.build) if not os.path.isabs(a.build) else a.build
    c = Checks()
    exe = find_chromium()
    if exe is None:
        print("browser: Chromium is not installed; run `sh .ci/deps.sh browser` "
              "(as root; `make test` installs it through TEST_DEPS)")
        c.ok(False, "chromium present", "no chromium, chromium-browser or /usr/bin/chromium")
        print("browser: %d passed, %d failed, %d skipped" % (c.passed, c.failed, c.skipped))
        return 1
    report_dir = os.path.join(build, "report")
    os.makedirs(report_dir, exist_ok=True)
    sample_dir = os.path.join(build, "test", "browser-report")
    os.makedirs(sample_dir, exist_ok=True)
    p = subprocess.run([sys.executable, os.path.join(REPORTS, "etwconf-report"), "report",
                        "--out", sample_dir, "--programs", os.path.join(DATA, "programs.def"),
                        "--expectations", os.path.join(DATA, "wine-expectations.json")]
                       + [os.path.join(DATA, n) for n in SAMPLES],
                       capture_output=True, text=True, timeout=120)
    if c.ok(p.returncode == 0, "render the sample report", p.stderr[-500:]):
        check_page(c, exe, os.path.join(sample_dir, "index.html"), "sample report",
                   os.path.join(report_dir, "sample-screenshot.png"),
                   must=("conformant", "1 failure of MUST rules (1 case)", "INCOMPLETE",
                         "wine@win10", "reference@6.1", "XFAIL"), hostile=True,
                   scenario_targets=("reference@6.1", "reference@10.0", "wine@win7",
                                     "wine@win10", "windows@10.0.19045"),
                   expect_programs={
                       "wine@win10": ("PerfView / TraceEvent", "step 1",
                                      "TQI(0, 0x07, NULL, 0, &amp;len)",
                                      "the exception 0x80000100 ends the program",
                                      "step unknown", ">works<"),
                       "windows@10.0.19045": ("not counted", "SeSystemProfilePrivilege")})
    real = os.path.join(report_dir, "index.html")
    if os.path.exists(real):
        targets = scenario_targets_of(real)
        check_page(c, exe, real, "build report", os.path.join(report_dir, "screenshot.png"),
                   must=("Verdicts per target",), scenario_targets=targets)
        check_build_summary(c, report_dir, targets)
    else:
        c.skip("build report", "%s not there yet (make run writes it)" % real)
    print("browser: %d passed, %d failed, %d skipped" % (c.passed, c.failed, c.skipped))
    return 1 if c.failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Exception as e:      # one line, and still the summary line stages.sh looks for
        print("browser: internal error: %s: %s" % (type(e).__name__, e))
        print("browser: 0 passed, 1 failed, 0 skipped")
        sys.exit(1)
