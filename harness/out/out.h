/* harness/out/out.h - output: JSON (json.c), the records of a run (record.c, harness/RESULTS.md),
 * the scenario fields of records and lists (scenario.c). */
#ifndef ETWCONF_OUT_H
#define ETWCONF_OUT_H

#include "harness/suite/suite.h"

/* ---------------------------------------------------------------- JSON (harness/out/json.c) */
struct etw_json {
    char *buf;
    size_t len, cap;
    bool oom;
    int depth;
    bool first[16];
    char closer[16];
};
void etw_json_init(struct etw_json *j);
void etw_json_free(struct etw_json *j);
void etw_json_obj(struct etw_json *j, const char *key); /* key NULL inside arrays / at top */
void etw_json_end(struct etw_json *j); /* closes obj or arr */
void etw_json_arr(struct etw_json *j, const char *key);
void etw_json_str(struct etw_json *j, const char *key, const char *v); /* NULL -> null */
void etw_json_int(struct etw_json *j, const char *key, long long v);
void etw_json_bool(struct etw_json *j, const char *key, bool v);
void etw_json_raw(struct etw_json *j, const char *key, const char *raw);
/* ETW_JSON_STRS(j, key, value, key, value ...): an etw_json_str for each pair */
void etw_json_strs(struct etw_json *j, const char *const *kv); /* the pairs, then NULL */
#define ETW_JSON_STRS(j, ...) etw_json_strs((j), (const char *const[]){__VA_ARGS__, NULL})
/* key: [the ids of c's .rules] */
void etw_json_rules(struct etw_json *j, const char *key, const struct etw_case *c);
/* records (harness/out/record.c) */
void etw_record_header(struct etw_json *j, struct etw_runner *r, int argc, char **argv);
void etw_record_case_body(struct etw_json *j, const struct etw_result *res, struct etw_runner *r);
void etw_record_footer(struct etw_json *j, struct etw_runner *r, int exit_code);

/* write one result record (assigns seq, counts, prints progress) */
void etw_emit(struct etw_runner *r, const struct etw_result *res);
/* the same, from a record body already serialised by a worker */
void etw_emit_body(struct etw_runner *r, enum etw_status_kind st, bool counted, const char *body, const struct etw_case *c,
                   const char *message);

/* ---------------------------------------------------------------- scenarios (harness/out/scenario.c) */
/* the record's scenario fields; the `etwconf list --json` fields of a scenario row */
void etw_scenario_record(struct etw_json *j, const struct etw_result *res);
void etw_scenario_list_json(struct etw_json *j, const struct etw_case *c);

#endif
