/*
 * harness/cli/main.c - the etwconf command line. Portable: the same file builds etwconf (Linux) and
 * etwconf.exe (Windows); the platform layer does the rest.
 */
#include "harness/etwconf.h"
#include "harness/scenario.h"
#include "harness/out/winetest.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <direct.h>
#include <io.h>
#define stderr_is_tty() _isatty(_fileno(stderr))
#define make_dir(p) _mkdir(p)
#else
#include <sys/stat.h>
#include <unistd.h>
#define stderr_is_tty() isatty(2)
#define make_dir(p) mkdir((p), 0777)
#endif

#ifndef ETWCONF_PROG
#define ETWCONF_PROG "etwconf"
#endif
#ifndef ETWCONF_DEFAULT_TARGET /* etwconf.exe: "live", the system it runs on (mk/windows.mk) */
#define ETWCONF_DEFAULT_TARGET "reference"
#endif

static const char usage[] =
    "usage: " ETWCONF_PROG " COMMAND [OPTIONS]\n"
    "\n"
    "Conformance suite for Windows ETW APIs: every documented rule, as data, run against an implementation.\n"
    "\n"
    "commands:\n"
    "  run      run cases against a target and write JSON Lines results\n"
    "  list     list the cases (--json for every field)\n"
    "  rules    list the rule catalogue (--json)\n"
    "  versions list the Windows versions the cases know (--json)\n"
    "  lint     check that every rule has a case and every case cites known rules\n"
    "  fuzz     differential fuzzing against the reference ('" ETWCONF_PROG " fuzz --help')\n"
    "  export-wine  write the case table as a Wine conformance test ('" ETWCONF_PROG " export-wine --help')\n"
#if defined(_WIN32)
    "  cleanup  stop the ETW sessions a killed run left behind (etwconf-*; --all, --dry-run)\n"
#endif
    "  version  print the suite version\n"
    "  help     this text\n"
    "\n"
    "run options:\n"
#if defined(_WIN32)
    "  --target T        'live' (default: this system) or a DLL exporting the API under its\n"
    "                    Windows names (see harness/windows/README.md)\n"
#else
    "  --target T        'reference' (default: the built-in reference implementation) or a shared\n"
    "                    library exporting the API under its Windows names (see README)\n"
#endif
    "  --emulate V       a version of '" ETWCONF_PROG " versions' by name (6.1, 10.0.26100), alias\n"
    "                    (win11-24h2, server2022) or Wine name (win7), 'all', or a comma list (default 10.0)\n"
    "                    A target that cannot emulate is taken to implement V\n"
    "  --case ID         run only this case (repeatable)\n"
    "  --filter GLOB     run only cases whose id matches GLOB ('tqi.*'), or that cite a matching rule\n"
    "  --out FILE        write results to FILE (default: stdout; '-' is stdout)\n"
    "  --out-dir DIR     write DIR/TARGET-VERSION.jsonl for each version (needed for several versions)\n"
#if defined(_WIN32)
    "  --isolation M     batch or inproc (default: in this process; faults and hangs are caught),\n"
    "                    or child (a process per case; its exit code is the exception code)\n"
#else
    "  --isolation M     auto (default: in process for the built-in reference, a worker process\n"
    "                    for a library; after a crash or hang the rest runs in a worker), batch\n"
    "                    (a worker process, replaced after a crash or hang), child (a process\n"
    "                    per case) or inproc (no process; cheapest, least safe)\n"
#endif
    "  --timeout-ms N    a case that runs longer is a TIMEOUT (default 5000)\n"
    "  --quiet           print only the summary line; --verbose prints every case\n"
    "  --format F        jsonl (default) or winetest: Wine's test output on stdout (JSON Lines\n"
    "                    only with --out/--out-dir; exit status = failures, at most 255)\n"
    "  --expect FILE     with --format winetest: the known divergences of an expectations file\n"
    "                    (reports/expectations/wine.json) are todo, as todo_wine\n"
    "\n"
    "exit status: 0 conformant (no counted failure, crash or timeout), 1 not conformant,\n"
    "             2 usage error, 3 the run could not start or finish\n";

static bool glob_match(const char *p, const char *s)
{
    if (!*p)
        return !*s;
    if (*p == '*')
        return glob_match(p + 1, s) || (*s && glob_match(p, s + 1));
    if (*s && (*p == '?' || *p == *s))
        return glob_match(p + 1, s + 1);
    return false;
}

static bool case_matches(const struct etw_case *c, const char *glob)
{
    if (glob_match(glob, c->id))
        return true;
    for (int k = 0; etw_case_rule(c, k); k++)
        if (glob_match(glob, etw_rule_name(etw_case_rule(c, k))))
            return true;
    return false;
}

static int die_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, ETWCONF_PROG ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '" ETWCONF_PROG " help'.\n");
    return 2;
}

/* the version table (spec/versions.def), for scripts: "5.2 3790 winxp64 ..." per line (name, build,
 * Wine name or "-", aliases, label), or JSON */
static void print_versions(bool json)
{
    struct etw_json j;
    etw_json_init(&j);
    etw_json_arr(&j, NULL);
    for (size_t i = 0; i < etw_version_count; i++) {
        const struct etw_version_info *v = &etw_versions[i];
        if (!json) {
            printf("%-12s %-6u %-8s %-24s %s%s%s\n", v->name, v->build, v->wine[0] ? v->wine : "-", v->aliases, v->label,
                   v->kb[0] ? ", " : "", v->kb);
            continue;
        }
        etw_json_obj(&j, NULL);
        etw_json_str(&j, "name", v->name);
        etw_json_int(&j, "nt", v->nt);
        etw_json_int(&j, "build", v->build);
        etw_json_int(&j, "update", v->update);
        etw_json_str(&j, "kb", v->kb[0] ? v->kb : NULL);
        etw_json_str(&j, "wine", v->wine);
        etw_json_str(&j, "label", v->label);
        etw_json_str(&j, "aliases", v->aliases);
        etw_json_end(&j);
    }
    etw_json_end(&j);
    if (json)
        printf("%s\n", j.buf ? j.buf : "[]");
    etw_json_free(&j);
}

static void list_cases(bool json, const char *filter)
{
    struct etw_json j;
    etw_json_init(&j);
    if (json)
        etw_json_arr(&j, NULL);
    for (size_t i = 0, n = etw_case_total(); i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        if (filter && !case_matches(c, filter))
            continue;
        if (!json) {
            printf("%-34s %-26s %s:%d  %s\n", c->id, etw_rule_name(etw_case_rule(c, 0)), c->file, c->line, c->title);
            continue;
        }
        etw_json_obj(&j, NULL);
        etw_json_str(&j, "id", c->id);
        etw_json_str(&j, "file", c->file);
        etw_json_int(&j, "line", c->line);
        etw_json_str(&j, "function", etw_fn_name(c->fn));
        etw_json_str(&j, "title", c->title);
        etw_json_arr(&j, "rules");
        for (int k = 0; etw_case_rule(c, k); k++)
            etw_json_str(&j, NULL, etw_rule_name(etw_case_rule(c, k)));
        etw_json_end(&j);
        etw_json_arr(&j, "versions");
        for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin; k++) {
            etw_json_obj(&j, NULL);
            char lo[32], hi[32];
            etw_version_bound_name(c->expect[k].vmin, false, lo, sizeof lo);
            etw_version_bound_name(c->expect[k].vmax, true, hi, sizeof hi);
            etw_json_str(&j, "from", lo);
            etw_json_str(&j, "to", hi);
            static const char *const kinds[] = {"call", "skip", "present", "absent"};
            etw_json_str(&j, "kind", kinds[c->expect[k].kind]);
            etw_json_end(&j);
        }
        etw_json_end(&j);
        etw_scenario_list_json(&j, c); /* client scenarios: program and steps */
        etw_json_end(&j);
    }
    if (json) {
        etw_json_end(&j);
        printf("%s\n", j.buf);
    }
    etw_json_free(&j);
}

struct run_opts {
    const char *target, *out, *out_dir, *filter;
    const char **ids;
    int nids;
    enum etw_isolation isolation;
    bool auto_isolation;
    unsigned long timeout;
    bool quiet, verbose;
    bool winetest; /* --format winetest (harness/out/winetest.c) */
};

/* one version: header, every planned case, footer; returns the run's exit code */
static int run_version(struct run_opts *o, struct etw_target *t, unsigned version, const struct etw_case **plan, size_t nplan,
                       int argc, char **argv)
{
    struct etw_runner r;
    memset(&r, 0, sizeof r);
    r.quiet = o->quiet;
    r.verbose = o->verbose && !o->quiet;
    r.progress = !o->quiet && !r.verbose && stderr_is_tty();
    r.timeout_ms = (unsigned)o->timeout;
    r.isolation = o->isolation;
    r.fallback = o->auto_isolation && o->isolation == ISO_INPROC;
    r.plan = plan;
    r.nplan = nplan;
    if (t->emulates) {
        if (t->set_version(version, 0) != 0) {
            fprintf(stderr, ETWCONF_PROG ": target '%s' cannot emulate %s\n", o->target, etw_version_name(version));
            return 3;
        }
        const struct etw_version_info *e = etw_version_info(version);
        t->version = e->nt, t->build = e->build, t->update = e->update;
    } else if (version) {
        const struct etw_version_info *e = etw_version_info(version);
        t->version = e->nt; /* the version the target claims to implement */
        t->build = e->build, t->update = e->update;
    }
    r.t = t;
    r.version = version ? version : t->version;
    char rerun[512], path[4096];
    snprintf(rerun, sizeof rerun, "%s run --target %s --emulate %s", argv[0], o->target, etw_version_name(r.version));
    r.rerun_prefix = rerun;
    const char *out = o->out;
    if (o->out_dir) {
        snprintf(path, sizeof path, "%s/%s-%s.jsonl", o->out_dir, t->name, t->version_label ? t->version_label : etw_version_name(r.version));
        out = path;
    }
    if (o->winetest && !out)
        r.out = NULL; /* stdout is the winetest output; JSON Lines only where --out/--out-dir says */
    else if (!out || !strcmp(out, "-"))
        r.out = stdout;
    else if (!(r.out = fopen(out, "w"))) {
        fprintf(stderr, ETWCONF_PROG ": cannot write '%s': %s\n", out, strerror(errno));
        return 3;
    }
    r.started_us = plat_now_us();
    struct etw_json j;
    etw_json_init(&j);
    etw_record_header(&j, &r, argc, argv);
    if (r.out) {
        fprintf(r.out, "%s\n", j.buf);
        fflush(r.out);
    }
    etw_json_free(&j);

    int prc = plat_run_plan(&r);
    etw_winetest_end(&r);
    int code = prc ? 3 : (r.counted_failures || r.counts[R_CRASH] || r.counts[R_TIMEOUT]) ? 1 : 0;
    if (prc == 0 || prc == 4) { /* 4: interrupted; the footer says complete:false */
        etw_json_init(&j);
        etw_record_footer(&j, &r, code);
        if (r.out)
            fprintf(r.out, "%s\n", j.buf);
        etw_json_free(&j);
    }
    if (r.out && r.out != stdout)
        fclose(r.out);
    else
        fflush(stdout);
    fprintf(stderr, "%s@%s: %lu cases: %lu passed, %lu failed, %lu skipped, %lu broken, %lu crashed, %lu timed out; %lu count against it%s%s\n",
            t->name, t->version_label ? t->version_label : etw_version_name(r.version), r.seq, r.counts[R_PASS], r.counts[R_FAIL],
            r.counts[R_SKIP], r.counts[R_BROKEN], r.counts[R_CRASH], r.counts[R_TIMEOUT], r.counted_failures,
            out && strcmp(out, "-") ? " -> " : "", out && strcmp(out, "-") ? out : "");
    return prc == 4 ? 130 : code;
}

/* "6.1", "win11-24h2", "10.0.26100", "all", or "6.1,6.2,10.0" -> the entries' ids; the count, 0 on a bad name */
static int parse_versions(const char *s, unsigned *vs, int max, const char **bad)
{
    if (!strcmp(s, "all")) {
        int n = 0;
        for (size_t i = 0; i < etw_version_count && n < max; i++)
            vs[n++] = etw_versions[i].id;
        return n;
    }
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        unsigned v = etw_version_parse(tok);
        if (!v || n >= max) {
            *bad = s;
            return 0;
        }
        vs[n++] = v;
    }
    return n;
}

static int cmd_run(int argc, char **argv)
{
    struct run_opts o = {.target = ETWCONF_DEFAULT_TARGET, .timeout = 5000, .isolation = ISO_BATCH};
    const char *emulate = NULL, *iso = "auto", *format = "jsonl", *expect = NULL;
    o.ids = calloc((size_t)argc + 1, sizeof *o.ids);
    if (!o.ids)
        return 3;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && (v ? (i++, true) : (die_usage("%s needs a value", name), exit(2), false)))
        if (OPT("--target"))
            o.target = v;
        else if (OPT("--emulate"))
            emulate = v;
        else if (OPT("--out"))
            o.out = v;
        else if (OPT("--out-dir"))
            o.out_dir = v;
        else if (OPT("--filter"))
            o.filter = v;
        else if (OPT("--case"))
            o.ids[o.nids++] = v;
        else if (OPT("--isolation"))
            iso = v;
        else if (OPT("--format"))
            format = v;
        else if (OPT("--expect"))
            expect = v;
        else if (OPT("--timeout-ms")) {
            char *end;
            errno = 0;
            o.timeout = strtoul(v, &end, 10);
            if (*end || errno || o.timeout > 3600000)
                return die_usage("--timeout-ms takes milliseconds (0 to 3600000), not '%s'", v);
        } else if (!strcmp(a, "--quiet"))
            o.quiet = true;
        else if (!strcmp(a, "--verbose"))
            o.verbose = true;
        else
            return die_usage("unknown option '%s' for run", a);
#undef OPT
    }
    if (!strcmp(iso, "auto"))
        o.isolation = ISO_INPROC, o.auto_isolation = true; /* settled when the target is known */
    else if (!strcmp(iso, "batch"))
        o.isolation = ISO_BATCH;
    else if (!strcmp(iso, "child"))
        o.isolation = ISO_CHILD;
    else if (!strcmp(iso, "inproc"))
        o.isolation = ISO_INPROC;
    else
        return die_usage("--isolation is auto, batch, child or inproc, not '%s'", iso);
    if (strcmp(format, "jsonl") && strcmp(format, "winetest"))
        return die_usage("--format is jsonl or winetest, not '%s'", format);
    o.winetest = !strcmp(format, "winetest");
    if (o.winetest && o.out && !strcmp(o.out, "-"))
        return die_usage("%s", "--format winetest prints Wine's output on stdout: give --out a file for the JSON Lines, not '-'");
    if (expect && !o.winetest)
        return die_usage("--expect %s marks known divergences as todo in Wine's format: give --format winetest too", expect);
    if (o.winetest) {
        struct etw_xfile *x = NULL;
        char xerr[512];
        if (expect && !(x = etw_xfile_load(expect, xerr, sizeof xerr))) {
            fprintf(stderr, ETWCONF_PROG ": --expect: %s\n", xerr);
            return 2;
        }
        etw_winetest_enable(x); /* lives as long as the process */
    }
    unsigned versions[64] = {0};
    int nv = 1;
    const char *bad = NULL;
    if (emulate && !(nv = parse_versions(emulate, versions, 64, &bad)))
    {
        char known[512] = "";
        for (size_t i = 0, o = 0; i < etw_version_count && o < sizeof known; i++)
            o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? " " : "", etw_versions[i].name);
        fprintf(stderr, ETWCONF_PROG ": --emulate takes %s (or their aliases and Wine names, see '" ETWCONF_PROG " versions'), 'all' or a comma list, not '%s'\n"
                "Try '" ETWCONF_PROG " help'.\n", known, bad);
        return 2;
    }
    if (nv > 1 && !o.out_dir)
        return die_usage("%s", "several versions write several files: give --out-dir DIR (files are DIR/TARGET-VERSION.jsonl)");
    if (o.out && o.out_dir)
        return die_usage("%s", "give --out FILE or --out-dir DIR, not both");
    if (o.out_dir && make_dir(o.out_dir) != 0 && errno != EEXIST) {
        fprintf(stderr, ETWCONF_PROG ": cannot create '%s': %s\n", o.out_dir, strerror(errno));
        return 3;
    }

    char err[512] = "";
    struct etw_target *t = plat_open_target(o.target, err, sizeof err);
    if (!t) {
        fprintf(stderr, ETWCONF_PROG ": %s\n", err);
        return 3;
    }
    if (!emulate)
        versions[0] = t->emulates ? ETW_V10_0 : 0; /* 0: keep what the target says it is */
    if (o.auto_isolation && strcmp(t->impl, "reference"))
        o.isolation = ISO_BATCH; /* a loaded library is not trusted to leave the process intact */

    /* the plan */
    size_t n = etw_case_total(), nplan = 0;
    const struct etw_case **plan = calloc(n + 1, sizeof *plan);
    if (!plan)
        return 3;
    for (int k = 0; k < o.nids; k++)
        if (!etw_case_find(o.ids[k]))
            return die_usage("no case '%s' (see '" ETWCONF_PROG " list')", o.ids[k]);
    for (size_t i = 0; i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        bool in = !o.nids && !o.filter;
        for (int k = 0; k < o.nids && !in; k++)
            in = !strcmp(o.ids[k], c->id);
        if (o.filter && case_matches(c, o.filter))
            in = true;
        if (in)
            plan[nplan++] = c;
    }
    if (!nplan)
        return die_usage("no case matches '%s' (see '" ETWCONF_PROG " list')", o.filter ? o.filter : "");
    int worst = 0;
    for (int k = 0; k < nv; k++) {
        int code = run_version(&o, t, versions[k], plan, nplan, argc, argv);
        if (code > worst)
            worst = code;
        if (code >= 3)
            break;
    }
    free(plan);
    free(o.ids);
    if (o.winetest && worst < 3)
        return etw_winetest_status(); /* a Wine test's exit status: its failures, at most 255 */
    return worst == 130 ? 3 : worst;
}

int main(int argc, char **argv)
{
#if defined(_WIN32)
    int plat_command(int argc, char **argv); /* harness/plat/win/platform.c: cleanup, the child worker; -1 if neither */
    int pc = plat_command(argc, argv);
    if (pc >= 0)
        return pc;
#endif
    const char *cmd = argc > 1 ? argv[1] : "help";
    bool json = argc > 2 && !strcmp(argv[2], "--json");
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage, stdout);
        return argc > 1 ? 0 : 2;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("etwconf %s (%zu rules, %zu cases)\n", ETWCONF_VERSION, etw_rule_count, etw_case_total());
        return 0;
    }
    if (!strcmp(cmd, "rules")) {
        if (argc > 2 && !json)
            return die_usage("rules takes only --json, not '%s'", argv[2]);
        etw_rules_print(stdout, json);
        return 0;
    }
    if (!strcmp(cmd, "versions")) {
        if (argc > 2 && !json)
            return die_usage("versions takes only --json, not '%s'", argv[2]);
        print_versions(json);
        return 0;
    }
    if (!strcmp(cmd, "list")) {
        const char *filter = NULL;
        json = false;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--json"))
                json = true;
            else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
                filter = argv[++i];
            else
                return die_usage("list takes --json and --filter GLOB, not '%s'", argv[i]);
        }
        list_cases(json, filter);
        return 0;
    }
    if (!strcmp(cmd, "lint")) {
        int p = etw_lint(stderr);
        if (p) {
            fprintf(stderr, ETWCONF_PROG " lint: %d problem(s)\n", p);
            return 1;
        }
        printf(ETWCONF_PROG " lint: %zu rules, %zu cases, every rule has a case\n", etw_rule_count, etw_case_total());
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc, argv);
    if (!strcmp(cmd, "fuzz"))
        return etw_cmd_fuzz(argc, argv);
    if (!strcmp(cmd, "export-wine"))
        return etw_cmd_export_wine(argc, argv);
    return die_usage("unknown command '%s'", cmd);
}
