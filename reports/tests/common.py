"""Helpers shared by the report tools' tests."""
import importlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
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
    """etwconf-report ARGS in a new interpreter, as a user runs it: (exit status, stdout, stderr)."""
    p = subprocess.run(PY + [TOOL] + list(args), capture_output=True, text=True,
                       cwd=cwd or REPO, timeout=timeout, errors="replace")
    return p.returncode, p.stdout, p.stderr


_warm = []


def _warm_up():
    """Import every module of etwconf_report, build the command line parser and read the default
    rule catalogue once, in this process: a forked child would compile each module from source
    again (no bytecode is written), build the parser and parse spec/rules.def again."""
    import gc
    import pkgutil
    import etwconf_report
    from etwconf_report import catalog, cli
    for m in pkgutil.iter_modules(etwconf_report.__path__):
        try:
            importlib.import_module("etwconf_report." + m.name)
        except Exception:   # the child's own import then fails, and its test says why
            pass
    load = catalog.load
    try:
        default = load()
    except Exception:       # the child's own load then fails, and its test says why
        default = None
    _warm.append(lambda path=None: default if default and path in (None, catalog.DEFAULT_DEF)
                 else load(path))
    parser = cli.build_parser()
    _warm.append(lambda: parser)
    gc.freeze()     # the children copy fewer pages when the collector leaves these objects be


def run_cli(*args, cwd=None, timeout=60):
    """etwconf-report ARGS in a process of its own, forked from this one: what etwconf-report does
    after its imports (sys.exit(main()) with sys.argv set), with its own standard output and error,
    working directory and exit status, killed after TIMEOUT seconds (subprocess.TimeoutExpired).
    A new interpreter per call costs ten times more and tests nothing more: the script's own start
    is run_script's (test_cli). Returns (exit status, stdout, stderr)."""
    from etwconf_report import catalog, cli
    if not _warm:
        _warm_up()
    sys.stdout.flush()
    sys.stderr.flush()
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    pid = os.fork()
    if pid == 0:    # the child: never returns into the test
        rc = 1
        try:
            catalog.load, cli.build_parser = _warm
            os.close(r_out)
            os.close(r_err)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(w_out, 1)
            os.dup2(w_err, 2)
            for fd in (null, w_out, w_err):
                os.close(fd)
            enc = sys.stdout.encoding
            sys.stdin = open(0, "r", closefd=False)
            sys.stdout = open(1, "w", encoding=enc, errors=sys.stdout.errors, closefd=False)
            sys.stderr = open(2, "w", encoding=enc, errors="backslashreplace", closefd=False,
                              buffering=1)
            os.chdir(cwd or REPO)
            sys.argv = [TOOL] + list(args)
            try:
                code = cli.main()
            except SystemExit as e:
                code = e.code
            if code is None:
                rc = 0
            elif isinstance(code, int):
                rc = code & 0xff
            else:           # as sys.exit does with a message
                print(code, file=sys.stderr)
                rc = 1
        except BaseException:
            traceback.print_exc()
            rc = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(rc)
    os.close(w_out)
    os.close(w_err)
    bufs = {r_out: [], r_err: []}
    sel = selectors.DefaultSelector()
    for fd in bufs:
        sel.register(fd, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    try:
        while sel.get_map():
            left = end - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise subprocess.TimeoutExpired([TOOL] + list(args), timeout)
            for key, _ in sel.select(left):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    bufs[key.fd].append(chunk)
                else:
                    sel.unregister(key.fd)
    finally:
        sel.close()
        os.close(r_out)
        os.close(r_err)
    _, status = os.waitpid(pid, 0)
    rc = os.waitstatus_to_exitcode(status)

    def text(fd):
        return b"".join(bufs[fd]).decode(sys.stdout.encoding or "utf-8", errors="replace")
    return rc, text(r_out), text(r_err)


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
