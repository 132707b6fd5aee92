"""Known-failure (expectations) files, schema etwconf-expectations/1: the format (an entry's cases,
versions, Wine versions and arch, a file's arches and wine_versions), the outcomes check() gives
each case (OK, XFAIL, SKIP, XPASS, CHANGED, UNEXPECTED, STALE) and how update-expectations makes a
file are in reports/README.md, "Expectations". A run's Wine version is its fingerprint's
wine_version.
"""
import json
import os
import re
import textwrap
from collections import namedtuple

from .ingest import InputError, Run
from .util import read_regular, NotRegular, parse_version_spec, nt_tuple, version_bounds, \
    WINE_NT, NT_ORDER, NT_WINE, version_sort_key, display, oneline, write_file
from .analysis import failing_checks

SCHEMA = "etwconf-expectations/1"
ENTRY_STATUSES = ("FAIL", "CRASH", "TIMEOUT", "SKIP", "BROKEN")
ENTRY_KEYS = ("case", "arch", "versions", "wine", "status", "mode", "observed", "why")
TODO_WHY = "TODO: explain"
# optional keys of "target" that tie a file to one machine kind (matched against the fingerprint)
BUILD_KEYS = ("native_arch", "product_type")
FAILURE_KINDS = ("XPASS", "CHANGED", "UNEXPECTED", "STALE")


_WINE_RE = re.compile(r"(?:wine-)?(\d+)\.(\d+)(?:\.(\d+))?(?:-rc(\d+))?")


def wine_key(text):
    """A Wine version as a key: '10.0' -> (10, 0, 0, 0); '10.0.1' -> (10, 0, 1, 0); a release
    candidate '9.0-rc2' comes before its release: (9, 0, -1, 2). None if not a Wine version."""
    m = _WINE_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if not m:
        return None
    if m.group(4) is not None:
        return (int(m.group(1)), int(m.group(2)), -1, int(m.group(4)))
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), 0)


def _wine_bounds(text):
    """The keys a Wine version names: 'X.Y' every maintenance release X.Y.z; 'X.Y.Z' that one."""
    k = wine_key(text)
    if k is None or k[2] < 0:
        return None
    if text.strip().count(".") >= 2:
        return k, k
    return (k[0], k[1], 0, 0), (k[0], k[1], 1 << 30, 0)


def parse_wine_spec(spec):
    """A "wine" item: 'V', 'V+', 'A-B' -> (lo, hi) keys (hi None: no upper end); None if
    malformed."""
    s = spec.strip() if isinstance(spec, str) else ""
    if s.endswith("+"):
        b = _wine_bounds(s[:-1])
        return (b[0], None) if b else None
    if "-" in s:
        lo, hi = (_wine_bounds(x) for x in s.split("-", 1))
        return (lo[0], hi[1]) if lo and hi and lo[0] <= hi[1] else None
    return _wine_bounds(s)


def run_wine_version(run):
    """The Wine version a run ran under ('10.0'): its fingerprint's wine_version, else the
    runner's 'wine-10.0 (Debian ...)'; None for a run that is not Wine's or does not say."""
    h = getattr(run, "header", None) or {}
    v = (h.get("fingerprint") or {}).get("wine_version")
    if not isinstance(v, str) or wine_key(v) is None:
        rv = (h.get("runner") or {}).get("wine_version")
        v = rv.split()[0][5:] if isinstance(rv, str) and rv.startswith("wine-") else None
    return v if wine_key(v) is not None else None


def _items(value):
    """A "versions", "wine" or "arch" value as a list: one string, or a non-empty list of them;
    None when it is neither."""
    items = [value] if isinstance(value, str) else value
    ok = isinstance(items, list) and items and all(isinstance(v, str) for v in items)
    return items if ok else None


class Entry:
    """What an entry of the file says about one of its cases."""

    def __init__(self, raw, index, line, case=None):
        self.raw = raw
        self.index = index
        self.line = line
        self.case = raw["case"] if case is None else case
        self.arch = raw.get("arch")
        self.versions = raw.get("versions")
        self.status = raw["status"]
        self.mode = raw.get("mode")
        self.observed = raw.get("observed")
        self.why = raw.get("why", "")
        self.specs = None if self.versions is None else \
            [parse_version_spec(v) for v in _items(self.versions)]
        w = raw.get("wine")
        self.wine_specs = None if w is None else [parse_wine_spec(x) for x in _items(w)]

    def names_wine(self, version):
        """Does the entry hold for this Wine version ('10.0'; None: a run that names none)?"""
        if self.wine_specs is None:
            return True
        k = wine_key(version) if version else None
        return k is not None and any(lo <= k and (hi is None or k <= hi)
                                     for lo, hi in self.wine_specs)

    def names_run(self, run, any_wine=False):
        """Does the entry name the run's version (and, unless any_wine, its Wine version)?"""
        if not any_wine and self.wine_specs is not None \
                and not self.names_wine(run_wine_version(run)):
            return False
        if self.arch is not None and run.arch not in (None, self.arch):
            return False
        if self.specs is None:
            return True
        names = {n.lower() for n in run.version_names()}
        key = run.key()
        return any(s[0] == "all" or s[0] == "name" and s[1].lower() in names or
                   s[0] == "range" and key is not None and s[1] <= key and
                   (s[2] is None or key <= s[2]) for s in self.specs)

    def grouping(self):
        """(what entries that differ in their versions only share, the keys the format does
        not know)."""
        return ((self.case, self.status, self.mode, self.observed, self.why),
                {k: v for k, v in self.raw.items() if k not in ENTRY_KEYS})

    def describe(self):
        bits = [self.status]
        if self.raw.get("wine") is not None:
            bits.append("Wine %s" % ", ".join(_items(self.raw["wine"])))
        if self.mode:
            bits.append("mode %s" % self.mode)
        if self.observed:
            bits.append("observed %s" % json.dumps(self.observed, ensure_ascii=False))
        return ", ".join(bits)

    def where(self, path):
        return "%s:%d" % (path, self.line) if self.line else "%s: entries[%d]" % (path, self.index)


class Expectations:
    def __init__(self, path, doc, entries):
        self.path = path
        self.doc = doc
        self.impl = doc["target"]["impl"]
        self.arches = _items(doc["target"].get("arch")) or []
        self.arch = " or ".join(self.arches) or None
        # the Wine versions the file was made from ('10.0')
        self.wines = [w[5:] if w.startswith("wine-") else w
                      for w in _items(doc.get("wine_versions")) or () if wine_key(w)]
        self.entries = entries
        self.by_case = {}
        for e in entries:
            self.by_case.setdefault(e.case, []).append(e)

    def applies_to(self, run):
        if run.impl != self.impl or (self.arches and run.arch not in self.arches):
            return False
        # a per-build file (etwconf-report calibrate, baselines/) names one machine kind
        t = self.doc["target"]
        if t.get("version") is not None and \
                t["version"].lower() not in {n.lower() for n in run.version_names()}:
            return False
        fp = run.header.get("fingerprint") or {}
        return all(t.get(k) is None or fp.get(k) == t[k] for k in BUILD_KEYS)

    def entries_for(self, run, case_id):
        return [e for e in self.by_case.get(case_id, ()) if e.names_run(run)]

    def for_arch(self, arch):
        """The file as one of its arches sees it: target.arch that arch, the entries that hold
        for it without their "arch"."""
        doc = dict(self.doc, target=dict(self.doc["target"], arch=arch))
        doc["entries"] = [{k: v for k, v in raw.items() if k != "arch"}
                          for raw in self.doc["entries"] if raw.get("arch") in (None, arch)]
        return parse(doc, self.path)


def load(path):
    try:
        data = read_regular(path, 64 * 1024 * 1024)[:64 * 1024 * 1024]
    except NotRegular as e:
        raise InputError(path, None, str(e), "pass the expectations file (JSON)")
    except FileNotFoundError:
        raise InputError(path, None, "no such expectations file",
                         "create it with `etwconf-report update-expectations --impl IMPL --out %s "
                         "RESULTS.jsonl...`" % path)
    except OSError as e:
        raise InputError(path, None, "cannot read: %s" % (e.strerror or e))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(path, None, "not UTF-8 text (byte offset %d)" % e.start,
                         "save the expectations file as UTF-8")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, e.lineno, "not valid JSON (%s, column %d)" % (e.msg, e.colno),
                         "fix the JSON syntax")
    except (ValueError, RecursionError) as e:
        raise InputError(path, None, "not valid JSON (%s)" % e, "fix the JSON syntax")
    return parse(doc, path, text)


def parse(doc, path="<expectations>", text=""):
    def bad(msg, line=None, todo="see the expectations format in reports/README.md"):
        raise InputError(path, line, msg, todo)

    if not isinstance(doc, dict):
        bad("not an expectations file (the top level is not an object)")
    if doc.get("schema") != SCHEMA:
        s = doc.get("schema")
        if isinstance(s, str) and s.startswith("etwconf-results/"):
            bad("this is a results file, not an expectations file",
                todo="pass expectations with --expectations and results as arguments")
        bad('"schema" is %s, expected "%s"' % (json.dumps(s), SCHEMA))
    target = doc.get("target")
    if not isinstance(target, dict) or not isinstance(target.get("impl"), str) \
            or not target["impl"]:
        bad('"target" must be an object with "impl" (reference, thirdparty, windows, wine)')
    for k in ("version",) + BUILD_KEYS:
        if target.get(k) is not None and not isinstance(target[k], str):
            bad('"target.%s" must be a string' % k)
    arches = _items(target.get("arch")) or []
    if target.get("arch") is not None and not arches:
        bad('"target.arch" must be an arch or a list of them')
    raw_entries = doc.get("entries")
    if not isinstance(raw_entries, list):
        bad('"entries" must be a list')
    # line of each entry: the n-th "case": key in the text (when the count agrees)
    case_lines = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r'"case"\s*:', text)]
    if len(case_lines) != len(raw_entries):
        case_lines = [None] * len(raw_entries)
    entries = []
    for i, raw in enumerate(raw_entries):
        line = case_lines[i]
        label = "entries[%d]" % i
        if not isinstance(raw, dict):
            bad("%s is not an object" % label, line)
        cases = _items(raw.get("case"))
        if not cases or not all(cases):
            bad('%s has no "case" (the case id, or a list of them)' % label, line)
        label = "entry for %s" % ", ".join(cases)
        if raw.get("arch") is not None and raw["arch"] not in arches:
            bad('%s: "arch" must be one of target.arch (%s)' % (label, ", ".join(arches)), line)
        st = raw.get("status")
        if st not in ENTRY_STATUSES:
            bad('%s: "status" is %s, expected one of %s' % (label, json.dumps(st),
                                                            ", ".join(ENTRY_STATUSES)), line)
        for k in ("mode", "observed"):
            if raw.get(k) is not None and not isinstance(raw[k], str):
                bad('%s: "%s" must be a string' % (label, k), line)
        why = raw.get("why")
        if not isinstance(why, str) or not why.strip():
            bad('%s: "why" is missing; say why the failure is expected' % label, line)
        if raw.get("versions") is not None:
            items = _items(raw["versions"])
            if items is None:
                bad('%s: "versions" must be a list of version names, a range "6.2-10.0", '
                    'or left out for all versions' % label, line)
            for v in items:
                spec = parse_version_spec(v)
                if spec is None or spec[0] == "name" and nt_tuple(v) is None and \
                        v.lower() not in WINE_NT and version_bounds(v) is None:
                    bad('%s: unknown version %s (use %s, NT versions like 6.1 or 10.0.19045, '
                        'or a range like "6.2-10.0")'
                        % (label, json.dumps(v), " ".join(NT_WINE.values())), line)
        if raw.get("wine") is not None:
            items = _items(raw["wine"])
            if target["impl"] != "wine":
                bad('%s: "wine" (the Wine versions an entry holds for) is for a file of impl '
                    'wine' % label, line)
            if items is None:
                bad('%s: "wine" must be a Wine version ("10.0"), a range ("8.0-9.22", "10.0+") '
                    'or a list of them' % label, line)
            for v in items:
                if parse_wine_spec(v) is None:
                    bad('%s: "wine": %s is not a Wine version or range (use "10.0", "8.0-9.22" '
                        'or "10.0+")' % (label, json.dumps(v)), line)
        entries += [Entry(raw, i, line, c) for c in cases]
    return Expectations(path, doc, entries)


def observed_text(case):
    """The text an entry's "observed" must be found in."""
    st = case["status"]
    if st == "FAIL":
        got = [display(c.get("got")) for c in failing_checks(case)]
        return got if got else [display(case.get("message"))]
    if st == "CRASH":
        return [display(case.get("exception"))]
    if st == "SKIP":
        return [display(case.get("reason"))]
    return [display(case.get("message")), display(case.get("reason"))]


def entry_matches(entry, case):
    return entry.status == case["status"] and (not entry.mode or entry.mode == case.get("mode")) \
        and (not entry.observed or any(entry.observed in t for t in observed_text(case)))


def describe_case(case):
    st = case["status"]
    bits = [st]
    if case.get("mode"):
        bits.append("mode %s" % case["mode"])
    if st == "CRASH" and case.get("exception"):
        bits.append("exception %s" % case["exception"])
    elif st == "FAIL":
        fc = failing_checks(case)
        if fc:
            bits.append("got %s" % json.dumps(display(fc[0].get("got")), ensure_ascii=False))
    elif st == "SKIP" and case.get("reason"):
        bits.append("reason %s" % json.dumps(case["reason"], ensure_ascii=False))
    return oneline(", ".join(bits))


class Outcome(namedtuple("Outcome", "kind case entry detail", defaults=(None, ""))):
    @property
    def failed(self):
        return self.kind in FAILURE_KINDS


def evaluate(run, exp):
    """Outcomes for one run: dict case id -> Outcome (only when exp applies to the run)."""
    out = {}
    for case in run.cases:
        entries = exp.entries_for(run, case["id"])
        st = case["status"]
        match = next((e for e in entries if entry_matches(e, case)), None)
        e = entries[0] if entries else None
        if match is not None:
            oc = Outcome("XFAIL", case, match, match.why)
        elif not entries and st in ("PASS", "SKIP"):
            oc = Outcome("OK" if st == "PASS" else "SKIP", case)
        elif not entries:
            oc = Outcome("UNEXPECTED", case, None,
                         "%s with no expectation entry" % describe_case(case))
        elif st == "PASS":
            oc = Outcome("XPASS", case, e, "expected %s but the case passed; remove the entry or "
                         "narrow its versions (%s; why: %s)"
                         % (e.describe(), e.where(exp.path), e.why))
        else:
            oc = Outcome("CHANGED", case, e, "expected %s, got %s (%s)" % (
                e.describe(), describe_case(case), e.where(exp.path)))
        out[case["id"]] = oc
    return out


def stale(runs, exp):
    """(entry, run) pairs: the entry names the run's version but the case is not in the run."""
    return [(e, run) for e in exp.entries for run in runs
            if exp.applies_to(run) and run.complete and not run.filtered and e.names_run(run)
            and e.case not in run.by_id]


def unchecked_entries(runs, exp):
    """Entries naming no version of any run given (nothing could be said about them)."""
    runs = [r for r in runs if exp.applies_to(r)]
    return [e for e in exp.entries if not any(e.names_run(r) for r in runs)]


def _universe(impl):
    return list(NT_WINE.values()) if impl == "wine" else list(NT_ORDER)


def _observed_for(case):
    st = case["status"]
    if st == "CRASH":
        return case.get("exception") or None
    if st == "FAIL":
        fc = failing_checks(case)
        got = display(fc[0].get("got")) if fc else ""
        if got and len(got) <= 120 and "\n" not in got:
            return got
    return None


def generate(runs, impl, arch=None, old=None):
    """An expectations document from results and the old file (reports/README.md,
    "update-expectations"). A file of several arches is made per arch (arch, or every arch of
    the runs; the others kept as they are), then what holds for all is one entry, the rest has
    "arch"."""
    arches = old.arches if old is not None else []
    if len(arches) <= 1 and (arch is None or not arches or arch == arches[0]):
        return _generate(runs, impl, arch or (arches[0] if arches else None), old)
    made = [arch] if arch else [a for a in dict.fromkeys(r.arch for r in runs if r.impl == impl)
                                if a] or arches[:1]
    arches = arches + [a for a in made if a not in arches]
    # the arches not made again go through _generate too, without runs: the same form
    docs = [_generate(runs if a in made else [], impl, a, old.for_arch(a)) for a in arches]
    views = [{json.dumps(e, sort_keys=True): e for e in d["entries"]} for d in docs]
    shared = set(views[0]).intersection(*views[1:])
    entries = [e for k, e in views[0].items() if k in shared]
    for a, view in zip(arches, views):
        entries += [{"case": e["case"], "arch": a, **e} for k, e in view.items() if k not in shared]
    entries.sort(key=lambda e: _entry_order(e) + (arches.index(e.get("arch", arches[0])) +
                                                  ("arch" in e),))
    doc = dict(docs[0], target=dict(docs[0]["target"], arch=arches), entries=entries)
    wines = {w for d in docs for w in d.get("wine_versions", ())}
    if wines:
        doc["wine_versions"] = sorted(wines, key=_wine_order)
    return doc


def _generate(runs, impl, arch, old):
    """generate() for one arch (None: runs of every arch, one file)."""
    runs = [r for r in runs if r.impl == impl and (arch is None or r.arch == arch)]
    wine = impl == "wine"

    def wv(run):
        return run_wine_version(run) if wine else None
    run_wines = {wv(r) for r in runs}
    # what the old file says holds for the Wine versions it was made from
    old_wines = set(old.wines if wine and old is not None and old.wines else run_wines or {None})
    all_wines = sorted(old_wines | run_wines, key=_wine_order)
    groups = {}      # key -> [{version: {wine versions}}, extra keys], in the order first seen

    def add(key, extra, version, w):
        groups.setdefault(key, [{}, extra])[0].setdefault(version, set()).add(w)

    def covered(w, version, case_id):
        """A run of Wine w at version says what the case does there (complete, or it ran it)."""
        return any(wv(r) == w and _same_version(version, r.version_name) and
                   (r.complete and not r.filtered or case_id in r.by_id) for r in runs)

    for run in runs:
        for case in run.cases:
            # an old entry of any Wine version that says what this case does here keeps its why
            kept = old and next((e for e in old.by_case.get(case["id"], ())
                                 if e.names_run(run, any_wine=True) and entry_matches(e, case)),
                                None)
            if kept:
                add(*kept.grouping(), run.version_name, wv(run))
            elif case["status"] in ("FAIL", "CRASH", "TIMEOUT", "BROKEN"):
                add((case["id"], case["status"], case.get("mode") or None, _observed_for(case),
                     TODO_WHY), {}, run.version_name, wv(run))
    # keep what old entries say about the versions (and Wine versions) that were not run
    for e in old.entries if old else ():
        if e.specs is not None and all(s[0] == "name" for s in e.specs):
            names = [s[1] for s in e.specs]
        else:
            names = [v for v in _universe(impl)
                     if e.names_run(version_run(impl, v), any_wine=True)]
        for w in sorted(old_wines, key=_wine_order):
            for v in names if not wine or e.names_wine(w) else ():
                if not covered(w, v, e.case):
                    add(*e.grouping(), v, w)
    entries = []
    for (case, status, mode, observed, why), (at, extra) in groups.items():
        # one entry per set of Wine versions it holds for
        by_wines = {}
        for v, ws in at.items():
            by_wines.setdefault(frozenset(ws), []).append(v)
        for ws, versions in by_wines.items():
            ent = {"case": case, "versions": sorted(versions, key=version_sort_key),
                   "wine": _wine_spec(ws, all_wines) if wine else None, "status": status,
                   "mode": mode, "observed": observed, "why": why}
            entries.append(dict({k: v for k, v in ent.items() if v}, **extra))
    entries.sort(key=_entry_order)
    doc = {"schema": SCHEMA, "target": dict({"impl": impl}, **({"arch": arch} if arch else {}))}
    doc.update((k, v) for k, v in (old.doc if old else {}).items()
               if k not in ("schema", "target", "entries"))
    if wine and any(all_wines):
        doc["wine_versions"] = ["wine-" + w for w in all_wines if w]
    doc["entries"] = entries
    return doc


def _wine_spec(wines, all_wines):
    """The "wine" of an entry that holds for the Wine versions `wines` of the file's `all_wines`:
    None for all of them; "X+" when they are the newest from X on; else the list of them."""
    known = [w for w in all_wines if w]
    ws = [w for w in known if w in wines]
    if len(ws) == len(known):
        return None
    if ws and ws == known[-len(ws):]:
        return ws[0] + "+"
    return ws[0] if len(ws) == 1 else ws


def _wine_order(w):
    return wine_key(w) or (-1,)


def _entry_order(e):
    return (e["case"], version_sort_key(_items(e.get("versions") or [""])[0]),
            _wine_order(_first_wine(e.get("wine"))))


def _first_wine(spec):
    s = spec[0] if isinstance(spec, list) and spec else spec
    return s.rstrip("+").split("-")[0] if isinstance(s, str) else None


def _same_version(a, b):
    """Wine names and plain NT versions name the same version (win10 = 10.0); a Windows build
    (10.0.19045) is more specific than 10.0."""
    if a.lower() == b.lower():
        return True

    def coarse(v):
        return v.lower() in WINE_NT or re.fullmatch(r"\d+\.\d+", v) is not None
    return coarse(a) and coarse(b) and nt_tuple(a) == nt_tuple(b)


def version_run(impl, version):
    """A run of impl at version, of any arch and Wine, with no cases: what an entry names."""
    run = Run("<%s@%s>" % (impl, version))
    run.header = {"target": {"impl": impl, "version": version}}
    return run


def dumps(doc):
    """The stable on-disk layout: one entry per line; the entries that differ in their case only
    are one, its "case" the list of them (over lines of at most 100 columns)."""
    groups = {}
    for e in doc["entries"]:
        rest = {k: v for k, v in e.items() if k != "case"}
        key = json.dumps(rest, sort_keys=True)
        groups.setdefault(key, (rest, []))[1].extend(_items(e["case"]))
    lines = []
    for rest, cases in groups.values():
        if len(cases) == 1:
            lines.append(json.dumps(dict({"case": cases[0]}, **rest), ensure_ascii=False))
            continue
        ids = textwrap.wrap(", ".join(json.dumps(c) for c in cases), 88, break_long_words=False,
                            break_on_hyphens=False)
        lines.append('{"case": [%s],\n   %s' % ("\n            ".join(ids),
                                                json.dumps(rest, ensure_ascii=False)[1:]))
    head = ['{"schema": %s,' % json.dumps(doc["schema"]),
            ' "target": %s,' % json.dumps(doc["target"], ensure_ascii=False)]
    for k, v in doc.items():
        if k not in ("schema", "target", "entries"):
            head.append(" %s: %s," % (json.dumps(k), json.dumps(v, ensure_ascii=False)))
    if not doc["entries"]:
        return "\n".join(head) + '\n "entries": []}\n'
    return "\n".join(head) + '\n "entries": [\n  ' + ",\n  ".join(lines) + "\n ]}\n"


def write(doc, path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_file(path, dumps(doc))
