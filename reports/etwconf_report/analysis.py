"""What the reports show, computed once: verdicts per target, the rule x target matrix, coverage.

Matrix cells: a rule's status in one case is the case status, except for a FAIL record, where
only the rules in failed_rules FAIL and the case's other rules PASS (their checks held). A cell is
the worst status over the rule's cases (CRASH > TIMEOUT > FAIL > BROKEN > PASS > SKIP); "n/a" when
no case of the rule ran on that target.
"""
from collections import Counter

from .util import SEVERITY, ERRORS, plural


def rule_status(case, rule_id):
    st = case["status"]
    if st == "FAIL":
        failed = case["failed_rules"] or case["rules"]
        return "FAIL" if rule_id in failed else "PASS"
    return st


def failing_checks(case):
    return [c for c in case["checks"] if not c.get("ok")]


class TargetSummary:
    def __init__(self, index, run, catalog, outcomes=None):
        self.index = index
        self.run = run
        self.counts = run.counts()
        self.outcomes = outcomes or {}        # case id -> expectations.Outcome
        cases = run.cases
        self.counted = [c for c in cases if c["counted"]]
        self.divergences = [c for c in cases if c["status"] == "FAIL" and not c["counted"]]
        self.broken = [c for c in cases if c["status"] == "BROKEN"]
        self.skipped = [c for c in cases if c["status"] == "SKIP"]
        # the rules counted failures broke: MUST (not inferred), or not in the catalogue
        self.must_rules = sorted({rid for c in self.counted for rid in
                                  (c["failed_rules"] or c["rules"])
                                  if catalog.counted(rid) is not False})
        # cases that make the target non-conformant: counted failures plus every crash/timeout
        self.bad_cases = [c for c in cases if c["counted"] or c["status"] in ERRORS]
        self.conformant = not self.bad_cases
        # a run of part of the suite says how much it ran, and is never plainly "conformant"
        self.scope = run.scope()
        self.verdict, self.verdict_detail = self._verdict()
        self.kinds = Counter(oc.kind for oc in self.outcomes.values())   # XFAIL, XPASS, ...

    @property
    def fully_conformant(self):
        """Conformant on a complete run of the whole suite."""
        return self.conformant and self.run.complete and not self.run.filtered

    def _verdict(self):
        run = self.run
        n_bad = len(self.bad_cases)
        crash = self.counts["CRASH"] + self.counts["TIMEOUT"]
        bits = []
        if self.divergences:
            bits.append("%s (not counted)" % plural(len(self.divergences), "divergence"))
        if self.broken:
            bits.append("%s broken (suite or environment problem)"
                        % plural(len(self.broken), "case"))
        if self.skipped:
            bits.append("%d skipped" % len(self.skipped))
        if self.conformant and self.scope:
            text = "no failures in %s (a filtered run: no verdict on the whole suite)%s" % (
                self.scope, "" if run.complete else ", incomplete run")
        elif self.conformant:
            text = "conformant" if run.complete else "no failures so far (incomplete run)"
        else:
            parts = []
            if self.must_rules or not crash:
                parts.append("%s of MUST rules" % plural(len(self.must_rules), "failure"))
            n_crash, n_timeout = self.counts["CRASH"], self.counts["TIMEOUT"]
            if n_crash and n_timeout:
                parts.append(plural(crash, "crash or timeout", "crashes or timeouts"))
            elif n_crash:
                parts.append(plural(n_crash, "crash", "crashes"))
            elif n_timeout:
                parts.append(plural(n_timeout, "timeout"))
            text = ", ".join(parts) + " (%s)" % plural(n_bad, "case")
            if self.scope:
                text += ", in %s (a filtered run)" % self.scope
            if not run.complete:
                text += ", incomplete run"
        return text, "; ".join(bits)

    def kind(self, case):
        """The kind of the case's expectation outcome (XFAIL, XPASS, ...), None without one."""
        oc = self.outcomes.get(case["id"])
        return oc.kind if oc is not None else None

    def notable(self, case):
        """The case's expectation outcome when a report shows it (not OK, not SKIP), else None."""
        oc = self.outcomes.get(case["id"])
        return oc if oc is not None and oc.kind not in ("OK", "SKIP") else None

    def expectation_counts(self, stale):
        """{outcome kind: cases}, with STALE: the stale entries that name this run."""
        return dict(self.kinds, STALE=sum(1 for (_, _, r) in stale if r is self.run))

    @property
    def verdict_class(self):
        if not self.conformant:
            return "bad"
        return "good" if self.fully_conformant else "incomplete"


def summarize(runs, catalog, outcomes_by_run=None):
    outcomes_by_run = outcomes_by_run or {}
    return [TargetSummary(i, r, catalog, outcomes_by_run.get(id(r))) for i, r in enumerate(runs)]


class Cell:
    """The cases of one rule or one API family on one target, or summed over the runs of a
    reference range (add)."""

    def __init__(self, summary=None):
        self.status = self.worst_case = None       # the rule matrix's worst status, its case
        self.n = self.bad = self.divergences = self.xfail = self.xpass = 0
        self.by_status = Counter()
        self.summaries = [summary] if summary else []

    def count(self, st, case):
        self.n += 1
        self.by_status[st] += 1
        if self.status is None or SEVERITY[st] > SEVERITY[self.status]:
            self.status, self.worst_case = st, case

    @property
    def state(self):
        """A family cell's colour: the worst status of its counted failures, else DIV
        (divergences, not counted), BROKEN, PASS, SKIP."""
        bad = [st for st in ("CRASH", "TIMEOUT", "FAIL") if self.by_status["bad " + st]]
        return bad[0] if bad else "DIV" if self.divergences else next(
            (st for st in ("BROKEN", "PASS", "SKIP") if self.by_status[st]), "na")

    def add(self, other):
        self.n += other.n
        self.bad += other.bad
        self.divergences += other.divergences
        self.xfail += other.xfail
        self.by_status.update(other.by_status)
        self.summaries += other.summaries
        return self


def matrix(summaries, catalog):
    """Returns (rows, cells): rows is a list of (group, rule_id) in catalogue order, then rules
    that only the results name; cells[(rule_id, target_index)] is a Cell."""
    cells = {}
    seen_rules = {}
    for s in summaries:
        for case in s.run.cases:
            kind = s.kind(case)
            for rid in case["rules"]:
                seen_rules.setdefault(rid)
                st = rule_status(case, rid)
                cell = cells.setdefault((rid, s.index), Cell())
                cell.count(st, case)
                if kind == "XFAIL" and st != "PASS":
                    cell.xfail += 1
                elif kind == "XPASS":
                    cell.xpass += 1
    rows = [(catalog.group(r["id"]), r["id"]) for r in catalog.rules]
    rows += [("unknown", rid) for rid in seen_rules if catalog.get(rid) is None]
    return rows, cells


def coverage(summaries, catalog):
    """Rules per function, cases per rule (distinct case ids over all runs), rules with no case."""
    cases_per_rule = {}
    for s in summaries:
        for case in s.run.cases:
            for rid in case["rules"]:
                cases_per_rule.setdefault(rid, set()).add(case["id"])
    functions = {}
    for r in catalog.rules:
        f = functions.setdefault(r["function"], {"rules": 0, "covered": 0, "cases": set()})
        f["rules"] += 1
        ids = cases_per_rule.get(r["id"])
        if ids:
            f["covered"] += 1
            f["cases"] |= ids
    uncovered = [r for r in catalog.rules if r["id"] not in cases_per_rule]
    return {"cases_per_rule": {k: len(v) for k, v in cases_per_rule.items()},
            "functions": functions, "uncovered": uncovered}


def totals(summaries):
    """Cases per status over every run (a Counter: 0 for a status no run has)."""
    return sum((Counter(s.counts) for s in summaries), Counter())


def under_test(summaries):
    """(targets under test, reference runs). The reference checks the suite itself: when other
    targets are there, they come first and the reference is summed up per build range. A
    report of reference runs alone has them as its targets under test."""
    ref = [s for s in summaries if s.run.impl == "reference"]
    if len(ref) == len(summaries):
        return list(summaries), []
    return [s for s in summaries if s.run.impl != "reference"], ref


def build_name(run):
    """'5.2.3790' from the run's version key, else its version name."""
    k = run.key()
    return "%d.%d.%d" % k[:3] if k and k[2] else run.version_name


class Range:
    """Consecutive reference runs (in version order) with the same verdict."""

    def __init__(self, index, runs):
        self.index = index
        self.runs = runs           # TargetSummary objects
        self.verdict, self.verdict_class = runs[0].verdict, runs[0].verdict_class

    def span(self):
        """'5.2.3790 to 10.0.26100' ('6.1.7601' for one build)."""
        a, b = build_name(self.runs[0].run), build_name(self.runs[-1].run)
        return a if len(self.runs) == 1 else "%s to %s" % (a, b)

    def line(self):
        """'conformant at 14 builds, 5.2.3790 to 10.0.26100'."""
        return "%s at %s, %s" % (self.verdict, plural(len(self.runs), "build"), self.span())


def reference_ranges(ref):
    """The reference runs as ranges of the same verdict, in version order."""
    out = []
    for s in sorted(ref, key=lambda s: (s.run.key() or (99, 99, 0, 0), s.index)):
        if out and (out[-1].verdict, out[-1].verdict_class) == (s.verdict, s.verdict_class):
            out[-1].runs.append(s)
        else:
            out.append(Range(len(out), [s]))
    return out


def family_of(case):
    return case.get("function") or "(no function)"


def families(summaries, catalog):
    """(rows, cells): rows are the API families (functions) in rule catalogue order, then the
    others by name; cells[(family, target index)] is a Cell."""
    cells, seen = {}, set()
    for s in summaries:
        bad = {c["id"] for c in s.bad_cases}
        for case in s.run.cases:
            fam = family_of(case)
            seen.add(fam)
            cell = cells.setdefault((fam, s.index), Cell(s))
            st = case["status"]
            cell.count(st, case)
            if case["id"] in bad:
                cell.bad += 1
                cell.by_status["bad " + st] += 1
                if s.kind(case) == "XFAIL":
                    cell.xfail += 1
            elif st == "FAIL":
                cell.divergences += 1
    order = list(dict.fromkeys(r["function"] for r in catalog.rules if r["function"] in seen))
    order += sorted(seen - set(order))
    return order, cells
