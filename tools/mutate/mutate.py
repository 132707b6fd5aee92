#!/usr/bin/env python3
"""tools/mutate/mutate.py - the mutants of tools/mutate/mutants.def (tools/mutate/README.md).

A mutant is anchored to a tag, "@TQI.04.MIN_SIZE" in a comment on the reference line that
implements a rule of the catalogue (spec/rules.def), and changes the code of that line, not a
piece of surrounding text: renaming a parameter, editing a comment or moving a function breaks no
mutant. 'run' is make mutate: every mutant built into one library and run at every version.

Exit status: 0 ok, 1 a mutant, tag or rule is broken (the message says which and what to do),
2 usage or an unreadable file.
"""
import concurrent.futures
import difflib
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import time

USAGE = """usage: mutate [--ref DIR] [--rules FILE] COMMAND DEF [ARGS]
  check DEF            every tag in DIR names a catalogue rule and occurs once; every mutant applies
                       exactly once on its tagged line; every counted rule has a mutant
  list DEF             one line per mutant: id TAB file TAB kind TAB equivalent(0|1) TAB description
  apply DEF ID OUT     write the file of mutant ID, with the mutation applied, to OUT
  apply-each DEF DIR [ID...]  the same for each mutant (or each ID) into DIR/ID/FILE.c
  show DEF ID          the mutant as a small diff
  why DEF ID           the equivalence reason (empty when the mutant is not equivalent)
  tags DEF             every tag: tag TAB file:line TAB the ids of the mutants anchored on its line
  coverage DEF         every counted rule and the mutants anchored on a line tagged with it
  run DEF              mutation testing (make mutate; the MUT_* variables of tools/mutate/run.sh)
options: --ref DIR     the reference sources (default: reference)
         --rules FILE  the rule catalogue (default: spec/rules.def)
A counted rule is one of strength MUST whose provenance is not INFERRED.
"""


class Broken(Exception):
    """A mutant that does not apply; the message says where and why."""


def fail(msg, status=2):
    print(msg, file=sys.stderr)
    sys.exit(status)


def read(path, what=None):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            return f.read()
    except OSError:
        fail(f"mutate: cannot read {what or path}")


def read_rules(path, depth=0):
    """{id: counted} of the RULE("ID", STRENGTH, PROVENANCE, ...) entries of PATH and its #includes"""
    if depth > 4 or not os.path.isfile(path):
        fail(f"mutate: cannot read the rule catalogue {path} (give it with --rules FILE)")
    rules = {}
    for line in read(path).split("\n"):
        inc = re.match(r'[ \t]*#include "([^"]*)"', line)
        if inc:
            rules.update(read_rules(os.path.join(os.path.dirname(path), inc[1]), depth + 1))
        r = re.match(r'[ \t]*RULE\("([^"]*)",\s*([^, \n)]*)[^,]*,\s*([^, \n)]*)', line)
        if r:
            rules[r[1]] = r[2] == "MUST" and r[3] != "INFERRED"
    return rules


# strings and character literals (kept), then comments (masked)
LEXEME = re.compile(r'"(?:\\[\s\S]|[^"\\\n])*"?|\'(?:\\[\s\S]|[^\'\\\n])*\'?|/\*[\s\S]*?(?:\*/|\Z)|//[^\n]*')


def code_only(text):
    """TEXT with every comment (delimiters included) made 0x01 bytes, newlines kept: code is
    matched in it, so no mutant reaches into a comment and comment edits break none"""
    return LEXEME.sub(lambda m: m[0] if m[0][0] in "\"'" else "\n".join("\x01" * len(p) for p in m[0].split("\n")),
                      text)


class Tag:
    def __init__(self, name, rule, src, start, end, line):
        self.name, self.rule, self.src, self.start, self.end, self.line = name, rule, src, start, end, line


def find_tags(text, src=0, code=None):
    """the @RULE.ID[:suffix] tags of TEXT, inside comments only (a sentence's full stop is not
    part of one; a rule id has a dot)"""
    code = code if code is not None else code_only(text)
    tags, line, pos = [], 1, 0
    for m in re.finditer(r"@([A-Z][A-Z0-9_.]*)", text):
        if code[m.start()] != "\x01":
            continue
        line, pos = line + text.count("\n", pos, m.start()), m.start()
        rule = m[1].rstrip(".")
        end = m.start() + 1 + len(rule)
        if rule == m[1]:
            s = re.match(r":[A-Za-z0-9_.\-]+", text[end:])
            end += len(s[0]) if s else 0
        if "." not in rule:
            continue
        start = text.rfind("\n", 0, m.start()) + 1
        eol = text.find("\n", m.start())
        tags.append(Tag(text[m.start() + 1:end], rule, src, start, len(text) if eol < 0 else eol, line))
    return tags


class Mutant:
    def __init__(self, mid, kind, desc, line):
        self.id, self.kind, self.desc, self.line = mid, kind, desc, line
        self.equivalent, self.edits = None, []


class Model:
    def __init__(self, ref_dir, rules_path):
        self.ref_dir, self.rules = ref_dir, read_rules(rules_path)
        if not os.path.isdir(ref_dir):
            fail(f"mutate: cannot open the reference directory {ref_dir} (give it with --ref DIR)")
        names = sorted(n for n in os.listdir(ref_dir) if len(n) > 2 and n.endswith(".c"))
        self.paths = [f"{ref_dir}/{n}" for n in names]
        self.texts = [read(p) for p in self.paths]
        self.codes = [code_only(text) for text in self.texts]
        self.tags = [t for s, text in enumerate(self.texts) for t in find_tags(text, s, self.codes[s])]
        self.named, self.on_line = {}, {}
        for t in self.tags:
            self.named.setdefault(t.name, []).append(t)
            self.on_line.setdefault((t.src, t.line), []).append(t)
        self.mutants, self.problems, self.def_path, self.done, self.found = [], 0, None, {}, {}

    def bad(self, msg):
        print(msg, file=sys.stderr)
        self.problems += 1

    def parse(self, path):
        """the mutants of PATH: a header line each, its changes and its equivalence reason indented"""
        self.def_path, m = path, None
        for lineno, line in enumerate(read(path).split("\n"), 1):
            line = line.rstrip("\r")
            v = line.lstrip(" \t")
            if line.startswith("#") or not v:
                continue
            where = f"{path}:{lineno}"
            if line.startswith("["):
                h = re.match(r"\[([^\]]*)\] (.+?): (.+)", line)
                if not h:
                    self.bad(f"{where}: a mutant starts with '[id] kind: description'")
                    m = None
                    continue
                m = Mutant(h[1], h[2], h[3], lineno)
                self.mutants.append(m)
            elif not m or v == line:
                self.bad(f"{where}: expected '[id] kind: description' or an indented line under it")
            elif v.startswith("equivalent: "):
                if m.equivalent:
                    self.bad(f"{where}: a second 'equivalent:' line")
                else:
                    m.equivalent = v[12:]
            elif not v.startswith("at "):
                self.bad(f"{where}: expected 'at TAG: `FROM` -> `TO`', 'at TAG: move after TAG2' "
                         "or 'equivalent: REASON'")
            else:
                e = re.fullmatch(r"(.*?): (?:move after (.+)|`(.*?)` -> `(.*)`)", v[3:])
                if not e:
                    self.bad(f"{where}: a change is 'at TAG: `FROM` -> `TO`' or 'at TAG: move after TAG2'")
                    continue
                m.edits.append((e[1], e[2], e[3], e[4], lineno))
                err = ("the tag after 'at' is empty" if not e[1] else None if e[2] else "'from' is empty"
                       if not e[3] else "'to' is the same as 'from'" if e[3] == e[4] else None)
                if err:
                    self.bad(f"{where}: mutant {m.id}: {err}")
        seen = {}
        for m in self.mutants:
            if not m.edits:
                self.bad(f"{path}:{m.line}: mutant {m.id} has no change ('at TAG: ...' under it)")
            if m.id in seen:
                self.bad(f"{path}:{m.line}: duplicate mutant id {m.id} (first at line {seen[m.id]})")
            seen.setdefault(m.id, m.line)

    def src_of(self, m):
        """the source that M's changes are in (every change of a mutant is in one file)"""
        s = None
        for at, *_, lineno in m.edits:
            for t in self.named.get(at, []):
                if s is not None and s != t.src:
                    raise Broken(f"{self.def_path}:{lineno}: mutant {m.id}: its changes are in two "
                                 f"files ({self.paths[s]}, {self.paths[t.src]})")
                s = t.src
        if s is None:
            raise Broken(f"{self.def_path}:{m.line}: mutant {m.id}: no tag @{m.edits[0][0] if m.edits else '?'} "
                         f"in {self.ref_dir}/*.c; tag the reference line or fix its 'at' line")
        return s

    def locate(self, text, code, name, m, lineno):
        if text not in self.found:
            self.found[text] = find_tags(text, 0, code)
        hits = [t for t in self.found[text] if t.name == name]
        msg = "; tag the reference line or fix its 'at' line"
        if len(hits) != 1:
            raise Broken(f"{self.def_path}:{lineno}: mutant {m.id}: the tag @{name} occurs {len(hits)} times in its "
                         f"file (must be exactly once){'' if hits else msg}")
        return hits[0]

    def mutated(self, m):
        """(source index, the mutated text of M's file); Broken when it does not apply"""
        if m.id not in self.done:
            self.done[m.id] = self.apply(m)
        return self.done[m.id]

    def apply(self, m):
        s = self.src_of(m)
        text = self.texts[s]
        for at, after, frm, to, lineno in m.edits:
            code = self.codes[s] if text is self.texts[s] else code_only(text)
            t = self.locate(text, code, at, m, lineno)
            if after:
                u = self.locate(text, code, after, m, lineno)
                a0, b0 = t.start, u.start
                a1, b1 = statement_end(text, code, a0), statement_end(text, code, b0)
                if a1 > b0 and b1 > a0:
                    raise Broken(f"{self.def_path}:{lineno}: mutant {m.id}: the statements at @{at} and @{after} overlap")
                # the statement at A moves to just after B: the pieces [lo, mid) and [mid, hi) swap
                lo, mid, hi = (a0, a1, b1) if a0 < b0 else (b1, a0, a1)
                text = text[:lo] + text[mid:hi] + text[lo:mid] + text[hi:]
                continue
            hits = [i for i in range(t.start, t.end - len(frm) + 1) if code.startswith(frm, i)]
            if len(hits) != 1:
                raise Broken(f"{self.def_path}:{lineno}: mutant {m.id}: 'from' occurs {len(hits)} times in the code "
                             f"of the line tagged @{at} (must be exactly once)"
                             f"{'; make it longer' if hits else '; the tagged line changed: update the mutant'}")
            text = text[:hits[0]] + to + text[hits[0] + len(frm):]
        return s, text

    def anchored(self, m):
        """the tags on the lines that M's changes are anchored to"""
        for at, *_ in m.edits:
            for t in self.named.get(at, []):
                yield from self.on_line[(t.src, t.line)]

    def check(self):
        seen = {}
        for t in self.tags:
            where = f"{self.paths[t.src]}:{t.line}: tag @{t.name}"
            if t.rule not in self.rules:
                self.bad(f"{where}: no rule {t.rule} in the catalogue; use a rule id of spec/rules/*.def")
            if t.name in seen:
                f = seen[t.name]
                self.bad(f"{where} also at {self.paths[f.src]}:{f.line}; make it unique with a suffix (@{t.name}:NAME)")
            seen.setdefault(t.name, t)
        for m in self.mutants:
            if not m.edits:
                continue  # reported by parse
            try:
                s, text = self.mutated(m)
                if text == self.texts[s]:
                    self.bad(f"{self.def_path}:{m.line}: mutant {m.id} changes nothing")
            except Broken as e:
                self.bad(str(e))
        hit = {t.rule for m in self.mutants for t in self.anchored(m)}
        counted = [r for r, c in self.rules.items() if c]
        for r in counted:
            if r not in hit:
                self.bad(f"{self.def_path}: counted rule {r} has no mutant: tag the reference line that implements "
                         "it and add a mutant with an 'at' line on it")
        if self.problems:
            print(f"mutate check: {self.problems} problem(s) in {self.def_path} against {self.ref_dir}/*.c", file=sys.stderr)
            return False
        eq = sum(m.equivalent is not None for m in self.mutants)
        print(f"mutate check: {len(self.mutants)} mutants ({eq} listed as equivalent), each applies exactly once to "
              f"{self.ref_dir}/*.c; {len(self.tags)} tags, each names a rule; {len(counted)} counted rules, each "
              "with a mutant")
        return True


def statement_end(text, code, i):
    """the end of the statement that begins at I: after its ';' or its block's '}', then to the end
    of that line (its newline included)"""
    depth = 0
    while i < len(text):
        ch = code[i]
        if ch in "\"'":
            i += 1
            while i < len(text) and text[i] != ch:
                i += 2 if text[i] == "\\" else 1
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth <= 0 and ch == "}":
                j = i + 1
                while j < len(code) and code[j] in " \t\n\x01":
                    j += 1
                if code[j:j + 1] not in (";", ",", ")"):
                    break
        elif ch == ";" and depth == 0:
            break
        i += 1
    eol = text.find("\n", i)
    return len(text) if eol < 0 else eol + 1


def masked(text):
    """code_only(TEXT) with string and character literals and preprocessor lines masked too"""
    code = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', lambda m: "_" * len(m[0]), code_only(text))
    return re.sub(r"^[ \t]*#(?:\\\n|.)*", lambda m: re.sub("[^\n]", " ", m[0]), code, flags=re.M)


def items(code):
    """the top-level declarations and function definitions of CODE: (start, end, body start or None)"""
    out, depth, start, body = [], 0, None, None
    for m in re.finditer(r"[()\[\]{};]", code):
        i, ch = m.start(), m[0]
        if depth == 0 and start is None:
            start, body = re.compile(r"[^ \t\n\x01]").search(code, out[-1][1] if out else 0).start(), None
        if ch in "([{":
            if ch == "{" and depth == 0 and code[:i].rstrip(" \t\n\x01").endswith(")"):
                body = i
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0 and ch == "}" and body is not None:
                out.append((start, i + 1, body))
                start = None
        elif depth == 0:
            out.append((start, i + 1, None))
            start = None
    return out


def blocks(code, its):
    """the compound statements of CODE's functions, as (start, end), that can be put in an if: not an
    initializer, and without a case label of an enclosing switch (conservatively: without any)"""
    out = []
    for _, e, b in (it for it in its if it[2] is not None):
        stack, closed = [], ""  # open brackets: (bracket, position, statement block | word before it)
        for m in re.finditer(r"[{}()]", code[b:e]):
            i, ch, prev = b + m.start(), m[0], code[b:b + m.start()].rstrip(" \t\n\x01")
            if ch == "(":
                stack.append(("(", i, re.search(r"\w*$", prev)[0]))
            elif ch == ")":
                closed = stack.pop()[2]
            elif ch == "{":
                stack.append(("{", i, i == b or stack[-1][:1] == ("{",) and stack[-1][2] is True and (
                    prev[-1] in ";{}:" or re.search(r"\b(else|do)$", prev) is not None
                    or prev[-1] == ")" and closed in ("if", "for", "while", "switch"))))
            else:
                _, s, stmt = stack.pop()
                if stmt is True and not re.search(r"\b(case\b|default\s*:)", code[s + 1:i]) or s == b:
                    out.append((s, i + 1))
    return out


def schema(orig, variants):
    """ORIG with every mutant of VARIANTS [(number, mutated text)] selectable at run time through
    etwref_mutant_: the innermost block of a function that holds all a mutant's changes gets the
    mutated block as a branch in front of it; a file-scope object that a mutant changes gets a
    renamed copy, and its name becomes a macro that picks one. Returns the text and the numbers of
    the mutants that change anything else (those are built on their own)."""
    code = masked(orig)
    its, alone, branches, copies = items(code), [], {}, {}
    blks = sorted(blocks(code, its), key=lambda se: se[1] - se[0])
    gaps = [orig[a:b] for a, b in zip([0] + [e for _, e, _ in its], [s for s, _, _ in its] + [len(orig)])]
    for k, text in variants:
        head = len(os.path.commonprefix([orig, text]))
        tail = len(os.path.commonprefix([orig[:head - 1:-1], text[:head - 1:-1]]))
        blk = next(((s, e) for s, e in blks if s < head and e > len(orig) - tail), None)
        if blk:
            branches.setdefault(blk, []).append(f"if (etwref_mutant_ == {k}) {text[blk[0]:len(text) - len(orig) + blk[1]]}"
                                                "\nelse ")
            continue
        mits, changes = items(masked(text)), []
        mgaps = [text[a:b] for a, b in zip([0] + [e for _, e, _ in mits], [s for s, _, _ in mits] + [len(text)])]
        for i, ((s, e, b), (ms, me, mb)) in enumerate(zip(its, mits) if gaps == mgaps else []):
            name = re.match(r"[^=,;]*?(\w+)\s*(?:\[[^\]]*\]\s*)*=", text[ms:me])
            if orig[s:e] == text[ms:me]:
                continue
            if not (b is None and mb is None and name and re.match(rf"[^=]*\b{name[1]}\b", orig[s:e])):
                break
            decl = text[ms:me]
            changes.append((i, (name[1], k, decl[:name.start(1)] + f"{name[1]}__m{k}" + decl[name.end(1):])))
        else:
            if changes:
                for i, c in changes:
                    copies.setdefault(i, []).append(c)
                continue
        alone.append(k)

    def emit(a, b):
        """ORIG[a:b] with the branches of the blocks in it"""
        out = []
        for s, e in sorted(blk for blk in branches if a <= blk[0] and blk[1] <= b):
            if s >= a:
                out += [orig[a:s], "{\n", *branches[(s, e)], emit(s + 1, e - 1).join("{}"), "\n}"]
                a = e
        return "".join(out + [orig[a:b]])

    out = ["extern int etwref_mutant_;\n"]
    for i, (s, e, _) in enumerate(its):
        out += [gaps[i], emit(s, e)]
        if i in copies:
            name = copies[i][0][0]
            pick = "".join(f"etwref_mutant_ == {k} ? &{n}__m{k} : " for n, k, _ in copies[i])
            out += [*(f"\n{decl}" for _, _, decl in copies[i]), f"\n#define {name} (*({pick}&{name}))\n"]
    return "".join(out + [gaps[-1]]), alone


# the mutant number a build of the schemata runs, from the environment, before any other constructor
SELECTOR = """#include <stdlib.h>
int etwref_mutant_;
__attribute__((constructor(101))) static void etwref_mutant_init_(void)
{
    const char *s = getenv("ETWREF_MUTANT");
    etwref_mutant_ = s ? atoi(s) : 0;
}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def build(model, selected, w, cc_flags, ref_objs):
    """{mutant number: (library, build error or None)}: the schemata of every file in one library,
    and a library of its own for each mutant that changes more than function bodies"""
    mutant, files = dict(selected), {}
    for k, m in selected:
        files.setdefault(model.src_of(m), []).append(k)
    libs, shared = [], list(ref_objs)
    for s, ks in sorted(files.items()):
        name = os.path.basename(model.paths[s])
        obj = f"{os.path.dirname(ref_objs[0])}/{name[:-2]}.o"
        text, alone = schema(model.texts[s], [(k, model.mutated(mutant[k])[1]) for k in ks])
        write(f"{w}/{name}", text)
        shared[shared.index(obj)] = f"{w}/{name}"
        for k in alone:
            write(f"{w}/{k}/{name}", model.mutated(mutant[k])[1])
            libs.append(([k], f"{w}/{k}/mutant.so", [f"{w}/{k}/{name}"] + [o for o in ref_objs if o != obj]))
    write(f"{w}/selector.c", SELECTOR)
    alone = {k for ks, _, _ in libs for k in ks}
    libs.append(([k for k, _ in selected if k not in alone], f"{w}/mutants.so", shared + [f"{w}/selector.c"]))
    built = {}
    for ks, lib, inputs in libs:
        p = subprocess.run(cc_flags + ["-o", lib] + inputs + ["-lpthread"], capture_output=True, text=True)
        err = p.returncode and next((ln for ln in p.stderr.split("\n") if "error" in ln.lower()), p.stderr[:200])
        built.update({k: (lib, err) for k in ks})
    return built


KILL = re.compile(r'^\{"type":"case","seq":[0-9]*,"id":"([^"]*)".*"status":"(FAIL|CRASH|TIMEOUT)","counted":(true|false)')


def run_one(etwconf, vlist, k, lib, err, d):
    """build mutant K's verdict: (STATUS, failing case runs, detail)"""
    if err:
        return "ERROR", 0, f"does not build: {err}"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/run.log", "w") as log:
        rc = subprocess.run([etwconf, "run", "--target", lib, "--emulate", vlist, "--quiet", "--isolation", "fallback",
                             "--timeout-ms", "2000", "--stop-on-counted", "--out-dir", f"{d}/out"],
                            stdout=subprocess.DEVNULL, stderr=log, env=dict(os.environ, ETWREF_MUTANT=str(k))).returncode
    # the versions in one run, newest first, until one counts a failure: a mutant is killed by its
    # first counted failure (a survivor runs at every version). In process, as the built-in
    # reference runs, until a crash, hang or overrun; worker processes from then on
    # the versions whose summary line (stderr) counts no failure, crash or timeout are not read
    with open(f"{d}/run.log", encoding="utf-8", errors="replace") as log:
        clean = re.findall(r" 0 failed, .* 0 crashed, 0 timed out; .* -> (.*)", log.read())
    kills, n, counted = [], 0, 0
    for path in sorted(set(glob.glob(f"{d}/out/*.jsonl")) - set(clean)):
        version = re.sub(r"^.*?\.so-|\.jsonl$", "", os.path.basename(path))
        with open(path, "rb") as f:
            data = f.read()
        lines = {data.rfind(b"\n", 0, m.start()) + 1 for m in re.finditer(rb'"status":"(FAIL|CRASH|TIMEOUT)"', data)}
        for start in sorted(lines):
            end = data.find(b"\n", start)
            r = KILL.match(data[start:end if end >= 0 else None].decode("utf-8", "replace"))
            if r:
                n += 1
                counted += r[3] == "true"
                if n <= 3:
                    kills.append(f" {r[1]}@{version}({r[2]}{',counted' if r[3] == 'true' else ''})")
    if rc > 1 and n == 0:
        return "ERROR", 0, f"etwconf run exited {rc}"
    if n:
        return "KILLED", n, ("counted:" if counted else "uncounted:") + "".join(kills)
    return "SURVIVED", 0, ""


def run(model, env):
    """make mutate: every mutant wanted (MUT_FILTER) built and run; the score and build/mutate/report.md"""
    b, def_path = env.get("MUT_BUILD", "build"), model.def_path
    cflags = env.get("MUT_CFLAGS", "-std=c11 -O2 -I. -D_GNU_SOURCE -fPIC -fvisibility=hidden -w")
    versions, filt = env.get("MUT_VERSIONS", "all"), env.get("MUT_FILTER", "*")
    vlist = env.get("MUT_VLIST")
    if not vlist:
        # the versions of MUT_FIRST first (those that kill the most mutants), then the others newest first
        listed = subprocess.run([f"{b}/etwconf", "versions"], capture_output=True, text=True).stdout.split("\n")
        listed = [ln.split()[0] for ln in reversed(listed) if ln.strip()]
        wanted, first = listed if versions == "all" else versions.split(), env.get("MUT_FIRST", "").split()
        if set(first) - set(listed):
            print(f"ERROR    MUT_FIRST names versions that etwconf versions does not: {set(first) - set(listed)}")
            print("mutate: 0 passed, 1 failed")
            return 1
        first = [v for v in first if v in wanted]
        vlist = ",".join(first + [v for v in wanted if v not in first])
    start, w = time.time(), f"{b}/mutate/work"
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    # the equivalent ones first: they run at every version, the longest jobs, so they do not come
    # last and leave a CPU idle at the end
    selected = [(k, m) for k, m in enumerate(model.mutants, 1) if any(fnmatch.fnmatchcase(m.id, p) for p in filt.split())]
    cc_flags = env.get("MUT_CC", "cc").split() + cflags.split() + ["-pipe", "-shared", "-Wl,-Bsymbolic"] + \
        env.get("MUT_LDFLAGS", "").split()
    built = build(model, selected, w, cc_flags, sorted(glob.glob(f"{b}/obj/reference/*.o"))) if selected else {}
    order = sorted(selected, key=lambda km: km[1].equivalent is None)
    with concurrent.futures.ThreadPoolExecutor(int(env.get("MUT_JOBS", "1"))) as pool:
        verdict = dict(zip([m.id for _, m in order], pool.map(
            lambda km: run_one(f"{b}/etwconf", vlist, km[0], *built[km[0]], f"{w}/{km[1].id}"), order)))
    for lib in {lib for lib, err in built.values() if not err}:
        os.remove(lib)

    rep = [f"# Mutation testing report\n\nMutants: `{def_path}`. Each was run as a target at: {vlist} (in that "
           "order, until a version counts a failure).\nKILLED = some case FAILed, CRASHed or TIMED OUT at some "
           "version (counted: a counted failure among them).\n\n| mutant | kind | result | first kills |\n|---|---|---|---|"]
    count = dict.fromkeys(["killed", "counted", "survived", "eqs", "eqkilled", "errors"], 0)
    surv, eqs, bad = [], [], []
    for k, m in selected:
        st, n, detail = verdict[m.id]
        eq = m.equivalent is not None
        if st == "KILLED" and eq:
            count["eqkilled"] += 1
            bad.append(f"EQUIV-KILLED {m.id}: listed as equivalent, but killed by{detail}")
            line = bad[-1]
        elif st == "KILLED":
            count["killed"] += 1
            count["counted"] += detail.startswith("counted:")
            kind, kills = detail.split(":", 1)
            line = f"KILLED   {m.id} ({n} failing case runs; {kind}):{kills}"
        elif st == "SURVIVED" and eq:
            count["eqs"] += 1
            line = f"EQUIV    {m.id}: {m.equivalent}"
            eqs.append(f"- `{m.id}` ({m.desc}): {m.equivalent}")
        elif st == "SURVIVED":
            count["survived"] += 1
            line = f"SURVIVED {m.id} ({m.kind}): {m.desc}"
            surv.append(f"- `{m.id}` ({m.kind}, {model.paths[model.src_of(m)]}): {m.desc}")
            bad.append(line)
        else:
            count["errors"] += 1
            line = f"ERROR    {m.id}: {detail}"
            bad.append(line)
        print(line)
        rep.append(f"| `{m.id}` | {m.kind} | {st}{' (equivalent)' if eq else ''} | {detail.replace('|', chr(92) + '|')} |")
    # no mutant run is no score: a filter that matches none, or an empty list, fails
    if not selected:
        count["errors"] = 1
        bad.append(f"ERROR    no mutant of {def_path} matches MUT_FILTER '{filt}': nothing was tested")
    c = count
    scored = c["killed"] + c["survived"] + c["errors"]
    score = f"{100 * c['killed'] / scored:.1f}" if scored else "0.0"
    rep += ["", "## Score", "", f"{c['killed']} of {scored} non-equivalent mutants killed ({score}%); {c['counted']} of "
            "them by a counted failure.", f"{c['eqs']} mutants listed as equivalent (not in the score).", "",
            "## Survivors", "", *(surv or ["None."]), "", "## Equivalent mutants", "", *(eqs or ["None."])]
    write(f"{b}/mutate/report.md", "\n".join(rep) + "\n")
    failed = c["survived"] + c["eqkilled"] + c["errors"]
    print(f"\nmutation score: {c['killed']}/{scored} non-equivalent mutants killed ({score}%), {c['counted']} by a "
          f"counted failure; {c['eqs']} equivalent; {int(time.time() - start)}s")
    print("problems:\n" + "\n".join(bad) if bad else "", end="\n" if bad else "")
    print(f"report: {b}/mutate/report.md\nmutate: {c['killed']} passed, {failed} failed, {c['eqs']} skipped")
    return 1 if failed else 0


def main(argv):
    ref_dir, rules_path, a = "reference", "spec/rules.def", 1
    while a < len(argv) and argv[a].startswith("-"):
        if argv[a] in ("--help", "-h"):
            print(USAGE, end="")
            return 0
        if a + 1 >= len(argv) or argv[a] not in ("--ref", "--rules"):
            fail(f"mutate: unknown option '{argv[a]}'\n{USAGE}")
        ref_dir, rules_path = (argv[a + 1], rules_path) if argv[a] == "--ref" else (ref_dir, argv[a + 1])
        a += 2
    if len(argv) - a < 2:
        fail(USAGE.rstrip("\n"))
    cmd, def_path, args = argv[a], argv[a + 1], argv[a + 2:]
    model = Model(ref_dir, rules_path)
    model.parse(def_path)
    if cmd in ("check", "run"):
        if not model.check():
            if cmd == "run":
                print("mutate: 0 passed, 1 failed")
            return 1
        return run(model, os.environ) if cmd == "run" else 0
    if model.problems:
        fail(f"mutate: {model.problems} problem(s) in {def_path} (run 'mutate check {def_path}')", 1)
    try:
        if cmd == "list":
            for m in model.mutants:
                desc = re.sub("[\t\n]", " ", m.desc)
                print(f"{m.id}\t{model.paths[model.src_of(m)]}\t{m.kind}\t{int(m.equivalent is not None)}\t{desc}")
        elif cmd == "tags":
            for t in model.tags:
                ids = "".join(f" {m.id}" for m in model.mutants for u in model.anchored(m) if u is t)
                print(f"{t.name}\t{model.paths[t.src]}:{t.line}\t{ids}")
        elif cmd == "coverage":
            for r in (r for r, counted in model.rules.items() if counted):
                print(f"{r}\t" + "".join(f" {m.id}" for m in model.mutants for u in model.anchored(m) if u.rule == r))
        elif cmd == "apply-each":
            if not args:
                fail("mutate apply-each: needs an output directory")
            ids, bad = set(args[1:]), 0
            for m in model.mutants:
                if m.id in ids or not ids:
                    try:
                        s, text = model.mutated(m)
                        write(f"{args[0]}/{m.id}/{os.path.basename(model.paths[s])}", text)
                    except (Broken, OSError) as e:
                        print(e, file=sys.stderr)
                        bad = 1
            missing = ids - {m.id for m in model.mutants}
            if missing:
                print(f"mutate: {len(missing)} of the ids given are not in {def_path}", file=sys.stderr)
            return 1 if bad or missing else 0
        else:
            if not args:
                fail(f"mutate {cmd}: needs a mutant id")
            m = next((m for m in model.mutants if m.id == args[0]), None)
            if not m:
                fail(f"mutate: no mutant '{args[0]}' in {def_path}")
            if cmd == "why":
                print(m.equivalent, end="\n") if m.equivalent else None
                return 0
            s, text = model.mutated(m)
            if cmd == "show":
                print(f"{m.id} ({m.kind}, at @{m.edits[0][0]} in {model.paths[s]}): {m.desc}")
                for line in difflib.unified_diff(model.texts[s].split("\n"), text.split("\n"), n=0, lineterm=""):
                    if line[:1] in "+-" and line[:3] not in ("+++", "---"):
                        print(f"  {line[0]} {line[1:]}")
            elif cmd == "apply":
                if len(args) < 2:
                    fail("mutate apply: needs an output file")
                write(args[1], text)
            else:
                fail(f"mutate: unknown command '{cmd}'\n{USAGE}")
    except Broken as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
