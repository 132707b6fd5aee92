#!/usr/bin/env python3
"""harness/tests/winetest_format.py - check Wine's test output, line by line (the winetest stage).

  winetest_format.py grammar OUTPUT [--failures N] [--rc N]
      every line is one Wine's test.h prints (file:line: Test failed: / Test marked todo: /
      Test succeeded inside todo block: / Tests skipped: / Test succeeded / a trace, and the
      closing "%04x:unit: N tests executed (T marked as todo, 0 as flaky, F failure(s)), S skipped.");
      each closing line's counts agree with the lines of its unit; the exit status is Wine's
      (failures + successes inside todo blocks, at most 255)
  winetest_format.py results OUTPUT RESULTS.jsonl [--expect FILE] [--rc N]
      the output of `etwconf run --format winetest` is exactly what the results file says, with
      the outcome of each case taken from reports/etwconf_report/expectations.py (the Python
      reading of the same expectations file): XFAIL -> todo, XPASS -> succeeded inside todo,
      CHANGED/UNEXPECTED -> failed, SKIP -> skipped
Prints "ok   ..." / "FAIL ..." lines; exit 1 if any FAIL.
"""
import json
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
    from etwconf_report import expectations, ingest
    run = ingest.load(jsonl)
    outcomes = {}
    exp_path = ""
    if expect:
        exp = expectations.load(expect)
        exp_path = exp.path
        if exp.applies_to(run):
            outcomes = expectations.evaluate(run, exp)
    want, failures = [], 0

    def loc(e):
        return "%s:%d" % (exp_path, e.line) if e.line else exp_path
    unit = None
    counts = None

    def close():
        nonlocal failures
        if unit is None:
            return
        s, f, t, tf, sk = counts
        want.append("CLOSE:%s: %d tests executed (%d marked as todo, 0 as flaky, %d %s), %d skipped." % (
            unit, s + f + t + tf, t, f + tf, "failure" if f + tf == 1 else "failures", sk))
        failures += f + tf

    for case in run.cases:
        u = os.path.splitext(os.path.basename(case["file"]))[0]
        if u != unit:
            close()
            unit, counts = u, [0, 0, 0, 0, 0]   # successes, failures, todo, todo failures, skipped
        oc = outcomes.get(case["id"])
        kind = oc.kind if oc else {"PASS": "OK", "SKIP": "SKIP"}.get(case["status"], "UNEXPECTED")
        where = "%s:%d: " % (case["file"], case["line"])
        st = case["status"]
        checks = case["checks"]
        failed = [k for k in checks if not k["ok"]]
        good = len(checks) - len(failed)

        def check_lines(prefix):
            for k in failed:
                want.append("%s:%d: %s%s [%s] %s: expected %s, got %s" % (
                    k.get("file", case["file"]), k["line"], prefix, case["id"], k["rule"], k["what"],
                    k["expected"] or "a value", k["got"]))
        if kind == "CHANGED":
            e = oc.entry
            desc = e.describe().replace('observed "', 'observed "')
            want.append("%s%s: %s lists it as %s; it ended %s" % (where, case["id"], loc(e), desc, st))
        if st == "PASS":
            counts[0] += good
            if kind == "XPASS":
                counts[0] -= 1 if good else 0
                counts[3] += 1
                want.append("%sTest succeeded inside todo block: %s: %s lists it as %s (%s), but it passed" % (
                    where, case["id"], loc(oc.entry), oc.entry.describe(), oc.entry.why))
        elif st == "FAIL":
            counts[0] += good
            if kind == "XFAIL":
                check_lines("Test marked todo: ")
                counts[2] += len(failed)
            else:
                check_lines("Test failed: ")
                counts[1] += len(failed)
        elif st in ("SKIP", "BROKEN"):
            tag = "BROKEN: " if st == "BROKEN" else ""
            if kind == "XFAIL" and st == "BROKEN":
                want.append("%sTest marked todo: %s: the fixture could not be set up: %s" % (where, case["id"], case["reason"]))
                counts[2] += 1
            elif kind == "CHANGED":
                want.append("%sTest failed: %s: %s%s" % (where, case["id"], tag, case["reason"]))
                counts[1] += 1
            else:
                want.append("%sTests skipped: %s: %s%s" % (where, case["id"], tag, case["reason"]))
                counts[4] += 1
        else:  # CRASH, TIMEOUT
            if st == "CRASH":
                exc = case.get("exception") or "?"
                what = "unhandled exception %s in %s (caught; the run went on)" % (exc[2:] if exc.startswith("0x") else exc,
                                                                                  case["function"])
            else:
                what = case.get("message") or "timed out"
            counts[0] += good
            if kind == "XFAIL":
                check_lines("Test marked todo: ")
                want.append("%sTest marked todo: %s: %s" % (where, case["id"], what))
                counts[2] += len(failed) + 1
            else:
                check_lines("Test failed: ")
                want.append("%sTest failed: %s: %s" % (where, case["id"], what))
                counts[1] += len(failed) + 1
    close()
    got = [re.sub(r"^[0-9a-f]{4,}:", "CLOSE:", l) if CLOSING.match(l) else l for l in read_lines(path)]
    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    if first is None and len(got) != len(want):
        first = min(len(got), len(want))
    say(first is None, "%s: %d lines, each as %s and the expectations say%s" % (
        path, len(got), os.path.basename(jsonl),
        "" if first is None else ": line %d is %r, expected %r" % (first + 1, got[first] if first < len(got) else None,
                                                                    want[first] if first < len(want) else None)))
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
