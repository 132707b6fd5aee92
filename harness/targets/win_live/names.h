/*
 * harness/targets/win_live/names.h - what the suite created on a live system, by exact name
 * (portable: unit-tested on Linux). Sessions are "etwconf-<pid>-<n>"; a process's files live in
 * "%TEMP%\etwconf-<pid>-<32 random hex digits>" (unpredictable). A session with a log file is
 * recognised by the file's identity (build.h); these names only say which directories and files
 * are the suite's to look into and to delete.
 */
#ifndef ETWCONF_WIN_LIVE_NAMES_H
#define ETWCONF_WIN_LIVE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define ETW_LIVE_RUN_RANDOM 16 /* random bytes in a private directory's name: 32 hex digits */

/* *s starts with lit (compared without case): true and *s moved past it */
bool etw_live_prefix(const wchar_t **s, const wchar_t *lit);
/* the pid of a session name "etwconf-<pid>-<n>", or 0 */
unsigned long etw_live_session_owner(const wchar_t *name);
/* the private directory's name of process pid: "etwconf-<pid>-<hex of rnd>" into out (cap
 * characters); false if it does not fit */
bool etw_live_run_dir_name(wchar_t *out, size_t cap, unsigned long pid, const unsigned char rnd[ETW_LIVE_RUN_RANDOM]);
/* the pid of a private directory's name (no parent) "etwconf-<pid>-<32 hex digits>", or 0 */
unsigned long etw_live_run_dir_owner(const wchar_t *name);
/* n of a file name the suite gives in its directory, "kernel-<n>.etl" or "private-<n>.etl", or 0 */
unsigned long etw_live_run_file_seq(const wchar_t *name);
/* true when final, a directory's final path (after every link), is exactly parent's final path
 * followed by one separator and name: the directory is that entry of parent and no reparse point
 * led elsewhere. Compared without case; parent may end in a separator (a drive's root). */
bool etw_live_final_path_is(const wchar_t *final, const wchar_t *parent, const wchar_t *name);

#endif
