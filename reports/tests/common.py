"""Helpers shared by the report tools' tests."""
import contextlib
import functools
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORTS = os.path.dirname(HERE)
REPO = os.path.dirname(REPORTS)
TOOL = os.path.join(REPORTS, "etwconf-report")
if REPORTS not in sys.path:
    sys.path.insert(0, REPORTS)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import samples  # noqa: E402
DATA = samples.generated()

GOOD = ["reference-6.1.jsonl", "reference-10.0.jsonl", "wine-win7.jsonl", "wine-win10.jsonl",
        "windows-10.0.19045.jsonl"]
WINE_EXP = os.path.join(DATA, "wine-expectations.json")
HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'


def data(name):
    return os.path.join(DATA, name)


# a new interpreter as this one was started: without site-packages when this one is (-S, make test)
PY = [sys.executable] + (["-S"] if sys.flags.no_site else [])


def run_script(*args, cwd=None, timeout=60):
    """etwconf-report ARGS in a new interpreter, as a user runs it: (status, stdout, stderr)."""
    p = subprocess.run(PY + [TOOL] + list(args), capture_output=True, text=True,
                       cwd=cwd or REPO, timeout=timeout, errors="replace")
    return p.returncode, p.stdout, p.stderr


@functools.lru_cache(maxsize=None)
def _warm():
    """catalog.load and cli.build_parser for the commands of the tests: the default rule
    catalogue is read and the parser built once, not again for each command."""
    from etwconf_report import catalog, cli
    load, parser = catalog.load, cli.build_parser()
    try:
        default = load()
    except Exception:
        default = None     # the command's own load then fails, and its test says why
    return (lambda path=None: default if default and path in (None, catalog.DEFAULT_DEF)
            else load(path)), (lambda: parser)


def _main(args, out, err):
    """What etwconf-report does after its imports, sys.exit(main()) with sys.argv set, in REPO
    with OUT and ERR as its standard output and error: its exit status."""
    from etwconf_report import catalog, cli
    saved = sys.stdout, sys.stderr, sys.argv, catalog.load, cli.build_parser, os.getcwd()
    sys.stdout, sys.stderr, sys.argv = out, err, [TOOL] + list(args)
    catalog.load, cli.build_parser = _warm()
    os.chdir(REPO)
    try:
        code = cli.main()
    except SystemExit as e:
        code = e.code
    finally:
        out.flush()
        err.flush()
        sys.stdout, sys.stderr, sys.argv, catalog.load, cli.build_parser, cwd = saved
        os.chdir(cwd)
    if code is None or isinstance(code, int):
        return (code or 0) & 0xff
    print(code, file=err, flush=True)     # as sys.exit does with a message
    return 1


def _text(stream):
    return stream.buffer.getvalue().decode(sys.stdout.encoding or "utf-8", errors="replace")


class _Timeout(BaseException):
    """The alarm of a block that ran too long (not an Exception: a command lets it by)."""


def _ring(signum, frame):
    raise _Timeout()


@contextlib.contextmanager
def deadline(seconds, cmd):
    """Bounds the block by an alarm: one that blocks (a read of a FIFO) raises
    subprocess.TimeoutExpired(CMD) after SECONDS. None: no bound."""
    if seconds is None:
        yield
        return
    old = signal.signal(signal.SIGALRM, _ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Timeout:
        raise subprocess.TimeoutExpired(cmd, seconds)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cli(*args, timeout=None):
    """etwconf-report ARGS, as etwconf-report runs them after its imports, in this process with
    standard output and error of their own (text in this process's encoding): (exit status,
    stdout, stderr). TIMEOUT (seconds) bounds a command a bug could block (deadline). A new
    interpreter per call costs ten times more and tests nothing more: the script's own start is
    run_script's (test_cli)."""
    enc = sys.stdout.encoding or "utf-8"
    out = io.TextIOWrapper(io.BytesIO(), encoding=enc, errors=sys.stdout.errors or "strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding=enc, errors="backslashreplace",
                           line_buffering=True)
    with deadline(timeout, [TOOL] + list(args)):
        rc = _main(args, out, err)
    return rc, _text(out), _text(err)


def read_records(name):
    with open(data(name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def case_of(recs, cid):
    """The case record CID of a record list (a test that edits a case the samples lack fails)."""
    (rec,) = [r for r in recs if r.get("id") == cid]
    return rec


def dump_records(recs):
    return "".join(json.dumps(r) + "\n" for r in recs)


def fix_footer(recs):
    """Recompute the footer of a record list after a test edited the cases."""
    cases = [r for r in recs if r.get("type") == "case"]
    for i, r in enumerate(cases, 1):
        r["seq"] = i
    for f in [r for r in recs if r.get("type") == "footer"][:1]:
        f.update(samples.sums(cases))
    return recs


class TmpCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="etwconf-report-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, content):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    def assertRan(self, result, rc, out=(), err=()):
        """A command's (exit status, stdout, stderr): the status is rc, and stdout and stderr
        hold each text of out and err. Returns (stdout, stderr)."""
        got, o, e = result
        self.assertEqual(got, rc, "exit status\nstdout: %s\nstderr: %s" % (o, e))
        for want, stream, name in [(t, o, "stdout") for t in out] + [(t, e, "stderr") for t in err]:
            self.assertIn(want, stream, name)
        return o, e

    def assertOneLineError(self, result, path_part=None):
        out, err = self.assertRan(result, 2)
        self.assertNotIn("Traceback", err + out)
        lines = [l for l in err.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, "expected one error line, got:\n" + err)
        self.assertTrue(lines[0].startswith("etwconf-report: "), lines[0])
        if path_part:
            self.assertIn(path_part, lines[0])
        return lines[0]
