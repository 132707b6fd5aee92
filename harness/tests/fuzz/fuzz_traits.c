/*
 * harness/tests/fuzz/fuzz_traits.c - libFuzzer target: the reference's provider-traits parser,
 * through both of its entry points, against an independent reading of the format (well_formed).
 *
 * The input is a traits blob, passed in a heap copy of exactly its size (ASan sees any read past
 * it) to EventSetInformation (EventProviderSetTraits) twice, then to NtTraceControl(0x1E) on
 * another registration. A property violated aborts, which libFuzzer reports as a crash:
 *   - ERROR_SUCCESS exactly for a blob well formed by TRAITS.FORMAT_SIZE, TRAITS.FORMAT_NAME and
 *     TRAITS.FORMAT_TRAITS, else ERROR_FILE_CORRUPT (ERROR_INVALID_PARAMETER below 3 bytes), and
 *     from NtTraceControl(0x1E) the NTSTATUS of the same outcome;
 *   - a second set on the same registration fails with ERROR_GEN_FAILURE (TRAITS.ONCE);
 *   - with the blob's group restricted, a well-formed blob with a group trait is refused.
 */
#include "reference/etwref.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const etw_guid prov = {0xF022D000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};

/* the format, read independently: UINT16 size (= the blob length), a NUL-terminated name, then
 * traits {UINT16 size >= 3, UINT8 type, data} whose sizes add up exactly to the end */
static bool well_formed(const etw_u8 *b, size_t n, bool *group, etw_guid *g)
{
    *group = false;
    if (n < 3 || n > 0xFFFF || (size_t)(b[0] | b[1] << 8) != n)
        return false;
    size_t i = 2;
    while (i < n && b[i])
        i++;
    if (i >= n)
        return false;
    for (i++; i < n;) {
        if (n - i < 3)
            return false;
        size_t ts = (size_t)(b[i] | b[i + 1] << 8);
        if (ts < 3 || ts > n - i)
            return false;
        if (b[i + 2] == ETW_EtwProviderTraitTypeGroup && ts >= 19) {
            *group = true;
            memcpy(g, b + i + 3, 16);
        }
        i += ts;
    }
    return true;
}

#define check(ok) ((ok) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const etw_u8 *data, size_t size)
{
    if (size > 0x10010)
        return 0;
    bool group = false;
    etw_guid g;
    bool wf = well_formed(data, size, &group, &g);
    EtwRef_Reset();
    EtwRef_SetVersion(ETW_V10_0, 0);
    etw_reghandle h = 0, h2 = 0;
    check(EventRegister(&prov, NULL, NULL, &h) == 0);
    etw_u8 *blob = malloc(size ? size : 1);
    check(blob != NULL);
    memcpy(blob, data, size);
    etw_u32 rc = EventSetInformation(h, ETW_EventProviderSetTraits, blob, (etw_u32)size);
    etw_u32 want_rc = wf ? ETW_ERROR_SUCCESS : ETW_ERROR_FILE_CORRUPT;
    check(rc == (size < 3 || size > 0xFFFF ? ETW_ERROR_INVALID_PARAMETER : want_rc));
    /* a second set: once only (TRAITS.ONCE) */
    etw_u32 rc2 = EventSetInformation(h, ETW_EventProviderSetTraits, blob, (etw_u32)size);
    check(rc != 0 || rc2 == ETW_ERROR_GEN_FAILURE);
    /* NtTraceControl(0x1E) on another registration, with the group restricted */
    if (size >= 1 && size <= 0xFFFF) {
        check(EventRegister(&prov, NULL, NULL, &h2) == 0);
        if (group)
            EtwRef_RestrictGroup(&g);
        ETW_NTC_SET_TRAITS_INPUT in = {h2, (etw_u64)(uintptr_t)blob, (etw_u16)size};
        etw_u8 out[0x78];
        etw_u32 rs = 0;
        etw_status st = NtTraceControl(ETW_NTC_SET_PROVIDER_TRAITS, &in, sizeof in, out, sizeof out, &rs);
        etw_status want = !wf ? ETW_STATUS_FILE_CORRUPT_ERROR : group ? ETW_STATUS_ACCESS_DENIED : ETW_STATUS_SUCCESS;
        check(st == want);
    }
    free(blob);
    EtwRef_Reset();
    return 0;
}
