"""Read etwconf results files (JSON Lines, schema etwconf-results/1; see harness/RESULTS.md).

Every problem becomes an InputError with the file, the line and what to do; nothing a results
file contains can raise anything else. A run without its footer (killed midway) is accepted and
marked incomplete; a last line cut short in the middle of a record is dropped.
"""
import json
import os
import re

from .util import STATUSES, clean, display, nt_tuple, WINE_NT, NT_WINE, IMPL_ORDER, \
    version_sort_key, run_key, read_regular, NotRegular, plural

# a JSON escape, or a raw character, that util.clean() would replace
_MAYBE_BAD = re.compile(r"\\u(?:00[01]|007f|008|009|d[89a-f]|fff[ef])|[\x7f-\x9f\ufffe\uffff]",
                        re.I)

SCHEMA = "etwconf-results/1"
SCHEMA_PREFIX = "etwconf-results/"
MAX_FILE = 512 * 1024 * 1024
MAX_LINE = 8 * 1024 * 1024
RERUN_HINT = "re-run it with `build/etwconf run --out FILE`"
DAMAGED = "the file is damaged; " + RERUN_HINT
CONCATENATED = "two runs were concatenated into one file; keep one run per file"


def _foreign(path, line, why):
    return InputError(path, line, "not an etwconf results file (%s)" % why,
                      "pass the .jsonl files written by `etwconf run --out FILE`")


class InputError(Exception):
    """Bad input. str() is 'FILE:LINE: what is wrong; what to do'."""

    def __init__(self, path, line, what, todo=None):
        Exception.__init__(self, what)
        self.path, self.line, self.what, self.todo = path, line, what, todo

    def __str__(self):
        loc = self.path if self.line is None else "%s:%d" % (self.path, self.line)
        return "%s: %s%s" % (loc, self.what, "; " + self.todo if self.todo else "")


class Run:
    """One results file: header, case records, footer (None when the run was cut short)."""

    def __init__(self, path):
        self.path = path
        self.header = None
        self.cases = []
        self.footer = None
        self.complete = False
        self.incomplete_reason = None
        self.warnings = []
        self.by_id = {}
        self.label = None          # unique display name, set by label_runs()
        self.damage = []           # lines that could not be read (invalid UTF-8)
        self.filter = None         # the --case/--filter options of a filtered run
        self.filtered = False      # the run did not plan every case of the suite
        self.suite_cases = None    # the suite's case count (header suite.cases), when known

    # the target, read from the header each time (a Run may be given a header by hand)
    target = property(lambda self: self.header["target"])
    impl = property(lambda self: self.target["impl"])
    version = property(lambda self: self.target["version"])
    arch = property(lambda self: self.target.get("arch"))
    planned = property(lambda self: self.header.get("cases_planned"))

    @property
    def target_id(self):
        tid = self.header.get("target_id")
        return tid if isinstance(tid, str) and tid else "%s@%s" % (self.impl, self.version)

    @property
    def version_name(self):
        """The version as people name it: the part of target_id after '@' (win10, 6.1,
        10.0.19045), else target.version."""
        return self.target_id.partition("@")[2] or self.version

    def version_names(self):
        """Every name this run's version answers to (for expectation entries)."""
        names = {self.version, self.version_name}
        if isinstance(self.target.get("nt_version"), str):
            names.add(self.target["nt_version"])
        names |= {WINE_NT[n.lower()] for n in names if n.lower() in WINE_NT}
        if self.impl == "wine":
            names |= {NT_WINE[n] for n in names if n in NT_WINE}
        return names

    def nt(self):
        """(major, minor): from target.nt_version when the harness gives it, else from the
        version name (win10 -> (10, 0), 10.0.19045 -> (10, 0))."""
        return nt_tuple(self.target.get("nt_version")) or nt_tuple(self.version_name) \
            or nt_tuple(self.version)

    def key(self):
        """The version key (major, minor, build, update): from the header's build when it gives
        one (a live system, or an emulated build), else from the version's name."""
        t = self.target
        return run_key(self.version_name, t.get("nt_version"), t.get("build"), t.get("update", 0)) \
            or run_key(self.version)

    def sort_key(self):
        return (IMPL_ORDER.get(self.impl, 9), self.impl, self.nt() or (99, 99),
                version_sort_key(self.version_name), self.target_id, self.path)

    def counts(self):
        c = dict.fromkeys(STATUSES, 0)
        for rec in self.cases:
            c[rec["status"]] += 1
        return c

    def scope(self):
        """'N of M cases' for a filtered run ('N cases (FILTER)' when the suite's count is not
        known); None for a run of the whole suite."""
        if not self.filtered:
            return None
        n = self.planned if self.planned is not None else len(self.cases)
        text = "%d of %d cases" % (n, self.suite_cases) if self.suite_cases else plural(n, "case")
        if self.filter:
            text += " (%s)" % self.filter
        return text


# ------------------------------------------------------------------------------ field checks
def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _typename(v):
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "a number", float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


# a field's kind: the test of a present value, and what a message calls the kind (None: "must be
# a list of strings"); "text" is any scalar, shown as text, and stored back as text like "strings"
# and "bool" (their value when absent: [] and the bool's default)
_KINDS = {
    "object": (lambda v: isinstance(v, dict), "an object"),
    "string": (lambda v: isinstance(v, str), "a string"),
    "int": (_is_int, "a whole number"),
    "number": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "list": (lambda v: isinstance(v, list), None),
    "strings": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), None),
    "text": (None, None),
}


def _rows(*rows):
    """Rows (key, kind[, required[, bound]]) as (key, kind, required, bound, test, name)."""
    return tuple(r + (False, None)[len(r) - 2:] + _KINDS[r[1]] for r in rows)


# The records' fields, (key, kind[, required[, bound]]), checked in this order. bound: an int's
# minimum, "nonempty" for a string, a bool's value when absent.
_TARGET = _rows(("impl", "string", True, "nonempty"), ("version", "string", True, "nonempty"),
                ("arch", "string"), ("name", "string"))
_HEADER = _rows(("suite", "object"), ("host", "object"), ("fingerprint", "object"),
                ("target_id", "string"), ("started", "string"),
                ("cases_planned", "int", False, 0), ("timeout_ms", "int"), ("argv", "list"))
_CASE_ID = _rows(("seq", "int", True, 1), ("id", "string", True, "nonempty"),
                 ("status", "string", True))
_CASE = _rows(("file", "string"), ("function", "string"), ("line", "int"), ("title", "text"),
              ("mode", "text"), ("message", "text"), ("reason", "text"), ("exception", "text"),
              ("rerun", "text"), ("rules", "strings"), ("failed_rules", "strings"),
              ("counted", "bool", False, False), ("duration_us", "number"))
_CHECK = _rows(("ok", "bool", True), ("what", "text"), ("rule", "text"),
               ("expected", "text"), ("got", "text"))
_PROGRAM = _rows(("id", "text"), ("name", "text"), ("source", "text"))
_STEP = _rows(("step", "int", False, 1), ("step_what", "text"), ("consequence", "text"))
_FOOTER = _rows(("total", "int", True, 0), ("counted_failures", "int", False, 0),
                ("exit_code", "int"), ("complete", "bool", False, True))


class _Checker:
    def __init__(self, path, line, what):
        self.path, self.line, self.what = path, line, what

    def fail(self, msg, todo=None):
        raise InputError(self.path, self.line, "%s: %s" % (self.what, msg),
                         todo or "the file does not follow harness/RESULTS.md (schema %s)" % SCHEMA)

    def fields(self, rec, rows):
        """Check REC's fields against ROWS; returns their values by key ({} for an absent
        object, [] for absent strings)."""
        got = {}
        for key, kind, required, bound, ok, expected in rows:
            v = rec.get(key)
            if kind == "text":
                rec[key] = got[key] = v if v is None or isinstance(v, str) else display(v)
                continue
            if v is None:
                if required:
                    self.fail('"%s" is missing' % key)
                v = bound if kind == "bool" else [] if kind == "strings" else \
                    {} if kind == "object" else None
            elif not ok(v):
                self.fail('"%s" is %s, expected %s' % (key, _typename(v), expected) if expected
                          else '"%s" must be a list of strings' % key)
            elif bound == "nonempty" and not v.strip():
                self.fail('"%s" is empty' % key)
            elif kind == "int" and bound is not None and v < bound:
                self.fail('"%s" is %d, must be at least %d' % (key, v, bound))
            if kind in ("strings", "bool"):
                rec[key] = v
            got[key] = v
        return got


# ------------------------------------------------------------------------------ records
def _check_header(rec, path):
    c = _Checker(path, 1, "header")
    schema = rec.get("schema")
    if rec.get("type") != "header" or not isinstance(schema, str) \
            or not schema.startswith(SCHEMA_PREFIX):
        if isinstance(schema, str) and schema.startswith("etwconf-expectations/"):
            raise InputError(path, 1, "this is an expectations file, not a results file",
                             "pass it with --expectations FILE")
        if rec.get("type") in ("case", "footer"):
            raise InputError(path, 1, "the first record is a %r record, not the header: the "
                             "beginning of the run is missing" % rec.get("type"), RERUN_HINT)
        raise _foreign(path, 1, 'the first line is not a header with "schema": "%s"' % SCHEMA)
    if schema[len(SCHEMA_PREFIX):].split(".", 1)[0] != "1":      # a major version we do not read
        raise InputError(path, 1, "results schema %r is not supported (this tool reads %s)"
                         % (schema, SCHEMA), "use the etwconf-report that came with that "
                         "etwconf, or update reports/")
    target = c.fields(rec, _rows(("target", "object", True)))["target"]
    _Checker(path, 1, "header.target").fields(target, _TARGET)
    c.fields(rec, _HEADER)
    return rec


def _check_case(rec, path, line):
    cid = rec.get("id")
    c = _Checker(path, line, "case record" + (" %s" % cid if isinstance(cid, str) else ""))
    status = c.fields(rec, _CASE_ID)["status"]
    if status not in STATUSES:
        c.fail('"status" is %r, not one of %s' % (status, ", ".join(STATUSES)))
    c.fields(rec, _CASE)
    if rec["counted"] and status in ("PASS", "SKIP", "BROKEN"):
        c.fail('"counted" is true for a %s record (must be false for PASS, SKIP and BROKEN)'
               % status)
    checks = [] if rec.get("checks") is None else rec["checks"]
    if not isinstance(checks, list):
        c.fail('"checks" is %s, expected a list' % _typename(checks))
    for i, chk in enumerate(checks):
        cc = _Checker(path, line, "%s, checks[%d]" % (c.what, i))
        if not isinstance(chk, dict):
            cc.fail("is %s, expected an object" % _typename(chk))
        cc.fields(chk, _CHECK)
    rec["checks"] = checks
    _check_scenario(rec, c)
    return rec


SCENARIO_PREFIX = "client."


def _check_scenario(rec, c):
    """Client-scenario fields (RESULTS.md): "program" {id, name, source}, and for a failure
    "step" (1-based), "step_what", "consequence". Older runs have none of them. A scenario is
    a case with a "program" object or an id "client.<program-id>.<name>"; rec["program"] is
    then a dict with a non-empty id (from the case id when the record has none)."""
    prog = rec.get("program")
    if prog is not None:
        if not isinstance(prog, dict):
            c.fail('"program" is %s, expected an object {"id", "name", "source"}'
                   % _typename(prog))
        c.fields(prog, _PROGRAM)
    rec["step"] = c.fields(rec, _STEP)["step"]
    pid = None
    if rec["id"].startswith(SCENARIO_PREFIX):
        pid = rec["id"][len(SCENARIO_PREFIX):].split(".", 1)[0] or None
    if prog is None and pid is None:
        return
    prog = dict(prog or {})
    if not (prog.get("id") or "").strip():
        prog["id"] = pid or rec["id"]
    rec["program"] = prog


def _check_footer(rec, path, line):
    c = _Checker(path, line, "footer")
    counts = c.fields(rec, _rows(("counts", "object", True)))["counts"]
    for k, v in counts.items():
        if not _is_int(v) or v < 0:
            c.fail('counts[%r] is %s, expected a whole number' % (k, display(v)))
    c.fields(rec, _FOOTER)
    return rec


def _consistency(run, line):
    """Footer against the records (like Wine's dissect: a report must add up)."""
    f = run.footer
    c = _Checker(run.path, line, "footer")
    todo = "the run's records and its footer disagree; " + RERUN_HINT
    n = len(run.cases)
    if f["total"] != n:
        c.fail('"total" is %d but the file has %d case records' % (f["total"], n), todo)
    actual = run.counts()
    for status, count in f["counts"].items():
        if status not in STATUSES and count:
            c.fail("counts has unknown status %r" % status, todo)
        elif status in STATUSES and count != actual[status]:
            c.fail("counts[%s] is %d but the file has %d %s records"
                   % (status, count, actual[status], status), todo)
    missing = [s for s in STATUSES if actual[s] and s not in f["counts"]]
    if missing:
        c.fail("counts has no entry for %s" % ", ".join(missing), todo)
    if sum(v for k, v in f["counts"].items() if k in STATUSES) != f["total"]:
        c.fail('the counts add up to %d, not "total" %d'
               % (sum(f["counts"].values()), f["total"]), todo)
    counted = sum(1 for r in run.cases if r["counted"])
    cf = f.get("counted_failures")
    if cf is not None and cf != counted:
        c.fail('"counted_failures" is %d but %d case records have "counted": true'
               % (cf, counted), todo)
    ec = f.get("exit_code")
    if ec in (0, 1):
        want = 1 if counted or actual["CRASH"] or actual["TIMEOUT"] else 0
        if ec != want:
            c.fail('"exit_code" is %d but the records say %d (%d counted failures, %d crashes, '
                   '%d timeouts)' % (ec, want, counted, actual["CRASH"], actual["TIMEOUT"]), todo)


# ------------------------------------------------------------------------------ reading
def _read_bytes(path):
    try:
        data = read_regular(path, MAX_FILE)
    except NotRegular as e:
        if "directory" in str(e):
            raise InputError(path, None, "is a directory", "pass the .jsonl files in it")
        raise InputError(path, None, str(e), "pass the .jsonl file that `etwconf run --out FILE` "
                         "wrote (save piped results to a file first)")
    except FileNotFoundError:
        raise InputError(path, None, "no such file",
                         "run `make results` (or `build/etwconf run --out FILE`) first")
    except OSError as e:
        raise InputError(path, None, "cannot read: %s" % (e.strerror or e), None)
    if len(data) > MAX_FILE:
        raise InputError(path, None, "larger than %d MiB; not a results file this tool will read"
                         % (MAX_FILE >> 20), "check that this is the right file")
    return data


def _whole_file_hint(data, path):
    """Line 1 is not JSON: maybe the whole file is one JSON document (an expectations file)."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return None
    if isinstance(doc, dict) and str(doc.get("schema", "")).startswith("etwconf-expectations/"):
        return InputError(path, None, "this is an expectations file, not a results file",
                          "pass it with --expectations FILE")
    return _foreign(path, 1, "a JSON document, not JSON Lines")


_ESCAPED = re.compile("[\udc80-\udcff]")


def _unescape_bad_bytes(obj, path="", found=None):
    """Strings decoded with surrogateescape: each undecodable byte becomes the visible text
    \\xNN; found collects the fields (JSON paths) that had one."""
    if isinstance(obj, str):
        if _ESCAPED.search(obj):
            found.append(path or "(value)")
            return _ESCAPED.sub(lambda m: "\\x%02x" % (ord(m.group()) - 0xdc00), obj)
        return obj
    if isinstance(obj, dict):
        return {_unescape_bad_bytes(k, path, found): _unescape_bad_bytes(
            v, "%s.%s" % (path, k) if path else k, found) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_unescape_bad_bytes(v, "%s[%d]" % (path, i), found) for i, v in enumerate(obj)]
    return obj


def _filter_of(header):
    """How the run chose its cases, when it did not run them all: the --case/--filter options
    of its argv, or a "filter" key of the header."""
    f = header.get("filter")
    if isinstance(f, str) and f:
        return "--filter " + f
    if isinstance(f, list) and f:
        return " ".join(display(x) for x in f)
    argv = header.get("argv") if isinstance(header.get("argv"), list) else []
    opts = []
    for i, a in enumerate(argv):
        if a in ("--case", "--filter") and i + 1 < len(argv):
            opts.append("%s %s" % (a, display(argv[i + 1])))
        elif isinstance(a, str) and a.startswith(("--case=", "--filter=")):
            opts.append(a)
    return " ".join(opts) or None


def load(path):
    """Read and check one results file. Returns a Run; raises InputError.

    A line with bytes that are not UTF-8 does not refuse the file: when it still parses and
    checks, its record is kept (each bad byte shown as \\xNN, with a warning naming the line
    and the field); otherwise that line is dropped, the rest is read, and the run is marked
    damaged (incomplete)."""
    data = _read_bytes(path)
    if not data.strip():
        raise InputError(path, None, "empty file: the run wrote nothing (did it start?)",
                         RERUN_HINT)
    data = data.removeprefix(b"\xef\xbb\xbf")
    ends_nl = data.endswith(b"\n")
    lines = (data[:-1] if ends_nl else data).split(b"\n")
    run = Run(path)

    def drop(lineno, damage, warning):
        nonlocal dropped_pending
        dropped_pending += 1
        run.damage.append("line %d (%s) could not be read" % (lineno, damage))
        run.warnings.append("%s:%d: %s; the record is dropped, the rest of the file is read"
                            % (path, lineno, warning))
    seq_expected = 1
    dropped_pending = 0       # damaged lines dropped since the last case record read
    for lineno, raw in enumerate(lines, 1):
        raw = raw.removesuffix(b"\r")
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE:
            raise InputError(path, lineno, "line longer than %d MiB" % (MAX_LINE >> 20),
                             "this is not a results file this tool will read")
        not_utf8 = bad = None
        try:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                not_utf8 = "invalid UTF-8 (byte 0x%02x at column %d)" % (raw[e.start], e.start + 1)
                text = raw.decode("utf-8", "surrogateescape")
            rec = json.loads(text)
        except RecursionError:
            bad = "JSON nested too deeply"
        except ValueError as e:
            bad = "not valid JSON (%s)" % (getattr(e, "msg", None) or "parse error")
        if bad is not None:
            bad = "%s, %s" % (not_utf8, bad) if not_utf8 else bad
            if run.header is None:
                if lineno == 1 and not not_utf8:
                    hint = _whole_file_hint(data, path)
                    if hint is not None:
                        raise hint
                raise _foreign(path, lineno, bad)
            if lineno == len(lines) and not ends_nl and run.footer is None:
                # the last line, cut short: a killed writer leaves a partial line
                run.warnings.append("%s:%d: last line cut short (%s); dropped"
                                    % (path, lineno, bad))
                break
            if not_utf8 and run.footer is None:
                drop(lineno, bad, bad)
                continue
            raise InputError(path, lineno, "malformed record: %s" % bad, DAMAGED)
        if not_utf8:
            fields = []
            rec = _unescape_bad_bytes(rec, "", fields)
            where = ", ".join('"%s"' % f for f in fields[:5]) or "the record"
        if _MAYBE_BAD.search(text):        # most lines have nothing to clean
            rec = clean(rec)
        try:
            seq_expected = _take_record(run, rec, path, lineno, seq_expected, dropped_pending)
            if isinstance(rec, dict) and rec.get("type") == "case":
                dropped_pending = 0
        except InputError as e:
            if not not_utf8 or run.header is None:
                raise
            drop(lineno, "%s in %s" % (not_utf8, where), "%s in %s, and the record does not "
                 "check (%s)" % (not_utf8, where, e.what))
            continue
        if not_utf8:
            run.warnings.append("%s:%d: %s in %s; shown as \\xNN, the rest of the record is read"
                                % (path, lineno, not_utf8, where))
    if run.header is None:
        raise InputError(path, None, "no header record", RERUN_HINT)
    if run.footer is not None and not run.damage:
        _consistency(run, run.footer_line)
    planned = run.planned
    n = len(run.cases)
    why = None
    if run.footer is None:
        why = "no footer: the run stopped after %d %s" % (
            n, "of %d planned cases" % planned if planned is not None else "cases")
    elif run.footer.get("complete") is False:
        why = 'the footer says "complete": false (%d cases recorded)' % n
    elif planned is not None and n < planned:
        # the footer adds up, but the plan in the header says more cases were to run
        why = 'the footer claims a complete run, but the file has %d of the %d planned case ' \
            'records' % (n, planned)
    if run.damage:
        more = "; and %d more" % (len(run.damage) - 3) if len(run.damage) > 3 else ""
        damage = "damaged file: %s%s; %s read" % ("; ".join(run.damage[:3]), more,
                                                   plural(n, "case record"))
        if run.footer is not None and _is_int(run.footer.get("total")):
            damage += " of the %d the footer counts" % run.footer["total"]
        why = damage if why is None or run.footer is not None else "%s; %s" % (damage, why)
    run.complete, run.incomplete_reason = why is None, why
    if planned is not None and n > planned:
        run.warnings.append("%s: %d case records, more than the %d the header planned"
                            % (path, n, planned))
    run.filter = _filter_of(run.header)
    suite_cases = (run.header.get("suite") or {}).get("cases")
    run.suite_cases = suite_cases if _is_int(suite_cases) and suite_cases > 0 else None
    run.filtered = bool(run.filter) or (run.suite_cases is not None and planned is not None
                                        and planned < run.suite_cases)
    return run


def _take_record(run, rec, path, lineno, seq_expected, dropped):
    """Check one parsed record and add it to run. Returns the next expected seq (which may
    skip the records of `dropped` damaged lines)."""
    if not isinstance(rec, dict):
        if run.header is None:
            raise _foreign(path, lineno, "the first line is %s, not a header object"
                           % _typename(rec))
        raise InputError(path, lineno, "malformed record: %s, expected an object"
                         % _typename(rec), DAMAGED)
    if run.header is None:
        run.header = _check_header(rec, path)
        return seq_expected
    rtype = rec.get("type")
    if run.footer is not None:
        raise InputError(path, lineno, "a %s record after the footer" % display(rtype),
                         CONCATENATED)
    if rtype == "case":
        _check_case(rec, path, lineno)
        if not seq_expected <= rec["seq"] <= seq_expected + dropped:
            raise InputError(path, lineno, 'case record %s has "seq" %d, expected %d '
                             '(records are missing or out of order)'
                             % (rec["id"], rec["seq"], seq_expected), DAMAGED)
        if rec["id"] in run.by_id:
            raise InputError(path, lineno, "case %s appears twice (first at seq %d)"
                             % (rec["id"], run.by_id[rec["id"]]["seq"]),
                             "keep one run per file")
        rec["_line"] = lineno
        run.by_id[rec["id"]] = rec
        run.cases.append(rec)
        return rec["seq"] + 1
    if rtype == "footer":
        run.footer = _check_footer(rec, path, lineno)
        run.footer_line = lineno
    elif rtype == "header":
        raise InputError(path, lineno, "a second header", CONCATENATED)
    elif isinstance(rtype, str) and rtype:
        run.warnings.append("%s:%d: unknown record type %r ignored" % (path, lineno, rtype))
    else:
        raise InputError(path, lineno, 'record without a "type"',
                         "the file does not follow harness/RESULTS.md (schema %s)" % SCHEMA)
    return seq_expected


def load_many(paths, skip_bad=False, errors=None):
    """Load several files. With skip_bad, bad files are reported in `errors` and left out."""
    runs = []
    for p in paths:
        try:
            runs.append(load(p))
        except InputError as e:
            if not skip_bad:
                raise
            if errors is not None:
                errors.append(e)
    return label_runs(sorted(runs, key=Run.sort_key))


def label_runs(runs):
    """Give each run a unique label: its target_id, plus the arch (or the file name) when two
    runs share it."""
    seen = {}
    for r in runs:
        seen.setdefault(r.target_id, []).append(r)
    for tid, rs in seen.items():
        if len(rs) == 1:
            rs[0].label = tid
        else:
            names = [display(r.arch) for r in rs]        # wine@win10 (x86_64), (i686)
            if len(set(names)) != len(names) or not all(names):
                names = [os.path.basename(r.path) for r in rs]
            if len(set(names)) != len(names):
                names = [r.path for r in rs]
            if len(set(names)) != len(names):
                names = ["%s #%d" % (n, i) for i, n in enumerate(names, 1)]
            for r, n in zip(rs, names):
                r.label = "%s (%s)" % (tid, n)
    return runs
