/* cases/common.h - what several case files share: GUIDs, blobs, helpers for custom cases. */
#ifndef ETWCONF_CASES_COMMON_H
#define ETWCONF_CASES_COMMON_H
#include "harness/core/core.h"
#include <string.h>

/* Provider GUIDs for disallow lists, as etw_guid and as bytes (for expected output). */
#define DAL_G1 0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x01
#define DAL_G2 0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x02
#define DAL_G3 0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x03
#define GUID_OF(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) {a, b, c, {d0, d1, d2, d3, d4, d5, d6, d7}}
#define MK_GUID(...) GUID_OF(__VA_ARGS__)
extern const etw_guid dal_two[2];
extern const etw_guid dal_one[1];

/* A provider group GUID for traits. */
#define GROUP_G 0x6e0b0c00, 0x1234, 0x4abc, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07

/* the group-mask buffer of NtQuerySystemInformation(0x1F, EventTraceGroupMaskInformation):
 * class, padding, TraceHandle (patched in by the harness at offset 8), eight masks */
#define GM_IN(m0, m1, m2, m3, m4, m5, m6, m7) \
    IN(U32(1), U32(0), U64(0), U32(m0), U32(m1), U32(m2), U32(m3), U32(m4), U32(m5), U32(m6), U32(m7)), .patch = PATCH_HANDLE64, .patch_off = 8
#define GM_QUERY GM_IN(0, 0, 0, 0, 0, 0, 0, 0)

/* call fn through the target, as resolved for this case (NULL => the case has ended) */
#define API(ctx, type, fn) ((type)etw_api((ctx), (fn)))

/* kernel event GUIDs for CLASSIC_EVENT_ID lists (Thread: CSwitch 36; PerfInfo: SampledProfile 46,
 * SysClEnter 51, SysClExit 52) */
#define THREAD_GUID 0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c
#define PERFINFO_GUID 0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc
#define EVENT_ID(guid, type) GUIDB(guid), U8(type), 0, 0, 0, 0, 0, 0, 0 /* a CLASSIC_EVENT_ID, 24 bytes */

/* a PROFILE_SOURCE_INFO chain (class 0x07 output), read as a client reads it */
struct src_rec {
    etw_u32 off, next, source, min, max;
    char name[64]; /* Description, ASCII-folded */
};
/* the records of buf[0..len): their number, or -1 if a record leaves the buffer, NextEntryOffset is
 * below 0x1A, or a Description has no NUL before the next record */
static inline int source_chain(const etw_u8 *buf, etw_u32 len, struct src_rec *out, int max)
{
    etw_u32 off = 0;
    int n = 0;
    for (;;) {
        if (len < 0x18 || off > len - 0x18 || n >= max)
            return -1;
        ETW_PROFILE_SOURCE_INFO r;
        memcpy(&r, buf + off, 0x18);
        etw_u32 end = r.NextEntryOffset ? off + r.NextEntryOffset : len;
        if (r.NextEntryOffset && (r.NextEntryOffset < 0x1A || end > len))
            return -1;
        struct src_rec *s = &out[n++];
        s->off = off, s->next = r.NextEntryOffset, s->source = r.Source, s->min = r.MinInterval, s->max = r.MaxInterval;
        bool nul = false;
        size_t k = 0;
        for (etw_u32 p = off + 0x18; p + 1 < end && !nul; p += 2) {
            nul = !buf[p] && !buf[p + 1];
            if (!nul && k + 1 < sizeof s->name)
                s->name[k++] = buf[p + 1] ? '?' : (char)buf[p];
        }
        s->name[k] = 0;
        if (!nul)
            return -1;
        if (!r.NextEntryOffset)
            return n;
        off = end;
    }
}
/* Windows 10 builds that are not entries of spec/versions.def, for the ranges of the later classes
 * (spec/later-builds.md): the first build of a release, or the last build (any update) of the one
 * before. 20H1 to 22H2 (19041-19045) and 19H1/19H2 (18362/18363) are each one code base. */
#define B_1511_LAST ETW_VKEY(0x0A00, 10586, 0xF)
#define B_1703_LAST ETW_VKEY(0x0A00, 15063, 0xF)
#define B_1709 ETW_VKEY(0x0A00, 16299, 0)
#define B_1709_LAST ETW_VKEY(0x0A00, 16299, 0xF)
#define B_19H1 ETW_VKEY(0x0A00, 18362, 0)
#define B_19H2_LAST ETW_VKEY(0x0A00, 18363, 0xF)

#endif
