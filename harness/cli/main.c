/* harness/cli/main.c - the etwconf command line (etwconf and etwconf.exe): the commands and their
 * help; run is run.c. */
#include "harness/cli/cli.h"
#include "tools/tools.h"
#include "harness/scenario.h"
#include <string.h>

#if defined(_WIN32)
int win_cmd_cleanup(int argc, char **argv); /* harness/targets/win_live/cleanup.c */
extern const char win_probe_command[]; /* the hidden command of a DLL's probe process (dll.c) */
int win_cmd_probe(int argc, char **argv);
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
    "'" ETWCONF_PROG " COMMAND --help' describes each command's options.\n"
    "\n"
    "exit status: 0 conformant (no counted failure, crash or timeout), 1 not conformant,\n"
    "             2 usage error, 3 the run could not start or finish\n";

/* a JSON list command's output: printed (json) and freed */
static void json_done(struct etw_json *j, bool json)
{
    if (json)
        printf("%s\n", j->buf ? j->buf : "[]");
    etw_json_free(j);
}

/* `etwconf rules`: the catalogue as text, or every field as JSON */
static void print_rules(bool json)
{
    struct etw_json j = {0};
    etw_json_arr(&j, NULL);
    for (size_t i = 0; i < etw_rule_count; i++) {
        const struct etw_rule *r = &etw_rules[i];
        const char *strength = etw_strength_name(r->strength);
        const char *prov = etw_provenance_name(r->provenance);
        if (!json) {
            printf("%-26s %-6s %-8s %-8s %s\n", r->id, strength, prov, r->versions, r->text);
            continue;
        }
        etw_json_obj(&j, NULL);
        ETW_JSON_STRS(&j, "id", r->id, "strength", strength, "provenance", prov,
                      "versions", r->versions, "function", r->function, "codes", r->codes,
                      "source", r->source, "text", r->text, "note", r->note);
        etw_json_end(&j);
    }
    etw_json_end(&j);
    json_done(&j, json);
}

static const char list_help[] = "usage: " ETWCONF_PROG " list [--json] [--filter GLOB]\n"
                                "\n"
                                "List the cases: id, first rule, file:line, title; --json gives every field:\n"
                                "{\"cases\": [...], \"needs\": [...]}, each case with its fixture and the names of\n"
                                "its needs, and every need (the prerequisites a case SKIPs without) with its reason.\n"
                                "--filter GLOB keeps cases whose id or one of whose rules matches GLOB.\n";
static const char rules_help[] = "usage: " ETWCONF_PROG " rules [--json]\n"
                                 "\n"
                                 "List the rule catalogue (spec/rules/*.def); --json gives every field.\n";
static const char versions_help[] = "usage: " ETWCONF_PROG " versions [--json]\n"
                                    "\n"
                                    "List the Windows versions the cases know (spec/versions.def): name, build, Wine name, aliases.\n";
static const char lint_help[] = "usage: " ETWCONF_PROG " lint\n"
                                "\n"
                                "Check that every rule has a case and every case cites known rules; exit 1 on a problem.\n";

/* the version table (spec/versions.def), for scripts: "5.2 3790 winxp64 ..." per line (name, build,
 * Wine name or "-", aliases, label), or JSON */
static void print_versions(bool json)
{
    struct etw_json j = {0};
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
        ETW_JSON_STRS(&j, "kb", v->kb[0] ? v->kb : NULL, "wine", v->wine, "label", v->label,
                      "aliases", v->aliases);
        etw_json_end(&j);
    }
    etw_json_end(&j);
    json_done(&j, json);
}

/* a row enum's name as list --json gives it: LG_NOACCESS -> "noaccess", PRIV_NOT_HELD -> "not-held" */
static const char *json_name(const char *enum_name, char buf[32])
{
    const char *p = enum_name ? strchr(enum_name, '_') : NULL;
    if (!p)
        return "?";
    size_t n = 0;
    for (p++; *p && n < 31; p++)
        buf[n++] = *p == '_' ? '-' : (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    buf[n] = 0;
    return buf;
}

static void list_cases(bool json, const char *filter)
{
    struct etw_json j = {0};
    if (json) {
        etw_json_obj(&j, NULL);
        etw_json_arr(&j, "cases");
    }
    for (size_t i = 0, n = etw_case_total(); i < n; i++) {
        const struct etw_case *c = etw_case_at(i);
        if (filter && !etw_plan_matches(c, filter))
            continue;
        if (!json) {
            printf("%-34s %-26s %s:%d  %s\n", c->id, etw_rule_name(etw_case_rule(c, 0)), c->file, c->line, c->title);
            continue;
        }
        etw_json_obj(&j, NULL);
        ETW_JSON_STRS(&j, "id", c->id, "file", c->file);
        etw_json_int(&j, "line", c->line);
        ETW_JSON_STRS(&j, "function", etw_fn_name(c->fn), "title", c->title);
        etw_json_rules(&j, "rules", c);
        etw_json_arr(&j, "versions");
        for (int k = 0; k < ETW_MAX_EXPECT && c->expect[k].vmin; k++) {
            etw_json_obj(&j, NULL);
            char lo[32], hi[32];
            etw_version_bound_name(c->expect[k].vmin, false, lo, sizeof lo);
            etw_version_bound_name(c->expect[k].vmax, true, hi, sizeof hi);
            ETW_JSON_STRS(&j, "from", lo, "to", hi, "kind", etw_xkind_name(c->expect[k].kind));
            etw_json_end(&j);
        }
        etw_json_end(&j);
        /* what the case sets up before its call (struct etw_fixture) and needs from the target, so
           that scripts read it here instead of parsing cases/ */
        const struct etw_fixture *fx = &c->fx;
        char n1[32], n2[32], n3[32];
        etw_json_obj(&j, "fixture");
        etw_json_str(&j, "logger", fx->logger ? json_name(etw_logger_enum_name(fx->logger), n1) : NULL);
        etw_json_str(&j, "logger2", fx->logger2 ? json_name(etw_logger_enum_name(fx->logger2), n2) : NULL);
        etw_json_bool(&j, "masks", etw_masks_set(fx->masks));
        etw_json_int(&j, "disallow", fx->ndisallow);
        etw_json_int(&j, "classes", fx->classes);
        etw_json_bool(&j, "provider", fx->provider);
        etw_json_str(&j, "profile_priv", json_name(etw_priv_enum_name(fx->profile_priv), n3));
        etw_json_int(&j, "fail_alloc", fx->fail_alloc);
        etw_json_bool(&j, "foreign_pid", fx->foreign_pid);
        etw_json_bool(&j, "set_counter", fx->set_counter);
        etw_json_end(&j);
        etw_json_arr(&j, "needs"); /* what its fixture implies and its row declares, in checking order */
        unsigned needs = etw_case_needs(c);
        for (int k = 0; k < ETW_NEED_COUNT; k++)
            if (needs & etw_need_infos[k].bit)
                etw_json_str(&j, NULL, etw_need_infos[k].name);
        etw_json_end(&j);
        etw_scenario_list_json(&j, c); /* client scenarios: program and steps */
        etw_json_end(&j);
    }
    if (json) {
        etw_json_end(&j);
        etw_json_arr(&j, "needs"); /* the catalogue (harness/case.h ETW_NEED_LIST), in checking order */
        for (int k = 0; k < ETW_NEED_COUNT; k++) {
            etw_json_obj(&j, NULL);
            ETW_JSON_STRS(&j, "name", etw_need_infos[k].name, "reason", etw_need_infos[k].reason);
            etw_json_end(&j);
        }
        etw_json_end(&j);
        etw_json_end(&j);
    }
    json_done(&j, json);
}

int main(int argc, char **argv)
{
    plat_init();
    const char *cmd = argc > 1 ? argv[1] : "help";
    bool help = argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"));
    if (!strcmp(cmd, ETW_WORKER_COMMAND))
        return cli_cmd_worker(argc, argv);
#if defined(_WIN32)
    if (!strcmp(cmd, "cleanup"))
        return win_cmd_cleanup(argc, argv);
    if (!strcmp(cmd, win_probe_command))
        return win_cmd_probe(argc, argv);
    if (!strcmp(cmd, "fuzz")) {
        fprintf(stderr, "etwconf.exe fuzz: the fuzzer compares a target with the reference implementation, which etwconf.exe does "
                        "not contain: run 'etwconf fuzz' from the Linux build (make, then build/etwconf fuzz --help)\n");
        return 2;
    }
#endif
    bool json = argc > 2 && !strcmp(argv[2], "--json");
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage, stdout);
        return argc > 1 ? 0 : 2;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("etwconf %s (%zu rules, %zu cases)\n", ETWCONF_VERSION, etw_rule_count, etw_case_total());
        return 0;
    }
    static const char *const helps[][2] = {{"rules", rules_help}, {"versions", versions_help},
                                           {"lint", lint_help}};
    for (size_t i = 0; help && i < sizeof helps / sizeof helps[0]; i++)
        if (!strcmp(cmd, helps[i][0]))
            return fputs(helps[i][1], stdout), 0;
    if (!strcmp(cmd, "rules") || !strcmp(cmd, "versions")) {
        bool rules = cmd[0] == 'r';
        if (argc > 2 && !json)
            return cli_usage_error(rules ? "rules takes only --json, not '%s'"
                                         : "versions takes only --json, not '%s'", argv[2]);
        rules ? print_rules(json) : print_versions(json);
        return 0;
    }
    if (!strcmp(cmd, "list")) {
        const char *filter = NULL;
        json = false;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                fputs(list_help, stdout);
                return 0;
            } else if (!strcmp(argv[i], "--json"))
                json = true;
            else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
                filter = argv[++i];
            else
                return cli_usage_error("list takes --json and --filter GLOB, not '%s'", argv[i]);
        }
        list_cases(json, filter);
        return 0;
    }
    if (!strcmp(cmd, "lint")) {
        int p = etw_lint(stderr);
        if (p)
            return fprintf(stderr, ETWCONF_PROG " lint: %d problem(s)\n", p), 1;
        printf(ETWCONF_PROG " lint: %zu rules, %zu cases, every rule has a case\n", etw_rule_count, etw_case_total());
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cli_cmd_run(argc, argv);
#if !defined(_WIN32)
    if (!strcmp(cmd, "fuzz"))
        return etw_cmd_fuzz(argc, argv);
#endif
    if (!strcmp(cmd, "export-wine"))
        return etw_cmd_export_wine(argc, argv);
    return cli_usage_error("unknown command '%s'", cmd);
}
