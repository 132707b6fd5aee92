#!/bin/sh
# harness/tests/abi.sh - spec/abi.h's layout assertions must hold for every ABI etwconf targets:
# x86_64 Linux (the reference), i386 SysV (the alignment trap), and the Windows layouts (clang's
# i686/x86_64 windows-gnu targets, and mingw-w64 when it is installed).
set -u
src=$(mktemp --suffix=.c)
trap 'rm -f "$src"' EXIT
printf '#include "spec/abi.h"\nint etwconf_abi_check;\n' > "$src"
. "$(dirname "$0")/lib.sh"
try() {
    name=$1; shift
    if ! command -v "$1" >/dev/null 2>&1; then
        skip "$name ($1 not installed)"; return
    fi
    if out=$("$@" -std=c11 -I. -ffreestanding -fsyntax-only "$src" 2>&1); then
        ok "$name"
    else
        no "$name"; echo "$out" | head -20
    fi
}
try "x86_64 linux (gcc)" gcc -m64
try "i386 sysv (gcc -m32)" gcc -m32
try "x86_64 linux (clang)" clang --target=x86_64-linux-gnu
try "i686 windows (clang)" clang --target=i686-w64-windows-gnu
try "x86_64 windows (clang)" clang --target=x86_64-w64-windows-gnu
try "i686 windows (mingw-w64)" i686-w64-mingw32-gcc
try "x86_64 windows (mingw-w64)" x86_64-w64-mingw32-gcc
# the asserts themselves must be able to fail: a wrong size must not compile
printf '#include "spec/abi.h"\nETW_ASSERT_LAYOUT(ETW_EVENT_TRACE_GROUPMASK_INFORMATION, 0x2C);\n' > "$src"
if gcc -std=c11 -I. -ffreestanding -fsyntax-only "$src" 2>/dev/null; then
    no "a deliberately wrong size assertion compiled"
else
    ok "a deliberately wrong size assertion is rejected"
fi
summary abi
