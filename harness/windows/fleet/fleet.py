"""etwconf-fleet: run etwconf.exe on a fleet of Windows machines over SSH, in parallel, and
report them together (Python standard library plus the OpenSSH client).

For each host of an inventory: upload the exe (scp; SFTP protocol by default, as OpenSSH 9's scp,
or the legacy scp protocol with transfer=scp), run it (`etwconf.exe run --quiet --out FILE`),
fetch the results file, and read it. A host is

  complete     the results have their footer; its exit code (0 conformant, 1 not) is the host's
               result. ssh's own exit status is not used: it is the remote code modulo 256, and
               255 when the connection dropped, so it says nothing reliable about the run;
  incomplete   results without a footer (the connection or the process died midway): the
               partial file is kept, and the reports mark it INCOMPLETE;
  failed       no readable results (unreachable, upload failed, the exe did not start), or
               results from another exe or another Windows version than the inventory says.

Then one report over every host (etwconf-report's HTML/Markdown/JUnit report and a text
rule x host matrix) and a diff against the previous run (or --diff-against DIR, and the
baselines of real Windows with --baseline DIR). A rerun resumes: hosts already complete with the
same exe and arguments are skipped; --fresh starts over and keeps the last results as the
previous run.

Layout of --out DIR: results/HOST.jsonl, state/HOST.json, logs/HOST.{out,err}, previous/,
report/{index.html,summary.md,junit.xml,matrix.txt,diff.txt}.
"""
import argparse
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

from etwconf_report import __version__
from etwconf_report.ingest import InputError, load as load_results
from etwconf_report.util import oneline, plural, run_command

PROG = "etwconf-fleet"
HOST_OPTIONS = ("port", "identity", "dir", "shell", "transfer", "args", "expect", "timeout",
                "ssh_option")
EXIT = {"ok": 0, "regression": 1, "usage": 2, "internal": 3, "hosts": 4}
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class UsageError(Exception):
    pass


# ------------------------------------------------------------------------------ inventory
class Host:
    def __init__(self, name, dest, exe, opts, where):
        self.name, self.dest, self.exe, self.where = name, dest, exe, where
        self.port = opts.get("port")
        self.identity = opts.get("identity")
        self.dir = opts.get("dir", "")
        self.shell = opts.get("shell", "cmd")
        self.transfer = opts.get("transfer", "sftp")
        self.args = shlex.split(opts.get("args", ""))
        self.expect = opts.get("expect")
        self.timeout = int(opts.get("timeout", 0)) or None
        self.ssh_options = opts.get("ssh_option", [])
        self.exe_path = None            # resolved local path
        self.exe_sha = None


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
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            words = shlex.split(text, comments=True)
        except ValueError as e:
            raise UsageError("%s: %s (quote values with spaces: args=\"--case x\")" % (where, e))
        if len(words) < 3:
            raise UsageError("%s: expected NAME DESTINATION EXE [key=value...], got %r"
                             % (where, text))
        name, dest, exe = words[:3]
        if not NAME_RE.fullmatch(name):
            raise UsageError("%s: host name %r: use letters, digits, '.', '_' and '-'" % (where, name))
        if name in names:
            raise UsageError("%s: host %s is already defined at line %d" % (where, name, names[name]))
        names[name] = n
        opts = {"ssh_option": []}
        for w in words[3:]:
            k, eq, v = w.partition("=")
            if not eq or k not in HOST_OPTIONS:
                raise UsageError("%s: unknown option %r (options: %s, as key=value)"
                                 % (where, w, " ".join(HOST_OPTIONS)))
            if k == "ssh_option":
                opts[k].append(v)
            else:
                opts[k] = v
        if opts.get("port") and not opts["port"].isdigit():
            raise UsageError("%s: port=%s is not a number" % (where, opts["port"]))
        if opts.get("timeout") and not opts["timeout"].isdigit():
            raise UsageError("%s: timeout=%s is not a number of seconds" % (where, opts["timeout"]))
        if opts.get("shell", "cmd") not in ("cmd", "sh"):
            raise UsageError("%s: shell=%s: use cmd (Windows OpenSSH's default) or sh"
                             % (where, opts["shell"]))
        if opts.get("transfer", "sftp") not in ("sftp", "scp"):
            raise UsageError("%s: transfer=%s: use sftp (the default) or scp (the legacy "
                             "protocol, scp -O)" % (where, opts["transfer"]))
        try:
            h = Host(name, dest, exe, opts, where)
        except ValueError as e:
            raise UsageError("%s: %s" % (where, e))
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


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ------------------------------------------------------------------------------ commands
class Ssh:
    def __init__(self, a, ctl_dir=None):
        self.ssh = a.ssh
        self.scp = a.scp
        self.common = []
        if a.ssh_config:
            self.common += ["-F", a.ssh_config]
        self.common += ["-o", "BatchMode=yes", "-o", "ConnectTimeout=%d" % a.connect_timeout,
                        "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3"]
        for o in a.ssh_option or ():
            self.common += ["-o", o]
        # one connection per host: the upload, the run and the fetch are sessions of it (one key
        # exchange and login, not three); after a drop the next command connects anew
        if ctl_dir:
            self.common += ["-o", "ControlMaster=auto", "-o", "ControlPersist=30",
                            "-o", "ControlPath=" + os.path.join(ctl_dir, "%C")]

    def _opts(self, h, port_flag):
        o = list(self.common)
        for x in h.ssh_options:
            o += ["-o", x]
        if h.port:
            o += [port_flag, h.port]
        if h.identity:
            o += ["-i", h.identity]
        return o

    def remote_path(self, h, name):
        d = h.dir.replace("\\", "/").rstrip("/")
        if not d:
            return name
        if h.transfer == "sftp" and re.match(r"[A-Za-z]:", d):
            d = "/" + d                    # Windows OpenSSH's SFTP names C:/x as /C:/x
        return d + "/" + name

    def upload(self, h, remote):
        return [self.scp] + self._opts(h, "-P") + (["-O"] if h.transfer == "scp" else []) + \
            [h.exe_path, "%s:%s" % (h.dest, self.remote_path(h, remote))]

    def fetch(self, h, remote, local):
        return [self.scp] + self._opts(h, "-P") + (["-O"] if h.transfer == "scp" else []) + \
            ["%s:%s" % (h.dest, self.remote_path(h, remote)), local]

    def run(self, h, exe, results):
        argv = [exe, "run", "--quiet", "--out", results] + h.args
        if h.shell == "cmd":
            argv[0] = ".\\" + exe         # the login directory; PowerShell needs the .\ too
            line = " ".join(_cmd_quote(x) for x in argv)
            if h.dir:
                line = 'cd /d %s && %s' % (_cmd_quote(h.dir.replace("/", "\\")), line)
        else:
            argv[0] = "./" + exe
            line = " ".join(shlex.quote(x) for x in argv)
            if h.dir:
                line = "cd %s && %s" % (shlex.quote(h.dir), line)
        return [self.ssh] + self._opts(h, "-p") + ["-n", h.dest, line]

    def close(self, h):
        return [self.ssh] + self._opts(h, "-p") + ["-O", "exit", h.dest]


def _cmd_quote(s):
    """Quote one argument for cmd.exe and the MSVCRT argument parser."""
    if s and not re.search(r'[\s"&|<>^%()]', s):
        return s
    return '"' + s.replace('"', '\\"') + '"'


# ------------------------------------------------------------------------------ one host
class Fleet:
    def __init__(self, a, hosts):
        self.a = a
        self.hosts = hosts
        self.ctl_dir = tempfile.mkdtemp(prefix="etwconf-fleet-")   # short: a socket's path
        self.ssh = Ssh(a, self.ctl_dir)
        self.out = a.out
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.procs = set()
        for d in ("results", "state", "logs"):
            os.makedirs(os.path.join(self.out, d), exist_ok=True)

    def say(self, h, msg):
        with self.lock:
            print("[%s] %s" % (h.name, msg))
            sys.stdout.flush()

    def state_path(self, h):
        return os.path.join(self.out, "state", h.name + ".json")

    def results_path(self, h):
        return os.path.join(self.out, "results", h.name + ".jsonl")

    def load_state(self, h):
        try:
            with open(self.state_path(h), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def save_state(self, h, st):
        tmp = self.state_path(h) + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(st, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, self.state_path(h))

    def call(self, h, argv, timeout, log=None, heartbeat=None):
        """Run a command with a bound on its time; (rc, stderr tail). rc None: timed out."""
        if self.stop.is_set():
            return None, "interrupted"
        out = open(log + ".out", "ab") if log else subprocess.DEVNULL
        err_path = (log + ".err") if log else None
        err = open(err_path, "ab") if log else subprocess.PIPE
        start = time.monotonic()
        try:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        except OSError as e:
            return 127, "cannot run %s: %s" % (argv[0], e.strerror or e)
        with self.lock:
            self.procs.add(p)
        try:
            rc = None
            while True:
                left = timeout - (time.monotonic() - start)
                if left <= 0 or self.stop.is_set():
                    p.kill()
                    p.wait(10)
                    rc = None
                    break
                try:
                    rc = p.wait(min(left, heartbeat or left))
                    break
                except subprocess.TimeoutExpired:
                    if heartbeat:
                        self.say(h, "still running (%ds)" % (time.monotonic() - start))
            if log:
                out.close()
                err.close()
                with open(err_path, "rb") as f:
                    f.seek(max(0, os.path.getsize(err_path) - 4096))
                    tail = f.read().decode("utf-8", "replace")
            else:
                tail = p.stderr.read().decode("utf-8", "replace")
                p.stderr.close()
        finally:
            with self.lock:
                self.procs.discard(p)
        lines = [l.strip() for l in tail.replace("\r", "").splitlines() if l.strip()]
        return rc, lines

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
            try:
                subprocess.run(self.ssh.close(h), stdin=subprocess.DEVNULL, timeout=15,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            except (OSError, subprocess.SubprocessError):
                pass

    def _host(self, h):
        a = self.a
        st = {"host": h.name, "destination": h.dest, "exe": os.path.basename(h.exe_path),
              "exe_sha256": h.exe_sha, "args": h.args, "status": "failed", "reason": None,
              "started": _now(), "finished": None, "ssh_exit": None, "exit_code": None,
              "cases": None, "planned": None, "target_id": None}
        rpath = self.results_path(h)
        log = os.path.join(self.out, "logs", h.name)
        for ext in (".out", ".err"):
            try:
                os.remove(log + ext)
            except OSError:
                pass
        stem = os.path.splitext(os.path.basename(h.exe_path))[0]
        exe = os.path.basename(h.exe_path)
        remote = "%s-%s-%04x.jsonl" % (stem, time.strftime("%Y%m%d%H%M%S"),
                                      random.randrange(0x10000))
        st["remote_results"] = remote
        self.save_state(h, st)
        # 1. upload
        self.say(h, "upload %s to %s (%s)" % (exe, h.dest, h.transfer))
        rc, err = self.call(h, self.ssh.upload(h, exe), a.transfer_timeout)
        if rc != 0:
            st["reason"] = "upload failed (%s): %s" % (
                "timed out" if rc is None else "scp exit %d" % rc, _last(err))
            return self.finish(h, st)
        # 2. run
        self.say(h, "run %s" % " ".join([exe, "run", "--out", remote] + h.args))
        t0 = time.monotonic()
        rc, err = self.call(h, self.ssh.run(h, exe, remote), h.timeout or a.timeout, log=log,
                            heartbeat=a.progress_interval)
        st["ssh_exit"] = rc
        run_note = None
        if rc is None:
            run_note = "no answer within %ds: stopped" % (h.timeout or a.timeout)
        elif rc == 255:
            run_note = "the SSH connection failed or dropped (ssh exit 255): %s" % _last(err)
        summary = next((l for l in reversed(err) if re.match(r"\S+@\S+: \d+ cases", l)), None)
        self.say(h, "run ended after %.1fs: %s" % (time.monotonic() - t0, run_note or
                                                   "ssh exit %d%s" % (rc, ": " + summary if summary
                                                                      else "")))
        # 3. fetch (also after a drop: whatever the exe flushed is kept)
        tmp = rpath + ".part"
        fetched = False
        for attempt in range(1, a.fetch_tries + 1):
            rc2, err2 = self.call(h, self.ssh.fetch(h, remote, tmp), a.transfer_timeout)
            if rc2 == 0 and os.path.isfile(tmp):
                fetched = True
                break
            if attempt < a.fetch_tries and not self.stop.is_set():
                time.sleep(a.fetch_delay)
        if not fetched:
            st["reason"] = "no results fetched (%s)%s" % (_last(err2), "; " + run_note
                                                          if run_note else "")
            if os.path.exists(rpath):
                os.remove(rpath)
            return self.finish(h, st)
        os.replace(tmp, rpath)
        # 4. read them: the footer decides
        try:
            run = load_results(rpath)
        except InputError as e:
            st["reason"] = "unreadable results: %s" % e
            return self.finish(h, st)
        st["target_id"] = run.target_id
        st["cases"] = len(run.cases)
        st["planned"] = run.planned
        st["filtered"] = run.scope() if run.filtered else None
        fp = run.header.get("fingerprint") or {}
        if fp.get("exe_sha256") and fp["exe_sha256"] != h.exe_sha:
            st["reason"] = "the results are from another exe (SHA-256 %s, uploaded %s)" % (
                fp["exe_sha256"][:12], h.exe_sha[:12])
            return self.finish(h, st)
        if h.expect and h.expect.lower() not in {n.lower() for n in run.version_names()} \
                and not run.target_id.lower().startswith(h.expect.lower()):
            st["reason"] = "the host is %s, the inventory expects %s" % (run.target_id, h.expect)
            return self.finish(h, st)
        if run.complete:
            st["status"] = "complete"
            st["exit_code"] = run.footer.get("exit_code")
        else:
            st["status"] = "incomplete"
            st["reason"] = "%s%s" % (run.incomplete_reason, "; " + run_note if run_note else "")
        return self.finish(h, st)

    def finish(self, h, st):
        st["finished"] = _now()
        self.save_state(h, st)
        if st["status"] == "complete":
            code = st["exit_code"]
            self.say(h, "complete: %s, %d cases, exit %s from the results footer (%s)%s" % (
                st["target_id"], st["cases"], code, verdict(st),
                "" if st["ssh_exit"] == code else "; ssh said %s, not used" % st["ssh_exit"]))
        elif st["status"] == "incomplete":
            self.say(h, "INCOMPLETE: %s: %s of %s cases kept in %s; %s" % (
                st["target_id"], st["cases"], st["planned"] if st["planned"] is not None else "?",
                self.results_path(h), st["reason"]))
        else:
            self.say(h, "FAILED: %s" % st["reason"])
        return st


def verdict(st):
    """What a complete host's footer exit code says: a filtered run is never plainly conformant."""
    code = st.get("exit_code")
    if code == 0:
        return ("no failures in %s (a filtered run: no verdict on the whole suite)" % st["filtered"]
                if st.get("filtered") else "conformant")
    return "not conformant" if code == 1 else "?"


def _last(lines):
    """The telling line of ssh's or scp's stderr: ssh's own error if there is one."""
    if not lines:
        return "no message"
    own = [l for l in lines if l.startswith("ssh: ")]
    return oneline(own[-1] if own else lines[-1], 300)


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# ------------------------------------------------------------------------------ the report
def text_matrix(runs_by_host, catalog):
    """Rule x host matrix as text: the worst status of the rule's cases (as the HTML report)."""
    from etwconf_report import analysis
    from etwconf_report.ingest import label_runs
    names = list(runs_by_host)
    runs = [runs_by_host[n] for n in names]
    label_runs(runs)
    summaries = analysis.summarize(runs, catalog)
    rows, cells = analysis.matrix(summaries, catalog)
    w = max([len(r) for _, r in rows] + [4])
    cw = [max(len(n), len(runs_by_host[n].target_id), 9) for n in names]
    out = io.StringIO()
    out.write("%-*s  %s\n" % (w, "host", "  ".join("%-*s" % (c, n) for c, n in zip(cw, names))))
    out.write("%-*s  %s\n" % (w, "target", "  ".join("%-*s" % (c, runs_by_host[n].target_id +
                                                             ("" if runs_by_host[n].complete
                                                              else "*"))
                                                      for c, n in zip(cw, names))))
    for group, rid in rows:
        vals = []
        for i, c in enumerate(cw):
            cell = cells.get((rid, i))
            vals.append("%-*s" % (c, (cell.status if cell else "n/a")))
        out.write("%-*s  %s\n" % (w, rid, "  ".join(vals)))
    out.write("(* incomplete run: cases it did not reach are n/a)\n")
    return "\n".join(l.rstrip() for l in out.getvalue().split("\n"))


def report(a, hosts, states):
    from etwconf_report import catalog, diff
    from etwconf_report.cli import main as report_main
    rdir = os.path.join(a.out, "report")
    os.makedirs(rdir, exist_ok=True)
    files = [os.path.join(a.out, "results", h.name + ".jsonl") for h in hosts]
    files = [f for f in files if os.path.isfile(f)]
    regressions = 0
    if not files:
        print("fleet: no results to report")
        return regressions
    argv = ["report", "--skip-bad", "--out", rdir, "--title", "etwconf fleet report"]
    for x in a.expectations or ():
        argv += ["--expectations", x]
    with _quiet_stdout() as buf:
        report_main(argv + files)
    print("fleet: " + buf.getvalue().strip())
    runs = {}
    for h in hosts:
        p = os.path.join(a.out, "results", h.name + ".jsonl")
        if os.path.isfile(p):
            try:
                runs[h.name] = load_results(p)
            except InputError:
                pass
    cat = catalog.load()
    with open(os.path.join(rdir, "matrix.txt"), "w", encoding="utf-8") as f:
        f.write(text_matrix(runs, cat))
    print("fleet: rule x host matrix: %s" % os.path.join(rdir, "matrix.txt"))
    # diff against the previous run (or --diff-against): hosts paired by name
    base = a.diff_against or os.path.join(a.out, "previous")
    dpath = os.path.join(rdir, "diff.txt")
    if os.path.isdir(base):
        out = io.StringIO()
        pairs, alone = [], []
        for name, new in runs.items():
            old_path = os.path.join(base, name + ".jsonl")
            try:
                old = load_results(old_path) if os.path.isfile(old_path) else None
            except InputError as e:
                out.write("note: %s: %s\n" % (name, e))
                old = None
            if old is None:
                alone.append(new)
                continue
            changes, unchanged = diff.diff_runs(old, new)      # as diff.run_diff pairs them
            pairs.append((old, new, changes, unchanged, diff.program_changes(old, new, changes)))
        regressions = diff.render_text(pairs, alone, ["diff against %s, hosts paired by name"
                                                      % base], out)
        with open(dpath, "w", encoding="utf-8") as f:
            f.write(out.getvalue())
        last = out.getvalue().strip().splitlines()[-1]
        print("fleet: %s (%s)" % (last, dpath))
        for old, new, changes, *_ in pairs:
            reg = [c for c in changes if c.kind == "regression"]
            if reg:
                name = os.path.splitext(os.path.basename(new.path))[0]
                print("fleet: [%s] %s against the previous run: %s%s" % (
                    name, plural(len(reg), "regression"), " ".join(c.id for c in reg[:8]),
                    " ..." if len(reg) > 8 else ""))
    else:
        with open(dpath, "w", encoding="utf-8") as f:
            f.write("no previous run in %s: nothing to compare (run again with --fresh)\n" % base)
        print("fleet: no previous run to compare with (%s)" % base)
    if a.baseline:
        from etwconf_report import calibrate
        live = [r for r in runs.values() if r.impl == "windows"]
        if live:
            with _quiet_stdout() as buf:
                rc = calibrate.baseline_check(live, a.baseline, False, lambda m: None)
            with open(os.path.join(rdir, "baseline.txt"), "w", encoding="utf-8") as f:
                f.write(buf.getvalue())
            print("fleet: " + buf.getvalue().strip().splitlines()[-1])
            if rc:
                regressions += 1
        else:
            print("fleet: --baseline: no run on real Windows to compare")
    return regressions


class _quiet_stdout:
    def __enter__(self):
        self.buf = io.StringIO()
        self.old = sys.stdout
        sys.stdout = self.buf
        return self.buf

    def __exit__(self, *exc):
        sys.stdout = self.old
        return False


# ------------------------------------------------------------------------------ run
def cmd_run(a):
    hosts = parse_inventory(a.inventory, a.exe_dir)
    if a.host:
        unknown = [n for n in a.host if n not in {h.name for h in hosts}]
        if unknown:
            raise UsageError("--host %s: not in %s" % (" ".join(unknown), a.inventory))
        hosts = [h for h in hosts if h.name in a.host]
    for tool in (a.ssh, a.scp):
        if shutil.which(tool) is None:
            raise UsageError("%s not found: install the OpenSSH client (Debian: apt-get install "
                             "openssh-client) or pass --ssh/--scp" % tool)
    for h in hosts:
        h.exe_sha = sha256(h.exe_path)
    res_dir = os.path.join(a.out, "results")
    if a.fresh and os.path.isdir(res_dir):
        prev = os.path.join(a.out, "previous")
        shutil.rmtree(prev, ignore_errors=True)
        os.replace(res_dir, prev)
        shutil.rmtree(os.path.join(a.out, "state"), ignore_errors=True)
        print("fleet: --fresh: the last results are now %s (the diff compares with them)" % prev)
    if a.dry_run:
        s = Ssh(a)
        for h in hosts:
            print("[%s] %s" % (h.name, " ".join(shlex.quote(x) for x in s.upload(h, os.path.basename(h.exe_path)))))
            print("[%s] %s" % (h.name, " ".join(shlex.quote(x) for x in s.run(h, os.path.basename(h.exe_path), "RESULTS.jsonl"))))
            print("[%s] %s" % (h.name, " ".join(shlex.quote(x) for x in s.fetch(h, "RESULTS.jsonl", a.out + "/results/" + h.name + ".jsonl"))))
        return 0
    fleet = Fleet(a, hosts)
    todo, states = [], {}
    for h in hosts:
        old = fleet.load_state(h)
        if old and old.get("status") == "complete" and old.get("exe_sha256") == h.exe_sha \
                and old.get("args") == h.args and os.path.isfile(fleet.results_path(h)):
            states[h.name] = old
            print("[%s] already complete (%s, exit %s): skipped; --fresh runs it again" % (
                h.name, old.get("target_id"), old.get("exit_code")))
        else:
            todo.append(h)
    print("fleet: %s, %d to run, %d already complete; results in %s" % (
        plural(len(hosts), "host"), len(todo), len(hosts) - len(todo),
        os.path.join(a.out, "results")))
    threads = []
    results = {}

    def work(h):
        results[h.name] = fleet.host(h)

    sem = threading.Semaphore(a.jobs or len(todo) or 1)

    def limited(h):
        with sem:
            work(h)

    for h in todo:
        t = threading.Thread(target=limited, args=(h,), name="host-" + h.name, daemon=True)
        t.start()
        threads.append(t)
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.5)
    except KeyboardInterrupt:
        fleet.stop.set()
        with fleet.lock:
            for p in list(fleet.procs):
                p.kill()
        for t in threads:
            t.join(15)
        print("fleet: interrupted; rerun the same command to resume")
        return 130
    shutil.rmtree(fleet.ctl_dir, ignore_errors=True)
    states.update(results)
    # one line per host, then the report
    print("fleet: summary")
    for h in hosts:
        st = states.get(h.name) or {"status": "failed", "reason": "no state"}
        code = st.get("exit_code")
        print("  %-16s %-11s %-24s %s" % (h.name, st["status"].upper() if st["status"] !=
                                         "complete" else "complete", st.get("target_id") or "-",
                                         ("exit %s (footer): %s" % (code, verdict(st)))
                                         if st["status"] == "complete" else
                                         oneline(st.get("reason") or "", 200)))
    regressions = report(a, hosts, states)
    bad = [h.name for h in hosts if (states.get(h.name) or {}).get("status") != "complete"]
    if bad:
        print("fleet: %s not complete (%s): rerun the same command to resume them" % (
            plural(len(bad), "host"), " ".join(bad)))
        return EXIT["hosts"]
    return EXIT["regression"] if regressions else EXIT["ok"]


def cmd_status(a):
    hosts = parse_inventory(a.inventory, a.exe_dir)
    sdir = os.path.join(a.out, "state")
    for h in hosts:
        try:
            with open(os.path.join(sdir, h.name + ".json"), encoding="utf-8") as f:
                st = json.load(f)
        except (OSError, ValueError):
            st = {"status": "not run"}
        print("%-16s %-11s %-24s %s" % (h.name, st.get("status"), st.get("target_id") or "-",
                                        oneline(st.get("reason") or "", 200)))
    return 0


# ------------------------------------------------------------------------------ parser
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


def build_parser():
    p = Parser(prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
               description="Run etwconf.exe on a fleet of Windows machines over SSH, in parallel, "
               "and write one report (rule x host matrix, diff against the previous run).",
               epilog=INVENTORY_HELP + "\nExit codes: 0 every host complete, no regression; 1 every "
               "host complete, a regression against the previous run or the baseline; 2 usage or "
               "inventory error; 3 internal error; 4 a host failed or is incomplete (the others "
               "are reported; rerun to resume). A host's own result (0 conformant, 1 not) comes "
               "from its results footer, never from ssh. Documentation: harness/windows/README.md.")
    p.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)
    r = sub.add_parser("run", help="upload, run, fetch on every host; then the report",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Upload the exe to every host, run it, fetch the results, all "
                       "hosts in parallel; then write the report into OUT/report. A rerun "
                       "resumes: hosts already complete are skipped.", epilog=INVENTORY_HELP)
    r.add_argument("inventory", metavar="INVENTORY")
    r.add_argument("--out", default="build/fleet", metavar="DIR",
                   help="results, state, logs and report (default: build/fleet)")
    r.add_argument("--fresh", action="store_true",
                   help="start over: the current results become OUT/previous, the diff's base")
    r.add_argument("--host", action="append", metavar="NAME", help="only this host (repeatable)")
    r.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="hosts at a time (default: all)")
    r.add_argument("--exe-dir", default="build", metavar="DIR",
                   help="where EXE names are also looked up (default: build)")
    r.add_argument("--timeout", type=int, default=1800, metavar="S",
                   help="bound on each host's run (default: 1800)")
    r.add_argument("--transfer-timeout", type=int, default=300, metavar="S",
                   help="bound on each upload and fetch (default: 300)")
    r.add_argument("--connect-timeout", type=int, default=15, metavar="S")
    r.add_argument("--fetch-tries", type=int, default=3, metavar="N",
                   help="fetch attempts (after a dropped connection) (default: 3)")
    r.add_argument("--fetch-delay", type=float, default=2.0, metavar="S")
    r.add_argument("--progress-interval", type=int, default=30, metavar="S",
                   help="print 'still running' this often (default: 30)")
    r.add_argument("--diff-against", metavar="DIR",
                   help="results to compare with, as HOST.jsonl (default: OUT/previous)")
    r.add_argument("--baseline", metavar="DIR",
                   help="also check runs on real Windows against these baselines "
                   "(e.g. baselines/windows)")
    r.add_argument("--expectations", action="append", metavar="FILE",
                   help="known-failure file for the report (repeatable)")
    r.add_argument("--ssh-config", metavar="FILE", help="ssh configuration file (ssh -F)")
    r.add_argument("--ssh-option", action="append", metavar="OPT",
                   help="ssh/scp -o option for every host (repeatable)")
    r.add_argument("--ssh", default=os.environ.get("ETWCONF_FLEET_SSH", "ssh"),
                   help="the ssh client (default: ssh)")
    r.add_argument("--scp", default=os.environ.get("ETWCONF_FLEET_SCP", "scp"),
                   help="the scp client (default: scp)")
    r.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    r.set_defaults(fn=cmd_run)
    s = sub.add_parser("status", help="the state of every host in OUT",
                       description="Print each host's state from the last run in OUT.")
    s.add_argument("inventory", metavar="INVENTORY")
    s.add_argument("--out", default="build/fleet", metavar="DIR")
    s.add_argument("--exe-dir", default="build", metavar="DIR")
    s.set_defaults(fn=cmd_status)
    return p


def main(argv=None):
    return run_command(PROG, build_parser, sys.argv[1:] if argv is None else argv, (UsageError, InputError),
                       exit_usage=EXIT["usage"], exit_internal=EXIT["internal"])
