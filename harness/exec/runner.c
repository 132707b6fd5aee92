/*
 * harness/exec/runner.c - the one plan loop and the one isolation policy, on every host.
 *
 *   inproc  the cases run in this process (plat_run_watched). With fallback, the first CRASH,
 *           TIMEOUT or caught overrun moves the rest to batch workers: the process may be damaged.
 *   batch   a worker process runs the cases in order and sends each result (wire.c). One that dies
 *           in a case leaves a CRASH, one past its budget is killed; after a crash or an overrun it
 *           ends itself, and a new worker goes on with the next case.
 *   child   the same with a new worker for every case.
 * The records of a worker that died or was killed are the runner's (emit_abnormal).
 */
#include "harness/exec/exec.h"
#include "harness/scenario.h"
#include <stdlib.h>
#include <string.h>

#define POLL_MS 20
#define START_DEADLINE_MS 60000u /* a worker that has not started its next case by then is stuck */

void etw_exec_policy(struct etw_runner *r, bool auto_isolation)
{
    if (!auto_isolation)
        return;
    /* Only the suite's own model, whose code is all known, runs in process: interrupting a thread
     * (SetThreadContext) can block behind a kernel APC, land inside a system call under WOW64 or
     * abandon a loader or heap lock, and __fastfail bypasses every handler. A worker that hangs is
     * terminated, and the runner stops what it started (etw_target.worker_died). */
    bool own = !strcmp(r->t->impl, "reference");
    r->isolation = own ? ISO_INPROC : ISO_BATCH;
    r->fallback = own;
}

/* a record the runner makes for case idx of the plan: a CRASH (exc: how it ended), or (exc NULL)
 * the case did not finish phase p within its budget: TIMEOUT in the call, BROKEN in the fixture */
static void emit_abnormal(struct etw_runner *r, size_t idx, const char *exc, enum etw_phase p,
                          const char *why)
{
    static struct etw_result res; /* large; never two at once */
    memset(&res, 0, sizeof res);
    if (exc)
        etw_result_abnormal(&res, r->plan[idx], R_CRASH, exc, why);
    else
        etw_result_unfinished(&res, r->plan[idx], p, etw_phase_budget_ms(r, p), why);
    etw_result_finish(&res);
    etw_emit(r, &res);
}

/* after this result the process may be damaged: a crash (other than one the platform knows is
 * harmless), a hang (in the call or in a fixture), or a write out of bounds */
static bool damaging(const struct etw_result *res)
{
    return res->status == R_TIMEOUT || (res->status == R_CRASH && !plat_fault_intact(res->exception)) ||
           (res->mode && (!strcmp(res->mode, "overrun") || !strcmp(res->mode, "fixture-timeout")));
}

struct inproc {
    struct etw_runner *r;
    volatile size_t next; /* the next case to run */
    volatile long current; /* the case running, -1 between cases */
    volatile bool stop; /* fallback: the rest goes to workers */
};

static void inproc_loop(void *p)
{
    struct inproc *w = p;
    struct etw_runner *r = w->r;
    struct etw_result *res = malloc(sizeof *res); /* this thread's own: a thread given up keeps it */
    if (!res)
        return;
    while (w->next < r->nplan && !w->stop && !plat_interrupted() && !r->out_errno) {
        size_t i = w->next;
        w->current = (long)i;
        etw_run_case(r, r->plan[i], res);
        w->current = -1;
        etw_emit(r, res);
        w->next = i + 1;
        if (r->fallback && damaging(res))
            w->stop = true;
    }
    free(res); /* a thread given up never gets here */
}

/* the platform gave up a thread blocked in the system in case w->current */
static void inproc_abandoned(void *p)
{
    struct inproc *w = p;
    long cur = w->current;
    if (cur < 0)
        return;
    emit_abnormal(w->r, (size_t)cur, NULL, (enum etw_phase)w->r->phase_now,
                    "the thread was blocked in the system and could not be interrupted: it was left suspended and a new runner thread "
                    "went on (use --isolation batch for such targets)");
    w->current = -1;
    w->next = (size_t)cur + 1;
    if (w->r->fallback)
        w->stop = true;
}

struct fork_arg {
    struct etw_runner *r;
    size_t from, to;
};

static int worker_main(void *p, plat_chan chan)
{
    struct fork_arg *a = p;
    struct etw_runner *r = a->r; /* this process's copy */
    r->out = NULL; /* only the runner writes results */
    r->plan += a->from;
    r->nplan = a->to - a->from;
    return etw_exec_worker(r, chan);
}

struct phase_tell {
    plat_chan chan;
    size_t idx;
};

static void tell_phase(void *arg, enum etw_phase p)
{
    struct phase_tell *pt = arg;
    /* a channel that broke shows at the result */
    etw_wire_send_mark(pt->chan, ETW_WIRE_PHASE, pt->idx, (unsigned)p);
}

int etw_exec_worker(struct etw_runner *r, plat_chan chan)
{
    struct etw_result *res = malloc(sizeof *res);
    if (!res)
        return 3;
    int rc = 0;
    static struct phase_tell pt;
    pt.chan = chan;
    r->on_phase = tell_phase;
    r->phase_arg = &pt;
    for (size_t i = 0; i < r->nplan; i++) {
        pt.idx = i;
        if (!etw_wire_send_mark(chan, ETW_WIRE_START, i, 0)) {
            rc = 3;
            break;
        }
        etw_run_case(r, r->plan[i], res);
        if (!etw_wire_send_result(chan, i, res, r)) {
            rc = 3;
            break;
        }
        if (damaging(res))
            break; /* a fresh worker goes on with the next case */
    }
    free(res);
    return rc;
}

/* the registry indices of plan[from, to), for a worker started as a new program */
static char *case_list(struct etw_runner *r, size_t from, size_t to)
{
    size_t total = etw_case_total(), cap = (to - from) * 8 + 8, o = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = 0;
    for (size_t i = from; i < to; i++)
        for (size_t k = 0; k < total; k++)
            if (etw_case_at(k) == r->plan[i]) {
                o += (size_t)snprintf(s + o, cap - o, "%s%zu", i > from ? "," : "", k);
                break;
            }
    return s;
}

/* how many times a worker process is started before the run gives up (supervise) */
#define ETW_WORKER_START_TRIES 3

static struct plat_proc *start_worker(struct etw_runner *r, struct fork_arg *fa, char *err, size_t errlen)
{
    char build[16], timeout[16], fixture[16];
    snprintf(build, sizeof build, "%u", r->t->build);
    snprintf(timeout, sizeof timeout, "%u", r->timeout_ms);
    snprintf(fixture, sizeof fixture, "%u", etw_phase_budget_ms(r, ETW_PHASE_FIXTURE));
    char *cases = case_list(r, fa->from, fa->to);
    const char *argv[] = {ETW_WORKER_COMMAND, "--target", r->t->spec ? r->t->spec : "live",
                          "--version", etw_version_name(r->version), "--build", build,
                          "--timeout", timeout, "--fixture-timeout", fixture, "--rerun", r->rerun_prefix ? r->rerun_prefix : "etwconf run",
                          "--cases", cases ? cases : "", NULL};
    struct plat_proc *p = cases ? plat_proc_start(worker_main, fa, argv, err, errlen) : NULL;
    if (!cases)
        snprintf(err, errlen, "out of memory");
    free(cases);
    return p;
}

/* supervise one worker running plan[from, to); returns where the next worker starts, and sets
 * *rc to 3 (cannot go on) or 4 (interrupted) */
static size_t supervise(struct etw_runner *r, size_t from, size_t to, int *rc)
{
    struct fork_arg fa = {r, from, to};
    char err[512], how[64], why[256];
    /* a worker that cannot be started says nothing about the target: the host can refuse a new
     * process for a while (Wine, for one, fails a start whose address space the kernel laid out
     * where it cannot map its shared pages, and CreateProcess returns ERROR_INTERNAL_ERROR), so a
     * failed start is tried again, a bounded number of times, each try said on stderr */
    struct plat_proc *p = NULL;
    for (int tries = 1; !(p = start_worker(r, &fa, err, sizeof err)); tries++) {
        fprintf(stderr, "etwconf: %s (start %d of %d)\n", err, tries, ETW_WORKER_START_TRIES);
        if (tries == ETW_WORKER_START_TRIES) {
            *rc = 3;
            return from;
        }
    }
    struct etw_wire_rx rx = {0};
    static char chunk[64 * 1024];
    size_t next = from; /* the first case without a record */
    long cur = -1; /* the case started and not finished (plan index) */
    enum etw_phase phase = ETW_PHASE_FIXTURE; /* of case cur: whose budget runs since the last message */
    uint64_t since = plat_now_us();
    bool corrupt = false, timed_out = false, ended = false;
    while (!ended) {
        long n = plat_proc_read(p, chunk, sizeof chunk, POLL_MS);
        if (n > 0 && !etw_wire_feed(&rx, chunk, (size_t)n)) {
            snprintf(why, sizeof why, "out of memory reading the worker's results");
            corrupt = true;
            break;
        }
        ended = n == 0;
        struct etw_wire_msg m;
        enum etw_wire_got g;
        while ((g = etw_wire_next(&rx, r->plan + from, to - from, &m, why, sizeof why)) == ETW_WIRE_MSG) {
            size_t idx = from + m.idx;
            if (m.kind == ETW_WIRE_START && cur < 0 && idx == next) {
                cur = (long)idx;
                phase = ETW_PHASE_FIXTURE;
                since = plat_now_us();
            } else if (m.kind == ETW_WIRE_PHASE && cur == (long)idx) {
                phase = m.phase;
                since = plat_now_us();
            } else if (m.kind == ETW_WIRE_RESULT && cur == (long)idx) {
                etw_emit_body(r, m.status, m.counted, m.body, r->plan[idx], m.msg);
                next = idx + 1;
                cur = -1;
                since = plat_now_us();
            } else {
                snprintf(why, sizeof why, "a %s message for case %zu out of order",
                         m.kind == ETW_WIRE_START ? "start" : m.kind == ETW_WIRE_PHASE ? "phase" : "result", idx);
                g = ETW_WIRE_CORRUPT;
                break;
            }
        }
        if (g == ETW_WIRE_CORRUPT) {
            corrupt = true;
            break;
        }
        if (plat_interrupted()) {
            *rc = 4;
            break;
        }
        if (r->out_errno) { /* the results cannot be written: stop */
            *rc = 3;
            break;
        }
        uint64_t waited = plat_now_us() - since;
        unsigned budget = etw_phase_budget_ms(r, phase);
        if (cur >= 0 && budget && waited > (uint64_t)budget * 1000u) {
            timed_out = true;
            break;
        }
        if (cur < 0 && next < to && waited > (uint64_t)START_DEADLINE_MS * 1000u)
            break; /* stuck outside a case: a new worker goes on */
    }
    unsigned long pid = plat_proc_id(p); /* plat_proc_end frees p */
    bool clean = plat_proc_end(p, how, sizeof how);
    etw_wire_free(&rx);
    if (*rc)
        return next;
    if (!clean && r->t->worker_died)
        r->t->worker_died(r->t, pid);
    size_t blame = cur >= 0 ? (size_t)cur : next;
    if (timed_out) {
        emit_abnormal(r, blame, NULL, phase, "the worker was killed");
    } else if (corrupt && blame < to) {
        char msg[400];
        snprintf(msg, sizeof msg, "(its worker's result channel was corrupted: %s; the worker was killed)", why);
        emit_abnormal(r, blame, "bad result", ETW_PHASE_CALL, msg);
    } else if (cur >= 0) { /* it died inside a case */
        emit_abnormal(r, blame, how, ETW_PHASE_CALL, "(the worker process died)");
    } else {
        return next;
    }
    return blame + 1;
}

static int run_workers(struct etw_runner *r, size_t next)
{
    unsigned fruitless = 0;
    while (next < r->nplan) {
        if (plat_interrupted())
            return 4;
        if (r->out_errno)
            return 3;
        size_t to = r->isolation == ISO_CHILD ? next + 1 : r->nplan, before = next;
        int rc = 0;
        next = supervise(r, next, to, &rc);
        if (rc)
            return rc;
        fruitless = next != before ? 0 : fruitless + 1;
        if (fruitless < 3)
            continue;
        /* the worker ends before it runs a case, again and again: each case left is a CRASH */
        fprintf(stderr, "etwconf: the worker process ended three times before running a case; the %zu case(s) left are recorded as CRASH\n",
                r->nplan - next);
        for (; next < r->nplan; next++)
            emit_abnormal(r, next, "no start", ETW_PHASE_CALL, "(the worker process ended before "
                          "running the case, three times in a row)");
    }
    return 0;
}

int etw_exec_run(struct etw_runner *r)
{
    plat_catch_interrupts();
    /* the step a client scenario has reached, where a worker that dies inside it leaves it for
     * the record (read by value only: a pointer compared, a step checked against the scenario) */
    static bool shared;
    if (!shared) {
        struct etw_step_slot *slot = plat_shared_alloc(sizeof *slot);
        if (slot) {
            *slot = *etw_step_slot;
            etw_step_slot = slot;
        }
        shared = true;
    }
    size_t next = 0;
    if (r->isolation == ISO_INPROC) {
        struct inproc w = {.r = r, .current = -1};
        if (!plat_run_watched(inproc_loop, inproc_abandoned, &w, r->timeout_ms))
            return fprintf(stderr, "etwconf: cannot start the in-process runner\n"), 3;
        next = w.next;
        if (r->out_errno)
            return 3;
        if (next >= r->nplan)
            return 0;
        if (plat_interrupted())
            return 4;
        r->fell_back = true;
        if (!r->quiet)
            fprintf(stderr, "etwconf: the target crashed, hung or wrote out of bounds in process; the remaining %zu case(s) run in a "
                            "worker process\n",
                    r->nplan - next);
    }
    return run_workers(r, next);
}
