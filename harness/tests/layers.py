#!/usr/bin/env python3
"""harness/tests/layers.py [--root DIR] OBJDIR... - the layering of the C code, checked on the built
objects (README "How it fits together"). Each object is its source file, each file is in one layer
by its path, and `nm` says which file defines each symbol and which files use it:

    cli -> tools -> exec -> targets -> out -> suite -> cases -> core -> plat
    (each may use the layers to its right that USES lists); reference -> reference only

A file uses only its own layer and those its layer may use, and no files of harness/, reference/
or tools/ use each other, directly or through others (no circle). No C source of the harness or
the tools is over 800 lines. A path no layer maps, a layer's folder without C files and an object
directory without objects are errors: the check does not pass on nothing. An object of no source
in the tree is skipped and named; one older than its source fails (run make).

The self-test plants faults among the real objects (an upward call, two files that use each other,
a file no layer maps, and with the Windows objects a file of the live target that calls up into
target.c) and each must be reported; a layer's folder that is gone and an empty object directory
must fail too. Last line: "layers: N passed, N failed".
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checker  # noqa: E402

MAX_LINES = 800
SIZED = ("harness/", "tools/")

# the layer of a source path: its folder's name (first match wins); a path no prefix maps is an
# error. harness/twin/ is the Windows twin: a model of Windows for the live target under Wine,
# built into its own DLL; no part of the runner, it uses only the reference model.
LAYERS = [(d + "/", d.rsplit("/", 1)[-1]) for d in (
    "harness/cli", "harness/exec", "harness/targets", "harness/out", "harness/suite",
    "harness/core", "harness/plat", "harness/twin", "tools", "cases", "reference")]
# what each layer's files may use besides their own layer
USES = {
    "cli": {"tools", "exec", "targets", "out", "suite", "core", "plat"},
    "tools": {"exec", "targets", "out", "suite", "core", "plat"},
    "exec": {"out", "suite", "core", "plat"},
    # the built-in reference target links the reference library
    "targets": {"out", "core", "plat", "reference"},
    "out": {"suite", "core", "plat"},
    # the table of every case file, the lookups and the rule/case cross-checks
    "suite": {"cases", "core", "plat"},
    "cases": {"core", "plat"},
    "core": {"plat"},
    "plat": set(),
    "reference": set(),
    "twin": {"reference"},
}
CIRCLE_SCOPE = ("harness/", "reference/", "tools/")


def layer_of(path):
    for prefix, name in LAYERS:
        if path.startswith(prefix):
            return name
    return None


_NM = {}


def nm_symbols(objs):
    """{object: (defined, used)} global symbol names of the objects: one nm for all of them, each
    object read once per run"""
    todo = [o for o in objs if o not in _NM]
    for o in todo:
        _NM[o] = (set(), set())
    if todo:
        out = subprocess.run(["nm", "-P", "-A"] + todo, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("nm: %s" % (out.stderr or out.stdout).strip())
        for line in out.stdout.splitlines():
            obj, sep, rest = line.partition(": ")
            parts = rest.split()
            # .NAME: the linker's own (mingw's .refptr.NAME stubs, one per object that uses NAME)
            if not sep or obj not in _NM or len(parts) < 2 or parts[0].startswith("."):
                continue
            name, kind = parts[0], parts[1]
            if kind == "U":
                _NM[obj][1].add(name)
            elif kind in "TDBRCVWGS":  # global text, data, bss, read-only, common, weak, small data
                _NM[obj][0].add(name)
    return {o: _NM[o] for o in objs}


def objects(roots, objdirs):
    """{source path: object path} of the objects under objdirs whose source exists (in the first of
    roots that has it), and problems"""
    found, problems, skipped = {}, [], []
    for objdir, d, files in ((o, d, f) for o in objdirs for d, _, f in os.walk(o)):
        for obj in (os.path.join(d, f) for f in files if f.endswith(".o")):
            src = os.path.relpath(obj, objdir)[:-2].replace(os.sep, "/") + ".c"
            path = next((os.path.join(r, src) for r in roots if os.path.exists(os.path.join(r, src))), None)
            if path is None:
                skipped.append(src)
                continue
            if os.path.getmtime(obj) < os.path.getmtime(path):
                problems.append("%s: older than %s: run make (or make windows) first" % (obj, src))
            found[src] = obj
    return found, problems, sorted(skipped)


def definers(found, symbols):
    """{symbol: the source file that defines it} (the first by path of those that do)"""
    defs = {}
    for src, obj in sorted(found.items()):
        for name in symbols[obj][0]:
            defs.setdefault(name, src)
    return defs


def components(graph):
    """strongly connected components of graph: the sets of nodes that reach each other"""
    reach = {}
    for v in graph:
        seen, todo = set(), [v]
        while todo:
            for w in graph.get(todo.pop(), ()):
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        reach[v] = seen
    return sorted({tuple(sorted({v} | {w for w in reach[v] if v in reach.get(w, ())}))
                   for v in graph})


def check_objdir(roots, objdir, planted=None):
    """returns (passed, [problems], [notes]) for the objects of one build (and those of planted, a
    directory of more objects), their sources in roots"""
    passed, problems, notes = 0, [], []
    found, stale, skipped = objects(roots, [objdir] + ([planted] if planted else []))
    problems += stale
    if skipped:
        notes.append("%s: %d object(s) of no source in the tree (generated, or the source is gone), not checked: %s" % (
            objdir, len(skipped), " ".join(skipped)))
    if not found:
        problems.append("%s: no objects of the sources found: build first (make), nothing was checked" % objdir)
        return passed, problems, notes
    symbols = nm_symbols(sorted(found.values()))
    problems += ["%s: no layer maps this path: add it to LAYERS in harness/tests/layers.py" % src
                 for src in sorted(found) if layer_of(src) is None]
    found = {src: obj for src, obj in found.items() if layer_of(src)}
    defs, uses = definers(found, symbols), {src: symbols[obj][1] for src, obj in found.items()}
    graph = {}
    for src, used in uses.items():
        edges = {}
        for name in used:
            dst = defs.get(name)
            if dst and dst != src:
                edges.setdefault(dst, set()).add(name)
        graph[src] = edges
        a = layer_of(src)
        for dst, names in sorted(edges.items()):
            b = layer_of(dst)
            if b == a or b in USES[a]:
                passed += 1
            else:
                problems.append("%s (%s) uses %s of %s (%s): %s may use only %s" % (
                    src, a, ", ".join(sorted(names)[:4]), dst, b, a, ", ".join(sorted(USES[a] | {a}))))
    scoped = {s: {d for d in e if d.startswith(CIRCLE_SCOPE)} for s, e in graph.items() if s.startswith(CIRCLE_SCOPE)}
    ncomp = 0
    for comp in components(scoped):
        if len(comp) < 2:
            ncomp += 1
            continue
        uses_txt = "; ".join("%s uses %s of %s" % (s, ", ".join(sorted(graph[s][d])[:3]), d)
                             for s in comp for d in sorted(graph[s]) if d in comp)
        problems.append("circle of files that use each other: %s (%s)" % (" ".join(comp), uses_txt))
    if ncomp:
        passed += 1
    notes.append("%s: %d objects, %d symbols defined, %d uses between files" % (
        objdir, len(found), len(defs), sum(len(e) for e in graph.values())))
    return passed, problems, notes


def check_sizes(root):
    passed, problems = 0, []
    for d, _, files in (w for top in SIZED for w in os.walk(os.path.join(root, top))):
        for path in (os.path.join(d, f) for f in files if f.endswith((".c", ".h"))):
            n = open(path, encoding="utf-8", errors="replace").read().count("\n")
            if n > MAX_LINES:
                problems.append("%s: %d lines, over %d: split it by job"
                                % (os.path.relpath(path, root), n, MAX_LINES))
            else:
                passed += 1
    return passed, problems


def check_mapping(root):
    """every prefix of LAYERS names C files of the tree: a folder that is gone fails"""
    gone = [(prefix, name) for prefix, name in LAYERS
            if not any(f.endswith(".c") for _, _, fs in os.walk(os.path.join(root, prefix))
                       for f in fs)]
    return len(LAYERS) - len(gone), ["LAYERS maps %s to %s, and it holds no C file: remove or "
                                     "correct it" % g for g in gone]


def check(root, objdirs):
    runs = [check_sizes(root) + ([],), check_mapping(root) + ([],)]
    runs += [check_objdir([root], o) for o in objdirs]
    if not objdirs:
        runs.append((0, ["no object directory given: nothing to check"], []))
    return (sum(r[0] for r in runs), [p for r in runs for p in r[1]],
            [n for r in runs for n in r[2]])


# the self-test's cases: the files planted, what must be reported, and nothing else about them.
# A platform file calling the core is an upward call (the core calling the platform is allowed,
# and must not be reported); two core files that call each other are a circle.
CASES = [
    ("an upward call (plat -> core)", {
        "harness/plat/planted_up.c": "int planted_rule(void);\nint planted_up(void) { return planted_rule(); }\n",
        "harness/core/planted_rule.c": "int planted_rule(void) { return 1; }\n",
        "harness/core/planted_down.c": "int planted_up(void);\nint planted_down(void) { return planted_up(); }\n"},
     "harness/plat/planted_up.c (plat) uses planted_rule of harness/core/planted_rule.c (core)"),
    ("two files that use each other", {
        "harness/core/planted_a.c": "int planted_b(int);\nint planted_a(int n) { return n ? planted_b(n - 1) : 0; }\n",
        "harness/core/planted_b.c": "int planted_a(int);\nint planted_b(int n) { return n ? planted_a(n - 1) : 0; }\n"},
     "circle of files that use each other: harness/core/planted_a.c harness/core/planted_b.c"),
    ("a file no layer maps", {"harness/planted/planted_x.c": "int planted_x(void) { return 0; }\n"},
     "harness/planted/planted_x.c: no layer maps this path"),
]


# the live Windows target's top file: the self-test plants a call up to it from a file it uses
LIVE_TOP = "harness/targets/win_live/target.c"
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def live_plant(root, objdirs):
    """the live target's upward call, planted: (objdir, {path: text}, what must be reported) for
    the first object directory that holds LIVE_TOP; None when none does. A file of the folder
    that LIVE_TOP uses (one that no other file of the folder uses, when there is one: the circle
    is then those two files) is replaced by one that defines what LIVE_TOP uses of it (under the
    object's own symbol names, so a 32-bit Windows build's leading underscore stays) and also
    calls a function of LIVE_TOP."""
    for objdir in objdirs:
        found, _, _ = objects([root], [objdir])
        if LIVE_TOP not in found:
            continue
        symbols = nm_symbols(sorted(found.values()))
        defs = definers(found, symbols)
        top_defs, top_uses = symbols[found[LIVE_TOP]]
        folder = os.path.dirname(LIVE_TOP) + "/"
        below = sorted({defs[n] for n in top_uses if n in defs and defs[n] != LIVE_TOP and defs[n].startswith(folder)})
        ups = sorted(n for n in top_defs if IDENT.match(n))
        if not below or not ups:
            return objdir, {}, ["%s uses no file of its folder, or defines no function: nothing to plant" % LIVE_TOP]
        users = {}
        for src, obj in found.items():
            for name in symbols[obj][1]:
                if defs.get(name, src) != src:
                    users.setdefault(defs[name], set()).add(src)
        low = next((f for f in below if users.get(f, set()) <= {LIVE_TOP}), below[0])
        names = sorted(n for n in top_uses if defs.get(n) == low and IDENT.match(n))
        text = "".join("void %s(void) {}\n" % n for n in names)
        text += "void %s(void);\nvoid planted_live_up(void) { %s(); }\n" % (ups[0], ups[0])
        return objdir, {low: text}, ["circle of files that use each other: ", low, LIVE_TOP]
    return None


def planted_case(root, objdir, cc, what, sources, expect):
    """(ok, message): the files of sources {path: text} compiled in a scratch tree and checked with
    the real objects of objdir (a planted path replaces the real file's object); every string of
    expect must be in one reported problem, and nothing else about the planted files reported"""
    tmp = tempfile.mkdtemp(prefix="etwconf-layers-")
    try:
        obj = os.path.join(tmp, "obj")
        for f, text in sorted(sources.items()):
            src = os.path.join(tmp, f)
            os.makedirs(os.path.dirname(src), exist_ok=True)
            with open(src, "w") as fh:
                fh.write(text)
            os.utime(src, (0, 0))  # a real object it replaces is no older than it
            o = os.path.join(obj, f[:-2] + ".o")
            os.makedirs(os.path.dirname(o), exist_ok=True)
            cc_run = subprocess.run(cc + ["-c", "-o", o, src], capture_output=True, text=True)
            if cc_run.returncode != 0:
                return False, "self-test: %s: %s did not compile: %s" % (what, f, cc_run.stderr.strip())
        if not sources:
            return False, "self-test: %s: %s" % (what, expect[0])
        _, problems, _ = check_objdir([tmp, root], objdir, planted=obj)
        caught = [p for p in problems if all(e in p for e in expect)]
        others = [p for p in problems if p not in caught and "planted" in p]
        ok = bool(caught) and not others
        return ok, "self-test: %s is %s%s" % (what, "caught" if caught else "NOT caught",
                                              "; also reported: " + "; ".join(others) if others else "")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def self_test(root, objdirs, cc):
    """the checker must catch each planted fault among the real objects, and must fail on
    an empty object directory and on a layer's folder that is gone; (ok, message) each, ok None
    for a case that was not tried (and why)"""
    results = [planted_case(root, objdirs[0], cc, what, files, [expect])
               for what, files, expect in CASES]
    live = live_plant(root, objdirs)
    what = "a call from a file of the live target up to %s" % LIVE_TOP
    if live is None:
        results.append((None, "self-test: %s not tried: no object directory holds it (make windows builds it)" % what))
    else:
        objdir, sources, expect = live
        results.append(planted_case(root, objdir, cc, what + " (%s)" % objdir, sources, expect))
    empty = tempfile.mkdtemp(prefix="etwconf-layers-")
    try:
        _, problems, _ = check_objdir([root], empty)
        ok = any("no objects" in p for p in problems)
        results.append((ok, "self-test: an empty object directory %s" % ("fails" if ok else "PASSES")))
        _, problems = check_mapping(empty)
        ok = any(p.startswith("LAYERS maps harness/suite/ ") for p in problems)
        results.append((ok, "self-test: a layer's folder that is gone %s" % ("fails" if ok else "PASSES")))
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    return results


def main(argv):
    p = argparse.ArgumentParser(usage="layers.py [--root DIR] OBJDIR...", description=__doc__)
    p.add_argument("--root", default=".")
    p.add_argument("objdirs", nargs="*", metavar="OBJDIR")
    a = p.parse_args(argv)
    root, objdirs, cc = a.root, a.objdirs, os.environ.get("CC", "cc").split()
    passed, problems, notes = check(root, objdirs)
    for n in notes:
        print("note " + n)
    for p in problems:
        print("FAIL " + p)
    if not problems:  # a run with failures holds nothing as a whole
        print("ok   %d checks hold (uses between layers, no circle, file sizes)" % passed)
    c = Checker()
    c.failed, c.passed = len(problems), passed + (not problems)
    for ok, msg in self_test(root, objdirs, cc) if objdirs else []:
        if ok is None:
            print("note " + msg)
        else:
            c.ok(ok, msg)
    return c.summary("layers")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
