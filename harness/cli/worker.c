/* harness/cli/worker.c - the hidden command of a worker process where the runner cannot fork
 * (Windows): the runner rebuilt from the arguments harness/exec/runner.c passes (exec.h), then
 * the worker's share of the plan (etw_exec_worker). */
#include "harness/cli/cli.h"
#include <stdlib.h>
#include <string.h>

int cli_cmd_worker(int argc, char **argv)
{
    static const char *const opts[] = {"--target", "--version", "--build", "--timeout",
                                       "--fixture-timeout", "--rerun", "--cases", "--chan"};
    const char *val[] = {NULL, NULL, "0", "0", "0", NULL, NULL, NULL};
    for (int i = 2; i + 1 < argc; i += 2)
        for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
            if (!strcmp(argv[i], opts[k]))
                val[k] = argv[i + 1];
    const char *spec = val[0], *version = val[1], *build = val[2], *timeout = val[3];
    const char *fixture = val[4], *rerun = val[5], *cases = val[6], *chan_s = val[7];
    plat_chan chan;
    unsigned v = version ? etw_version_parse(version) : 0;
    if (!spec || !v || !cases || !chan_s || !plat_chan_parse(chan_s, &chan)) {
        fprintf(stderr, ETWCONF_PROG ": " ETW_WORKER_COMMAND " is internal: the runner starts it for --isolation batch and child\n");
        return 2;
    }
    size_t total = etw_case_total(), n = 0;
    const struct etw_case **plan = calloc(total + 1, sizeof *plan);
    char *list = strdup(cases);
    if (!plan || !list)
        return 3;
    for (char *tok = strtok(list, ","); tok && n < total; tok = strtok(NULL, ",")) {
        size_t k = strtoul(tok, NULL, 10);
        if (k >= total)
            return 2;
        plan[n++] = etw_case_at(k);
    }
    char err[512] = "";
    struct etw_target *t = etw_target_open(spec, err, sizeof err);
    if (!t)
        return fprintf(stderr, ETWCONF_PROG " worker: %s\n", err), 3;
    t->version = ETW_VNT(v); /* v: the version table entry's id */
    t->build = (unsigned)strtoul(build, NULL, 10);
    t->update = etw_version_info(v)->update;
    if (t->emulates && t->set_version(v, ETW_VIS_NT(v) ? t->build : 0) != 0)
        return fprintf(stderr, ETWCONF_PROG " worker: the target cannot emulate %s\n", version), 3;
    static struct etw_runner r;
    r = (struct etw_runner){.t = t, .version = v, .plan = plan, .nplan = n, .isolation = ISO_BATCH,
                            .timeout_ms = (unsigned)strtoul(timeout, NULL, 10),
                            .fixture_ms = (unsigned)strtoul(fixture, NULL, 10),
                            .quiet = true, .rerun_prefix = rerun};
    /* the results are sent: a target's DLL_PROCESS_DETACH (or destructor) must not hang or crash the
     * worker's exit, which the runner waits for */
    plat_exit(etw_exec_worker(&r, chan));
    return 3;
}
