/* cases/common.h - what several case files share: GUIDs, blobs, helpers for custom cases. */
#ifndef ETWCONF_CASES_COMMON_H
#define ETWCONF_CASES_COMMON_H
#include "harness/etwconf.h"
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
#endif
