#!/usr/bin/env python3
"""harness/tests/stage_builds.py [MAKEFILE-DIR] - make test's stages build no file twice at once.

`make test` makes every stage in one make (mk/stages.mk), which builds each prerequisite once. It
cannot see a build that a stage's recipe starts itself ($(MAKE) FILE...): what that makes must be
among the stage's prerequisites, or be the stage's alone (no stage that may run beside it needs or
builds it). And every stage comes after TEST_PREP. Read from make's database (make -pnq) of the
Makefile in MAKEFILE-DIR (default .): prerequisites (order-only too), the stages' recipes and the
variables their $(MAKE) lines name ($(V) and $(V:a=b) only). One "ok"/"FAIL" line per check;
exit status 1 on a failure.
"""
import re
import subprocess
import sys


def database(d):
    p = subprocess.run(["make", "-C", d, "-pnq", "--no-print-directory", ".DEFAULT"], capture_output=True, text=True)
    return p.stdout


def parse(db):
    deps, var, recipe, target = {}, {}, {}, None
    for line in db.split("\n"):
        if line.startswith("\t"):
            if target:
                recipe.setdefault(target, []).append(line[1:])
            continue
        if line.startswith("#"):
            continue
        target = None
        m = re.match(r"^([A-Za-z_.][A-Za-z0-9_.]*) :?= (.*)$", line)
        if m:
            var[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^([^:=\s][^:=]*?):(?![:=])\s*(.*)$", line)
        if m:
            ts = m.group(1).split()
            for t in ts:
                deps.setdefault(t, set()).update(m.group(2).replace("|", " ").split())
            target = ts[0] if len(ts) == 1 else None
    return deps, var, recipe


def expand(text, var):
    """$(V) and $(V:a=b), innermost first; what is left of other functions stays as text"""
    ref = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)(?::([^=()$]*)=([^()$]*))?\)")

    def sub(m):
        words = expand(var.get(m.group(1), ""), var).split() if m.group(1) in var else []
        if m.group(2) is not None:
            a, b = (m.group(2), m.group(3)) if "%" in m.group(2) else ("%" + m.group(2), "%" + m.group(3))
            pre, _, post = a.partition("%")
            words = [b.replace("%", w[len(pre):len(w) - len(post)], 1)
                     if w.startswith(pre) and w.endswith(post) else w for w in words]
        return " ".join(words)

    for _ in range(20):
        text, n = ref.subn(sub, text)
        if not n:
            break
    return text


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
    deps, var, recipe = parse(db)
    build = expand(var.get("BUILD", "build"), var).strip() or "build"
    stages = expand(var.get("TEST_STAGES", ""), var).split()
    prep = expand(var.get("TEST_PREP", ""), var).split()
    results = [(len(stages) > 5, "the stages to look at: %d (TEST_STAGES)" % len(stages))]
    before = {s: closure(deps, "test-" + s, set()) - {"test-" + s} for s in stages}
    late = [s for s in stages if not set(prep) <= before[s]]
    results.append((bool(prep) and not late and len(stages) > 5,
                    "every stage comes after TEST_PREP (%s)%s" % (" ".join(prep), ": not " + " ".join(late) if late else "")))
    # what the builds a stage's recipe starts make: the BUILD files its $(MAKE) lines name, and theirs
    own = {}
    for s in stages:
        named = [w for line in recipe.get("test-" + s, []) if "$(MAKE)" in line
                 for w in expand(line, var).split() if w.startswith(build + "/")]
        own[s] = set()
        for f in named:
            own[s] |= {x for x in closure(deps, f, set()) if x.startswith(build + "/")} - before[s]
    shared = []
    for i, s in enumerate(stages):
        for t in stages[i + 1:]:
            if "test-" + t in before[s] or "test-" + s in before[t]:
                continue
            for f in sorted(own[s] & (own[t] | before[t]) | own[t] & before[s]):
                shared.append("%s (%s, %s)" % (f, s, t))
    results.append((not shared and len(stages) > 5,
                    "no file is built by a stage's own make while another stage may build it (%d files built so, %d stages)%s" % (
                        sum(len(v) for v in own.values()), len(stages), ": " + "; ".join(shared) if shared else "")))
    return results


def main(argv):
    results = check(database(argv[1] if len(argv) > 1 else "."))
    for good, msg in results:
        print(("ok   " if good else "FAIL ") + msg)
    return 0 if all(good for good, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
