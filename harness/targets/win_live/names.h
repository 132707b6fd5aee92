/*
 * harness/targets/win_live/names.h - recognising what the suite created on a live system, by
 * exact name. Portable (no windows.h): the unit tests check it on Linux too.
 *
 * A session of the suite is named exactly "etwconf-<pid>-<n>"; the NT Kernel Logger, whose name
 * is fixed, is ours only when its log file is exactly "<the suite's directory>etwconf-<pid>-<n>-
 * kernel.etl". Anything else, an "etwconf-12-3" anywhere else in a path included, is someone
 * else's and is never stopped or deleted.
 */
#ifndef ETWCONF_WIN_LIVE_NAMES_H
#define ETWCONF_WIN_LIVE_NAMES_H

#include <wchar.h>

/* the pid of a session name "etwconf-<pid>-<n>", or 0 */
unsigned long etw_live_session_owner(const wchar_t *name);
/* the pid of a kernel log file name (no directory) "etwconf-<pid>-<n>-kernel.etl", or 0 */
unsigned long etw_live_kernel_name_owner(const wchar_t *base);
/* the pid of a kernel log file path dir + "etwconf-<pid>-<n>-kernel.etl", dir being exactly the
 * suite's directory (ending in a separator; compared without case), or 0 */
unsigned long etw_live_kernel_file_owner(const wchar_t *path, const wchar_t *dir);

#endif
