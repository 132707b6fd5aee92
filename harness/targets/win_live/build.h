/*
 * harness/targets/win_live/build.h - the portable half of the live fixtures: what goes into the
 * structures the live target hands to Windows, decided here without windows.h so that the unit
 * tests check it on Linux too (harness/tests/unit_livefx.c). sessions.c copies the session plan,
 * the session GUID and the deny-enable call into the real EVENT_TRACE_PROPERTIES and
 * EventAccessControl call. The group-enable parameters and the PROV_TRAITS finder are not used by
 * the live target yet: it has no enable_group and no real-time consumer, so the cases that need
 * them still SKIP there with the target's reason.
 *
 * Constants are the SDK's (evntrace.h, evntcons.h, evntprov.h of the Windows 10 SDK), not
 * mingw's or Wine's: each is checked against the SDK value in the unit test.
 */
#ifndef ETWCONF_WIN_LIVE_BUILD_H
#define ETWCONF_WIN_LIVE_BUILD_H

#include "spec/abi.h"
#include <stdbool.h>
#include <stddef.h>

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

/* the session kinds the live target starts (harness/case.h LG_*), by their number there */
enum { ETW_LV_KERNEL = 1, ETW_LV_SYSTEM, ETW_LV_PLAIN, ETW_LV_NOACCESS, ETW_LV_PRIVATE };

/* the session properties a kind needs: LogFileMode, and whether it writes to a log file (else
 * LogFileNameOffset is 0), is checked by a query by name (a private session is queried by its
 * handle: its name is not in the global session list), and gets the deny ACE after it starts */
struct etw_lv_session_plan {
    etw_u32 log_file_mode;
    bool log_file, query_by_handle, deny_enable;
    unsigned min_version; /* ETW_V*: the oldest Windows where the kind exists */
};
/* false for a kind the live target does not start */
bool etw_lv_session_plan(unsigned kind, struct etw_lv_session_plan *p);

/* ENABLE_TRACE_PARAMETERS (evntrace.h), field for field; on Windows the pointer member is a
 * real pointer, the values are these */
struct etw_lv_enable_params {
    etw_u32 version, enable_property, control_flags;
    etw_guid source_id;
    etw_u32 filter_desc_count;
};
/* the parameters for enabling a provider group (the GUID passed to EnableTraceEx2 is the
 * group's): version 2, EVENT_ENABLE_PROPERTY_PROVIDER_GROUP, no filters */
void etw_lv_group_enable_params(struct etw_lv_enable_params *p);

/* EventAccessControl(guid, operation, caller's SID, rights, allow): the call that makes the
 * session's GUID deny the caller TRACELOG_GUID_ENABLE; teardown is EventAccessRemove(guid) */
struct etw_lv_access_call {
    etw_u32 operation, rights;
    bool allow;
};
void etw_lv_deny_enable_call(struct etw_lv_access_call *a);

/* the session GUIDs the suite creates: {E7C0F0F0-<pid hi>-<pid lo>-9A11-<n hi><n lo><4 tick bytes>}.
 * Security is changed (and removed) only for such a GUID of this process. */
void etw_lv_session_guid(etw_guid *g, etw_u32 pid, etw_u32 n, etw_u32 tick);
bool etw_lv_guid_is_ours(const etw_guid *g, etw_u32 pid);

/* EVENT_HEADER_EXTENDED_DATA_ITEM (evntcons.h): 16 bytes on every Windows ABI (DataPtr is a
 * ULONGLONG) */
struct etw_lv_ext_item {
    etw_u16 reserved1, ext_type;
    etw_u16 linkage; /* Linkage:1, Reserved2:15 */
    etw_u16 data_size;
    etw_u64 data_ptr;
};
/* the provider traits an event carries: the PROV_TRAITS item among count items, checked to be
 * a well-formed traits blob (its leading UINT16 is the item's size, a NUL-terminated provider
 * name follows within it). Returns the blob and *size, NULL when no item is one, or when the
 * item is malformed (*why says how). data(ptr) maps a DataPtr to memory (identity on Windows). */
const etw_u8 *etw_lv_find_traits(const struct etw_lv_ext_item *items, etw_u32 count, const void *(*data)(etw_u64 ptr),
                                 etw_u32 *size, const char **why);

#endif
