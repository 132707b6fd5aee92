#!/usr/bin/env python3
"""The CI workflow for real Windows (.github/workflows/windows.yml), read with Debian's PyYAML.

  workflow.py check              structural checks; every file, command, make target and
                                 etwconf-report subcommand it names exists; prints ok/FAIL lines
  workflow.py run-line JOB LABEL the command of JOB's single `run` step for the runner LABEL
  workflow.py steps JOB          JOB's `run` steps as JSON (a list of strings)
  workflow.py selftest           mutated copies of the workflow must each fail the checks
  workflow.py samples DIR [--worse]  synthetic live-Windows results for the runners' machine kinds
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
WORKFLOW = os.path.join(REPO, ".github", "workflows", "windows.yml")
RUNNERS = ("windows-2022", "windows-2025", "windows-11-arm")
# the machine kinds the hosted images are (baselines/windows/KIND.json), both exes on each
RUNNER_KINDS = {
    "windows-2022": ("10.0.20348", "server", "x86_64"),
    "windows-2025": ("10.0.26100", "server", "x86_64"),
    "windows-11-arm": ("10.0.26100", "workstation", "aarch64"),
}
ACTIONS = {"actions/checkout@v4", "actions/upload-artifact@v4", "actions/download-artifact@v4"}
# commands of the host, not of the repository (the Debian container, the runners' shells)
SYSTEM = {"apt-get", "git", "make", "python3", "cat", "call"}
PRODUCED = ("build", "out", "results")        # made by the jobs, not in the repository
# the matrix: the hosted images, or the runners of the workflow_dispatch input `runners`
MATRIX = re.compile(r"""^\$\{\{ fromJSON\(inputs\.runners \|\| '(\[.*\])'\) \}\}$""")
# a self-hosted runner as the input names it: its labels
SELF_HOSTED = ["self-hosted", "windows", "x64"]


def expand(text, runner):
    """What GitHub makes of text for one runner of the matrix (an image name or a list of labels):
    join() of a list is its items joined, a list in a plain ${{ }} is the text 'Array'."""
    label = "-".join(runner) if isinstance(runner, list) else runner
    text = re.sub(r"\$\{\{ join\(matrix\.runner, '([^']*)'\) \}\}",
                  lambda m: m.group(1).join(runner) if isinstance(runner, list) else runner, text)
    return text.replace("${{ matrix.runner }}", "Array" if isinstance(runner, list) else label)


# Debian's python3-yaml. make test runs Python with -S (no site-packages: the suite's own code uses
# the standard library only) and the interpreter may not be Debian's (a pyenv one), so Debian's
# module directory is named here; it goes last, so nothing of the standard library is shadowed.
DEBIAN_PY = "/usr/lib/python3/dist-packages"
if os.path.isdir(DEBIAN_PY) and DEBIAN_PY not in sys.path:
    sys.path.append(DEBIAN_PY)
try:
    import yaml
except ImportError:
    yaml = None


class YamlError(Exception):
    pass


class _Loader(getattr(yaml, "SafeLoader", object)):
    """YAML's safe loader, refusing a key that is repeated in a mapping (GitHub refuses it too)."""


def _mapping(loader, node):
    loader.flatten_mapping(node)
    out = {}
    for k, v in node.value:
        key = loader.construct_object(k, deep=True)
        if key in out:
            raise YamlError("line %d: key %r repeated" % (k.start_mark.line + 1, key))
        out[key] = loader.construct_object(v, deep=True)
    return out


if yaml is not None:
    _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def parse(text):
    if yaml is None:
        raise YamlError("PyYAML is missing: install Debian's python3-yaml (sh .ci/deps.sh fleet)")
    try:
        doc = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as e:
        raise YamlError(str(e).replace("\n", " "))
    if isinstance(doc, dict) and True in doc:
        doc["on"] = doc.pop(True)       # YAML 1.1 reads the key `on` as true; GitHub reads "on"
    return doc


def load(path=WORKFLOW):
    with open(path, encoding="utf-8") as f:
        return parse(f.read())


# ------------------------------------------------------------------------------ checks
class Checker:
    def __init__(self):
        self.passed = self.failed = 0

    def ok(self, cond, msg):
        if cond:
            self.passed += 1
            print("ok   " + msg)
        else:
            self.failed += 1
            print("FAIL " + msg)
        return cond


def run_steps(job):
    return [s["run"] for s in job.get("steps") or [] if isinstance(s, dict) and "run" in s]


def commands(script):
    """Simple commands of a run script: split at newlines, &&, ||, ;, |."""
    out = []
    for line in script.replace("\\\n", " ").split("\n"):
        for part in re.split(r"&&|\|\||;|\|", line):
            part = part.strip()
            if part:
                out.append(part)
    return out


def _make_target_ok(target):
    p = subprocess.run(["make", "-n", "-s", "--no-print-directory", target], cwd=REPO,
                       capture_output=True, text=True, timeout=120)
    return p.returncode == 0, (p.stderr.strip().splitlines() or [""])[-1]


def _report_sub_ok(sub):
    py = [sys.executable] + (["-S"] if sys.flags.no_site else [])  # started as this one was
    p = subprocess.run(py + [os.path.join(REPO, "reports", "etwconf-report")] + sub +
                       ["--help"], capture_output=True, text=True, timeout=60)
    return p.returncode == 0


def check_paths(c, where, words):
    for w in words:
        w = w.strip("\"'")
        if "${{" in w or w.startswith(("$", "-")) or "=" in w:
            continue
        if not re.fullmatch(r"[\w.*-]+([/\\][\w.*-]*)+", w):
            continue
        rel = w.replace("\\", "/")
        first = rel.split("/")[0]
        if first in PRODUCED:
            continue
        hits = glob.glob(os.path.join(REPO, rel))
        c.ok(bool(hits), "%s: %s exists in the repository" % (where, w))


def check(doc):
    c = Checker()
    c.ok(isinstance(doc, dict) and set(doc) >= {"name", "on", "jobs"},
         "windows.yml parses: name, on, jobs")
    on = doc.get("on") or {}
    c.ok(isinstance(on, dict) and {"push", "pull_request", "workflow_dispatch"} <= set(on),
         "triggers: push, pull_request, workflow_dispatch")
    jobs = doc.get("jobs") or {}
    c.ok(set(jobs) == {"build", "windows", "report"}, "jobs: build, windows, report (%s)"
         % " ".join(jobs))
    b, w, r = jobs.get("build", {}), jobs.get("windows", {}), jobs.get("report", {})
    c.ok(w.get("needs") == "build" and r.get("needs") == "windows" and
         r.get("if") == "${{ !cancelled() && needs.windows.result != 'skipped' }}",
         "build -> windows -> report (the report also after a failed Windows job)")
    c.ok(str(b.get("runs-on", "")).startswith("ubuntu") and b.get("container") == "debian:12",
         "the exes are built on Linux (Debian 12 container), as on this machine")
    m = MATRIX.match(str(((w.get("strategy") or {}).get("matrix") or {}).get("runner", "")))
    runners = json.loads(m.group(1)) if m else []
    c.ok(tuple(runners) == RUNNERS and w.get("runs-on") == "${{ matrix.runner }}",
         "Windows runners: %s, or those of the input runners" % " ".join(str(x) for x in runners))
    inp = ((on.get("workflow_dispatch") or {}).get("inputs") or {}).get("runners") or {}
    c.ok("self-hosted" in str(inp.get("description")) and inp.get("default") == "",
         "workflow_dispatch takes runners, self-hosted labels documented (%s)" % json.dumps(SELF_HOSTED))
    c.ok((w.get("strategy") or {}).get("fail-fast") is not None and
         str(w["strategy"]["fail-fast"]).lower() == "false", "fail-fast off: every runner reports")
    # uses: only the known actions
    uses = [s.get("uses") for j in jobs.values() for s in j.get("steps") or [] if "uses" in s]
    c.ok(uses and all(u in ACTIONS for u in uses), "actions used: %s" % " ".join(sorted(set(uses))))
    # the Windows job is one script
    wruns = [s for s in w.get("steps") or [] if "run" in s]
    c.ok(len(wruns) == 1 and wruns[0].get("shell") == "cmd", "the Windows job has one run step (shell cmd)")
    line = wruns[0]["run"].strip() if wruns else ""
    words = expand(line, "RUNNER").split()
    # no CALL: the runner's cmd wrapper CALLs the step's script already, and Wine's cmd /c turns
    # the exit code of a CALLed batch into 1 (so the Wine run could not check it)
    c.ok(len(words) == 5 and words[0] == r"harness\windows\etwconf-ci.cmd"
         and words[1:3] == ["out", "RUNNER"]
         and words[3:] == [r"build\etwconf.exe", r"build\etwconf-i686.exe"],
         "it calls harness\\windows\\etwconf-ci.cmd with both exes: %s" % line)
    # artifacts flow: exes -> Windows jobs -> report
    ups = {j: [s["with"] for s in jobs[j].get("steps") or [] if s.get("uses", "").startswith(
        "actions/upload-artifact")] for j in jobs}
    downs = {j: [s["with"] for s in jobs[j].get("steps") or [] if s.get("uses", "").startswith(
        "actions/download-artifact")] for j in jobs}
    exes = ups["build"][0]["path"].split() if ups["build"] else []
    c.ok(exes == ["build/etwconf.exe", "build/etwconf-i686.exe"] and downs["windows"] and
         downs["windows"][0]["name"] == ups["build"][0]["name"],
         "build uploads build/etwconf.exe and build/etwconf-i686.exe; the Windows jobs download them")
    wine_mk = open(os.path.join(REPO, "mk", "windows.mk"), encoding="utf-8").read()
    c.ok(re.search(r"^windows: \$\(BUILD\)/etwconf\.exe \$\(BUILD\)/etwconf-i686\.exe", wine_mk, re.M)
         is not None, "make windows makes exactly those two files (mk/windows.mk)")
    names = [expand(ups["windows"][0]["name"], r) for r in runners + [SELF_HOSTED]] if ups["windows"] else []
    lines = [expand(line, r).split()[2:3] for r in runners + [SELF_HOSTED]]
    c.ok(len(set(names)) == len(names) == len(runners) + 1 and "Array" not in " ".join(names) and
         names[-1] == "results-self-hosted-windows-x64" and lines[-1] == ["self-hosted-windows-x64"],
         "a self-hosted runner's labels make its label and artifact name: %s" % (names[-1:] or "none"))
    c.ok(bool(ups["windows"]) and ups["windows"][0]["name"].startswith("results-") and
         ups["windows"][0]["path"].rstrip("/") == "out" and ups["windows"][0].get("if") is None and
         any(s.get("if") == "always()" for s in w.get("steps") or [] if "uses" in s and "upload" in s["uses"]),
         "each runner uploads its results (out/, also after a failure) as results-RUNNER")
    c.ok(bool(downs["report"]) and downs["report"][0].get("pattern") == "results-*" and
         str(downs["report"][0].get("merge-multiple")).lower() == "true",
         "the report job collects every results-* artifact")
    rnames = {u["name"] for u in ups["report"]}
    c.ok({"report", "calibration"} <= rnames, "the report job uploads the combined report and the calibration")
    steps = run_steps(r)
    c.ok(any("baseline check" in s for s in steps) and
         steps[-1].strip().startswith("python3 reports/etwconf-report baseline check --dir baselines/windows"),
         "the last step compares with the baselines (a regression fails the workflow)")
    # every command, file, make target and etwconf-report subcommand named exists
    for jname, job in jobs.items():
        for script in run_steps(job):
            for cmd in commands(script):
                try:
                    words = shlex.split(cmd.replace("\\", "\\\\"))
                except ValueError as e:
                    c.ok(False, "%s: cannot split %r: %s" % (jname, cmd, e))
                    continue
                head = words[0]
                if head in ("call",) and len(words) > 1:
                    head, words = words[1], words[1:]
                rel = head.replace("\\", "/")
                if "/" in rel:
                    c.ok(os.path.isfile(os.path.join(REPO, rel)), "%s: %s exists" % (jname, head))
                else:
                    c.ok(head in SYSTEM, "%s: %s is a system command the runner has" % (jname, head))
                if head == "make":
                    for t in [x for x in words[1:] if not x.startswith("-")]:
                        good, why = _make_target_ok(t)
                        c.ok(good, "%s: make target %s exists%s" % (jname, t, "" if good else ": " + why))
                if head == "python3" and len(words) > 1:
                    script_path = os.path.join(REPO, words[1])
                    c.ok(os.path.isfile(script_path), "%s: %s exists" % (jname, words[1]))
                    if words[1] == "reports/etwconf-report" and len(words) > 2:
                        sub = [words[2]] + ([words[3]] if words[2] == "baseline" else [])
                        c.ok(_report_sub_ok(sub), "%s: etwconf-report %s exists" % (jname, " ".join(sub)))
                check_paths(c, jname, words[1:])
    # the baselines the CI runs are compared with
    for runner, (ver, product, native) in RUNNER_KINDS.items():
        for arch in ("x86_64", "i686"):
            key = "%s-%s-%s%s" % (ver, product, arch, "" if arch == native else "-on-" + native)
            c.ok(os.path.isfile(os.path.join(REPO, "baselines", "windows", key + ".json")),
                 "%s: baselines/windows/%s.json exists" % (runner, key))
    return c


def selftest():
    """The checks must be able to fail: mutated copies of the workflow must each be caught."""
    with open(WORKFLOW, encoding="utf-8") as f:
        text = f.read()
    mutants = [
        ("a make target that does not exist", "make -j2 windows", "make -j2 windowz"),
        ("a script that does not exist", r"harness\windows\etwconf-ci.cmd", r"harness\windows\nosuch.cmd"),
        ("an etwconf-report subcommand that does not exist", "baseline check", "baseline verify"),
        ("a runner left out", '"windows-2022", "windows-2025", ', '"windows-2022", '),
        ("self-hosted labels in a plain ${{ matrix.runner }}", "results-${{ join(matrix.runner, '-') }}", "results-${{ matrix.runner }}"),
        ("a second run step in the Windows job", "      - uses: actions/upload-artifact@v4\n        if: always()",
         "      - run: echo extra\n        shell: cmd\n      - uses: actions/upload-artifact@v4\n        if: always()"),
        ("a key repeated", "  push:\n", "  push:\n  push:\n"),
        ("a YAML syntax error", "  push:\n", "  push: [main\n"),
    ]
    bad = 0
    for what, a, b in mutants:
        if a not in text:
            print("FAIL selftest: %s: %r not in the workflow" % (what, a))
            bad += 1
            continue
        import io
        import contextlib
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                c = check(parse(text.replace(a, b, 1)))
            caught = c.failed > 0
        except YamlError:
            caught = True
        print(("ok   " if caught else "FAIL ") + "a workflow with %s is rejected" % what)
        bad += 0 if caught else 1
    print("selftest: %d passed, %d failed" % (len(mutants) - bad, bad))
    return 1 if bad else 0


def samples(out_dir, worse=False):
    """Synthetic results as etwconf.exe writes them on the runners (both exes on each), in the
    sample style of reports/tests (test_calibrate.live_run). worse: on windows-2022 the x64 exe
    sees one more failure (tqi.0b.exact)."""
    sys.path.insert(0, os.path.join(REPO, "reports", "tests"))
    from test_calibrate import live_run
    os.makedirs(out_dir, exist_ok=True)
    for runner, (ver, product, native) in RUNNER_KINDS.items():
        build = int(ver.split(".")[2])
        for arch, stem in (("x86_64", "etwconf"), ("i686", "etwconf-i686")):
            with open(os.path.join(out_dir, "%s-%s.jsonl" % (runner, stem)), "w",
                      encoding="utf-8") as f:
                over = {"tqi.0b.exact": "fail:TQI.0B.RETLEN"} \
                    if worse and runner == "windows-2022" and arch == "x86_64" else None
                f.write(live_run(build=build, arch=arch, native=native, product=product,
                                 override=over))


def main(argv):
    if argv[:1] == ["check"]:
        try:
            doc = load()
        except (YamlError, OSError, ValueError) as e:
            print("FAIL windows.yml: %s" % e)
            return 1
        c = check(doc)
        print("workflow: %d passed, %d failed" % (c.passed, c.failed))
        return 1 if c.failed else 0
    if argv[:1] == ["selftest"]:
        return selftest()
    if argv[:1] == ["run-line"] and len(argv) == 3:
        job = load()["jobs"][argv[1]]
        (line,) = run_steps(job)
        print(expand(line.strip(), argv[2]))
        return 0
    if argv[:1] == ["steps"] and len(argv) == 2:
        print(json.dumps(run_steps(load()["jobs"][argv[1]])))
        return 0
    if argv[:1] == ["samples"] and len(argv) in (2, 3):
        samples(argv[1], argv[2:] == ["--worse"])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
