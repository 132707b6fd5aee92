"""Which cases changed status between two runs (same implementation, two versions or builds).

A regression is a case that did not fail before and now does (FAIL, CRASH or TIMEOUT), or that
failed before and now crashes or times out. Fixed: failed before, passes now.
"""
import glob
import json
import os

from .ingest import InputError, load, label_runs
from .util import BAD, ERRORS, oneline, display
from .analysis import failing_checks

KINDS = ("regression", "fixed", "changed", "detail", "added", "removed", "not-run")
TITLES = {
    "regression": "regressions",
    "fixed": "fixed",
    "changed": "other status changes",
    "detail": "same status, different failure",
    "added": "added cases (only in NEW)",
    "removed": "removed cases (only in OLD)",
    "not-run": "not run in NEW (NEW is incomplete)",
}


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
            tuple((c.get("what"), display(c.get("got"))) for c in fc))


def short_failure(case):
    st = case["status"]
    if st == "PASS":
        return ""
    if st == "SKIP":
        return case.get("reason") or ""
    if st == "CRASH":
        return "exception %s%s" % (case.get("exception") or "?",
                                   ": " + case["message"] if case.get("message") else "")
    fc = failing_checks(case)
    if fc:
        c = fc[0]
        return "%s: expected %s, got %s" % (display(c.get("what")) or "check",
                                            display(c.get("expected")), display(c.get("got")))
    return display(case.get("message"))


class Change:
    __slots__ = ("kind", "id", "old", "new")

    def __init__(self, kind, cid, old, new):
        self.kind, self.id, self.old, self.new = kind, cid, old, new

    def as_dict(self):
        d = {"kind": self.kind, "case": self.id,
             "old": self.old["status"] if self.old else None,
             "new": self.new["status"] if self.new else None}
        rec = self.new or self.old
        d["function"] = rec.get("function")
        d["counted"] = bool(self.new and self.new.get("counted"))
        d["detail"] = short_failure(self.new) if self.new else short_failure(self.old)
        d["rerun"] = rec.get("rerun")
        return d


def diff_runs(old, new):
    changes = []
    unchanged = 0
    for case in old.cases:
        n = new.by_id.get(case["id"])
        if n is None:
            changes.append(Change("removed" if new.complete else "not-run", case["id"], case, None))
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
    order = {k: i for i, k in enumerate(KINDS)}
    changes.sort(key=lambda c: (order[c.kind], c.id))
    return changes, unchanged


def _side(path):
    """A side is one results file or a directory of them."""
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "*.jsonl")))
        if not files:
            raise InputError(path, None, "directory has no .jsonl files",
                             "pass a results file or a directory of them")
        runs = [load(f) for f in files]
        ids = {}
        for r in runs:
            if r.target_id in ids:
                raise InputError(r.path, None, "target %s also in %s" % (r.target_id,
                                                                         ids[r.target_id].path),
                                 "pass the two files to compare directly")
            ids[r.target_id] = r
        return runs, True
    return [load(path)], False


def pairs(old_path, new_path):
    """[(old_run, new_run)], [runs only on one side], notes."""
    olds, odir = _side(old_path)
    news, ndir = _side(new_path)
    label_runs(olds)
    label_runs(news)
    notes = []
    if not odir and not ndir:
        o, n = olds[0], news[0]
        if o.impl != n.impl:
            notes.append("note: comparing different implementations (%s and %s)"
                         % (o.target_id, n.target_id))
        return [(o, n)], [], notes
    nmap = {r.target_id: r for r in news}
    omap = {r.target_id: r for r in olds}
    if len(olds) == 1 and len(news) == 1:
        return [(olds[0], news[0])], [], notes
    res = [(omap[t], nmap[t]) for t in omap if t in nmap]
    alone = [r for r in olds if r.target_id not in nmap] + [r for r in news if r.target_id not in omap]
    res.sort(key=lambda p: p[1].sort_key())
    if not res:
        raise InputError(new_path, None, "no target is in both OLD and NEW",
                         "compare runs of the same targets")
    return res, alone, notes


def render_text(results, alone, notes, out):
    tot = dict.fromkeys(KINDS, 0)
    tot_unchanged = 0
    for line in notes:
        out.write(line + "\n")
    for old, new, changes, unchanged in results:
        out.write("diff: OLD %s (%s, %d cases%s) -> NEW %s (%s, %d cases%s)\n" % (
            oneline(old.target_id), oneline(old.path), len(old.cases),
            "" if old.complete else ", INCOMPLETE", oneline(new.target_id), oneline(new.path),
            len(new.cases), "" if new.complete else ", INCOMPLETE"))
        tot_unchanged += unchanged
        width = max([len(oneline(c.id, 60)) for c in changes] + [10])
        for kind in KINDS:
            group = [c for c in changes if c.kind == kind]
            tot[kind] += len(group)
            if not group:
                continue
            out.write("%s (%d):\n" % (TITLES[kind], len(group)))
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
    out.write("diff: %d regressions, %d fixed, %d other changes, %d failures changed, %d added, "
              "%d removed%s, %d unchanged\n" % (
                  tot["regression"], tot["fixed"], tot["changed"], tot["detail"], tot["added"],
                  tot["removed"], ", %d not run" % tot["not-run"] if tot["not-run"] else "",
                  tot_unchanged))
    return tot["regression"]


def render_json(results, alone, notes, out):
    doc = {"schema": "etwconf-diff/1", "notes": notes, "pairs": []}
    n_reg = 0
    for old, new, changes, unchanged in results:
        n_reg += sum(1 for c in changes if c.kind == "regression")
        doc["pairs"].append({"old": {"target_id": old.target_id, "path": old.path,
                                     "complete": old.complete},
                             "new": {"target_id": new.target_id, "path": new.path,
                                     "complete": new.complete},
                             "unchanged": unchanged,
                             "changes": [c.as_dict() for c in changes]})
    doc["unpaired"] = [{"target_id": r.target_id, "path": r.path} for r in alone]
    doc["regressions"] = n_reg
    out.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return n_reg


def run_diff(old_path, new_path, out, fmt="text"):
    ps, alone, notes = pairs(old_path, new_path)
    results = []
    for o, n in ps:
        changes, unchanged = diff_runs(o, n)
        results.append((o, n, changes, unchanged))
    if fmt == "json":
        return render_json(results, alone, notes, out)
    return render_text(results, alone, notes, out)

