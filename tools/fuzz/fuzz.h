/*
 * tools/fuzz/fuzz.h - etwconf fuzz: differential fuzzing of a target against the reference, the
 * built-in one (etw_target_reference()) or --oracle LIB. What it compares, how it reduces and
 * reports a disagreement: tools/mutate/README.md; its options: the usage text in cmd.c. Both
 * sides start each program from the same state through the control API (EtwRef_Reset,
 * EtwRef_SetVersion, ...) and make the same calls. Programs are a pure function of (seed, program
 * number). Portable C over the harness API.
 *
 * Each file says its job at its top; no two of them use each other, directly or through others
 * (the layers stage checks it).
 */
#ifndef ETWCONF_FUZZ_H
#define ETWCONF_FUZZ_H

#include "harness/targets/targets.h"
#include "tools/tools.h"
#include <stddef.h>

#define FZ_MAXCALLS 24
#define FZ_IN_MAX 320 /* explicit input bytes; the rest of a longer buffer keeps the sentinel */
#define FZ_BUF_MAX 0x10100u /* the largest InformationLength tried */
#define FZ_OUT_MAX 0x10100u
#define FZ_RTG_MAX 0x20001u /* RegisterTraceGuidsW: the largest GuidCount with a real array */
#define FZ_NV ETW_VERSION_COUNT
#define FZ_MAXDIS 64

enum { SIDE_T, SIDE_O };
/* handle selectors beyond the case format's enum etw_hsel: handles made earlier in the sequence */
enum { FH_SEQREG = 100, FH_SEQCLASS, FH_SEQCLASSIC, FH_FIXCLASSIC };
/* a call the fuzzer makes that no row can: EtwRef_EnableGroup(session, group), what a group
 * enable on a session reaches (past the functions of the case format) */
#define FZ_ENABLE_GROUP ((enum etw_fn)FN_COUNT)
/* EventRegister / RegisterTraceGuidsW NULL-argument bits */
enum { N_REQ = 1, N_CTL = 2, N_REGS = 4, N_OUT = 8, N_GUID = 16, N_PROV = 32 };
enum aspect {
    FA_NONE, FA_RC, FA_RETLEN, FA_OUTPUT, FA_INPUT, FA_BOUNDS, FA_HANDLE, FA_LASTERR, FA_FAULT,
    FA_FIXTURE
};

extern const unsigned fz_versions[FZ_NV];
extern const etw_guid fz_dal_guids[3];
extern const etw_guid fz_group_guid;
extern const etw_guid fz_seq_guids[4];

/* ---------------------------------------------------------------- programs */
struct fz_call {
    enum etw_fn fn;
    int h; /* enum etw_hsel or FH_* */
    etw_u64 hval;
    etw_u32 cls;
    etw_u32 len; /* InformationLength (the buffer has exactly this many bytes) */
    bool buf_null, retlen_null, out_null;
    etw_u32 out_len; /* NtTraceControl */
    enum etw_patch patch;
    int patch_off;
    int fail_alloc; /* the n-th allocation inside this call fails */
    etw_u32 count; /* RegisterTraceGuidsW GuidCount */
    unsigned nulls; /* N_* bits */
    bool traits_ptr; /* NtTraceControl 0x1E: Traits points at the blob in aux */
    etw_u32 in_len, aux_len;
    etw_u8 in[FZ_IN_MAX];
    etw_u8 aux[FZ_IN_MAX];
};

struct fz_prog {
    unsigned version;
    struct etw_fixture fx;
    bool restrict_group; /* EtwRef_RestrictGroup(group_g) after the fixture */
    int ncalls;
    struct fz_call calls[FZ_MAXCALLS];
};

/* ---------------------------------------------------------------- the two sides */
struct fz_side {
    struct etw_target *t;
    void *fn[FZ_NV][FN_COUNT];
    unsigned cur_version;
    bool dirty;
    struct etw_fixture_state fx; /* the program's fixture (harness/core/fixture.c) */
    /* made by calls of the sequence */
    etw_reghandle seqreg[4];
    etw_tracehandle seqclassic[4];
    bool seqclassic_alive[4];
    etw_u32 seqclassic_n[4];
    etw_handle seqclass[4][4];
};

/* what one call did, besides its buffers */
struct fz_out {
    etw_u32 rc, rl, le;
    bool pre_in, pre_out, pre_aux;
    int ntok;
    etw_u32 tok[20];
};

struct fz_dis {
    int call; /* index of the call that disagreed (-1: fixture) */
    enum aspect aspect;
    char detail[400];
};

/* the fuzzer's state: the two sides, the guarded buffers, the program being run */
struct fz_state {
    struct fz_side side[2];
    struct etw_guard gin, gout, grl, gaux;
    struct etw_ctx ctx;
    struct etw_runner runner;
    /* sentinel bytes, buf-aligned, for refilling */
    etw_u8 pattern[ETW_PRE_ZONE + FZ_RTG_MAX * sizeof(ETW_TRACE_GUID_REGISTRATION)];
    /* the target's buffers after its call, and each side's before it (past ETW_PRE_ZONE bytes) */
    etw_u8 t_after[FZ_BUF_MAX], t_out_after[FZ_OUT_MAX];
    etw_u8 t_before[ETW_PRE_ZONE + FZ_BUF_MAX], o_before[ETW_PRE_ZONE + FZ_BUF_MAX];
    bool control; /* both sides have the control API */
    bool emulate_all;
    unsigned fixed_version;
    unsigned long long calls;
    /* the program being run under the guard */
    const struct fz_prog *prog;
    int upto;
    struct fz_dis dis;
    bool found;
    volatile int cur_side, cur_call;
    bool oracle_only; /* run the reference alone (the expectations of a printed row) */
    etw_u64 seed;
    bool lasterr; /* both sides export GetLastError and SetLastError */
    unsigned long long next, programs, max_calls;
    long batch_left;
    struct fz_out ref_out; /* the reference's outcome of the last call it ran */
    bool last_ran;
    unsigned long long prog_no; /* the number in the seed of the program being run */
    int ndis; /* the disagreements reported so far */
    /* a program has timeout_ms to run, and none past end_us (0: no end); when it runs out,
     * on_hang (cmd.c) reports the TIMEOUT and ends the process */
    unsigned timeout_ms;
    uint64_t end_us;
    void (*on_hang)(void *unused);
};
extern struct fz_state fz;

/* the API functions the fuzzer calls, in the order their exports are reported */
#define FZ_NFNS 14
extern const enum etw_fn fz_fns[FZ_NFNS];

/* gen.c */
void fz_gen_prog(etw_u64 seed, unsigned long long k, struct fz_prog *p);

/* the last len bytes before the guard page of the input, output, ReturnLength and aux buffers */
#define fz_in_buf(len) (fz.gin.guard - (len))
#define fz_out_buf(len) (fz.gout.guard - (len))
#define fz_rl_ptr() ((etw_u32 *)(void *)(fz.grl.guard - 4))
#define fz_aux_buf(len) (fz.gaux.guard - (len))

/* state.c */
int fz_vindex(unsigned v);

/* exec.c */
etw_u64 fz_handle_of(struct fz_side *s, const struct fz_call *c);
void fz_prepare(etw_u8 *buf, const struct fz_call *c, etw_u64 h);
void fz_batch_body(struct etw_ctx *unused);
bool fz_run_prog(const struct fz_prog *p, int upto);
void fz_fault_dis(int k, const char *exc, long off);
bool fz_is_query(enum etw_fn fn);
void fz_compare_exports(FILE *f, int *ndis, int max);

/* report.c */
void fz_reduce(struct fz_prog *p, int at);
etw_u32 fz_kclass_of(const struct fz_call *c);
enum etw_rule_id fz_rule_for(const struct fz_call *c, enum aspect a, etw_u32 ref_rc, unsigned v);
void fz_describe_call(FILE *f, const char *pre, const struct fz_call *c); /* a line */
void fz_describe_calls(FILE *f, const struct fz_prog *p, const char *indent); /* numbered */
void fz_print_row(FILE *f, struct fz_prog *p, enum etw_rule_id rule, enum aspect a, unsigned long long prog_no);

#endif
