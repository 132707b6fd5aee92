#!/usr/bin/env python3
"""The CI workflow for real Windows (.github/workflows/windows.yml), read with Debian's PyYAML.

  workflow.py check DIR   structural checks; every file, command, make target and etwconf-report
                          subcommand it names exists; mutated copies must each fail those checks.
                          Then writes into DIR what harness/tests/winci.sh runs: windows.line (the
                          Windows job's command, runner label "wine"), report-N.sh (the report job's
                          run steps), synthetic results of the runners in results/, and worse.jsonl
"""
import contextlib
import functools
import glob
import io
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checker  # noqa: E402
WORKFLOW = os.path.join(REPO, ".github", "workflows", "windows.yml")
# the hosted images and their machine kinds (baselines/windows/KIND.json), both exes on each
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

# Debian's python3-yaml: make test runs Python with -S (no site-packages), maybe not Debian's; its
# module directory goes last, so nothing of the standard library is shadowed.
DEBIAN_PY = "/usr/lib/python3/dist-packages"
if os.path.isdir(DEBIAN_PY) and DEBIAN_PY not in sys.path:
    sys.path.append(DEBIAN_PY)
try:
    import yaml
except ImportError:
    print("FAIL PyYAML is missing: install Debian's python3-yaml (sh .ci/deps.sh fleet)")
    sys.exit(1)


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML's safe loader (libyaml's when PyYAML has it), refusing a key that is repeated in a
    mapping (GitHub refuses it too)."""

    def construct_mapping(self, node, deep=False):
        keys = [self.construct_object(k, deep=True) for k, _ in node.value]
        for i, k in enumerate(keys):
            if k in keys[:i]:
                raise yaml.YAMLError("line %d: key %r repeated"
                                     % (node.value[i][0].start_mark.line + 1, k))
        return super().construct_mapping(node, deep)


def parse(text):
    doc = yaml.load(text, Loader=Loader)
    if isinstance(doc, dict) and True in doc:
        doc["on"] = doc.pop(True)       # YAML 1.1 reads the key `on` as true; GitHub reads "on"
    return doc


def expand(text, runner):
    """What GitHub makes of text for one runner of the matrix (an image name or a list of labels):
    join() of a list is its items joined, a list in a plain ${{ }} is the text 'Array'."""
    many = isinstance(runner, list)
    text = re.sub(r"\$\{\{ join\(matrix\.runner, '([^']*)'\) \}\}",
                  lambda m: m.group(1).join(runner) if many else runner, text)
    return text.replace("${{ matrix.runner }}", "Array" if many else runner)


def run_steps(job):
    return [s["run"] for s in job.get("steps") or [] if "run" in s]


def commands(script):
    """Simple commands of a run script: split at newlines, &&, ||, ;, |."""
    return [p.strip() for line in script.replace("\\\n", " ").split("\n")
            for p in re.split(r"&&|\|\||;|\|", line) if p.strip()]


@functools.lru_cache(maxsize=None)
def make_target(target):
    """'' when make knows target, else make's last line of error"""
    p = subprocess.run(["make", "-n", "-s", "--no-print-directory", target], cwd=REPO,
                       capture_output=True, text=True, timeout=120)
    return "" if p.returncode == 0 else (p.stderr.strip().splitlines() or ["failed"])[-1]


@functools.lru_cache(maxsize=None)
def report_command(*sub):
    """etwconf-report knows the subcommand sub: its own parser takes `sub --help`"""
    sys.path.insert(0, os.path.join(REPO, "reports"))
    from etwconf_report.cli import build_parser
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            build_parser().parse_args(list(sub) + ["--help"])
    except SystemExit as e:
        return e.code == 0
    except Exception:
        return False
    return False


def check_paths(c, where, words):
    for w in (w.strip("\"'") for w in words):
        rel = w.replace("\\", "/")
        if ("${{" in w or w.startswith(("$", "-")) or "=" in w or rel.split("/")[0] in PRODUCED
                or not re.fullmatch(r"[\w.*-]+([/\\][\w.*-]*)+", w)):
            continue
        c.ok(glob.glob(os.path.join(REPO, rel)), "%s: %s exists in the repository" % (where, w))


def steps_of(job, uses):
    return [s["with"] for s in job.get("steps") or [] if s.get("uses", "").startswith(uses)]


def check(doc, c):
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
    strategy = w.get("strategy") or {}
    m = MATRIX.match(str((strategy.get("matrix") or {}).get("runner", "")))
    runners = json.loads(m.group(1)) if m else []
    c.ok(tuple(runners) == tuple(RUNNER_KINDS) and w.get("runs-on") == "${{ matrix.runner }}",
         "Windows runners: %s, or those of the input runners" % " ".join(map(str, runners)))
    inp = ((on.get("workflow_dispatch") or {}).get("inputs") or {}).get("runners") or {}
    c.ok("self-hosted" in str(inp.get("description")) and inp.get("default") == "",
         "workflow_dispatch takes runners, self-hosted labels documented (%s)"
         % json.dumps(SELF_HOSTED))
    c.ok(str(strategy.get("fail-fast")).lower() == "false", "fail-fast off: every runner reports")
    uses = [s["uses"] for j in jobs.values() for s in j.get("steps") or [] if "uses" in s]
    c.ok(uses and set(uses) <= ACTIONS, "actions used: %s" % " ".join(sorted(set(uses))))
    # the Windows job is one script
    wruns = [s for s in w.get("steps") or [] if "run" in s]
    c.ok(len(wruns) == 1 and wruns[0].get("shell") == "cmd",
         "the Windows job has one run step (shell cmd)")
    line = wruns[0]["run"].strip() if wruns else ""
    # no CALL: the runner's cmd wrapper CALLs the step's script already, and Wine's cmd /c turns
    # the exit code of a CALLed batch into 1 (so the Wine run could not check it)
    c.ok(expand(line, "RUNNER").split() == [r"harness\windows\etwconf-ci.cmd", "out", "RUNNER",
                                            r"build\etwconf.exe", r"build\etwconf-i686.exe"],
         "it calls harness\\windows\\etwconf-ci.cmd with both exes: %s" % line)
    # artifacts flow: exes -> Windows jobs -> report
    ups = {j: steps_of(jobs[j], "actions/upload-artifact") for j in jobs}
    downs = {j: steps_of(jobs[j], "actions/download-artifact") for j in jobs}
    exes = ups["build"][0]["path"].split() if ups.get("build") else []
    c.ok(exes == ["build/etwconf.exe", "build/etwconf-i686.exe"] and downs.get("windows") and
         downs["windows"][0]["name"] == ups["build"][0]["name"],
         "build uploads build/etwconf.exe and build/etwconf-i686.exe; the Windows jobs download "
         "them")
    with open(os.path.join(REPO, "mk", "windows.mk"), encoding="utf-8") as f:
        wine_mk = f.read()
    c.ok(re.search(r"^windows: \$\(BUILD\)/etwconf\.exe \$\(BUILD\)/etwconf-i686\.exe", wine_mk,
                   re.M), "make windows makes exactly those two files (mk/windows.mk)")
    wup = ups.get("windows") or [{}]
    names = [expand(wup[0].get("name", ""), x) for x in runners + [SELF_HOSTED]]
    label = expand(line, SELF_HOSTED).split()[2:3]
    c.ok(len(set(names)) == len(names) == len(runners) + 1 and "Array" not in " ".join(names) and
         names[-1] == "results-self-hosted-windows-x64" and label == ["self-hosted-windows-x64"],
         "a self-hosted runner's labels make its label and artifact name: %s" % names[-1:])
    c.ok(wup[0].get("name", "").startswith("results-") and
         wup[0].get("path", "").rstrip("/") == "out" and
         any(s.get("if") == "always()" for s in w.get("steps") or []
             if "upload" in s.get("uses", "")),
         "each runner uploads its results (out/, also after a failure) as results-RUNNER")
    rdown = downs.get("report") or [{}]
    c.ok(rdown[0].get("pattern") == "results-*" and
         str(rdown[0].get("merge-multiple")).lower() == "true",
         "the report job collects every results-* artifact")
    c.ok({"report", "calibration"} <= {u.get("name") for u in ups.get("report", [])},
         "the report job uploads the combined report and the calibration")
    steps = run_steps(r)
    c.ok(steps and steps[-1].strip().startswith(
        "python3 reports/etwconf-report baseline check --dir baselines/windows"),
         "the last step compares with the baselines (a regression fails the workflow)")
    # every command, file, make target and etwconf-report subcommand named exists
    for jname, job in jobs.items():
        for cmd in (cmd for script in run_steps(job) for cmd in commands(script)):
            try:
                words = shlex.split(cmd.replace("\\", "\\\\"))
            except ValueError as e:
                c.ok(False, "%s: cannot split %r: %s" % (jname, cmd, e))
                continue
            if words[0] == "call" and len(words) > 1:
                words = words[1:]
            head = words[0]
            if "/" in head.replace("\\", "/"):
                c.ok(os.path.isfile(os.path.join(REPO, head.replace("\\", "/"))),
                     "%s: %s exists" % (jname, head))
            else:
                c.ok(head in SYSTEM, "%s: %s is a system command the runner has" % (jname, head))
            if head == "make":
                for t in [x for x in words[1:] if not x.startswith("-")]:
                    why = make_target(t)
                    c.ok(not why, "%s: make target %s exists%s" % (jname, t, why and ": " + why))
            if head == "python3" and len(words) > 1:
                c.ok(os.path.isfile(os.path.join(REPO, words[1])), "%s: %s exists"
                     % (jname, words[1]))
                if words[1] == "reports/etwconf-report" and len(words) > 2:
                    sub = words[2:4] if words[2] == "baseline" else words[2:3]
                    c.ok(report_command(*sub), "%s: etwconf-report %s exists"
                         % (jname, " ".join(sub)))
            check_paths(c, jname, words[1:])
    # the baselines the CI runs are compared with
    for runner, key in ((runner, kind(*k, arch)) for runner, k in RUNNER_KINDS.items()
                        for arch in ("x86_64", "i686")):
        c.ok(os.path.isfile(os.path.join(REPO, "baselines", "windows", key + ".json")),
             "%s: baselines/windows/%s.json exists" % (runner, key))


def kind(ver, product, native, arch):
    return "%s-%s-%s%s" % (ver, product, arch, "" if arch == native else "-on-" + native)


# each mutant of the workflow (what, text, replacement) must fail the checks
MUTANTS = [
    ("a make target that does not exist", "make -j2 windows", "make -j2 windowz"),
    ("a script that does not exist", r"harness\windows\etwconf-ci.cmd",
     r"harness\windows\nosuch.cmd"),
    ("an etwconf-report subcommand that does not exist", "baseline check", "baseline verify"),
    ("a runner left out", '"windows-2022", "windows-2025", ', '"windows-2022", '),
    ("self-hosted labels in a plain ${{ matrix.runner }}",
     "results-${{ join(matrix.runner, '-') }}", "results-${{ matrix.runner }}"),
    ("a second run step in the Windows job",
     "      - uses: actions/upload-artifact@v4\n        if: always()",
     "      - run: echo extra\n        shell: cmd\n"
     "      - uses: actions/upload-artifact@v4\n        if: always()"),
    ("a key repeated", "  push:\n", "  push:\n  push:\n"),
    ("a YAML syntax error", "  push:\n", "  push: [main\n"),
]


def selftest(c, text):
    for what, a, b in MUTANTS:
        if a not in text:
            c.ok(False, "selftest: %s: %r not in the workflow" % (what, a))
            continue
        m = Checker(quiet=True)
        try:
            check(parse(text.replace(a, b, 1)), m)
        except yaml.YAMLError:
            m.failed += 1
        c.ok(m.failed, "a workflow with %s is rejected" % what)


def samples(out_dir):
    """Synthetic results as etwconf.exe writes them on the runners (both exes on each), in the
    sample style of reports/tests (test_calibrate.live_run), and beside them worse.jsonl: the x64
    exe on windows-2022 with one more failure (tqi.0b.exact)."""
    sys.path.insert(0, os.path.join(REPO, "reports", "tests"))
    from test_calibrate import live_run
    os.makedirs(out_dir, exist_ok=True)
    runs = [(os.path.join(out_dir, "%s-%s.jsonl" % (runner, stem)), ver, product, native, arch,
             None) for runner, (ver, product, native) in RUNNER_KINDS.items()
            for arch, stem in (("x86_64", "etwconf"), ("i686", "etwconf-i686"))]
    ver, product, native = RUNNER_KINDS["windows-2022"]
    runs.append((os.path.join(out_dir, "..", "worse.jsonl"), ver, product, native, "x86_64",
                 {"tqi.0b.exact": "fail:TQI.0B.RETLEN"}))
    for path, ver, product, native, arch, over in runs:
        with open(path, "w", encoding="utf-8") as f:
            f.write(live_run(build=int(ver.split(".")[2]), arch=arch, native=native,
                             product=product, override=over))


def main(argv):
    if len(argv) != 2 or argv[0] != "check":
        sys.stderr.write(__doc__)
        return 2
    c = Checker()
    try:
        with open(WORKFLOW, encoding="utf-8") as f:
            text = f.read()
        doc = parse(text)
    except (yaml.YAMLError, OSError) as e:
        c.ok(False, "windows.yml: %s" % str(e).replace("\n", " "))
    else:
        check(doc, c)
        selftest(c, text)
        out = argv[1]
        os.makedirs(out, exist_ok=True)
        jobs = doc.get("jobs") or {}
        with open(os.path.join(out, "windows.line"), "w") as f:
            f.write(expand(" ".join(run_steps(jobs.get("windows", {}))).strip(), "wine") + "\n")
        for i, step in enumerate(run_steps(jobs.get("report", {}))):
            with open(os.path.join(out, "report-%d.sh" % i), "w") as f:
                f.write(step)
        samples(os.path.join(out, "results"))
    return c.summary("workflow")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
