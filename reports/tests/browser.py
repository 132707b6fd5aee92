#!/usr/bin/env python3
"""The browser stage: open rendered reports in headless Chromium through Selenium (see
reports/README.md, "Tests": the pages, the screenshots, CHROMIUM and CHROMEDRIVER, why Debian's
dist-packages is added to sys.path under -S).

For the sample report and the build report (when there is one) it checks what the page shows
as laid out and run (its first screen, matrices, programs, script, console) and without
JavaScript; what the sample page says word for word is test_outputs' and test_programs' to check.
One Chromium serves the whole stage; the driver's process group is killed at the end.
The last line is "browser: N passed, N failed, N skipped"; exit 1 when a check failed.
"""
import argparse
import html
import html.parser
import os
import re
import shutil
import signal
import subprocess
import sys

import samples

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.dirname(HERE)
REPO = os.path.dirname(REPORTS)
DEBIAN_PY = "/usr/lib/python3/dist-packages"
SAMPLES = ["reference-6.1.jsonl", "reference-10.0.jsonl", "wine-win7.jsonl", "wine-win10.jsonl",
           "windows-10.0.19045.jsonl", "truncated.jsonl", "hostile.jsonl"]
# no network, no profile work, none of the browser UI new-headless Chrome otherwise loads
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--disable-breakpad",
         "--disable-client-side-phishing-detection", "--no-default-browser-check",
         "--password-store=basic", "--mute-audio", "--hide-scrollbars",
         "--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup"]
TIMEOUT = 60          # seconds for a page load or a script
WIDTH, HEIGHT, TALL = 1400, 1000, 3200
MD_WIDTH = 100
# what the report says in place of the program matrix when no program breaks anywhere
NO_BREAK = "No program breaks on any target."
# the element the report's script appends last (the script's text, which names it too, is not it)
READY = re.compile(r'<div id="etwconf-js-ready"[^>]*>ready</div>')
NO_JS = ('return new DOMParser().parseFromString(arguments[0], "text/html")'
         '.documentElement.outerHTML;')

# What the first screen shows: the verdict rows of the targets under test, the reference's per-build
# rows and its range lines, each with whether it lies inside the viewport.
FIRST_SCREEN = """
var H = window.innerHeight;
// the content of a closed <details> keeps a layout box in Chromium (content-visibility: hidden):
// checkVisibility() tells it is not rendered
function rendered(el) { return el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null; }
function inside(el) { var r = el.getBoundingClientRect();
  return rendered(el) && r.height > 0 && r.top >= 0 && r.bottom <= H; }
function shown(el) { var r = el.getBoundingClientRect();
  return rendered(el) && r.height > 0 && r.top < H; }
var rows = [].slice.call(document.querySelectorAll("table.verdicts-under tr.verdict-row"));
var ranges = [].slice.call(document.querySelectorAll("#verdicts details.ref-range > summary"));
return {
  height: H,
  under: rows.map(function (tr) { var v = tr.querySelector(".verdict");
    return [tr.querySelector("th").textContent.trim(), v ? v.textContent.trim() : "",
            inside(tr) && v !== null && inside(v)]; }),
  ref_rows: [].slice.call(document.querySelectorAll("tr.ref-row")).filter(shown).length,
  ref_builds: document.querySelectorAll("tr.ref-row").length,
  ranges: ranges.map(function (s) { return [s.textContent.trim(), inside(s)]; })
};
"""


class Checks:
    """Prints a line per check, its name after the page's label; counts them over every page."""

    def __init__(self, label="", counts=None):
        self.label = label + ": " if label else ""
        self.counts = counts if counts is not None else {"passed": 0, "failed": 0, "skipped": 0}

    def of(self, label):
        return Checks(label, self.counts)

    def ok(self, cond, name, detail=""):
        self.counts["passed" if cond else "failed"] += 1
        print("%-6s%s%s%s" % ("ok" if cond else "FAIL", self.label, name,
                              ": " + detail if detail and not cond else ""), flush=True)
        return cond

    def skip(self, name, why):
        self.counts["skipped"] += 1
        print("skip  %s%s: %s" % (self.label, name, why))

    def summary(self):
        return "browser: %(passed)d passed, %(failed)d failed, %(skipped)d skipped" % self.counts


def selenium():
    """Selenium's webdriver and errors from Debian's python3-selenium, or the reason why not."""
    if os.path.isdir(DEBIAN_PY) and DEBIAN_PY not in sys.path:
        sys.path.append(DEBIAN_PY)      # last: a selenium found before it is the one used
    try:
        from selenium import webdriver
        from selenium.common import exceptions
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        return None, "cannot import selenium (%s)" % e
    return (webdriver, exceptions, Service), None


def find(env, names):
    """$env (CHROMIUM=/path/to/chrome; empty: pretend absent), else the first of names found."""
    if env in os.environ:
        p = os.environ[env]
        return p if p and os.access(p, os.X_OK) else None
    return next(filter(None, map(shutil.which, names)), None)


class Browser:
    """One headless Chromium through chromedriver. The driver runs in a session of its own, so
    close() can end it, Chromium and every helper by the driver's process group."""

    def __init__(self, sel, chromium, driver):
        webdriver, self.errors, Service = sel
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium
        for f in FLAGS:
            opts.add_argument(f)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.service = Service(driver, popen_kw={"start_new_session": True})
        self.d = None
        try:
            self.d = webdriver.Chrome(service=self.service, options=opts)
        except Exception:
            self.close()
            raise
        self.d.set_page_load_timeout(TIMEOUT)
        self.d.set_script_timeout(TIMEOUT)

    def size(self, height):
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def run(self, script, *args):
        return self.d.execute_script(script, *args)

    def console(self):
        """The console messages and page errors (CSP violations included) since the last call."""
        return ["%s %s: %s" % (e.get("source"), e.get("level"), e.get("message"))
                for e in self.d.get_log("browser")]

    def close(self):
        try:
            if self.d is not None:
                self.d.quit()
        except Exception:
            pass
        proc = getattr(self.service, "process", None)
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)     # helpers that outlived the driver
            except (ProcessLookupError, PermissionError):
                pass


class Page(html.parser.HTMLParser):
    """What a page's parser sees: elements with their attributes, ids, scripts and text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.scripts, self.text, self.ids = [], [], [], set()
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        self.ids.update(v for k, v in attrs if k == "id")
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, d):
        if self._in_script:
            self.scripts[-1] += d
        else:
            self.text.append(d)


def png_size(png):
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def text(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def program_blocks(dom):
    """[(target label, heading, body)] of the blocks of "Programs affected". A label is
    "wine@win10", or "wine@win10 (x86_64)" when two runs share the target (the muted text after
    it in the heading is the summary)."""
    sec = dom[dom.find('<section id="programs">'):]
    sec = sec[:sec.find("</section>")]
    return [(text(m.group(1).split('<span class="muted">', 1)[0]), m.group(1), m.group(2))
            for m in re.finditer(r'<h3 id="programs-\d+">(.*?)</h3>(.*?)(?=<h3 id="programs-|$)',
                                 sec, re.S)]


def programs_block(dom, target):
    """(heading text, body) of one target's block in "Programs affected", or None."""
    return next(((text(h), b) for label, h, b in program_blocks(dom) if label == target), None)


def check_first_screen(c, browser):
    """In the WIDTH x HEIGHT viewport: every target under test with its verdict, and no reference
    row but the range lines."""
    s = browser.run(FIRST_SCREEN)
    rows = s["under"]
    hidden = [r[0] for r in rows if not (r[2] and r[1])]
    c.ok(rows and not hidden and s["height"] == HEIGHT,
         "first screen (%dx%d) shows every target under test with its verdict (%d: %s)" % (
             WIDTH, HEIGHT, len(rows), ", ".join(r[0] for r in rows)[:300]),
         "not in view or no verdict: %s; viewport %s" % (hidden, s["height"]))
    # reference builds in the report, but no range line for them, is a failure too
    c.ok(s["ref_rows"] == 0 and all(r[1] for r in s["ranges"])
         and bool(s["ranges"]) == bool(s["ref_builds"]),
         "of the reference the first screen has only its range lines (%s)" % (
             " | ".join(r[0] for r in s["ranges"]) or "no reference runs"),
         "per-build rows in view: %d of %d; ranges %s" % (s["ref_rows"], s["ref_builds"],
                                                           s["ranges"]))
    return s


def check_check_can_fail(c, browser):
    """The first-screen check is not vacuous: in a viewport too short for the verdicts it sees
    targets under test out of view, and with the reference unfolded it sees its builds' rows."""
    browser.size(200)
    s = browser.run(FIRST_SCREEN)
    browser.size(HEIGHT)
    c.ok(s["under"] and any(not r[2] for r in s["under"]),
         "in a %dx200 viewport the first-screen check sees targets out of view" % WIDTH)
    browser.run('document.querySelectorAll("#verdicts details.ref-range")'
                '.forEach(function (d) { d.open = true; });')
    s = browser.run(FIRST_SCREEN)
    c.ok(s["ref_rows"] > 0, "with the reference unfolded the first-screen check sees its "
         "builds' rows (%d)" % s["ref_rows"])


def check_programs(c, dom, scenario_targets):
    """The Programs affected section. scenario_targets: labels of the targets whose results
    hold client scenarios."""
    c.ok('<section id="programs">' in dom and '<h2>Programs affected</h2>' in dom,
         "Programs affected section rendered")
    if not scenario_targets:
        c.ok("No client-scenario cases" in dom, "Programs affected says there are no scenarios")
        return
    m = re.search(r'<table class="matrix" id="program-table">(.*?)</table>', dom, re.S)
    rows = re.findall(r'<tr class="prog-row">(.*?)</tr>', m.group(1), re.S) if m else []
    cells = [re.findall(r'<td class="cell c-[A-Za-z]+[^"]*"[^>]*><a href="#[^"]+">'
                        r'(works[^<]*|breaks at step \d+|breaks \(step unknown\)|not exercised)',
                        r) for r in rows]
    if not rows and NO_BREAK in dom:
        # a run where no program breaks (the reference alone): then no target counts a broken one
        counted = [t for t in scenario_targets
                   if re.search(r"[1-9]\d* broken", (programs_block(dom, t) or ("", ""))[0])]
        c.ok(not counted, "no program breaks on any target, and no target counts a broken "
             "program (%d targets with scenarios)" % len(scenario_targets),
             "counted: %s" % ", ".join(counted))
    else:
        c.ok(rows and all(any(x.startswith("breaks") for x in cs) for cs in cells),
             "program matrix has only programs that break somewhere (%d programs, %d cells)" % (
                 len(rows), sum(len(cs) for cs in cells)))
    for t in scenario_targets:
        blk = programs_block(dom, t)
        if not c.ok(blk is not None, "programs affected listed for %s" % t):
            continue
        head, body = blk
        n_broken = re.search(r"(\d+) broken", head)
        broken = re.findall(r'<tr id="p-\d+-\d+" class="prog-broken">', body)
        fails = re.findall(r"<td>(step (?:\d+|unknown)[^<]*)</td><td>(.*?)</td><td>(.*?)</td>"
                           r"</tr>", body)
        want = int(n_broken.group(1)) if n_broken else 0
        c.ok(len(broken) == want and len(fails) >= want
             and all(text(cons) for _, _, cons in fails),
             "%s: %d broken programs listed, each with its step and consequence (%s)" % (
                 t, want, head.split("\u2014")[-1].strip()))
        if "not exercised" in head:
            c.ok(re.search(r'<details class="not-run"><summary>\d+ programs? not exercised: '
                           r'[^<]+</summary>', body) is not None,
                 "%s: not exercised folded into one line with the reasons" % t)


def check_page(c, browser, path, shot, scenario_targets, hostile=False):
    """Opens path in a WIDTH x HEIGHT viewport (the report's inline script has run by its load
    event) and checks its DOM, its console messages and its screenshots: WIDTH x HEIGHT at
    shot, WIDTH x TALL beside it, down to the matrix, for people to look at."""
    try:
        browser.console()             # the messages of earlier pages are dropped
        browser.size(HEIGHT)
        browser.d.get("file://" + os.path.abspath(path))
        dom = browser.run("return document.documentElement.outerHTML")
        bad = browser.console()
    except browser.errors.WebDriverException as e:
        c.ok(False, "chromium opens the page and gives its DOM", str(e)[:500])
        return
    c.ok("<html" in dom, "chromium opens the page and gives its DOM", "no <html in %r" % dom[:200])
    c.ok(READY.search(dom) is not None, "page script ran to the end (ready marker)")
    c.ok(not bad, "no console messages", " | ".join(bad[:3]))
    m = re.search(r'id="f-count"[^>]*>showing (\d+) of (\d+) rows', dom)
    c.ok(m is not None and m.group(1) == m.group(2) and int(m.group(2)) > 0,
         "filters built by the script (f-count)")
    c.ok(re.search(r'<div class="filters" id="filters"(?! hidden)[^>]*>', dom) is not None,
         "filter bar shown")
    c.ok('id="matrix-table"' in dom and dom.count('class="cell ') > 0,
         "rule x target matrix rendered")
    fam = re.findall(r'<tr class="family-row">', dom)
    c.ok('id="family-table"' in dom and fam,
         "API family x target matrix rendered (%d families)" % len(fam))
    c.ok(dom.count('class="verdict-row') > 0 and 'class="verdict verdict-' in dom
         and "<h2>What breaks where</h2>" in dom, "verdicts rendered (What breaks where)")
    check_first_screen(c, browser)
    check_programs(c, dom, scenario_targets)
    if hostile:
        page = Page()
        page.feed(dom)
        injected = [(t, a) for t, a in page.tags if t in ("img", "svg", "iframe", "b", "i")
                    or any(k.startswith("on") for k, _ in a)]
        c.ok(not injected, "no element or handler injected from results strings",
             repr(injected[:3]))
        c.ok("<script>alert(1)</script>" in "".join(page.text), "injected markup shown as text")
        c.ok(len(page.scripts) == 1, "only the report's own script")
    shots = {}      # file: (height, the PNG's size or why there is none)
    for f, height in ((shot, HEIGHT), (shot.replace(".png", "-tall.png"), TALL)):
        try:
            browser.size(height)
            png = browser.d.get_screenshot_as_png()
            with open(f, "wb") as out:
                out.write(png)
            shots[f] = height, png_size(png)
        except (browser.errors.WebDriverException, OSError) as e:
            shots[f] = height, str(e)[:300]
    check_without_js(c, browser, path, scenario_targets)
    for f, (height, size) in shots.items():
        c.ok(size == (WIDTH, height), "screenshot %s" % f, "size %s" % (size,))


def check_without_js(c, browser, path, scenario_targets):
    """Without JavaScript the page is complete and the filters stay hidden: a copy of the page
    with its script taken out, parsed by the same browser's HTML parser (a DOMParser document,
    in which no script runs), without loading and laying out a second copy of the page."""
    with open(path, encoding="utf-8") as f:
        page = re.sub(r"<script>.*?</script>", "", f.read(), flags=re.S)
    try:
        dom, why = browser.run(NO_JS, page), ""
    except browser.errors.WebDriverException as e:
        dom, why = "", str(e)[:300]
    c.ok('class="verdict verdict-' in dom and 'id="matrix-table"' in dom
         and 'id="family-table"' in dom and READY.search(dom) is None
         and '<section id="programs">' in dom
         and ('id="program-table"' in dom) == bool(scenario_targets and NO_BREAK not in dom)
         and re.search(r'<div class="filters" id="filters" hidden', dom) is not None,
         "readable without JavaScript (filters hidden, content shown)", why)


def scenario_targets_of(page_path):
    """The targets of a written report whose results hold client scenarios (read from the page:
    the report names them in its programs section)."""
    with open(page_path, encoding="utf-8") as f:
        return [label for label, head, _ in program_blocks(f.read())
                if "no client scenarios" not in head]


def md_items(md):
    """The list items and paragraphs of Markdown text, each unwrapped to one line."""
    return [" ".join(l.strip() for l in b.splitlines())
            for b in re.split(r"\n(?=- )|\n\n", md)]


def check_build_summary(c, report_dir, targets):
    """summary.md of the build report: no line over MD_WIDTH columns but a single word (a URL),
    and Wine at win10's programs with their steps."""
    try:
        with open(os.path.join(report_dir, "summary.md"), encoding="utf-8") as f:
            md = f.read()
    except OSError as e:
        c.ok(False, "summary.md readable", str(e))
        return
    lines = md.splitlines()
    long_ = [l for l in lines if len(l) > MD_WIDTH and len(l.split()) > 1]
    c.ok(lines and not long_, "summary.md fits %d columns (%d lines)" % (
        MD_WIDTH, len(lines)), "%d longer lines, the first: %r" % (len(long_), long_[:1]))
    if not any(t.split(" ", 1)[0] == "wine@win10" for t in targets):
        c.skip("Wine at win10's programs", "no wine@win10 results with client "
               "scenarios in the build report (make wine, then make report)")
        return
    # the label has the arch (or file) after it when two runs share wine@win10 (make wine runs
    # both the x86_64 and the i686 build)
    m = re.search(r"^### `wine@win10(?: [^`]*)?`\n\n(.*)$", md, re.M)
    c.ok("## Programs affected" in md and m is not None,
         "summary.md lists Wine at win10's programs")
    if m and " broken" in m.group(1):
        c.ok(any(re.match(r"- \*\*.+\*\* .* breaks (at step \d+|\\\(step unknown\\\))", i)
                 for i in md_items(md[m.start():])),
             "summary.md gives each broken program's step")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    a = ap.parse_args(argv)
    build = os.path.join(REPO, a.build) if not os.path.isabs(a.build) else a.build
    c = Checks()
    sel, why = selenium()
    chromium = find("CHROMIUM", ("chromium", "chromium-browser", "google-chrome",
                                 "/usr/bin/chromium"))
    driver = find("CHROMEDRIVER", ("chromedriver", "/usr/bin/chromedriver"))
    missing = [w for w, ok in ((why, sel), ("no chromium", chromium),
                               ("no chromedriver", driver)) if not ok]
    if missing:
        print("browser: %s; run `sh .ci/deps.sh browser` (as root; `make test` installs it "
              "through TEST_DEPS)" % "; ".join(missing))
        c.ok(False, "selenium, chromium and chromedriver present", "; ".join(missing))
        print(c.summary())
        return 1
    report_dir, sample_dir, data = (os.path.join(build, *d) for d in (
        ("report",), ("test", "browser-report"), ("test", "browser-samples")))
    for d in (report_dir, sample_dir, data):
        os.makedirs(d, exist_ok=True)
    samples.write_all(data)
    # a TERM (a stage's time limit) still ends the driver's process group through the finally
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # the report renders in an interpreter started as this one (-S under make test) while
    # Chromium starts
    py = [sys.executable] + (["-S"] if sys.flags.no_site else [])
    render = subprocess.Popen(
        py + [os.path.join(REPORTS, "etwconf-report"), "report", "--out", sample_dir,
              "--programs", os.path.join(data, "programs.def"),
              "--expectations", os.path.join(data, "wine-expectations.json")]
        + [os.path.join(data, n) for n in SAMPLES],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser = None
    try:
        try:
            browser = Browser(sel, chromium, driver)
        except Exception as e:
            c.ok(False, "chromedriver starts headless Chromium", "%s: %s" % (
                type(e).__name__, str(e)[:500]))
        _, err = render.communicate(timeout=120)
        if browser is not None:
            pages(c, browser, report_dir, sample_dir, render.returncode, err)
    finally:
        if render.poll() is None:
            render.kill()
        if browser is not None:
            browser.close()
    print(c.summary())
    return 1 if c.counts["failed"] else 0


def pages(c, browser, report_dir, sample_dir, rc, err):
    """The sample report's page and, when there is one, the build report's, in one browser."""
    if c.ok(rc == 0, "render the sample report", err[-500:]):
        check_page(c.of("sample report"), browser, os.path.join(sample_dir, "index.html"),
                   os.path.join(report_dir, "sample-screenshot.png"),
                   ("reference@6.1", "reference@10.0", "wine@win7", "wine@win10",
                    "windows@10.0.19045"), hostile=True)
        check_check_can_fail(c.of("sample report"), browser)
    real = os.path.join(report_dir, "index.html")
    if os.path.exists(real):
        targets = scenario_targets_of(real)
        c = c.of("build report")
        check_page(c, browser, real, os.path.join(report_dir, "screenshot.png"), targets)
        check_build_summary(c, report_dir, targets)
    else:
        c.skip("build report", "%s not there yet (make run writes it)" % real)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Exception as e:      # one line, and still the summary line stages.sh looks for
        print("browser: internal error: %s: %s" % (type(e).__name__, e))
        print("browser: 0 passed, 1 failed, 0 skipped")
        sys.exit(1)
