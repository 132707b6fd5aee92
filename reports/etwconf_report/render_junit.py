"""junit.xml: one <testsuite> per target, one <testcase> per case record; the mapping of
statuses and expectation outcomes is in reports/README.md, "report". Written with xml.etree.
"""
import xml.etree.ElementTree as ET

from . import programs as P
from .analysis import failing_checks
from .util import BAD, display, shorten


def _t(value, limit=8000):
    return shorten(display(value), limit)


def _secs(us):
    if isinstance(us, (int, float)) and not isinstance(us, bool) and us >= 0:
        return "%.6f" % (us / 1e6)
    return "0"


def _details(case):
    lines = []
    if case.get("title"):
        lines.append(_t(case["title"]))
    loc = case.get("file") or "?"
    if case.get("line") is not None:
        loc += ":%d" % case["line"]
    lines.append("case: %s (%s)" % (case["id"], loc))
    if P.is_scenario(case):
        prog = case["program"]
        lines.append("program: %s (%s)%s" % (_t(prog.get("name") or prog["id"], 500),
                                             _t(prog["id"], 200), (", source: %s" % _t(
                                                 prog["source"], 500)) if prog.get("source")
                                             else ""))
        if case["status"] in BAD:
            step, what, cons = P.failure_parts(case)
            lines.append("%s: %s" % (step, _t(what or "(call not recorded)", 1000)))
            lines.append("then: %s" % _t(cons, 1000))
    if case.get("function"):
        lines.append("function: %s" % case["function"])
    if case.get("message"):
        lines.append("message: %s" % _t(case["message"]))
    if case.get("exception"):
        lines.append("exception: %s" % _t(case["exception"]))
    for c in case["checks"]:
        lines.append("%s %s [%s]: expected %s, got %s" % (
            "ok  " if c.get("ok") else "FAIL", _t(c.get("what")), _t(c.get("rule")),
            _t(c.get("expected")), _t(c.get("got"))))
    if case["rules"]:
        lines.append("rules: %s" % " ".join(case["rules"]))
    if case.get("rerun"):
        lines.append("rerun: %s" % _t(case["rerun"]))
    return "\n".join(lines)


def _message(case):
    fc = failing_checks(case)
    if case["status"] == "CRASH":
        msg = "CRASH %s %s" % (_t(case.get("exception") or "?", 200),
                               _t(case.get("message") or "", 500))
    elif fc:
        c = fc[0]
        msg = "%s: expected %s, got %s" % (_t(c.get("what") or "check", 200),
                                           _t(c.get("expected"), 500), _t(c.get("got"), 500))
    else:
        msg = _t(case.get("message") or case["status"], 1000)
    if P.is_scenario(case) and case["status"] in BAD:
        prog = case["program"]
        msg = "%s breaks at %s -- %s" % (_t(prog.get("name") or prog["id"], 200),
                                         _t(P.failure_line(case), 1000), msg)
    return msg


def _result(case, oc):
    """What a testcase holds: (tag, message, type or None, with details), None for a pass."""
    st, kind = case["status"], oc.kind if oc is not None else None
    if kind == "XFAIL":
        return "skipped", "expected failure (%s): %s" % (st, oc.detail), None, False
    if kind == "XPASS":
        return "failure", "XPASS: " + oc.detail, "XPASS", True
    if st in ("FAIL", "CRASH", "TIMEOUT", "BROKEN"):
        msg = _message(case)
        if st == "FAIL" and not case["counted"]:
            msg = "[not counted] " + msg
        if kind == "CHANGED":
            msg = "CHANGED: " + oc.detail + " -- " + msg
        if st == "FAIL":
            return "failure", msg, _t(case.get("mode") or "FAIL", 100), True
        return "error", msg, st, True
    if st == "SKIP" and kind == "CHANGED":
        return "failure", "CHANGED: " + oc.detail, "CHANGED", True
    if st == "SKIP":
        return "skipped", case.get("reason") or "skipped", None, False
    return None


def _count(el, testcases, seconds):
    """el's tests, failures, errors and skipped (what its testcases hold) and time."""
    tags = [c.tag for tc in testcases for c in tc]
    el.set("tests", str(len(testcases)))
    for attr, tag in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
        el.set(attr, str(tags.count(tag)))
    el.set("time", "%.6f" % seconds)


def render(summaries, catalog=None, exps=(), stale=None, known=None):
    known = known if known is not None else P.Known()
    tps = P.per_target(summaries, known)
    root = ET.Element("testsuites", name="etwconf")
    t_time = 0.0
    for s in summaries:
        run = s.run
        suite = ET.SubElement(root, "testsuite", name=run.label)
        props = [("target_id", run.target_id), ("results_file", run.path),
                 ("complete", "true" if run.complete else "false"), ("verdict", s.verdict)]
        props += [("filtered", s.scope)] if s.scope else []
        props += [("target.%s" % k, v) for k, v in sorted(run.target.items())]
        props += [("fingerprint.%s" % k, v)
                  for k, v in sorted((run.header.get("fingerprint") or {}).items())]
        tp = tps[s.index]
        if tp.has_scenarios:     # programs affected: program.<id> = broken: step N ... / works
            props.append(("programs", tp.headline()))
            for p in tp.programs:
                props += [("program.%s" % p.id, p.value()), ("program.%s.name" % p.id, p.name)]
        el = ET.SubElement(suite, "properties")
        for k, v in props:
            ET.SubElement(el, "property", name=k, value=_t(v, 2000))
        # CI tools split classnames at dots: keep the target one component
        cls_target = run.target_id.replace(".", "_")
        dur = 0.0
        for case in run.cases:
            tc = ET.SubElement(suite, "testcase", name=case["id"],
                               classname="etwconf.%s.%s" % (cls_target,
                                                           case.get("function") or "case"),
                               time=_secs(case.get("duration_us")))
            if case.get("file"):
                tc.set("file", case["file"])
            if case.get("line") is not None:
                tc.set("line", str(case["line"]))
            if isinstance(case.get("duration_us"), (int, float)):
                dur += max(case["duration_us"], 0) / 1e6
            res = _result(case, s.outcomes.get(case["id"]))
            if res:
                tag, msg, kind, details = res
                el = ET.SubElement(tc, tag, message=_t(msg, 1000))
                if kind:
                    el.set("type", kind)
                if details:
                    el.text = _details(case)
        if not run.complete:
            tc = ET.SubElement(suite, "testcase", name="(run incomplete)",
                               classname="etwconf.%s" % cls_target, time="0")
            ET.SubElement(tc, "error", message=_t(run.incomplete_reason, 1000), type="INCOMPLETE")
        for (x, e, r) in (stale or []):
            if r is run:
                tc = ET.SubElement(suite, "testcase", name=e.case,
                                   classname="etwconf.%s.expectations" % cls_target, time="0")
                ET.SubElement(tc, "failure", type="STALE", message=_t(
                    "STALE: the expectation entry (%s) names this target but the case is not "
                    "in its results" % e.where(x.path), 1000))
        _count(suite, suite.findall("testcase"), dur)
        started = run.header.get("started")
        if isinstance(started, str):
            suite.set("timestamp", started)
        t_time += dur
    _count(root, list(root.iter("testcase")), t_time)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"
