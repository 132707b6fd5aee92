/*
 * tools/fuzz/cmd.c - the command line of etwconf fuzz.
 */
#include "tools/fuzz/fuzz.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char fuzz_usage[] =
    "usage: etwconf fuzz --target LIB [--seconds N | --calls N] [--seed S] [--emulate V] [--max N] [--oracle LIB]\n"
    "                    [--timeout-ms N] [--quiet]\n"
    "\n"
    "Differential fuzzing: random calls against LIB and against the built-in reference, compared on\n"
    "return code, ReturnLength, every byte of every buffer, bytes around the buffers and returned\n"
    "handles. Each disagreement is reduced to a minimal call and printed as a case row for cases/.\n"
    "\n"
    "  --target LIB   a shared library exporting the API (the built-in reference is the oracle)\n"
    "  --oracle LIB   compare with this build of the reference instead of the built-in one\n"
    "  --seconds N    fuzz for N seconds (default 10)\n"
    "  --calls N      stop after N calls instead\n"
    "  --seed S       the seed (default: from the clock; printed). Same seed, same programs\n"
    "  --program K    replay only program K of the seed, verbosely\n"
    "  --emulate V    one version of 'etwconf versions'; default: all, if LIB can emulate\n"
    "  --max N        stop after N distinct disagreements (default 5)\n"
    "  --timeout-ms N a call that has not returned after N ms (default 5000) is a TIMEOUT disagreement:\n"
    "                 the hung call and its replay command are printed and the fuzzer stops (exit 1); a\n"
    "                 run still going N ms + 2 s after --seconds ends the same way\n"
    "  --quiet        print only disagreements and the summary\n"
    "\n"
    "exit status: 0 no disagreement, 1 disagreement(s), 2 usage, 3 the target cannot be used\n";

static int fz_die(const char *fmt, const char *arg)
{
    fprintf(stderr, "etwconf fuzz: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'etwconf fuzz --help'.\n");
    return 2;
}

static bool parse_u64(const char *s, unsigned long long *v)
{
    char *end;
    if (!s || !*s)
        return false;
    *v = strtoull(s, &end, 0);
    return !*end;
}

static void bind_side(struct fz_side *s)
{
    for (int vi = 0; vi < FZ_NV; vi++) {
        if (s->t->set_version)
            s->t->set_version(fz_versions[vi], 0);
        for (int fn = 1; fn < FN_COUNT; fn++)
            s->fn[vi][fn] = fn == FN_EXPORT || fn == FN_CUSTOM ? NULL : etw_resolve(s->t, (enum etw_fn)fn, NULL);
        s->gle[vi] = (etw_pfn_GetLastError)s->fn[vi][FN_GETLASTERROR];
        s->sle[vi] = (etw_pfn_SetLastError)s->fn[vi][FN_SETLASTERROR];
    }
    s->cur_version = 0;
}

static bool guard(struct etw_guard *g, size_t len)
{
    if (!etw_guard_alloc(g, len))
        return false;
    fz.ctx.guards[fz.ctx.nguards++] = g;
    return true;
}

struct seen {
    enum etw_fn fn;
    etw_u32 cls;
    enum aspect a;
};

/* what the fuzz loop needs from the command line */
struct fz_loop {
    const char *target;
    unsigned long long seed, only_prog, max_calls, max_dis;
    bool have_prog;
};
static const struct fz_loop *loop_args;

/* the programs of the seed, each disagreement reduced and printed; runs under the watchdog */
static void fuzz_loop(struct fz_watch *w)
{
    const struct fz_loop *a = loop_args;
    const char *target = a->target;
    unsigned long long seed = a->seed, only_prog = a->only_prog, max_calls = a->max_calls, max_dis = a->max_dis;
    bool have_prog = a->have_prog;
    int ndis = 0;
    static struct seen seen[FZ_MAXDIS];
    int nseen = 0;
    if (!have_prog)
        fz_compare_exports(stdout, &ndis, (int)max_dis);
    atomic_store(&fz.w_ndis, ndis);
    static struct fz_prog prog;
    uint64_t t0 = w->t0_us, deadline = w->stop_us;
    clock_t c0 = clock();
    fz.seed = seed;
    fz.max_calls = max_calls;
    fz.next = have_prog ? only_prog : 0;
    while (ndis < (int)max_dis) {
        if (deadline && plat_now_us() >= deadline)
            break;
        if (max_calls && fz.calls >= max_calls)
            break;
        if (have_prog && fz.next != only_prog)
            break;
        /* a batch of programs under one guard; a fault or a disagreement ends it early */
        fz.batch_left = have_prog ? 1 : 64;
        fz.found = false;
        char exc[48] = "";
        long off = 0;
        if (have_prog) {
            fz_gen_prog(seed, fz.next, &prog);
            fprintf(stdout, "program %llu (version %s):\n", fz.next, etw_version_name(prog.version));
            for (int i = 0; i < prog.ncalls; i++) {
                fprintf(stdout, "  %d. ", i + 1);
                fz_describe_call(stdout, &prog.calls[i]);
                fprintf(stdout, "\n");
            }
        }
        int kf = etw_guarded_call(&fz.ctx, fz_batch_body, exc, sizeof exc, &off);
        if (kf) {
            /* the fault ended program fz.next in the middle: say so as run_prog would */
            fz_fault_dis(kf, exc, off);
        }
        if (!fz.found)
            continue; /* the batch ran out, or the call budget did */
        unsigned long long k = fz.next;
        fz.next++;
        if (fz.dis.call == -2)
            continue;
        fz_gen_prog(seed, k, &prog);
        /* one report per function, class and aspect */
        int at = fz.dis.call;
        const struct fz_call *c = at >= 0 ? &prog.calls[at] : &prog.calls[0];
        struct seen sn = {c->fn, c->fn == FN_NTQSI || c->fn == FN_NTSSI ? fz_kclass_of(c) : c->cls, fz.dis.aspect};
        bool dup = false;
        for (int i = 0; i < nseen && !dup; i++)
            dup = seen[i].fn == sn.fn && seen[i].cls == sn.cls && seen[i].a == sn.a;
        if (dup)
            continue;
        seen[nseen++] = sn;
        ndis++;
        atomic_store(&fz.w_ndis, ndis);
        struct fz_dis first_dis = fz.dis;
        fprintf(stdout, "\nDISAGREEMENT %d (seed %llu, program %llu, version %s): %s\n", ndis, seed, k, etw_version_name(prog.version),
                first_dis.detail);
        if (at < 0) {
            fprintf(stdout, "  (while setting up the fixture; replay: etwconf fuzz --target %s --seed %llu --program %llu)\n", target, seed, k);
            continue;
        }
        static struct fz_prog small;
        small = prog;
        fz_reduce(&small, at);
        if (!fz_run_prog(&small, small.ncalls) || fz.dis.call != small.ncalls - 1) {
            /* the reduction lost it (state-dependent): report the program up to the call */
            small = prog;
            small.ncalls = at + 1;
            fz_run_prog(&small, small.ncalls);
        }
        struct fz_dis red = fz.dis;
        struct fz_out ref_out = fz.last_out[SIDE_O];
        const struct fz_call *lc = &small.calls[small.ncalls - 1];
        fprintf(stdout, "  minimal: %s; %d call(s) at %s\n", red.detail, small.ncalls, etw_version_name(small.version));
        fprintf(stdout, "  call: ");
        fz_describe_call(stdout, lc);
        fprintf(stdout, "\n");
        enum etw_rule_id rule = fz_rule_for(lc, red.aspect, ref_out.rc, small.version);
        const struct etw_rule *rr = etw_rule_get(rule);
        fprintf(stdout, "  rule: %s%s%s\n", etw_rule_name(rule), rr ? ": " : "", rr ? rr->text : "");
        fz_print_row(stdout, &small, rule, red.aspect, k);
        fprintf(stdout, "  replay: etwconf fuzz --target %s --seed %llu --program %llu\n", target, seed, k);
        fflush(stdout);
    }
    unsigned long long programs = fz.programs;
    uint64_t el = plat_now_us() - t0;
    double secs = el / 1e6, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    fprintf(stdout, "\nfuzz: %llu calls in %llu programs, %.1f s (%.0f calls/s; %.0f calls per CPU second), seed %llu: %d disagreement(s)\n",
            fz.calls, programs, secs, secs > 0 ? (double)fz.calls / secs : 0.0, cpu > 0 ? (double)fz.calls / cpu : 0.0, seed, ndis);
    w->status = ndis ? 1 : 0;
}

int etw_cmd_fuzz(int argc, char **argv)
{
    const char *target = NULL, *emulate = NULL, *oracle = NULL;
    unsigned long long seconds = 0, max_calls = 0, seed = 0, only_prog = 0, max_dis = 5, timeout_ms = 5000;
    bool have_seed = false, quiet = false, have_prog = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(fuzz_usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if (!v)
            return fz_die("%s needs a value", a);
        i++;
        if (!strcmp(a, "--target"))
            target = v;
        else if (!strcmp(a, "--oracle"))
            oracle = v;
        else if (!strcmp(a, "--emulate"))
            emulate = v;
        else if (!strcmp(a, "--seconds")) {
            if (!parse_u64(v, &seconds) || !seconds || seconds > 86400 * 7)
                return fz_die("--seconds takes 1 to 604800, not '%s'", v);
        } else if (!strcmp(a, "--calls")) {
            if (!parse_u64(v, &max_calls) || !max_calls)
                return fz_die("--calls takes a positive number, not '%s'", v);
        } else if (!strcmp(a, "--seed")) {
            if (!parse_u64(v, &seed))
                return fz_die("--seed takes a number, not '%s'", v);
            have_seed = true;
        } else if (!strcmp(a, "--program")) {
            if (!parse_u64(v, &only_prog))
                return fz_die("--program takes a number, not '%s'", v);
            have_prog = true;
        } else if (!strcmp(a, "--timeout-ms")) {
            if (!parse_u64(v, &timeout_ms) || !timeout_ms || timeout_ms > 3600000)
                return fz_die("--timeout-ms takes 1 to 3600000, not '%s'", v);
        } else if (!strcmp(a, "--max")) {
            if (!parse_u64(v, &max_dis) || !max_dis || max_dis > FZ_MAXDIS)
                return fz_die("--max takes 1 to 64, not '%s'", v);
        } else
            return fz_die("unknown option '%s'", a);
    }
    if (!target)
        return fz_die("%s", "--target LIB is required (the built-in reference is the oracle)");
    if (!strcmp(target, "reference") && (!oracle || !strcmp(oracle, "reference")))
        return fz_die("%s", "the target must be a library: the built-in reference is the oracle (try --target build/libetwref.so)");
    if (have_prog && !have_seed)
        return fz_die("%s", "--program needs the --seed it came from");
    unsigned ver = 0;
    if (emulate && !(ver = etw_version_parse(emulate)))
        return fz_die("--emulate takes a version of 'etwconf versions', not '%s'", emulate);
    if (!seconds && !max_calls)
        seconds = 10;
    if (!have_seed)
        seed = plat_now_us() ^ 0xE7C0F00Dull;

    char err[512] = "";
    struct etw_target *t = etw_target_open(target, err, sizeof err);
    if (!t) {
        fprintf(stderr, "etwconf fuzz: %s\n", err);
        return 3;
    }
    memset(&fz, 0, sizeof fz);
    fz.side[SIDE_T].name = "target";
    fz.side[SIDE_T].t = t;
    fz.side[SIDE_O].name = "reference";
    fz.side[SIDE_O].t = oracle ? etw_target_open(oracle, err, sizeof err) : etw_target_reference();
    if (!fz.side[SIDE_O].t) {
        fprintf(stderr, "etwconf fuzz: the oracle: %s\n", err);
        return 3;
    }
    if (fz.side[SIDE_O].t == t) {
        fprintf(stderr, "etwconf fuzz: the target is the oracle itself\n");
        return 2;
    }
    if (!fz.side[SIDE_O].t->reset || !fz.side[SIDE_O].t->set_version || !fz.side[SIDE_O].t->sym(fz.side[SIDE_O].t, "TraceQueryInformation")) {
        fprintf(stderr, "etwconf fuzz: the oracle must be the reference implementation, with its control API: this etwconf has no "
                        "built-in reference (etwconf.exe tests the live system); give one with --oracle (a build of reference/ as a "
                        "library)\n");
        return 3;
    }
    fz.control = t->reset && t->set_version && t->start_logger;
    fz.emulate_all = !ver && t->set_version;
    fz.fixed_version = ver ? ver : t->set_version ? ETW_V10_0 : ETW_V10_0;
    if (ver && !t->set_version)
        fprintf(stderr, "etwconf fuzz: the target cannot emulate: it is taken to implement %s\n", emulate);
    bind_side(&fz.side[SIDE_T]);
    bind_side(&fz.side[SIDE_O]);
    fz.lasterr = true;
    for (int vi = 0; vi < FZ_NV; vi++)
        fz.lasterr &= fz.side[SIDE_T].gle[vi] && fz.side[SIDE_T].sle[vi] && fz.side[SIDE_O].gle[vi] && fz.side[SIDE_O].sle[vi];
    fz.runner.timeout_ms = 0;
    fz.ctx.r = &fz.runner;
    fz.ctx.t = t;
    if (!guard(&fz.gin, FZ_BUF_MAX) || !guard(&fz.gout, FZ_OUT_MAX) || !guard(&fz.grl, 4) ||
        !guard(&fz.gaux, FZ_RTG_MAX * sizeof(ETW_TRACE_GUID_REGISTRATION))) {
        fprintf(stderr, "etwconf fuzz: could not map the guarded buffers\n");
        return 3;
    }
    size_t pl = ETW_PRE_ZONE + FZ_RTG_MAX * sizeof(ETW_TRACE_GUID_REGISTRATION);
    fz.pattern = malloc(pl);
    fz.t_after = malloc(FZ_BUF_MAX);
    fz.t_out_after = malloc(FZ_OUT_MAX);
    fz.t_before = malloc(FZ_BUF_MAX + ETW_PRE_ZONE);
    fz.o_before = malloc(FZ_BUF_MAX + ETW_PRE_ZONE);
    if (!fz.pattern || !fz.t_after || !fz.t_out_after || !fz.t_before || !fz.o_before) {
        fprintf(stderr, "etwconf fuzz: out of memory\n");
        return 3;
    }
    for (size_t i = 0; i < pl; i++)
        fz.pattern[i] = etw_sentinel[i % 4]; /* ETW_PRE_ZONE is a multiple of 4: buf[0] gets sentinel[0] */
    fz.t_before += ETW_PRE_ZONE;
    fz.o_before += ETW_PRE_ZONE;
    fz.side[SIDE_T].dirty = fz.side[SIDE_O].dirty = true;

    if (!quiet) {
        fprintf(stdout, "etwconf fuzz: target %s against the reference, seed %llu, %s, %s\n", target, seed,
                fz.emulate_all ? "every version" : etw_version_name(fz.fixed_version),
                fz.control ? "control API: fixtures and state-changing calls" : "no control API: calls that need no fixture only");
        fprintf(stdout, "  not exported by the target (not fuzzed):");
        int nmiss = 0;
        int vi = fz_vindex(fz.emulate_all ? ETW_V10_0 : fz.fixed_version);
        for (size_t e = 0; e < fz_export_count; e++) {
            enum etw_fn fn = fz_export_list[e].fn;
            if (!fz.side[SIDE_T].fn[vi][fn] && fz.side[SIDE_O].fn[vi][fn] && (e == 0 || fz_export_list[e - 1].fn != fn))
                fprintf(stdout, " %s", etw_fn_name(fn)), nmiss++;
        }
        fprintf(stdout, "%s\n", nmiss ? "" : " none");
        fflush(stdout);
    }

    struct fz_loop L = {target, seed, only_prog, max_calls, max_dis, have_prog};
    loop_args = &L;
    struct fz_watch w = {.target = target, .seed = seed, .timeout_ms = (unsigned)timeout_ms, .t0_us = plat_now_us()};
    if (seconds) {
        w.stop_us = w.t0_us + seconds * 1000000ull;
        w.end_us = w.stop_us + timeout_ms * 1000ull + 2000000ull;
    }
    int rc = fz_watched(fuzz_loop, &w);
    if (rc < 0) {
        fprintf(stderr, "etwconf fuzz: could not start the watchdog thread: a target that hangs will not be stopped\n");
        fuzz_loop(&w);
        rc = w.status;
    }
    return rc;
}

