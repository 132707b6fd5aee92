"""Command line: help, usage errors, summary, exit codes. Each command runs the script itself in a
new interpreter (run_script), as a user runs it; the other tests fork (run_cli)."""
import subprocess
import sys

from common import TmpCase, data, run_script as run_cli, TOOL, GOOD


class Cli(TmpCase):
    def test_help(self):
        rc, out, err = run_cli("--help")
        self.assertEqual(rc, 0)
        for cmd in ("report", "summary", "diff", "check", "update-expectations"):
            self.assertIn(cmd, out)
            rc, out2, err2 = run_cli(cmd, "--help")
            self.assertEqual(rc, 0, err2)
            self.assertIn("usage: etwconf-report %s" % cmd, out2)
        rc, out, err = run_cli("--version")
        self.assertEqual(rc, 0)
        self.assertIn("etwconf-report", out)

    def test_usage_errors_one_line(self):
        for args in ([], ["bogus"], ["report", "--bogus"], ["diff", data(GOOD[0])],
                     ["check", data(GOOD[0])], ["update-expectations", data(GOOD[0])]):
            with self.subTest(args=args):
                rc, out, err = run_cli(*args)
                self.assertEqual(rc, 2)
                self.assertNotIn("Traceback", err)
                if args:
                    self.assertOneLineError(rc, out, err)

    def test_summary(self):
        rc, out, err = run_cli("summary", *[data(n) for n in GOOD + ["truncated.jsonl"]])
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^reference@6\.1\s+conformant")
        self.assertTrue(any("INCOMPLETE" in l for l in lines))
        self.assertTrue(any(l.startswith("wine@win10") and "failures of MUST rules" in l
                            for l in lines))
        self.assertEqual(lines[-1], "summary: 6 targets: 2 conformant, 3 not conformant, "
                                    "1 incomplete without failures")

    def test_exit_code_kept_when_output_is_cut(self):
        p1 = subprocess.Popen([sys.executable, TOOL, "diff", data("reference-10.0.jsonl"),
                               data("wine-win10.jsonl")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        p1.stdout.read(10)
        p1.stdout.close()          # like `| head -c 10`
        err = p1.stderr.read().decode()
        self.assertEqual(p1.wait(timeout=60), 1)
        self.assertNotIn("Traceback", err)
