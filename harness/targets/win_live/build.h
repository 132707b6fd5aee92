/*
 * harness/targets/win_live/build.h - the portable half of the live fixtures: what the live target
 * hands to Windows (sessions.c, events.c), decided without windows.h so that
 * harness/tests/unit_livefx.c checks it on Linux. Constants are the Windows 10 SDK's (evntrace.h,
 * evntcons.h, evntprov.h), not mingw's or Wine's: the unit test checks each against the SDK value.
 */
#ifndef ETWCONF_WIN_LIVE_BUILD_H
#define ETWCONF_WIN_LIVE_BUILD_H

#include "spec/abi.h"
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define ETW_LV_REAL_TIME_MODE 0x00000100u /* EVENT_TRACE_REAL_TIME_MODE */
#define ETW_LV_BUFFERING_MODE 0x00000400u /* EVENT_TRACE_BUFFERING_MODE */
#define ETW_LV_PRIVATE_LOGGER_MODE 0x00000800u /* EVENT_TRACE_PRIVATE_LOGGER_MODE */
#define ETW_LV_PRIVATE_IN_PROC 0x00020000u /* EVENT_TRACE_PRIVATE_IN_PROC */
#define ETW_LV_SYSTEM_LOGGER_MODE 0x02000000u /* EVENT_TRACE_SYSTEM_LOGGER_MODE */
#define ETW_LV_FILE_MODE_SEQUENTIAL 0x00000001u /* EVENT_TRACE_FILE_MODE_SEQUENTIAL */
#define ETW_LV_TRACELOG_GUID_ENABLE 0x0080u /* TRACELOG_GUID_ENABLE (evntrace.h) */
#define ETW_LV_SECURITY_ADD_DACL 2u /* EventSecurityAddDACL (EVENT_SECURITY_OPERATION) */
#define ETW_LV_ENABLE_PARAMS_VERSION_2 2u /* ENABLE_TRACE_PARAMETERS_VERSION_2 */
#define ETW_LV_PROPERTY_PROVIDER_GROUP 0x00000020u /* EVENT_ENABLE_PROPERTY_PROVIDER_GROUP */
#define ETW_LV_EXT_TYPE_PROV_TRAITS 0x000Cu /* EVENT_HEADER_EXT_TYPE_PROV_TRAITS (evntcons.h) */
#define ETW_LV_PROCESS_TRACE_MODE_REAL_TIME 0x00000100u /* PROCESS_TRACE_MODE_REAL_TIME (evntcons.h) */
#define ETW_LV_PROCESS_TRACE_MODE_EVENT_RECORD 0x10000000u /* PROCESS_TRACE_MODE_EVENT_RECORD (evntcons.h) */
#define ETW_LV_TRACE_CONTROL_FLUSH 3u /* EVENT_TRACE_CONTROL_FLUSH (evntrace.h) */

/* the session kinds the live target starts (harness/case.h LG_*), by their number there */
enum { ETW_LV_KERNEL = 1, ETW_LV_SYSTEM, ETW_LV_PLAIN, ETW_LV_NOACCESS, ETW_LV_PRIVATE };

/* what a kind of session needs: LogFileMode; a log file (else LogFileNameOffset 0); a query by its
 * handle (a private session's name is not in the global list); the deny ACE after it starts */
struct etw_lv_session_plan {
    etw_u32 log_file_mode;
    bool log_file, query_by_handle, deny_enable;
    bool register_guid; /* the session's GUID is registered as a provider of this process first */
    unsigned min_version; /* ETW_V*: the oldest Windows where the kind exists */
};
/* false for a kind the live target does not start */
bool etw_lv_session_plan(unsigned kind, struct etw_lv_session_plan *p);

/* ENABLE_TRACE_PARAMETERS (evntrace.h) field for field, but for its pointer member */
struct etw_lv_enable_params {
    etw_u32 version, enable_property, control_flags;
    etw_guid source_id;
    etw_u32 filter_desc_count;
};
/* enabling a provider group (by the group's GUID): version 2, PROPERTY_PROVIDER_GROUP, no filter */
extern const struct etw_lv_enable_params etw_lv_group_enable_params;

/* the other arguments of an EnableTraceEx2 call: ControlCode, Level, MatchAnyKeyword,
 * MatchAllKeyword, Timeout (ms; not 0, so the call returns after the members' enable callbacks ran) */
struct etw_lv_enable_call {
    etw_u32 control_code;
    etw_u8 level;
    etw_u64 match_any, match_all;
    etw_u32 timeout_ms;
};
/* a group's enable: ENABLE_PROVIDER with ETW_GROUP_ENABLE_LEVEL and _KEYWORDS (spec/abi.h) */
extern const struct etw_lv_enable_call etw_lv_group_enable;
/* waited after a group enable returns, for a member's notification delivered after the call (the
 * timeout covers only the callbacks Windows waits for: a group is not one provider) */
#define ETW_LV_GROUP_SETTLE_MS 250u
/* disabling ([0]) and enabling ([1]) the provider whose events the consumer reads: every level and
 * keyword */
extern const struct etw_lv_enable_call etw_lv_provider_enable[2];

/* the real-time consumer of events.c: OpenTraceW, ProcessTrace on a thread; the provider writes
 * an event and the session is flushed every write_every_ms until one arrived or deadline_ms
 * passed; CloseTrace, and the thread is waited for join_ms */
struct etw_lv_consumer_plan {
    etw_u32 process_trace_mode;
    unsigned deadline_ms, write_every_ms, join_ms;
    etw_u8 event_level; /* of the event written (EVENT_DESCRIPTOR.Level) */
};
extern const struct etw_lv_consumer_plan etw_lv_consumer;
/* the longest a live fixture may wait, in ms (the consumer's or a group enable's), which
 * ETW_FIXTURE_BUDGET_MS (harness/core/core.h) must exceed */
unsigned etw_lv_longest_fixture_wait_ms(void);
/* OpenTraceW's answer: INVALID_PROCESSTRACE_HANDLE is (TRACEHANDLE)INVALID_HANDLE_VALUE, and
 * before Windows 8 a 32-bit process can get 0x00000000FFFFFFFF instead (OpenTraceW's page) */
bool etw_lv_trace_handle_valid(etw_u64 h);

/* EventAccessControl(guid, operation, caller's SID, rights, allow): the call that makes the
 * session's GUID deny the caller TRACELOG_GUID_ENABLE; teardown is EventAccessRemove(guid) */
struct etw_lv_access_call {
    etw_u32 operation, rights;
    bool allow;
};
extern const struct etw_lv_access_call etw_lv_deny_enable;

/* the session GUIDs the suite creates: {E7C0F0F0-<pid hi>-<pid lo>-9A11-<n hi><n lo><4 tick bytes>}.
 * Security is changed (and removed) only for such a GUID of this process. */
void etw_lv_session_guid(etw_guid *g, etw_u32 pid, etw_u32 n, etw_u32 tick);
bool etw_lv_guid_is_ours(const etw_guid *g, etw_u32 pid);

/* EVENT_HEADER_EXTENDED_DATA_ITEM (evntcons.h): 16 bytes on every ABI (DataPtr is a ULONGLONG) */
struct etw_lv_ext_item {
    etw_u16 reserved1, ext_type;
    etw_u16 linkage; /* Linkage:1, Reserved2:15 */
    etw_u16 data_size;
    etw_u64 data_ptr;
};
/* the PROV_TRAITS item among count items, a well-formed blob (its leading UINT16 the item's size,
 * then a NUL-terminated provider name) and *size; NULL when none is, or malformed (*why says how).
 * data(ptr) maps a DataPtr to memory (identity on Windows). */
const etw_u8 *etw_lv_find_traits(const struct etw_lv_ext_item *items, etw_u32 count, const void *(*data)(etw_u64 ptr),
                                 etw_u32 *size, const char **why);

/* what the consumer makes of one event record (its provider, its extended data items) */
enum etw_lv_event {
    ETW_LV_EV_OTHER, /* another provider's: not looked at */
    ETW_LV_EV_TRAITS, /* the provider's, with a well-formed PROV_TRAITS item: copied to out, *size bytes */
    ETW_LV_EV_NO_TRAITS, /* the provider's, without one (or it does not fit in cap): *why says which */
};
enum etw_lv_event etw_lv_event_traits(const etw_guid *from, const etw_guid *want, const struct etw_lv_ext_item *items, etw_u32 count,
                                      const void *(*data)(etw_u64 ptr), etw_u8 *out, etw_u32 cap, etw_u32 *size, const char **why);

/* ---------------------------------------------------------------- what is ours: by identity, never by a path string
 * A path can be spelt many ways (8.3, "\??\C:\...", "\Device\HarddiskVolumeN\...") and no page
 * says which one ControlTraceW(QUERY) returns. What cannot: the logger id StartTraceW returned
 * (the handle's low 16 bits; HistoricalContext is the session's handle on output, "WNODE_HEADER
 * structure" page) and the log file's volume serial number and file index, which "uniquely
 * identify a file on a single computer" ("BY_HANDLE_FILE_INFORMATION structure" page; not on ReFS,
 * and the suite's %TEMP% is NTFS on every Windows it runs on). */
struct etw_lv_file_id {
    etw_u32 volume, index_hi, index_lo;
};
bool etw_lv_same_file(const struct etw_lv_file_id *a, const struct etw_lv_file_id *b);
/* the logger id of a session handle (TRACEHANDLE) */
etw_u32 etw_lv_logger_id(etw_u64 handle);
/* a path as ControlTraceW(QUERY) may report it, made into one CreateFileW opens: a DOS path as it
 * is; "\??\X" and "\DosDevices\X" as "\\?\X"; an NT device path "\Device\..." through
 * "\\?\GLOBALROOT" (the Win32 namespace's link to the NT root, "Naming Files, Paths, and
 * Namespaces"). false for an empty or unknown form, or when out (cap characters) is too small. */
bool etw_lv_openable_path(const wchar_t *reported, wchar_t *out, size_t cap);

/* what a query of a session the suite started shows (by its handle or its exact name) */
enum etw_lv_file_seen {
    ETW_LV_FILE_NONE, /* the session has no log file (a real-time or in-memory one) */
    ETW_LV_FILE_SAME, /* it writes to the very file the suite created for it */
    ETW_LV_FILE_OTHER, /* it writes to another file */
    ETW_LV_FILE_UNKNOWN, /* the file it reports could not be opened to read its identity */
};
struct etw_lv_seen {
    bool described; /* the query succeeded and describes a session (BufferSize != 0) */
    etw_u32 id_started, id_seen; /* logger ids: StartTraceW's handle, the query's; 0 unknown */
    enum etw_lv_file_seen file;
    bool in_process; /* a private in-process session: its handle names a session of this process only */
};
enum etw_lv_owner {
    ETW_LV_OURS, /* the session the suite started */
    ETW_LV_GONE, /* no session answers (Wine's stubs describe none) */
    ETW_LV_NOT_OURS, /* another session: another log file, or another logger id */
    ETW_LV_UNSURE, /* neither identity could be read: nothing may be concluded, nothing stopped */
};
/* whose session a query shows; why says what decided it */
enum etw_lv_owner etw_lv_session_owner(const struct etw_lv_seen *s, const char **why);

/* ---------------------------------------------------------------- the no-access fixture proves itself
 * EventAccessControl's pages do not say where EventSecurityAddDACL puts the entry, and an access
 * check reads a DACL in order: an earlier allow entry for a group of the caller grants first ("How
 * DACLs Control Access to an Object"). A GUID without a descriptor gets one that allows
 * Administrators full access (the Windows Research Kernel's wmi/secure.c, WmipInitializeSecurity),
 * so an appended deny may deny nothing. The fixture reads the DACL back (EventAccessQuery),
 * evaluates it for this token, then makes a trial call the entry must refuse: both, or no case
 * counts. */
enum { ETW_LV_ACE_ALLOW = 0, ETW_LV_ACE_DENY = 1, ETW_LV_ACE_OTHER = 2 };
struct etw_lv_ace {
    int type; /* ETW_LV_ACE_* (ACCESS_ALLOWED_ACE_TYPE 0, ACCESS_DENIED_ACE_TYPE 1) */
    etw_u32 mask;
    bool applies; /* its SID is this token's user or one of its enabled groups */
    bool inherit_only; /* INHERIT_ONLY_ACE: not evaluated for the object itself */
};
/* the verdict of an ordered DACL for rights: true when an applying deny entry for any of the
 * rights comes before allow entries that together grant all of them (no DACL at all grants
 * everything: present false). *deny_at is the index of the deciding deny entry, or -1, and
 * *allow_at that of the first applying allow entry granting any of the rights before it, or -1. */
bool etw_lv_dacl_denies(bool present, const struct etw_lv_ace *aces, int n, etw_u32 rights, int *deny_at, int *allow_at);
/* the trial call's answer: the no-access fixture holds only when it was refused with
 * ERROR_ACCESS_DENIED; why says what the trial showed otherwise */
bool etw_lv_trial_refused(etw_u32 rc, const char **why);
/* the trial call: EnableTraceEx2(the session, the session's own GUID as a provider, these), which
 * needs TRACELOG_GUID_ENABLE on that GUID ("EnableTraceEx2": ERROR_ACCESS_DENIED; "EventAccessControl":
 * TRACELOG_GUID_ENABLE "allows a user to enable the provider"): [1]; when it is accepted, [0]
 * (DISABLE_PROVIDER) undoes it */
extern const struct etw_lv_enable_call etw_lv_trial_enable[2];

/* the profile sources the kernel lists (NtQuerySystemInformation(SystemPerformanceTraceInformation,
 * EventTraceProfileSourceListInformation): an 8-byte header, then a chain of PROFILE_SOURCE_INFO
 * records, NextEntryOffset first, Source second, the description at 0x18): how many besides the
 * timer (ProfileTime, 0), or -1 when the chain is not well formed */
int etw_lv_pmc_sources(const etw_u8 *buf, etw_u32 len);

/* the name of a value under HKLM\SYSTEM\CurrentControlSet\Control\WMI\Security: a GUID in its
 * canonical 36-character form, no braces, any case (Windows writes lower case). false for anything
 * else. */
bool etw_lv_parse_guid_name(const wchar_t *name, etw_guid *g);
/* the pid a session GUID of the suite carries (etw_lv_session_guid), 0 when g is not one */
etw_u32 etw_lv_guid_pid(const etw_guid *g);

#endif
