/* harness/targets/win_live/cleanup.c - stopping what a killed run left behind, and the cleanup command. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- cleanup */
static bool process_alive(DWORD pid)
{
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, pid);
    if (!h)
        return GetLastError() == ERROR_ACCESS_DENIED; /* exists, but not ours to open */
    bool alive = WaitForSingleObject(h, 0) == WAIT_TIMEOUT;
    CloseHandle(h);
    return alive;
}

/* stop sessions of the suite: of one pid (pid != 0), or of every process that is gone (pid 0;
 * all = also of running ones). Returns the number stopped, -1 if sessions cannot be listed. */
static int stop_suite_sessions(DWORD pid, bool all, bool dry, bool verbose, int *failed)
{
    ULONG n = 0;
    struct props_buf *bs = all_sessions(&n);
    if (!bs)
        return -1;
    int stopped = 0;
    for (ULONG i = 0; i < n; i++) {
        const EVENT_TRACE_PROPERTIES *p = &bs[i].p;
        const WCHAR *name = props_name(p, p->LoggerNameOffset), *file = props_name(p, p->LogFileNameOffset);
        bool kernel = !_wcsicmp(name, KERNEL_LOGGER_W);
        /* ours only by exact name: a session "etwconf-<pid>-<n>", or the kernel logger writing to
         * exactly the file the suite gives it (names.h) */
        DWORD owner = kernel ? kernel_file_owner(file) : (DWORD)etw_live_session_owner(name);
        if (!owner)
            continue;
        char nm[160], fl[600];
        utf8(nm, sizeof nm, name);
        utf8(fl, sizeof fl, file);
        if (pid ? owner != pid : (!all && owner != GetCurrentProcessId() && process_alive(owner))) {
            if (verbose)
                printf("left alone: %s (etwconf pid %lu is still running; --all stops it too)\n", nm, (unsigned long)owner);
            continue;
        }
        ULONG rc = dry ? 0 : stop_by_name(kernel ? KERNEL_LOGGER_W : name);
        if (verbose)
            printf("%s %s%s%s%s\n", dry ? "would stop:" : rc == ERROR_SUCCESS ? "stopped:" : "could not stop:", nm, kernel ? " (log file " : "",
                   kernel ? fl : "", kernel ? ")" : "");
        if (rc == ERROR_SUCCESS) {
            stopped++;
            if (kernel && !dry)
                DeleteFileW(file);
        } else if (failed) {
            (*failed)++;
            if (verbose)
                printf("  ControlTraceW(STOP) returned %lu%s\n", (unsigned long)rc, rc == ERROR_ACCESS_DENIED ? ": run as administrator" : "");
        }
    }
    free(bs);
    return stopped;
}

/* delete the NT Kernel Logger's log files the suite left in %TEMP%: those of process pid, or
 * (pid 0) of every process that is gone (all: also of running ones). Only exact names count
 * (names.h); verbose prints each. Returns the number deleted (or, dry, to delete). */
static int delete_kernel_logs(DWORD pid, bool all, bool dry, bool verbose)
{
    WCHAR tmp[MAX_PATH + 1], pat[MAX_PATH + 64];
    DWORD tl = GetTempPathW(MAX_PATH, tmp);
    if (!tl || tl > MAX_PATH)
        return 0;
    _snwprintf(pat, sizeof pat / sizeof pat[0] - 1, L"%ls" WIN_SESSION_PREFIXW L"*-kernel.etl", tmp);
    pat[sizeof pat / sizeof pat[0] - 1] = 0;
    WIN32_FIND_DATAW fd;
    HANDLE f = FindFirstFileW(pat, &fd);
    if (f == INVALID_HANDLE_VALUE)
        return 0;
    int files = 0;
    do {
        DWORD owner = (DWORD)etw_live_kernel_name_owner(fd.cFileName);
        if (!owner || (pid ? owner != pid : !all && owner != GetCurrentProcessId() && process_alive(owner)))
            continue; /* not named as the suite names its files, another process's, or its run goes on */
        WCHAR full[MAX_PATH * 2];
        _snwprintf(full, sizeof full / sizeof full[0] - 1, L"%ls%ls", tmp, fd.cFileName);
        full[sizeof full / sizeof full[0] - 1] = 0;
        if (dry || DeleteFileW(full)) { /* a file in use cannot be deleted: it stays */
            files++;
            if (verbose) {
                char nm[600];
                utf8(nm, sizeof nm, full);
                printf("%s %s\n", dry ? "would delete:" : "deleted:", nm);
            }
        }
    } while (FindNextFileW(f, &fd));
    FindClose(f);
    return files;
}

int win_stop_sessions_of(DWORD pid, bool verbose)
{
    if (!L.control_trace)
        return 0;
    int r = stop_suite_sessions(pid, false, false, verbose, NULL);
    delete_kernel_logs(pid, false, false, verbose);
    return r < 0 ? 0 : r;
}

int win_cmd_cleanup(int argc, char **argv)
{
    bool all = false, dry = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--dry-run"))
            dry = true;
        else {
            fprintf(stderr, "etwconf.exe cleanup: unknown option '%s' (cleanup [--all] [--dry-run])\n", argv[i]);
            return 2;
        }
    }
    char err[256];
    if (!win_live_target(err, sizeof err))
        return 3;
    int failed = 0;
    int n = stop_suite_sessions(0, all, dry, true, &failed);
    if (n < 0) {
        printf("cleanup: cannot list the ETW sessions (QueryAllTracesW failed): run as administrator\n");
        return 1;
    }
    int files = delete_kernel_logs(0, all, dry, true);
    printf("cleanup: %d session(s) %s, %d log file(s) %s, %d failure(s)%s\n", n, dry ? "to stop" : "stopped", files,
           dry ? "to delete" : "deleted", failed, n || files || failed ? "" : ": nothing left behind");
    return failed ? 1 : 0;
}
