#!/usr/bin/env python3
"""harness/tests/winetest_format.py - check Wine's test output, line by line (the winetest stage).

  winetest_format.py grammar OUTPUT [--failures N] [--rc N]
      every line is one Wine's test.h prints (file:line: Test failed: / Test marked todo: /
      Test succeeded inside todo block: / Tests skipped: / Test succeeded / a trace, and the
      closing "%04x:unit: N tests executed (T marked as todo, 0 as flaky, F failure(s)), S skipped.");
      each closing line's counts agree with the lines of its unit; the exit status is Wine's
      (failures + successes inside todo blocks, at most 255)
  winetest_format.py results OUTPUT RESULTS.jsonl [--expect FILE] [--rc N]
      the output of `etwconf-report winetest` has a line for each failed check, skip, crash and
      known divergence of the results file, at its file and line, of the kind the outcome of its
      case against the expectations calls for (XFAIL -> todo, XPASS -> succeeded inside todo,
      CHANGED/UNEXPECTED -> failed, SKIP -> skipped), and no other
Prints "ok   ..." / "FAIL ..." lines; exit 1 if any FAIL.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "reports"))

CLOSING = re.compile(r"^([0-9a-f]{4,}):([A-Za-z0-9_]+): (\d+) tests executed \((\d+) marked as todo, (\d+) as flaky, "
                     r"(\d+) (failures?)\), (\d+) skipped\.$")
MESSAGE = re.compile(r"^([^:\s][^:]*):(\d+): (Test failed: |Test marked todo: |Test succeeded inside todo block: |"
                     r"Tests skipped: |Test succeeded$)?(.*)$")

bad = 0


def say(ok, msg):
    global bad
    bad += not ok
    print(("ok   " if ok else "FAIL ") + msg)


def read_lines(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return text.replace("\r\n", "\n").split("\n")[:-1] if text.endswith("\n") else text.replace("\r\n", "\n").split("\n")


def grammar(path, want_rc=None, want_failures=None):
    lines = read_lines(path)
    units, unit_counts, problems = [], {"failed": 0, "todo": 0, "todo_ok": 0, "skipped": 0}, []
    total_bad = 0
    for n, line in enumerate(lines, 1):
        m = CLOSING.match(line)
        if m:
            pid, unit, executed, todo, flaky, failures, word, skipped = m.groups()
            failures, todo, skipped = int(failures), int(todo), int(skipped)
            if word != ("failure" if failures == 1 else "failures"):
                problems.append("line %d: '%s' with %d" % (n, word, failures))
            if flaky != "0":
                problems.append("line %d: flaky count %s" % (n, flaky))
            if (failures, todo, skipped) != (unit_counts["failed"] + unit_counts["todo_ok"], unit_counts["todo"],
                                             unit_counts["skipped"]):
                problems.append("line %d: %s counts %d failures, %d todo, %d skipped; its lines say %d, %d, %d" % (
                    n, unit, failures, todo, skipped, unit_counts["failed"] + unit_counts["todo_ok"], unit_counts["todo"],
                    unit_counts["skipped"]))
            if int(executed) < failures + todo:
                problems.append("line %d: fewer tests executed than failures and todos" % n)
            units.append((unit, int(executed), todo, failures, skipped))
            total_bad += failures
            unit_counts = {"failed": 0, "todo": 0, "todo_ok": 0, "skipped": 0}
            continue
        m = MESSAGE.match(line)
        if not m:
            problems.append("line %d is not a Wine test line: %r" % (n, line[:120]))
            continue
        kind = m.group(3) or ""
        if kind.startswith("Test failed"):
            unit_counts["failed"] += 1
        elif kind.startswith("Test marked todo"):
            unit_counts["todo"] += 1
        elif kind.startswith("Test succeeded inside"):
            unit_counts["todo_ok"] += 1
        elif kind.startswith("Tests skipped"):
            unit_counts["skipped"] += 1
        if kind and kind != "Test succeeded" and not m.group(4).strip():
            problems.append("line %d: %s with no message" % (n, kind.strip()))
    if any(unit_counts.values()):
        problems.append("lines after the last closing line")
    say(not problems and bool(units), "%s: %d lines in Wine's format, %d unit(s) closed%s" % (
        path, len(lines), len(units), ": " + "; ".join(problems[:5]) if problems else ""))
    if want_failures is not None:
        say(total_bad == want_failures, "%s: %d failures in the closing lines (want %d)" % (path, total_bad, want_failures))
    if want_rc is not None:
        say(want_rc == min(total_bad, 255), "%s: exit status %d = failures %d, at most 255" % (path, want_rc, total_bad))
    return units


def results(path, jsonl, expect=None, want_rc=None):
    """Each case of the results file has the lines its status and its outcome against the
    expectations (expectations.evaluate, as `etwconf-report check` sees it) call for, at its
    checks' or its row's file and line (a failed check's line with its case, rule, expected and
    got), and no other message line is there."""
    from etwconf_report import expectations, ingest
    run = ingest.load(jsonl)
    outcomes = {}
    if expect:
        exp = expectations.load(expect)
        if exp.applies_to(run):
            outcomes = expectations.evaluate(run, exp)
    want = []   # (file:line, kind, case id)
    failures = 0
    for case in run.cases:
        oc = outcomes.get(case["id"])
        kind = oc.kind if oc else None
        st, cid, row = case["status"], case["id"], "%s:%d" % (case["file"], case["line"])
        bad = "Test marked todo" if kind == "XFAIL" else "Test failed"
        # a failed check: at its own file and line, "case [rule] what: expected E, got G"
        failed = [("%s:%d" % (k.get("file", case["file"]), k["line"]),
                   "%s [%s] %s: expected %s, got %s" % (cid, k["rule"], k["what"], k["expected"] or "a value", k["got"]))
                  for k in case["checks"] if not k["ok"]]
        if st == "PASS" and kind == "XPASS":
            want.append((row, "Test succeeded inside todo block", cid))
        elif st == "FAIL":
            want += [(at, bad, text) for at, text in failed]
        elif st == "BROKEN" and kind in ("XFAIL", "CHANGED"):
            want.append((row, bad, cid))
        elif st in ("SKIP", "BROKEN"):
            want.append((row, "Test failed" if kind == "CHANGED" else "Tests skipped", cid))
        elif st in ("CRASH", "TIMEOUT"):
            want += [(at, bad, text) for at, text in failed] + [(row, bad, cid)]
    failures = sum(1 for _, k, _ in want if k in ("Test failed", "Test succeeded inside todo block"))
    got = []
    for line in read_lines(path):
        m = MESSAGE.match(line)
        if m and m.group(3) and m.group(3) != "Test succeeded":
            msg = m.group(4)
            key = msg if re.match(r"\S+ \[", msg) else msg.split(" ", 1)[0].rstrip(":")
            got.append(("%s:%s" % (m.group(1), m.group(2)), m.group(3).rstrip(": "), key))
    missing = [w for w in want if w not in got]
    extra = [g for g in got if g not in want]
    say(sorted(got) == sorted(want), "%s: %d message lines, one per failed check, skip, crash and known divergence of %s%s" % (
        path, len(got), os.path.basename(jsonl),
        "" if sorted(got) == sorted(want) else ": missing %s; not expected %s" % (missing[:3], extra[:3])))
    if want_rc is not None:
        say(want_rc == min(failures, 255), "%s: exit status %d (failures %d, at most 255)" % (path, want_rc, failures))
    kinds = {}
    for oc in outcomes.values():
        kinds[oc.kind] = kinds.get(oc.kind, 0) + 1
    return kinds


def main(argv):
    if len(argv) < 3 or argv[1] not in ("grammar", "results"):
        print(__doc__)
        return 2
    opts = {}
    args = []
    i = 2
    while i < len(argv):
        if argv[i].startswith("--"):
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    rc = int(opts["rc"]) if "rc" in opts else None
    if argv[1] == "grammar":
        grammar(args[0], rc, int(opts["failures"]) if "failures" in opts else None)
    else:
        kinds = results(args[0], args[1], opts.get("expect"), rc)
        if kinds:
            print("     outcomes: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
