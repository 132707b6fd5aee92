"""Which cases changed status between two runs (same implementation, two versions or builds),
and the programs the change breaks or fixes: reports/README.md, "diff OLD NEW", says which
change is a regression (exit status 1).
"""
import glob
import json
import os
from collections import Counter, namedtuple

from . import programs as P
from .ingest import InputError, load, label_runs
from .util import BAD, ERRORS, oneline, display, plural
from .analysis import failing_checks

# the kinds of change, in the order they are printed, and their titles
TITLES = {
    "regression": "regressions",
    "fixed": "fixed",
    "changed": "other status changes",
    "detail": "same status, different failure",
    "added": "added cases (only in NEW)",
    "removed": "removed cases (only in OLD)",
    "not-run": "not run in NEW (NEW is incomplete)",
}
KINDS = tuple(TITLES)


def classify(old, new):
    if old == new:
        return None
    if new in BAD and (old not in BAD or (old == "FAIL" and new in ERRORS)):
        return "regression"
    if old in BAD and new == "PASS":
        return "fixed"
    return "changed"


def failure_signature(case):
    fc = failing_checks(case)
    return (case["status"], case.get("mode"), case.get("counted"),
            tuple(sorted(case["failed_rules"])), case.get("exception"),
            tuple((c.get("what"), display(c.get("got"))) for c in fc),
            case.get("step"), case.get("consequence"))


def short_failure(case):
    """What went wrong, in one line; a failing scenario's starts with its step."""
    st, fc = case["status"], failing_checks(case)
    if st == "PASS":
        s = ""
    elif st == "SKIP":
        s = case.get("reason") or ""
    elif st == "CRASH":
        s = "exception %s%s" % (case.get("exception") or "?",
                                ": " + case["message"] if case.get("message") else "")
    elif fc:
        s = "%s: expected %s, got %s" % (display(fc[0].get("what")) or "check",
                                         display(fc[0].get("expected")), display(fc[0].get("got")))
    else:
        s = display(case.get("message"))
    if P.is_scenario(case) and st in BAD:
        return "%s; %s" % (P.failure_line(case), s) if s else P.failure_line(case)
    return s


class Change(namedtuple("Change", "kind id old new")):
    """A case that changed: its kind (KINDS), its id, its records in OLD and NEW (or None)."""

    def as_dict(self):
        rec = self.new or self.old
        d = {"kind": self.kind, "case": self.id,
             "old": self.old["status"] if self.old else None,
             "new": self.new["status"] if self.new else None, "function": rec.get("function"),
             "counted": bool(self.new and self.new.get("counted")), "detail": short_failure(rec),
             "rerun": rec.get("rerun")}
        if P.is_scenario(rec):
            d["program"] = rec["program"]["id"]
        if self.new is not None and P.is_scenario(self.new) and self.new["status"] in BAD:
            d.update(step=self.new.get("step"), step_what=self.new.get("step_what"),
                     consequence=self.new.get("consequence"))
        return d


class ProgramChange(namedtuple("ProgramChange", "kind id name changes before after")):
    """A program broken or fixed by the change: its scenarios that changed, and its state on
    either side (programs.ProgramResult; None when the side has no scenario of it)."""

    def before_text(self):
        b = self.before
        if b is None or b.state == P.ABSENT:
            return "no scenario before"
        if b.state == P.BROKEN:
            return "already broken before (%s)" % ", ".join(c["id"] for _, c in b.failing)
        return {P.WORKS: "was working", P.PARTIAL: "was working where exercised",
                P.NOT_EXERCISED: "was not exercised"}[b.state]

    def after_text(self):
        a = self.after
        if a is None or a.state == P.ABSENT:
            return "no scenario now"
        if a.state == P.BROKEN:
            return "still broken: " + " | ".join("%s %s" % (c["id"], P.failure_line(c))
                                                 for _, c in a.failing)
        return {P.WORKS: "now works", P.PARTIAL: "now works where exercised",
                P.NOT_EXERCISED: "not exercised now"}[a.state]

    def as_dict(self):
        return {"kind": self.kind, "program": self.id, "name": self.name,
                "cases": [c.as_dict() for c in self.changes],
                "before": self.before.state if self.before else P.ABSENT,
                "after": self.after.state if self.after else P.ABSENT}


def program_changes(old, new, changes):
    """Programs the change breaks (a scenario that did not fail and now fails) and fixes (a
    scenario that failed and now passes), broken first, then by name."""
    groups = {}
    for c in changes:
        kind = "broken" if c.kind == "regression" and c.old and c.old["status"] not in BAD \
            else "fixed" if c.kind == "fixed" else None
        if kind and c.old is not None and c.new is not None and P.is_scenario(c.new):
            groups.setdefault((kind, P.program_id(c.new)), []).append(c)
    if not groups:
        return []
    known = P.Known()
    before, after = P.TargetPrograms(old, known), P.TargetPrograms(new, known)
    res = []
    for (kind, pid), cs in groups.items():
        a, b = after.by_id.get(pid), before.by_id.get(pid)
        name = (a or b).name if (a or b) else pid
        res.append(ProgramChange(kind, pid, name, cs, b, a))
    res.sort(key=lambda p: (p.kind != "broken", p.name.lower(), p.id))
    return res


def diff_runs(old, new):
    changes = []
    unchanged = 0
    for case in old.cases:
        n = new.by_id.get(case["id"])
        if n is None:
            changes.append(Change("removed" if new.complete and not new.filtered else "not-run",
                                  case["id"], case, None))
            continue
        kind = classify(case["status"], n["status"])
        if kind is None:
            if case["status"] in BAD and failure_signature(case) != failure_signature(n):
                changes.append(Change("detail", case["id"], case, n))
            else:
                unchanged += 1
            continue
        changes.append(Change(kind, case["id"], case, n))
    for case in new.cases:
        if case["id"] not in old.by_id:
            changes.append(Change("added", case["id"], None, case))
    changes.sort(key=lambda c: (KINDS.index(c.kind), c.id))
    return changes, unchanged


def _side(path):
    """A side is one results file or a directory of them."""
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "*.jsonl")))
        if not files:
            raise InputError(path, None, "directory has no .jsonl files",
                             "pass a results file or a directory of them")
        runs = label_runs([load(f) for f in files])
        ids = {}
        for r in runs:
            first = ids.setdefault(r.target_id, r)
            if first is not r:
                raise InputError(r.path, None, "target %s also in %s" % (r.target_id, first.path),
                                 "pass the two files to compare directly")
        return runs, True
    return label_runs([load(path)]), False


def pairs(old_path, new_path):
    """[(old_run, new_run)], [runs only on one side], notes."""
    olds, odir = _side(old_path)
    news, ndir = _side(new_path)
    if len(olds) == len(news) == 1:
        o, n = olds[0], news[0]
        return [(o, n)], [], ["note: comparing different implementations (%s and %s)"
                              % (o.target_id, n.target_id)] if o.impl != n.impl and not odir \
            and not ndir else []
    nmap = {r.target_id: r for r in news}
    omap = {r.target_id: r for r in olds}
    res = [(omap[t], nmap[t]) for t in omap if t in nmap]
    alone = [r for r in olds if r.target_id not in nmap] + \
        [r for r in news if r.target_id not in omap]
    res.sort(key=lambda p: p[1].sort_key())
    if not res:
        raise InputError(new_path, None, "no target is in both OLD and NEW",
                         "compare runs of the same targets")
    return res, alone, []


def _state(run):
    """', INCOMPLETE: why' and ', filtered: N of M cases' for the diff's header line."""
    s = "" if run.complete else ", INCOMPLETE: %s" % oneline(run.incomplete_reason, 300)
    if run.filtered:
        s += ", filtered: %s" % oneline(run.scope(), 200)
    return s


def _totals(results):
    """Over every pair: the changes per kind, "unchanged", and the programs "broken" and
    "programs fixed"."""
    tot = Counter(c.kind for _, _, changes, _, _ in results for c in changes)
    tot.update(p.kind if p.kind == "broken" else "programs fixed"
               for _, _, _, _, progs in results for p in progs)
    tot["unchanged"] = sum(r[3] for r in results)
    return tot


def render_text(results, alone, notes, out):
    for line in notes:
        out.write(line + "\n")
    for old, new, changes, unchanged, progs in results:
        out.write("diff: OLD %s (%s, %d cases%s) -> NEW %s (%s, %d cases%s)\n" % (
            oneline(old.target_id), oneline(old.path), len(old.cases),
            _state(old), oneline(new.target_id), oneline(new.path), len(new.cases), _state(new)))
        for kind, title in (("broken", "programs broken by this change"),
                            ("fixed", "programs fixed by this change")):
            group = [p for p in progs if p.kind == kind]
            if not group:
                continue
            out.write("%s (%d):\n" % (title, len(group)))
            for p in group:
                out.write("  %s [%s]: %s; %s\n" % (
                    oneline(p.name, 80), oneline(p.id, 40),
                    "; ".join("%s %s -> %s%s" % (
                        oneline(c.id, 80), c.old["status"], c.new["status"],
                        (" at " + oneline(P.failure_line(c.new), 300)) if kind == "broken"
                        else "") for c in p.changes),
                    oneline(p.before_text() if kind == "broken" else p.after_text(), 400)))
        width = max([len(oneline(c.id, 60)) for c in changes] + [10])
        for kind in KINDS:
            group = [c for c in changes if c.kind == kind]
            if not group:
                continue
            title = TITLES[kind]
            if kind == "not-run" and new.complete:
                title = "not run in NEW (NEW is a filtered run, %s)" % oneline(new.scope(), 200)
            out.write("%s (%d):\n" % (title, len(group)))
            for c in group:
                o = c.old["status"] if c.old else "-"
                n = c.new["status"] if c.new else "-"
                rec = c.new or c.old
                tag = "" if not c.new or c.new["status"] not in BAD or c.new.get("counted") \
                    else " [not counted]"
                detail = short_failure(c.new) if c.new else ""
                out.write("  %-*s  %-7s -> %-7s %s%s%s\n" % (
                    width, oneline(c.id, 60), o, n, oneline(rec.get("function") or "", 40), tag,
                    (": " + oneline(detail, 200)) if detail else ""))
                if kind in ("regression", "detail") and rec.get("rerun"):
                    out.write("  %-*s  rerun: %s\n" % (width, "", oneline(rec["rerun"])))
    for r in alone:
        out.write("note: %s (%s) has no counterpart on the other side\n"
                  % (oneline(r.target_id), oneline(r.path)))
    tot = _totals(results)
    scenarios = any(P.is_scenario(c) for o, n, _, _, _ in results for c in o.cases + n.cases)
    out.write("diff: %d regressions, %d fixed, %d other changes, %d failures changed, %d added, "
              "%d removed%s, %d unchanged%s\n" % (
                  tot["regression"], tot["fixed"], tot["changed"], tot["detail"], tot["added"],
                  tot["removed"], ", %d not run" % tot["not-run"] if tot["not-run"] else "",
                  tot["unchanged"], "; %s broken, %d fixed" % (
                      plural(tot["broken"], "program"), tot["programs fixed"])
                  if scenarios else ""))
    return tot["regression"] + tot["broken"]


def _side_json(run):
    return {"target_id": run.target_id, "path": run.path, "complete": run.complete,
            "incomplete_reason": run.incomplete_reason, "filtered": run.scope()}


def render_json(results, alone, notes, out):
    doc = {"schema": "etwconf-diff/1", "notes": notes, "pairs": []}
    for old, new, changes, unchanged, progs in results:
        doc["pairs"].append({"old": _side_json(old), "new": _side_json(new),
                             "unchanged": unchanged,
                             "changes": [c.as_dict() for c in changes],
                             "programs": [p.as_dict() for p in progs]})
    tot = _totals(results)
    doc.update(unpaired=[{"target_id": r.target_id, "path": r.path} for r in alone],
               regressions=tot["regression"], programs_broken=tot["broken"],
               programs_fixed=tot["programs fixed"])
    out.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return tot["regression"] + tot["broken"]


def run_diff(old_path, new_path, out, fmt="text"):
    ps, alone, notes = pairs(old_path, new_path)
    results = []
    for o, n in ps:
        changes, unchanged = diff_runs(o, n)
        results.append((o, n, changes, unchanged, program_changes(o, n, changes)))
    if fmt == "json":
        return render_json(results, alone, notes, out)
    return render_text(results, alone, notes, out)

