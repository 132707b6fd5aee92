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



def _version_table():
    spec = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "spec")
    if spec not in sys.path:
        sys.path.insert(0, spec)
    import rules  # noqa: E402  (spec/rules.py reads spec/versions.def)
    return rules.versions()


_VERSIONS = _version_table()
NT_ORDER = tuple(v["name"] for v in _VERSIONS)
# canonical wine name for an NT version (the version table's)
NT_WINE = {v["name"]: v["wine"] for v in _VERSIONS}
# winecfg version names -> NT version (for ranges and for aliasing): the table's names, and the
# other names winecfg knows for the same NT versions
WINE_NT = {v["wine"]: v["name"] for v in _VERSIONS}
WINE_NT.update({"winxp": "5.1", "win2003": "5.2", "win2008": "6.0", "win2008r2": "6.1", "win11": "10.0"})
IMPL_ORDER = {"reference": 0, "thirdparty": 1, "windows": 2, "wine": 3}

_NT_RE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def nt_tuple(version):
    """'6.1' -> (6, 1); '10.0.19045' -> (10, 0); 'win81' -> (6, 3); unknown -> None."""
    if not isinstance(version, str):
        return None
    v = WINE_NT.get(version.lower(), version)
    m = _NT_RE.fullmatch(v)
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)))


def version_sort_key(version):
    """Sort key for version strings: NT order first, then the build, then the text."""
    t = nt_tuple(version)
    build = 0
    m = _NT_RE.fullmatch(version or "")
    if m and m.group(3):
        build = int(m.group(3))
    return (t is None, t or (0, 0), build, version or "")


def parse_version_spec(spec):
    """A version spec item: 'all', 'X.Y', 'X.Y+', 'A-B' (inclusive NT range), or a plain name.
    Returns ('all',), ('range', lo, hi) with tuples (hi may be None) or ('name', text)."""
    s = spec.strip()
    if s.lower() == "all":
        return ("all",)
    if s.endswith("+"):
        lo = nt_tuple(s[:-1])
        if lo is not None:
            return ("range", lo, None)
    if "-" in s:
        a, b = s.split("-", 1)
        lo, hi = nt_tuple(a.strip()), nt_tuple(b.strip())
        if lo is not None and hi is not None:
            return ("range", lo, hi)
        return None
    return ("name", s)


# Characters that are invalid in XML 1.0, terminal controls (C0 except tab/newline, DEL, C1),
# lone surrogates: replaced by a visible escape at ingestion so no output format can choke.
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _esc_char(m):
    c = ord(m.group(0))
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def clean_str(s):
    if _BAD_CHARS.search(s):
        return _BAD_CHARS.sub(_esc_char, s)
    return s


def clean(obj, depth=0):
    """Recursively clean every string (keys too) of a parsed JSON value."""
    if isinstance(obj, str):
        return clean_str(obj)
    if depth > 64:
        return "(nested too deeply)"
    if isinstance(obj, dict):
        return {clean_str(k): clean(v, depth + 1) for k, v in obj.items()}
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
    if len(s) > limit:
        s = s[:limit] + "..."
    return s


def shorten(s, limit=4000):
    s = display(s)
    if len(s) > limit:
        return s[:limit] + " [... %d more characters]" % (len(s) - limit)
    return s


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
