/* harness/targets/win_live/cleanup.c - stopping what a killed run left behind, and the cleanup command. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

/* whether what process owner left stays: a pass for one pid (pid != 0) takes only that pid's; a
 * pass for all (pid 0) what processes that are gone left, and with all what running ones use */
static bool spared(DWORD owner, DWORD pid, bool all)
{
    if (pid || all || owner == GetCurrentProcessId())
        return pid && owner != pid;
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, owner);
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
        DWORD owner = kernel ? run_file_owner(file) : (DWORD)etw_live_session_owner(name);
        if (!owner)
            continue;
        char nm[160], fl[600];
        utf8(nm, sizeof nm, name);
        utf8(fl, sizeof fl, file);
        if (spared(owner, pid, all)) {
            if (verbose)
                printf("left alone: %s (etwconf pid %lu is still running; --all stops it too)\n", nm, (unsigned long)owner);
            continue;
        }
        const WCHAR *by = kernel ? KERNEL_LOGGER_W : name;
        ULONG rc = dry ? 0 : live_control(0, by, EVENT_TRACE_CONTROL_STOP, NULL);
        if (verbose)
            printf("%s %s%s%s%s\n", dry ? "would stop:" : rc == ERROR_SUCCESS ? "stopped:" : "could not stop:", nm, kernel ? " (log file " : "",
                   kernel ? fl : "", kernel ? ")" : "");
        if (rc == ERROR_SUCCESS) {
            stopped++; /* its log file goes with the private directory it is in (remove_run_dirs) */
        } else if (failed) {
            (*failed)++;
            if (verbose)
                printf("  ControlTraceW(STOP) returned %lu%s\n", (unsigned long)rc, rc == ERROR_ACCESS_DENIED ? ": run as administrator" : "");
        }
    }
    free(bs);
    return stopped;
}

/* the files a process of the suite left in its private directory (rundir.c), then the directory:
 * in the directories %TEMP%\etwconf-<pid>-<32 hex> of process pid, or (pid 0) of every process
 * that is gone (all: also of running ones). Only exact names count (names.h), a directory is
 * entered only when it is a plain one (never through a junction or link: run_dir_open_checked),
 * and only the files named as the suite names them are deleted; a directory holding anything else
 * stays. verbose prints each. Returns the number of files and directories deleted (dry: to). */
static int remove_run_dirs(DWORD pid, bool all, bool dry, bool verbose)
{
    WCHAR tmp[MAX_PATH + 1], pat[MAX_PATH + 64];
    if (!run_temp_dir(tmp, sizeof tmp / sizeof tmp[0]))
        return 0;
    WFMT(pat, L"%ls" WIN_SESSION_PREFIXW L"*", tmp);
    WIN32_FIND_DATAW fd;
    HANDLE f = FindFirstFileW(pat, &fd);
    if (f == INVALID_HANDLE_VALUE)
        return 0;
    int removed = 0;
    do {
        DWORD owner = (DWORD)etw_live_run_dir_owner(fd.cFileName);
        if (!owner || spared(owner, pid, all))
            continue; /* not named as the suite names its directories, another process's, or its run goes on */
        char nm[MAX_PATH * 3], why[200];
        WCHAR dir[MAX_PATH + 64], file[MAX_PATH + 96];
        WFMT(dir, L"%ls%ls", tmp, fd.cFileName);
        utf8(nm, sizeof nm, dir);
        /* checked on the opened handle, not on what the listing said: the entry may change between the two */
        HANDLE h = run_dir_open_checked(tmp, fd.cFileName, why, sizeof why);
        if (h == INVALID_HANDLE_VALUE) {
            if (verbose)
                printf("left alone: %s (%s)\n", nm, why);
            continue;
        }
        WIN32_FIND_DATAW ff;
        WFMT(file, L"%ls\\*", dir);
        HANDLE g = FindFirstFileW(file, &ff);
        bool other = false;
        if (g != INVALID_HANDLE_VALUE) {
            do {
                if (!wcscmp(ff.cFileName, L".") || !wcscmp(ff.cFileName, L".."))
                    continue;
                if (!etw_live_run_file_seq(ff.cFileName) || (ff.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
                    other = true; /* not a name the suite gives: not ours to delete */
                    continue;
                }
                WFMT(file, L"%ls\\%ls", dir, ff.cFileName);
                if (dry || DeleteFileW(file)) { /* a file in use cannot be deleted: it stays */
                    removed++;
                    if (verbose) {
                        char fl[MAX_PATH * 3];
                        utf8(fl, sizeof fl, file);
                        printf("%s %s\n", dry ? "would delete:" : "deleted:", fl);
                    }
                } else
                    other = true;
            } while (FindNextFileW(g, &ff));
            FindClose(g);
        }
        CloseHandle(h);
        if (other) {
            if (verbose)
                printf("left alone: %s (it holds files the suite did not create or cannot delete)\n", nm);
        } else if (dry || RemoveDirectoryW(dir)) {
            removed++;
            if (verbose)
                printf("%s %s\n", dry ? "would delete:" : "deleted:", nm);
        }
    } while (FindNextFileW(f, &fd));
    FindClose(f);
    return removed;
}

/* the security entries (a no-access session's deny entry) of the suite's session GUIDs under
 * HKLM\SYSTEM\CurrentControlSet\Control\WMI\Security: REG_BINARY values named by the GUID in
 * lower case without braces (the Windows Research Kernel's wmi/secure.c formats the name with
 * "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x"; a Process Monitor log of a Windows 10
 * process shows the same form). Whose, as remove_run_dirs; only a name that is exactly a GUID the
 * suite makes counts (build.h), removed by EventAccessRemove, the API that made it. */
static int remove_acl_values(DWORD pid, bool all, bool dry, bool verbose, int *failed)
{
    HKEY k;
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SYSTEM\\CurrentControlSet\\Control\\WMI\\Security", 0, KEY_QUERY_VALUE, &k) != ERROR_SUCCESS)
        return 0;
    enum { MAXV = 256 };
    static etw_guid found[MAXV];
    int n = 0;
    for (DWORD i = 0; n < MAXV; i++) { /* collected first: removing values while enumerating shifts the indices */
        WCHAR name[64];
        DWORD nl = sizeof name / sizeof name[0];
        LONG rc = RegEnumValueW(k, i, name, &nl, NULL, NULL, NULL, NULL);
        if (rc == ERROR_NO_MORE_ITEMS)
            break;
        etw_guid g;
        if (rc == ERROR_SUCCESS && etw_lv_parse_guid_name(name, &g) && etw_lv_guid_pid(&g))
            found[n++] = g;
    }
    RegCloseKey(k);
    int removed = 0;
    for (int i = 0; i < n; i++) {
        DWORD owner = etw_lv_guid_pid(&found[i]);
        if (spared(owner, pid, all))
            continue;
        GUID g;
        memcpy(&g, &found[i], sizeof g);
        ULONG rc = dry ? 0 : EventAccessRemove(&g);
        if (verbose)
            printf("%s the security entry of session GUID %08lx-...-%02x%02x (etwconf pid %lu)%s\n",
                   dry ? "would remove:" : rc == ERROR_SUCCESS ? "removed:" : "could not remove:", (unsigned long)found[i].Data1,
                   found[i].Data4[6], found[i].Data4[7], (unsigned long)owner, rc == ERROR_SUCCESS ? "" : " (EventAccessRemove failed)");
        if (rc == ERROR_SUCCESS)
            removed++;
        else if (failed)
            (*failed)++;
    }
    return removed;
}

void win_stop_sessions_of(struct etw_target *t, unsigned long pid)
{
    if (!LB_HAVE(ControlTraceW))
        return;
    stop_suite_sessions((DWORD)pid, false, false, false, NULL);
    remove_acl_values((DWORD)pid, false, false, false, NULL); /* after its sessions stopped */
    remove_run_dirs((DWORD)pid, false, false, false);
}

int win_cmd_cleanup(int argc, char **argv)
{
    bool all = false, dry = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--dry-run"))
            dry = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: etwconf.exe cleanup [--all] [--dry-run]\n"
                   "Stops the ETW sessions a killed etwconf.exe left behind (named etwconf-<pid>-<n>, and the NT Kernel Logger\n"
                   "when its log file is one of the suite's), removes the security entries of its session GUIDs and the private\n"
                   "directories such runs left in %%TEMP%%\n"
                   "(etwconf-<pid>-<32 hex digits>: only their kernel-<n>.etl and private-<n>.etl files; never through a junction or link).\n"
                   "Only what belongs to processes that are gone, unless --all. Run it as administrator.\n"
                   "  --all      also what an etwconf.exe that is still running uses\n"
                   "  --dry-run  list, change nothing\n"
                   "Exit status: 0 done, 1 something could not be stopped or listed, 2 usage, 3 no live target.\n");
            return 0;
        } else {
            fprintf(stderr, "etwconf.exe cleanup: unknown option '%s' (cleanup [--all] [--dry-run])\n", argv[i]);
            return 2;
        }
    }
    char err[256];
    open_common(); /* the modules and the bound table: no target is run, nothing is changed */
    if (!lb_bind(err, sizeof err))
        return 3;
    int failed = 0;
    int n = stop_suite_sessions(0, all, dry, true, &failed);
    int acls = remove_acl_values(0, all, dry, true, &failed);
    int files = remove_run_dirs(0, all, dry, true); /* a log file still in use stays */
    if (n < 0) {
        printf("cleanup: cannot list the ETW sessions (QueryAllTracesW failed): run as administrator; %d file(s) and private "
               "directories %s\n", files, dry ? "to delete" : "deleted");
        return 1;
    }
    printf("cleanup: %d session(s) %s, %d security entr%s %s, %d file(s) and private directories %s, %d failure(s)%s\n", n,
           dry ? "to stop" : "stopped", acls, acls == 1 ? "y" : "ies", dry ? "to remove" : "removed", files, dry ? "to delete" : "deleted",
           failed, n || acls || files || failed ? "" : ": nothing left behind");
    return failed ? 1 : 0;
}
