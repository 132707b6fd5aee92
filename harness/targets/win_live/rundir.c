/*
 * harness/targets/win_live/rundir.c - the private directory of a process of the suite, where every
 * file it writes lives: never at a %TEMP% path another process could predict and prepare as a
 * link for an elevated run to write through. %TEMP%\etwconf-<pid>-<32 random hex digits>
 * (RtlGenRandom, else BCryptGenRandom) is made by CreateDirectoryW (fails on any existing name)
 * with a protected DACL for this user, Administrators and SYSTEM only, and used once opened
 * without following a reparse point and found a plain directory at exactly that entry. Its handle
 * stays open without FILE_SHARE_DELETE until the end; its files are CREATE_NEW; at the end the
 * files this process created go by exact name, then the directory (only if empty).
 */
#include "harness/targets/win_live/live.h"
#include <sddl.h>
#include <string.h>


static struct {
    HANDLE h; /* the directory, open while it is in use */
    WCHAR parent[MAX_PATH + 1]; /* %TEMP%, ending in a separator */
    WCHAR path[MAX_PATH + 64]; /* parent + name */
    WCHAR files[32][24]; /* names of the files created in it and not yet deleted */
} R = {INVALID_HANDLE_VALUE, {0}, {0}, {{0}}};

bool run_temp_dir(WCHAR *tmp, DWORD cap)
{
    DWORD n = GetTempPathW(cap, tmp);
    if (!n || n >= cap || n + 1 >= cap)
        return false;
    if (tmp[n - 1] != L'\\' && tmp[n - 1] != L'/')
        wcscat(tmp, L"\\");
    return true;
}

static bool final_path(HANDLE h, WCHAR *out, DWORD cap)
{
    if (!LB_HAVE(GetFinalPathNameByHandleW))
        return false;
    DWORD n = GetFinalPathNameByHandleW(h, out, cap, 0 /* FILE_NAME_NORMALIZED | VOLUME_NAME_DOS */);
    return n && n < cap;
}

/* open parent + name, a directory of the suite, without following a reparse point: the handle
 * (no FILE_SHARE_DELETE: it stays where it is while open) when it is a plain directory whose final
 * path is that entry of parent; INVALID_HANDLE_VALUE and why otherwise. Before Windows Vista (no
 * GetFinalPathNameByHandleW) the attributes are checked only: junctions are reparse points too. */
HANDLE run_dir_open_checked(const WCHAR *parent, const WCHAR *name, char *why, size_t len)
{
    WCHAR path[MAX_PATH + 64];
    if (_snwprintf(path, sizeof path / sizeof path[0], L"%ls%ls", parent, name) < 0)
        return snprintf(why, len, "the path is too long"), INVALID_HANDLE_VALUE;
    HANDLE h = CreateFileW(path, FILE_READ_ATTRIBUTES | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return snprintf(why, len, "cannot open it (error %lu)", GetLastError()), h;
    BY_HANDLE_FILE_INFORMATION fi;
    WCHAR fin[2 * MAX_PATH + 64], pfin[2 * MAX_PATH + 64];
    const char *bad = NULL;
    if (!GetFileInformationByHandle(h, &fi))
        bad = "its attributes cannot be read";
    else if (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
        bad = "it is a reparse point (a junction or a symbolic link), which the suite never follows";
    else if (!(fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
        bad = "it is not a directory";
    else if (final_path(h, fin, sizeof fin / sizeof fin[0])) {
        HANDLE ph = CreateFileW(parent, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                                FILE_FLAG_BACKUP_SEMANTICS, NULL);
        bool ok = ph != INVALID_HANDLE_VALUE && final_path(ph, pfin, sizeof pfin / sizeof pfin[0]) && etw_live_final_path_is(fin, pfin, name);
        if (ph != INVALID_HANDLE_VALUE)
            CloseHandle(ph);
        if (!ok)
            bad = "its final path is not that entry of the temporary directory: a link led elsewhere";
    }
    if (bad) {
        snprintf(why, len, "%s", bad);
        CloseHandle(h);
        return INVALID_HANDLE_VALUE;
    }
    return h;
}

/* a security descriptor that grants full access to this user, Administrators and SYSTEM, to the
 * directory and what is created in it, and protects it from inheriting anything (LocalFree it) */
static PSECURITY_DESCRIPTOR private_sd(void)
{
    HANDLE tok;
    char buf[256];
    DWORD got = 0;
    WCHAR *sid = NULL, sddl[256];
    PSECURITY_DESCRIPTOR sd = NULL;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok))
        return NULL;
    bool ok = GetTokenInformation(tok, TokenUser, buf, sizeof buf, &got) && ConvertSidToStringSidW(((TOKEN_USER *)buf)->User.Sid, &sid);
    CloseHandle(tok);
    if (!ok)
        return NULL;
    WFMT(sddl, L"D:P(A;OICI;FA;;;%ls)(A;OICI;FA;;;BA)(A;OICI;FA;;;SY)", sid);
    LocalFree(sid);
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, NULL))
        return NULL;
    return sd;
}

/* the private directory, created on first use: true, or false and why */
static bool run_dir(char *why, size_t len)
{
    if (R.h != INVALID_HANDLE_VALUE)
        return true;
    if (!run_temp_dir(R.parent, sizeof R.parent / sizeof R.parent[0]))
        return snprintf(why, len, "no temporary directory (GetTempPathW)"), false;
    PSECURITY_DESCRIPTOR sd = private_sd();
    if (!sd)
        return snprintf(why, len, "cannot build a private security descriptor (error %lu)",
                        GetLastError()), false;
    SECURITY_ATTRIBUTES sa = {sizeof sa, sd, FALSE};
    WCHAR name[64];
    DWORD err = 0;
    char e[160] = "";
    for (int tries = 0; tries < 4 && R.h == INVALID_HANDLE_VALUE; tries++) {
        unsigned char rnd[ETW_LIVE_RUN_RANDOM];
        /* RtlGenRandom, else BCryptGenRandom with BCRYPT_USE_SYSTEM_PREFERRED_RNG */
        if (!SystemFunction036(rnd, sizeof rnd) && BCryptGenRandom(NULL, rnd, sizeof rnd, 2) != 0) {
            snprintf(e, sizeof e, "the system's random generator failed");
            break;
        }
        etw_live_run_dir_name(name, sizeof name / sizeof name[0], GetCurrentProcessId(), rnd);
        WFMT(R.path, L"%ls%ls", R.parent, name);
        if (!CreateDirectoryW(R.path, &sa)) { /* an existing name of any kind: another name */
            err = GetLastError();
            snprintf(e, sizeof e, "CreateDirectoryW failed (error %lu)", (unsigned long)err);
            if (err != ERROR_ALREADY_EXISTS)
                break;
            continue;
        }
        R.h = run_dir_open_checked(R.parent, name, e, sizeof e);
        if (R.h == INVALID_HANDLE_VALUE) {
            RemoveDirectoryW(R.path); /* ours if it is still an empty directory; a link itself at most */
            break;
        }
    }
    LocalFree(sd);
    if (R.h == INVALID_HANDLE_VALUE) {
        char p[MAX_PATH * 3];
        utf8(p, sizeof p, R.path);
        snprintf(why, len, "no private directory for the suite's files (%s): %s", p, e);
        R.path[0] = 0;
        return false;
    }
    return true;
}

static bool handle_identity(HANDLE h, struct etw_lv_file_id *id)
{
    BY_HANDLE_FILE_INFORMATION fi;
    if (!GetFileInformationByHandle(h, &fi))
        return false;
    *id = (struct etw_lv_file_id){fi.dwVolumeSerialNumber, fi.nFileIndexHigh, fi.nFileIndexLow};
    return true;
}

/* Opened for its attributes only, without following a reparse point: FILE_READ_ATTRIBUTES takes
 * part in no share-mode check (IoCheckShareAccess checks only read, write, delete and execute
 * access), so the log file of a running logger opens too. */
static bool run_file_identity(const WCHAR *path, struct etw_lv_file_id *id)
{
    HANDLE h = CreateFileW(path, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    bool ok = handle_identity(h, id);
    CloseHandle(h);
    return ok;
}

bool run_reported_identity(const WCHAR *reported, struct etw_lv_file_id *id)
{
    WCHAR path[2 * MAX_PATH + 64];
    return etw_lv_openable_path(reported, path, sizeof path / sizeof path[0]) && run_file_identity(path, id);
}

DWORD run_file_owner(const WCHAR *reported)
{
    WCHAR tmp[MAX_PATH + 1], pat[MAX_PATH + 96];
    struct etw_lv_file_id id;
    if (!run_reported_identity(reported, &id) || !run_temp_dir(tmp, sizeof tmp / sizeof tmp[0]))
        return 0;
    WFMT(pat, L"%ls" WIN_SESSION_PREFIXW L"*", tmp);
    WIN32_FIND_DATAW fd, ff;
    HANDLE f = FindFirstFileW(pat, &fd);
    DWORD owner = 0;
    if (f == INVALID_HANDLE_VALUE)
        return 0;
    do {
        DWORD pid = (DWORD)etw_live_run_dir_owner(fd.cFileName);
        char why[200];
        HANDLE d = pid ? run_dir_open_checked(tmp, fd.cFileName, why, sizeof why) : INVALID_HANDLE_VALUE;
        if (d == INVALID_HANDLE_VALUE)
            continue; /* not a directory of the suite's, or not a plain one: never entered */
        WFMT(pat, L"%ls%ls\\*", tmp, fd.cFileName);
        HANDLE g = FindFirstFileW(pat, &ff);
        if (g != INVALID_HANDLE_VALUE) {
            do {
                WCHAR file[MAX_PATH + 160];
                struct etw_lv_file_id fid;
                if (!etw_live_run_file_seq(ff.cFileName))
                    continue;
                WFMT(file, L"%ls%ls\\%ls", tmp, fd.cFileName, ff.cFileName);
                if (run_file_identity(file, &fid) && etw_lv_same_file(&fid, &id))
                    owner = pid;
            } while (!owner && FindNextFileW(g, &ff));
            FindClose(g);
        }
        CloseHandle(d);
    } while (!owner && FindNextFileW(f, &fd));
    FindClose(f);
    return owner;
}

bool run_file_new(const WCHAR *name, WCHAR *path, size_t cap, struct etw_lv_file_id *id, char *why, size_t len)
{
    if (!run_dir(why, len))
        return false;
    size_t slot = 0;
    while (slot < sizeof R.files / sizeof R.files[0] && R.files[slot][0])
        slot++;
    if (slot == sizeof R.files / sizeof R.files[0] || wcslen(name) >= sizeof R.files[0] / sizeof R.files[0][0] ||
        _snwprintf(path, cap, L"%ls\\%ls", R.path, name) < 0)
        return snprintf(why, len, "too many files or too long a path in the private directory"),
               false;
    HANDLE f = CreateFileW(path, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (f == INVALID_HANDLE_VALUE)
        return snprintf(why, len, "creating a file in the private directory (CREATE_NEW) failed "
                        "(error %lu)", GetLastError()), false;
    bool known = handle_identity(f, id); /* of the very file created: what the session must write to */
    CloseHandle(f);
    if (!known) {
        DeleteFileW(path);
        snprintf(why, len, "GetFileInformationByHandle on the new file failed (error %lu)", GetLastError());
        return false;
    }
    wcscpy(R.files[slot], name);
    return true;
}

void run_file_delete(const WCHAR *path)
{
    size_t n = wcslen(R.path);
    if (!n || _wcsnicmp(path, R.path, n) || path[n] != L'\\')
        return; /* not in the private directory: nothing of ours */
    for (size_t i = 0; i < sizeof R.files / sizeof R.files[0]; i++)
        if (R.files[i][0] && !_wcsicmp(path + n + 1, R.files[i]) && DeleteFileW(path))
            R.files[i][0] = 0;
}

void run_dir_remove(void)
{
    if (R.h == INVALID_HANDLE_VALUE)
        return;
    WCHAR p[MAX_PATH + 96];
    for (size_t i = 0; i < sizeof R.files / sizeof R.files[0]; i++) {
        WFMT(p, L"%ls\\%ls", R.path, R.files[i]);
        run_file_delete(p);
    }
    CloseHandle(R.h);
    R.h = INVALID_HANDLE_VALUE;
    RemoveDirectoryW(R.path); /* only an empty directory goes */
    R.path[0] = 0;
}
