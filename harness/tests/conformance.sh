#!/bin/sh
# harness/tests/conformance.sh ETWCONF "VERSIONS" - the real CLI against the reference at every
# version: exit status 0, a complete footer, no FAIL/CRASH/TIMEOUT/BROKEN, valid JSON Lines, and
# a record per planned case; --case reruns one case; lint and rules --json agree with Python.
set -u
E=$1
VERSIONS=$2
. "$(dirname "$0")/lib.sh"
stage_tmp conformance
nv=0
for v in $VERSIONS; do
    out="$T/ref-$v.jsonl"
    "$E" run --target reference --emulate "$v" --quiet --out "$out" 2>"$T/err"; rc=$?
    summary=$(python3 - "$out" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
h, f, cases = recs[0], recs[-1], recs[1:-1]
assert h["type"] == "header" and f["type"] == "footer", "header/footer"
assert cases, "no case records"
assert h["cases_planned"] == len(cases) == f["total"], "counts"
assert [c["seq"] for c in cases] == list(range(1, len(cases) + 1)), "seq"
bad = [c["id"] + ":" + c["status"] for c in cases if c["status"] not in ("PASS", "SKIP")]
assert not bad, "not PASS/SKIP: " + " ".join(bad[:10])
assert all(c["reason"] for c in cases if c["status"] == "SKIP"), "a SKIP without a reason"
print("%d passed, %d skipped" % (f["counts"]["PASS"], f["counts"]["SKIP"]))
PY
) && [ "$rc" = 0 ] && ok "reference@$v: exit 0, $summary" && nv=$((nv + 1)) || no "reference@$v: exit $rc; $summary $(cat "$T/err")"
done
every "$nv" "$(echo $VERSIONS | wc -w)" "the reference passes at every version of the table"
# --case reruns exactly one case, and the rerun command in a record works as printed
cmd=$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1])][5]["rerun"])' "$T/ref-10.0.jsonl")
n=$($cmd --out - 2>/dev/null | grep -c '"type":"case"')
[ "$n" = 1 ] && ok "a record's rerun command runs exactly its case" || no "rerun command ran $n cases: $cmd"
# usage errors are exit 2 with a message
"$E" run --emulate 7.0 >/dev/null 2>"$T/err"; [ $? = 2 ] && grep -q "takes 5.2" "$T/err" && ok "bad --emulate: exit 2 and says what is allowed" || no "bad --emulate"
"$E" run --case no.such.case >/dev/null 2>"$T/err"; [ $? = 2 ] && ok "unknown case: exit 2" || no "unknown case"
"$E" frobnicate >/dev/null 2>&1; [ $? = 2 ] && ok "unknown command: exit 2" || no "unknown command"
"$E" help | grep -q "exit status" && ok "help explains exit codes" || no "help"
# the catalogue: C and Python read the same rules
"$E" rules --json > "$T/c.json" && python3 spec/rules.py --json > "$T/py.json" && \
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(not a or a != b)' "$T/c.json" "$T/py.json" \
    && ok "etwconf rules --json equals spec/rules.py --json ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/c.json") rules)" \
    || no "C and Python rule catalogues differ"
"$E" lint >/dev/null 2>&1 && ok "lint: every rule has a case, every case cites known rules" || no "lint"
# the rule families the foundation issue lists are all there
missing=""
for fam in EXP. TQI.CLASS TQI.04 TQI.05 TQI.07 TQI.0B TQI.0E GMI. CTI. TRAITS. DAL. TSI. ESI. NTC. RTG. KSI.; do
    grep -q "\"id\": \"$fam" "$T/py.json" || missing="$missing $fam"
done
[ -z "$missing" ] && ok "every rule family the foundation issue lists is in the catalogue" || no "rule families missing:$missing"
summary conformance
