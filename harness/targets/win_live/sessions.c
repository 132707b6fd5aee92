/* harness/targets/win_live/sessions.c - the ETW sessions the suite starts itself, and recognising them. */
#include "harness/targets/win_live/live.h"
#include <stdlib.h>
#include <string.h>

struct session sessions[8];
static const GUID system_trace_control_guid = {0x9e814aad, 0x3204, 0x11d2, {0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39}};

static void props_init(struct props_buf *b)
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

ULONG live_control(etw_tracehandle h, const WCHAR *name, ULONG code, struct props_buf *b)
{
    struct props_buf own;
    if (!b)
        b = &own;
    props_init(b);
    return ControlTraceW((TRACEHANDLE)h, name, &b->p, code);
}

ULONG live_enable(etw_tracehandle session, const void *provider, const struct etw_lv_enable_call *e,
                  const struct etw_lv_enable_params *params)
{
    ENABLE_TRACE_PARAMETERS ep = {0}; /* EnableFilterDesc NULL */
    if (params) {
        ep = (ENABLE_TRACE_PARAMETERS){.Version = params->version,
                                       .EnableProperty = params->enable_property,
                                       .ControlFlags = params->control_flags,
                                       .FilterDescCount = params->filter_desc_count};
        memcpy(&ep.SourceId, &params->source_id, sizeof ep.SourceId);
    }
    GUID g;
    memcpy(&g, provider, sizeof g);
    return EnableTraceEx2((TRACEHANDLE)session, &g, e->control_code, e->level, e->match_any,
                          e->match_all, e->timeout_ms, params ? &ep : NULL);
}

/* whose session a query by the handle StartTraceW returned shows now: the decision is
 * etw_lv_session_owner's (build.c), from the log file's identity and the logger id, and a session
 * without a log file must also bear the exact name the suite gave it */
static enum etw_lv_owner session_seen(const struct session *s, ULONG *qrc, const char **why)
{
    struct props_buf b;
    ULONG rc = live_control(s->h, NULL, EVENT_TRACE_CONTROL_QUERY, &b);
    if (qrc)
        *qrc = rc;
    struct etw_lv_seen seen = {.described = rc == ERROR_SUCCESS && b.p.BufferSize != 0,
                               .id_started = etw_lv_logger_id(s->h),
                               .id_seen = etw_lv_logger_id(b.p.Wnode.HistoricalContext),
                               .file = ETW_LV_FILE_NONE,
                               .in_process = s->private_inproc};
    if (s->file[0]) {
        struct etw_lv_file_id id;
        seen.file = !run_reported_identity(props_name(&b.p, b.p.LogFileNameOffset), &id) ? ETW_LV_FILE_UNKNOWN
                    : etw_lv_same_file(&id, &s->fid)                                       ? ETW_LV_FILE_SAME
                                                                                           : ETW_LV_FILE_OTHER;
    }
    enum etw_lv_owner o = etw_lv_session_owner(&seen, why);
    if (o == ETW_LV_OURS && seen.file == ETW_LV_FILE_NONE && _wcsicmp(props_name(&b.p, b.p.LoggerNameOffset), s->name)) {
        *why = "the session answering the handle bears another name";
        return ETW_LV_NOT_OURS;
    }
    return o;
}

/* security is changed and removed only for a session GUID this process created (build.c) */
static bool guid_ours(const struct session *s)
{
    etw_guid g;
    memcpy(&g, &s->guid, sizeof g);
    return etw_lv_guid_is_ours(&g, (etw_u32)GetCurrentProcessId());
}

/* the no-access fixture: an entry in the security of the session's GUID that denies this
 * process's user TRACELOG_GUID_ENABLE. 0 or a Win32 error. */
static ULONG deny_enable(struct session *s)
{
    if (!LB_HAVE(EventAccessControl))
        return ERROR_PROC_NOT_FOUND;
    if (!guid_ours(s) || !L.token)
        return ERROR_INVALID_PARAMETER;
    char buf[256];
    DWORD got = 0;
    if (!GetTokenInformation(L.token, TokenUser, buf, sizeof buf, &got))
        return GetLastError();
    struct etw_lv_access_call a = etw_lv_deny_enable;
    s->acl = true; /* set before the call: a half-done change is removed too */
    return EventAccessControl(&s->guid, a.operation, ((TOKEN_USER *)buf)->User.Sid, a.rights, a.allow ? TRUE : FALSE);
}

/* where the deny entry landed: the GUID's security read back (EventAccessQuery) and its DACL
 * evaluated in order for this token (etw_lv_dacl_denies), said in out */
static void dacl_report(struct session *s, char *out, size_t len)
{
    ULONG size = 0;
    if (!LB_HAVE(EventAccessQuery)) {
        snprintf(out, len, "EventAccessQuery is not exported: the GUID's DACL cannot be read back");
        return;
    }
    EventAccessQuery(&s->guid, NULL, &size);
    void *sd = size && size < (1u << 20) ? malloc(size) : NULL;
    ULONG rc = sd ? EventAccessQuery(&s->guid, sd, &size) : ERROR_NOT_ENOUGH_MEMORY;
    BOOL present = FALSE, defaulted = FALSE;
    PACL acl = NULL;
    if (rc != ERROR_SUCCESS || !GetSecurityDescriptorDacl(sd, &present, &acl, &defaulted)) {
        snprintf(out, len, "the GUID's security could not be read back (EventAccessQuery returned %lu)", (unsigned long)rc);
        free(sd);
        return;
    }
    struct etw_lv_ace aces[64];
    int n = 0;
    for (DWORD i = 0; present && acl && i < acl->AceCount && n < 64; i++) {
        ACE_HEADER *h = NULL;
        if (!GetAce(acl, i, (void **)&h))
            break;
        int type = h->AceType == ACCESS_ALLOWED_ACE_TYPE  ? ETW_LV_ACE_ALLOW
                   : h->AceType == ACCESS_DENIED_ACE_TYPE ? ETW_LV_ACE_DENY
                                                          : ETW_LV_ACE_OTHER;
        /* ACCESS_ALLOWED_ACE and ACCESS_DENIED_ACE share their layout */
        const ACCESS_ALLOWED_ACE *x = type == ETW_LV_ACE_OTHER ? NULL : (void *)h;
        BOOL is = FALSE;
        bool applies = x && CheckTokenMembership(NULL, (PSID)&x->SidStart, &is) && is;
        aces[n++] = (struct etw_lv_ace){.type = type, .mask = x ? x->Mask : 0, .applies = applies,
                                        .inherit_only = (h->AceFlags & INHERIT_ONLY_ACE) != 0};
    }
    int deny = -1, allow = -1;
    bool denied = etw_lv_dacl_denies(present && acl, aces, n, ETW_LV_TRACELOG_GUID_ENABLE, &deny, &allow);
    if (denied && deny >= 0)
        snprintf(out, len, "its DACL (%d entries) denies this token TRACELOG_GUID_ENABLE at entry %d", n, deny);
    else if (denied)
        snprintf(out, len, "its DACL (%d entries) grants this token no TRACELOG_GUID_ENABLE", n);
    else
        snprintf(out, len, "its DACL (%d entries) grants this token TRACELOG_GUID_ENABLE first (entry %d) and the deny entry comes after it",
                 n, allow);
    free(sd);
}

/* the no-access fixture holds only when a trial call that needs TRACELOG_GUID_ENABLE on the
 * session's GUID is refused (build.h); why says what was seen when it is not */
static bool access_denied(struct session *s, char *why, size_t len)
{
    if (!LB_HAVE(EnableTraceEx2))
        return snprintf(why, len, "fixture: EnableTraceEx2 is not exported: the denial of "
                        "TRACELOG_GUID_ENABLE cannot be tried"), false;
    ULONG rc = live_enable(s->h, &s->guid, &etw_lv_trial_enable[1], NULL);
    const char *seen = NULL;
    if (etw_lv_trial_refused(rc, &seen))
        return true;
    if (rc == ERROR_SUCCESS)
        live_enable(s->h, &s->guid, &etw_lv_trial_enable[0], NULL);
    char dacl[240];
    dacl_report(s, dacl, sizeof dacl);
    snprintf(why, len, "fixture: %s (EnableTraceEx2 of the session's own GUID returned %lu); %s", seen, (unsigned long)rc, dacl);
    return false;
}

/* what deny_enable added goes: EventAccessRemove deletes the GUID's security entry, which
 * existed only because the suite created the GUID */
static void remove_acl(struct session *s)
{
    if (!s->acl || !guid_ours(s))
        return;
    EventAccessRemove(&s->guid);
    s->acl = false;
}

/* what a slot holds besides the session goes: its provider registration, its log file (by exact
 * path, when one of ours: rundir.c); the slot is free again */
static void slot_free(struct session *s)
{
    if (s->provider)
        EventUnregister(s->reg);
    s->provider = false;
    run_file_delete(s->file);
    InterlockedExchange(&s->state, SL_FREE);
}

/* stop a session of ours in state from unless another thread is stopping it; true when this one
 * did: a named one by its exact name, one with a log file (the kernel logger, a private session)
 * by its handle once a query shows it is still the one the suite started */
static bool release(struct session *s, LONG from)
{
    const char *why = NULL;
    if (from == SL_FREE || from == SL_STOPPING ||
        InterlockedCompareExchange(&s->state, SL_STOPPING, from) != from)
        return false;
    remove_acl(s);
    if (!s->file[0])
        live_control(0, s->name, EVENT_TRACE_CONTROL_STOP, NULL);
    else if (session_seen(s, NULL, &why) == ETW_LV_OURS)
        live_control(s->h, NULL, EVENT_TRACE_CONTROL_STOP, NULL);
    slot_free(s);
    return true;
}

void stop_all_sessions(void)
{
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++)
        release(&sessions[i], sessions[i].state);
}

static const char *kind_name(unsigned kind)
{
    static const char *const n[] = {"", "the NT Kernel Logger", "a system-logger session", "a plain session", "a no-access session",
                                    "a private session"};
    return kind < 6 ? n[kind] : "a session";
}

/* start a session of kind for a case; on failure why says what went wrong: ETW_FX_SKIP when this
 * system cannot give the case what it needs, ETW_FX_BROKEN when setting it up failed */
enum etw_fx live_start_logger(struct etw_target *t, unsigned kind, const etw_u32 masks[8], etw_tracehandle *handle, char *why, size_t len)
{
    struct etw_lv_session_plan plan;
    if (!etw_lv_session_plan(kind, &plan))
        return snprintf(why, len, "needs %s, which etwconf.exe does not set up on a live system", kind_name(kind)), ETW_FX_SKIP;
    if (!LB_HAVE(StartTraceW) || !LB_HAVE(ControlTraceW))
        FX_BROKEN("fixture: advapi32 does not export StartTraceW and ControlTraceW");
    struct session *s = NULL;
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0] && !s; i++)
        if (InterlockedCompareExchange(&sessions[i].state, SL_STARTING, SL_FREE) == SL_FREE)
            s = &sessions[i];
    if (!s)
        FX_BROKEN("fixture: more than %u sessions at once", (unsigned)(sizeof sessions / sizeof sessions[0]));
    LONG n = InterlockedIncrement(&L.session_seq);
    DWORD pid = GetCurrentProcessId();
    s->kernel = kind == LG_KERNEL;
    s->private_inproc = plan.query_by_handle;
    memset(&s->fid, 0, sizeof s->fid);
    s->acl = false;
    s->h = 0;
    s->file[0] = 0;
    s->provider = false;
    static struct props_buf b; /* one runner at a time */
    props_init(&b);
    b.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    b.p.Wnode.ClientContext = 1; /* QueryPerformanceCounter timestamps */
    b.p.BufferSize = 64;
    b.p.FlushTimer = 1;
    if (s->kernel || plan.log_file) {
        WCHAR fname[24];
        char fwhy[400];
        WFMT(fname, s->kernel ? L"kernel-%ld.etl" : L"private-%ld.etl", (long)n);
        if (!run_file_new(fname, s->file, sizeof s->file / sizeof s->file[0], &s->fid, fwhy,
                          sizeof fwhy)) {
            slot_free(s);
            FX_BROKEN("fixture: %s's log file: %s", kind_name(kind), fwhy);
        }
        wcsncpy(b.file, s->file, sizeof b.file / sizeof b.file[0] - 1);
    } else {
        b.p.LogFileNameOffset = 0;
    }
    b.p.LogFileMode = plan.log_file_mode;
    if (s->kernel) {
        wcscpy(s->name, KERNEL_LOGGER_W);
        b.p.Wnode.Guid = system_trace_control_guid;
    } else {
        _snwprintf(s->name, sizeof s->name / sizeof s->name[0] - 1, WIN_SESSION_PREFIXW L"%lu-%ld", (unsigned long)pid, (long)n);
        etw_guid g;
        etw_lv_session_guid(&g, (etw_u32)pid, (etw_u32)n, (etw_u32)GetTickCount());
        memcpy(&b.p.Wnode.Guid, &g, sizeof g);
    }
    s->guid = b.p.Wnode.Guid;
    if (plan.register_guid) { /* the session's GUID must be a provider this process registered */
        ULONG erc = EventRegister(&s->guid, NULL, NULL, &s->reg);
        if (erc != ERROR_SUCCESS) {
            slot_free(s);
            FX_BROKEN("fixture: EventRegister of %s's GUID returned %lu", kind_name(kind), (unsigned long)erc);
        }
        s->provider = true;
    }
    TRACEHANDLE h = 0;
    ULONG rc = StartTraceW(&h, s->name, &b.p);
    if (rc != ERROR_SUCCESS) {
        slot_free(s); /* the new, empty log file too: nothing writes it */
        int ks = s->kernel && rc == ERROR_ALREADY_EXISTS ? kernel_logger_state(NULL, NULL) : 0;
        if (ks != ETW_LV_KL_NONE && ks != ETW_LV_KL_UNKNOWN) {
            snprintf(why, len, "the NT Kernel Logger was started by someone else meanwhile; the suite never stops or changes a session it "
                               "did not start");
            return ETW_FX_SKIP;
        }
        if (s->kernel && rc == ERROR_ALREADY_EXISTS) /* none runs: the existing (empty, new) log file is what it refused */
            FX_BROKEN("fixture: StartTraceW for the NT Kernel Logger returned ERROR_ALREADY_EXISTS (183) while none runs: it refused the log "
                      "file the suite created for it");
        if (rc == ERROR_ACCESS_DENIED)
            FX_BROKEN("fixture: StartTraceW for %s returned ERROR_ACCESS_DENIED (5): administrator rights are needed", kind_name(kind));
        FX_BROKEN("fixture: StartTraceW for %s returned %lu", kind_name(kind), (unsigned long)rc);
    }
    s->h = h;
    InterlockedExchange(&s->state, SL_LIVE);
    /* a session that StartTraceW reports must exist and be the one started: checked by its handle,
     * log file identity and logger id before a case relies on it (session_seen) */
    ULONG qrc = 0;
    const char *seen_why = NULL;
    enum etw_lv_owner owner = session_seen(s, &qrc, &seen_why);
    if (owner != ETW_LV_OURS) {
        release(s, SL_LIVE); /* stops only what a query shows is ours */
        if (owner == ETW_LV_GONE)
            FX_BROKEN("fixture: StartTraceW for %s returned 0 (handle 0x%llX) but ControlTraceW(QUERY) by that handle returned %lu and does "
                      "not describe it: the session was not started%s",
                      kind_name(kind), (unsigned long long)h, (unsigned long)qrc, L.wine ? " (Wine: both are stubs that report success)" : "");
        FX_BROKEN("fixture: the session that answers the handle StartTraceW returned for %s is not the one started: %s%s", kind_name(kind),
                  seen_why, owner == ETW_LV_UNSURE ? " (it was left running: 'etwconf.exe cleanup' recognises the suite's own)" : "");
    }
    if (etw_masks_set(masks)) {
        void *m = (void *)masks; /* read only */
        rc = TraceSetInformation(h, ETW_TraceSystemTraceEnableFlagsInfo, m, 8 * sizeof masks[0]);
        if (rc != ERROR_SUCCESS) {
            release(s, SL_LIVE);
            FX_BROKEN("fixture: setting the group masks of %s with TraceSetInformation(TraceSystemTraceEnableFlagsInfo) %s %lu",
                      kind_name(kind), LB_HAVE(TraceSetInformation) ? "returned" : "is not exported:", (unsigned long)rc);
        }
    }
    if (plan.deny_enable) {
        rc = deny_enable(s);
        if (rc != ERROR_SUCCESS) {
            release(s, SL_LIVE);
            FX_BROKEN("fixture: EventAccessControl denying this user TRACELOG_GUID_ENABLE on the session's GUID returned %lu",
                      (unsigned long)rc);
        }
        if (!access_denied(s, why, len)) { /* the denial is shown by a refused trial call, or the case counts nothing */
            release(s, SL_LIVE);
            return ETW_FX_BROKEN;
        }
    }
    *handle = h;
    return ETW_FX_OK;
}

int live_stop_logger(etw_tracehandle h)
{
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        struct session *s = &sessions[i];
        if (s->h == h && release(s, SL_LIVE))
            return 0;
    }
    return -1;
}

/* every session running now (a malloc'ed array of count props_buf); NULL on failure */
struct props_buf *all_sessions(ULONG *count)
{
    enum { MAXS = 64 };
    struct props_buf *bs = LB_HAVE(QueryAllTracesW) ? calloc(MAXS, sizeof *bs) : NULL;
    EVENT_TRACE_PROPERTIES *ps[MAXS];
    for (int i = 0; bs && i < MAXS; i++) {
        props_init(&bs[i]);
        ps[i] = &bs[i].p;
    }
    *count = 0;
    ULONG rc = bs ? QueryAllTracesW(ps, MAXS, count) : ERROR_NOT_ENOUGH_MEMORY;
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
    ULONG rc = live_control(id, NULL, EVENT_TRACE_CONTROL_QUERY, &b);
    /* Wine's ControlTraceW reports success and describes nothing: no session */
    return rc == ERROR_WMI_INSTANCE_NOT_FOUND || (rc == ERROR_SUCCESS && b.p.BufferSize == 0);
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
    for (int unconfirmed = 0; unconfirmed < 2; unconfirmed++)
        for (unsigned id = 0x3E; id > 1; id--)
            if (!used[id] && (unconfirmed || logger_id_free(id)))
                return id;
    return 0x3E;
}

/* the hook of struct etw_lv_system (needs.h); arg unused */
enum etw_lv_kernel_state kernel_logger_state(void *arg, unsigned long *who)
{
    struct props_buf b;
    ULONG rc = live_control(0, KERNEL_LOGGER_W, EVENT_TRACE_CONTROL_QUERY, &b);
    /* it runs when the answer describes a session (a real QUERY always reports its buffer size);
     * Wine's ControlTraceW returns 0 and fills in nothing */
    if (rc != ERROR_SUCCESS || !b.p.BufferSize)
        return rc == ERROR_ACCESS_DENIED ? ETW_LV_KL_UNKNOWN : ETW_LV_KL_NONE;
    DWORD pid = run_file_owner(props_name(&b.p, b.p.LogFileNameOffset));
    if (who)
        *who = pid;
    return !pid                        ? ETW_LV_KL_OTHERS
           : pid == GetCurrentProcessId() ? ETW_LV_KL_OURS
                                          : ETW_LV_KL_EARLIER;
}
