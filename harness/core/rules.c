/* harness/core/rules.c - the rule catalogue, compiled from spec/rules.def. */
#include "harness/etwconf.h"
#include <string.h>

#define MUST S_MUST
#define SHOULD S_SHOULD
#define MAY S_MAY
#define INFO S_INFO
#define SEED P_SEED
#define DOC P_DOC
#define OBSERVED P_OBSERVED
#define INFERRED P_INFERRED
#define RULE(id, st, pr, ver, fn, codes, src, text, note) {id, st, pr, ver, fn, codes, src, text, note},
const struct etw_rule etw_rules[] = {
#include "spec/rules.def"
};
#undef RULE
const size_t etw_rule_count = sizeof etw_rules / sizeof etw_rules[0];
/* the generated ids are in catalogue order, so RID_X indexes etw_rules[RID_X - 1] (lint checks the names) */
_Static_assert(sizeof etw_rules / sizeof etw_rules[0] == ETW_RULE_IDS, "build/gen/rule_ids.def is out of date with spec/rules");

const struct etw_rule *etw_rule_find(const char *id)
{
    for (size_t i = 0; id && i < etw_rule_count; i++)
        if (!strcmp(etw_rules[i].id, id))
            return &etw_rules[i];
    return NULL;
}

const struct etw_rule *etw_rule_get(enum etw_rule_id id)
{
    return id > RID_NONE && id < RID_END ? &etw_rules[id - 1] : NULL;
}

const char *etw_rule_name(enum etw_rule_id id)
{
    const struct etw_rule *r = etw_rule_get(id);
    return r ? r->id : "?";
}

bool etw_rule_counted(const struct etw_rule *r)
{
    return r && r->strength == S_MUST && r->provenance != P_INFERRED;
}

const char *etw_strength_name(enum etw_strength s)
{
    static const char *const n[] = {"MUST", "SHOULD", "MAY", "INFO"};
    return n[s];
}

const char *etw_provenance_name(enum etw_provenance p)
{
    static const char *const n[] = {"SEED", "DOC", "OBSERVED", "INFERRED"};
    return n[p];
}

void etw_rules_print(FILE *f, bool json)
{
    if (!json) {
        for (size_t i = 0; i < etw_rule_count; i++) {
            const struct etw_rule *r = &etw_rules[i];
            fprintf(f, "%-26s %-6s %-8s %-8s %s\n", r->id, etw_strength_name(r->strength), etw_provenance_name(r->provenance),
                    r->versions, r->text);
        }
        return;
    }
    struct etw_json j;
    etw_json_init(&j);
    etw_json_arr(&j, NULL);
    for (size_t i = 0; i < etw_rule_count; i++) {
        const struct etw_rule *r = &etw_rules[i];
        etw_json_obj(&j, NULL);
        etw_json_str(&j, "id", r->id);
        etw_json_str(&j, "strength", etw_strength_name(r->strength));
        etw_json_str(&j, "provenance", etw_provenance_name(r->provenance));
        etw_json_str(&j, "versions", r->versions);
        etw_json_str(&j, "function", r->function);
        etw_json_str(&j, "codes", r->codes);
        etw_json_str(&j, "source", r->source);
        etw_json_str(&j, "text", r->text);
        etw_json_str(&j, "note", r->note);
        etw_json_end(&j);
    }
    etw_json_end(&j);
    fprintf(f, "%s\n", j.buf ? j.buf : "[]");
    etw_json_free(&j);
}
