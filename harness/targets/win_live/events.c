/* harness/targets/win_live/events.c - a provider group enabled on a session, and the traits an
 * event carries read back by a real-time consumer: the calls only (build.c decides their
 * arguments, deadlines and the reading of an event's extended data). */
#include "harness/targets/win_live/live.h"
#include <stdint.h>
#include <string.h>

/* EnableTraceEx2(session, group, ENABLE_PROVIDER, the suite's level and keywords, a timeout, version-2
 * parameters with EVENT_ENABLE_PROPERTY_PROVIDER_GROUP). Windows does not say how many members it
 * reached: the cases watch the members' enable callbacks, which have run when a call with a timeout
 * returns (and a settling wait after it covers a notification delivered late). */
etw_u32 live_enable_group(etw_tracehandle session, const etw_guid *group, etw_u32 *enabled)
{
    if (!group || !enabled)
        return ERROR_INVALID_PARAMETER;
    *enabled = ETW_ENABLED_UNKNOWN;
    ULONG rc = live_enable(session, group, &etw_lv_group_enable, &etw_lv_group_enable_params);
    if (rc == ERROR_SUCCESS)
        Sleep(ETW_LV_GROUP_SETTLE_MS);
    return rc;
}

/* what the consumer thread hands back; one consumer at a time (the runner runs one case at a time) */
static struct consumer {
    etw_guid provider;
    volatile LONG outcome; /* an enum etw_lv_event: OTHER until one of the provider's events arrived */
    volatile LONG events; /* the provider's events seen */
    etw_u8 traits[1024];
    etw_u32 size;
    const char *absent;
    HANDLE arrived; /* set when outcome is no longer OTHER */
    volatile LONG busy; /* a consumer thread that did not end when asked still runs */
    volatile LONG pumped; /* ProcessTrace returned (pump_rc) */
    volatile ULONG pump_rc;
} k;

static const void *same_address(etw_u64 ptr)
{
    return (const void *)(uintptr_t)ptr;
}

static void WINAPI on_event(PEVENT_RECORD r)
{
    struct consumer *c = r->UserContext;
    if (!c || c->outcome != ETW_LV_EV_OTHER)
        return;
    struct etw_lv_ext_item items[32]; /* the layout of EVENT_HEADER_EXTENDED_DATA_ITEM (build.h) */
    _Static_assert(sizeof items[0] == sizeof *r->ExtendedData, "EVENT_HEADER_EXTENDED_DATA_ITEM");
    etw_u32 n = !r->ExtendedData ? 0 : r->ExtendedDataCount < 32 ? r->ExtendedDataCount : 32;
    if (n)
        memcpy(items, r->ExtendedData, n * sizeof items[0]);
    etw_guid from;
    memcpy(&from, &r->EventHeader.ProviderId, sizeof from);
    const char *why = NULL;
    etw_u32 size = 0;
    enum etw_lv_event m = etw_lv_event_traits(&from, &c->provider, items, n, same_address, c->traits, sizeof c->traits, &size, &why);
    if (m == ETW_LV_EV_OTHER)
        return;
    InterlockedIncrement(&c->events);
    c->size = size;
    c->absent = why;
    InterlockedExchange(&c->outcome, (LONG)m);
    SetEvent(c->arrived);
}

static DWORD WINAPI pump(void *arg)
{
    TRACEHANDLE h = *(TRACEHANDLE *)arg;
    ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
    k.pump_rc = rc;
    InterlockedExchange(&k.pumped, 1);
    InterlockedExchange(&k.busy, 0);
    return rc;
}

enum etw_fx live_event_traits(struct etw_target *t, etw_tracehandle session, const etw_guid *provider, etw_reghandle reg, etw_u8 *out,
                              etw_u32 cap, etw_u32 *size, const char **absent, char *why, size_t len)
{
    *size = 0;
    *absent = NULL;
    const struct session *s = NULL;
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0] && !s; i++)
        if (sessions[i].state == SL_LIVE && sessions[i].h == session)
            s = &sessions[i];
    if (!s || s->kernel || s->private_inproc)
        FX_BROKEN("fixture: the events of a provider are read from a real-time session the suite started, and the case's session "
                  "is not one");
    if (k.busy)
        FX_BROKEN("fixture: the real-time consumer of an earlier case has not ended");
    if (!LB_HAVE(OpenTraceW) || !LB_HAVE(CloseTrace) || !LB_HAVE(EventWrite) || !LB_HAVE(ProcessTrace) || !LB_HAVE(EnableTraceEx2))
        FX_BROKEN("fixture: advapi32 does not export OpenTraceW, ProcessTrace, CloseTrace, EventWrite and EnableTraceEx2");
    const struct etw_lv_consumer_plan plan = etw_lv_consumer;

    /* busy is 0 here, outcome ETW_LV_EV_OTHER; the event is made once */
    k = (struct consumer){.provider = *provider,
                          .arrived = k.arrived ? k.arrived : CreateEventW(NULL, TRUE, FALSE, NULL)};
    if (!k.arrived)
        FX_BROKEN("fixture: CreateEventW failed with %lu", (unsigned long)GetLastError());
    ResetEvent(k.arrived);

    static WCHAR name[64];
    wcsncpy(name, s->name, sizeof name / sizeof name[0] - 1);
    EVENT_TRACE_LOGFILEW lf = {.LoggerName = name, .ProcessTraceMode = plan.process_trace_mode,
                               .EventRecordCallback = on_event, .Context = &k};
    static TRACEHANDLE th;
    th = OpenTraceW(&lf);
    if (!etw_lv_trace_handle_valid((etw_u64)th))
        FX_BROKEN("fixture: OpenTraceW on the case's session (real time, event records) failed with %lu",
                  (unsigned long)GetLastError());
    InterlockedExchange(&k.busy, 1);
    HANDLE thread = CreateThread(NULL, 0, pump, &th, 0, NULL);
    if (!thread) {
        InterlockedExchange(&k.busy, 0);
        CloseTrace(th);
        FX_BROKEN("fixture: CreateThread for ProcessTrace failed with %lu", (unsigned long)GetLastError());
    }
    enum etw_fx fx = ETW_FX_OK;
    ULONG rc = live_enable(session, provider, &etw_lv_provider_enable[1], NULL);
    if (rc != ERROR_SUCCESS) {
        snprintf(why, len, "fixture: EnableTraceEx2 enabling the provider on the case's session returned %lu", (unsigned long)rc);
        fx = ETW_FX_BROKEN;
    } else {
        /* the consumer may connect after the first event: write one, flush, wait a little, again */
        EVENT_DESCRIPTOR d = {.Id = 1, .Level = plan.event_level};
        DWORD start = GetTickCount();
        ULONG wrc = ERROR_SUCCESS;
        while (k.outcome == ETW_LV_EV_OTHER && GetTickCount() - start < plan.deadline_ms) {
            wrc = EventWrite((REGHANDLE)reg, &d, 0, NULL);
            live_control(session, NULL, ETW_LV_TRACE_CONTROL_FLUSH, NULL);
            WaitForSingleObject(k.arrived, plan.write_every_ms);
        }
        if (k.outcome == ETW_LV_EV_OTHER) {
            char pumped[64] = "";
            if (k.pumped)
                snprintf(pumped, sizeof pumped, "; ProcessTrace returned %lu", (unsigned long)k.pump_rc);
            snprintf(why, len,
                     "fixture: no event of the provider reached the real-time consumer within %u ms (EventWrite returned %lu%s%s)",
                     plan.deadline_ms, (unsigned long)wrc, pumped, L.wine ? "; Wine: its sessions deliver no events" : "");
            fx = ETW_FX_BROKEN;
        }
        live_enable(session, provider, &etw_lv_provider_enable[0], NULL);
    }
    /* CloseTrace makes ProcessTrace return; a thread that does not end in time keeps k.busy set (it
     * ends at the latest when the session stops after the case), and the next consumer waits for it */
    CloseTrace(th);
    WaitForSingleObject(thread, plan.join_ms);
    CloseHandle(thread);
    if (fx != ETW_FX_OK)
        return fx;
    if (k.outcome == ETW_LV_EV_TRAITS && k.size <= cap) {
        memcpy(out, k.traits, k.size);
        *size = k.size;
    } else {
        *absent = k.absent ? k.absent : "the PROV_TRAITS item does not fit the case's buffer";
    }
    return ETW_FX_OK;
}
