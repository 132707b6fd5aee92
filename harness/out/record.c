/* harness/out/record.c - the JSON Lines records of harness/RESULTS.md, and emitting them. */
#include "harness/out/out.h"
#include "harness/scenario.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef ETWCONF_GIT /* the commit, from the build (null outside a git checkout) */
#define ETWCONF_GIT NULL
#endif

static void iso_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
#if defined(_WIN32)
    gmtime_s(&tm, &now);
#else
    gmtime_r(&now, &tm);
#endif
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char *target_version_label(struct etw_runner *r)
{
    return r->t->version_label ? r->t->version_label : etw_version_name(r->version);
}

void etw_record_header(struct etw_json *j, struct etw_runner *r, int argc, char **argv)
{
    struct etw_target *t = r->t;
    char now[32], tid[160];
    iso_now(now, sizeof now);
    etw_json_obj(j, NULL);
    etw_json_str(j, "type", "header");
    etw_json_str(j, "schema", ETWCONF_SCHEMA);
    etw_json_obj(j, "suite");
    ETW_JSON_STRS(j, "name", "etwconf", "version", ETWCONF_VERSION, "git", ETWCONF_GIT);
    etw_json_int(j, "rules", (long long)etw_rule_count);
    etw_json_int(j, "cases", (long long)etw_case_total());
    etw_json_end(j);
    etw_json_obj(j, "target");
    ETW_JSON_STRS(j, "impl", t->impl, "name", t->name, /* path: the library loaded */
                  "path", !strcmp(t->impl, "thirdparty") ? t->spec : NULL,
                  "version", target_version_label(r));
    char nt[16], key[32];
    snprintf(nt, sizeof nt, "%u.%u", t->version >> 8, t->version & 0xFF);
    etw_version_key_name(etw_runner_key(r), key, sizeof key);
    etw_json_str(j, "nt_version", nt);
    etw_json_int(j, "build", t->build);
    etw_json_int(j, "update", t->update);
    etw_json_str(j, "expectations", key); /* the version the cases' expectations were picked for */
    etw_json_bool(j, "emulated", t->emulates);
    etw_json_str(j, "arch", t->arch ? t->arch : plat_host_arch());
    etw_json_end(j);
    if (!strcmp(t->impl, "windows"))
        snprintf(tid, sizeof tid, "windows@%s.%u", nt, t->build);
    else
        snprintf(tid, sizeof tid, "%s@%s", t->name, target_version_label(r));
    etw_json_str(j, "target_id", tid);
    etw_json_obj(j, "host");
    ETW_JSON_STRS(j, "os", plat_host_os(), "arch", plat_host_arch());
    etw_json_end(j);
    etw_json_obj(j, "fingerprint");
    if (t->fingerprint)
        t->fingerprint(t, j);
    etw_json_end(j);
    etw_json_str(j, "started", now);
    etw_json_arr(j, "argv");
    for (int i = 0; i < argc; i++)
        etw_json_str(j, NULL, argv[i]);
    etw_json_end(j);
    static const char *const iso[] = {"batch", "child", "inproc"};
    etw_json_str(j, "isolation", iso[r->isolation]);
    etw_json_bool(j, "isolation_fallback", r->fallback); /* auto: a crash moves the rest to a worker */
    etw_json_int(j, "timeout_ms", r->timeout_ms);
    etw_json_int(j, "cases_planned", (long long)r->nplan);
    etw_json_end(j);
}

void etw_record_case_body(struct etw_json *j, const struct etw_result *res, struct etw_runner *r)
{
    const struct etw_case *c = res->c;
    char rerun[512];
    etw_json_obj(j, NULL);
    etw_json_str(j, "id", c->id);
    etw_json_str(j, "file", c->file);
    etw_json_int(j, "line", c->line);
    const struct etw_rule *pr = etw_rule_get(etw_case_rule(c, 0));
    etw_json_str(j, "function", c->fn == FN_CUSTOM || c->fn == FN_EXPORT ? (pr ? pr->function : "?") : etw_fn_name(c->fn));
    etw_json_str(j, "title", c->title);
    etw_json_rules(j, "rules", c);
    etw_json_str(j, "status", etw_status_name(res->status));
    etw_json_bool(j, "counted", res->counted);
    etw_json_str(j, "mode", res->status == R_FAIL || res->status == R_CRASH || res->status == R_TIMEOUT ? res->mode : NULL);
    if (res->status == R_CRASH || res->status == R_TIMEOUT) {
        etw_json_rules(j, "failed_rules", c);
    } else {
        etw_json_arr(j, "failed_rules");
        for (int i = 0; i < res->nchecks; i++) {
            bool dup = false;
            for (int m = 0; m < i && !dup; m++)
                dup = !res->checks[m].ok && res->checks[m].rule == res->checks[i].rule;
            if (!res->checks[i].ok && !dup)
                etw_json_str(j, NULL, etw_rule_name(res->checks[i].rule));
        }
        etw_json_end(j);
    }
    etw_json_arr(j, "checks");
    for (int i = 0; i < res->nchecks; i++) {
        const struct etw_check_rec *k = &res->checks[i];
        etw_json_obj(j, NULL);
        ETW_JSON_STRS(j, "what", k->what, "rule", etw_rule_name(k->rule), "expected", k->expected,
                      "got", k->got);
        etw_json_bool(j, "ok", k->ok);
        etw_json_str(j, "aspect", etw_aspect_mode(k->aspect));
        /* where the check is: the row for the harness's checks of an expectation, else the check itself */
        if (k->file && (!c->file || strcmp(k->file, c->file)))
            etw_json_str(j, "file", k->file);
        etw_json_int(j, "line", k->line);
        etw_json_end(j);
    }
    etw_json_end(j);
    ETW_JSON_STRS(j, "message", res->message[0] ? res->message : NULL,
                  "reason", res->reason[0] ? res->reason : NULL,
                  "exception", res->exception[0] ? res->exception : NULL);
    etw_json_int(j, "duration_us", (long long)res->duration_us);
    snprintf(rerun, sizeof rerun, "%s --case %s", r->rerun_prefix ? r->rerun_prefix : "etwconf run", c->id);
    etw_json_str(j, "rerun", rerun);
    etw_scenario_record(j, res); /* client scenarios: program, and the step that broke */
    etw_json_end(j);
}

void etw_record_footer(struct etw_json *j, struct etw_runner *r, int exit_code)
{
    char now[32];
    iso_now(now, sizeof now);
    etw_json_obj(j, NULL);
    etw_json_str(j, "type", "footer");
    etw_json_obj(j, "counts");
    unsigned long total = 0;
    for (int s = 0; s < R_COUNT; s++) {
        etw_json_int(j, etw_status_name((enum etw_status_kind)s), (long long)r->counts[s]);
        total += r->counts[s];
    }
    etw_json_end(j);
    etw_json_int(j, "total", (long long)total);
    etw_json_int(j, "counted_failures", (long long)r->counted_failures);
    etw_json_str(j, "finished", now);
    etw_json_int(j, "duration_ms", (long long)((plat_now_us() - r->started_us) / 1000));
    etw_json_bool(j, "complete", total == r->nplan);
    etw_json_int(j, "exit_code", exit_code);
    etw_json_end(j);
}

static void report_line(struct etw_runner *r, enum etw_status_kind st, const struct etw_case *c, const char *message)
{
    bool bad = st == R_FAIL || st == R_CRASH || st == R_TIMEOUT || st == R_BROKEN;
    if (r->progress)
        fprintf(stderr, "\r\033[K");
    if (r->verbose || (bad && !r->quiet)) {
        fprintf(stderr, "%-7s %s [%s] %s:%d%s%s\n", etw_status_name(st), c->id, etw_rule_name(etw_case_rule(c, 0)), c->file, c->line,
                message && *message ? ": " : "", message ? message : "");
        if (bad && st != R_BROKEN)
            fprintf(stderr, "        rerun: %s --case %s\n", r->rerun_prefix ? r->rerun_prefix : "etwconf run", c->id);
    }
}

void etw_emit_body(struct etw_runner *r, enum etw_status_kind st, bool counted, const char *body, const struct etw_case *c,
                   const char *message)
{
    r->seq++;
    r->counts[st]++;
    if (counted)
        r->counted_failures++;
    if (r->out && !r->out_errno) {
        /* body is {"id":...}: the record is {"type":"case","seq":N, + the rest */
        errno = 0;
        if (fprintf(r->out, "{\"type\":\"case\",\"seq\":%lu,%s\n", r->seq, body + 1) < 0 || fflush(r->out) != 0)
            r->out_errno = errno ? errno : EIO;
    }
    report_line(r, st, c, message);
    if (r->progress) {
        fprintf(stderr, "[%lu/%zu] %s  (%lu failed, %lu crashed, %lu timed out)", r->seq, r->nplan, c->id, r->counts[R_FAIL],
                r->counts[R_CRASH], r->counts[R_TIMEOUT]);
        if (r->seq == r->nplan)
            fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

void etw_emit(struct etw_runner *r, const struct etw_result *res)
{
    struct etw_json j = {0};
    etw_record_case_body(&j, res, r);
    if (j.oom) {
        fprintf(stderr, "etwconf: out of memory writing a result\n");
        exit(3);
    }
    etw_emit_body(r, res->status, res->counted, j.buf, res->c, res->message[0] ? res->message : res->reason);
    etw_json_free(&j);
}
