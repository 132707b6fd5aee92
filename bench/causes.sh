#!/bin/sh
# bench/causes.sh FIGURES WORKDIR - the "missed targets" section of results.md: for every figure that
# missed its target, the evidence measured in this run and the cause found by profiling (perf record
# -e cpu-clock, strace -c; see bench/README.md), with the change that would fix it.
set -u
FIG=$1
W=$2
SW_CFG_MS=? SW_ALL_MS=? WGUARD=? R_WINE=? R_WINE_VERSION=? R_WINE_RUN1=? R_WINE_NORCL=? R_RUN=? R_SIX=? R_INPROC=? R_NORCL=? R_PROTO=? R_PROTO_INPROC=? PC_BATCH=? GUARD_US=?
. "$W/values.sh"
missed() { awk -F'\t' -v id="$1" '$1==id && $5 ~ /no/ {f=1} END{exit !f}' "$FIG"; }
val() { awk -F'\t' -v id="$1" '$1==id{print $3}' "$FIG"; }
# the slowest cases of a results file (duration_us), "N us id" lines
slowest() {
    sed -n 's/.*"id":"\([^"]*\)".*"duration_us":\([0-9]*\).*/\2 \1/p' "$1" 2>/dev/null | sort -rn | head -n "$2" |
        awk '{printf "%s%s (%s us)", (NR > 1 ? ", " : ""), $2, $1}'
}
sum_us() { sed -n 's/.*"duration_us":\([0-9]*\).*/\1/p' "$1" 2>/dev/null | awk '{s+=$1} END{print s+0}'; }

# the fixed-cost item of the Wine section, only when a one-case run costs clearly more than \`version\`
fixed_cost() {
    awk -v a="$R_WINE_RUN1" -v b="$R_WINE_VERSION" 'BEGIN{exit !(a - b > 0.1)}' 2>/dev/null || return 0
    cat <<EOT
- **The fixed cost of a run** (the step from \`version\` to a one-case run above): harness/win_platform.c builds the
  fingerprint for every run; hashing the exe (SHA-256 of ~400 KB) and the privilege and version probes are paid
  before the first case. *Fix:* measure which probe costs most (the per-run difference is in the table), and
  cache or drop the expensive ones (the exe hash can be computed once at build time and embedded as a resource).
EOT
}

any=no
for id in native native-batch native-inproc iso-default cti-1 cti-2 fuzz wine wine-iso-default fresh; do
    missed "$id" && any=yes
done
echo
echo "## Missed targets: causes"
echo
if [ $any = no ]; then
    echo "Every measured target is met."
    exit 0
fi

if missed native || missed native-inproc || missed native-batch; then
    R10=$W/run-inproc/reference-10.0.jsonl
    cat <<EOF
### Native run above 10x the floor

Measured here, as ratios to the floor: ${R_RUN}x (one process, default isolation), ${R_INPROC}x in process, ${R_NORCL}x in
process without the case rtg.count-limit, ${R_SIX}x as six processes. At 10.0 the cases themselves took
$(sum_us "$R10") us in all (sum of duration_us, in process); the slowest: $(slowest "$R10" 3).

Causes, found with \`perf record -e cpu-clock -g\` (hardware counters are not available here) and \`strace -c\` on
\`etwconf run\`, in order of weight:

1. **Guarded buffers are mapped and unmapped for every case** (harness/posix_platform.c, \`plat_guard_alloc\` /
   \`plat_guard_free\`): an \`mmap\` + \`mprotect\` + \`munmap\` per buffer. Once a case has run threads (cti.atomic
   does), every \`munmap\` sends a TLB-shootdown IPI to the other CPU, which this paravirtualised VM makes very
   expensive: \`munmap\` -> \`flush_tlb_mm_range\` -> \`smp_call_function_many_cond\` was 15% of all samples. The
   sentinel fill is also a byte loop with two \`%\` per byte over the whole page-rounded body (8-26% of user time).
   *Fix:* keep freed mappings in a small pool keyed by size (the guard page stays PROT_NONE, no munmap), and refill
   only \`[buf - ETW_PRE_ZONE, guard)\` with 4-byte \`memcpy\` of \`etw_sentinel\` (ETW_PRE_ZONE is a multiple of 4, so the
   phase is right). bench/proto_guard.c does exactly that and this run measured it: ${R_PROTO}x default /
   ${R_PROTO_INPROC}x in process, against ${R_RUN}x / ${R_INPROC}x without it (same statuses).
2. **rtg.count-limit** (cases/cti.c, \`rtg_count_limit\`) asks for a 2 MiB guarded buffer (N = 0x20000 entries of 16
   bytes): 513 fresh pages faulted in and 2 MiB filled byte by byte, per version: about half of the in-run time.
   *Fix:* N = 0x10001 (just above the 64K limit the rule is about) halves it; with fix 1 the mapping is also reused.
3. **The in-process guard makes 3 syscalls per call, 2 calls per case** (harness/posix_platform.c,
   \`plat_guarded_call\`): \`sigsetjmp(call_jmp, 1)\` saves the signal mask (\`rt_sigprocmask\`), and the timeout is armed and
   disarmed with two \`setitimer\` calls: ${GUARD_US} us per case here (the Windows guard of harness/win_platform.c,
   which makes no syscall, costs ${WGUARD} us per case under Wine). *Fix:* \`sigsetjmp(call_jmp, 0)\` (the handlers
   are SA_NODEFER with an empty sa_mask, so the mask is unchanged when siglongjmp leaves the handler; a one-off
   experiment adding this to fix 1 took an in-process run from 112 to 97 ms), and arm one periodic timer per run (or a
   watchdog thread) that compares a per-call deadline stamp, instead of two setitimer calls per call.
4. **The default isolation (batch) costs ${PC_BATCH} us per case over in-process** (next section).
EOF
    echo
fi

if missed iso-default; then
    cat <<EOF
### The default isolation is not the cheap one

The default (\`batch\`: one worker process per run) costs ${PC_BATCH} us per case more than \`inproc\`; its run takes
$(val iso-default) the inproc run's time. Cause (harness/posix_platform.c, \`worker\` / \`run_with_workers\`): for every case the worker writes an
'S' message and an 'R' message with the JSON body into a pipe and the parent wakes up in \`poll\` + \`read\` for each, so
every case costs two cross-process wake-ups (context switches, IPIs on this VM) besides its own work.
*Fix, either:* (a) make \`inproc\` the default and fall back to a child only where needed: after a CRASH in
process (the process may be damaged) go on with the remaining cases in a fresh worker, and give the few cases that
must not run in process a flag in their row; or (b) keep \`batch\` but take the per-case traffic off the pipe: the worker
writes the index of the running case (and its start time) into a MAP_SHARED page made before fork, and streams
results in blocks (flushed every N cases and at exit); the parent only wakes up on a block, on exit or on its poll
timeout, and reads the shared page to tell which case crashed or hung.
EOF
    echo
fi

for k in 1 2; do
    if missed "cti-$k"; then
        cat <<EOF
### EtwCreateTraceInstanceId, $k thread(s)

Measured $(val "cti-$k"). Read reference/classic.c \`EtwCreateTraceInstanceId\`: per call it reads \`c->pid\` (same cache
line as the counter) and \`ref.pid\`, then one \`atomic_fetch_add\`. A ratio under 0.5x on one thread means something
else is on the path (profile with \`perf record -e cpu-clock build/bench/bin/cti_bench\`); on two threads the pid read of
the contended line adds a cache miss per call.
EOF
        echo
    fi
done

if missed wine; then
    WR=$W/wine-run.jsonl
    cat <<EOF
### Under Wine above 1.5x hello.exe

Measured here, against hello.exe: the full run ${R_WINE}x; \`etwconf.exe version\` alone ${R_WINE_VERSION}x (a 4x bigger static
exe that also loads advapi32); a run of one case ${R_WINE_RUN1}x (opening the live target and the results header with its
fingerprint: privileges, versions, the exe's SHA-256); the full run without rtg.count-limit ${R_WINE_NORCL}x. Inside the run the cases took $(sum_us "$WR") us in all
(sum of duration_us); the slowest: $(slowest "$WR" 3); $(grep -c '"status":"CRASH"' "$WR" 2>/dev/null || echo 0) cases
crashed in Wine's stubs, each an exception dispatched through Wine (tens to hundreds of us).

Causes (per-case duration_us, and \`perf record -a -e cpu-clock\`: the hottest instruction of etwconf.exe is the byte store
of the sentinel loop):

- **rtg.count-limit's 2 MiB guarded buffer** (cases/cti.c, \`rtg_count_limit\`) and **the byte-by-byte sentinel fill
   of every guarded buffer** (harness/win_platform.c, \`plat_guard_alloc\`: the same loop as on Linux, two \`%\` per byte
   over the page-rounded body, plus \`VirtualAlloc\` / \`VirtualProtect\` / \`VirtualFree\` per buffer). *Fix:* as on
   Linux: fill only \`[buf - ETW_PRE_ZONE, guard)\` 4 bytes at a time, keep freed allocations in a small pool keyed by size
   (the guard page stays PAGE_NOACCESS), and N = 0x10001 in \`rtg_count_limit\`.
$(fixed_cost)
- **Crashing stubs** are Wine's behaviour, not the suite's: each costs an exception dispatch; nothing to fix on our side.
EOF
    echo
fi

if missed fresh; then
    cat <<EOF
### Fresh-machine \`make test\`

Measured: $(val fresh). Where the time went, by stage (seconds, from a once-a-second poll of its log; "build" is
everything before the first stage), longest first: $(sort -rn "$W/fresh-stages.txt" 2>/dev/null | awk '{printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1}').
Each stage is owned by its fragment (mk/*.mk): making the slowest ones cheaper, or running the independent stages
in parallel (harness/tests/stages.sh runs them one after the other on a 2-core machine), is the way under 60 s.
EOF
    if grep -q '===== summary =====' "$W/fresh-test.log" 2>/dev/null; then
        echo
        echo "The stages as \`make test\` summed them up:"
        echo
        echo '```'
        sed -n '/===== summary =====/,$p' "$W/fresh-test.log" | tail -n +2 | grep .
        echo '```'
    fi
    echo
fi

# ---------------------------------------------------------------- findings beyond the targets
GARBLED=$(cat "$W"/run/*.jsonl 2>/dev/null | grep -o '"what":"[^"]*"' | grep -c -e '"what":""' -e '\\u00[01]' -e '\\ufffd')
SWEEP_CFG=$(awk -v c="$SW_CFG_MS" -v a="$SW_ALL_MS" 'BEGIN{exit !(a > 0 && c/a > 0.5)}' 2>/dev/null && echo yes)
if [ "$GARBLED" -gt 0 ] || [ -n "$SWEEP_CFG" ]; then
    echo "## Other findings"
    echo
    if [ "$GARBLED" -gt 0 ]; then
        cat <<EOF
- **$GARBLED check records of the native run have a garbled \`what\`** (empty, control characters or U+FFFD), e.g.
  \`$(cat "$W"/run/*.jsonl | grep -o '"what":"[^"]*"' | grep -m 1 -e '\\u00[01]' -e '\\ufffd')\`. Cause: cases/cti.c \`expect_ids\` passes a
  stack buffer (\`char what[48]\`) to \`etw_check_code\` / \`etw_check_u32\`, and harness/run.c \`add_check\` keeps only the
  pointer (\`struct etw_check_rec.what\` is \`const char *\`), which is dead when the record is written. *Fix:* make
  \`what\` a char array in \`struct etw_check_rec\` (harness/etwconf.h) and copy it in \`add_check\`, as \`expected\`/\`got\` are.
EOF
    fi
    if [ -n "$SWEEP_CFG" ]; then
        cat <<EOF
- **The Wine version sweep is mostly \`winecfg -v\`**: ${SW_CFG_MS} ms of ${SW_ALL_MS} ms here (one call took from a
  fraction of a second to over 10 s). harness/tests/wine.sh runs it once per version. A per-exe
  \`wine reg add 'HKCU\\Software\\Wine\\AppDefaults\\etwconf.exe' /v Version /t REG_SZ /d V /f\` took 0.37 s in a manual
  check and the run then reported \`wine@winxp64\`, rtl_version 5.2.3790 (it does not rewrite the HKLM ProductName/build
  values that winecfg writes: see shared/notes/wine-ci.md section 2).
EOF
    fi
    echo
fi
if [ -s "$W/bench-extra-causes.md" ]; then
    cat "$W/bench-extra-causes.md"
fi
exit 0
