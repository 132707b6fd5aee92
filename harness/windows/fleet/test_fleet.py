"""etwconf-fleet without SSH: its command line, the inventory, the commands it builds and the
verdict. The SSH side and the report step are the rest of the fleet stage (harness/tests/fleet.sh).
Last line:
"fleet-unit: N passed, N failed, N skipped"."""
import argparse
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "reports", "tests"))   # the report tests' TmpCase
from common import TmpCase  # noqa: E402

_loader = importlib.machinery.SourceFileLoader("fleet", os.path.join(HERE, "etwconf-fleet"))
fleet = importlib.util.module_from_spec(importlib.util.spec_from_loader("fleet", _loader))
_loader.exec_module(fleet)


class InventoryTest(TmpCase):
    def setUp(self):
        super().setUp()
        self.exe = self.write("etwconf.exe", b"MZ fake")

    def parse(self, text):
        return fleet.parse_inventory(self.write("inv", text), self.tmp)

    def test_hosts_and_options(self):
        hs = self.parse("# comment\n\nw7 admin@vm7 etwconf.exe port=2222 expect=6.1  # trailing\n"
                        "w10 me@vm10 etwconf.exe dir=C:/etw args=\"--case a --timeout-ms 9000\" "
                        "ssh_option=Compression=yes ssh_option=ConnectionAttempts=2 transfer=scp\n")
        self.assertEqual([h.name for h in hs], ["w7", "w10"])
        self.assertEqual((hs[0].port, hs[0].expect, hs[0].shell, hs[0].transfer), ("2222", "6.1", "cmd", "sftp"))
        self.assertEqual(hs[1].args, ["--case", "a", "--timeout-ms", "9000"])
        self.assertEqual(hs[1].ssh_option, ["Compression=yes", "ConnectionAttempts=2"])
        self.assertEqual(os.path.realpath(hs[0].exe_path), os.path.realpath(self.exe))

    def test_commands(self):
        h = self.parse("w a@b etwconf.exe port=22 dir=C:/etw args=\"--filter tqi.*\"\n")[0]
        a = argparse.Namespace(ssh="ssh", scp="scp", ssh_config="cfg", connect_timeout=5,
                               ssh_option=["LogLevel=ERROR"])
        s = fleet.Ssh(a)
        up = s.upload(h, "etwconf.exe")
        self.assertEqual(up[:3], ["scp", "-F", "cfg"])
        self.assertIn("-P", up)
        self.assertNotIn("-O", up)
        self.assertEqual(up[-1], "a@b:/C:/etw/etwconf.exe")      # SFTP's name for C:/etw
        run = s.run(h, "etwconf.exe", "r.jsonl")
        self.assertEqual(run[-3:], ["-n", "a@b", 'cd /d C:\\etw && .\\etwconf.exe run --quiet --out '
                                    'r.jsonl --filter tqi.*'])
        h.transfer, h.shell = "scp", "sh"
        self.assertIn("-O", s.upload(h, "etwconf.exe"))
        self.assertEqual(s.upload(h, "etwconf.exe")[-1], "a@b:C:/etw/etwconf.exe")
        self.assertEqual(s.run(h, "etwconf.exe", "r.jsonl")[-1],
                         "cd C:/etw && ./etwconf.exe run --quiet --out r.jsonl --filter 'tqi.*'")
        self.assertEqual(fleet._cmd_quote('a b"c'), '"a b\\"c"')


class CliTest(TmpCase):
    def main(self, *argv):
        with contextlib.redirect_stdout(io.StringIO()) as out, \
                contextlib.redirect_stderr(io.StringIO()) as err:
            rc = fleet.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def test_help(self):
        rc, out, _ = self.main("--help")
        self.assertEqual(rc, 0)
        self.assertIn("Exit codes: 0 every host complete", out)
        self.assertIn("transfer=sftp|scp", out)

    def test_numbers_parse_as_numbers(self):
        """--jobs 0 by default: an option whose default is 0 still takes an int"""
        a = fleet.build_parser().parse_args(["run", "inv", "--jobs", "2", "--fetch-delay", "0.5"])
        self.assertEqual((a.jobs, a.fetch_delay, a.timeout), (2, 0.5, 1800))

    def test_bad_inventory(self):
        """A bad inventory: exit 2, one line naming FILE:LINE, nothing written."""
        self.write("etwconf.exe", b"MZ fake")
        out = os.path.join(self.tmp, "out")
        for text, want in (("w1 me@host etwconf.exe colour=red\n",
                            "bad:1: unknown option 'colour=red'"),
                           ("w1 me@host etwconf.exe\nw1 me@other etwconf.exe\n",
                            "bad:2: host w1 is already defined at line 1"),
                           ("w1 me@host nosuch.exe\n", "bad:1: nosuch.exe not found"),
                           ("w1 a@b\n", "bad:1: expected NAME DESTINATION EXE"),
                           ("\nw1 a@b etwconf.exe shell=powershell\n", "bad:2: shell=powershell"),
                           ("w1 a@b etwconf.exe port=x\n", "bad:1: port=x is not a number"),
                           ("bad/name a@b etwconf.exe\n", "bad:1: host name 'bad/name'"),
                           ("w1 a@b etwconf.exe args=\"open\n", "bad:1:"),
                           ("# nothing\n", "no hosts")):
            with self.subTest(want=want):
                rc, stdout, err = self.main("run", self.write("bad", text), "--out", out,
                                            "--exe-dir", self.tmp)
                self.assertEqual((rc, stdout, len(err.splitlines())), (2, "", 1), err)
                self.assertIn(want, err)
                self.assertFalse(os.path.exists(out))


class VerdictTest(TmpCase):
    def test_filtered_run_is_never_plainly_conformant(self):
        self.assertEqual(fleet.verdict({"exit_code": 0}), "conformant")
        self.assertEqual(fleet.verdict({"exit_code": 1}), "not conformant")
        v = fleet.verdict({"exit_code": 0, "filtered": "1 of 349 cases (tqi.*)"})
        self.assertNotEqual(v, "conformant")
        self.assertIn("1 of 349 cases (tqi.*)", v)
        self.assertIn("no verdict on the whole suite", v)
        self.assertEqual(fleet.verdict({"exit_code": 1, "filtered": "1 of 349 cases"}), "not conformant")


if __name__ == "__main__":
    res = unittest.TextTestRunner(stream=sys.stdout).run(
        unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    bad = len(res.failures) + len(res.errors)
    print("fleet-unit: %d passed, %d failed, %d skipped"
          % (res.testsRun - bad - len(res.skipped), bad, len(res.skipped)))
    sys.exit(1 if bad else 0)
