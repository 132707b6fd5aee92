/* harness/targets/win_live/sessions.c - the ETW sessions the suite starts itself, and recognising them. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

struct session sessions[8];
static const GUID system_trace_control_guid = {0x9e814aad, 0x3204, 0x11d2, {0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39}};

/* ---------------------------------------------------------------- sessions */
void props_init(struct props_buf *b)
{
    memset(b, 0, sizeof *b);
    b->p.Wnode.BufferSize = sizeof *b;
    b->p.LoggerNameOffset = offsetof(struct props_buf, logger);
    b->p.LogFileNameOffset = offsetof(struct props_buf, file);
}

const WCHAR *props_name(const EVENT_TRACE_PROPERTIES *p, ULONG off)
{
    static const WCHAR empty[1] = {0};
    return off && off < p->Wnode.BufferSize ? (const WCHAR *)((const char *)p + off) : empty;
}

/* query a session by name; true when it exists (the answer describes a session: a real QUERY
 * always reports its buffer size). Wine's ControlTraceW returns 0 and fills in nothing. */
bool query_session(const WCHAR *name, struct props_buf *b, ULONG *rc_out)
{
    props_init(b);
    ULONG rc = ControlTraceW(0, name, &b->p, EVENT_TRACE_CONTROL_QUERY);
    if (rc_out)
        *rc_out = rc;
    return rc == ERROR_SUCCESS && b->p.BufferSize != 0;
}

ULONG stop_by_name(const WCHAR *name)
{
    struct props_buf b;
    props_init(&b);
    return ControlTraceW(0, name, &b.p, EVENT_TRACE_CONTROL_STOP);
}

/* the pid of a kernel log file the suite wrote: exactly kernel-<n>.etl in a private directory
 * %TEMP%\etwconf-<pid>-<32 hex> (names.h), 0 for any other path */
DWORD kernel_file_owner(const WCHAR *path)
{
    WCHAR tmp[MAX_PATH + 2];
    return run_temp_dir(tmp, sizeof tmp / sizeof tmp[0]) ? (DWORD)etw_live_kernel_file_owner(path, tmp) : 0;
}


/* the no-access fixture: an entry in the security of the session's GUID (a GUID this process
 * created, build.c) that denies this process's user TRACELOG_GUID_ENABLE. 0 or a Win32 error. */
static ULONG deny_enable(struct session *s)
{
    etw_guid g;
    memcpy(&g, &s->guid, sizeof g);
    if (!LB_HAVE(EventAccessControl))
        return ERROR_PROC_NOT_FOUND;
    if (!etw_lv_guid_is_ours(&g, (etw_u32)GetCurrentProcessId()) || !L.token)
        return ERROR_INVALID_PARAMETER;
    char buf[256];
    DWORD got = 0;
    if (!GetTokenInformation(L.token, TokenUser, buf, sizeof buf, &got))
        return GetLastError();
    struct etw_lv_access_call a;
    etw_lv_deny_enable_call(&a);
    s->acl = true; /* set before the call: a half-done change is removed too */
    return EventAccessControl(&s->guid, a.operation, ((TOKEN_USER *)buf)->User.Sid, a.rights, a.allow ? TRUE : FALSE);
}

/* what deny_enable added goes: EventAccessRemove deletes the GUID's security entry, which
 * existed only because the suite created the GUID */
static void remove_acl(struct session *s)
{
    etw_guid g;
    memcpy(&g, &s->guid, sizeof g);
    if (!s->acl || !etw_lv_guid_is_ours(&g, (etw_u32)GetCurrentProcessId()))
        return;
    EventAccessRemove(&s->guid);
    s->acl = false;
}

/* stop a session of ours: by name (a private in-process one by its handle); the kernel logger
 * only if its log file is still ours */
void session_stop(struct session *s)
{
    remove_acl(s);
    if (s->private_inproc) {
        struct props_buf b;
        props_init(&b);
        ControlTraceW((TRACEHANDLE)s->h, NULL, &b.p, EVENT_TRACE_CONTROL_STOP);
    } else if (s->kernel) {
        struct props_buf b;
        if (query_session(KERNEL_LOGGER_W, &b, NULL) && !_wcsicmp(props_name(&b.p, b.p.LogFileNameOffset), s->file))
            stop_by_name(KERNEL_LOGGER_W);
        run_file_delete(s->file);
    } else {
        stop_by_name(s->name);
    }
}

void stop_all_sessions(void)
{
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        struct session *s = &sessions[i];
        LONG st = s->state;
        if (st == SL_FREE || st == SL_STOPPING)
            continue;
        if (InterlockedCompareExchange(&s->state, SL_STOPPING, st) != st)
            continue;
        session_stop(s);
        InterlockedExchange(&s->state, SL_FREE);
    }
}

bool masks_set(const etw_u32 m[8])
{
    for (int i = 0; i < 8; i++)
        if (m && m[i])
            return true;
    return false;
}

const char *kind_name(unsigned kind)
{
    static const char *const n[] = {"", "the NT Kernel Logger", "a system-logger session", "a plain session", "a no-access session",
                                    "a private session"};
    return kind < 6 ? n[kind] : "a session";
}

/* start a session of kind for a case; on failure why says what went wrong: ETW_FX_SKIP when this
 * system cannot give the case what it needs, ETW_FX_BROKEN when setting it up failed */
enum etw_fx live_start_logger(struct etw_target *t, unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle, char *why, size_t len)
{
    (void)t;
#define FAIL_FIX(...)                                                                                                        \
    do {                                                                                                                     \
        snprintf(why, len, __VA_ARGS__);                                                                                     \
        return ETW_FX_BROKEN;                                                                                                \
    } while (0)
    struct etw_lv_session_plan plan;
    if (!etw_lv_session_plan(kind, &plan)) {
        snprintf(why, len, "needs %s, which etwconf.exe does not set up on a live system", kind_name(kind));
        return ETW_FX_SKIP;
    }
    if (!LB_HAVE(StartTraceW) || !LB_HAVE(ControlTraceW))
        FAIL_FIX("fixture: advapi32 does not export StartTraceW and ControlTraceW");
    struct session *s = NULL;
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0] && !s; i++)
        if (InterlockedCompareExchange(&sessions[i].state, SL_STARTING, SL_FREE) == SL_FREE)
            s = &sessions[i];
    if (!s)
        FAIL_FIX("fixture: more than %u sessions at once", (unsigned)(sizeof sessions / sizeof sessions[0]));
    LONG n = InterlockedIncrement(&L.session_seq);
    DWORD pid = GetCurrentProcessId();
    s->kernel = kind == LG_KERNEL;
    s->private_inproc = plan.query_by_handle;
    s->acl = false;
    s->h = 0;
    s->file[0] = 0;
    static struct props_buf b; /* one runner at a time */
    props_init(&b);
    b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    b.p.Wnode.ClientContext = 1; /* QueryPerformanceCounter timestamps */
    b.p.BufferSize = 64;
    b.p.FlushTimer = 1;
    if (s->kernel) {
        WCHAR fname[24];
        char fwhy[400];
        _snwprintf(fname, sizeof fname / sizeof fname[0] - 1, L"kernel-%ld.etl", (long)n);
        fname[sizeof fname / sizeof fname[0] - 1] = 0;
        if (!run_file_new(fname, s->file, sizeof s->file / sizeof s->file[0], fwhy, sizeof fwhy)) { /* rundir.c */
            InterlockedExchange(&s->state, SL_FREE);
            FAIL_FIX("fixture: the NT Kernel Logger's log file: %s", fwhy);
        }
        wcscpy(s->name, KERNEL_LOGGER_W);
        b.p.Wnode.Guid = system_trace_control_guid;
        b.p.LogFileMode = plan.log_file_mode;
        wcsncpy(b.file, s->file, sizeof b.file / sizeof b.file[0] - 1);
        b.p.EnableFlags = 0; /* masks, if any, are set below */
    } else {
        _snwprintf(s->name, sizeof s->name / sizeof s->name[0] - 1, WIN_SESSION_PREFIXW L"%lu-%ld", (unsigned long)pid, (long)n);
        etw_guid g;
        etw_lv_session_guid(&g, (etw_u32)pid, (etw_u32)n, (etw_u32)GetTickCount());
        memcpy(&b.p.Wnode.Guid, &g, sizeof g);
        b.p.LogFileMode = plan.log_file_mode;
        b.p.LogFileNameOffset = 0;
    }
    s->guid = b.p.Wnode.Guid;
    TRACEHANDLE h = 0;
    ULONG rc = StartTraceW(&h, s->name, &b.p);
    if (rc != ERROR_SUCCESS) {
        InterlockedExchange(&s->state, SL_FREE);
        struct props_buf q;
        if (s->kernel && rc == ERROR_ALREADY_EXISTS && query_session(KERNEL_LOGGER_W, &q, NULL)) {
            snprintf(why, len, "the NT Kernel Logger was started by someone else meanwhile; the suite never stops or changes a session it "
                               "did not start");
            return ETW_FX_SKIP;
        }
        if (s->kernel && rc == ERROR_ALREADY_EXISTS) /* none runs: the existing (empty, new) log file is what it refused */
            FAIL_FIX("fixture: StartTraceW for the NT Kernel Logger returned ERROR_ALREADY_EXISTS (183) while none runs: it refused the log "
                     "file the suite created for it");
        if (rc == ERROR_ACCESS_DENIED)
            FAIL_FIX("fixture: StartTraceW for %s returned ERROR_ACCESS_DENIED (5): administrator rights are needed", kind_name(kind));
        FAIL_FIX("fixture: StartTraceW for %s returned %lu", kind_name(kind), (unsigned long)rc);
    }
    s->h = h;
    InterlockedExchange(&s->state, SL_LIVE);
    /* a session that StartTraceW reports must exist: check it before a case relies on it */
    ULONG qrc = 0;
    bool described;
    if (s->private_inproc) {
        props_init(&b);
        qrc = ControlTraceW((TRACEHANDLE)h, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY);
        described = qrc == ERROR_SUCCESS && b.p.BufferSize != 0;
    } else {
        described = query_session(s->name, &b, &qrc);
    }
    if (!described || (s->kernel && _wcsicmp(props_name(&b.p, b.p.LogFileNameOffset), s->file))) {
        if (InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
            session_stop(s);
            InterlockedExchange(&s->state, SL_FREE);
        }
        if (described)
            FAIL_FIX("fixture: the NT Kernel Logger that runs after StartTraceW does not write to the suite's log file: someone else's");
        FAIL_FIX("fixture: StartTraceW for %s returned 0 (handle 0x%llX) but ControlTraceW(QUERY) returned %lu and does not describe "
                 "it: the session was not started%s",
                 kind_name(kind), (unsigned long long)h, (unsigned long)qrc, L.wine ? " (Wine: both are stubs that report success)" : "");
    }
    if (masks_set(masks)) {
        etw_u32 m[8];
        memcpy(m, masks, sizeof m);
        rc = TraceSetInformation(h, ETW_TraceSystemTraceEnableFlagsInfo, m, sizeof m);
        if (rc != ERROR_SUCCESS) {
            if (InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
                session_stop(s);
                InterlockedExchange(&s->state, SL_FREE);
            }
            FAIL_FIX("fixture: setting the group masks of %s with TraceSetInformation(TraceSystemTraceEnableFlagsInfo) %s %lu",
                     kind_name(kind), LB_HAVE(TraceSetInformation) ? "returned" : "is not exported:", (unsigned long)rc);
        }
    }
    if (plan.deny_enable) {
        rc = deny_enable(s);
        if (rc != ERROR_SUCCESS) {
            if (InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
                session_stop(s);
                InterlockedExchange(&s->state, SL_FREE);
            }
            FAIL_FIX("fixture: EventAccessControl denying this user TRACELOG_GUID_ENABLE on the session's GUID returned %lu",
                     (unsigned long)rc);
        }
    }
    *handle = h;
    return ETW_FX_OK;
#undef FAIL_FIX
}

int live_stop_logger(etw_tracehandle h)
{
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        struct session *s = &sessions[i];
        if (s->h == h && InterlockedCompareExchange(&s->state, SL_STOPPING, SL_LIVE) == SL_LIVE) {
            session_stop(s);
            InterlockedExchange(&s->state, SL_FREE);
            return 0;
        }
    }
    return -1;
}

/* every session running now (a malloc'ed array of count props_buf); NULL on failure */
struct props_buf *all_sessions(ULONG *count)
{
    enum { MAXS = 64 };
    struct props_buf *bs = calloc(MAXS, sizeof *bs);
    EVENT_TRACE_PROPERTIES *ps[MAXS];
    if (!bs || !LB_HAVE(QueryAllTracesW)) {
        free(bs);
        return NULL;
    }
    for (int i = 0; i < MAXS; i++) {
        props_init(&bs[i]);
        ps[i] = &bs[i].p;
    }
    *count = 0;
    ULONG rc = QueryAllTracesW(ps, MAXS, count);
    if (rc != ERROR_SUCCESS && rc != ERROR_MORE_DATA) {
        free(bs);
        return NULL;
    }
    if (*count > MAXS)
        *count = MAXS;
    return bs;
}

/* asked right before a case uses it: does logger id name no session now? A snapshot of the
 * sessions lists at most 64 and may be stale; a query by id is what the API under test sees */
static bool logger_id_free(etw_u64 id)
{
    struct props_buf b;
    props_init(&b);
    ULONG rc = ControlTraceW((TRACEHANDLE)id, NULL, &b.p, EVENT_TRACE_CONTROL_QUERY);
    /* Wine's ControlTraceW reports success and describes nothing: no session */
    return rc == WIN_ERROR_WMI_INSTANCE_NOT_FOUND || (rc == ERROR_SUCCESS && b.p.BufferSize == 0);
}

/* a logger id that names no session: not in the snapshot, and confirmed free by a query by id
 * right now; when none can be confirmed, the first id the snapshot does not list */
etw_tracehandle live_missing_logger(void)
{
    bool used[64] = {false};
    ULONG n = 0;
    struct props_buf *bs = all_sessions(&n);
    for (ULONG i = 0; bs && i < n; i++) {
        etw_u64 id = bs[i].p.Wnode.HistoricalContext & 0xFFFF;
        if (id < 64)
            used[id] = true;
    }
    free(bs);
    for (unsigned id = 0x3E; id > 1; id--)
        if (!used[id] && logger_id_free(id))
            return id;
    for (unsigned id = 0x3E; id > 1; id--)
        if (!used[id])
            return id;
    return 0x3E;
}

/* 0 not running (or not really: Wine), 1 someone else's, 2 ours (a leftover the next reset stops),
 * 3 left by another etwconf process (pid in *who), 4 cannot tell (no right to query) */
int kernel_logger_state(DWORD *who)
{
    struct props_buf b;
    ULONG rc = 0;
    if (!query_session(KERNEL_LOGGER_W, &b, &rc))
        return rc == ERROR_ACCESS_DENIED ? 4 : 0;
    DWORD pid = kernel_file_owner(props_name(&b.p, b.p.LogFileNameOffset));
    if (who)
        *who = pid;
    if (!pid)
        return 1;
    return pid == GetCurrentProcessId() ? 2 : 3;
}
