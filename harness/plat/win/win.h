/*
 * harness/plat/win/win.h - what the Windows platform files share (and harness/targets/win_live/
 * may use): host.c, call.c (which uses host.c, never the other way), proc.c, sha256.c.
 */
#ifndef ETWCONF_WIN_H
#define ETWCONF_WIN_H

#include "harness/plat/plat.h"
#include <windows.h>

/* a one-line description of a Windows exception or exit code: "0x80000100", "exit 3" */
void win_format_code(char *buf, size_t len, DWORD code);
/* the full path of this executable (static buffer; empty if unknown) */
const wchar_t *win_exe_path(void);
/* true when this process was started by plat_proc_start (a worker or a probe: its command line
 * ends in "--chan N"); its parent already loaded what it loads in a probe process */
bool win_started_by_runner(void);
/* the process's start-up (host.c): error modes, binary streams, then exceptions() (call.c's
 * handlers, given by plat_init: host.c calls nothing of call.c's), the console handler */
void win_host_init(void (*exceptions)(void));
/* hex SHA-256 of a file; false if it cannot be read */
bool win_sha256_file(const wchar_t *path, char hex[65]);

#endif
