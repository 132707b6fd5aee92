/*
 * harness/out/winetest.c - `etwconf run --format winetest`: results printed as a Wine conformance
 * test prints them (Wine's include/wine/test.h, the format tools/runtest, winetest.exe, its JUnit
 * converter and test.winehq.org's dissect read), on stdout.
 *
 *   cases/tqi.c:125: Test failed: tqi.0b.short [TQI.0B.EXACT_SIZE] return: expected 24 (ERROR_BAD_LENGTH), got 0 (ERROR_SUCCESS)
 *   cases/cti.c:19: Test marked todo: cti.null-handle [EXP.NTDLL.ETWCTI] export: expected ntdll!EtwCreateTraceInstanceId exported, got missing
 *   cases/tqi.c:40: Tests skipped: tqi.0b.exact: does not apply to 6.1 (the case covers 10.0-10.0)
 *   0b3c:tqi: 61 tests executed (3 marked as todo, 0 as flaky, 1 failure), 18 skipped.
 *
 * The mapping (a check is one of Wine's ok() calls; a unit is a case file: cases/tqi.c is "tqi"):
 *   PASS                    every check is a success (printed only with WINETEST_REPORT_SUCCESS=1)
 *   FAIL                    a failed check is "Test failed:" at the check's file and line
 *   SKIP                    "Tests skipped: <case>: <reason>" at the row
 *   BROKEN                  the fixture could not be made: "Tests skipped: <case>: BROKEN: <reason>"
 *   CRASH, TIMEOUT          "Test failed: <case>: unhandled exception 80000100 in <function>" / "...: timed out"
 * With --expect FILE (an expectations file, harness/out/expect.c), a case whose result matches
 * an entry for this version is a known divergence, Wine's todo_wine:
 *   matched                 its failed checks (or its crash, timeout, broken fixture) are "Test marked todo:"
 *   an entry, but PASS      "Test succeeded inside todo block:" (a failure, as in Wine)
 *   an entry, other result  the failure lines as without an entry, after a trace line saying what
 *                           the entry expected (as etwconf-report check's CHANGED)
 * The closing line of a unit is Wine's: "%04x:%s: %d tests executed (%d marked as todo, %d as
 * flaky, %d failure(s)), %d skipped." (pid, unit). The exit status is Wine's: failures plus
 * successes inside todo blocks, capped at 255. WINETEST_DEBUG (0: no todo lines, no closing line)
 * and WINETEST_REPORT_SUCCESS are honoured; Wine's muting of a line after 42 messages is not done.
 *
 * The formatter reads the serialised record (harness/RESULTS.md) of each case, so it sees the same
 * thing whatever the isolation mode: every result goes through etw_emit_body().
 */
#include "harness/out/winetest.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <process.h> /* the C runtime's _getpid(): the Windows process id */
#define current_pid() ((unsigned)_getpid())
#else
#include <unistd.h>
#define current_pid() ((unsigned)getpid())
#endif

static struct {
    bool on;
    struct etw_xfile *x;
    int debug;
    bool report_success;
    bool checked_target, applies;
    char unit[64];
    long successes, failures, todo_successes, todo_failures, skipped;
    long status;
} W;

void etw_winetest_enable(struct etw_xfile *expect)
{
    memset(&W, 0, sizeof W);
    W.on = true;
    W.x = expect;
    const char *d = getenv("WINETEST_DEBUG"), *s = getenv("WINETEST_REPORT_SUCCESS");
    W.debug = d ? atoi(d) : 1;
    W.report_success = s && atoi(s);
}

bool etw_winetest_enabled(void)
{
    return W.on;
}

int etw_winetest_status(void)
{
    return W.status > 255 ? 255 : (int)W.status;
}

/* one line, Wine's layout: "file:line: " + prefix + message */
static void wline(const char *file, int line, const char *prefix, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void wline(const char *file, int line, const char *prefix, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++) /* one line per message: a reason or a got text may hold a newline */
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    printf("%s:%d: %s%s\n", file, line, prefix, msg);
}

static void close_unit(void)
{
    if (!W.unit[0])
        return;
    long total = W.successes + W.failures + W.todo_successes + W.todo_failures, bad = W.failures + W.todo_failures;
    if (W.debug)
        printf("%04x:%s: %ld tests executed (%ld marked as todo, 0 as flaky, %ld %s), %ld skipped.\n", current_pid(), W.unit, total,
               W.todo_successes, bad, bad != 1 ? "failures" : "failure", W.skipped);
    fflush(stdout);
    W.status += bad;
    W.unit[0] = 0;
    W.successes = W.failures = W.todo_successes = W.todo_failures = W.skipped = 0;
}

void etw_winetest_end(struct etw_runner *r)
{
    (void)r;
    if (W.on)
        close_unit();
}

/* cases/tqi.c -> "tqi" */
static void unit_of(const char *file, char *out, size_t len)
{
    const char *b = file ? file : "etwconf";
    for (const char *p = b; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    size_t n = strlen(b);
    if (n > 2 && !strcmp(b + n - 2, ".c"))
        n -= 2;
    if (n >= len)
        n = len - 1;
    memcpy(out, b, n);
    out[n] = 0;
}

static bool target_applies(struct etw_runner *r)
{
    if (!W.checked_target) {
        W.checked_target = true;
        const char *arch = r->t->arch ? r->t->arch : plat_host_arch();
        W.applies = W.x && !strcmp(W.x->impl, r->t->impl) && (!W.x->arch || !strcmp(W.x->arch, arch));
        if (W.x && !W.applies)
            fprintf(stderr, "etwconf: %s is for target %s%s%s; this run's target is %s (%s): no known divergence applies, nothing is todo\n",
                    W.x->path, W.x->impl, W.x->arch ? "/" : "", W.x->arch ? W.x->arch : "", r->t->impl, arch);
    }
    return W.applies;
}

static bool in_texts(const char *needle, const char *const *texts, int n)
{
    for (int i = 0; i < n; i++)
        if (texts[i] && strstr(texts[i], needle))
            return true;
    return false;
}

/* reports/etwconf_report/expectations.py entry_matches() */
static bool entry_matches(const struct etw_xentry *e, const struct etw_jval *rec, const char *status)
{
    if (strcmp(e->status, status))
        return false;
    const char *mode = etw_jstr(rec, "mode");
    if (e->mode && (!mode || strcmp(e->mode, mode)))
        return false;
    if (!e->observed)
        return true;
    const char *texts[ETW_MAX_CHECKS + 2];
    int n = 0;
    if (!strcmp(status, "FAIL")) {
        const struct etw_jval *checks = etw_jget(rec, "checks");
        for (size_t i = 0; checks && i < checks->nkids && n < ETW_MAX_CHECKS; i++) {
            const struct etw_jval *ok = etw_jget(&checks->kids[i], "ok");
            if (ok && ok->type == J_BOOL && !ok->b)
                texts[n++] = etw_jstr(&checks->kids[i], "got") ? etw_jstr(&checks->kids[i], "got") : "";
        }
        if (!n)
            texts[n++] = etw_jstr(rec, "message");
    } else if (!strcmp(status, "CRASH"))
        texts[n++] = etw_jstr(rec, "exception");
    else if (!strcmp(status, "SKIP"))
        texts[n++] = etw_jstr(rec, "reason");
    else {
        texts[n++] = etw_jstr(rec, "message");
        texts[n++] = etw_jstr(rec, "reason");
    }
    return in_texts(e->observed, texts, n);
}

/* print the checks; failed ones with prefix (NULL: not printed but still counted in *bad) */
static void each_check(const struct etw_case *c, const struct etw_jval *checks, const char *prefix, long *bad, bool print_bad)
{
    for (size_t i = 0; checks && i < checks->nkids; i++) {
        const struct etw_jval *k = &checks->kids[i];
        const struct etw_jval *ok = etw_jget(k, "ok"), *ln = etw_jget(k, "line");
        const char *file = etw_jstr(k, "file") ? etw_jstr(k, "file") : c->file;
        int line = ln && ln->type == J_NUM ? (int)ln->num : c->line;
        if (ok && ok->type == J_BOOL && ok->b) {
            W.successes++;
            if (W.report_success)
                wline(file, line, "Test succeeded", "%s", "");
            continue;
        }
        (*bad)++;
        if (print_bad) {
            const char *exp = etw_jstr(k, "expected"), *got = etw_jstr(k, "got");
            wline(file, line, prefix, "%s [%s] %s: expected %s, got %s", c->id, etw_jstr(k, "rule") ? etw_jstr(k, "rule") : "?",
                  etw_jstr(k, "what") ? etw_jstr(k, "what") : "check", exp && exp[0] ? exp : "a value", got ? got : "");
        }
    }
}

void etw_winetest_result(struct etw_runner *r, enum etw_status_kind st, const char *body, const struct etw_case *c)
{
    if (!W.on || !c)
        return;
    char unit[64];
    unit_of(c->file, unit, sizeof unit);
    if (strcmp(unit, W.unit)) {
        close_unit();
        snprintf(W.unit, sizeof W.unit, "%s", unit);
    }
    char jerr[128];
    struct etw_jval *rec = body ? etw_jparse(body, jerr, sizeof jerr) : NULL;
    if (!rec) {
        wline(c->file, c->line, "Test failed: ", "%s: the result record could not be read (%s)", c->id, body ? jerr : "no record");
        W.failures++;
        fflush(stdout);
        return;
    }
    const char *status = etw_status_name(st);
    /* the entries of the expectations file for this case at this version */
    const struct etw_xentry *match = NULL, *first = NULL;
    if (W.x && target_applies(r)) {
        const char *label = r->t->version_label ? r->t->version_label : etw_version_name(r->version);
        for (size_t i = 0; i < W.x->nentries; i++) {
            const struct etw_xentry *e = &W.x->entries[i];
            if (strcmp(e->case_id, c->id) || !etw_xentry_names(e, r->t->impl, r->version, etw_runner_key(r), label))
                continue;
            if (!first)
                first = e;
            if (!match && entry_matches(e, rec, status))
                match = e;
        }
    }
    char desc[320] = "", where[300] = "";
    if (first) {
        etw_xentry_describe(first, desc, sizeof desc);
        if (first->line)
            snprintf(where, sizeof where, "%s:%d", W.x->path, first->line);
        else
            snprintf(where, sizeof where, "%s", W.x->path);
    }
    const struct etw_jval *checks = etw_jget(rec, "checks");
    const char *reason = etw_jstr(rec, "reason"), *message = etw_jstr(rec, "message");
    long bad = 0;
    if (first && !match && st != R_PASS && W.debug > 0) /* a known divergence that changed: say what was expected */
        wline(c->file, c->line, "", "%s: %s lists it as %s; it ended %s", c->id, where, desc, status);
    switch (st) {
    case R_PASS:
        if (first) {
            /* the divergence is gone: Wine's "Test succeeded inside todo block" */
            long n = 0;
            each_check(c, checks, "", &n, false);
            if (W.successes > 0)
                W.successes--;
            wline(c->file, c->line, "Test succeeded inside todo block: ", "%s: %s lists it as %s (%s), but it passed", c->id, where,
                  desc, first->why);
            W.todo_failures++;
        } else {
            each_check(c, checks, "", &bad, false);
        }
        break;
    case R_FAIL:
        if (match) {
            each_check(c, checks, "Test marked todo: ", &bad, W.debug > 0);
            W.todo_successes += bad;
        } else {
            each_check(c, checks, "Test failed: ", &bad, true);
            W.failures += bad;
        }
        break;
    case R_SKIP:
    case R_BROKEN: {
        const char *tag = st == R_BROKEN ? "BROKEN: " : "";
        if (match && st == R_BROKEN) {
            if (W.debug > 0)
                wline(c->file, c->line, "Test marked todo: ", "%s: the fixture could not be set up: %s", c->id, reason ? reason : "");
            W.todo_successes++;
        } else if (first && !match) {
            wline(c->file, c->line, "Test failed: ", "%s: %s%s", c->id, tag, reason ? reason : "");
            W.failures++;
        } else {
            wline(c->file, c->line, "Tests skipped: ", "%s: %s%s", c->id, tag, reason ? reason : "");
            W.skipped++;
        }
        break;
    }
    case R_CRASH:
    case R_TIMEOUT:
    default: {
        char what[200];
        const char *exc = etw_jstr(rec, "exception"), *fn = etw_jstr(rec, "function");
        if (st == R_CRASH)
            snprintf(what, sizeof what, "unhandled exception %s in %s (caught; the run went on)",
                     exc ? (!strncmp(exc, "0x", 2) ? exc + 2 : exc) : "?", fn ? fn : "the call");
        else
            snprintf(what, sizeof what, "%s", message ? message : "timed out");
        each_check(c, checks, match ? "Test marked todo: " : "Test failed: ", &bad, !match || W.debug > 0);
        if (match) {
            if (W.debug > 0)
                wline(c->file, c->line, "Test marked todo: ", "%s: %s", c->id, what);
            W.todo_successes += bad + 1;
        } else {
            wline(c->file, c->line, "Test failed: ", "%s: %s", c->id, what);
            W.failures += bad + 1;
        }
        break;
    }
    }
    fflush(stdout);
    etw_jfree(rec);
}
