"""Programs affected: what the client-scenario cases ("client.<program-id>.*", records with a
"program" object; harness/RESULTS.md) say about real programs, per target. The states (broken,
works, partly exercised, not exercised, absent) are defined in reports/README.md, "Programs
affected". spec/programs.def is optional and read with spec/rules.py's programs() reader, the
one parser of that file.
"""
import os

from .util import BAD, display, file_kind, NotRegular, spec_rules, REPO

DEFAULT_DEF = os.path.join(REPO, "spec", "programs.def")

BROKEN, WORKS, PARTIAL, NOT_EXERCISED, ABSENT = (
    "broken", "works", "partly exercised", "not exercised", "absent")
STATES = (BROKEN, PARTIAL, WORKS, NOT_EXERCISED, ABSENT)
# what a state is called in the reports (the program matrix says "breaks at step N" instead)
WORDS = {BROKEN: "broken", WORKS: "works", PARTIAL: "works (partly exercised)",
         NOT_EXERCISED: "not exercised", ABSENT: "no scenario"}


class Known:
    """The programs spec/programs.def lists (possibly none)."""

    def __init__(self, programs=(), path=None, problems=()):
        self.path = path
        self.programs = list(programs)
        self.by_id = {p["id"]: p for p in self.programs}
        self.order = {p["id"]: i for i, p in enumerate(self.programs)}
        self.problems = list(problems)

    def sort_key(self, p):
        """A ProgramResult's place: programs.def order, then the others by name."""
        return (self.order.get(p.id, len(self.programs)), p.name.lower(), p.id)


def load_known(path=None, required=False):
    """Read programs.def. Without a path, spec/programs.def when it exists; no file is no list.
    An explicit path that cannot be read raises OSError (the caller names it). A malformed file
    is a problem (a warning), never an error: the reports work without the list."""
    if path is None:
        path = DEFAULT_DEF
        if not os.path.exists(path):
            return Known()
    if os.path.exists(path):
        kind = file_kind(os.stat(path).st_mode)
        if kind:      # a FIFO or a device is never opened: reading it could block
            if required:
                raise NotRegular("is %s, not a regular file" % kind)
            return Known(problems=["%s: is %s; programs not exercised are not listed"
                                   % (path, kind)])
    if not os.access(path, os.R_OK):
        if required:
            open(path, encoding="utf-8").close()   # raises the OSError that names the problem
        return Known(problems=["%s: cannot be read; programs not exercised are not listed"
                               % path])
    try:
        raw = spec_rules.programs(path)
    except (spec_rules.RuleError, OSError, ValueError) as e:
        return Known(problems=["%s; programs not exercised are not listed" % e], path=path)
    # spec/rules.py checked each entry: every field a string, the id well-formed and unique
    return Known([dict(p, repository=p["repo"]) for p in raw], path)


def is_scenario(case):
    return isinstance(case.get("program"), dict)


def program_id(case):
    return case["program"]["id"]


def step_text(case):
    """'step 3' or 'step unknown'."""
    st = case.get("step")
    return "step %d" % st if isinstance(st, int) and not isinstance(st, bool) else "step unknown"


def breaks_at(case):
    """'breaks at step 3' or 'breaks (step unknown)'."""
    step = step_text(case)
    return "breaks (%s)" % step if step == "step unknown" else "breaks at " + step


def what_went_wrong(case):
    """How the scenario ended when the record gives no consequence (a crash in a worker)."""
    st = case["status"]
    if st == "CRASH":
        return "the scenario crashed (%s)" % (display(case.get("exception")) or "?")
    if st == "TIMEOUT":
        return "the scenario timed out"
    return display(case.get("message")) or "a check failed"


def _unknown(text):
    """The harness writes "unknown" (or "unknown: why") when it could not follow the step."""
    return not text or text.strip().lower() == "unknown"


def failure_parts(case):
    """(step text, call made at the step or '', consequence) for a failing scenario."""
    cons = case.get("consequence") or ""
    if _unknown(cons):
        cons = what_went_wrong(case) + "; what the program does then is not recorded"
    step, what = step_text(case), case.get("step_what") or ""
    if case.get("step") is None and what.lower().startswith("unknown"):
        why = what[len("unknown"):].lstrip(" :")
        step, what = ("%s (%s)" % (step, why)) if why else step, ""
    return step, what, cons


def failure_line(case):
    """One line: 'step 2 TQI(...) -> the program throws'."""
    step, what, cons = failure_parts(case)
    return "%s%s -> %s" % (step, (" " + what) if what else "", cons)


class ProgramResult:
    """One program on one target."""

    def __init__(self, pid, name, source=None, repository=None):
        self.id = pid
        self.name = name or pid
        self.source = source
        self.repository = repository
        self.scenarios = []        # (case index in the run, case)

    def finish(self):
        """Sort the scenarios (failing, passed, not run), then say the program's state."""
        sc = self.scenarios
        self.failing = [(i, c) for i, c in sc if c["status"] in BAD]
        self.passed = [(i, c) for i, c in sc if c["status"] == "PASS"]
        self.not_run = [(i, c) for i, c in sc if c["status"] in ("SKIP", "BROKEN")]
        self.state = (ABSENT if not sc else BROKEN if self.failing
                      else NOT_EXERCISED if not self.passed else PARTIAL if self.not_run
                      else WORKS)
        return self

    def worst(self):
        """The failing scenario a cell shows: the first one with the earliest step."""
        return min(self.failing, key=lambda ic: (ic[1].get("step") or 1 << 30, ic[0]),
                   default=None)

    def not_run_reason(self, case):
        if case["status"] == "BROKEN":
            why = display(case.get("message")) or display(case.get("reason")) or "?"
            return why if why.lower().startswith("fixture") else \
                "fixture could not be set up: %s" % why
        return display(case.get("reason")) or "(no reason given)"

    def cell_text(self):
        """The program matrix's word for this program on this target."""
        return breaks_at(self.worst()[1]) if self.state == BROKEN else WORDS[self.state]

    def value(self):
        """A one-line description (JUnit property value, summary lines)."""
        if self.state == BROKEN:
            return "broken: " + " | ".join("%s (%s %s, %s)" % (
                failure_line(c), c["id"], c["status"], "counted" if c["counted"] else "not counted")
                for _, c in self.failing)
        if self.state == WORKS:
            return "works: %d of %d scenarios passed" % (len(self.passed), len(self.scenarios))
        if self.state in (PARTIAL, NOT_EXERCISED):
            head = "works where exercised: %d passed; not exercised: " % len(self.passed) \
                if self.state == PARTIAL else "not exercised: "
            return head + " | ".join("%s: %s" % (c["id"], self.not_run_reason(c))
                                     for _, c in self.not_run)
        return "absent: no scenario for this program in this run"


class TargetPrograms:
    """Every program of one target, in programs.def order, then the others by name."""

    def __init__(self, run, known):
        by = {}
        for i, case in enumerate(run.cases):
            if is_scenario(case):
                prog = case["program"]
                k = known.by_id.get(prog["id"]) or {}
                if prog["id"] not in by:
                    by[prog["id"]] = ProgramResult(
                        prog["id"], k.get("name") or prog.get("name"),
                        prog.get("source") or k.get("source"), k.get("repository"))
                by[prog["id"]].scenarios.append((i, case))
        self.has_scenarios = bool(by)
        if self.has_scenarios:           # a run without scenarios is not about programs
            for k in known.programs:
                if k["id"] not in by:
                    by[k["id"]] = ProgramResult(k["id"], k["name"], k["source"], k["repository"])
        self.programs = sorted((p.finish() for p in by.values()), key=known.sort_key)
        self.by_id = {p.id: p for p in self.programs}

    def numbered(self, *states):
        """[(index in self.programs, program)] of the programs in one of states."""
        return [(k, p) for k, p in enumerate(self.programs) if p.state in states]

    def with_state(self, *states):
        return [p for _, p in self.numbered(*states)]

    def counts(self):
        return {st: sum(1 for p in self.programs if p.state == st) for st in STATES}

    def not_run_by_reason(self):
        """[(reason, [(program, case)])] for the scenarios that did not run, reasons in order
        of first appearance."""
        groups = {}
        for p in self.with_state(PARTIAL, NOT_EXERCISED):
            for _, c in p.not_run:
                groups.setdefault(p.not_run_reason(c), []).append((p, c))
        return list(groups.items())

    def headline(self):
        """'2 programs broken, 5 work, 1 partly exercised, 1 not exercised'."""
        c = self.counts()
        words = ((BROKEN, "broken"), (WORKS, "works" if c[WORKS] == 1 else "work"),
                 (PARTIAL, "partly exercised"), (NOT_EXERCISED, "not exercised"),
                 (ABSENT, "without a scenario in this run"))
        parts = ["%d %s" % (c[k], w) for k, w in words if c[k]]
        n = len(self.programs)
        return "%d program%s: %s" % (n, "" if n == 1 else "s", ", ".join(parts) or "none")


def per_target(summaries, known):
    """{summary index: TargetPrograms}."""
    return {s.index: TargetPrograms(s.run, known) for s in summaries}


def rows(tps, known):
    """Every program seen on any target (known order, then name)."""
    seen = {}
    for tp in tps.values():
        for p in tp.programs if tp.has_scenarios else ():
            seen.setdefault(p.id, p)
    return sorted(seen.values(), key=known.sort_key)
