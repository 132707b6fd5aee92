"""Against real output of build/etwconf (skipped until the harness is built)."""
import os
import subprocess

from common import TmpCase, REPO, run_cli
from etwconf_report import ingest
from etwconf_report.ingest import InputError

ETWCONF = os.path.join(REPO, "build", "etwconf")


class RealResults(TmpCase):
    def run_etwconf(self, version):
        if not os.access(ETWCONF, os.X_OK):
            self.skipTest("build/etwconf not built (make all)")
        out = os.path.join(self.tmp, "reference-%s.jsonl" % version)
        try:
            p = subprocess.run([ETWCONF, "run", "--emulate", version, "--quiet", "--out", out],
                               capture_output=True, text=True, timeout=120, cwd=REPO)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.skipTest("build/etwconf did not run: %s" % e)
        if p.returncode > 1 or not os.path.exists(out):
            self.skipTest("build/etwconf run exited %d (being rebuilt?): %s"
                          % (p.returncode, p.stderr.strip()[-200:]))
        return out

    def test_real_runs(self):
        """Real runs ingest, report and diff; a real run cut anywhere after its header is read as
        an incomplete run."""
        files = [self.run_etwconf(v) for v in ("6.1", "10.0")]
        for f in files:
            run = ingest.load(f)      # real etwconf output refused: an InputError fails the test
            self.assertTrue(run.complete, f)
            self.assertEqual(run.impl, "reference")
            self.assertGreater(len(run.cases), 0)
        self.assertRan(run_cli("report", "--out", os.path.join(self.tmp, "rep"), *files), 0)
        page = open(os.path.join(self.tmp, "rep", "index.html"), encoding="utf-8").read()
        self.assertIn("reference@6.1", page)
        self.assertIn("reference@10.0", page)
        rc, out, err = run_cli("diff", files[0], files[1])
        self.assertIn(rc, (0, 1), err)
        self.assertIn("diff: ", out.splitlines()[-1])
        data = open(files[1], "rb").read()
        first = data.index(b"\n") + 1
        for n in range(1, 40):
            at = len(data) * n // 40
            try:
                run = ingest.load(self.write("cut.jsonl", data[:at]))
            except InputError as e:
                self.assertLess(at, first, "refused a cut after the header: %s" % e)
                continue
            self.assertFalse(run.complete)
