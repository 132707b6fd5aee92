/*
 * harness/targets/win_live/live.h - the live Windows target's shared state and functions (the
 * files of this folder only). Not used on Linux.
 *
 * Its files use one another in one direction only, each the files after it (checked on the
 * objects by harness/tests/layers.py): target.c, cleanup.c, events.c, needs.c, fingerprint.c,
 * dll.c, sessions.c, rundir.c, state.c, bind.c, build.c, names.c.
 *
 * Every API is looked up with GetProcAddress in the module that exports it, never imported
 * statically (the exe must load on every version from 5.2 on); the fixtures' functions go through
 * the one table of bind.def, which a twin of Windows can answer instead (harness/twin/). The
 * fixtures are real ETW sessions the suite starts itself and always stops; what the target
 * touches on the machine and when it restores it: harness/windows/README.md.
 */
#ifndef ETWCONF_WIN_LIVE_H
#define ETWCONF_WIN_LIVE_H

#include "harness/targets/targets.h"
#include "harness/plat/win/win.h"
#include "harness/targets/win_live/names.h"
#include "harness/targets/win_live/build.h"
#include "harness/targets/win_live/needs.h"
#include "harness/targets/win_live/bind.h"
#include <wchar.h>

/* every ETW session the suite starts is named SESSION_PREFIXW "<pid>-<n>" (names.h) */
#define WIN_SESSION_PREFIXW L"etwconf-"

#define KERNEL_LOGGER_W L"NT Kernel Logger"
#define SE_SYSTEM_PROFILE "SeSystemProfilePrivilege"
/* _snwprintf into a WCHAR array, always NUL-terminated */
#define WFMT(buf, ...) (_snwprintf((buf), sizeof(buf) / sizeof (buf)[0] - 1, __VA_ARGS__), \
                        (buf)[sizeof(buf) / sizeof (buf)[0] - 1] = 0)

/* ---------------------------------------------------------------- the modules the API lives in */
#define NMODS 5
#define MOD_NTDLL 3 /* mod_names[MOD_NTDLL] */

struct live {
    struct etw_target t;
    bool open;
    OSVERSIONINFOEXW vi;
    bool wine;
    const char *wine_version, *wine_sys, *wine_release;
    HANDLE token;
    bool token_adjust; /* the token was opened with TOKEN_ADJUST_PRIVILEGES */
    int elevated; /* 1, 0, -1 unknown (before 6.0) */
    int elevation_type; /* TokenElevationType: 1 default, 2 full, 3 limited; 0 unknown */
    bool admin_member, admin;
    LUID profile_luid;
    int profile_initial; /* -1 absent from the token, 0 disabled, 1 enabled */
    volatile LONG profile_changed;
    bool tpi_saved; /* the sampled-profile interval at the start, to restore */
    etw_u32 tpi_value;
    volatile LONG session_seq;
    int kernel_at_start; /* the NT Kernel Logger at start: 0 not running, 1 someone else's, 2 unknown */
};
extern struct live win_live;
#define L win_live

struct props_buf {
    EVENT_TRACE_PROPERTIES p;
    WCHAR logger[1024];
    WCHAR file[1024];
};

enum { SL_FREE, SL_STARTING, SL_LIVE, SL_STOPPING };
struct session {
    volatile LONG state;
    bool kernel;
    bool private_inproc; /* queried and stopped by handle: not in the global session list */
    bool acl; /* its GUID carries the suite's deny-TRACELOG_GUID_ENABLE entry: removed at stop */
    GUID guid;
    etw_tracehandle h;
    WCHAR name[64];
    WCHAR file[MAX_PATH + 96]; /* its log file, when it has one (the kernel logger, a private session) */
    struct etw_lv_file_id fid; /* that file's identity: how the session is recognised */
    bool provider; /* a private session: its GUID is registered as a provider of this process (reg) */
    etw_u64 reg;
};
extern struct session sessions[8];

/* bind.c (the table's own functions are in bind.h) */
extern const char *const mod_names[NMODS]; /* advapi32 sechost kernelbase ntdll kernel32 */
extern HMODULE mod_handles[NMODS]; /* loaded by load_modules, NULL where absent */
void load_modules(void);
void *fn_ptr(FARPROC p);
void utf8(char *out, size_t cap, const WCHAR *w);
/* state.c; open_common: the modules, the bound table (its error printed), the version, the token */
void open_common(void);
enum etw_fx live_set_privilege(struct etw_target *t, unsigned privilege, int held, char *why, size_t len);
bool tpi_query(etw_u32 *v);
/* the sampled-profile interval found at the start, then the privilege as the token had it */
void restore_profile(void);
/* rundir.c: the private directory %TEMP%\etwconf-<pid>-<random hex> of this process */
bool run_temp_dir(WCHAR *tmp, DWORD cap); /* %TEMP% ending in a separator */
/* a new file (kernel-<n>.etl, private-<n>.etl) in the private directory, made on first use: its
 * full path in path, its identity in id; false and why when it cannot be */
bool run_file_new(const WCHAR *name, WCHAR *path, size_t cap, struct etw_lv_file_id *id, char *why, size_t len);
/* the identity of a log file as a session query reports its path (any form: etw_lv_openable_path) */
bool run_reported_identity(const WCHAR *reported, struct etw_lv_file_id *id);
/* the pid of the suite's process whose private directory holds the log file a session query
 * reports, by the file's identity; 0 for any other file */
DWORD run_file_owner(const WCHAR *reported);
void run_file_delete(const WCHAR *path); /* a file run_file_new created, by exact path */
void run_dir_remove(void); /* at the end: the files created and not deleted, then the directory */
HANDLE run_dir_open_checked(const WCHAR *parent, const WCHAR *name, char *why, size_t len);
/* sessions.c */
const WCHAR *props_name(const EVENT_TRACE_PROPERTIES *p, ULONG off);
/* EnableTraceEx2(session, provider (a GUID), e's arguments, params or NULL) */
ULONG live_enable(etw_tracehandle session, const void *provider, const struct etw_lv_enable_call *e,
                  const struct etw_lv_enable_params *params);
/* ControlTraceW(code) by handle (name NULL) or by name; what it fills in goes to b (may be NULL) */
ULONG live_control(etw_tracehandle h, const WCHAR *name, ULONG code, struct props_buf *b);
void stop_all_sessions(void);
struct props_buf *all_sessions(ULONG *count);
enum etw_lv_kernel_state kernel_logger_state(void *arg, unsigned long *who);
enum etw_fx live_start_logger(struct etw_target *t, unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle, char *why, size_t len);
int live_stop_logger(etw_tracehandle h);
etw_tracehandle live_missing_logger(void);
/* dll.c: a DLL that exports the API under its Windows names (third-party target) */
struct etw_target *win_dll_target(const char *path, char *err, size_t errlen);
/* fingerprint.c */
void live_fingerprint(struct etw_target *t, struct etw_json *j);
void dll_fingerprint(struct etw_target *t, struct etw_json *j);
/* needs.c: the target's need hook (struct etw_target .need) */
bool live_need(struct etw_target *t, unsigned need, char *why, size_t len);
/* events.c */
etw_u32 live_enable_group(etw_tracehandle session, const etw_guid *group, etw_u32 *enabled);
enum etw_fx live_event_traits(struct etw_target *t, etw_tracehandle session, const etw_guid *provider, etw_reghandle reg, etw_u8 *out,
                              etw_u32 cap, etw_u32 *size, const char **absent, char *why, size_t len);
/* cleanup.c: what a (dead) worker process pid of this suite left behind goes (.worker_died) */
void win_stop_sessions_of(struct etw_target *t, unsigned long pid);
int win_cmd_cleanup(int argc, char **argv); /* etwconf.exe cleanup [--all] [--dry-run] */

#endif
