"""Command line: help, usage errors, summary, exit codes. The script itself is started in a new
interpreter (run_script), as a user runs it, once for each kind of outcome (help, version, usage
error, summary, a closed output); the repeats of a kind (each command's --help, each usage error)
run in this process (run_cli), as the other tests do."""
import subprocess

from common import TmpCase, data, run_cli, run_script, PY, TOOL, GOOD


class Cli(TmpCase):
    def test_help(self):
        out, err = self.assertRan(run_script("--help"), 0)
        for cmd in ("report", "summary", "diff", "check", "update-expectations"):
            self.assertIn(cmd, out)
            self.assertRan(run_cli(cmd, "--help"), 0, out=["usage: etwconf-report %s" % cmd])
        self.assertRan(run_script("--version"), 0, out=["etwconf-report"])

    def test_usage_errors_one_line(self):
        for run, args in ((run_script, []), (run_script, ["bogus"]),
                          (run_cli, ["report", "--bogus"]), (run_cli, ["diff", data(GOOD[0])]),
                          (run_cli, ["check", data(GOOD[0])]),
                          (run_cli, ["update-expectations", data(GOOD[0])])):
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual(rc, 2)
                self.assertNotIn("Traceback", err)
                if args:
                    self.assertOneLineError((rc, out, err))

    def test_summary(self):
        files = [data(n) for n in GOOD + ["truncated.jsonl"]]
        out, err = self.assertRan(run_script("summary", *files), 0, err=["incomplete run"])
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^reference@6\.1\s+conformant")
        self.assertTrue(any("INCOMPLETE" in l for l in lines))
        self.assertNotIn("Traceback", err)
        self.assertTrue(any(l.startswith("wine@win10") and "failures of MUST rules" in l
                            for l in lines))
        self.assertEqual(lines[-1], "summary: 6 targets: 2 conformant, 3 not conformant, "
                                    "1 incomplete without failures")

    def test_exit_code_kept_when_output_is_cut(self):
        p1 = subprocess.Popen(PY + [TOOL, "diff", data("reference-10.0.jsonl"),
                               data("wine-win10.jsonl")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        p1.stdout.read(10)
        p1.stdout.close()          # like `| head -c 10`
        err = p1.stderr.read().decode()
        self.assertEqual(p1.wait(timeout=60), 1)
        self.assertNotIn("Traceback", err)
