/* harness/twin/consumer.c - real-time consumers and the events that reach them (twin.h): which
 * providers are enabled on which session, EventWrite, OpenTraceW, ProcessTrace, CloseTrace. Events
 * go from a provider to the consumers of the same process (the suite's fixture writes and reads its
 * own events); when they arrive is the personality's (events-late, events-never). */
#include "harness/twin/twin.h"
#include <string.h>

#define TW_CONSUMERS 8
#define TW_QUEUE 64
#define TW_ENABLED 32
#define TW_TRACEHANDLE_BASE 0x7E570000ull

struct tw_event {
    DWORD due; /* GetTickCount when it may be delivered */
    GUID provider;
    EVENT_DESCRIPTOR d;
    etw_u8 traits[512];
    etw_u32 traits_size;
};
static struct consumer {
    bool used, closed;
    uint32_t session;
    uint64_t session_handle; /* to tell a session that stopped from a new one with the same id */
    PEVENT_RECORD_CALLBACK callback;
    void *context;
    struct tw_event queue[TW_QUEUE];
    unsigned n;
} consumers[TW_CONSUMERS];
static struct {
    bool used;
    uint32_t session;
    GUID provider;
    UCHAR level;
} enabled[TW_ENABLED];
static CRITICAL_SECTION cs;
static HANDLE wake;

static void init(void)
{
    static volatile LONG done;
    if (InterlockedCompareExchange(&done, 1, 0) == 0) {
        InitializeCriticalSection(&cs);
        wake = CreateEventW(NULL, FALSE, FALSE, NULL);
        InterlockedExchange(&done, 2);
    }
    while (done != 2)
        Sleep(0);
}

void tw_enabled_set(uint32_t id, const GUID *provider, UCHAR level, bool on)
{
    init();
    EnterCriticalSection(&cs);
    int free_slot = -1;
    for (int i = 0; i < TW_ENABLED; i++) {
        if (enabled[i].used && enabled[i].session == id && !memcmp(&enabled[i].provider, provider, sizeof *provider)) {
            enabled[i].used = on;
            enabled[i].level = level;
            free_slot = -2;
            break;
        }
        if (!enabled[i].used && free_slot == -1)
            free_slot = i;
    }
    if (on && free_slot >= 0) {
        enabled[free_slot].used = true;
        enabled[free_slot].session = id;
        enabled[free_slot].provider = *provider;
        enabled[free_slot].level = level;
    }
    LeaveCriticalSection(&cs);
}

void tw_consumers_session_stopped(uint32_t id)
{
    init();
    EnterCriticalSection(&cs);
    for (int i = 0; i < TW_CONSUMERS; i++)
        if (consumers[i].used && consumers[i].session == id)
            consumers[i].closed = true;
    for (int i = 0; i < TW_ENABLED; i++)
        if (enabled[i].session == id)
            enabled[i].used = false;
    LeaveCriticalSection(&cs);
    SetEvent(wake);
}

ULONG WINAPI tw_EventWrite(REGHANDLE reg, PCEVENT_DESCRIPTOR d, ULONG n, PEVENT_DATA_DESCRIPTOR data)
{
    (void)data;
    if (!d || (n && !data))
        return ERROR_INVALID_PARAMETER;
    init();
    struct tw_event e;
    memset(&e, 0, sizeof e);
    tw_enter();
    struct ref_provider *p = ref_provider_from_handle((etw_reghandle)reg);
    if (p) {
        memcpy(&e.provider, &p->guid, sizeof e.provider);
        if (EtwRef_EventTraits((etw_reghandle)reg, e.traits, sizeof e.traits, &e.traits_size) != 0)
            e.traits_size = 0;
    }
    tw_leave();
    if (!p)
        return ERROR_INVALID_HANDLE;
    if (tw_p->event_delay_ms < 0)
        return ERROR_SUCCESS; /* events-never: written, and never delivered */
    e.d = *d;
    e.due = GetTickCount() + (DWORD)tw_p->event_delay_ms;
    EnterCriticalSection(&cs);
    for (int i = 0; i < TW_ENABLED; i++) {
        if (!enabled[i].used || memcmp(&enabled[i].provider, &e.provider, sizeof e.provider) ||
            (enabled[i].level && d->Level > enabled[i].level))
            continue;
        for (int c = 0; c < TW_CONSUMERS; c++) {
            struct consumer *k = &consumers[c];
            if (k->used && !k->closed && k->session == enabled[i].session && k->n < TW_QUEUE)
                k->queue[k->n++] = e;
        }
    }
    LeaveCriticalSection(&cs);
    SetEvent(wake);
    return ERROR_SUCCESS;
}

TRACEHANDLE WINAPI tw_OpenTraceW(PEVENT_TRACE_LOGFILEW lf)
{
    init();
    if (!lf || !lf->LoggerName || !(lf->ProcessTraceMode & PROCESS_TRACE_MODE_REAL_TIME)) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return (TRACEHANDLE)~(ULONGLONG)0 /* INVALID_PROCESSTRACE_HANDLE */;
    }
    tw_enter();
    struct tw_session *s = tw_session_by_name(lf->LoggerName);
    uint32_t id = s ? tw_session_id(s) : 0;
    uint64_t sh = s ? s->handle : 0;
    bool realtime = s && (s->log_file_mode & EVENT_TRACE_REAL_TIME_MODE);
    tw_leave();
    if (!realtime) {
        SetLastError(s ? ERROR_BAD_PATHNAME : ERROR_WMI_INSTANCE_NOT_FOUND);
        return (TRACEHANDLE)~(ULONGLONG)0 /* INVALID_PROCESSTRACE_HANDLE */;
    }
    EnterCriticalSection(&cs);
    int slot = -1;
    for (int i = 0; i < TW_CONSUMERS && slot < 0; i++)
        if (!consumers[i].used)
            slot = i;
    if (slot >= 0) {
        struct consumer *k = &consumers[slot];
        memset(k, 0, sizeof *k);
        k->used = true;
        k->session = id;
        k->session_handle = sh;
        k->callback = lf->EventRecordCallback;
        k->context = lf->Context;
    }
    LeaveCriticalSection(&cs);
    if (slot < 0) {
        SetLastError(ERROR_NO_SYSTEM_RESOURCES);
        return (TRACEHANDLE)~(ULONGLONG)0 /* INVALID_PROCESSTRACE_HANDLE */;
    }
    return TW_TRACEHANDLE_BASE + (TRACEHANDLE)slot;
}

static struct consumer *consumer_of(TRACEHANDLE h)
{
    if (h < TW_TRACEHANDLE_BASE || h >= TW_TRACEHANDLE_BASE + TW_CONSUMERS)
        return NULL;
    struct consumer *k = &consumers[h - TW_TRACEHANDLE_BASE];
    return k->used ? k : NULL;
}

static void deliver(struct consumer *k, const struct tw_event *e)
{
    EVENT_RECORD r;
    EVENT_HEADER_EXTENDED_DATA_ITEM x;
    memset(&r, 0, sizeof r);
    memset(&x, 0, sizeof x);
    r.EventHeader.Size = sizeof r.EventHeader;
    r.EventHeader.ProviderId = e->provider;
    r.EventHeader.EventDescriptor = e->d;
    r.EventHeader.ProcessId = GetCurrentProcessId();
    r.EventHeader.ThreadId = GetCurrentThreadId();
    QueryPerformanceCounter(&r.EventHeader.TimeStamp);
    r.UserContext = k->context;
    if (e->traits_size) {
        x.ExtType = TW_EXT_TYPE_PROV_TRAITS;
        x.DataSize = (USHORT)e->traits_size;
        x.DataPtr = (ULONGLONG)(ULONG_PTR)e->traits;
        r.EventHeader.Flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
        r.ExtendedDataCount = 1;
        r.ExtendedData = &x;
    }
    if (k->callback)
        k->callback(&r);
}

ULONG WINAPI tw_ProcessTrace(PTRACEHANDLE hs, ULONG count, LPFILETIME start, LPFILETIME end)
{
    (void)start, (void)end;
    init();
    if (!hs || count != 1)
        return ERROR_INVALID_PARAMETER;
    EnterCriticalSection(&cs);
    struct consumer *k = consumer_of(hs[0]);
    LeaveCriticalSection(&cs);
    if (!k)
        return ERROR_INVALID_HANDLE;
    for (;;) {
        struct tw_event e;
        bool got = false, closed;
        EnterCriticalSection(&cs);
        closed = k->closed;
        for (unsigned i = 0; i < k->n && !got; i++)
            if ((LONG)(GetTickCount() - k->queue[i].due) >= 0) {
                e = k->queue[i];
                memmove(&k->queue[i], &k->queue[i + 1], (k->n - i - 1) * sizeof k->queue[0]);
                k->n--;
                got = true;
            }
        LeaveCriticalSection(&cs);
        if (got) {
            deliver(k, &e);
            continue;
        }
        if (closed)
            break;
        WaitForSingleObject(wake, 50);
    }
    EnterCriticalSection(&cs);
    k->used = false;
    LeaveCriticalSection(&cs);
    return ERROR_SUCCESS;
}

ULONG WINAPI tw_CloseTrace(TRACEHANDLE h)
{
    init();
    EnterCriticalSection(&cs);
    struct consumer *k = consumer_of(h);
    if (k)
        k->closed = true;
    LeaveCriticalSection(&cs);
    SetEvent(wake);
    return k ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
}
