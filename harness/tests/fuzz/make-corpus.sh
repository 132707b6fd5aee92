#!/bin/sh
# harness/tests/fuzz/make-corpus.sh - writes the seed corpus of the libFuzzer targets
# (harness/tests/fuzz/corpus/api, corpus/traits). The files are in the repository; run this only
# to regenerate them after changing the input format of fuzz_api.c or fuzz_traits.c.
set -eu
D=$(dirname "$0")/corpus
rm -rf "$D/api" "$D/traits"
mkdir -p "$D/api" "$D/traits"

b() { for x in "$@"; do printf "\\$(printf '%03o' "$((x & 255))")"; done; }
u16() { b "$1" "$(($1 >> 8))"; }
u32() { b "$1" "$(($1 >> 8))" "$(($1 >> 16))" "$(($1 >> 24))"; }
u64() { u32 "$(($1 & 0xFFFFFFFF))"; u32 "$(($1 >> 32))"; }
# header VERSION_INDEX FIXTURE MISC; record FN HANDLE CLASS LENGTH FLAGS N (then N bytes)
hdr() { b "$1" "$2" "$3"; }
rec() { b "$1" "$2"; u32 "$3"; u16 "$4"; b "$5" "$6"; }
guid1() { u32 0x11111111; u16 0x2222; u16 0x3333; b 0x44 0x44 0x55 0x55 0x55 0x55 0x55 0x01; }
group() { u32 0x6e0b0c00; u16 0x1234; u16 0x4abc; b 0x80 1 2 3 4 5 6 7; }
name() { printf 'EtwCf'; b 0; }

# the fixture bits are fuzz_api.c's FX_*, the functions its F_* in order (0 TQI ... 22 Symbol)
A=$D/api
{ hdr 5 0 0; rec 0 0 0x0B 8 0 0; rec 0 0 0x0B 16 0 0; rec 0 1 0x0B 8 2 0; } >"$A/tqi-0b"
{ hdr 3 0 0; rec 0 0 0x0B 8 0 0; rec 0 0 3 8 1 0; } >"$A/tqi-class-62"
{ hdr 5 1 0; rec 0 1 4 32 0 0; rec 0 1 4 31 0 0; rec 0 7 4 40 0 0; rec 0 2 4 32 0 0; } >"$A/tqi-04"
{ hdr 5 0 0; rec 0 0 5 8 0 8; u32 0; u32 0; rec 0 0 5 8 0 8; u32 2; u32 0; rec 0 3 5 7 0 0; } >"$A/tqi-05"
{ hdr 5 32 0; rec 0 0 7 256 0 0; rec 0 0 7 0 1 0; rec 0 0 7 16 8 0; } >"$A/tqi-07"
{ hdr 5 130 0; rec 0 1 0x0E 64 0 0; rec 0 1 0x0E 16 0 0; rec 1 1 0x0A 16 0 16; guid1; rec 0 1 0x0E 64 1 0; } >"$A/tqi-0e-tsi-0a"
{ hdr 5 1 0; rec 1 1 4 8 0 8; u32 0; u32 4; rec 1 1 4 36 0 0; rec 1 1 4 3 0 0; rec 0 1 4 32 0 0; } >"$A/tsi-04"
{ hdr 5 2 0; rec 1 1 3 24 0 24; guid1; b 1 0 0 0 0 0 0 0; rec 1 1 3 0 1 0; rec 1 1 3 23 0 0; } >"$A/tsi-03"
{ hdr 4 0 0; rec 1 0 5 8 0 8; u32 0; u32 20000; rec 1 0 6 8 0 8; u32 2; u32 19; rec 1 0 9 4 0 4; u32 2; rec 1 0 8 24 0 0; } >"$A/tsi-05-06-08-09"
{ hdr 5 1 0; rec 2 1 0x1F 48 0 4; u32 1; rec 2 1 0x1F 47 0 4; u32 1; rec 2 0 0x1F 8 0 4; u32 3; rec 2 0 0x1F 8 0 4; u32 0; } >"$A/ntqsi"
{ hdr 3 0 0; rec 2 0 0x1F 0x100 0 4; u32 0x0D; rec 2 0 0x1F 0x27 0 4; u32 0x0D; rec 2 0 0x1F 3 0 0; rec 2 0 5 16 0 0; } >"$A/ntqsi-sources"
{ hdr 5 1 0; rec 3 1 0x1F 48 0 20; u32 1; u32 0; u64 0; u32 0x10; rec 3 1 0x1F 48 8 20; u32 1; u32 0; u64 0; u32 0; rec 3 0 0x1F 8 0 8; u32 3; u32 20000; } >"$A/ntssi"
{ hdr 5 33 0; rec 3 1 0x1F 48 0 24; u32 1; u32 0; u64 0; u32 0; u32 0x20000002; } >"$A/ntssi-privilege"
{ hdr 5 0 0; rec 4 0 0 4 0 0; rec 4 0 2 4 0 0; rec 4 0 99 4 1 0; rec 5 0 0 20000 0 0; rec 5 0 2 5000 0 0; } >"$A/interval"
{ hdr 5 130 0; rec 6 1 0x22 8 0x60 0; rec 6 1 0x22 8 0x40 0; rec 6 1 0x22 4 0 0; rec 6 1 0x22 8 4 0; rec 6 0 0x7F 0 0 0; } >"$A/ntc-22"
{ hdr 5 2 0; rec 6 1 0x1C 24 0 24; u32 0; u32 1; guid1; rec 6 1 0x1C 8 0 8; u32 0; u32 1; rec 6 1 0x1C 8 8 0; } >"$A/ntc-1c"
{ hdr 5 16 0; rec 6 4 0x1E 0x18 0x70 0x20; u64 0; u64 0; u32 8; u32 0; b 8 0; name; rec 6 4 0x1F 0x10 0 16; u64 0; b 1 0 0 0 0 0 0 0; } >"$A/ntc-1e-1f"
{ hdr 5 8 5; rec 7 0 0 0 0 0; rec 7 0 0 0 0 0; rec 8 1 0 0 0 0; rec 7 0 0 0 1 0; rec 8 4 0 0 0 0; } >"$A/cti"
{ hdr 1 8 8; rec 7 0 0 0 0 0; rec 15 0 0x1234 0 0 0; rec 20 0 0xFFFFFFFF 0 4 0; rec 7 0 0 0 0 0; } >"$A/cti-foreign"
{ hdr 0 0 0; rec 9 0 2 0 0 0; rec 10 10 0 0 0 0; rec 9 0x80 3 0 0 0; rec 9 7 0x20000 0 4 0; rec 10 3 0 0 0 0; } >"$A/rtg"
{ hdr 5 16 0; rec 11 0 0 0 0 0; rec 13 6 2 8 0 8; b 8 0; name; rec 13 6 2 8 0 8; b 8 0; name; rec 12 6 0 0 0 0; rec 13 6 0 0 1 0; } >"$A/traits-twice"
{ hdr 5 80 0; rec 13 4 2 27 0 27; b 27 0; name; b 19 0 1; group; rec 14 4 3 1 0 1; b 1; rec 13 5 0 0 1 0; rec 13 3 1 4 0 0; } >"$A/esi"
{ hdr 5 0 0; rec 16 0 2 0 0 32; u32 3; u32 4; u32 0; u32 0; u32 0; u32 0; u32 0; u32 0; rec 18 1 0 0 0 0; rec 19 1 0 0 0 0; rec 17 1 0 0 0 0;
  rec 21 0 1 0 0 0; rec 22 0 0 0 0 12; printf 'EtwRef_Reset'; } >"$A/control"

T=$D/traits
{ b 8 0; name; } >"$T/name-only"
{ b 3 0 0; } >"$T/empty-name"
{ b 27 0; name; b 19 0 1; group; } >"$T/group"
{ b 13 0; name; b 5 0 200 0xAB 0xCD; } >"$T/custom"
{ b 32 0; name; b 5 0 200 0xAB 0xCD; b 19 0 1; group; } >"$T/custom-group"
{ b 9 0; name; } >"$T/size-too-big"
{ b 7 0 0x45 0x74 0x77 0x43 0x66; } >"$T/no-nul"
{ b 12 0; name; b 6 0 200 0xAB; } >"$T/trait-overruns"
{ b 13 0; name; b 2 0 3 0 200; } >"$T/trait-size-two"
{ b 15 0; name; b 5 0 200 0xAB 0xCD 1 2; } >"$T/trailing"
