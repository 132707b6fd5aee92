#!/usr/bin/env python3
"""harness/tests/stage_builds.py [MAKEFILE-DIR] - no two test stages build the same file.

make test runs its stages side by side, each as a make of its own (harness/tests/stages.sh): a file
that two of them build can be written by both at once (one renames or truncates what the other is
writing). What several stages use is built before they start (TEST_PREP, by the stage prep; the
Windows programs, WINPREP_FILES, by the stage winprep; GEN_HEADERS, GEN_SHARED and the commit by
make test itself), or by a stage that the others come after (TEST_AFTER).

This reads make's database (make -pnq) of the Makefile in MAKEFILE-DIR (default: .), follows each
stage target's prerequisites (explicit rules; pattern rules' products are objects of a single
build), and prints one "ok"/"FAIL" line per check. Exit status 1 on a failure.
"""
import re
import subprocess
import sys


def database(d):
    p = subprocess.run(["make", "-C", d, "-pnq", "--no-print-directory", ".DEFAULT"], capture_output=True, text=True)
    return p.stdout


def parse(db):
    deps, var = {}, {}
    for line in db.split("\n"):
        if line.startswith(("\t", "#")) or not line.strip():
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*) :?= (.*)$", line)
        if m:
            var[m.group(1)] = m.group(2).split()
            continue
        m = re.match(r"^([^:=]+?):(?![:=])\s*(.*)$", line)
        if m:
            for t in m.group(1).split():
                deps.setdefault(t, set()).update(m.group(2).split("|")[0].split())
    return deps, var


def closure(deps, t, seen):
    stack = [t]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(deps.get(n, ()))
    return seen


def check(db):
    deps, var = parse(db)
    build = (var.get("BUILD") or ["build"])[0]
    stages = var.get("TEST_STAGES", [])
    results = [(len(stages) > 5, "the stages to look at: %d (TEST_STAGES)" % len(stages))]
    before = set()
    for t in (var.get("TEST_PREP", []) + var.get("WINPREP_FILES", []) + var.get("GEN_HEADERS", []) +
              var.get("GEN_SHARED", []) + [build + "/gitrev.txt"]):
        closure(deps, t, before)
    order = set()
    for a in var.get("TEST_AFTER", []):
        x, _, y = a.partition(":")
        order.add((x, y))

    def ordered(a, b):  # does one come after the other (directly or through others)?
        def reach(x, y, seen=()):
            return (x, y) in order or any(p == x and q not in seen and reach(q, y, seen + (q,)) for p, q in order)
        return reach(a, b) or reach(b, a)

    by_file = {}
    for s in stages:
        for f in closure(deps, "test-" + s, set()):
            if (f == build or f.startswith(build + "/")) and f not in before:
                by_file.setdefault(f, []).append(s)
    shared = ["%s (%s)" % (f, ", ".join(ss)) for f, ss in sorted(by_file.items())
              if any(not ordered(a, b) for i, a in enumerate(ss) for b in ss[i + 1:])]
    results.append((not shared and len(stages) > 5,
                    "no file is built by two stages that may run at once (%d files built by the stages themselves)%s" % (
                        len(by_file), ": " + "; ".join(shared) if shared else "")))
    return results


def main(argv):
    d = argv[1] if len(argv) > 1 else "."
    bad = 0
    for good, msg in check(database(d)):
        print(("ok   " if good else "FAIL ") + msg)
        bad += not good
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
