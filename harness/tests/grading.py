#!/usr/bin/env python3
"""harness/tests/grading.py ETWCONF - the grading audit holds.

1. spec/grading-audit.md names each rule at most once, every rule it names is in the catalogue,
   its "grade" column is the catalogue's grade (a later regrade is made in both places, with its
   reason), and it covers the catalogue as audited (a rule added since carries its evidence in its
   own source and note, and needs no row).
2. No INFERRED rule is counted, and every rule the audit calls OBSERVED from decompilation alone
   ("Decompilation only") is not counted either.
3. A counted check never rests on a code no source gives: every return-code check of a reference
   run (every version) that cites a counted rule expects a code that rule names in its `codes`
   (or success). A code that only decompilation gives belongs to a rule of its own (RC_RULE), with
   FAILS() keeping the counted refusal.
Prints "grading: N passed, N failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "spec"), HERE]
import rules  # noqa: E402
from checks import CHECKS, say as ok  # noqa: E402

SUCCESS = ("ERROR_SUCCESS", "STATUS_SUCCESS")


def audit_rows(path):
    """The audit table's rows by rule, the rules named twice, and the table's lines (its planned
    size): the table is the one whose header starts "| rule |"."""
    rows, dups, lines, in_table = {}, [], 0, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("| rule |"):
                in_table = True
                continue
            in_table = in_table and line.startswith("|")
            if not in_table or not line.startswith("| "):
                continue
            lines += 1
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if len(cells) != 5:
                continue
            if cells[0] in rows:
                dups.append(cells[0])
            rows[cells[0]] = cells
    return rows, dups, lines


def main(argv):
    etwconf = argv[0] if argv else os.path.join(REPO, "build", "etwconf")
    cat = rules.load()
    by_id = {r["id"]: r for r in cat}
    rows, dups, lines = audit_rows(os.path.join(REPO, "spec", "grading-audit.md"))
    ok(not dups, "the audit names each rule once", " ".join(dups))
    ok(lines > 0 and len(rows) == lines, "every line of the audit's table is a rule's row (%d of %d lines)" % (len(rows), lines))
    extra = [r for r in rows if r not in by_id]
    ok(not extra, "every rule of the audit is in the catalogue", " ".join(extra))
    wrong = ["%s (audit %s, catalogue %s/%s)" % (r, rows[r][3], by_id[r]["strength"], by_id[r]["provenance"])
             for r in rows if r in by_id and rows[r][3] != "%s/%s" % (by_id[r]["strength"], by_id[r]["provenance"])]
    ok(not wrong, "the audit's grades are the catalogue's", "; ".join(wrong))
    inferred = [r["id"] for r in cat if r["provenance"] == "INFERRED" and rules.counted(r)]
    ok(not inferred, "no INFERRED rule is counted", " ".join(inferred))
    decomp = [r for r in rows if r in by_id and rows[r][4].startswith("Decompilation only") and rules.counted(by_id[r])]
    ok(not decomp, "no rule known from decompilation alone is counted", " ".join(decomp))

    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([etwconf, "run", "--emulate", "all", "--quiet", "--out-dir", d], capture_output=True, text=True,
                           timeout=300)
        ok(p.returncode == 0, "the reference run for the code check", p.stderr.strip()[-300:])
        bad, nchecks = set(), 0
        for f in sorted(os.listdir(d)):
            for line in open(os.path.join(d, f), encoding="utf-8"):
                rec = json.loads(line)
                if rec.get("type") != "case":
                    continue
                for k in rec["checks"]:
                    rule = by_id.get(k["rule"])
                    if k.get("aspect") != "return" or not rule or not rules.counted(rule):
                        continue
                    nchecks += 1
                    for name in re.findall(r"\(([A-Z][A-Z0-9_]+)\)", k["expected"]):
                        if name not in SUCCESS and name not in rule["codes"]:
                            bad.add("%s expects %s, which %s does not name"
                                    % (rec["id"], name, rule["id"]))
        ok(nchecks > 100, "the run has counted return-code checks to look at (%d)" % nchecks)
        ok(not bad, "every counted return-code check expects a code its rule names", "; ".join(sorted(bad)[:8]))
    return CHECKS.summary("grading")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
