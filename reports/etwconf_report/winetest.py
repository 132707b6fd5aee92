"""Wine's test formats from results files: `etwconf-report winetest` prints a run as a Wine
conformance test prints its checks, with an expectations file's known divergences as todo_wine
(each case's outcome is the one expectations.evaluate gives it, as in `check`); `winetest-todo`
lists those divergences for `etwconf export-wine --todo`, one line per case and NT version of the
version table: CASE VERSION STATUS MODE ("-": no mode). The formats and the exit status are in
README.md, "Wine's test formats".
"""
import os

from . import expectations
from .util import NT_WINE, display

TODO_SCHEMA = "etwconf-todo/1"


class _Unit:
    def __init__(self, name):
        self.name = name
        self.successes = self.failures = self.todo = self.todo_failures = self.skipped = 0


class Formatter:
    def __init__(self, out, debug=1, report_success=False, pid=None):
        self.out, self.debug, self.report_success = out, debug, report_success
        self.pid = os.getpid() if pid is None else pid
        self.status = 0
        self.unit = None

    def line(self, file, line, prefix, msg):
        msg = msg.replace("\r", " ").replace("\n", " ")
        self.out.write("%s:%d: %s%s\n" % (file, line, prefix, msg))

    def close(self):
        u = self.unit
        if u is None:
            return
        bad = u.failures + u.todo_failures
        if self.debug:
            self.out.write("%04x:%s: %d tests executed (%d marked as todo, 0 as flaky, %d %s), "
                           "%d skipped.\n" % (self.pid, u.name, u.successes + bad + u.todo, u.todo,
                                              bad, "failure" if bad == 1 else "failures",
                                              u.skipped))
        self.status += bad
        self.unit = None

    def checks(self, case, prefix):
        """Count the passing checks; print the failing ones with prefix (None: not printed).
        Returns the number of failing checks."""
        bad = 0
        for k in case.get("checks") or ():
            file, line = k.get("file") or case["file"], k.get("line") or case["line"]
            if k.get("ok"):
                self.unit.successes += 1
                if self.report_success:
                    self.line(file, line, "Test succeeded", "")
                continue
            bad += 1
            if prefix is not None:
                self.line(file, line, prefix, "%s [%s] %s: expected %s, got %s" % (
                    case["id"], display(k.get("rule")) or "?", display(k.get("what")) or "check",
                    display(k.get("expected")) or "a value", display(k.get("got"))))
        return bad

    def case(self, case, outcome, exp_path):
        name = os.path.splitext(os.path.basename(case["file"]))[0]
        if self.unit is None or self.unit.name != name:
            self.close()
            self.unit = _Unit(name)
        u, st, cid = self.unit, case["status"], case["id"]
        file, line = case["file"], case["line"]
        kind = outcome.kind if outcome else None
        entry = outcome.entry if outcome else None
        where = entry.where(exp_path) if entry and entry.line else exp_path
        # a known divergence is Wine's todo_wine, whose lines WINETEST_DEBUG=0 drops
        todo = "Test marked todo: " if self.debug > 0 else None
        if kind == "CHANGED" and self.debug > 0:
            self.line(file, line, "", "%s: %s lists it as %s; it ended %s"
                      % (cid, where, entry.describe(), st))
        reason = display(case.get("reason"))
        if st == "PASS":
            self.checks(case, None)
            if kind == "XPASS":
                u.successes = max(u.successes - 1, 0)
                u.todo_failures += 1
                self.line(file, line, "Test succeeded inside todo block: ",
                          "%s: %s lists it as %s (%s), but it passed"
                          % (cid, where, entry.describe(), entry.why))
        elif st in ("SKIP", "BROKEN"):
            tag = "BROKEN: " if st == "BROKEN" else ""
            if kind == "XFAIL" and st == "BROKEN":
                if todo:
                    self.line(file, line, todo, "%s: the fixture could not be set up: %s"
                              % (cid, reason))
                u.todo += 1
            elif kind == "CHANGED":
                self.line(file, line, "Test failed: ", "%s: %s%s" % (cid, tag, reason))
                u.failures += 1
            else:
                self.line(file, line, "Tests skipped: ", "%s: %s%s" % (cid, tag, reason))
                u.skipped += 1
        else:  # FAIL, CRASH, TIMEOUT: the failing checks, then a crash or timeout as one more
            prefix = todo if kind == "XFAIL" else "Test failed: "
            bad = self.checks(case, prefix)
            if st != "FAIL":
                bad += 1
                exc = display(case.get("exception")) or "?"
                what = ("unhandled exception %s in %s (caught; the run went on)" % (
                    exc[2:] if exc.startswith("0x") else exc,
                    display(case.get("function")) or "the call") if st == "CRASH"
                    else display(case.get("message")) or "timed out")
                if prefix:
                    self.line(file, line, prefix, "%s: %s" % (cid, what))
            if kind == "XFAIL":
                u.todo += bad
            else:
                u.failures += bad

    def run(self, run, exp):
        outcomes = expectations.evaluate(run, exp) if exp is not None else {}
        for case in run.cases:
            self.case(case, outcomes.get(case["id"]), exp.path if exp else "")
        self.close()


def write_runs(runs, exp, out, env=os.environ, warn=None):
    """Wine's output for each run; returns Wine's exit status."""
    try:
        debug = int(env.get("WINETEST_DEBUG", "1"))
    except ValueError:
        debug = 1
    f = Formatter(out, debug, env.get("WINETEST_REPORT_SUCCESS", "0") not in ("", "0"))
    for run in runs:
        x = exp if exp is not None and exp.applies_to(run) else None
        if exp is not None and x is None and warn:
            warn("%s is for target %s%s; %s is %s (%s): no known divergence applies, nothing is "
                 "todo" % (exp.path, exp.impl, "/" + exp.arch if exp.arch else "", run.path,
                           run.impl, run.arch or "?"))
        f.run(run, x)
    return min(f.status, 255)


def todo_lines(exp, wine=None):
    """The lines of `winetest-todo`: every entry that names an NT version of the table, per
    version, by case id; for Wine, the entries of Wine version `wine` (default: the
    newest the file lists, the Wine a tree's test goes into)."""
    out = ["# %s %s %s" % (TODO_SCHEMA, exp.impl, exp.path)]
    if exp.impl == "wine" and wine is None and exp.wines:
        wine = max(exp.wines, key=expectations.wine_key)
    for e in sorted(exp.entries, key=lambda e: e.case):
        if exp.impl == "wine" and not e.names_wine(wine):
            continue
        for nt, name in NT_WINE.items():
            run = expectations.version_run(exp.impl, name if exp.impl == "wine" else nt)
            if e.names_run(run, any_wine=True):
                line = "%s %s %s %s" % (e.case, nt, e.status, e.mode or "-")
                if line not in out:     # entries of several arches that differ in observed only
                    out.append(line)
    return out
