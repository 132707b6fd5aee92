#!/usr/bin/env python3
"""harness/tests/winetest_format.py - the winetest stage's checks of Wine's test output, in one
process: the commands, one a line, come on stdin (or FILE), shell-quoted.

  report OUT CMD ARG...         `etwconf-report CMD ARG...` (ENV=VALUE words first set the
                                environment): stdout to OUT, stderr to OUT.err, exit status to OUT.rc
  grammar OUT [--failures N]    every line is one Wine's test.h prints (file:line: Test failed: /
      Test marked todo: / Test succeeded inside todo block: / Tests skipped: / Test succeeded / a
      trace, and the closing "%04x:unit: N tests executed (T marked as todo, 0 as flaky, F
      failure(s)), S skipped."); each closing line's counts agree with the lines of its unit; the
      exit status (OUT.rc) is Wine's (failures + successes inside todo blocks, at most 255)
  results OUT RESULTS.jsonl [--expect FILE]
      the output of `etwconf-report winetest` has a line for each failed check, skip, crash and
      known divergence of the results file, at its file and line, of the kind the outcome of its
      case against the expectations calls for (XFAIL -> todo, XPASS -> succeeded inside todo,
      CHANGED/UNEXPECTED -> failed, SKIP -> skipped), and no other; the exit status (OUT.rc)
  exported SRC CASES.json EXPECTATIONS   `etwconf export-wine`'s output: a row per data case in
      table order, each knowing its line, the custom cases named, todo rows only for listed cases
Prints "ok   ..." / "FAIL ..." lines; exit 1 if any FAIL.
"""
import contextlib
import json
import os
import re
import shlex
import sys
from collections import Counter
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "..", "reports"), HERE]
from checks import CHECKS, say  # noqa: E402

CLOSING = re.compile(r"^([0-9a-f]{4,}):([A-Za-z0-9_]+): (\d+) tests executed \((\d+) marked as todo, (\d+) as flaky, "
                     r"(\d+) (failures?)\), (\d+) skipped\.$")
MESSAGE = re.compile(r"^([^:\s][^:]*):(\d+): (Test failed: |Test marked todo: |Test succeeded inside todo block: |"
                     r"Tests skipped: |Test succeeded$)?(.*)$")

def read_lines(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace").replace("\r\n", "\n")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


KINDS = {"Test failed: ": "failed", "Test marked todo: ": "todo", "Test succeeded inside todo block: ": "todo_ok",
         "Tests skipped: ": "skipped"}


def grammar(path, failures=None):
    want_rc, lines = rc_of(path), read_lines(path)
    want_failures = None if failures is None else int(failures)
    units, problems, total_bad, seen = 0, [], 0, Counter()
    for n, line in enumerate(lines, 1):
        m = CLOSING.match(line)
        if m:
            unit, executed, todo, flaky, failures, word, skipped = m.groups()[1:]
            says = (int(failures), int(todo), int(skipped))
            lines_say = (seen["failed"] + seen["todo_ok"], seen["todo"], seen["skipped"])
            if word != ("failure" if says[0] == 1 else "failures"):
                problems.append("line %d: '%s' with %d" % (n, word, says[0]))
            if flaky != "0":
                problems.append("line %d: flaky count %s" % (n, flaky))
            if says != lines_say:
                problems.append("line %d: %s counts %d failures, %d todo, %d skipped; its lines say %d, %d, %d"
                                % ((n, unit) + says + lines_say))
            if int(executed) < says[0] + says[1]:
                problems.append("line %d: fewer tests executed than failures and todos" % n)
            units, total_bad, seen = units + 1, total_bad + says[0], Counter()
            continue
        m = MESSAGE.match(line)
        if not m:
            problems.append("line %d is not a Wine test line: %r" % (n, line[:120]))
        elif m.group(3) in KINDS:
            seen[KINDS[m.group(3)]] += 1
            if not m.group(4).strip():
                problems.append("line %d: %s with no message" % (n, m.group(3).strip()))
    if +seen:
        problems.append("lines after the last closing line")
    say(not problems and units, "%s: %d lines in Wine's format, %d unit(s) closed%s" % (
        path, len(lines), units, ": " + "; ".join(problems[:5]) if problems else ""))
    if want_failures is not None:
        say(total_bad == want_failures, "%s: %d failures in the closing lines (want %d)" % (path, total_bad, want_failures))
    if want_rc is not None:  # rc_of said when there is none
        say(want_rc == min(total_bad, 255), "%s: exit status %d = failures %d, at most 255" % (path, want_rc, total_bad))


def results(path, jsonl, expect=None):
    """Each case of the results file has the lines its status and its outcome against the
    expectations (expectations.evaluate, as `etwconf-report check` sees it) call for, at its
    checks' or its row's file and line (a failed check's line with its case, rule, expected and
    got), and no other message line is there."""
    want_rc = rc_of(path)
    from etwconf_report import expectations, ingest
    run = ingest.load(jsonl)
    outcomes = {}
    if expect:
        exp = expectations.load(expect)
        if exp.applies_to(run):
            outcomes = expectations.evaluate(run, exp)
    want = []   # (file:line, kind, case id)
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
    same = sorted(got) == sorted(want)
    say(same, "%s: %d message lines, one per failed check, skip, crash and known divergence of %s%s" % (
        path, len(got), os.path.basename(jsonl), "" if same else ": missing %s; not expected %s" % (
            [w for w in want if w not in got][:3], [g for g in got if g not in want][:3])))
    if want_rc is not None:
        say(want_rc == min(failures, 255), "%s: exit status %d (failures %d, at most 255)" % (path, want_rc, failures))
    kinds = Counter(oc.kind for oc in outcomes.values())
    if kinds:
        print("     outcomes: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))


def rc_of(out):
    """the exit status of the command that wrote OUT (OUT.rc); None, and a failure said, without it"""
    try:
        with open(out + ".rc") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        say(False, "%s: the exit status of the command that wrote it is not in %s.rc" % (out, out))
        return None


def report(out, *words):
    """etwconf-report in this process (its modules are read once for the stage)"""
    from etwconf_report.cli import main
    env = dict(w.split("=", 1) for w in words if re.match(r"[A-Z_]+=", w))
    with open(out, "w", encoding="utf-8") as o, open(out + ".err", "w", encoding="utf-8") as e, \
            contextlib.redirect_stdout(o), contextlib.redirect_stderr(e), \
            mock.patch.dict(os.environ, env):
        rc = main(list(words[len(env):]))
    with open(out + ".rc", "w") as f:
        f.write("%d\n" % (rc or 0))


def exported(src_path, cases_path, wine_path):
    with open(cases_path) as f:
        cases = json.load(f)["cases"]
    with open(src_path) as f:
        src = f.read()
    data = [c["id"] for c in cases if c["function"] != "(custom)"]
    custom = [c["id"] for c in cases if c["function"] == "(custom)"]
    ids = re.findall(r"\.id = \"([^\"]+)\"", src)
    say(ids == data, "export-wine: %d rows, one per data case, in table order" % len(ids))
    head = src.split("*/", 1)[0].split()
    say(all(c in head for c in custom), "export-wine: the %d custom cases left out are named" % len(custom))
    lines = src.split("\n")
    bad = [m.group(1) for m in re.finditer(r"\.id = \"([^\"]+)\", \.line = (\d+)", src)
           if ".id = \"%s\"" % m.group(1) not in lines[int(m.group(2)) - 1]]
    say(not bad, "export-wine: each row knows its own line (failures point at the row)%s" % (
        ": " + " ".join(bad[:5]) if bad else ""))
    todo = re.findall(r"\.id = \"([^\"]+)\"(?:(?!\.id = ).)*?\.todo = \{([^}]*)\}", src, re.S)
    from etwconf_report import expectations
    listed_ids = {e.case for e in expectations.load(wine_path).entries}
    say(todo and all(i in listed_ids for i, _ in todo),
        "export-wine: %d rows carry todo_wine versions, all listed in wine.json" % len(todo))


COMMANDS = {"report": report, "grammar": grammar, "results": results, "exported": exported}


def main(argv):
    src = open(argv[1]) if len(argv) > 1 else sys.stdin
    for line in src:
        words = shlex.split(line)
        if not words:
            continue
        cmd, args = words[0], words[1:]
        opts = {}
        while len(args) > 2 and args[-2].startswith("--") and cmd != "report":
            opts[args[-2][2:]] = args[-1]
            args = args[:-2]
        try:
            if cmd in COMMANDS:
                COMMANDS[cmd](*args, **opts)
            else:
                say(False, "winetest_format.py: unknown command %r" % line.strip())
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            say(False, "%s: %s" % (line.strip(), e))
    sys.stdout.flush()
    return 1 if CHECKS.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
