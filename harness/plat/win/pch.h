/*
 * harness/plat/win/pch.h - <windows.h>, precompiled once per architecture and set of flags by
 * mk/windows.mk and given with -include to every file that includes windows.h (through win.h or
 * live.h). The code generated is the same; an unusable one is reported (-Winvalid-pch).
 */
#include <windows.h>

/* windows.h defines IN (an empty annotation) unless it is defined; harness/case.h defines IN(...)
 * for the rows and would redefine it. Nothing here uses the annotations. */
#undef IN
