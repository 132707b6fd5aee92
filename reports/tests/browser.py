#!/usr/bin/env python3
"""The browser stage: open rendered reports in headless Chromium (Debian's chromium).

Checks that the matrix and the verdicts render, the "Programs affected" section and the scenario
view (programs x targets) too, that the page's script ran to the end with no console message
(errors, CSP violations), that markup planted in a results file stays text, and that the page
still reads with JavaScript off. For the build report: when its results hold client scenarios
(make wine, make run), every such target has its programs listed, Wine at win10 included, and
summary.md beside it has them too. One Chromium serves the whole stage: it is driven over the
DevTools protocol on a pipe (--remote-debugging-pipe), every answer awaited with a deadline, and
its process group is killed at the end. Screenshots are kept in BUILD/report/:
  sample-screenshot.png  the report of reports/tests/data (always; -tall.png: 1400x3200)
  screenshot.png         BUILD/report/index.html, when `make run`/`make report` made one
The last line is "browser: N passed, N failed, N skipped"; exit 1 when a check failed.
Usage: browser.py [--build BUILD]
"""
import argparse
import base64
import fcntl
import html.parser
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.dirname(HERE)
REPO = os.path.dirname(REPORTS)
DATA = os.path.join(HERE, "data")
SAMPLES = ["reference-6.1.jsonl", "reference-10.0.jsonl", "wine-win7.jsonl", "wine-win10.jsonl",
           "windows-10.0.19045.jsonl", "truncated.jsonl", "hostile.jsonl"]
# One Chromium for the whole stage, driven over the DevTools protocol on a pipe. Flags: no
# network, no profile work, and none of the browser UI that new-headless Chrome otherwise loads
# in renderers of its own (the omnibox popup's WebUI, the New Tab page): the stage's CPU is
# Chromium's startup plus the pages it is asked to open.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-component-extensions-with-background-pages",
         "--disable-default-apps", "--disable-breakpad", "--disable-client-side-phishing-detection",
         "--no-default-browser-check", "--password-store=basic", "--metrics-recording-only",
         "--mute-audio", "--hide-scrollbars",
         "--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup"]
TIMEOUT = 60          # seconds for any one answer from Chromium
WIDTH, HEIGHT, TALL = 1400, 1000, 3200
# the element the report's script appends last (the script's own text, which names it too,
# is not the element)
READY = re.compile(r'<div id="etwconf-js-ready"[^>]*>ready</div>')


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


class BrowserError(Exception):
    """Chromium died, stopped answering, or answered a command with an error."""


class Chromium:
    """One headless Chromium over --remote-debugging-pipe: it reads JSON commands, each ended by
    a NUL byte, from its fd 3 and writes answers and events the same way to its fd 4. Every read
    has a deadline; once Chromium has died or missed one, every later command fails at once with
    that reason. close() ends its process group and removes its user-data-dir."""

    def __init__(self, exe, timeout=TIMEOUT):
        self.timeout, self.dead, self.proc = timeout, None, None
        self.buf, self.scanned, self.next_id, self.events = bytearray(), 0, 0, []
        self.session = None
        self.udd = tempfile.mkdtemp(prefix="etwconf-chromium-")
        self.err = tempfile.TemporaryFile()
        c_in, self.wfd = os.pipe()          # our commands: Chromium's fd 3
        self.rfd, c_out = os.pipe()         # its answers and events: Chromium's fd 4
        # bash puts Chromium's ends on fds 3 and 4 (they are moved above 9 first, so that no
        # move clobbers another; dash takes no fd above 9); Debian's launcher script execs the
        # browser, which keeps them. Our ends are not inherited (Python's fds are close-on-exec).
        hi = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (c_in, c_out)]
        for fd in (c_in, c_out):
            os.close(fd)
        shell = 'exec "$@" 3<&%d 4>&%d %d<&- %d>&-' % (hi[0], hi[1], hi[0], hi[1])
        cmd = (["/bin/bash", "-c", shell, "bash", exe] + FLAGS
               + ["--remote-debugging-pipe", "--user-data-dir=" + self.udd, "about:blank"])
        try:
            self.proc = subprocess.Popen(cmd, pass_fds=hi, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=self.err,
                                         start_new_session=True)
        except OSError as e:
            self.dead = "cannot start %s: %s" % (exe, e)
        finally:
            for fd in hi:
                os.close(fd)

    def _start(self):
        """Opens the tab the pages are shown in (once; the launch does not wait for it)."""
        if self.session or self.dead:
            return
        try:
            target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.send("Target.attachToTarget",
                                     {"targetId": target, "flatten": True})["sessionId"]
            for method in ("Page.enable", "Runtime.enable", "Log.enable"):
                self.send(method)
            self.send("Page.setLifecycleEventsEnabled", {"enabled": True})
        except BrowserError as e:
            self._fail("Chromium did not open a tab for the pages: %s" % e)

    def _fail(self, why):
        if self.dead is None:
            rc = self.proc.poll() if self.proc else None
            self.dead = why + ("" if rc is None else " (Chromium exited with status %s)" % rc)
        raise BrowserError(self.dead)

    def _write(self, data, deadline):
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [self.wfd], [], left)[1]:
                self._fail("Chromium did not read its commands for %d s" % self.timeout)
            try:
                data = data[os.write(self.wfd, data):]
            except OSError as e:
                self._fail("cannot write to Chromium's DevTools pipe: %s" % e)

    def _read(self, deadline, waiting_for):
        """The next message from Chromium (an answer or an event)."""
        while True:
            end = self.buf.find(b"\0", self.scanned)
            if end >= 0:
                raw = bytes(self.buf[:end])
                del self.buf[:end + 1]
                self.scanned = 0
                try:
                    return json.loads(raw)
                except ValueError as e:
                    self._fail("Chromium sent a message that is not JSON (%s): %r" % (e, raw[:200]))
            self.scanned = len(self.buf)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.rfd], [], [], left)[0]:
                self._fail("no %s from Chromium within %d s" % (waiting_for, self.timeout))
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                self._fail("Chromium closed its DevTools pipe while we waited for %s"
                           % waiting_for)
            self.buf += chunk

    def send(self, method, params=None):
        """Runs one command (on the page's session once there is one); returns its result."""
        if self.dead:
            raise BrowserError(self.dead)
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        deadline = time.monotonic() + self.timeout
        self._write(json.dumps(msg).encode("utf-8") + b"\0", deadline)
        while True:
            m = self._read(deadline, "answer to " + method)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise BrowserError("%s: %s" % (method, m["error"].get("message", m["error"])))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, what, pred):
        """Waits for an event for which pred(event) holds; earlier events are kept."""
        if self.dead:
            raise BrowserError(self.dead)
        for e in self.events:
            if pred(e):
                return e
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read(deadline, what)
            if "method" in m:
                self.events.append(m)
                if pred(m):
                    return m

    def size(self, height):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def open(self, url):
        """Navigates the page to url and waits for its load event (as --dump-dom did: the
        report's inline script has run by then). Forgets the previous page's events."""
        self._start()
        self.size(HEIGHT)
        self.events = []
        nav = self.send("Page.navigate", {"url": url})
        if nav.get("errorText"):
            raise BrowserError("cannot open %s: %s" % (url, nav["errorText"]))
        loader = nav.get("loaderId")
        self.wait_event("load event of " + url, lambda e: e["method"] == "Page.lifecycleEvent"
                        and e["params"].get("name") == "load"
                        and e["params"].get("loaderId") == loader)

    def dom(self):
        r = self.send("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                           "returnByValue": True})
        if "exceptionDetails" in r:
            raise BrowserError("reading the DOM failed: %s" % r["exceptionDetails"].get("text"))
        return r["result"].get("value", "")

    def screenshot(self, path, height):
        """The viewport, WIDTH x height, as a PNG file at path."""
        self.size(height)
        data = self.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        with open(path, "wb") as f:
            f.write(base64.b64decode(data["data"]))

    def console(self):
        """The console messages and page errors of the page opened last, one line each."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", a.get("type"))))
                                for a in p.get("args", []))
                out.append("console.%s: %s" % (p.get("type"), text))
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("uncaught: %s %s" % (d.get("text", ""),
                                                d.get("exception", {}).get("description", "")))
            elif m == "Log.entryAdded":
                entry = p.get("entry", {})
                out.append("%s %s: %s (%s)" % (entry.get("source"), entry.get("level"),
                                               entry.get("text"), entry.get("url", "")))
        return out

    def stderr_tail(self, n=500):
        """The end of Chromium's stderr, without its complaints about the missing D-Bus."""
        try:
            self.err.seek(0, os.SEEK_END)
            self.err.seek(max(0, self.err.tell() - 64 * 1024))
            text = self.err.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        return "\n".join(l for l in text.splitlines() if "dbus/" not in l)[-n:]

    def close(self):
        if self.proc:
            _kill_group(self.proc.pid)     # helpers (zygote, gpu) that outlived the browser
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for fd in (self.rfd, self.wfd):
            try:
                os.close(fd)
            except OSError:
                pass
        self.err.close()
        shutil.rmtree(self.udd, ignore_errors=True)


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


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
        if _heading_label(m.group(1)) == target:
            return re.sub(r"<[^>]+>", "", m.group(1)), m.group(2)
    return None


def _heading_label(h3):
    """A programs heading's target label: "wine@win10", or "wine@win10 (x86_64)" when two runs
    share the target (the muted text after it is the summary)."""
    return re.sub(r"<[^>]+>", "", h3.split('<span class="muted">', 1)[0]).strip()


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


def visit(c, browser, path, label, shot):
    """Opens path in the browser: its DOM, its screenshots (WIDTH x HEIGHT at shot, WIDTH x TALL
    beside it) and its console messages. Returns (dom, console, {screenshot: error or None}),
    or None when the page could not be opened and read (a failed check says why)."""
    for f in (shot, _tall(shot)):
        if os.path.exists(f):
            os.unlink(f)
    try:
        browser.open("file://" + os.path.abspath(path))
        dom = browser.dom()
    except BrowserError as e:
        c.ok(False, "%s: chromium opens the page and dumps its DOM" % label,
             "%s; stderr tail: %s" % (e, browser.stderr_tail()))
        return None
    c.ok("<html" in dom, "%s: chromium opens the page and dumps its DOM" % label,
         "no <html in %r" % dom[:200])
    errors = {}
    for f, height in ((shot, HEIGHT), (_tall(shot), TALL)):
        try:
            browser.screenshot(f, height)
            errors[f] = None
        except BrowserError as e:
            errors[f] = str(e)
    return dom, browser.console(), errors


def _tall(shot):
    return shot.replace(".png", "-tall.png")      # down to the matrix, for people to look at


def check_page(c, browser, path, label, shot, must=(), hostile=False, scenario_targets=(),
               expect_programs=None):
    got = visit(c, browser, path, label, shot)
    if got is None:
        return
    dom, bad, shot_errors = got
    c.ok(READY.search(dom) is not None, "%s: page script ran to the end (ready marker)" % label)
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
    if hostile:
        tags = Tags()
        tags.feed(dom)
        injected = [(t, a) for t, a in tags.tags if t in ("img", "svg", "iframe", "b", "i")
                    or any(k.startswith("on") for k, _ in a)]
        c.ok(not injected, "%s: no element or handler injected from results strings" % label,
             repr(injected[:3]))
        c.ok("<script>alert(1)</script>" in "".join(tags.text),
             "%s: injected markup shown as text" % label)
        c.ok(sum(1 for t, _ in tags.tags if t == "script") == 1,
             "%s: only the report's own script" % label)
    # Without JavaScript the page is complete and the filters stay hidden: a copy of the page
    # with its script taken out is opened in the same browser.
    with open(path, encoding="utf-8") as f:
        page = f.read()
    nojs_dir = tempfile.mkdtemp(prefix="etwconf-nojs-")
    try:
        nojs = os.path.join(nojs_dir, "index.html")
        with open(nojs, "w", encoding="utf-8") as f:
            f.write(re.sub(r"<script>.*?</script>", "", page, flags=re.S))
        browser.open("file://" + nojs)
        dom2, why = browser.dom(), ""
    except BrowserError as e:
        dom2, why = "", str(e)
    finally:
        shutil.rmtree(nojs_dir, ignore_errors=True)
    c.ok('class="verdict verdict-' in dom2 and 'id="matrix-table"' in dom2
         and READY.search(dom2) is None and '<section id="programs">' in dom2
         and ('id="scenario-table"' in dom2) == bool(scenario_targets)
         and re.search(r'<div class="filters" id="filters" hidden', dom2) is not None,
         "%s: readable without JavaScript (filters hidden, content shown)" % label, why)
    for f, height in ((shot, HEIGHT), (_tall(shot), TALL)):
        size = png_size(f) if os.path.exists(f) else None
        c.ok(size == (WIDTH, height), "%s: screenshot %s" % (label, f),
             "size %s %s" % (size, shot_errors[f] or ""))


def scenario_targets_of(page_path):
    """The targets of a written report whose results hold client scenarios (read from the page:
    the report names them in its programs section)."""
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    out = []
    for m in re.finditer(r'<h3 id="programs-\d+">(.*?)</h3>', page, re.S):
        if "no client scenarios" not in m.group(1):
            out.append(_heading_label(m.group(1)))
    return out


def check_build_summary(c, report_dir, targets):
    """summary.md of the build report: Wine at win10's programs with step and consequence."""
    if not any(t.split(" ", 1)[0] == "wine@win10" for t in targets):
        c.skip("build report: Wine at win10's programs", "no wine@win10 results with client "
               "scenarios in the build report (make wine, then make report)")
        return
    try:
        with open(os.path.join(report_dir, "summary.md"), encoding="utf-8") as f:
            md = f.read()
    except OSError as e:
        c.ok(False, "build report: summary.md readable", str(e))
        return
    # the label has the arch (or file) after it when two runs share wine@win10 (make wine runs
    # both the x86_64 and the i686 build)
    m = re.search(r"^### `wine@win10(?: [^`]*)?`: (.*)$", md, re.M)
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
    # Chromium starts while the sample report is written; a TERM (a stage's time limit) still
    # ends its process group through the finally below
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    browser = Chromium(exe)
    try:
        # the report renders in an interpreter started as this one (-S under make test)
        py = [sys.executable] + (["-S"] if sys.flags.no_site else [])
        p = subprocess.run(py + [os.path.join(REPORTS, "etwconf-report"), "report",
                            "--out", sample_dir, "--programs", os.path.join(DATA, "programs.def"),
                            "--expectations", os.path.join(DATA, "wine-expectations.json")]
                           + [os.path.join(DATA, n) for n in SAMPLES],
                           capture_output=True, text=True, timeout=120)
        pages(c, browser, build, report_dir, sample_dir, p)
    finally:
        browser.close()
    print("browser: %d passed, %d failed, %d skipped" % (c.passed, c.failed, c.skipped))
    return 1 if c.failed else 0


def pages(c, browser, build, report_dir, sample_dir, p):
    """The sample report's page and, when there is one, the build report's, in one browser."""
    if c.ok(p.returncode == 0, "render the sample report", p.stderr[-500:]):
        check_page(c, browser, os.path.join(sample_dir, "index.html"), "sample report",
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
        check_page(c, browser, real, "build report", os.path.join(report_dir, "screenshot.png"),
                   must=("Verdicts per target",), scenario_targets=targets)
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
