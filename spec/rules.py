#!/usr/bin/env python3
"""Read the etwconf rule catalogue (spec/rules.def and the family files it includes).

The same files are compiled into the C harness as an X-macro; this module reads them as text so
that the report tools need no C build. `python3 spec/rules.py --json` prints the catalogue in the
same form as `etwconf rules --json`.
"""
import json
import os
import re
import sys

FIELDS = ("id", "strength", "provenance", "versions", "function", "codes", "source", "text", "note")
PROGRAM_FIELDS = ("id", "name", "repo", "source", "note")
STRENGTHS = ("MUST", "SHOULD", "MAY", "INFO")
PROVENANCES = ("SEED", "DOC", "OBSERVED", "INFERRED")

# a string literal is written as runs of plain characters between escapes: a third faster than one
# alternative per character
_TOKEN = re.compile(r'\s+|/\*.*?\*/|//[^\n]*|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[A-Za-z_][A-Za-z0-9_]*|[(),]|.', re.S)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


class RuleError(Exception):
    pass


def _unquote(lit):
    body = lit[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _read_with_includes(path, seen):
    path = os.path.normpath(path)
    if path in seen:
        raise RuleError("%s: included twice" % path)
    seen.add(path)
    out = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                out.extend(_read_with_includes(os.path.join(os.path.dirname(path), m.group(1)), seen))
            else:
                out.append((path, lineno, line))
    return out


def _parse_lines(lines, macro="RULE", fields=FIELDS):
    rules = []
    text = "".join(l for _, _, l in lines)
    # map character offset -> (file, line) for error messages and provenance of each rule
    offsets = []
    pos = 0
    for path, lineno, line in lines:
        offsets.append((pos, path, lineno))
        pos += len(line)

    def where(off):
        lo, hi = 0, len(offsets) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if offsets[mid][0] <= off:
                lo = mid
            else:
                hi = mid - 1
        return offsets[lo][1], offsets[lo][2]

    toks = [(m.group(0), m.start()) for m in _TOKEN.finditer(text)
            if not m.group(0).isspace() and not m.group(0).startswith(("/*", "//"))]
    i = 0
    while i < len(toks):
        tok, off = toks[i]
        if tok != macro:
            raise RuleError("%s:%d: expected %s(...), found %r" % (where(off) + (macro, tok)))
        if i + 1 >= len(toks) or toks[i + 1][0] != "(":
            raise RuleError("%s:%d: %s without '('" % (where(off) + (macro,)))
        i += 2
        args, cur = [], None
        while True:
            if i >= len(toks):
                raise RuleError("%s:%d: unterminated %s(" % (where(off) + (macro,)))
            t, toff = toks[i]
            i += 1
            if t.startswith('"'):
                cur = (cur or "") + _unquote(t)
            elif re.match(r"[A-Za-z_]", t):
                if cur is not None:
                    raise RuleError("%s:%d: unexpected %r" % (where(toff) + (t,)))
                cur = t
            elif t in ",)":
                if cur is None:
                    raise RuleError("%s:%d: empty argument" % where(toff))
                args.append(cur)
                cur = None
                if t == ")":
                    break
            else:
                raise RuleError("%s:%d: unexpected %r" % (where(toff) + (t,)))
        if len(args) != len(fields):
            raise RuleError("%s:%d: %s has %d fields, expected %d" % (where(off) + (macro, len(args), len(fields))))
        rule = dict(zip(fields, args))
        rule["file"], rule["line"] = where(off)
        rules.append(rule)
    return rules


def validate(rules):
    seen = {}
    table = versions()     # read once: every rule's versions field is checked against it
    for r in rules:
        loc = "%s:%d" % (r["file"], r["line"])
        if r["id"] in seen:
            raise RuleError("%s: duplicate rule id %s (first at %s)" % (loc, r["id"], seen[r["id"]]))
        seen[r["id"]] = loc
        if not re.fullmatch(r"[A-Z0-9]+(\.[A-Z0-9_]+)+", r["id"]):
            raise RuleError("%s: bad rule id %r" % (loc, r["id"]))
        if r["strength"] not in STRENGTHS:
            raise RuleError("%s: strength %r not one of %s" % (loc, r["strength"], STRENGTHS))
        if r["provenance"] not in PROVENANCES:
            raise RuleError("%s: provenance %r not one of %s" % (loc, r["provenance"], PROVENANCES))
        err = versions_spec_error(r["versions"], table)
        if err:
            raise RuleError("%s: versions %r: %s" % (loc, r["versions"], err))
    return rules


_VERSION_RE = re.compile(r"\d+\.\d+(\.\d+)?")


def version_key(text, table=None):
    """A version as a sortable key (major, minor, build, update): '6.1' -> (6, 1, None, 0) (an NT version:
    every build), '10.0.19045' -> (10, 0, 19045, 0), a table name or alias ('6.1.7601-esi',
    'win11-24h2') -> its entry's (the entries named by an NT version, '6.1', stay NT versions).
    None if it is neither."""
    table = versions() if table is None else table
    for v in table:
        if text == v["name"] or text in v["aliases"].split():
            if re.fullmatch(r"\d+\.\d+", v["name"]):
                break
            return (v["nt"] >> 8, v["nt"] & 0xFF, v["build"], v["update"])
    if not _VERSION_RE.fullmatch(text or ""):
        return None
    parts = [int(x) for x in text.split(".")]
    return (parts[0], parts[1], parts[2] if len(parts) > 2 else None, 0)


def version_bounds(text, table=None):
    """The inclusive key range a version names: an NT version all its builds, a build all its
    updates. None if unknown."""
    k = version_key(text, table)
    if k is None:
        return None
    if k[2] is None:
        return (k[0], k[1], 0, 0), (k[0], k[1], 0xFFFF, 0xF)
    return (k[0], k[1], k[2], k[3]), (k[0], k[1], k[2], 0xF)


def versions_spec_error(spec, table=None):
    """Why a rule's versions field is malformed, or None. The field is 'all' or a comma-separated
    list of items 'V', 'V+' or 'A-B', where each version is 'X.Y', 'X.Y.BUILD' or a name of the
    version table ('6.1.7601-esi')."""
    if spec == "all":
        return None
    table = versions() if table is None else table
    for item in [i.strip() for i in spec.split(",")]:
        if "-" in item and version_bounds(item.rstrip("+"), table) is None:
            # names hold '-' too (win11-24h2): the first split whose two sides are versions
            sides = [(version_bounds(item[:i], table), version_bounds(item[i + 1:], table))
                     for i, ch in enumerate(item) if ch == "-"]
            sides = [(lo, hi) for lo, hi in sides if lo is not None and hi is not None]
            if not sides:
                return "unknown version in range %r" % item
            if sides[0][0][0] > sides[0][1][1]:
                return "empty range %r" % item
            continue
        if version_bounds(item[:-1] if item.endswith("+") else item, table) is None:
            return "%r is not 'all', 'X.Y', 'X.Y.BUILD', a version table name, 'V+' or 'A-B'" % item
    return None


def family(rule_id):
    return rule_id.split(".", 1)[0]


def counted(rule):
    """A failure of this rule counts against an implementation (MUST, not inferred)."""
    return rule["strength"] == "MUST" and rule["provenance"] != "INFERRED"


def load(path=None):
    if path is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules.def")
    rules = validate(_parse_lines(_read_with_includes(path, set())))
    base = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    for r in rules:
        r["file"] = os.path.relpath(r["file"], base)
    return rules


VERSION_FIELDS = ("sym", "nt", "build", "update", "name", "wine", "label", "aliases", "kb")


def versions(path=None):
    """The version table, spec/versions.def, oldest first: a list of dicts with VERSION_FIELDS."""
    if path is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "versions.def")
    out = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.startswith("VERSION("):
                continue
            m = re.fullmatch(r'VERSION\((\w+), *(0x[0-9A-Fa-f]+|\d+), *(\d+), *(\d+), *"([^"]*)", *"([^"]*)", *"([^"]*)", *"([^"]*)", *"([^"]*)"\)\s*', line)
            if not m:
                raise RuleError("%s:%d: expected VERSION(sym, nt, build, update, \"name\", \"wine\", \"label\", \"aliases\", \"kb\")"
                                % (path, lineno))
            v = dict(zip(VERSION_FIELDS, m.groups()))
            v["nt"], v["build"], v["update"] = int(v["nt"], 0), int(v["build"]), int(v["update"])
            out.append(v)
    return out


def programs(path=None):
    """The programs of spec/programs.def (client scenarios): a list of dicts with PROGRAM_FIELDS."""
    if path is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs.def")
    progs = _parse_lines(_read_with_includes(path, set()), "PROGRAM", PROGRAM_FIELDS)
    seen = set()
    for p in progs:
        if not re.fullmatch(r"[a-z0-9-]+", p["id"]) or p["id"] in seen:
            raise RuleError("%s:%d: bad or duplicate program id %r" % (p["file"], p["line"], p["id"]))
        seen.add(p["id"])
        p["file"] = os.path.relpath(p["file"], os.path.dirname(os.path.dirname(os.path.abspath(path))))
    return progs


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Print the etwconf rule catalogue.")
    ap.add_argument("--json", action="store_true", help="print JSON (default: one line per rule)")
    ap.add_argument("--def", dest="path", help="path to rules.def (default: next to this script)")
    ap.add_argument("--programs", action="store_true", help="print the programs of spec/programs.def instead")
    a = ap.parse_args(argv)
    if a.programs:
        try:
            progs = programs()
        except (RuleError, OSError) as e:
            print("rules.py: %s" % e, file=sys.stderr)
            return 2
        if a.json:
            print(json.dumps([{k: p[k] for k in PROGRAM_FIELDS} for p in progs], indent=1))
        else:
            for p in progs:
                print("%-22s %-40s %s" % (p["id"], p["name"], p["repo"]))
        return 0
    try:
        rules = load(a.path)
    except (RuleError, OSError) as e:
        print("rules.py: %s" % e, file=sys.stderr)
        return 2
    if a.json:
        keys = FIELDS
        print(json.dumps([{k: r[k] for k in keys} for r in rules], indent=1))
    else:
        for r in rules:
            print("%-26s %-6s %-8s %-8s %s" % (r["id"], r["strength"], r["provenance"], r["versions"], r["text"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
