#!/usr/bin/env python3
"""harness/tests/layers.py [--root DIR] - the layering of the C sources, checked from their
#include "..." lines (README "How it fits together"):

    cli -> exec -> core (and out) -> plat        targets -> core, plat
    tools -> core, out (and the rows' shared constants, cases/common.h)
    reference -> spec only
    cases -> the case-level headers (harness/case.h, check.h, scenario.h, etwconf.h; cases/, spec/)

A layer may include its own files and anything its rule allows, nothing else; plat includes no
core, exec or cli. There is no include cycle, and no C source of the harness or the tools is over
800 lines. Then the checker proves it can fail: in a scratch copy it adds a forbidden include, a
cycle and an oversized file, and each must be reported.

Last line: "layers: N passed, N failed".
"""
import os
import re
import shutil
import sys
import tempfile

MAX_LINES = 800
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# layer of a path (first match wins), and what each layer may include
LAYERS = [
    ("harness/cli/", "cli"),
    ("harness/exec/", "exec"),
    ("harness/out/", "out"),
    ("harness/core/", "core"),
    ("harness/plat/", "plat"),
    ("harness/targets/", "targets"),
    ("harness/mutate/", "tools"),
    ("harness/tests/", "tests"),
    ("harness/windows/", "tests"),
    ("harness/", "core"),  # harness/etwconf.h, harness/case.h: the core's interface
    ("tools/", "tools"),
    ("reference/", "reference"),
    ("cases/", "cases"),
    ("spec/", "spec"),
    ("bench/", "bench"),
]
ALLOWED = {
    "cli": {"cli", "exec", "out", "core", "plat", "spec"},
    "exec": {"exec", "out", "core", "plat", "spec"},
    "out": {"out", "core", "plat", "spec"},
    "core": {"core", "plat", "spec"},
    "plat": {"plat"},
    "targets": {"targets", "core", "plat", "spec", "reference-abi"},
    "tools": {"tools", "core", "out", "plat", "spec", "reference-abi", "cases"},  # the fuzzer uses the rows' shared constants
    "reference": {"reference", "reference-abi", "spec"},
    "cases": {"cases", "case-level", "spec"},
    "spec": {"spec"},
}
CASE_LEVEL = {"harness/case.h", "harness/etwconf.h", "harness/check.h", "harness/scenario.h"}
# the files whose size is limited: the harness and the tools
SIZED = ("harness/", "tools/")


def layer_of(path):
    if "/" not in path:
        return "spec"  # generated into build/gen/ from data (rule_ids.def, export_wine_runtime.h): data, like spec/
    if path == "reference/etwref.h":
        return "reference-abi"  # the exported control ABI of a library
    for prefix, name in LAYERS:
        if path.startswith(prefix):
            return name
    return None


def sources(root):
    out = []
    for top in ("harness", "tools", "reference", "cases", "spec"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return sorted(out)


def check(root):
    """returns (passed, [problems])"""
    passed, problems = 0, []
    files = sources(root)
    if not files:  # no source is nothing checked, never a pass
        problems.append("no C source under %s (harness, tools, reference, cases, spec): nothing to check" % os.path.abspath(root))
        return passed, problems
    graph = {}
    for f in files:
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        incs = INCLUDE.findall(text)
        graph[f] = [i for i in incs if os.path.exists(os.path.join(root, i))]
        src = layer_of(f)
        src = "reference" if src == "reference-abi" else src
        if src in ALLOWED:
            for inc in incs:
                dst = layer_of(inc)
                ok = dst in ALLOWED[src] or (src == "cases" and inc in CASE_LEVEL)
                if ok:
                    passed += 1
                else:
                    problems.append("%s (%s) includes %s (%s): %s may include only %s" % (
                        f, src, inc, dst, src, ", ".join(sorted(ALLOWED[src]))))
        if f.startswith(SIZED) and f.endswith((".c", ".h")):
            n = text.count("\n")
            if n > MAX_LINES:
                problems.append("%s: %d lines, over %d: split it by job" % (f, n, MAX_LINES))
            else:
                passed += 1
    # include cycles (depth-first search, each cycle reported once)
    state, stack, cycles = {}, [], set()

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in graph.get(n, []):
            if state.get(m) == 1:
                cyc = stack[stack.index(m):]
                k = min(range(len(cyc)), key=lambda i: cyc[i])
                cycles.add(tuple(cyc[k:] + cyc[:k]))
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    sys.setrecursionlimit(10000)
    for n in graph:
        if n not in state:
            visit(n)
    for c in sorted(cycles):
        problems.append("include cycle: " + " -> ".join(c + (c[0],)))
    if not cycles:
        passed += 1
    return passed, problems


def self_test(root):
    """the checker must catch each kind of violation in a scratch copy"""
    results = []
    injections = [
        ("a platform file including the runner", "harness/plat/plat.h", '#include "harness/exec/exec.h"\n', "includes harness/exec/exec.h"),
        ("the reference including the harness", "reference/etwref.h", '#include "harness/etwconf.h"\n', "includes harness/etwconf.h"),
        ("a case including the runner", "cases/common.h", '#include "harness/exec/exec.h"\n', "includes harness/exec/exec.h"),
        ("an include cycle", "spec/abi.h", '#include "harness/case.h"\n', "include cycle"),
        ("a file over %d lines" % MAX_LINES, "harness/core/rules.c", "/* x */\n" * (MAX_LINES + 1), "over %d" % MAX_LINES),
    ]
    for what, path, text, expect in injections:
        tmp = tempfile.mkdtemp(prefix="etwconf-layers-")
        try:
            for top in ("harness", "tools", "reference", "cases", "spec"):
                src = os.path.join(root, top)
                if os.path.isdir(src):
                    shutil.copytree(src, os.path.join(tmp, top), ignore=shutil.ignore_patterns("*.o", "*.so", "*.exe", "*.jsonl"))
            target = os.path.join(tmp, path)
            if not os.path.exists(target):
                results.append((False, "self-test: %s: %s is missing" % (what, path)))
                continue
            with open(target, "a") as fh:
                fh.write(text)
            _, problems = check(tmp)
            caught = any(expect in p for p in problems)
            results.append((caught, "self-test: %s (%s) is %s" % (what, path, "caught" if caught else "NOT caught")))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return results


def main():
    root = "."
    if len(sys.argv) == 3 and sys.argv[1] == "--root":
        root = sys.argv[2]
    elif len(sys.argv) != 1:
        print(__doc__.strip())
        return 2
    passed, problems = check(root)
    failed = len(problems)
    for p in problems:
        print("FAIL " + p)
    if not problems:
        print("ok   %d checks hold (include lines, file sizes, no cycle)" % passed)
    passed_total = 1 if not problems else 0
    for ok, msg in self_test(root):
        print(("ok   " if ok else "FAIL ") + msg)
        passed_total += ok
        failed += not ok
    print("layers: %d passed, %d failed" % (passed_total + passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
