/*
 * harness/cli/run.c - the run command: options, the plan, one results file per version and the
 * summary line. A write, flush or close error stops the run with exit 3 and says so; whatever ends
 * the process during a run (a target calling exit) still writes a footer with complete:false.
 */
#include "harness/cli/cli.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <direct.h>
#include <io.h>
#define stderr_is_tty() _isatty(_fileno(stderr))
#define make_dir(p) _mkdir(p)
#define RESULTS_MODE "wN" /* N: not inherited by worker processes */
#else
#include <sys/stat.h>
#include <unistd.h>
#define stderr_is_tty() isatty(2)
#define make_dir(p) mkdir((p), 0777)
#define RESULTS_MODE "we" /* e: not inherited by programs a target starts */
#endif

static const char cli_run_help[] =
    "usage: " ETWCONF_PROG " run [OPTIONS]\n"
    "\n"
    "Run cases against a target and write JSON Lines results (harness/RESULTS.md).\n"
    "\n"
#if defined(_WIN32)
    "  --target T        'live' (default: this system) or a DLL exporting the API under its\n"
    "                    Windows names (a path, or .\\NAME; see harness/windows/README.md)\n"
#else
    "  --target T        'reference' (default: the built-in reference implementation) or a shared\n"
    "                    library exporting the API under its Windows names (a path, or ./NAME)\n"
#endif
    "  --emulate V       a version of '" ETWCONF_PROG " versions' by name (6.1, 10.0.26100), alias\n"
    "                    (win11-24h2, server2022) or Wine name (win7), 'all', or a comma list (default 10.0)\n"
    "                    A target that cannot emulate is taken to implement V\n"
    "  --case ID         run only this case (repeatable)\n"
    "  --filter GLOB     run only cases whose id matches GLOB ('tqi.*'), or that cite a matching rule\n"
    "  --out FILE        write results to FILE (default: stdout; '-' is stdout)\n"
    "  --out-dir DIR     write DIR/TARGET-VERSION.jsonl for each version (needed for several versions)\n"
    "  --isolation M     auto (default): in process for the suite's own model (the built-in reference),\n"
    "                    moving to worker processes after a crash, hang or overrun; a worker process\n"
    "                    for a loaded library and for the live system on Windows.\n"
    "                    batch: a worker process, replaced after a crash, hang or overrun.\n"
    "                    child: a worker process per case. inproc: no process (cheapest, least safe).\n"
    "                    fallback: auto's policy for the suite's own implementation, for any target\n"
    "                    (builds of the reference: make mutate's mutants): in process until a crash,\n"
    "                    hang or overrun, then worker processes for the rest, later versions included.\n"
    "                    The same on Linux and Windows.\n"
    "  --timeout-ms N    a call that runs longer is a TIMEOUT (default 5000; 0: no limit)\n"
    "  --fixture-timeout-ms N  a case's fixture (reset, setup, teardown, a session, events read\n"
    "                    back) that runs longer is BROKEN, never a TIMEOUT (default 60000)\n"
    "  --load-timeout-ms N  loading a library target (its constructor or DllMain, tried first in a\n"
    "                    process of its own) may take this long; then the run ends, exit 3 (default 10000)\n"
    "  --quiet           print only the summary line; --verbose prints every case\n"
    "  --stop-on-counted with several versions: stop after the first version whose run counts\n"
    "                    something against the target (its exit status is 1; mutation testing)\n"
    "\n"
    "exit status: 0 conformant (no counted failure, crash or timeout), 1 not conformant,\n"
    "             2 usage error, 3 the run could not start or finish (the results are incomplete)\n";

struct run_opts {
    const char *target, *out, *out_dir, *filter;
    const char **ids;
    int nids;
    enum etw_isolation isolation;
    bool auto_isolation;
    bool fallback; /* --isolation fallback; cleared (batch from then on) once a version fell back */
    unsigned long timeout, fixture_timeout;
    bool quiet, verbose;
    bool stop_on_counted; /* --stop-on-counted: no later version once one counts a failure */
};

/* the run in progress, for a footer when the process ends during it */
static struct etw_runner *active;
static volatile bool ended_during_run;

/* the header (argv given) or the footer (exit code) as a line of r->out; false when it failed */
static bool write_record(struct etw_runner *r, int code, int argc, char **argv)
{
    struct etw_json j = {0};
    if (argv)
        etw_record_header(&j, r, argc, argv);
    else
        etw_record_footer(&j, r, code);
    bool ok = fprintf(r->out, "%s\n", j.buf) >= 0 && fflush(r->out) == 0;
    if (!ok && !r->out_errno)
        r->out_errno = errno ? errno : EIO;
    etw_json_free(&j);
    return ok;
}

/* runs last of the end hooks (registered first): a process that a target ended during the run
 * must not exit 0 */
static void status_at_end(void)
{
    if (ended_during_run)
        _exit(3);
}

static void footer_at_end(void)
{
    struct etw_runner *r = active;
    if (!r)
        return;
    active = NULL;
    ended_during_run = true;
    if (r->out)
        write_record(r, 3, 0, NULL);
    fprintf(stderr, ETWCONF_PROG ": the process ended during the run after %lu of %zu cases; the results say complete:false\n", r->seq,
            r->nplan);
}

/* one version: header, every planned case, footer; returns the run's exit code */
static int run_version(struct run_opts *o, struct etw_target *t, unsigned version, const struct etw_case **plan, size_t nplan, int argc,
                       char **argv)
{
    static struct etw_runner r;
    bool verbose = o->verbose && !o->quiet;
    r = (struct etw_runner){.quiet = o->quiet, .verbose = verbose,
                            .progress = !o->quiet && !verbose && stderr_is_tty(),
                            .timeout_ms = (unsigned)o->timeout,
                            .fixture_ms = (unsigned)o->fixture_timeout,
                            .isolation = o->isolation, .plan = plan, .nplan = nplan};
    if (t->emulates && t->set_version(version, 0) != 0)
        return fprintf(stderr, ETWCONF_PROG ": target '%s' cannot emulate %s\n", o->target,
                       etw_version_name(version)), 3;
    if (t->emulates || version) { /* one that cannot emulate claims to implement version */
        const struct etw_version_info *e = etw_version_info(version);
        t->version = e->nt, t->build = e->build, t->update = e->update;
    }
    r.t = t;
    r.version = version ? version : t->version; /* a version table entry's id */
    etw_exec_policy(&r, o->auto_isolation);
    r.fallback = r.fallback || o->fallback;
    char rerun[512], path[4096];
    snprintf(rerun, sizeof rerun, "%s run --target %s --emulate %s", argv[0], o->target, etw_version_name(r.version));
    r.rerun_prefix = rerun;
    const char *out = o->out;
    const char *vlabel = t->version_label ? t->version_label : etw_version_name(r.version);
    if (o->out_dir) {
        snprintf(path, sizeof path, "%s/%s-%s.jsonl", o->out_dir, t->name, vlabel);
        out = path;
    }
    bool to_stdout = !out || !strcmp(out, "-");
    static FILE *private_stdout; /* fd 1 pointed away from it: nothing a target prints reaches it */
    if (to_stdout && !private_stdout && !(private_stdout = plat_private_stdout()))
        private_stdout = stdout;
    if (to_stdout)
        r.out = private_stdout;
    else if (!(r.out = fopen(out, RESULTS_MODE)))
        return fprintf(stderr, ETWCONF_PROG ": cannot write '%s': %s\n", out, strerror(errno)), 3;
    r.started_us = plat_now_us();
    bool wrote = write_record(&r, 0, argc, argv);
    active = &r;
    int prc = wrote ? etw_exec_run(&r) : 3;
    active = NULL;
    if (r.fell_back && o->fallback) { /* the process may be damaged: the later versions run in workers */
        o->fallback = false;
        o->isolation = ISO_BATCH;
    }
    if (r.out_errno)
        prc = 3;
    int code = prc ? 3 : (r.counted_failures || r.counts[R_CRASH] || r.counts[R_TIMEOUT]) ? 1 : 0;
    if (!r.out_errno) /* interrupted or stopped: the footer says complete:false */
        write_record(&r, prc == 4 ? 3 : code, 0, NULL);
    int cerr = !r.out ? 0 : to_stdout ? (fflush(r.out) != 0 ? (errno ? errno : EIO) : 0) : plat_close_checked(r.out);
    if (cerr && !r.out_errno)
        r.out_errno = cerr;
    const char *where = to_stdout ? "stdout" : out;
    if (r.out_errno) {
        fprintf(stderr, ETWCONF_PROG ": writing the results to %s failed: %s; the run stopped after %lu of %zu cases and the results are "
                                     "incomplete (free space, or give --out FILE on another disk)\n",
                where, strerror(r.out_errno), r.seq, nplan);
        return 3;
    }
    size_t total = etw_case_total();
    char scope[32] = "";
    if (nplan < total)
        snprintf(scope, sizeof scope, " of %zu", total);
    const char *note = nplan < total ? " (a filtered run: no verdict on the whole suite)" : "";
    fprintf(stderr,
            "%s@%s: %lu%s cases%s: %lu passed, %lu failed, %lu skipped, %lu broken, %lu crashed, %lu timed out; %lu count against it%s%s\n",
            t->name, vlabel, r.seq, scope, note, r.counts[R_PASS], r.counts[R_FAIL], r.counts[R_SKIP], r.counts[R_BROKEN], r.counts[R_CRASH],
            r.counts[R_TIMEOUT], r.counted_failures, to_stdout ? "" : " -> ", to_stdout ? "" : out);
    if (prc == 4)
        fprintf(stderr, ETWCONF_PROG ": interrupted after %lu of %zu cases; the results written so far are kept (complete:false)\n", r.seq,
                nplan);
    return prc == 4 ? 130 : code;
}

/* "6.1", "win11-24h2", "10.0.26100", "all", or "6.1,6.2,10.0" -> the entries' ids; the count, 0 on a bad name */
static int parse_versions(const char *s, unsigned *vs, int max)
{
    int n = 0;
    if (!strcmp(s, "all")) {
        for (size_t i = 0; i < etw_version_count && n < max; i++)
            vs[n++] = etw_versions[i].id;
        return n;
    }
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *p = buf, *tok; p; p = tok) {
        tok = strchr(p, ',');
        if (tok)
            *tok++ = 0;
        unsigned v = etw_version_parse(p); /* "" and unknown names are 0 */
        if (!v || n >= max)
            return 0;
        vs[n++] = v;
    }
    return n;
}

/* a --*-timeout-ms value: min to 3600000 ms, else a usage error (exit 2) */
static unsigned long ms_arg(const char *name, const char *v, unsigned long min)
{
    char *end, fmt[96];
    errno = 0;
    unsigned long ms = strtoul(v, &end, 10);
    if (*v && *v != '-' && *v != '+' && !*end && !errno && ms >= min && ms <= 3600000)
        return ms;
    snprintf(fmt, sizeof fmt, "%s takes milliseconds (%lu to 3600000), not '%%s'", name, min);
    exit(cli_usage_error(fmt, v));
}

int cli_cmd_run(int argc, char **argv)
{
    struct run_opts o = {.target = ETWCONF_DEFAULT_TARGET, .timeout = 5000, .isolation = ISO_BATCH};
    const char *emulate = NULL, *iso = "auto";
    o.ids = calloc((size_t)argc + 1, sizeof *o.ids);
    if (!o.ids)
        return 3;
    unsigned long load_ms = etw_target_load_ms;
    static const char *const isos[] = {"batch", "child", "inproc", "fallback", "auto"};
    const struct {
        const char *name, **str; /* an option with a value (str NULL: --case) */
        unsigned long *ms, min; /* milliseconds, min to 3600000 */
        bool *flag; /* an option without a value */
    } opts[] = {
        {"--target", &o.target}, {"--emulate", &emulate}, {"--out", &o.out},
        {"--out-dir", &o.out_dir}, {"--filter", &o.filter}, {"--case"}, {"--isolation", &iso},
        {"--timeout-ms", .ms = &o.timeout}, {"--fixture-timeout-ms", .ms = &o.fixture_timeout, 1},
        {"--load-timeout-ms", .ms = &load_ms, 1}, {"--quiet", .flag = &o.quiet},
        {"--stop-on-counted", .flag = &o.stop_on_counted}, {"--verbose", .flag = &o.verbose},
    };
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        size_t k = 0;
        while (k < sizeof opts / sizeof opts[0] && strcmp(a, opts[k].name))
            k++;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return fputs(cli_run_help, stdout), 0;
        if (!strcmp(a, "--format") || !strcmp(a, "--expect"))
            return cli_usage_error("%s: Wine's test output is made from the results: run with --out FILE, then "
                                   "reports/etwconf-report winetest [--expectations FILE] FILE", a);
        if (k == sizeof opts / sizeof opts[0])
            return cli_usage_error("unknown option '%s' for run (see '" ETWCONF_PROG " run --help')", a);
        if (opts[k].flag) {
            *opts[k].flag = true;
            continue;
        }
        if (i + 1 == argc)
            return cli_usage_error("%s needs a value", a);
        const char *v = argv[++i];
        if (opts[k].ms)
            *opts[k].ms = ms_arg(a, v, opts[k].min);
        else if (opts[k].str)
            *opts[k].str = v;
        else
            o.ids[o.nids++] = v;
    }
    etw_target_load_ms = (unsigned)load_ms;
    size_t mode = 0;
    while (mode < 5 && strcmp(iso, isos[mode]))
        mode++;
    if (mode == 5)
        return cli_usage_error("--isolation is auto, batch, child, inproc or fallback, not '%s'", iso);
    o.isolation = mode == 4 ? ISO_BATCH : mode == 3 ? ISO_INPROC : (enum etw_isolation)mode;
    o.fallback = mode == 3;
    o.auto_isolation = mode == 4; /* settled when the target is known */
    if (!*o.target)
        return cli_usage_error("--target needs a name or a path, not '%s'", o.target);
    unsigned versions[64] = {0};
    int nv = 1;
    if (emulate && !(nv = parse_versions(emulate, versions, 64))) {
        char known[512] = "";
        for (size_t i = 0, k = 0; i < etw_version_count && k < sizeof known; i++)
            k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? " " : "", etw_versions[i].name);
        fprintf(stderr, ETWCONF_PROG ": --emulate takes %s (or their aliases and Wine names, see '" ETWCONF_PROG " versions'), 'all' or a comma list, not "
                                     "'%s'\nTry '" ETWCONF_PROG " help'.\n", known, emulate);
        return 2;
    }
    if (nv > 1 && !o.out_dir)
        return cli_usage_error("%s", "several versions write several files: give --out-dir DIR (files are DIR/TARGET-VERSION.jsonl)");
    if (o.out && o.out_dir)
        return cli_usage_error("%s", "give --out FILE or --out-dir DIR, not both");
    char err[512] = "";
    size_t nplan = 0;
    const struct etw_case **plan = etw_plan_build(o.ids, o.nids, o.filter, &nplan, err, sizeof err);
    if (!plan)
        return cli_usage_error("%s (see '" ETWCONF_PROG " list')", err);
    if (o.out_dir && make_dir(o.out_dir) != 0 && errno != EEXIST)
        return fprintf(stderr, ETWCONF_PROG ": cannot create '%s': %s\n", o.out_dir, strerror(errno)), 3;
    plat_at_end(status_at_end);
    if (o.out && strcmp(o.out, "-")) { /* a run that fails from here on must not leave an old file looking current */
        FILE *f = fopen(o.out, "w");
        if (!f)
            return fprintf(stderr, ETWCONF_PROG ": cannot write '%s': %s\n", o.out, strerror(errno)), 3;
        fclose(f);
    }
    struct etw_target *t = etw_target_open(o.target, err, sizeof err);
    if (!t || (t->claim && !t->claim(t, err, sizeof err)))
        return fprintf(stderr, ETWCONF_PROG ": %s\n", err), 3;
    if (!emulate)
        versions[0] = t->emulates ? ETW_V10_0 : 0; /* 0: keep what the target says it is */
    plat_at_end(footer_at_end);
    int worst = 0;
    for (int k = 0; k < nv; k++) {
        int code = run_version(&o, t, versions[k], plan, nplan, argc, argv);
        if (code > worst)
            worst = code;
        if (code >= 3 || (code == 1 && o.stop_on_counted))
            break;
    }
    free(plan);
    free(o.ids);
    int code = worst == 130 ? 3 : worst;
    if (strcmp(t->impl, "reference"))
        plat_exit(code); /* the results are complete: a library's destructor must not hang or crash the exit */
    return code;
}
