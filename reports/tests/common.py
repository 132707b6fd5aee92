"""Helpers shared by the report tools' tests."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.dirname(HERE)
REPO = os.path.dirname(REPORTS)
DATA = os.path.join(HERE, "data")
TOOL = os.path.join(REPORTS, "etwconf-report")
if REPORTS not in sys.path:
    sys.path.insert(0, REPORTS)

GOOD = ["reference-6.1.jsonl", "reference-10.0.jsonl", "wine-win7.jsonl", "wine-win10.jsonl",
        "windows-10.0.19045.jsonl"]
WINE_EXP = os.path.join(DATA, "wine-expectations.json")
HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'


def data(name):
    return os.path.join(DATA, name)


def run_cli(*args, cwd=None, timeout=60):
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True,
                       cwd=cwd or REPO, timeout=timeout, errors="replace")
    return p.returncode, p.stdout, p.stderr


def read_records(name):
    with open(data(name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def dump_records(recs):
    return "".join(json.dumps(r) + "\n" for r in recs)


def fix_footer(recs):
    """Recompute the footer of a record list after a test edited the cases."""
    cases = [r for r in recs if r.get("type") == "case"]
    for i, r in enumerate(cases, 1):
        r["seq"] = i
    counts = dict.fromkeys(("PASS", "FAIL", "SKIP", "BROKEN", "CRASH", "TIMEOUT"), 0)
    for r in cases:
        counts[r["status"]] += 1
    counted = sum(1 for r in cases if r.get("counted"))
    foot = [r for r in recs if r.get("type") == "footer"]
    if foot:
        f = foot[0]
        f.update(counts=counts, total=len(cases), counted_failures=counted,
                 exit_code=1 if counted or counts["CRASH"] or counts["TIMEOUT"] else 0)
    return recs


class TmpCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="etwconf-report-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, content):
        path = os.path.join(self.tmp, name)
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": ""})) as f:
            f.write(content)
        return path

    def assertOneLineError(self, rc, out, err, path_part=None):
        self.assertEqual(rc, 2, "exit code\nstdout: %s\nstderr: %s" % (out, err))
        self.assertNotIn("Traceback", err + out)
        lines = [l for l in err.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, "expected one error line, got:\n" + err)
        self.assertTrue(lines[0].startswith("etwconf-report: "), lines[0])
        if path_part:
            self.assertIn(path_part, lines[0])
        return lines[0]
