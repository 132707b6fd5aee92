/*
 * harness/plat/win/pch.h - the part of the Windows build that gcc precompiles: <windows.h>, which
 * is most of the compile time of every file that includes it (about 0.35 s of parsing each).
 *
 * mk/windows.mk copies this header into the build directory, precompiles it there with the flags
 * of etwconf.exe's per-file objects, and gives it with -include to each file that includes
 * windows.h (through win.h or live.h): windows.h then comes first, and
 * its include guard makes the file's own #include <windows.h> a no-op. The generated code is the
 * same as without it; a precompiled header gcc finds unusable (other flags, another compiler) is
 * reported (-Winvalid-pch) and this text is parsed instead.
 */
#include <windows.h>

/* windows.h defines IN, OUT and OPTIONAL as empty parameter annotations, each only if it is not
 * defined yet; harness/case.h defines IN(...) for the rows. live.h includes case.h before
 * windows.h, so there case.h's IN is the one in force; with windows.h first, case.h would redefine
 * it. Nothing here uses the annotations: IN is left undefined for case.h. */
#undef IN
