/*
 * reference/internal.h - the modelled kernel and user-mode state shared by the reference files.
 *
 * A line of the reference's .c files that implements a rule of the catalogue carries the
 * rule's id as a tag in a comment, @TQI.04.MIN_SIZE (with a :suffix where one rule takes
 * several lines). The tags trace the reference to spec/rules/ and anchor the mutants of
 * tools/mutate/mutants.def: keep a tag on its line when the line moves or changes
 * (tools/mutate/README.md).
 */
#ifndef ETWREF_INTERNAL_H
#define ETWREF_INTERNAL_H

#include "reference/etwref.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define REF_MAX_LOGGERS 64 /* logger ids 1..63; the NT Kernel Logger lives at id 0 */
#define REF_KERNEL_LOGGER_SLOT 0
#define REF_MAX_PROVIDERS 64
#define REF_MAX_GROUPS 8
#define REF_CPUS 4
#define REF_PROFILE_SOURCES 64 /* source ids the model keeps an interval for: real HALs list ids above ProfileMaximum (24) */
/* builds that added later classes (spec/later-builds.md) */
#define REF_B_1607 ETW_VKEY(0x0A00, 14393, 0)
#define REF_B_1709 ETW_VKEY(0x0A00, 16299, 0)
#define REF_B_1803 ETW_VKEY(0x0A00, 17134, 0)
#define REF_B_19H1 ETW_VKEY(0x0A00, 18362, 0)
#define REF_B_20H1 ETW_VKEY(0x0A00, 19041, 0)
#define REF_B_21H1 ETW_VKEY(0x0A00, 19043, 0)
#define REF_B_21H2 ETW_VKEY(0x0A00, 19044, 0)
#define REF_B_22H2 ETW_VKEY(0x0A00, 19045, 0)
#define REF_B_SERVER_23H2 ETW_VKEY(0x0A00, 25398, 0)

struct ref_logger {
    bool active;
    etw_u32 id;
    etw_u32 mode; /* EVENT_TRACE_*_MODE bits */
    etw_u32 access; /* access rights the caller holds (TRACELOG_GUID_ENABLE ...) */
    etw_u32 masks[8]; /* PERFINFO_GROUPMASK as the kernel keeps it (untranslated PERF groups) */
    void *cswitch_buffers; /* per-processor buffers for context-switch batching */
    etw_guid *disallow;
    etw_u32 ndisallow;
};

/* The opaque per-class structure behind a classic RegHandle (layout as in 64-bit ntdll:
 * the counter at 0, the registering process id at 4). */
struct ref_class {
    _Atomic etw_u32 counter;
    etw_u32 pid;
    etw_guid guid;
};
struct ref_classic_reg {
    struct ref_classic_reg *next;
    etw_u64 handle;
    etw_u32 count;
    struct ref_class *classes;
};

struct ref_provider {
    bool used;
    etw_u16 seq; /* sequence number: the top 16 bits of the REGHANDLE */
    etw_guid guid;
    bool traits_set;
    bool descriptor_type;
    bool has_group;
    etw_guid group;
    etw_u8 *traits;
    etw_u16 traits_size;
    etw_enablecallback callback; /* EventRegister's EnableCallback and CallbackContext */
    void *callback_context;
};

struct ref_state {
    unsigned version, build; /* NT version (ETW_V6_1), build */
    unsigned update; /* update level of spec/versions.def: ETW_VKEY(version, build, update) */
    etw_u32 pid;
    bool profile_privilege;
    unsigned fail_alloc_countdown; /* 0 = disarmed */
    struct ref_logger loggers[REF_MAX_LOGGERS];
    struct ref_classic_reg *classic;
    etw_u64 next_classic_handle;
    struct ref_provider providers[REF_MAX_PROVIDERS];
    etw_u16 next_seq;
    etw_guid restricted_groups[REF_MAX_GROUPS];
    unsigned nrestricted;
    etw_u32 timer_interval; /* ProfileTime interval, 100 ns units */
    etw_u32 source_interval[REF_PROFILE_SOURCES]; /* by source id; kernel.c lists the ones the HAL has */
};
extern struct ref_state ref;

/* allocation with fault injection: every allocation the model makes goes through these */
void *ref_alloc(size_t n);
void ref_free(void *p);

bool ref_at_least(unsigned version); /* NT version (ETW_V6_2) or later */
unsigned ref_key(void); /* the emulated version's key (spec/abi.h ETW_VKEY) */
bool ref_at_least_key(unsigned id); /* at or after a version table entry (ETW_V10_0_17763) */
etw_u32 ref_status_to_win32(etw_status s);

/* loggers */
struct ref_logger *ref_logger_for_groupmask(etw_tracehandle h); /* low 16 bits; 0xFFFF = kernel */
struct ref_logger *ref_logger_exact(etw_u32 id); /* no 0xFFFF translation */
void ref_logger_free(struct ref_logger *lg);

/* kernel internals used by several user-mode functions */
etw_status ref_ntc_set_traits(struct ref_provider *p, const etw_u8 *blob, etw_u32 size);
struct ref_provider *ref_provider_from_handle(etw_reghandle h);
void ref_providers_reset(void);
void ref_classic_reset(void);
void ref_profile_reset(void); /* every listed PMC source back to its default interval */

#define REF_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#endif
