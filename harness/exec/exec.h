/* harness/exec/exec.h - the runner: the plan, the one plan loop, the isolation policy and the
 * worker protocol over harness/plat/plat.h, the same on every host. */
#ifndef ETWCONF_EXEC_H
#define ETWCONF_EXEC_H

#include "harness/out/out.h"

/* ---------------------------------------------------------------- the plan (plan.c) */
/* true when c's id, or one of its rules, matches glob ('*' and '?'; linear time) */
bool etw_plan_matches(const struct etw_case *c, const char *glob);
/* the cases to run, in registry order: every case when no id and no filter is given, else those
 * named by ids or matching filter. NULL and err filled when an id is unknown or nothing matches. */
const struct etw_case **etw_plan_build(const char *const *ids, int nids, const char *filter, size_t *n, char *err, size_t errlen);

/* ---------------------------------------------------------------- running (runner.c) */
/* settle "auto" for target t: inproc with fallback for the suite's own model, batch for a loaded
 * library and for the live system */
void etw_exec_policy(struct etw_runner *r, bool auto_isolation);
/* run every case of r->plan with r->isolation, emitting each result: 0 when every case has a
 * record, 3 when the run could not go on, 4 when it was interrupted */
int etw_exec_run(struct etw_runner *r);
/* the worker side: run r->plan (the worker's share), sending each result on chan; the exit status
 * of the worker process */
int etw_exec_worker(struct etw_runner *r, plat_chan chan);
/* the arguments a worker on a host without fork needs to rebuild r (cli/worker.c reads them):
 * "__worker --target SPEC --version V --build B --timeout MS --fixture-timeout MS --rerun PREFIX --cases I,J,..." */
#define ETW_WORKER_COMMAND "__worker"

/* ---------------------------------------------------------------- the worker wire format (wire.c) */
/* Every message is a head, then body_len bytes of body, then msg_len bytes of message. A worker
 * sends START before a case and RESULT after it; idx is the case's place in the worker's share. */
#define ETW_WIRE_MAGIC 0x45574331u /* "EWC1" */
#define ETW_WIRE_MAX_BODY (256u * 1024u)
#define ETW_WIRE_MAX_MSG 4096u
/* PHASE tells the runner which budget the running case is in now (status: enum etw_phase) */
enum etw_wire_kind { ETW_WIRE_START = 1, ETW_WIRE_RESULT = 2, ETW_WIRE_PHASE = 3 };
struct etw_wire_head {
    etw_u32 magic, kind, idx, status, counted, body_len, msg_len;
};
/* START (status 0) or PHASE (status: the phase) */
bool etw_wire_send_mark(plat_chan chan, enum etw_wire_kind kind, size_t idx, unsigned status);
bool etw_wire_send_result(plat_chan chan, size_t idx, const struct etw_result *res, struct etw_runner *r);

/* the runner's side: bytes in, validated messages out */
struct etw_wire_rx {
    char *buf;
    size_t len, cap;
};
struct etw_wire_msg {
    enum etw_wire_kind kind;
    size_t idx;
    enum etw_status_kind status; /* RESULT */
    enum etw_phase phase; /* PHASE */
    bool counted;
    const char *body, *msg; /* NUL-terminated, valid until the next etw_wire_next */
};
enum etw_wire_got { ETW_WIRE_MORE, ETW_WIRE_MSG, ETW_WIRE_CORRUPT };
bool etw_wire_feed(struct etw_wire_rx *rx, const void *data, size_t n);
/* the next message, checked against the worker's share plan[0..n): magic, kind, lengths, index
 * in range, status in range, the body a record of that case; why says what was wrong */
enum etw_wire_got etw_wire_next(struct etw_wire_rx *rx, const struct etw_case *const *plan, size_t n, struct etw_wire_msg *m, char *why,
                                size_t wlen);
void etw_wire_free(struct etw_wire_rx *rx);

#endif
