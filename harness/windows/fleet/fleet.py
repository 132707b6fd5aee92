"""etwconf-fleet: run etwconf.exe on Windows hosts over SSH (the OpenSSH client), in parallel:
upload, run, fetch the results, judge each host by its results' footer, then one report
(etwconf-report's, with its rule x host matrix) and a diff against the previous round. A host is
complete (footer; its exit code is the result, never ssh's), incomplete (no footer: partial
results kept) or failed (no readable results, another exe or another Windows than expected).
Layout of --out: results/HOST.jsonl, state/HOST.json, logs/HOST.{out,err}, previous/, report/.
"""
import argparse
import contextlib
import datetime
import hashlib
import io
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from etwconf_report import __version__, diff
from etwconf_report.ingest import InputError, load as load_results
from etwconf_report.util import oneline, plural, run_command

PROG = "etwconf-fleet"
EXIT = {"ok": 0, "regression": 1, "usage": 2, "internal": 3, "hosts": 4}
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# option: (check, what the error says)
HOST_OPTIONS = {
    "port": (str.isdigit, "is not a number"), "identity": (None, ""), "dir": (None, ""),
    "shell": (("cmd", "sh").__contains__, ": use cmd (Windows OpenSSH's default) or sh"),
    "transfer": (("sftp", "scp").__contains__,
                 ": use sftp (the default) or scp (the legacy protocol, scp -O)"),
    "args": (None, ""), "expect": (None, ""),
    "timeout": (str.isdigit, "is not a number of seconds"), "ssh_option": (None, ""),
}


class UsageError(Exception):
    pass


class Host:
    def __init__(self, name, dest, exe, opts):
        self.name, self.dest, self.exe = name, dest, exe
        self.port, self.identity, self.expect = map(opts.get, ("port", "identity", "expect"))
        self.dir, self.shell, self.transfer = (
            opts.get(k, d) for k, d in (("dir", ""), ("shell", "cmd"), ("transfer", "sftp")))
        self.args = shlex.split(opts.get("args", ""))
        self.timeout = int(opts.get("timeout", 0)) or None
        self.ssh_options = opts.get("ssh_option", [])
        self.exe_path = self.exe_sha = None


def parse_inventory(path, exe_dir):
    """Hosts from an inventory file; UsageError naming FILE:LINE on any problem."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise UsageError("%s: cannot read the inventory: %s" % (path, e.strerror or e))
    hosts, names = [], {}
    base = os.path.dirname(os.path.abspath(path))
    for n, line in enumerate(lines, 1):
        where = "%s:%d" % (path, n)
        try:
            words = shlex.split(line, comments=True)
        except ValueError as e:
            raise UsageError("%s: %s (quote values with spaces: args=\"--case x\")" % (where, e))
        if not words:
            continue
        if len(words) < 3:
            raise UsageError("%s: expected NAME DESTINATION EXE [key=value...], got %r"
                             % (where, line.strip()))
        name, dest, exe = words[:3]
        if not NAME_RE.fullmatch(name):
            raise UsageError("%s: host name %r: use letters, digits, '.', '_' and '-'"
                             % (where, name))
        if name in names:
            raise UsageError("%s: host %s is already defined at line %d"
                             % (where, name, names[name]))
        names[name] = n
        opts = {"ssh_option": []}
        for w in words[3:]:
            k, eq, v = w.partition("=")
            if not eq or k not in HOST_OPTIONS:
                raise UsageError("%s: unknown option %r (options: %s, as key=value)"
                                 % (where, w, " ".join(HOST_OPTIONS)))
            check, why = HOST_OPTIONS[k]
            if check and not check(v):
                raise UsageError("%s: %s=%s%s%s" % (where, k, v, " " if why[0] != ":" else "", why))
            opts[k] = opts[k] + [v] if k == "ssh_option" else v
        h = Host(name, dest, exe, opts)
        cands = [exe] if os.path.isabs(exe) else [os.path.join(base, exe), exe,
                                                   os.path.join(exe_dir, exe)]
        h.exe_path = next((c for c in cands if os.path.isfile(c)), None)
        if h.exe_path is None:
            raise UsageError("%s: %s not found (looked in %s); build it with `make windows`"
                             % (where, exe, ", ".join(cands)))
        hosts.append(h)
    if not hosts:
        raise UsageError("%s: no hosts (one per line: NAME DESTINATION EXE [key=value...])" % path)
    return hosts


class Ssh:
    """The scp and ssh command lines for a host."""
    def __init__(self, a, ctl_dir=None):
        self.ssh, self.scp = a.ssh, a.scp
        opts = ["BatchMode=yes", "ConnectTimeout=%d" % a.connect_timeout,
                "ServerAliveInterval=10", "ServerAliveCountMax=3"] + (a.ssh_option or [])
        # one connection per host: the upload, the run and the fetch are sessions of it (one key
        # exchange and login, not three); after a drop the next command connects anew
        if ctl_dir:
            opts += ["ControlMaster=auto", "ControlPersist=30",
                     "ControlPath=" + os.path.join(ctl_dir, "%C")]
        self.common = (["-F", a.ssh_config] if a.ssh_config else []) + _dash_o(opts)

    def _opts(self, h, port_flag):
        return (self.common + _dash_o(h.ssh_options) + ([port_flag, h.port] if h.port else [])
                + (["-i", h.identity] if h.identity else []))

    def remote_path(self, h, name):
        d = h.dir.replace("\\", "/").rstrip("/")
        if h.transfer == "sftp" and re.match(r"[A-Za-z]:", d):
            d = "/" + d                    # Windows OpenSSH's SFTP names C:/x as /C:/x
        return d + "/" + name if d else name

    def _scp(self, h):
        return [self.scp] + self._opts(h, "-P") + (["-O"] if h.transfer == "scp" else [])

    def upload(self, h, remote):
        return self._scp(h) + [h.exe_path, "%s:%s" % (h.dest, self.remote_path(h, remote))]

    def fetch(self, h, remote, local):
        return self._scp(h) + ["%s:%s" % (h.dest, self.remote_path(h, remote)), local]

    def run(self, h, exe, results):
        # the exe in the login directory (PowerShell needs the .\ too), or in dir=
        cmd = h.shell == "cmd"
        quote, here, cd = (_cmd_quote, ".\\", "cd /d ") if cmd else (shlex.quote, "./", "cd ")
        line = " ".join(map(quote, [here + exe, "run", "--quiet", "--out", results] + h.args))
        if h.dir:
            line = "%s%s && %s" % (cd, quote(h.dir.replace("/", "\\") if cmd else h.dir), line)
        return [self.ssh] + self._opts(h, "-p") + ["-n", h.dest, line]

    def close(self, h):
        return [self.ssh] + self._opts(h, "-p") + ["-O", "exit", h.dest]


def _dash_o(opts):
    return [w for o in opts for w in ("-o", o)]


def _cmd_quote(s):
    """Quote one argument for cmd.exe and the MSVCRT argument parser."""
    if s and not re.search(r'[\s"&|<>^%()]', s):
        return s
    return '"' + s.replace('"', '\\"') + '"'


class Fleet:
    def __init__(self, a):
        self.a, self.out = a, a.out
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.procs = set()
        self.ctl_dir = tempfile.mkdtemp(prefix="etwconf-fleet-")
        # the shared connections' sockets, DIR/<40 hex digits>: a socket path has 107 bytes at most
        self.ssh = Ssh(a, self.ctl_dir if len(self.ctl_dir.encode()) < 60 else None)
        for d in ("results", "state", "logs"):
            os.makedirs(os.path.join(self.out, d), exist_ok=True)

    def say(self, h, msg):
        with self.lock:
            print("[%s] %s" % (h.name, msg), flush=True)

    def path(self, kind, h):
        return os.path.join(self.out, kind, h.name + {"state": ".json", "results": ".jsonl",
                                                      "logs": ""}[kind])

    def call(self, h, argv, timeout, stdout=False, heartbeat=None):
        """Run a command with a bound on its time: (rc, stderr lines); rc None: timed out.
        Its stderr (and with stdout its stdout) is added to the host's logs."""
        if self.stop.is_set():
            return None, ["interrupted"]
        log = self.path("logs", h)
        with open(log + ".err", "ab") as err, \
                open(log + ".out", "ab") if stdout else open(os.devnull, "wb") as out:
            mark = err.tell()
            start = time.monotonic()
            try:
                p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            except OSError as e:
                return 127, ["cannot run %s: %s" % (argv[0], e.strerror or e)]
            with self.lock:
                self.procs.add(p)
            rc = None
            while rc is None and not self.stop.is_set():
                left = timeout - (time.monotonic() - start)
                if left <= 0:
                    break
                try:
                    rc = p.wait(min(left, heartbeat or left))
                except subprocess.TimeoutExpired:
                    if heartbeat:
                        self.say(h, "still running (%ds)" % (time.monotonic() - start))
            if rc is None:
                p.kill()
                p.wait(10)
            with self.lock:
                self.procs.discard(p)
        with open(log + ".err", "rb") as f:
            f.seek(max(mark, os.path.getsize(log + ".err") - 4096))
            tail = f.read().decode("utf-8", "replace")
        return rc, [l.strip() for l in tail.replace("\r", "").splitlines() if l.strip()]

    def host(self, h):
        try:
            return self._host(h)
        except Exception as e:        # a bug must not take the other hosts down
            if os.environ.get("ETWCONF_REPORT_DEBUG"):
                raise
            st = {"host": h.name, "status": "failed", "reason": "internal error: %s: %s"
                  % (type(e).__name__, e)}
            self.say(h, "FAILED: %s" % st["reason"])
            return st
        finally:        # the host's shared connection, if one is open
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(self.ssh.close(h), stdin=subprocess.DEVNULL, timeout=15,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def _host(self, h):
        a = self.a
        exe = os.path.basename(h.exe_path)
        remote = "%s-%s-%04x.jsonl" % (os.path.splitext(exe)[0], time.strftime("%Y%m%d%H%M%S"),
                                       random.randrange(0x10000))
        st = {"host": h.name, "destination": h.dest, "exe": exe, "exe_sha256": h.exe_sha,
              "args": h.args, "status": "failed", "reason": None, "started": _now(),
              "finished": None, "ssh_exit": None, "exit_code": None, "cases": None,
              "planned": None, "target_id": None, "remote_results": remote}
        for ext in (".out", ".err"):
            with contextlib.suppress(OSError):
                os.remove(self.path("logs", h) + ext)
        self.save_state(h, st)
        self.say(h, "upload %s to %s (%s)" % (exe, h.dest, h.transfer))
        rc, err = self.call(h, self.ssh.upload(h, exe), a.transfer_timeout)
        if rc != 0:
            return self.finish(h, st, "upload failed (%s): %s" % (
                "timed out" if rc is None else "scp exit %d" % rc, _last(err)))
        self.say(h, "run %s" % " ".join([exe, "run", "--out", remote] + h.args))
        t0 = time.monotonic()
        rc, err = self.call(h, self.ssh.run(h, exe, remote), h.timeout or a.timeout, stdout=True,
                            heartbeat=a.progress_interval)
        st["ssh_exit"] = rc
        note = ("no answer within %ds: stopped" % (h.timeout or a.timeout) if rc is None else
                "the SSH connection failed or dropped (ssh exit 255): %s" % _last(err)
                if rc == 255 else None)
        summary = next((l for l in reversed(err) if re.match(r"\S+@\S+: \d+ cases", l)), None)
        self.say(h, "run ended after %.1fs: %s" % (time.monotonic() - t0, note or "ssh exit %d%s"
                                                   % (rc, ": " + summary if summary else "")))
        # the fetch, also after a drop: whatever the exe flushed is kept
        rpath, tmp = self.path("results", h), self.path("results", h) + ".part"
        for attempt in range(a.fetch_tries):
            if attempt and not self.stop.is_set():
                time.sleep(a.fetch_delay)
            rc2, err2 = self.call(h, self.ssh.fetch(h, remote, tmp), a.transfer_timeout)
            if rc2 == 0 and os.path.isfile(tmp):
                break
        else:
            with contextlib.suppress(OSError):
                os.remove(rpath)
            return self.finish(h, st, "no results fetched (%s)%s" % (
                _last(err2), "; " + note if note else ""))
        os.replace(tmp, rpath)
        try:                            # the footer decides
            run = load_results(rpath)
        except InputError as e:
            return self.finish(h, st, "unreadable results: %s" % e)
        st.update(target_id=run.target_id, cases=len(run.cases), planned=run.planned,
                  filtered=run.scope() if run.filtered else None)
        got = (run.header.get("fingerprint") or {}).get("exe_sha256")
        if got and got != h.exe_sha:
            return self.finish(h, st, "the results are from another exe (SHA-256 %s, uploaded %s)"
                               % (got[:12], h.exe_sha[:12]))
        if h.expect and h.expect.lower() not in {n.lower() for n in run.version_names()} \
                and not run.target_id.lower().startswith(h.expect.lower()):
            return self.finish(h, st, "the host is %s, the inventory expects %s"
                               % (run.target_id, h.expect))
        if run.complete:
            st.update(status="complete", exit_code=run.footer.get("exit_code"))
            return self.finish(h, st, None)
        st["status"] = "incomplete"
        return self.finish(h, st, run.incomplete_reason + ("; " + note if note else ""))

    def finish(self, h, st, reason):
        st.update(reason=reason, finished=_now())
        self.save_state(h, st)
        if st["status"] == "complete":
            code = st["exit_code"]
            self.say(h, "complete: %s, %d cases, exit %s from the results footer (%s)%s" % (
                st["target_id"], st["cases"], code, verdict(st),
                "" if st["ssh_exit"] == code else "; ssh said %s, not used" % st["ssh_exit"]))
        elif st["status"] == "incomplete":
            self.say(h, "INCOMPLETE: %s: %s of %s cases kept in %s; %s" % (
                st["target_id"], st["cases"], "?" if st["planned"] is None else st["planned"],
                self.path("results", h), reason))
        else:
            self.say(h, "FAILED: %s" % reason)
        return st

    def save_state(self, h, st):
        tmp = self.path("state", h) + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(st, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path("state", h))


def verdict(st):
    """What a complete host's footer exit code says: a filtered run is never plainly conformant."""
    code = st.get("exit_code")
    if code == 0:
        return ("no failures in %s (a filtered run: no verdict on the whole suite)" % st["filtered"]
                if st.get("filtered") else "conformant")
    return "not conformant" if code == 1 else "?"


def _last(lines):
    """The telling line of ssh's or scp's stderr: ssh's own error if there is one."""
    own = [l for l in lines if l.startswith("ssh: ")] or lines
    return oneline(own[-1], 300) if own else "no message"


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def report(a, hosts, states):
    from etwconf_report.cli import main as report_main
    rdir = os.path.join(a.out, "report")
    os.makedirs(rdir, exist_ok=True)
    files = {h.name: os.path.join(a.out, "results", h.name + ".jsonl") for h in hosts}
    files = {n: f for n, f in files.items() if os.path.isfile(f)}
    if not files:
        print("fleet: no results to report")
        return 0
    argv = ["report", "--skip-bad", "--out", rdir, "--title", "etwconf fleet report"]
    for x in a.expectations or ():
        argv += ["--expectations", x]
    with contextlib.redirect_stdout(io.StringIO()) as buf:
        report_main(argv + list(files.values()))
    print("fleet: " + buf.getvalue().strip())
    base = a.diff_against or os.path.join(a.out, "previous")
    regressions = 0
    if not os.path.isdir(base):
        text = "no previous run in %s: nothing to compare (run again with --fresh)\n" % base
        print("fleet: no previous run to compare with (%s)" % base)
    else:       # hosts paired by name (a host's target may have changed: an upgraded VM)
        out, pairs, alone = io.StringIO(), [], []
        for name, path in files.items():
            old, old_path = None, os.path.join(base, name + ".jsonl")
            try:
                new = load_results(path)
            except InputError:
                continue                # named by the report
            try:
                old = load_results(old_path) if os.path.isfile(old_path) else None
            except InputError as e:
                out.write("note: %s: %s\n" % (name, e))
            if old is None:
                alone.append(new)
                continue
            changes, unchanged = diff.diff_runs(old, new)
            pairs.append((old, new, changes, unchanged, diff.program_changes(old, new, changes)))
            reg = [c.id for c in changes if c.kind == "regression"]
            if reg:
                print("fleet: [%s] %s against the previous run: %s%s" % (
                    name, plural(len(reg), "regression"), " ".join(reg[:8]),
                    " ..." if len(reg) > 8 else ""))
        regressions = diff.render_text(pairs, alone, ["diff against %s, hosts paired by name"
                                                      % base], out)
        text = out.getvalue()
        print("fleet: %s (%s)" % (text.strip().splitlines()[-1], os.path.join(rdir, "diff.txt")))
    with open(os.path.join(rdir, "diff.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    return regressions


def cmd_run(a):
    hosts = parse_inventory(a.inventory, a.exe_dir)
    if a.host:
        unknown = sorted(set(a.host) - {h.name for h in hosts})
        if unknown:
            raise UsageError("--host %s: not in %s" % (" ".join(unknown), a.inventory))
        hosts = [h for h in hosts if h.name in a.host]
    for tool in (a.ssh, a.scp):
        if shutil.which(tool) is None:
            raise UsageError("%s not found: install the OpenSSH client (Debian: apt-get install "
                             "openssh-client) or pass --ssh/--scp" % tool)
    for h in hosts:
        with open(h.exe_path, "rb") as f:
            h.exe_sha = hashlib.sha256(f.read()).hexdigest()
    if a.dry_run:
        s = Ssh(a)
        for h in hosts:
            exe = os.path.basename(h.exe_path)
            for argv in (s.upload(h, exe), s.run(h, exe, "RESULTS.jsonl"),
                         s.fetch(h, "RESULTS.jsonl", os.path.join(a.out, "results", h.name
                                                                   + ".jsonl"))):
                print("[%s] %s" % (h.name, " ".join(shlex.quote(x) for x in argv)))
        return 0
    res_dir = os.path.join(a.out, "results")
    if a.fresh and os.path.isdir(res_dir):
        prev = os.path.join(a.out, "previous")
        shutil.rmtree(prev, ignore_errors=True)
        os.replace(res_dir, prev)
        shutil.rmtree(os.path.join(a.out, "state"), ignore_errors=True)
        print("fleet: --fresh: the last results are now %s (the diff compares with them)" % prev)
    fleet = Fleet(a)
    todo, states = [], {}
    for h in hosts:
        old = load_state(a.out, h)
        if old and old.get("status") == "complete" and old.get("exe_sha256") == h.exe_sha \
                and old.get("args") == h.args and os.path.isfile(fleet.path("results", h)):
            states[h.name] = old
            print("[%s] already complete (%s, exit %s): skipped; --fresh runs it again" % (
                h.name, old.get("target_id"), old.get("exit_code")))
        else:
            todo.append(h)
    print("fleet: %s, %d to run, %d already complete; results in %s" % (
        plural(len(hosts), "host"), len(todo), len(hosts) - len(todo), res_dir))
    pool = ThreadPoolExecutor(a.jobs or len(todo) or 1)
    try:
        states.update(zip([h.name for h in todo], pool.map(fleet.host, todo)))
    except KeyboardInterrupt:
        fleet.stop.set()
        with fleet.lock:
            for p in fleet.procs:
                p.kill()
        print("fleet: interrupted; rerun the same command to resume")
        return 130
    finally:
        pool.shutdown()
        shutil.rmtree(fleet.ctl_dir, ignore_errors=True)
    print("fleet: summary")
    for h in hosts:
        st = states[h.name]
        done = st["status"] == "complete"
        print("  %-16s %-11s %-24s %s" % (
            h.name, st["status"] if done else st["status"].upper(), st.get("target_id") or "-",
            "exit %s (footer): %s" % (st.get("exit_code"), verdict(st)) if done
            else oneline(st.get("reason") or "", 200)))
    regressions = report(a, hosts, states)
    bad = [h.name for h in hosts if states[h.name]["status"] != "complete"]
    if bad:
        print("fleet: %s not complete (%s): rerun the same command to resume them" % (
            plural(len(bad), "host"), " ".join(bad)))
        return EXIT["hosts"]
    return EXIT["regression"] if regressions else EXIT["ok"]


def load_state(out, h):
    try:
        with open(os.path.join(out, "state", h.name + ".json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def cmd_status(a):
    for h in parse_inventory(a.inventory, a.exe_dir):
        st = load_state(a.out, h) or {"status": "not run"}
        print("%-16s %-11s %-24s %s" % (h.name, st.get("status"), st.get("target_id") or "-",
                                        oneline(st.get("reason") or "", 200)))
    return 0


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError("%s; see `%s --help`" % (message, self.prog))


INVENTORY_HELP = """\
inventory: one host per line, '#' starts a comment:
  NAME  DESTINATION  EXE  [key=value ...]
  win7-x64   admin@192.168.122.17  etwconf.exe       expect=6.1
  w11-arm    me@w11arm.lan         etwconf-i686.exe  port=2222 dir=C:/etwconf
EXE is a local file (relative to the inventory, the current directory or --exe-dir). Options:
  port=N  identity=KEYFILE  ssh_option=OPT (repeatable, as ssh -o)
  dir=PATH        remote working directory (default: the login directory)
  shell=cmd|sh    the remote shell: cmd (Windows OpenSSH's default; PowerShell too, without
                  dir=) or a POSIX shell (Cygwin, MSYS2)
  transfer=sftp|scp  scp over SFTP (default, OpenSSH 9's scp) or the legacy protocol (scp -O)
  args="..."      more etwconf arguments (e.g. args="--timeout-ms 10000")
  expect=V        the version the host must report (6.1, 10.0.19045, win7): else FAILED
  timeout=S       bound on the run on this host (default --timeout)
"""


RUN_OPTIONS = (     # flag, default (False: a switch, []: repeatable), help
    ("--out", "build/fleet", "results, state, logs and report"),
    ("--fresh", False, "start over: the current results become OUT/previous, the diff's base"),
    ("--host", [], "only this host"),
    ("--jobs", 0, "hosts at a time (0: all)"),
    ("--exe-dir", "build", "where EXE names are also looked up"),
    ("--timeout", 1800, "bound on each host's run, in seconds"),
    ("--transfer-timeout", 300, "bound on each upload and fetch, in seconds"),
    ("--connect-timeout", 15, "ssh's ConnectTimeout, in seconds"),
    ("--fetch-tries", 3, "fetch attempts (after a dropped connection)"),
    ("--fetch-delay", 2.0, "seconds between them"),
    ("--progress-interval", 30, "print 'still running' this often, in seconds"),
    ("--diff-against", None, "results to compare with, as HOST.jsonl (default: OUT/previous)"),
    ("--expectations", [], "known-failure file for the report"),
    ("--ssh-config", None, "ssh configuration file (ssh -F)"),
    ("--ssh-option", [], "ssh/scp -o option for every host"),
    ("--ssh", os.environ.get("ETWCONF_FLEET_SSH", "ssh"), "the ssh client"),
    ("--scp", os.environ.get("ETWCONF_FLEET_SCP", "scp"), "the scp client"),
    ("--dry-run", False, "print the commands, run nothing"),
)


def build_parser():
    p = Parser(prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
               description="Run etwconf.exe on a fleet of Windows machines over SSH, in parallel, "
               "and write one report (rule x host matrix, diff against the previous run).",
               epilog=INVENTORY_HELP + "\nExit codes: 0 every host complete, no regression; "
               "1 every host complete, a regression against the previous run; "
               "2 usage or inventory error; 3 internal error; 4 a host failed or is incomplete "
               "(the others are reported; rerun to resume). A host's own result (0 conformant, 1 "
               "not) comes from its results footer, never from ssh. Documentation: "
               "harness/windows/README.md.")
    p.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)
    r = sub.add_parser("run", help="upload, run, fetch on every host; then the report",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=INVENTORY_HELP,
                       description="Upload the exe to every host, run it, fetch the results, all "
                       "hosts in parallel; then write the report into OUT/report. A rerun "
                       "resumes: hosts already complete are skipped.")
    r.add_argument("inventory", metavar="INVENTORY")
    for flag, default, hlp in RUN_OPTIONS:
        if default is False:
            r.add_argument(flag, action="store_true", help=hlp)
        elif default == []:
            r.add_argument(flag, action="append", help=hlp + " (repeatable)")
        else:
            r.add_argument(flag, default=default, type=type(default) if default else str,
                           help=hlp + (" (default: %(default)s)" if default else ""))
    r.set_defaults(fn=cmd_run)
    s = sub.add_parser("status", help="the state of every host in OUT",
                       description="Print each host's state from the last run in OUT.")
    s.add_argument("inventory", metavar="INVENTORY")
    s.add_argument("--out", default="build/fleet", metavar="DIR")
    s.add_argument("--exe-dir", default="build", metavar="DIR")
    s.set_defaults(fn=cmd_status)
    return p


def main(argv=None):
    return run_command(PROG, build_parser, sys.argv[1:] if argv is None else argv,
                       (UsageError, InputError), exit_usage=EXIT["usage"],
                       exit_internal=EXIT["internal"])
