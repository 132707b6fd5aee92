"""tools/mutate/test-anchors.py BUILD - the mutants are anchored to tags, not to text.

A copy of reference/ is edited without changing its behaviour (InformationLength renamed to
Length, SessionHandle to Session, ReturnLength to RetLen, and every block-comment line split after
its first sentence): 'mutate check' must pass on it, and every mutant applied to it must give the
code of the mutant applied to reference/ and edited afterwards (so no 'TO' names a parameter).
And the checks can fail: a misspelt tag, a duplicated tag, a changed tagged line, a mutant naming
a parameter and a counted rule left without a mutant are each reported.
"""
import contextlib
import functools
import io
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

DEF = "tools/mutate/mutants.def"
W = os.path.join(sys.argv[1] if len(sys.argv) > 1 else "build", "mutate/anchors")
counts = {"passed": 0, "failed": 0}


def check(ok, msg):
    counts["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {msg}")


@functools.lru_cache(maxsize=None)
def edit_line(line):
    line = re.sub(r"\bSessionHandle\b", "Session", line.replace("InformationLength", "Length"))
    line = re.sub(r"\bReturnLength\b", "RetLen", line)
    return re.sub(r"^( *\* [^.]*[a-z])\. ([A-Z].*)$", r"\1.\n *  \2", line)


def edit(text):
    """the behaviour-neutral edits (each within a line)"""
    return "\n".join(map(edit_line, text.split("\n")))


def model(ref, def_path=DEF, checked=True):
    """the mutate model of REF and DEF, what its check said, and whether the check passed"""
    out = io.StringIO()
    with contextlib.redirect_stderr(out), contextlib.redirect_stdout(out):
        m = mutate.Model(ref, "spec/rules.def")
        m.parse(def_path)
        ok = checked and m.check()
    return m, out.getvalue(), ok


def differing(orig, edited):
    """the ids of the mutants whose code on the edited copy is not the edited code of reference/"""
    def same(a, b):
        try:
            return edit(orig.mutated(a)[1]) == edited.mutated(b)[1]
        except mutate.Broken:
            return False
    return [a.id for a, b in zip(orig.mutants, edited.mutants) if not same(a, b)]


shutil.rmtree(W, ignore_errors=True)
os.makedirs(f"{W}/ref")
for name in os.listdir("reference"):
    text = mutate.read(f"reference/{name}")
    mutate.write(f"{W}/ref/{name}", edit(text) if name.endswith(".c") else text)
copy = "".join(mutate.read(f"{W}/ref/{n}") for n in os.listdir(f"{W}/ref") if n.endswith(".c"))
if "InformationLength" in copy or not re.search(r"^ \*  [A-Z]", copy, re.M):
    check(False, "the edits did not change the copy as intended")

orig = model("reference", checked=False)[0]
edited, out, ok = model(f"{W}/ref")
check(ok, "mutate check against the renamed and reflowed copy: "
      + out.strip().replace("mutate check: ", "", 1))

diffs = differing(orig, edited)
if not orig.mutants:
    check(False, f"no mutant listed in {DEF}: nothing to compare on the edited copy")
elif diffs:
    check(False, "mutants whose code differs on the edited copy (a text names a renamed parameter "
          "or a comment): " + " ".join(diffs))
else:
    check(True, f"all {len(orig.mutants)} mutants give the same code on the edited copy as on "
          "reference/ edited afterwards")


def expect_fail(what, pattern, ref, def_path=DEF):
    """mutate check must fail and say PATTERN"""
    _, out, ok = model(ref, def_path)
    said = [re.sub(r"^\S* ", "", ln) for ln in out.split("\n") if pattern in ln]
    check(not ok and said, f"{what}: " + ("mutate check passed" if ok else said[0] if said else
                                          f"mutate check failed without saying '{pattern}': {out}"))


def broken(name, old, new):
    """a copy of the edited reference with the first match of OLD in trace.c replaced by NEW"""
    shutil.copytree(f"{W}/ref", f"{W}/{name}")
    text = mutate.read(f"{W}/ref/trace.c")
    if re.sub(old, new, text, count=1) == text:
        check(False, f"{name}: the replacement changed nothing")
    mutate.write(f"{W}/{name}/trace.c", re.sub(old, new, text, count=1))
    return f"{W}/{name}"


expect_fail("a misspelt tag", "no rule TQI.04.MIN_SZE",
            broken("misspelt", r"@TQI\.04\.MIN_SIZE ", "@TQI.04.MIN_SZE "))
expect_fail("a tag given twice", "tag @TQI.04.RETLEN also at",
            broken("duplicated", r"@TQI\.05\.RETLEN ", "@TQI.05.RETLEN @TQI.04.RETLEN "))
expect_fail("a changed tagged line",
            "'from' occurs 0 times in the code of the line tagged @TQI.CLASS.SET:04",
            broken("changed", r"ETW_V6_2(.*@TQI\.CLASS\.SET:04)", r"ETW_V6_3\1"))
no_wrap = re.sub(r"^\[cti\.zero-not-skipped\][^\[]*", "", mutate.read(DEF), flags=re.M)
mutate.write(f"{W}/no-wrap.def", no_wrap)
expect_fail("a counted rule without a mutant", "counted rule CTI.WRAP has no mutant",
            f"{W}/ref", f"{W}/no-wrap.def")
probe = ("\n[probe.names-a-parameter] size-off-by-one: probe\n"
         "    at TQI.04.MIN_SIZE: `<` -> `< InformationLength + 0 *`\n")
mutate.write(f"{W}/probe.def", mutate.read(DEF) + probe)
diffs = differing(model("reference", f"{W}/probe.def", False)[0],
                  model(f"{W}/ref", f"{W}/probe.def", False)[0])
check(diffs == ["probe.names-a-parameter"], "a mutant whose TO names InformationLength is "
      + ("reported" if diffs == ["probe.names-a-parameter"] else f"not reported ({diffs})"))
print(f"mutate-anchors: {counts['passed']} passed, {counts['failed']} failed, 0 skipped")
sys.exit(1 if counts["failed"] else 0)
