/*
 * tools/fuzz/state.c - what every part of the fuzzer shares: its state (struct fz_state fz), the
 * guarded buffers' addresses, the versions and the GUIDs the programs use. The generator, the
 * runner and the comparison use it; it uses none of them.
 */
#include "tools/fuzz/fuzz.h"
#include "cases/common.h"

const unsigned fz_versions[FZ_NV] = {
#define VERSION(sym, nt, build, update, name, wine, label, aliases, kb) ETW_##sym,
#include "spec/versions.def"
#undef VERSION
};
/* the disallow-list GUIDs and the provider group of cases/common.h */
const etw_guid fz_dal_guids[3] = {MK_GUID(DAL_G1), MK_GUID(DAL_G2), MK_GUID(DAL_G3)};
const etw_guid fz_group_guid = MK_GUID(GROUP_G);
const etw_guid fz_seq_guids[4] = {
    {0xF0220000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 0}}, {0xF0220001, 1, 2, {3, 4, 5, 6, 7, 8, 9, 1}},
    {0xF0220002, 1, 2, {3, 4, 5, 6, 7, 8, 9, 2}}, {0xF0220003, 1, 2, {3, 4, 5, 6, 7, 8, 9, 3}},
};

const enum etw_fn fz_fns[FZ_NFNS] = {
    FN_TQI, FN_TSI, FN_NTQSI, FN_NTSSI, FN_NTC, FN_ETWCTI, FN_CTI, FN_ESI, FN_ETWESI, FN_NTQIP,
    FN_REGISTERTRACEGUIDS, FN_UNREGISTERTRACEGUIDS, FN_EVENTREGISTER, FN_EVENTUNREGISTER};

struct fz_state fz;

int fz_vindex(unsigned v)
{
    for (int i = 0; i < FZ_NV; i++)
        if (fz_versions[i] == v)
            return i;
    return FZ_NV - 1;
}
