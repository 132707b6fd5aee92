"""Calibration: what runs on real Windows (results header `target.impl` = `windows`) say about
the rule model, and per-build baselines; the commands are in harness/windows/README.md. For every
rule and every machine kind ("build": the Windows build, the product type and the process and
native architectures, e.g. `10.0.20348-server-x86_64`) a rule is

  confirmed      at least one case exercised it and it held (a PASS case citing it, or a passing
                 check of a FAIL case), and no case contradicts it;
  contradicted   a failing check cites it (FAIL), or a case citing it crashed or timed out;
  not exercised  every case citing it was skipped or broken there, or none ran.

A difference from the model is written down, never absorbed: the per-build expectation file lists
every failing case of that build with the rules it contradicts and a why, so that `check` accepts
it from real Windows of exactly that build (target.version, arch, native_arch, product_type) and
from nothing else, the equivalent of Wine's broken(). Baselines are the same files, kept in
baselines/windows/KEY.json.
"""
import json
import os
import re
from collections import Counter

from . import expectations
from .ingest import InputError
from .util import oneline, plural

SHORT = {"confirmed": "confirmed", "contradicted": "CONTRADICTED", "not exercised": "-"}
NO_RUN_NOTE = ("No real run has been folded in yet: this file only names the machine kind. "
               "Fold a complete run in with `etwconf-report baseline update RESULTS.jsonl`.")


def _clean_part(s):
    return re.sub(r"[^A-Za-z0-9._]+", "_", str(s)).strip("_") or "unknown"


def kind_key(version, product_type, arch, native_arch):
    """10.0.20348-server-x86_64, 10.0.26100-workstation-i686-on-aarch64."""
    key = "-".join(_clean_part(p) for p in (version, product_type or "unknown", arch))
    if native_arch and native_arch != arch:
        key += "-on-" + _clean_part(native_arch)
    return key


class Kind:
    """The machine kind of a live Windows run: build, product type, process and native arch."""

    def __init__(self, run):
        def string(obj, key):
            return obj.get(key) if isinstance(obj.get(key), str) else None
        fp = run.header.get("fingerprint") or {}
        self.version = run.version_name            # 10.0.20348 (from target_id)
        self.product_type = string(fp, "product_type")
        self.arch = run.arch or "unknown"
        # only what the fingerprint says goes into the file's target (check matches it there);
        # older results without it are named by the host's arch
        self.fp_native = string(fp, "native_arch")
        self.native_arch = self.fp_native if self.fp_native is not None else \
            string(run.header.get("host") or {}, "arch")
        self.key = kind_key(self.version, self.product_type, self.arch, self.native_arch)

    def target(self):
        t = {"impl": "windows", "arch": self.arch, "version": self.version}
        if self.fp_native:
            t["native_arch"] = self.fp_native
        if self.product_type:
            t["product_type"] = self.product_type
        return t


def live_runs(runs, note):
    """The runs of real Windows; others are named and left out. None at all is an error."""
    for r in runs:
        if r.impl != "windows":
            note("note: %s (%s) left out: calibration needs runs on real Windows "
                 "(target.impl windows), this is %s" % (oneline(r.label), oneline(r.path),
                                                         oneline(r.impl)))
    live = [r for r in runs if r.impl == "windows"]
    if not live:
        raise InputError(runs[0].path, None, "none of the results files is a run on real Windows "
                         "(target.impl windows)", "pass the results of etwconf.exe run on Windows")
    return live


def group_by_kind(runs):
    """[(Kind, runs)] in the order of their first run."""
    kinds = {}
    for r in runs:
        k = Kind(r)
        kinds.setdefault(k.key, (k, []))[1].append(r)
    return list(kinds.values())


def case_evidence(case):
    """{rule: 'confirmed' | 'contradicted'} for one case record (rules it did not exercise
    are absent)."""
    st = case["status"]
    ev = {}
    if st == "PASS":
        ev = dict.fromkeys(case["rules"] + [c["rule"] for c in case.get("checks") or ()
                                            if c.get("rule")], "confirmed")
    elif st == "FAIL":
        for c in case.get("checks") or ():
            rid = c.get("rule")
            if rid and c.get("ok") and ev.get(rid) != "contradicted":
                ev[rid] = "confirmed"
        for rid in case.get("failed_rules") or ():
            ev[rid] = "contradicted"
    elif st in ("CRASH", "TIMEOUT"):
        ev = dict.fromkeys(case["rules"], "contradicted")
    return ev


class RuleState:
    __slots__ = ("verdict", "confirming", "contradicting")

    def __init__(self):
        self.verdict = "not exercised"
        self.confirming = []        # case records
        self.contradicting = []


def verdicts(runs):
    """{rule id: RuleState} over the runs of one machine kind."""
    out = {}
    for run in runs:
        for case in run.cases:
            for rid, what in case_evidence(case).items():
                s = out.setdefault(rid, RuleState())
                (s.contradicting if what == "contradicted" else s.confirming).append(case)
    for s in out.values():
        s.verdict = "contradicted" if s.contradicting else \
            "confirmed" if s.confirming else "not exercised"
    return out


def _evidence_text(case, rid):
    st = case["status"]
    if st in ("CRASH", "TIMEOUT"):
        return "%s %s%s" % (case["id"], st, " " + case["exception"] if case.get("exception")
                            else "")
    for c in case.get("checks") or ():
        if c.get("rule") == rid and not c.get("ok"):
            return "%s: %s: expected %s, got %s" % (case["id"], c.get("what") or "check",
                                                    c.get("expected"), c.get("got"))
    return "%s %s" % (case["id"], st)


def expectation_doc(kind, runs, old=None):
    """The per-build expectations document for one machine kind (kept entries keep their why)."""
    doc = expectations.generate(runs, "windows", kind.arch, old)
    doc["target"] = kind.target()
    for e in doc["entries"]:
        if e["why"] != expectations.TODO_WHY:
            continue
        case = next((r.by_id[e["case"]] for r in runs if e["case"] in r.by_id), None)
        rules = sorted(r for r, w in case_evidence(case).items() if w == "contradicted") \
            if case else []
        e["contradicts"] = rules
        e["why"] = "%s: real Windows %s does this; the model expects otherwise (%s). Fix the " \
                   "rule, or keep this as a quirk of this build and say why" % (
                       expectations.TODO_WHY, kind.key, " ".join(rules) or e["status"])
    folded = list(doc.get("runs") or []) if isinstance(doc.get("runs"), list) else []
    for r in runs:
        fp = r.header.get("fingerprint") or {}
        meta = {"target_id": r.target_id, "ubr": fp.get("ubr"),
                "product_name": fp.get("product_name"), "elevated": fp.get("elevated"),
                "exe_sha256": fp.get("exe_sha256"),
                "suite_git": (r.header.get("suite") or {}).get("git"),
                "started": r.header.get("started"), "cases": len(r.cases)}
        if meta not in folded:
            folded.append(meta)
    doc.pop("note", None)
    doc["runs"] = folded
    # keep "entries" last (the stable layout puts it last anyway)
    doc["entries"] = doc.pop("entries")
    return doc


def load_old(path):
    return expectations.load(path) if os.path.exists(path) else None


def has_runs(exp):
    runs = exp.doc.get("runs")
    return isinstance(runs, list) and len(runs) > 0


def fold(kind, runs, out_dir):
    """Write DIR/KEY.json of one machine kind from its runs, keeping what the file there says
    (an empty placeholder, no run folded in, has nothing to keep): (path, document, old file)."""
    path = os.path.join(out_dir, kind.key + ".json")
    old = load_old(path)
    old = old if old is not None and has_runs(old) else None
    doc = expectation_doc(kind, runs, old)
    os.makedirs(out_dir, exist_ok=True)
    expectations.write(doc, path)
    return path, doc, old


def calibrate(runs, catalog, out_dir, write, note):
    """Print the per-rule table and the lists; write DIR/KEY.json per machine kind.
    Returns the number of counted rules contradicted."""
    live = live_runs(runs, note)
    for r in live:
        if not r.complete:
            note("warning: %s is incomplete (%s): cases it did not reach count as not exercised"
                 % (r.path, r.incomplete_reason))
    groups = group_by_kind(live)
    per_kind = [(k, rs, verdicts(rs)) for k, rs in groups]
    ids = [r["id"] for r in catalog.rules]
    ids += sorted({r for _, _, st in per_kind for r in st} - set(ids))
    print("calibrate: %s of real Windows, %s:" % (plural(len(live), "run"),
                                                   plural(len(groups), "machine kind")))
    for i, (k, rs, _) in enumerate(per_kind, 1):
        print("  [%d] %s: %s" % (i, k.key, ", ".join("%s (%s%s)" % (
            oneline(r.target_id), oneline(r.path), "" if r.complete else ", INCOMPLETE")
            for r in rs)))
    w = max(len(i) for i in ids) if ids else 10
    print("%-*s  %-8s %-9s  %s" % (w, "rule", "strength", "source",
                                    "  ".join("%-13s" % ("[%d]" % i)
                                              for i in range(1, len(per_kind) + 1))))
    # each rule's state on each machine kind (a RuleState of nothing: no case cites it there)
    table = {rid: [st.get(rid) or RuleState() for _, _, st in per_kind] for rid in ids}
    for rid in ids:
        r = catalog.get(rid)
        print("%-*s  %-8s %-9s  %s" % (w, rid, r["strength"] if r else "?",
                                        r["provenance"] if r else "(unknown)", "  ".join(
                                            "%-13s" % SHORT[s.verdict] for s in table[rid])))
    for i, (k, _, _) in enumerate(per_kind):
        t = Counter(table[rid][i].verdict for rid in ids)
        print("calibrate: [%d] %s: %d confirmed, %d contradicted, %d not exercised" % (
            i + 1, k.key, t["confirmed"], t["contradicted"], t["not exercised"]))
    # promotion candidates and contradicted counted rules
    promo, wrong = [], []
    for rid in ids:
        r = catalog.get(rid)
        states = list(zip((k.key for k, _, _ in per_kind), table[rid]))
        where_ok = [key for key, s in states if s.verdict == "confirmed"]
        where_bad = [(key, s) for key, s in states if s.verdict == "contradicted"]
        if r and r["provenance"] in ("OBSERVED", "INFERRED") and where_ok and not where_bad:
            promo.append((rid, r, where_ok))
        if r and catalog.counted(rid) and where_bad:
            wrong.append((rid, r, where_bad))
    print("promotion candidates: %s (OBSERVED or INFERRED, confirmed on real Windows and "
          "contradicted nowhere)" % plural(len(promo), "rule"))
    for rid, r, where in promo:
        print("  %s [%s, %s]: confirmed on %s" % (rid, r["strength"], r["provenance"],
                                                  ", ".join(where)))
    print("contradicted counted rules: %s (the model is wrong there, or that build has a quirk "
          "to record with its why)" % plural(len(wrong), "rule"))
    for rid, r, where in wrong:
        for key, s in where:
            print("  %s [%s, %s] on %s: %s" % (rid, r["strength"], r["provenance"], key,
                                               oneline(_evidence_text(s.contradicting[0], rid),
                                                       300)))
    for k, rs, _ in per_kind if write else ():
        path, doc, _ = fold(k, [r for r in rs if r.complete] or rs, out_dir)
        todo = sum(1 for e in doc["entries"] if e["why"].startswith(expectations.TODO_WHY))
        print("calibrate: wrote %s: %s (%d need a why); check with `etwconf-report check "
              "--expectations %s RESULTS.jsonl`" % (path, plural(len(doc["entries"]), "entry",
                                                                  "entries"), todo, path))
    return len(wrong)


def baseline_update(runs, base_dir, note):
    live = live_runs(runs, note)
    done = 0
    for k, rs in group_by_kind(live):
        for r in rs:
            if not r.complete:
                note("warning: %s is incomplete (%s): not folded in; run it again"
                     % (r.path, r.incomplete_reason))
        good = [r for r in rs if r.complete]
        if not good:
            continue
        path, doc, old = fold(k, good, base_dir)
        done += 1
        print("baseline: %s %s: %s from %s; review the whys, then commit it" % (
            "updated" if old else "wrote", path, plural(len(doc["entries"]), "entry", "entries"),
            plural(len(good), "run")))
    if not done:
        raise InputError(live[0].path, None, "no complete run to fold in",
                         "run etwconf.exe to the end, then update")
    return 0


def baseline_check(runs, base_dir, require, note):
    """Exit 1 on a regression (or an incomplete run); 0 otherwise."""
    live = live_runs(runs, note)
    regressions = nobase = incomplete = checked = 0
    for r in live:
        k = Kind(r)
        path = os.path.join(base_dir, k.key + ".json")
        head = "baseline: %s (%s) as %s" % (oneline(r.target_id), oneline(r.path), k.key)
        if not r.complete:
            incomplete += 1
            print("%s: INCOMPLETE run (%s)" % (head, r.incomplete_reason))
        exp = load_old(path)
        if exp is None or not has_runs(exp):
            nobase += 1
            print("%s: NO BASELINE yet (%s); nothing to compare with. Fold this run in with "
                  "`etwconf-report baseline update --dir %s %s` and commit the file" % (
                      head, "no file %s" % path if exp is None else "%s has no run folded in"
                      % path, base_dir, oneline(r.path)))
            continue
        if not exp.applies_to(r):
            raise InputError(path, None, "its target %s does not match %s"
                             % (json.dumps(exp.doc["target"]), r.target_id),
                             "the file name must be the machine kind of its target")
        checked += 1
        outs = expectations.evaluate(r, exp)
        reg = [o for o in outs.values() if o.kind in ("UNEXPECTED", "CHANGED")]
        imp = [o for o in outs.values() if o.kind == "XPASS"]
        regressions += len(reg)
        print("%s: %s, %d now passing, %d as in the baseline %s" % (
            head, plural(len(reg), "regression"), len(imp),
            sum(1 for o in outs.values() if o.kind in ("OK", "XFAIL", "SKIP")), path))
        for o in sorted(reg, key=lambda o: o.case["id"]):
            print("  REGRESSION %s: %s" % (o.case["id"], oneline(o.detail, 400)))
            if o.case.get("rerun"):
                print("             rerun: %s" % oneline(o.case["rerun"]))
        for o in sorted(imp, key=lambda o: o.case["id"]):
            print("  now passes %s (the baseline expected %s); fold it in with baseline update"
                  % (o.case["id"], o.entry.describe()))
    bad = regressions + incomplete + (nobase if require else 0)
    print("baseline: %s checked, %s, %d incomplete, %d without a baseline%s" % (
        plural(checked, "run"), plural(regressions, "regression"), incomplete, nobase,
        " (--require: counted as failures)" if require and nobase else ""))
    return 1 if bad else 0


def baseline_init(base_dir, specs):
    """Write empty placeholder files for machine kinds given as KEY=target-json or as
    VERSION,PRODUCT,ARCH[,NATIVE]."""
    for spec in specs:
        parts = spec.split(",")
        if len(parts) not in (3, 4):
            raise InputError(spec, None, "expected VERSION,PRODUCT_TYPE,ARCH[,NATIVE_ARCH]",
                             "e.g. 10.0.20348,server,i686,x86_64")
        t = {"impl": "windows", "arch": parts[2], "version": parts[0],
             "native_arch": parts[3] if len(parts) == 4 else parts[2], "product_type": parts[1]}
        key = kind_key(parts[0], parts[1], parts[2], t["native_arch"])
        path = os.path.join(base_dir, key + ".json")
        if os.path.exists(path):
            print("baseline: %s exists; left alone" % path)
            continue
        os.makedirs(base_dir, exist_ok=True)
        expectations.write({"schema": expectations.SCHEMA, "target": t, "note": NO_RUN_NOTE,
                            "runs": [], "entries": []}, path)
        print("baseline: wrote %s (no run folded in yet)" % path)
    return 0
