/*
 * tools/fuzz/cmd.c - the command line of etwconf fuzz, its loop, and its TIMEOUT report.
 *
 * The loop runs as the harness's in-process runs do (plat_run_watched), each program (the
 * fixture and calls of both sides) under a deadline: --timeout-ms, and none past --seconds plus a
 * grace. A program past it is printed as a TIMEOUT disagreement with the call and its replay
 * command, and the process ends at once (exit 1, without running library destructors): a target
 * stopped inside a call, or a thread blocked in it, cannot be taken back.
 */
#include "tools/fuzz/fuzz.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the run: what the command line asks for, and what the TIMEOUT report needs */
static struct fz_run {
    const char *target;
    unsigned long long only_prog, max_dis;
    bool have_prog;
    uint64_t t0_us, stop_us; /* the start, the end of --seconds (0: none) */
    int status; /* set by the loop */
} W;

/* the program being run is out of time (or, where a call cannot be interrupted, the runner thread
 * was given up in it): report the TIMEOUT and end the process */
static void hung(void *arg)
{
    (void)arg;
    const struct fz_prog *p = fz.prog;
    int call = fz.cur_call, n = fz.ndis + 1;
    bool late = fz.end_us && plat_now_us() >= fz.end_us;
    const char *who = fz.cur_side == SIDE_T ? "target" : "reference";
    fflush(stdout);
    fprintf(stdout, "\nDISAGREEMENT %d (seed %llu, program %llu, version %s): TIMEOUT: the %s ", n,
            (unsigned long long)fz.seed, fz.prog_no, etw_version_name(p->version), who);
    if (late)
        fprintf(stdout, "was still running the program %.1f s after --seconds ended (the grace is "
                "%.1f s)", (plat_now_us() - W.stop_us) / 1e6, (fz.end_us - W.stop_us) / 1e6);
    else if (call < 0)
        fprintf(stdout, "hung setting up the fixture (no return after %u ms)", fz.timeout_ms);
    else
        fprintf(stdout, "hung at call %d of the program (no return after %u ms)", call + 1,
                fz.timeout_ms);
    if (fz.cur_side == SIDE_O)
        fprintf(stdout, " [a bug of the reference: please report it]");
    fprintf(stdout, "\n");
    if (!late && call >= 0 && call < p->ncalls)
        fz_describe_call(stdout, "  call: ", &p->calls[call]);
    fprintf(stdout, "  the fuzzer stops here: a thread blocked in the %s cannot be taken back\n",
            who);
    fprintf(stdout, "  replay: etwconf fuzz --target %s --seed %llu --program %llu --timeout-ms "
            "%u\n", W.target, (unsigned long long)fz.seed, fz.prog_no, fz.timeout_ms);
    double secs = (plat_now_us() - W.t0_us) / 1e6;
    fprintf(stdout, "\nfuzz: %llu calls in %llu programs, %.1f s, seed %llu: %d disagreement(s); "
            "the %s hung\n", fz.calls, fz.programs, secs, (unsigned long long)fz.seed, n, who);
    fflush(stdout);
    fflush(stderr);
    _Exit(1);
}

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
    "  --timeout-ms N a program still running after N ms (default 5000) is a TIMEOUT "
    "disagreement:\n"
    "                 the call it hung in and its replay command are printed and the fuzzer "
    "stops (exit\n"
    "                 1); a run still going N ms + 2 s after --seconds ends the same way\n"
    "  --quiet        print only disagreements and the summary\n"
    "\n"
    "exit status: 0 no disagreement, 1 disagreement(s), 2 usage, 3 the target cannot be used\n";

/* "etwconf fuzz: WHY" on stderr; returns rc */
static int fz_fail(int rc, const char *why, const char *arg)
{
    fprintf(stderr, "etwconf fuzz: %s%s\n", why, arg);
    return rc;
}

static int fz_die(const char *fmt, const char *arg)
{
    fprintf(stderr, "etwconf fuzz: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'etwconf fuzz --help'.\n");
    return 2;
}

/* the side's functions at each version; fz.lasterr stays true if it has the last-error pair */
static void bind_side(struct fz_side *s)
{
    for (int vi = 0; vi < FZ_NV; vi++) {
        if (s->t->set_version)
            s->t->set_version(fz_versions[vi], 0);
        for (int fn = 1; fn < FN_COUNT; fn++)
            s->fn[vi][fn] = fn == FN_EXPORT || fn == FN_CUSTOM ? NULL : etw_resolve(s->t, (enum etw_fn)fn, NULL);
        fz.lasterr &= s->fn[vi][FN_GETLASTERROR] && s->fn[vi][FN_SETLASTERROR];
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

/* the programs of the seed, each disagreement reduced and printed; runs watched */
static void fuzz_loop(void *arg)
{
    (void)arg;
    const char *target = W.target;
    unsigned long long seed = fz.seed;
    int nseen = 0;
    static etw_u64 seen[FZ_MAXDIS]; /* function, aspect and class of each report */
    static struct fz_prog prog;
    if (!W.have_prog)
        fz_compare_exports(stdout, &fz.ndis, (int)W.max_dis);
    clock_t c0 = clock();
    fz.next = W.have_prog ? W.only_prog : 0;
    while (fz.ndis < (int)W.max_dis && !(W.stop_us && plat_now_us() >= W.stop_us) &&
           !(fz.max_calls && fz.calls >= fz.max_calls) &&
           !(W.have_prog && fz.next != W.only_prog)) {
        /* a batch of programs under one guard; a fault or a disagreement ends it early */
        fz.batch_left = W.have_prog ? 1 : 64;
        fz.found = false;
        char exc[48] = "";
        long off = 0;
        if (W.have_prog) {
            fz_gen_prog(seed, fz.next, &prog);
            fprintf(stdout, "program %llu (version %s):\n", fz.next, etw_version_name(prog.version));
            fz_describe_calls(stdout, &prog, "  ");
        }
        int kf = etw_guarded_call(&fz.ctx, fz_batch_body, exc, sizeof exc, &off);
        if (kf) /* the fault ended program fz.next in the middle: say so as run_prog would */
            fz_fault_dis(kf, exc, off);
        if (!fz.found)
            continue; /* the batch ran out, or the call budget did */
        unsigned long long k = fz.next++;
        if (fz.dis.call == -2)
            continue;
        fz_gen_prog(seed, k, &prog);
        /* one report per function, class and aspect */
        int at = fz.dis.call;
        const struct fz_call *c = at >= 0 ? &prog.calls[at] : &prog.calls[0];
        etw_u32 cls = c->fn == FN_NTQSI || c->fn == FN_NTSSI ? fz_kclass_of(c) : c->cls;
        etw_u64 key = (etw_u64)c->fn << 40 | (etw_u64)fz.dis.aspect << 32 | cls;
        int i = 0;
        while (i < nseen && seen[i] != key)
            i++;
        if (i < nseen)
            continue;
        seen[nseen++] = key;
        fz.ndis++;
        fprintf(stdout, "\nDISAGREEMENT %d (seed %llu, program %llu, version %s): %s\n", fz.ndis,
                seed, k, etw_version_name(prog.version), fz.dis.detail);
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
        const struct fz_call *lc = &small.calls[small.ncalls - 1];
        fprintf(stdout, "  minimal: %s; %d call(s) at %s\n", red.detail, small.ncalls, etw_version_name(small.version));
        fz_describe_call(stdout, "  call: ", lc);
        enum etw_rule_id rule = fz_rule_for(lc, red.aspect, fz.ref_out.rc, small.version);
        const struct etw_rule *rr = etw_rule_get(rule);
        fprintf(stdout, "  rule: %s%s%s\n", etw_rule_name(rule), rr ? ": " : "", rr ? rr->text : "");
        fz_print_row(stdout, &small, rule, red.aspect, k);
        fprintf(stdout, "  replay: etwconf fuzz --target %s --seed %llu --program %llu\n", target, seed, k);
        fflush(stdout);
    }
    double secs = (plat_now_us() - W.t0_us) / 1e6, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    fprintf(stdout, "\nfuzz: %llu calls in %llu programs, %.1f s (%.0f calls/s; %.0f calls per CPU second), seed %llu: %d disagreement(s)\n",
            fz.calls, fz.programs, secs, secs > 0 ? (double)fz.calls / secs : 0.0,
            cpu > 0 ? (double)fz.calls / cpu : 0.0, seed, fz.ndis);
    W.status = fz.ndis ? 1 : 0;
}

int etw_cmd_fuzz(int argc, char **argv)
{
    const char *target = NULL, *emulate = NULL, *oracle = NULL;
    unsigned long long seconds = 0, max_calls = 0, seed = 0, only_prog = 0, max_dis = 5, timeout_ms = 5000;
    bool have_seed = false, quiet = false, have_prog = false;
    const struct opt {
        const char *name, **s; /* a string option, or a number in [lo, hi] */
        unsigned long long *v, lo, hi;
        bool *have;
        const char *takes;
    } opts[] = {
        {"--target", &target}, {"--oracle", &oracle}, {"--emulate", &emulate},
        {"--seconds", NULL, &seconds, 1, 86400 * 7, NULL, "1 to 604800"},
        {"--calls", NULL, &max_calls, 1, ~0ull, NULL, "a positive number"},
        {"--seed", NULL, &seed, 0, ~0ull, &have_seed, "a number"},
        {"--program", NULL, &only_prog, 0, ~0ull, &have_prog, "a number"},
        {"--timeout-ms", NULL, &timeout_ms, 1, 3600000, NULL, "1 to 3600000"},
        {"--max", NULL, &max_dis, 1, FZ_MAXDIS, NULL, "1 to 64"},
    }, *end = opts + sizeof opts / sizeof opts[0];
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
        const struct opt *o = opts;
        while (o < end && strcmp(a, o->name))
            o++;
        char *rest = "";
        if (o == end)
            return fz_die("unknown option '%s'", a);
        else if (o->s)
            *o->s = v;
        else if (!*v || (*o->v = strtoull(v, &rest, 0), *rest) || *o->v < o->lo || *o->v > o->hi) {
            char fmt[80];
            snprintf(fmt, sizeof fmt, "%s takes %s, not '%%s'", o->name, o->takes);
            return fz_die(fmt, v);
        } else if (o->have)
            *o->have = true;
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
    if (!t)
        return fz_fail(3, err, "");
    memset(&fz, 0, sizeof fz);
    struct fz_side *T = &fz.side[SIDE_T], *O = &fz.side[SIDE_O];
    struct etw_target *o =
        oracle ? etw_target_open(oracle, err, sizeof err) : etw_target_reference();
    T->t = t;
    O->t = o;
    if (!o)
        return fz_fail(3, "the oracle: ", err);
    if (o == t)
        return fz_fail(2, "the target is the oracle itself", "");
    if (!o->reset || !o->set_version || !o->sym(o, "TraceQueryInformation"))
        return fz_fail(3, "the oracle must be the reference implementation, with its control API: this etwconf has no "
                          "built-in reference (etwconf.exe tests the live system); give one with --oracle (a build of "
                          "reference/ as a library)", "");
    fz.control = t->reset && t->set_version && t->start_logger;
    fz.emulate_all = !ver && t->set_version;
    fz.fixed_version = ver ? ver : ETW_V10_0;
    if (ver && !t->set_version)
        fprintf(stderr, "etwconf fuzz: the target cannot emulate: it is taken to implement %s\n", emulate);
    fz.lasterr = true;
    bind_side(T);
    bind_side(O);
    fz.ctx.r = &fz.runner;
    fz.ctx.t = t;
    if (!guard(&fz.gin, FZ_BUF_MAX) || !guard(&fz.gout, FZ_OUT_MAX) || !guard(&fz.grl, 4) ||
        !guard(&fz.gaux, FZ_RTG_MAX * sizeof(ETW_TRACE_GUID_REGISTRATION)))
        return fz_fail(3, "could not map the guarded buffers", "");
    for (size_t i = 0; i < sizeof fz.pattern; i++)
        fz.pattern[i] = etw_sentinel[i % 4]; /* ETW_PRE_ZONE is a multiple of 4: buf[0] gets sentinel[0] */
    T->dirty = O->dirty = true;

    if (!quiet) {
        fprintf(stdout, "etwconf fuzz: target %s against the reference, seed %llu, %s, %s\n", target, seed,
                fz.emulate_all ? "every version" : etw_version_name(fz.fixed_version),
                fz.control ? "control API: fixtures and state-changing calls" : "no control API: calls that need no fixture only");
        fprintf(stdout, "  not exported by the target (not fuzzed):");
        int nmiss = 0;
        int vi = fz_vindex(fz.emulate_all ? ETW_V10_0 : fz.fixed_version);
        for (int e = 0; e < FZ_NFNS; e++)
            if (!T->fn[vi][fz_fns[e]] && O->fn[vi][fz_fns[e]])
                fprintf(stdout, " %s", etw_fn_name(fz_fns[e])), nmiss++;
        fprintf(stdout, "%s\n", nmiss ? "" : " none");
        fflush(stdout);
    }

    W = (struct fz_run){.target = target, .only_prog = only_prog, .max_dis = max_dis,
                        .have_prog = have_prog, .t0_us = plat_now_us()};
    fz.seed = seed;
    fz.max_calls = max_calls;
    fz.timeout_ms = (unsigned)timeout_ms;
    fz.on_hang = hung;
    if (seconds) {
        W.stop_us = W.t0_us + seconds * 1000000ull;
        fz.end_us = W.stop_us + timeout_ms * 1000ull + 2000000ull;
    }
    if (!plat_run_watched(fuzz_loop, hung, NULL, fz.timeout_ms)) {
        fprintf(stderr, "etwconf fuzz: could not start the watchdog thread: a target that hangs "
                        "will not be stopped\n");
        fuzz_loop(NULL);
    }
    return W.status;
}
