/* harness/exec/wire.c - the one wire format between a worker and the runner. The runner trusts
 * nothing it reads (a target may write anywhere): every field is checked before it is used. */
#include "harness/exec/exec.h"
#include <stdlib.h>
#include <string.h>

static bool send_all(plat_chan chan, const struct etw_wire_head *h, const char *body, const char *msg)
{
    return plat_chan_write(chan, h, sizeof *h) && (!h->body_len || plat_chan_write(chan, body, h->body_len)) &&
           (!h->msg_len || plat_chan_write(chan, msg, h->msg_len));
}

bool etw_wire_send_mark(plat_chan chan, enum etw_wire_kind kind, size_t idx, unsigned status)
{
    struct etw_wire_head h = {.magic = ETW_WIRE_MAGIC, .kind = kind, .idx = (etw_u32)idx,
                              .status = status};
    return send_all(chan, &h, NULL, NULL);
}

bool etw_wire_send_result(plat_chan chan, size_t idx, const struct etw_result *res, struct etw_runner *r)
{
    struct etw_json j = {0};
    etw_record_case_body(&j, res, r);
    const char *msg = res->message[0] ? res->message : res->reason;
    size_t mlen = strlen(msg);
    if (mlen > ETW_WIRE_MAX_MSG)
        mlen = ETW_WIRE_MAX_MSG;
    bool ok = !j.oom && j.len <= ETW_WIRE_MAX_BODY;
    struct etw_wire_head h = {.magic = ETW_WIRE_MAGIC, .kind = ETW_WIRE_RESULT, .idx = (etw_u32)idx,
                              .status = (etw_u32)res->status, .counted = res->counted,
                              .body_len = (etw_u32)j.len, .msg_len = (etw_u32)mlen};
    ok = ok && send_all(chan, &h, j.buf, msg);
    etw_json_free(&j);
    return ok;
}

bool etw_wire_feed(struct etw_wire_rx *rx, const void *data, size_t n)
{
    if (rx->len + n + 2 > rx->cap) {
        size_t nc = (rx->len + n + 2) * 2;
        char *b = realloc(rx->buf, nc);
        if (!b)
            return false;
        rx->buf = b;
        rx->cap = nc;
    }
    memcpy(rx->buf + rx->len, data, n);
    rx->len += n;
    return true;
}

enum etw_wire_got etw_wire_next(struct etw_wire_rx *rx, const struct etw_case *const *plan, size_t n, struct etw_wire_msg *m, char *why,
                                size_t wlen)
{
    static char body[ETW_WIRE_MAX_BODY + 1], msg[ETW_WIRE_MAX_MSG + 1];
    struct etw_wire_head h;
    if (rx->len < sizeof h)
        return ETW_WIRE_MORE;
    memcpy(&h, rx->buf, sizeof h);
#define BAD(...) return (snprintf(why, wlen, __VA_ARGS__), ETW_WIRE_CORRUPT)
    if (h.magic != ETW_WIRE_MAGIC)
        BAD("bad magic 0x%08X", h.magic);
    if (h.kind != ETW_WIRE_START && h.kind != ETW_WIRE_RESULT && h.kind != ETW_WIRE_PHASE)
        BAD("unknown message kind %u", h.kind);
    if (h.idx >= n)
        BAD("case index %u out of range (the worker has %zu cases)", h.idx, n);
    if (h.kind == ETW_WIRE_START && (h.status || h.counted || h.body_len || h.msg_len))
        BAD("a start message with a payload");
    if (h.kind == ETW_WIRE_PHASE && (h.status > ETW_PHASE_FIXTURE || h.counted || h.body_len || h.msg_len))
        BAD("a phase message with phase %u or a payload", h.status);
    if (h.kind == ETW_WIRE_RESULT && (h.status >= R_COUNT || h.counted > 1))
        BAD("status %u or counted %u out of range", h.status, h.counted);
    if (h.body_len > ETW_WIRE_MAX_BODY || h.msg_len > ETW_WIRE_MAX_MSG)
        BAD("lengths %u and %u over the limits", h.body_len, h.msg_len);
    size_t total = sizeof h + h.body_len + h.msg_len;
    if (rx->len < total)
        return ETW_WIRE_MORE;
    memcpy(body, rx->buf + sizeof h, h.body_len);
    body[h.body_len] = 0;
    memcpy(msg, rx->buf + sizeof h + h.body_len, h.msg_len);
    msg[h.msg_len] = 0;
    memmove(rx->buf, rx->buf + total, rx->len - total);
    rx->len -= total;
    if (h.kind == ETW_WIRE_RESULT) {
        /* a record of this very case: {"id":"<id>", ... } with no NUL inside */
        const char *id = plan[h.idx]->id;
        size_t il = strlen(id);
        if (strlen(body) != h.body_len || strlen(msg) != h.msg_len)
            BAD("a NUL byte inside the record");
        if (h.body_len < il + 9 || strncmp(body, "{\"id\":\"", 7) || strncmp(body + 7, id, il) || body[7 + il] != '"' ||
            body[h.body_len - 1] != '}')
            BAD("the record is not one of case %s", id);
        for (size_t i = 0; i < h.body_len; i++)
            if ((unsigned char)body[i] < 0x20) /* the record writer escapes every control character */
                BAD("a control character inside the record of case %s", id);
    }
#undef BAD
    m->kind = (enum etw_wire_kind)h.kind;
    m->idx = h.idx;
    m->status = h.kind == ETW_WIRE_RESULT ? (enum etw_status_kind)h.status : R_PASS;
    m->phase = h.kind == ETW_WIRE_PHASE ? (enum etw_phase)h.status : ETW_PHASE_CALL;
    m->counted = h.counted != 0;
    m->body = body;
    m->msg = msg;
    return ETW_WIRE_MSG;
}

void etw_wire_free(struct etw_wire_rx *rx)
{
    free(rx->buf);
    memset(rx, 0, sizeof *rx);
}
