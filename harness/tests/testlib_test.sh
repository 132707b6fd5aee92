#!/bin/sh
# harness/tests/testlib_test.sh - the "testlib" test stage: the helpers the test stages share
# (wine_retry and wine_run of harness/tests/wine-env.sh; pid_tree, chain_below, pe_imports and
# add_counts of harness/tests/lib.sh), on made-up commands.
# Last line: "testlib: N passed, N failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
stage_tmp testlib
B=$T
unset WINE_START_LOG WINE_START_TRIES
WINE=true
. "$HERE/wine-env.sh"

# fake-wine: fails to start, as Wine does when the host's address-space layout is in the way, the
# first FAILS times (counted in T/starts), then prints to both streams and exits 7
cat >"$T/fake-wine" <<EOF
#!/bin/sh
n=\$(( \$(cat '$T/starts' 2>/dev/null || echo 0) + 1 ))
echo "\$n" >'$T/starts'
if [ "\$n" -le "\$FAILS" ]; then
  echo "partial output of a failed start"
  echo "err:virtual:virtual_alloc_first_teb wine: failed to map the shared user data: c0000018" >&2
  exit 1
fi
echo "the program's output"
echo "the program's message" >&2
exit 7
EOF
chmod +x "$T/fake-wine"
try() { # FAILS: wine_retry over fake-wine; T/out, T/err, T/rc; T/starts: how many starts
    rm -f "$T/starts" "$WINE_START_LOG"
    FAILS=$1 wine_retry "$T/fake-wine" arg >"$T/out" 2>"$T/err"
    echo $? >"$T/rc"
}
logged() { if [ -f "$WINE_START_LOG" ]; then wc -l <"$WINE_START_LOG" | tr -d ' '; else echo 0; fi; }

[ "$WINE_START_LOG" = "$T/test/wine-starts.log" ] && ok "the failed starts are recorded in BUILD/test/wine-starts.log" || no "WINE_START_LOG is $WINE_START_LOG"
try 2
[ "$(cat "$T/rc")" = 7 ] && [ "$(cat "$T/starts")" = 3 ] && [ "$(cat "$T/out")" = "the program's output" ] &&
    [ "$(cat "$T/err")" = "the program's message" ] && [ "$(logged)" = 2 ] &&
    grep -q "^[0-9:]* start 1 of 3 failed for a reason of the host (exit 1: err:virtual:virtual_alloc_first_teb wine: failed to map the shared user data: c0000018): $T/fake-wine arg\$" "$WINE_START_LOG" &&
    ok "two starts that failed for a reason of the host: run a third time; its exit status and streams only, the two recorded" ||
    no "retried start: exit $(cat "$T/rc"), $(cat "$T/starts") starts, out '$(cat "$T/out")', err '$(cat "$T/err")', $(logged) recorded"
try 5
[ "$(cat "$T/rc")" = 125 ] && [ "$(cat "$T/starts")" = 3 ] && [ "$(logged)" = 3 ] &&
    tail -n 1 "$T/err" | grep -q "^wine_retry: Wine did not start, 3 times, for a reason of this host, not of the program" &&
    ok "a start that keeps failing: three starts in all, exit 125 and a message that it is the host's, not the program's" ||
    no "bounded retry: exit $(cat "$T/rc"), $(cat "$T/starts") starts, $(logged) recorded: $(tail -n 1 "$T/err")"
WINE_START_TRIES=1 try 1
[ "$(cat "$T/rc")" = 125 ] && [ "$(cat "$T/starts")" = 1 ] && ok "WINE_START_TRIES=1: one start only" || no "WINE_START_TRIES=1: $(cat "$T/starts") starts"
try 0
[ "$(cat "$T/rc")" = 7 ] && [ "$(cat "$T/starts")" = 1 ] && [ "$(logged)" = 0 ] &&
    ok "a program's own failure (exit 7, no start failure) is not run again, nothing recorded" || no "ordinary failure: $(cat "$T/starts") starts, exit $(cat "$T/rc")"
printf '#!/bin/sh\necho "failed to map the shared user data" >&2\nexit 0\n' >"$T/ok-wine"
chmod +x "$T/ok-wine"
wine_retry "$T/ok-wine" 2>/dev/null; rc=$?
[ "$rc" = 0 ] && [ "$(logged)" = 0 ] && ok "exit 0 is a start that worked, whatever stderr says: not run again" || no "exit 0 was run again"
WINE=$T/fake-wine
rm -f "$T/starts"
FAILS=1 wine_run 20 x.exe >/dev/null 2>&1; rc=$?
[ "$rc" = 7 ] && [ "$(cat "$T/starts")" = 2 ] && ok "wine_run SECONDS: \$WINE under a time limit, through wine_retry" || no "wine_run: exit $rc, $(cat "$T/starts") starts"

# pid_tree: a background job's processes, found by pid
sh -c 'sleep 30 & sleep 30 & wait' &
job=$!
two_children() { [ "$(ps -o pid= --ppid "$job" | wc -l)" -ge 2 ]; }
within 5000 two_children
tree=$(pid_tree "$job" | sort -n | tr '\n' ' ')
kids=$(ps -o pid= --ppid "$job" | sort -n | tr -d ' ' | tr '\n' ' ')
kill $(pid_tree "$job") 2>/dev/null
wait "$job" 2>/dev/null
found=0
for k in $job $kids; do case " $tree " in *" $k "*) found=$((found + 1)) ;; esac; done
[ "$(echo $tree | wc -w)" = 3 ] && [ "$found" = 3 ] && ok "pid_tree: the job and its two children ($tree)" || no "pid_tree $job: '$tree', children '$kids'"
[ -z "$(pid_tree 999999999)" ] && ok "pid_tree of no process: nothing" || no "pid_tree of no process: $(pid_tree 999999999)"

# chain_below: the processes between an ancestor and this shell, by pid (the fleet's fake hosts
# drop a session so: the listener is the ancestor, whatever OpenSSH names its processes)
printf '%s\n' ". '$HERE/lib.sh'" "chain_below \"\$(cat '$T/top.pid')\" >'$T/chain.out'" "chain_below 999999999 >'$T/chain-none.out'" >"$T/leaf.sh"
printf '%s\n' "echo \$\$ >'$T/mid.pid'" "sh '$T/leaf.sh'" "true" >"$T/mid.sh"
sh -c "echo \$\$ >'$T/top.pid'; sh '$T/mid.sh'; true"
chain=$(cat "$T/chain.out" 2>/dev/null)
[ -n "$chain" ] && [ "$chain" = "$(cat "$T/mid.pid")" ] && [ ! -s "$T/chain-none.out" ] &&
    ok "chain_below: the one process between the ancestor and the shell ($chain), not the ancestor; nothing below a pid that is no ancestor" ||
    no "chain_below: '$chain' (the process between: $(cat "$T/mid.pid"), the ancestor: $(cat "$T/top.pid")), no ancestor: '$(cat "$T/chain-none.out")'"

# pe_imports: the imported functions in the import tables of both binutils layouts (2.40 and 2.44),
# nothing else of objdump's output, and nothing at all from a tool that prints nothing
{
    echo '#!/bin/sh'
    echo "cat <<'EOF'"
    printf '%s\n' 'There is an import table in .idata at 0x140143000' '' \
        ' vma:            Hint    Time      Forward  DLL       First' ' 00143000	00143050 00000000 00000000 00144768 00143630' '' \
        '	DLL Name: ADVAPI32.dll' '	vma:  Hint/Ord Member-Name Bound-To' '	143c40	 1032  AdjustTokenPrivileges' \
        '	143c58	 1033  AllocateAndInitializeSid' '' '	DLL Name: KERNEL32.dll' \
        '	vma:     Ordinal  Hint  Member-Name  Bound-To' '	00143700  <none>  02a4  GetProcAddress' '' \
        'Entry 1 0000000000000000 00000000 Export Directory' '	[   0] +base[   1] 0000 ExportedName'
    echo 'EOF'
} >"$T/fake-objdump"
chmod +x "$T/fake-objdump"
got=$(OBJDUMP=$T/fake-objdump pe_imports x.exe | tr '\n' ' ')
[ "$got" = "AdjustTokenPrivileges AllocateAndInitializeSid GetProcAddress " ] &&
    ok "pe_imports: the imports of binutils 2.40's and 2.44's layouts, nothing else ($got)" || no "pe_imports: '$got'"
[ -z "$(OBJDUMP=true pe_imports x.exe)" ] && [ -z "$(OBJDUMP=$T/no-objdump pe_imports x.exe)" ] &&
    ok "pe_imports: nothing from a tool that prints nothing or is missing" || no "pe_imports: output from an empty or missing tool"

# add_counts: a log with no count line is a failure, never nothing
echo "some output" >"$T/nocount.log"
f0=$fail
add_counts "$T/nocount.log" >/dev/null
if [ "$fail" = $((f0 + 1)) ]; then fail=$f0; ok "add_counts: a log without a count line counts one failure"; else no "add_counts: no count line, failures $f0 -> $fail"; fi

summary testlib
