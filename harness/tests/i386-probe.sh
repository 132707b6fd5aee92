#!/bin/sh
# harness/tests/i386-probe.sh [DIR] - does this machine run i386 (32-bit x86) code? Machines of the
# same kind differ (a kernel may have ia32 emulation off), so this is tried, never assumed: a
# 96-byte static i386 ELF that exits with 42 is written into DIR (default: a temporary directory)
# and run. Exit status 0 and "i386 code runs here" when it did; 1 and the reason when it did not.
# Used by .ci/deps.sh (group wine32) and harness/tests/wine.sh.
set -u
tmp=""
[ -n "${1:-}" ] || tmp=$(mktemp -d) || { echo "cannot make a temporary directory"; exit 1; }
dir=${1:-$tmp}
mkdir -p "$dir"
elf=$dir/i386-probe
trap '[ -z "$tmp" ] || rm -rf "$tmp"' EXIT
case $(uname -m) in
    x86_64 | i?86) ;;
    *) echo "this machine is $(uname -m), not x86"; exit 1 ;;
esac
# ELF header, one PT_LOAD program header, then: mov eax,1; mov ebx,42; int 0x80 (exit(42))
if ! python3 - "$elf" <<'EOF'; then
import struct, sys
base = 0x08048000
code = bytes.fromhex("b801000000" "bb2a000000" "cd80")
size = 52 + 32 + len(code)
ehdr = b"\x7fELF" + bytes([1, 1, 1]) + bytes(9) + struct.pack(
    "<HHIIIIIHHHHHH", 2, 3, 1, base + 84, 52, 0, 0, 52, 32, 1, 0, 0, 0)
phdr = struct.pack("<IIIIIIII", 1, 0, base, base, size, size, 5, 0x1000)
with open(sys.argv[1], "wb") as f:
    f.write(ehdr + phdr + code)
EOF
    echo "cannot write the probe program $elf"
    exit 1
fi
chmod +x "$elf"
out=$("$elf" 2>&1)
rc=$?
if [ "$rc" = 42 ]; then
    echo "i386 code runs here (a static i386 ELF ran and exited 42)"
    exit 0
fi
why="a static i386 ELF did not run (exit $rc${out:+: $out})"
case "$rc:$out" in
    126:* | *"Exec format error"* | *"cannot execute"*)
        why="the kernel does not run i386 code: a static i386 ELF gave 'Exec format error' (32-bit emulation is off; Linux: boot with ia32_emulation=on)" ;;
esac
echo "$why"
exit 1
