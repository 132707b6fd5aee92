/* harness/core/rules.c - the rule catalogue, compiled from spec/rules.def, and the rules a case cites. */
#include "harness/core/core.h"

#define RULE(id, st, pr, ver, fn, codes, src, text, note) {id, S_##st, P_##pr, ver, fn, codes, src, text, note},
const struct etw_rule etw_rules[] = {
#include "spec/rules.def"
};
#undef RULE
const size_t etw_rule_count = sizeof etw_rules / sizeof etw_rules[0];
/* the generated ids are in catalogue order, so RID_X indexes etw_rules[RID_X - 1] (lint checks the names) */
_Static_assert(sizeof etw_rules / sizeof etw_rules[0] == ETW_RULE_IDS, "build/gen/rule_ids.def is out of date with spec/rules");

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

enum etw_rule_id etw_case_rule(const struct etw_case *c, int n)
{
    return n >= 0 && n < ETW_MAX_RULES ? c->rules[n] : RID_NONE;
}
