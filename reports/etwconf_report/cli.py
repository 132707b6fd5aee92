"""Command line: etwconf-report report | summary | diff | check | update-expectations |
calibrate | baseline | winetest | winetest-todo. Exit codes and the one-line errors on stderr:
reports/README.md, "Exit codes and errors".
"""
import argparse
import os
import sys
from collections import Counter

from . import __version__
from .ingest import InputError, load_many
from .util import oneline, plural, run_command, write_file

PROG = "etwconf-report"


class UsageError(Exception):
    pass


class _State:
    rc_on_pipe = 0      # exit code to use if stdout is closed early (`... | head`)


def _rc(rc):
    """A command's exit status, kept as the one to use if stdout is closed early."""
    _State.rc_on_pipe = rc
    return rc


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError("%s; see `%s --help`" % (message, self.prog))


def _err(msg):
    sys.stderr.write("%s: %s\n" % (PROG, oneline(msg, 2000)))


def _load_runs(paths, skip_bad=False):
    if not paths:
        raise UsageError("no results files given; run `make results` first, or pass "
                         "build/results/*.jsonl")
    errors = []
    runs = load_many(paths, skip_bad=True, errors=errors)
    if errors and not skip_bad:
        for e in errors[:-1]:          # every bad file gets its line; the last one is raised
            _err(str(e))
        raise errors[-1]
    for e in errors:
        _err("skipped: %s" % e)
    if not runs:
        raise InputError(paths[0], None, "no readable results files", "see the errors above")
    for r in runs:
        for w in r.warnings:
            _err("warning: %s" % w)
        if not r.complete:
            _err("warning: %s: incomplete run (%s); reported as INCOMPLETE"
                 % (r.path, r.incomplete_reason))
    return runs


def _load_exps(paths):
    from . import expectations
    return [expectations.load(p) for p in (paths or [])]


def _summaries(a, skip_bad=False):
    """The runs of a.results summarised, each evaluated against the first expectations file
    that applies to it: (summaries, catalogue, expectations, stale entries, known programs)."""
    from . import catalog, analysis, expectations
    runs = _load_runs(a.results, skip_bad)   # the results first: a bad file is named at once
    cat = catalog.load(a.rules)
    exps = _load_exps(a.expectations)
    stale = [(x, e, r) for x in exps for e, r in expectations.stale(runs, x)]
    outcomes = {}
    for r in runs:
        x = next((x for x in exps if x.applies_to(r)), None)
        if x is not None:
            outcomes[id(r)] = expectations.evaluate(r, x)
    known = _load_known(a.programs)
    return analysis.summarize(runs, cat, outcomes), cat, exps, stale, known


def _load_known(path):
    """spec/programs.def (or --programs FILE): the programs a run may not have exercised.
    Optional: without the default file the records alone are used; a named file must exist."""
    from . import programs
    if path == "":
        return programs.Known()
    try:
        known = programs.load_known(path, required=path is not None)
    except OSError as e:
        raise InputError(path, None, "cannot read the program list: %s" % (e.strerror or e),
                         "pass --programs spec/programs.def, or --programs '' for none")
    for p in known.problems:
        _err("warning: %s" % p)
    return known


# ------------------------------------------------------------------------------ subcommands
def cmd_report(a):
    from . import render_html, render_md, render_junit
    summaries, cat, exps, stale, known = _summaries(a, a.skip_bad)
    page = render_html.render(summaries, cat, exps, stale, title=a.title, known=known)
    md = render_md.render(summaries, cat, exps, stale, known=known)
    junit = render_junit.render(summaries, cat, exps, stale, known=known)
    try:
        os.makedirs(a.out, exist_ok=True)
        for name, text in (("index.html", page), ("summary.md", md), ("junit.xml", junit)):
            write_file(os.path.join(a.out, name), text)
    except OSError as e:
        raise InputError(a.out, None, "cannot write the report: %s" % (e.strerror or e),
                         "choose a writable --out directory")
    good = sum(1 for s in summaries if s.fully_conformant)
    bad = sum(1 for s in summaries if not s.conformant)
    inc = sum(1 for s in summaries if not s.run.complete)
    filt = sum(1 for s in summaries if s.scope)
    print("report: %s (%d conformant, %d not%s%s), %s; wrote %s, summary.md, junit.xml" % (
        plural(len(summaries), "target"), good, bad,
        ", %d incomplete" % inc if inc else "", ", %d filtered" % filt if filt else "",
        plural(sum(len(s.run.cases) for s in summaries), "case record"),
        os.path.join(a.out, "index.html")))
    return 0


def cmd_summary(a):
    from . import programs as P
    summaries, _, _, _, known = _summaries(a)
    tps = P.per_target(summaries, known)
    width = max(len(oneline(s.run.label, 60)) for s in summaries)
    pad = "%-*s  " % (width, "")
    for s in summaries:
        c = s.counts
        counts = ", ".join("%d %s" % (c[k], k) for k in
                           ("PASS", "FAIL", "CRASH", "TIMEOUT", "BROKEN", "SKIP") if c[k])
        line = "%-*s  %s  [%s%s]" % (width, oneline(s.run.label, 60), oneline(s.verdict),
                                     counts or "no cases",
                                     "" if s.run.complete else "; INCOMPLETE")
        if s.outcomes:
            k = s.kinds
            line += "  expectations: %d XFAIL%s" % (k.get("XFAIL", 0), "".join(
                ", %d %s" % (k[x], x) for x in ("XPASS", "CHANGED", "UNEXPECTED") if k.get(x)))
        print(line)
        if s.must_rules:
            print(pad + "failed MUST rules: " + oneline(" ".join(s.must_rules), 400))
        tp = tps[s.index]
        if tp.has_scenarios:
            print(pad + oneline(tp.headline()))
            for p in tp.with_state(P.BROKEN):
                for _, c in p.failing:
                    print(pad + "  broken: %s [%s]: %s (%s %s, %s)" % (
                        oneline(p.name, 80), oneline(p.id, 40), oneline(P.failure_line(c), 400),
                        oneline(c["id"], 80), c["status"],
                        "counted" if c["counted"] else "not counted"))
            rows = [("working", [p.name + (" (partly exercised)" if p.state == P.PARTIAL else "")
                                 for p in tp.with_state(P.WORKS, P.PARTIAL)])]
            rows += [("not exercised (%s)" % oneline(reason, 300),
                      ["%s [%s]" % (p.name, c["id"]) for p, c in pcs])
                     for reason, pcs in tp.not_run_by_reason()]
            rows.append(("no scenario in this run", [p.name for p in tp.with_state(P.ABSENT)]))
            for label, names in rows:
                if names:
                    print(pad + "  %s: %s" % (label, oneline(", ".join(names), 1000)))
    good = sum(1 for s in summaries if s.fully_conformant)
    bad = sum(1 for s in summaries if not s.conformant)
    inc = sum(1 for s in summaries if s.conformant and not s.run.complete)
    filt = sum(1 for s in summaries if s.conformant and s.run.complete and s.scope)
    print("summary: %s: %d conformant, %d not conformant%s%s" % (
        plural(len(summaries), "target"), good, bad,
        ", %d incomplete without failures" % inc if inc else "",
        ", %d filtered without failures (no verdict on the whole suite)" % filt if filt else ""))
    return 0


def cmd_diff(a):
    from . import diff
    for p in (a.old, a.new):
        if not os.path.exists(p):
            raise InputError(p, None, "no such file or directory", "pass two results files")
    import io
    buf = io.StringIO()
    rc = _rc(1 if diff.run_diff(a.old, a.new, buf, "json" if a.json else "text") else 0)
    sys.stdout.write(buf.getvalue())
    sys.stdout.flush()
    return rc


def cmd_check(a):
    from . import expectations
    runs = _load_runs(a.results)
    exps = _load_exps(a.expectations)
    passed = failed = skipped = 0
    checked = []
    for r in runs:
        x = next((x for x in exps if x.applies_to(r)), None)
        if x is None:
            print("check: note: %s (%s) not checked: no expectations for impl %s%s" % (
                oneline(r.label), oneline(r.path), oneline(r.impl),
                " arch %s" % oneline(r.arch) if r.arch else ""))
            continue
        checked.append((r, x))
    if not checked:
        raise InputError(a.expectations[0], None, "none of the results files is for target "
                         "impl %s%s" % (exps[0].impl, " arch %s" % exps[0].arch if exps[0].arch
                                        else ""),
                         "pass the results of that implementation")
    problems = []
    for r, x in checked:
        outs = expectations.evaluate(r, x)
        c = Counter(oc.kind for oc in outs.values())
        for oc in outs.values():
            line = "%-10s %s %s: %s" % (oc.kind, oneline(r.label), oneline(oc.case["id"]),
                                        oneline(oc.detail, 600 if oc.failed else 300))
            if oc.failed:
                problems.append(line)
            elif a.verbose and oc.kind == "XFAIL":
                print(line)
        p, f, sk = c["OK"] + c["XFAIL"], c["XPASS"] + c["CHANGED"] + c["UNEXPECTED"], c["SKIP"]
        passed, failed, skipped = passed + p, failed + f, skipped + sk
        print("check: %s (%s): %d passed (%d XFAIL), %d failed, %d skipped%s" % (
            oneline(r.label), oneline(r.path), p, c["XFAIL"], f, sk,
            ("" if r.complete else "; INCOMPLETE run (%s): stale entries not checked"
             % oneline(r.incomplete_reason, 300))
            + ("; filtered run, %s: stale entries not checked" % oneline(r.scope(), 200)
               if r.filtered else "")))
    for x in {id(x): x for _, x in checked}.values():
        for e, r in expectations.stale([r for r, xx in checked if xx is x], x):
            problems.append("%-10s %s %s: the entry names %s but the case is not in its "
                            "results; remove the entry or fix its case id or versions (%s)" % (
                                "STALE", oneline(r.label), oneline(e.case), oneline(r.version_name),
                                e.where(x.path)))
            failed += 1
        for e in expectations.unchecked_entries([r for r, _ in checked], x):
            if a.verbose:
                print("check: note: %s: entry for %s names no version that was run"
                      % (e.where(x.path), oneline(e.case)))
    rc = _rc(1 if failed else 0)
    for p in problems:
        print(p)
    print("expectations: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return rc


def cmd_update(a):
    from . import expectations
    runs = _load_runs(a.results)
    old = None
    if os.path.exists(a.out):
        old = expectations.load(a.out)
        if old.impl != a.impl:
            raise InputError(a.out, None, "is for impl %s, not %s" % (old.impl, a.impl),
                             "pass --impl %s or another --out" % old.impl)
    matching = [r for r in runs if r.impl == a.impl and (a.arch is None or r.arch == a.arch)]
    if not matching:
        raise InputError(a.results[0], None, "no results for impl %s%s among the files given"
                         % (a.impl, " arch %s" % a.arch if a.arch else ""),
                         "pass results of that implementation")
    for r in matching:
        if not r.complete or r.filtered:
            _err("warning: %s is %s; the entries of cases it did not run are kept as they were"
                 % (r.path, "incomplete" if not r.complete else "a filtered run (%s)" % r.scope()))
    doc = expectations.generate(runs, a.impl, a.arch, old)
    try:
        expectations.write(doc, a.out)
    except OSError as e:
        raise InputError(a.out, None, "cannot write: %s" % (e.strerror or e),
                         "choose a writable --out")
    todo = sum(1 for e in doc["entries"] if e["why"] == expectations.TODO_WHY)
    print("update-expectations: wrote %s: %s from %s (%d need a why: \"%s\")" % (
        a.out, plural(len(doc["entries"]), "entry", "entries"), plural(len(matching), "run"),
        todo, expectations.TODO_WHY))
    return 0


def cmd_calibrate(a):
    from . import catalog, calibrate
    runs = _load_runs(a.results)
    cat = catalog.load(a.rules)
    calibrate.calibrate(runs, cat, a.out_dir, not a.no_write, _err)
    return 0


def cmd_baseline(a):
    from . import calibrate
    if a.action == "init":
        return calibrate.baseline_init(a.dir, a.results)
    runs = _load_runs(a.results)
    if a.action == "update":
        return calibrate.baseline_update(runs, a.dir, _err)
    return _rc(calibrate.baseline_check(runs, a.dir, a.require, _err))


def cmd_winetest(a):
    from . import winetest
    runs = _load_runs(a.results)
    exp = _load_exps([a.expectations])[0] if a.expectations else None
    return _rc(winetest.write_runs(runs, exp, sys.stdout, warn=_err))


def cmd_winetest_todo(a):
    from . import winetest, expectations
    exp = _load_exps([a.expectations])[0]
    if a.wine is not None and expectations.wine_key(a.wine) is None:
        raise InputError(a.expectations, None, "--wine %s is not a Wine version" % a.wine,
                         "give the Wine version the test runs under, e.g. --wine 10.0")
    print("\n".join(winetest.todo_lines(exp, a.wine)))
    return 0


# ------------------------------------------------------------------------------ parser
def _opt(*names, **kw):
    return names, kw


RESULTS = _opt("results", nargs="*", metavar="RESULTS.jsonl")
RULES = _opt("--rules", metavar="RULES.def", help="rule catalogue (default: spec/rules.def)")
EXPS = _opt("--expectations", action="append", metavar="FILE")
BASELINE_DIR = _opt("--dir", default="baselines/windows", metavar="DIR",
                    help="the baselines (default: baselines/windows)")

# name ("baseline ACTION": an action of baseline), function, help, description, arguments
COMMANDS = (
    ("report", cmd_report, "write index.html, summary.md and junit.xml",
     "Write an HTML report (index.html), a Markdown summary (summary.md) and JUnit XML "
     "(junit.xml) for one or more results files.",
     [RESULTS,
      _opt("--out", default="build/report", metavar="DIR",
           help="output directory (default: build/report)"),
      _opt("--expectations", action="append", metavar="FILE",
           help="known-failure file; shows XFAIL/XPASS (may be repeated)"),
      RULES, _opt("--title", default="etwconf conformance report"),
      _opt("--programs", metavar="PROGRAMS.def", help="program list for the programs-affected "
           "section (default: spec/programs.def when it exists; '' for none)"),
      _opt("--skip-bad", action="store_true", help="leave out unreadable results files (with an "
           "error line) instead of stopping")]),
    ("summary", cmd_summary, "print a short text summary",
     "Print one line per target: verdict and counts; then the failed MUST rules and, for runs "
     "with client scenarios, the programs affected (broken at which step and what the program "
     "does then, working, not exercised).",
     [RESULTS, EXPS, RULES,
      _opt("--programs", metavar="PROGRAMS.def",
           help="program list (default: spec/programs.def when it exists; '' for none)")]),
    ("diff", cmd_diff, "cases that changed status between two runs",
     "List the cases whose status changed between OLD and NEW (regressions first), and the "
     "cases added or removed; for client scenarios, the programs the change breaks or fixes. "
     "OLD and NEW are results files, or directories of them (targets paired by target_id). "
     "Exit 1 when there is a regression (a program broken is one).",
     [_opt("old", metavar="OLD"), _opt("new", metavar="NEW"),
      _opt("--json", action="store_true", help="machine-readable output")]),
    ("check", cmd_check, "check results against an expectations file",
     "Check results against known-failure files: XFAIL is fine; XPASS, CHANGED, UNEXPECTED and "
     "STALE are failures (exit 1).",
     [RESULTS, _opt("--expectations", action="append", required=True, metavar="FILE"),
      _opt("-v", "--verbose", action="store_true", help="also list XFAILs")]),
    ("update-expectations", cmd_update, "write an expectations file from results",
     "Write (or rewrite) an expectations file from results: one entry per failing case, "
     "versions merged. Entries of an existing --out file that still match keep their why, "
     "observed and extra keys; versions that were not run are kept. New entries get why "
     "\"TODO: explain\".",
     [RESULTS, _opt("--impl", required=True, help="implementation (e.g. wine)"),
      _opt("--arch", help="only runs of this arch (target.arch)"),
      _opt("--out", required=True, metavar="FILE")]),
    ("calibrate", cmd_calibrate, "what real Windows runs say about each rule",
     "For runs on real Windows (target.impl windows): print per rule and machine kind (build, "
     "product type, arch) whether the run confirmed it, contradicted it or did not exercise "
     "it; list the OBSERVED and INFERRED rules confirmed (promotion candidates) and the "
     "counted rules contradicted; write one expectations file per machine kind into --out-dir "
     "(accepted by `check`; an existing file keeps its whys).",
     [RESULTS, _opt("--out-dir", default="build/calibrate", metavar="DIR",
                    help="where the per-build expectation files go (default: build/calibrate)"),
      _opt("--no-write", action="store_true", help="only print"), RULES]),
    ("baseline", cmd_baseline, "per-build baselines of real Windows: check, update",
     "Baselines of real Windows, one file per machine kind (build, product type, arch): "
     "DIR/KIND.json, in the expectations format. See `%s baseline ACTION --help`." % PROG, []),
    ("baseline check", cmd_baseline, "compare runs with their baselines (exit 1 on a regression)",
     "Compare runs on real Windows with the baseline of their machine kind: a case that fails "
     "where the baseline has no entry, or fails differently, is a regression (exit 1), as is an "
     "incomplete run. A kind without a baseline (or with no run folded in yet) is reported, and "
     "is a failure only with --require. A case that now passes is reported (fold it in with "
     "update).",
     [RESULTS, BASELINE_DIR,
      _opt("--require", action="store_true", help="a run without a baseline is a failure")]),
    ("baseline update", cmd_baseline, "fold complete runs into their baselines",
     "Fold complete runs on real Windows into the baselines of their machine kinds (written "
     "when missing; entries that still match keep their why).", [RESULTS, BASELINE_DIR]),
    ("baseline init", cmd_baseline, "write empty placeholders",
     "Write an empty baseline (no run folded in) for each VERSION,PRODUCT_TYPE,ARCH"
     "[,NATIVE_ARCH], e.g. 10.0.20348,server,i686,x86_64.",
     [_opt("results", nargs="*", metavar="KIND"), BASELINE_DIR]),
    ("winetest", cmd_winetest, "print results in Wine's test output format",
     "Print the results as a Wine conformance test prints them (file:line: Test failed: ..., "
     "a closing line per case file), known divergences of --expectations as todo_wine. Exit "
     "status: Wine's (failures plus successes inside todo blocks, at most 255). "
     "WINETEST_DEBUG=0 and WINETEST_REPORT_SUCCESS=1 work as in Wine.",
     [RESULTS, _opt("--expectations", metavar="FILE", help="known divergences "
                    "(reports/expectations/wine.json for Wine)")]),
    ("winetest-todo", cmd_winetest_todo, "known divergences for etwconf export-wine --todo",
     "Print the entries of an expectations file per case and NT version (CASE VERSION STATUS "
     "MODE), the input of `etwconf export-wine --todo FILE`.",
     [_opt("expectations", metavar="EXPECTATIONS.json"),
      _opt("--wine", metavar="VERSION", help="the Wine version whose divergences to list "
           "(default: the newest of the file's wine_versions, the Wine a tree's test goes "
           "into)")]),
)


def build_parser():
    p = Parser(prog=PROG, description="Reports, diffs and expectation checks for etwconf "
               "results files (JSON Lines, schema etwconf-results/1).",
               epilog="Exit codes: 0 ok; 1 regression (diff) or expectation failure (check); "
               "2 bad input or usage; 3 internal error. See reports/README.md.")
    p.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    subs = {"": p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)}
    for name, fn, hlp, desc, args in COMMANDS:     # "baseline check": an action of baseline
        parent, _, leaf = name.rpartition(" ")
        if parent not in subs:
            subs[parent] = subs[""].choices[parent].add_subparsers(
                dest="action", metavar="ACTION", parser_class=Parser, required=True)
        c = subs[parent].add_parser(leaf, help=hlp, description=desc)
        for names, kw in args:
            c.add_argument(*names, **kw)
        c.set_defaults(fn=fn)
    return p


def main(argv=None):
    return run_command(PROG, build_parser, sys.argv[1:] if argv is None else argv,
                       (UsageError, InputError), rc_on_pipe=lambda: _State.rc_on_pipe)
