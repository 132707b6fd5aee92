#!/bin/sh
# harness/tests/thirdparty/test.sh BUILD - the example third-party implementation (minimal.c, built
# as BUILD/thirdparty/minimal.so) loads and its report names its divergences (README.md), and
# `etwconf fuzz` finds the deliberate one. Last line: "thirdparty: N passed, N failed, N skipped".
set -u
B=${1:-build}
SO=$B/thirdparty/minimal.so
OUT=$B/thirdparty/minimal.jsonl
. "$(dirname "$0")/../lib.sh"

"$B/etwconf" run --target "$SO" --out "$OUT" --quiet 2>"$B/thirdparty/run.log"
rc=$?
[ "$rc" -eq 1 ] && ok "etwconf run exits 1 (not conformant)" || no "etwconf run exited $rc, expected 1: $(cat "$B/thirdparty/run.log")"

# the record of one case: "STATUS COUNTED MODE|REASON"
rec() {
    grep "^{\"type\":\"case\",\"seq\":[0-9]*,\"id\":\"$1\"," "$OUT" |
        sed 's/.*"status":"\([A-Z]*\)","counted":\([a-z]*\),"mode":\(null\|"[^"]*"\),.*"reason":\(null\|"[^"]*"\).*/\1 \2 \3|\4/'
}
expect() { # ID STATUS [COUNTED [MODE [REASON-SUBSTRING]]]
    r=$(rec "$1")
    st=${r%% *}; rest=${r#* }; cnt=${rest%% *}; rest=${rest#* }; mode=${rest%%|*}; reason=${rest#*|}
    if [ -z "$r" ]; then no "$1: no record"; return; fi
    if [ "$st" != "$2" ]; then no "$1: $st, expected $2 ($r)"; return; fi
    if [ $# -ge 3 ] && [ "$cnt" != "$3" ]; then no "$1: counted=$cnt, expected $3"; return; fi
    want="\"${4:-}\""; [ "${4:-}" = null ] && want=null
    if [ $# -ge 4 ] && [ "$mode" != "$want" ]; then no "$1: mode $mode, expected $want"; return; fi
    if [ $# -ge 5 ]; then
        case "$reason" in *"$5"*) ;; *) no "$1: reason $reason does not mention $5"; return ;; esac
    fi
    ok "$1: $2${3:+ counted=$3}${4:+ mode=$4}${5:+ (reason names $5)}"
}

grep -q '"impl":"thirdparty"' "$OUT" && grep -q '"emulated":false' "$OUT" && ok "header: a third-party target that does not emulate" \
    || no "header: impl/emulated"
grep -q '"type":"footer".*"exit_code":1' "$OUT" && ok "footer: exit_code 1" || no "footer: exit_code is not 1"

# the deliberate divergence
expect tqi.0b.long FAIL true return
# what it implements right
for id in tqi.0b.exact tqi.0b.short tqi.0b.null-zero tqi.0b.handle tqi.0b.reserved tqi.05.handle tqi.05.short tqi.05.long \
          tqi.05.order tqi.05.retlen cti.null-handle cti.counter cti.per-class cti.restart cti.atomic rtg.null-args rtg.count-limit \
          exp.advapi32.tqi exp.ntdll.etwcti; do
    expect "$id" PASS
done
# what it does not export
for id in exp.advapi32.tsi tsi.05.short esi.bintrack-length gmi.not-found-query; do
    expect "$id" FAIL true missing-export
done
n=$(grep -c '"mode":"missing-export"' "$OUT")
[ "$n" -gt 50 ] && ok "$n cases report a missing export" || no "only $n missing-export records"
grep '"mode":"missing-export"' "$OUT" | grep -q '"message":"[a-z0-9]*!*\(TraceQueryInformation\|EtwCreateTraceInstanceId\|RegisterTraceGuidsW\|UnregisterTraceGuids\) is not exported' \
    && no "an exported function is reported as missing" || ok "no exported function is reported missing"
# what needs the control API
for p in tqi.04.exact:EtwRef_StartLogger tqi.0e.empty:EtwRef_StartLogger \
         cti.wrap:EtwRef_SetClassCounter cti.foreign-process:EtwRef_SetClassProcessId \
         tqi.07.oom:EtwRef_FailAllocation cti.last-error:GetLastError; do
    expect "${p%%:*}" SKIP false null "${p#*:}"
done

# the differential fuzzer sees the divergence too, without the control API, and prints a row
"$B/etwconf" fuzz --target "$SO" --seconds 2 --seed 1 --max 8 >"$B/thirdparty/fuzz.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok "etwconf fuzz exits 1" || no "etwconf fuzz exited $rc, expected 1"
if grep -q 'rule: TQI.0B.EXACT_SIZE' "$B/thirdparty/fuzz.txt" && grep -q 'CASE(.id = "fuzz.tqi.' "$B/thirdparty/fuzz.txt" &&
   grep -q 'PASS on the reference at 10.0; FAIL on the target at 10.0: return: expected 24 (ERROR_BAD_LENGTH), got 0' "$B/thirdparty/fuzz.txt"; then
    ok "etwconf fuzz finds the TQI.0B.EXACT_SIZE divergence and prints a row that the harness checked"
else
    no "etwconf fuzz did not report the TQI.0B.EXACT_SIZE divergence with a checked row (see $B/thirdparty/fuzz.txt)"
fi

summary thirdparty
