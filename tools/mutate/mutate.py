#!/usr/bin/env python3
"""tools/mutate/mutate.py - the mutants of tools/mutate/mutants.def (tools/mutate/README.md).

usage: mutate [--ref DIR] [--rules FILE] COMMAND DEF [ARGS]
  check DEF            every tag in DIR names a catalogue rule and occurs once; every mutant
                       applies exactly once on its tagged line; every counted rule has a mutant
  list DEF             one line per mutant: id TAB file TAB kind TAB equivalent(0|1) TAB description
  apply DEF ID OUT     write the file of mutant ID, with the mutation applied, to OUT
  show DEF ID          the mutant as a small diff
  why DEF ID           the equivalence reason (empty when the mutant is not equivalent)
  tags DEF             every tag: tag TAB file:line TAB the ids of the mutants anchored on its line
  coverage DEF         every counted rule and the mutants anchored on a line tagged with it
  run DEF              mutation testing (make mutate; the MUT_* variables of tools/mutate/run.sh)
options: --ref DIR     the reference sources (default: reference)
         --rules FILE  the rule catalogue (default: spec/rules.def)
A counted rule is one of strength MUST whose provenance is not INFERRED.
Exit status: 0 ok, 1 a mutant, tag or rule is broken (the message says which and what to do),
2 usage or an unreadable file.
"""
import collections
import functools
import glob
import os
import re
import subprocess
import sys
import time
import types

USAGE = __doc__.split("\n\n", 1)[1]
REOPEN = "; tag the reference line or fix its 'at' line"


class Broken(Exception):
    """a mutant that does not apply; the message says where and why"""


def fail(msg, status=2):
    print(msg, file=sys.stderr)
    sys.exit(status)


def read(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            return f.read()
    except OSError:
        fail(f"mutate: cannot read {path}")


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


@functools.lru_cache(maxsize=None)
def read_rules(path):
    """{id: counted} of the rule catalogue PATH, read by the suite's reader spec/rules.py"""
    sys.path.insert(0, "spec")
    import rules
    try:
        return {r["id"]: rules.counted(r) for r in rules.load(path)}
    except (OSError, rules.RuleError):
        fail(f"mutate: cannot read the rule catalogue {path} (give it with --rules FILE)")


LEXEME = re.compile(r'"(?:\\[\s\S]|[^"\\\n])*"?' r"|'(?:\\[\s\S]|[^'\\\n])*'?"
                    r"|/\*[\s\S]*?(?:\*/|\Z)|//[^\n]*")


def code_only(text):
    """TEXT with every comment (delimiters included) made 0x01 bytes, newlines kept: code is
    matched in it, so no mutant reaches into a comment and comment edits break none"""
    return LEXEME.sub(lambda m: m[0] if m[0][0] in "\"'" else re.sub("[^\n]", "\x01", m[0]), text)


# a tag: start and end are those of its line (its newline excluded)
Tag = collections.namedtuple("Tag", "name rule src start end line")
# a tag's rule id: a sentence's full stop is not part of one, nor is a suffix after that stop
TAG = re.compile(r"@([A-Z][A-Z0-9_.]*?)\.*(?![A-Z0-9_.])(?:(?<!\.)(:[A-Za-z0-9_.\-]+))?")


def find_tags(text, src, code):
    """the @RULE.ID[:suffix] tags of TEXT, in comments only (a rule id has a dot)"""
    tags, line, pos = [], 1, 0
    for m in TAG.finditer(text):
        if code[m.start()] == "\x01" and "." in m[1]:
            line, pos = line + text.count("\n", pos, m.start()), m.start()
            eol = text.find("\n", pos)
            tags.append(Tag(m[1] + (m[2] or ""), m[1], src, text.rfind("\n", 0, pos) + 1,
                            len(text) if eol < 0 else eol, line))
    return tags


class Model:
    """the rule catalogue, the reference sources and their tags, and the mutants of one list"""

    def __init__(self, ref_dir, rules_path):
        self.ref_dir, self.rules = ref_dir, read_rules(rules_path)
        if not os.path.isdir(ref_dir):
            fail(f"mutate: cannot open the reference directory {ref_dir} (give it with --ref DIR)")
        self.paths = [f"{ref_dir}/{n}" for n in sorted(os.listdir(ref_dir)) if n.endswith(".c")]
        self.texts = [read(p) for p in self.paths]
        self.codes = [code_only(text) for text in self.texts]
        self.tags = [t for s, text in enumerate(self.texts)
                     for t in find_tags(text, s, self.codes[s])]
        self.named, self.on_line = {}, {}
        for t in self.tags:
            self.named.setdefault(t.name, []).append(t)
            self.on_line.setdefault((t.src, t.line), []).append(t)
        self.mutants, self.problems, self.def_path, self.done, self.found = [], 0, None, {}, {}

    def bad(self, msg):
        print(msg, file=sys.stderr)
        self.problems += 1

    def parse(self, path):
        """the mutants of PATH: a header line each, its changes and equivalence reason indented"""
        self.def_path, m, first = path, None, {}
        for lineno, line in enumerate(read(path).split("\n"), 1):
            line = line.rstrip("\r")
            v, where = line.lstrip(" \t"), f"{path}:{lineno}"
            if line.startswith("#") or not v:
                continue
            if line.startswith("["):
                h = re.match(r"\[([^\]]*)\] (.+?): (.+)", line)
                # edits: (tag, move after tag, from, to, line)
                m = h and types.SimpleNamespace(id=h[1], kind=h[2], desc=h[3], line=lineno,
                                                equivalent=None, edits=[])
                if not m:
                    self.bad(f"{where}: a mutant starts with '[id] kind: description'")
                    continue
                if m.id in first:
                    self.bad(f"{where}: duplicate mutant id {m.id} (first at line {first[m.id]})")
                first.setdefault(m.id, lineno)
                self.mutants.append(m)
            elif not m or v == line:
                self.bad(f"{where}: expected '[id] kind: description' or an indented line under it")
            elif v.startswith("equivalent: "):
                if m.equivalent:
                    self.bad(f"{where}: a second 'equivalent:' line")
                m.equivalent = m.equivalent or v[12:]
            elif not v.startswith("at "):
                self.bad(f"{where}: expected 'at TAG: `FROM` -> `TO`', 'at TAG: move after TAG2' "
                         "or 'equivalent: REASON'")
            else:
                e = re.fullmatch(r"(.*?): (?:move after (.+)|`(.*?)` -> `(.*)`)", v[3:])
                if not e:
                    self.bad(f"{where}: a change is 'at TAG: `FROM` -> `TO`' or "
                             "'at TAG: move after TAG2'")
                    continue
                err = ("the tag after 'at' is empty" if not e[1] else None if e[2]
                       else "'from' is empty" if not e[3]
                       else "'to' is the same as 'from'" if e[3] == e[4] else None)
                if err:
                    self.bad(f"{where}: mutant {m.id}: {err}")
                m.edits.append((e[1], e[2], e[3], e[4], lineno))
        for m in (m for m in self.mutants if not m.edits):
            self.bad(f"{path}:{m.line}: mutant {m.id} has no change ('at TAG: ...' under it)")

    def broken(self, m, lineno, msg):
        return Broken(f"{self.def_path}:{lineno}: mutant {m.id}: {msg}")

    def src_of(self, m):
        """the source that M's changes are in (every change of a mutant is in one file)"""
        s = None
        for at, *_, lineno in m.edits:
            for t in self.named.get(at, []):
                if s is not None and s != t.src:
                    raise self.broken(m, lineno, f"its changes are in two files ({self.paths[s]}, "
                                      f"{self.paths[t.src]})")
                s = t.src
        if s is None:
            raise self.broken(m, m.line, f"no tag @{m.edits[0][0] if m.edits else '?'} in "
                              f"{self.ref_dir}/*.c{REOPEN}")
        return s

    def locate(self, text, code, name, m, lineno):
        """the one tag NAME of TEXT"""
        if text not in self.found:
            self.found[text] = find_tags(text, 0, code)
        hits = [t for t in self.found[text] if t.name == name]
        if len(hits) != 1:
            raise self.broken(m, lineno, f"the tag @{name} occurs {len(hits)} times in its file "
                              "(must be exactly once)" + ("" if hits else REOPEN))
        return hits[0]

    def mutated(self, m):
        """(source index, the text of M's file with M applied); Broken when it does not apply"""
        if id(m) in self.done:
            return self.done[id(m)]
        s = self.src_of(m)
        text = self.texts[s]
        for at, after, frm, to, lineno in m.edits:
            code = self.codes[s] if text is self.texts[s] else code_only(text)
            t = self.locate(text, code, at, m, lineno)
            if after:
                a0, b0 = t.start, self.locate(text, code, after, m, lineno).start
                a1, b1 = statement_end(text, code, a0), statement_end(text, code, b0)
                if a1 > b0 and b1 > a0:
                    raise self.broken(m, lineno, f"the statements at @{at} and @{after} overlap")
                # the statement at A moves to just after B: the pieces [lo, mid) and [mid, hi) swap
                lo, mid, hi = (a0, a1, b1) if a0 < b0 else (b1, a0, a1)
                text = text[:lo] + text[mid:hi] + text[lo:mid] + text[hi:]
                continue
            hits = [i for i in range(t.start, t.end - len(frm) + 1) if code.startswith(frm, i)]
            if len(hits) != 1:
                raise self.broken(m, lineno, f"'from' occurs {len(hits)} times in the code of the "
                                  f"line tagged @{at} (must be exactly once)"
                                  + ("; make it longer" if hits
                                     else "; the tagged line changed: update the mutant"))
            text = text[:hits[0]] + to + text[hits[0] + len(frm):]
        self.done[id(m)] = s, text
        return s, text

    def anchored(self, m):
        """the tags on the lines that M's changes are anchored to"""
        for at, *_ in m.edits:
            for t in self.named.get(at, []):
                yield from self.on_line[(t.src, t.line)]

    def check(self):
        """every tag names a rule and occurs once, every mutant applies, every counted rule has a
        mutant; prints the problems (and counts them with the parse's), or a summary"""
        for t in self.tags:
            where, f = f"{self.paths[t.src]}:{t.line}: tag @{t.name}", self.named[t.name][0]
            if t.rule not in self.rules:
                self.bad(f"{where}: no rule {t.rule} in the catalogue; use a rule id of "
                         "spec/rules/*.def")
            if f is not t:
                self.bad(f"{where} also at {self.paths[f.src]}:{f.line}; make it unique with a "
                         f"suffix (@{t.name}:NAME)")
        for m in (m for m in self.mutants if m.edits):
            try:
                s, text = self.mutated(m)
                if text == self.texts[s]:
                    self.bad(f"{self.def_path}:{m.line}: mutant {m.id} changes nothing")
            except Broken as e:
                self.bad(str(e))
        hit = {t.rule for m in self.mutants for t in self.anchored(m)}
        counted = [r for r, c in self.rules.items() if c]
        for r in (r for r in counted if r not in hit):
            self.bad(f"{self.def_path}: counted rule {r} has no mutant: tag the reference line "
                     "that implements it and add a mutant with an 'at' line on it")
        if self.problems:
            print(f"mutate check: {self.problems} problem(s) in {self.def_path} against "
                  f"{self.ref_dir}/*.c", file=sys.stderr)
            return False
        print(f"mutate check: {len(self.mutants)} mutants "
              f"({sum(m.equivalent is not None for m in self.mutants)} listed as equivalent), each "
              f"applies exactly once to {self.ref_dir}/*.c; {len(self.tags)} tags, each names a "
              f"rule; {len(counted)} counted rules, each with a mutant")
        return True


def statement_end(text, code, i):
    """the end of the statement that begins at I: after its ';' or its block's '}', then to the end
    of that line (its newline included)"""
    depth, token = 0, re.compile(r'"(?:\\.|[^"\\\n])*"' r"|'(?:\\.|[^'\\\n])*'|[()\[\]{};]")
    for m in token.finditer(code, i):  # a literal is one token: no bracket in it counts
        i, ch = m.start(), m[0]
        depth += (ch in "([{") - (ch in ")]}")
        after = ch == "}" and re.compile(r"[ \t\n\x01]*(.?)").match(code, i + 1)[1]
        if ch == ";" and depth == 0 or ch == "}" and depth <= 0 and after not in (";", ",", ")"):
            break
    else:
        i = len(text)
    eol = text.find("\n", i)
    return len(text) if eol < 0 else eol + 1


# ---------------------------------------------------------------- mutant schemata
def masked(text):
    """code_only(TEXT) with its string and character literals and preprocessor lines masked too"""
    literal = r'"(?:\\.|[^"\\\n])*"' r"|'(?:\\.|[^'\\\n])*'"
    code = re.sub(literal, lambda m: "_" * len(m[0]), code_only(text))
    return re.sub(r"^[ \t]*#(?:\\\n|.)*", lambda m: re.sub("[^\n]", " ", m[0]), code, flags=re.M)


def items(code):
    """the file-scope declarations and function definitions of CODE: (start, end, body or None)"""
    out, depth, start, body = [], 0, None, None
    for m in re.finditer(r"[()\[\]{};]", code):
        i, ch = m.start(), m[0]
        if depth == 0 and start is None:
            start = re.compile(r"[^ \t\n\x01]").search(code, out[-1][1] if out else 0).start()
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "{" and depth == 1 and code[:i].rstrip(" \t\n\x01").endswith(")"):
            body = i
        elif depth == 0 and (ch == ";" or ch == "}" and body is not None):
            out.append((start, i + 1, body if ch == "}" else None))
            start = body = None
    return out


def blocks(code, its):
    """the compound statements of CODE's functions that can be a branch of an if, (start, end):
    a function's body, or a block that is no initializer and holds no case label of any switch"""
    out = []
    for _, e, b in (it for it in its if it[2] is not None):
        stack, closed = [], ""  # open brackets: ("(", the word before it) or ("{", a statement?)
        for m in re.finditer(r"[{}()]", code[b:e]):
            i, prev = b + m.start(), code[b:b + m.start()].rstrip(" \t\n\x01")
            if m[0] == "(":
                stack.append(("(", re.search(r"\w*$", prev)[0], i))
            elif m[0] == ")":
                closed = stack.pop()[1]
            elif m[0] == "{":
                stack.append(("{", i == b or stack[-1][:2] == ("{", True) and (
                    prev[-1] in ";{}:" or re.search(r"\b(else|do)$", prev) is not None
                    or prev[-1] == ")" and closed in ("if", "for", "while", "switch")), i))
            else:
                _, statement, s = stack.pop()
                if s == b or statement and not re.search(r"\b(case\b|default\s*:)", code[s:i]):
                    out.append((s, i + 1))
    return out


def common_prefix(a, b):
    """the length of the common prefix of A and B, found by halves"""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if a[lo:mid] == b[lo:mid] else (lo, mid - 1)
    return lo


def schema(orig, variants):
    """ORIG with every mutant of VARIANTS [(number, mutated text)] selectable at run time by
    etwref_mutant_: the innermost block of a function that holds all of a mutant's changes gets
    the mutated block as a branch in front of it; a file-scope object that a mutant changes gets a
    renamed copy, and its name becomes a macro that picks one. Returns the text and the numbers of
    the mutants that change anything else (those are built on their own)."""
    code = masked(orig)
    its, alone, branches, copies = items(code), [], {}, {}
    candidates = sorted(blocks(code, its), key=lambda se: se[1] - se[0])
    cuts = [0] + [x for s, e, _ in its for x in (s, e)] + [len(orig)]
    gaps = [orig[a:b] for a, b in zip(cuts[::2], cuts[1::2])]
    for k, text in variants:
        head = common_prefix(orig, text)
        tail = common_prefix(orig[head:][::-1], text[head:][::-1])
        blk = next(((s, e) for s, e in candidates if s < head and e > len(orig) - tail), None)
        if blk:
            mutated = text[blk[0]:len(text) - len(orig) + blk[1]]
            branches.setdefault(blk, []).append((k, mutated))
            continue
        mits, changes = items(masked(text)), []
        mcuts = [0] + [x for s, e, _ in mits for x in (s, e)] + [len(text)]
        same_gaps = gaps == [text[a:b] for a, b in zip(mcuts[::2], mcuts[1::2])]
        for i, ((s, e, b), (ms, me, mb)) in enumerate(zip(its, mits) if same_gaps else []):
            decl = text[ms:me]
            name = re.match(r"[^=,;]*?(\w+)\s*(?:\[[^\]]*\]\s*)*=", decl)
            if orig[s:e] == decl:
                continue
            if b is not None or mb is not None or not name \
                    or not re.match(rf"[^=]*\b{name[1]}\b", orig[s:e]):
                break
            copy = f"{decl[:name.start(1)]}{name[1]}__m{k}{decl[name.end(1):]}"
            changes.append((i, (name[1], k, copy)))
        else:
            for i, c in changes:
                copies.setdefault(i, []).append(c)
            if changes:
                continue
        alone.append(k)

    def emit(a, b):
        """ORIG[a:b] with the branches of the blocks in it, each block marked reached on entry"""
        out = []
        for s, e in sorted(blk for blk in branches if a <= blk[0] and blk[1] <= b):
            if s >= a:
                ks = branches[(s, e)]
                out += [orig[a:s], "{\n", *(f"etwref_reach_({k});\n" for k, _ in ks),
                        *(f"if (etwref_mutant_ == {k}) {text}\nelse " for k, text in ks),
                        "{", emit(s + 1, e - 1), "}\n}"]
                a = e
        return "".join(out + [orig[a:b]])

    out = ["extern int etwref_mutant_;\nvoid etwref_reach_(int), etwref_case_(void);\n"]
    for i, (s, e, _) in enumerate(its):
        out += [gaps[i], emit(s, e)]
        if i in copies:
            name = copies[i][0][0]
            pick = "".join(f"etwref_mutant_ == {k} ? &{n}__m{k} : " for n, k, _ in copies[i])
            out += [f"\n{decl}" for _, _, decl in copies[i]]
            out.append(f"\n#define {name} (*({pick}&{name}))\n")
    return "".join(out + [gaps[-1]]), alone, {k for v in branches.values() for k, _ in v}


# the mutant a build of the schemata runs: ETWREF_MUTANT, read before any other constructor runs;
# ETWREF_REACH gets an R line when a case starts (EtwRef_Reset), then the number of each mutant
# whose block the case enters
SELECTOR = """#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int etwref_mutant_;
static int reach_fd = -1;
static unsigned char reached[%d];
__attribute__((constructor(101))) static void etwref_mutant_init_(void)
{
    const char *s = getenv("ETWREF_MUTANT"), *r = getenv("ETWREF_REACH");
    etwref_mutant_ = s ? atoi(s) : 0;
    reach_fd = r ? open(r, O_WRONLY | O_APPEND | O_CREAT, 0644) : -1;
}
void etwref_reach_(int k)
{
    char b[16];
    if (reach_fd >= 0 && !reached[k] && write(reach_fd, b, snprintf(b, sizeof b, "%%d\\n", k)))
        reached[k] = 1;
}
void etwref_case_(void)
{
    if (reach_fd >= 0 && write(reach_fd, "R\\n", 2))
        memset(reached, 0, sizeof reached);
}
"""
RESET = "EtwRef_Reset(void)\n{"


def build(model, selected, w, cc, ref_objs):
    """{mutant number: (library, build error)}: the schemata of every file in one library, as
    build/libetwref.so is linked (a mutant that no schema can hold gets a library of its own)"""
    mutant, files = dict(selected), {s: [] for s, t in enumerate(model.texts) if RESET in t}
    for k, m in selected:
        files.setdefault(model.src_of(m), []).append(k)
    libs, shared, selectable = [], list(ref_objs), set()
    for s, ks in sorted(files.items()):
        name = os.path.basename(model.paths[s])
        obj = f"{os.path.dirname(ref_objs[0])}/{name[:-2]}.o"
        variants = [(k, model.mutated(mutant[k])[1]) for k in ks]
        text, alone, branched = schema(model.texts[s], variants)
        selectable |= branched
        write(f"{w}/{name}", text.replace(RESET, RESET + "\n    etwref_case_();", 1))
        shared[shared.index(obj)] = f"{w}/{name}"
        for k in alone:
            write(f"{w}/{k}/{name}", model.mutated(mutant[k])[1])
            others = [o for o in ref_objs if o != obj]
            libs.append(([k], f"{w}/{k}/mutant.so", [f"{w}/{k}/{name}"] + others))
    write(f"{w}/selector.c", SELECTOR % (max(mutant) + 1))
    alone = {k for ks, _, _ in libs for k in ks}
    ks = [k for k, _ in selected if k not in alone]
    libs.append((ks, f"{w}/mutants.so", shared + [f"{w}/selector.c"]))
    built = {}
    for ks, lib, inputs in libs:
        p = subprocess.run(cc + ["-o", lib] + inputs + ["-lpthread"], capture_output=True,
                           text=True)
        errors = [ln for ln in p.stderr.split("\n") if "error" in ln.lower()] + [p.stderr]
        err = p.returncode and errors[0]
        built.update({k: (lib, err) for k in ks})
    return built, selectable


KILL = re.compile(r'\{"type":"case","seq":[0-9]*,"id":"([^"]*)".*"status":"(FAIL|CRASH|TIMEOUT)",'
                  r'"counted":(true|false)')


def run_one(etwconf, vlist, cases, k, lib, err, d):
    """mutant K's verdict: (STATUS, failing case runs, detail), from one etwconf run of VLIST in
    that order until a version counts a failure (in process until a crash, hang or overrun)"""
    if err:
        return "ERROR", 0, f"does not build: {err}"
    if not vlist:
        return "SURVIVED", 0, ""  # its code is run at no version
    os.makedirs(d)
    with open(f"{d}/run.log", "w") as log:
        rc = subprocess.run([etwconf, "run", "--target", lib, "--emulate", vlist, "--quiet",
                             "--isolation", "fallback", "--timeout-ms", "2000", "--stop-on-counted",
                             "--out-dir", f"{d}/out", *cases], stdout=subprocess.DEVNULL,
                            stderr=log, env=dict(os.environ, ETWREF_MUTANT=str(k)))
    kills, counted = [], 0
    for path in sorted(glob.glob(f"{d}/out/*.jsonl")):
        version = re.sub(r"^.*?\.so-|\.jsonl$", "", os.path.basename(path))
        with open(path, encoding="utf-8", errors="replace") as f:
            for r in filter(None, map(KILL.match, f)):
                counted += r[3] == "true"
                kills += [f" {r[1]}@{version}({r[2]}{',counted' if r[3] == 'true' else ''})"]
    if rc.returncode > 1 and not kills:
        return "ERROR", 0, f"etwconf run exited {rc.returncode}"
    if kills:
        return "KILLED", len(kills), ("counted:" if counted else "uncounted:") + "".join(kills[:3])
    return "SURVIVED", 0, ""


def reached(etwconf, lib, vlist, d):
    """{version: {mutant: the cases that enter its block (with the skipped ones after each), or
    None: any}} of LIB with no mutant selected, and the versions where it fails. Every case starts
    from a reset, so a case that never enters a mutant's block runs as the reference's does."""
    reach, unfit = {}, []
    os.makedirs(d)
    for v in vlist.split(","):
        rc = subprocess.run([etwconf, "run", "--target", lib, "--emulate", v, "--quiet",
                             "--isolation", "fallback", "--out-dir", f"{d}/{v}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, ETWREF_MUTANT="0", ETWREF_REACH=f"{d}/{v}.txt"))
        groups, fails = [[]], rc.returncode != 0
        for path in glob.glob(f"{d}/{v}/*.jsonl"):
            for c in re.finditer(r'^\{"type":"case",.*?"id":"([^"]*)".*"status":"(\w+)"',
                                 read(path), re.M):
                groups += [[]] if c[2] != "SKIP" else []
                groups[-1].append(c[1])
                fails |= c[2] in ("FAIL", "CRASH", "TIMEOUT")
        if fails or not os.path.exists(f"{d}/{v}.txt"):
            unfit += [v] if fails else []
            continue
        at, case = {}, 0
        for word in read(f"{d}/{v}.txt").split():
            case += word == "R"
            k = 0 if word == "R" else int(word)
            if k and (case == 0 or case >= len(groups)):
                at[k] = None
            elif k and at.get(k, set()) is not None:
                at[k] = at.get(k, set()) | set(groups[case])
        reach[v] = at if case == len(groups) - 1 else dict.fromkeys(at)
    return reach, unfit


def versions(b, env):
    """the versions a mutant runs at, in order: MUT_VLIST, or MUT_VERSIONS, or those of etwconf
    versions newest first (most rules apply from 6.2 or 10.0 on: most mutants die at the first)"""
    if env.get("MUT_VLIST") or env.get("MUT_VERSIONS", "all") != "all":
        return env.get("MUT_VLIST") or ",".join(env["MUT_VERSIONS"].split())
    listed = subprocess.run([f"{b}/etwconf", "versions"], capture_output=True, text=True).stdout
    listed = [ln.split()[0] for ln in reversed(listed.split("\n")) if ln.strip()]
    if not listed:
        print(f"ERROR    {b}/etwconf versions lists no version")
    return ",".join(listed)


def run(model, env):
    """make mutate: every mutant wanted (MUT_FILTER) built and run; the score and report.md"""
    import concurrent.futures
    import fnmatch
    import shutil
    b, def_path, start = env.get("MUT_BUILD", "build"), model.def_path, time.time()
    vlist, w, filt = versions(b, env), f"{b}/mutate/work", env.get("MUT_FILTER", "*")
    if not vlist:
        print("mutate: 0 passed, 1 failed")
        return 1
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    selected = [(k, m) for k, m in enumerate(model.mutants, 1)
                if any(fnmatch.fnmatchcase(m.id, p) for p in filt.split())]
    cc = (env.get("MUT_CC", "cc").split() + env.get("MUT_CFLAGS", "-std=c11 -I. -fPIC -w").split()
          + ["-pipe", "-shared", "-Wl,-Bsymbolic"] + env.get("MUT_LDFLAGS", "").split())
    objs = sorted(glob.glob(f"{b}/obj/reference/*.o"))
    built, selectable = build(model, selected, w, cc, objs) if selected else ({}, set())
    lib, err = built.get(min(selectable, default=0), (None, "no schema"))
    reach, unfit = ({}, []) if err else reached(f"{b}/etwconf", lib, vlist, f"{w}/reach")

    def run_at(k, m):
        """mutant K in the cases and at the versions where the reference enters its block (or
        where that is not known)"""
        at = [v for v in vlist.split(",") if k not in selectable or v not in reach or k in reach[v]]
        cases = [reach.get(v, {}).get(k) if k in selectable else None for v in at]
        cases = [] if None in cases else sorted(set().union(*cases))
        return run_one(f"{b}/etwconf", ",".join(at), [x for c in cases for x in ("--case", c)], k,
                       *built[k], f"{w}/{m.id}")

    # the equivalent ones first: they run at every version, the longest jobs, so they do not come
    # last and leave a CPU idle at the end
    order = sorted(selected, key=lambda km: km[1].equivalent is None)
    with concurrent.futures.ThreadPoolExecutor(int(env.get("MUT_JOBS", "1"))) as pool:
        verdict = dict(zip((m.id for _, m in order), pool.map(lambda km: run_at(*km), order)))
    for lib in {lib for lib, err in built.values() if not err}:
        os.remove(lib)

    rep = [f"# Mutation testing report\n\nMutants: `{def_path}`. Each was built as a target and "
           f"run at: {vlist} (in that order, until a version counts a failure).\n"
           "KILLED = some case FAILed, CRASHed or TIMED OUT at some version (counted: a counted "
           "failure among them).\n\n"
           "| mutant | kind | result | first kills |\n|---|---|---|---|"]
    c, listed, bad = collections.Counter(), {"survived": [], "eqs": []}, []
    for k, m in selected:
        st, n, detail = verdict[m.id]
        eq = m.equivalent is not None
        key = {"KILLED": "eqkilled" if eq else "killed",
               "SURVIVED": "eqs" if eq else "survived"}.get(st, "errors")
        c[key] += 1
        c["counted"] += key == "killed" and detail.startswith("counted:")
        line = {"eqkilled": f"EQUIV-KILLED {m.id}: listed as equivalent, but killed by{detail}",
                "killed": f"KILLED   {m.id} ({n} failing case runs; "
                          f"{detail.replace(':', '):', 1)}",
                "eqs": f"EQUIV    {m.id}: {m.equivalent}",
                "survived": f"SURVIVED {m.id} ({m.kind}): {m.desc}",
                "errors": f"ERROR    {m.id}: {detail}"}[key]
        print(line)
        if key in listed:  # the report's lists of survivors and equivalents
            where = m.desc if eq else f"{m.kind}, {model.paths[model.src_of(m)]}"
            listed[key].append(f"- `{m.id}` ({where}): {m.equivalent if eq else m.desc}")
        bad += [line] if key in ("eqkilled", "survived", "errors") else []
        cell = detail.replace("|", "\\|")
        rep.append(f"| `{m.id}` | {m.kind} | {st}{' (equivalent)' if eq else ''} | {cell} |")
    # no mutant run is no score: a filter that matches none, or an empty list, fails
    if not selected:
        c["errors"] = 1
        bad.append(f"ERROR    no mutant of {def_path} matches MUT_FILTER '{filt}': "
                   "nothing was tested")
    # the library of the schemata is the reference when no mutant is selected
    if unfit:
        bad.append(f"ERROR    {w}/mutants.so with no mutant selected fails at {','.join(unfit)}")
    scored = c["killed"] + c["survived"] + c["errors"]
    score = f"{100 * c['killed'] / scored:.1f}" if scored else "0.0"
    rep += ["", "## Score", "", f"{c['killed']} of {scored} non-equivalent mutants killed "
            f"({score}%); {c['counted']} of them by a counted failure.",
            f"{c['eqs']} mutants listed as equivalent (not in the score).", "", "## Survivors", "",
            *(listed["survived"] or ["None."]), "", "## Equivalent mutants", "",
            *(listed["eqs"] or ["None."])]
    write(f"{b}/mutate/report.md", "\n".join(rep) + "\n")
    failed = c["survived"] + c["eqkilled"] + c["errors"] + bool(unfit)
    print(f"\nmutation score: {c['killed']}/{scored} non-equivalent mutants killed ({score}%), "
          f"{c['counted']} by a counted failure; {c['eqs']} equivalent; "
          f"{int(time.time() - start)}s")
    print("".join(f"{x}\n" for x in ["problems:"] + bad) if bad else "", end="")
    print(f"report: {b}/mutate/report.md")
    print(f"mutate: {c['killed']} passed, {failed} failed, {c['eqs']} skipped")
    return 1 if failed else 0


def command(model, cmd, args):
    """the commands but check and run"""
    m = next((m for m in model.mutants if args and m.id == args[0]), None)
    if cmd == "list":
        for m in model.mutants:
            print(f"{m.id}\t{model.paths[model.src_of(m)]}\t{m.kind}\t"
                  f"{int(m.equivalent is not None)}\t" + re.sub("[\t\n]", " ", m.desc))
    elif cmd in ("tags", "coverage"):
        on = [(m.id, u) for m in model.mutants for u in model.anchored(m)]
        for t in model.tags if cmd == "tags" else [r for r, c in model.rules.items() if c]:
            head = f"{t.name}\t{model.paths[t.src]}:{t.line}" if cmd == "tags" else t
            print(f"{head}\t" + "".join(f" {i}" for i, u in on if (u is t or u.rule == t)))
    elif not args:
        fail(f"mutate {cmd}: needs a mutant id")
    elif not m:
        fail(f"mutate: no mutant '{args[0]}' in {model.def_path}")
    elif cmd == "why":
        print(m.equivalent or "", end="\n" if m.equivalent else "")
    elif cmd == "apply" and len(args) > 1:
        write(args[1], model.mutated(m)[1])
    elif cmd != "show":
        model.mutated(m)  # a mutant that does not apply says so first
        fail("mutate apply: needs an output file" if cmd == "apply"
             else f"mutate: unknown command '{cmd}'\n{USAGE}")
    else:  # the lines that differ, between the common head and tail
        s, text = model.mutated(m)
        o = model.texts[s]
        h = o.rfind("\n", 0, common_prefix(o, text)) + 1
        t = common_prefix(o[h:][::-1], text[h:][::-1])
        while t and o[len(o) - t] != "\n":
            t -= 1
        print(f"{m.id} ({m.kind}, at @{m.edits[0][0]} in {model.paths[s]}): {m.desc}")
        for sign, x in (("-", o), ("+", text)):
            for line in x[h:len(x) - t].split("\n") if h < len(x) - t else []:
                print(f"  {sign} {line}")
    return 0


def main(argv):
    opts, a = {"--ref": "reference", "--rules": "spec/rules.def"}, 1
    while a < len(argv) and argv[a].startswith("-"):
        if argv[a] in ("--help", "-h"):
            print(USAGE, end="")
            return 0
        if a + 1 >= len(argv) or argv[a] not in opts:
            fail(f"mutate: unknown option '{argv[a]}'\n{USAGE}")
        opts[argv[a]] = argv[a + 1]
        a += 2
    if len(argv) - a < 2:
        fail(USAGE.rstrip("\n"))
    cmd, def_path = argv[a], argv[a + 1]
    model = Model(opts["--ref"], opts["--rules"])
    model.parse(def_path)
    if cmd in ("check", "run"):
        ok = model.check()
        if cmd == "run" and not ok:
            print("mutate: 0 passed, 1 failed")
        return run(model, os.environ) if cmd == "run" and ok else int(not ok)
    if model.problems:
        fail(f"mutate: {model.problems} problem(s) in {def_path} "
             f"(run 'mutate check {def_path}')", 1)
    try:
        return command(model, cmd, argv[a + 2:])
    except Broken as e:
        fail(str(e), 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
