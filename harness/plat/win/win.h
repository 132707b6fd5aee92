/*
 * harness/plat/win/win.h - what the Windows platform files (harness/plat/win/, harness/targets/win_live.c) share. Not used on Linux.
 *
 *   win_platform.c  guard pages, exception capture, the watchdog, isolation, threads, the
 *                   platform commands (cleanup, the child worker), plat_open_target
 *   win_target.c    the live target: API lookup per module, version, fingerprint, fixtures
 *                   (ETW sessions, privileges), cleanup of sessions
 *   win_sha256.c    SHA-256 of the executable for the fingerprint
 */
#ifndef ETWCONF_WIN_H
#define ETWCONF_WIN_H

#include "harness/etwconf.h"
#include <windows.h>

/* every ETW session the suite starts is named SESSION_PREFIX "<pid>-<n>"; the NT Kernel Logger,
 * whose name is fixed, is started with a log file %TEMP%\etwconf-<pid>-<n>-kernel.etl instead */
#define WIN_SESSION_PREFIX "etwconf-"
#define WIN_SESSION_PREFIXW L"etwconf-"

/* ---------------------------------------------------------------- win_platform.c */
/* the case running on this thread (NULL outside a guarded call): fixtures report through it */
struct etw_ctx *win_current_ctx(void);
/* a one-line description of a Windows exception or exit code: "0x80000100" */
void win_format_code(char *buf, size_t len, DWORD code);
/* the full path of this executable (static buffer) */
const wchar_t *win_exe_path(void);

/* ---------------------------------------------------------------- win_target.c */
/* the live OS as a target; NULL and err filled when it cannot be set up */
struct etw_target *win_live_target(char *err, size_t errlen);
/* a DLL that exports the API under its Windows names (third-party target) */
struct etw_target *win_dll_target(const char *path, char *err, size_t errlen);
/* true when ntdll exports wine_get_version */
bool win_is_wine(void);
/* stop every session this process started and still runs; restore what the cases changed
 * (privileges, the profile interval). Safe to call more than once and from handlers. */
void win_restore_all(void);
/* stop the sessions a (dead) process pid of this suite left behind; returns how many */
int win_stop_sessions_of(DWORD pid, bool verbose);
/* etwconf.exe cleanup [--all] [--dry-run] */
int win_cmd_cleanup(int argc, char **argv);

/* ---------------------------------------------------------------- win_sha256.c */
/* hex SHA-256 of a file; false if it cannot be read */
bool win_sha256_file(const wchar_t *path, char hex[65]);

#endif
