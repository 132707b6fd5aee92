"""Shared constants and helpers: statuses, NT version ordering, text cleaning."""
import os
import re
import stat
import sys

STATUSES = ("PASS", "FAIL", "SKIP", "BROKEN", "CRASH", "TIMEOUT")
# worst first; used for matrix cells and for sorting
SEVERITY = {"CRASH": 6, "TIMEOUT": 5, "FAIL": 4, "BROKEN": 3, "PASS": 2, "SKIP": 1}
BAD = ("FAIL", "CRASH", "TIMEOUT")          # the target misbehaved
ERRORS = ("CRASH", "TIMEOUT")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(REPO, "spec") not in sys.path:
    sys.path.insert(0, os.path.join(REPO, "spec"))
# the one reader of spec/: rules.def, versions.def and programs.def
import rules as spec_rules  # noqa: E402

_VERSIONS = spec_rules.versions()
NT_ORDER = tuple(v["name"] for v in _VERSIONS)
# canonical wine name for a version of the table (the entries the Wine stage runs)
NT_WINE = {v["name"]: v["wine"] for v in _VERSIONS if v["wine"]}
# winecfg version names -> NT version (for ranges and for aliasing): the table's names, and the
# other names winecfg knows for the same NT versions
WINE_NT = {v["wine"]: v["name"] for v in _VERSIONS if v["wine"]}
WINE_NT.update({"winxp": "5.1", "win2003": "5.2", "win2008": "6.0", "win2008r2": "6.1",
                "win11": "10.0"})
IMPL_ORDER = {"reference": 0, "thirdparty": 1, "windows": 2, "wine": 3}

_NT_RE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def _table_entry(name):
    for v in _VERSIONS:
        if name == v["name"] or name in v["aliases"].split():
            return v
    return None


def nt_tuple(version):
    """'6.1' -> (6, 1); '10.0.19045' -> (10, 0); 'win81' -> (6, 3); 'win11-24h2' -> (10, 0);
    unknown -> None."""
    k = run_key(WINE_NT.get(version.lower(), version)) if isinstance(version, str) else None
    return k[:2] if k else None


def version_bounds(text):
    """The inclusive range of version keys (major, minor, build, update) a name stands for: an NT
    version ('6.1', 'win7') every build of it, a build ('10.0.19045', 'win11-24h2', '6.1.7601-esi')
    that build with its updates. None if unknown."""
    if not isinstance(text, str):
        return None
    return spec_rules.version_bounds(WINE_NT.get(text.lower(), text), _VERSIONS)


def run_key(version, nt_version=None, build=None, update=0):
    """A run's version as a key (major, minor, build, update): from the build the header gives, else
    from the version table entry its name names ('10.0' -> 10.0.10240, 'win11-24h2' -> 10.0.26100),
    else from the number ('10.0.18362'). None if unknown."""
    nt = isinstance(build, int) and build > 0 and (nt_tuple(nt_version) or nt_tuple(version))
    if nt:
        return nt + (build, update if isinstance(update, int) else 0)
    if not isinstance(version, str):
        return None
    e = _table_entry(WINE_NT.get(version.lower(), version))
    if e:
        return (e["nt"] >> 8, e["nt"] & 0xFF, e["build"], e["update"])
    m = _NT_RE.fullmatch(version)
    if m:
        return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), 0)
    return None


def version_sort_key(version):
    """Sort key for version strings: the version key (NT version, build, update), then the text."""
    k = run_key(version)
    return (k is None, k or (0, 0, 0, 0), version or "")


def parse_version_spec(spec):
    """A version spec item: 'all', 'V', 'V+', 'A-B' (inclusive), where a version is an NT version
    (6.1: all its builds), a build (10.0.19045), or a name of the version table or Wine; or a
    plain name. Returns ('all',), ('range', lo, hi) with version keys (major, minor, build,
    update) (hi None: no upper end), ('name', text), or None when a range is malformed."""
    s = spec.strip()
    if s.lower() == "all":
        return ("all",)
    if s.endswith("+"):
        b = version_bounds(s[:-1])
        if b is not None:
            return ("range", b[0], None)
    if "-" in s and version_bounds(s) is None:
        # names hold '-' too (win11-24h2): the first split whose two sides are versions
        for i in [i for i, ch in enumerate(s) if ch == "-"]:
            lo, hi = version_bounds(s[:i].strip()), version_bounds(s[i + 1:].strip())
            if lo is not None and hi is not None:
                return ("range", lo[0], hi[1])
        if version_bounds(s.split("-", 1)[0].strip()) is not None:
            return None   # a range with a bad end (10.0.17763-10.0.x)
    return ("name", s)


# Characters that are invalid in XML 1.0, terminal controls (C0 except tab/newline, DEL, C1),
# lone surrogates: replaced by a visible escape at ingestion so no output format can choke.
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _esc_char(m):
    c = ord(m.group(0))
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def clean(obj, depth=0):
    """Recursively clean every string (keys too) of a parsed JSON value."""
    if isinstance(obj, str):
        return _BAD_CHARS.sub(_esc_char, obj)
    if depth > 64:
        return "(nested too deeply)"
    if isinstance(obj, dict):
        return {clean(k): clean(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, list):
        return [clean(v, depth + 1) for v in obj]
    return obj


def display(value):
    """Any JSON value as a display string (None -> '')."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    import json
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def oneline(s, limit=300):
    """A string made safe for one terminal line."""
    s = display(s).replace("\r", "\\r").replace("\n", "\\n").replace("\t", " ")
    return s[:limit] + "..." if len(s) > limit else s


def shorten(s, limit=4000):
    s = display(s)
    return s[:limit] + " [... %d more characters]" % (len(s) - limit) if len(s) > limit else s


def write_file(path, text):
    """Write text to path through a temporary file: a reader never sees half of it."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def plural(n, word, words=None):
    return "%d %s" % (n, word if n == 1 else (words or word + "s"))


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a directory"))


class NotRegular(OSError):
    """The path names something other than a regular file; str() says what it is."""


def file_kind(mode):
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def read_regular(path, limit):
    """Up to limit + 1 bytes of the regular file at path. A FIFO, a device, a socket or a
    directory raises NotRegular without being read: the type is checked before opening, and the
    file is opened with O_NONBLOCK (so a FIFO swapped in after the check cannot block the open)
    and checked again on the open descriptor."""
    kind = file_kind(os.stat(path).st_mode)
    if kind:
        raise NotRegular("is %s, not a regular file" % kind)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind:
            raise NotRegular("is %s, not a regular file" % kind)
        chunks, left = [], limit + 1
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


def run_command(prog, build_parser, argv, errors, exit_usage=2, exit_internal=3,
                rc_on_pipe=lambda: 0):
    """The error boundary of a command line tool: parse argv, run the chosen command (a.fn), and
    turn what goes wrong into one line on stderr and an exit code. errors (exception classes: bad
    usage, bad input) -> exit_usage; stdout closed early (`... | head`) -> rc_on_pipe(); Ctrl-C ->
    130; argparse's own exit (--help, --version) -> its code; anything else is a bug: one line and
    exit_internal (ETWCONF_REPORT_DEBUG=1 raises it with its traceback)."""
    def err(msg):
        sys.stderr.write("%s: %s\n" % (prog, oneline(msg, 2000)))
    try:
        parser = build_parser()
        a = parser.parse_args(argv)
        if not getattr(a, "cmd", None):
            parser.print_help(sys.stderr)
            return exit_usage
        return a.fn(a)
    except errors as e:
        err(str(e))
        return exit_usage
    except BrokenPipeError:
        try:   # keep the interpreter from complaining when it flushes stdout at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return rc_on_pipe()
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except SystemExit as e:   # argparse --help / --version
        return e.code if isinstance(e.code, int) else 0
    except Exception as e:  # a bug here must still not print a traceback at the user
        if os.environ.get("ETWCONF_REPORT_DEBUG"):
            raise
        err("internal error: %s: %s; please report it (ETWCONF_REPORT_DEBUG=1 shows the traceback)"
            % (type(e).__name__, e))
        return exit_internal
