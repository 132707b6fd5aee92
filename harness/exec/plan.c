/* harness/exec/plan.c - which cases a run covers: ids and a glob over ids and rules. */
#include "harness/exec/exec.h"
#include <stdlib.h>
#include <string.h>

/* '*' and '?' glob; iterative with one backtrack point, so linear in practice (no exponential
 * blow-up on patterns like '*a*a*a*a*b') */
static bool glob_match(const char *p, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*p == '*') {
            star = p++;
            resume = s;
        } else if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (star) {
            p = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return !*p;
}

bool etw_plan_matches(const struct etw_case *c, const char *glob)
{
    if (glob_match(glob, c->id))
        return true;
    for (int k = 0; etw_case_rule(c, k); k++)
        if (glob_match(glob, etw_rule_name(etw_case_rule(c, k))))
            return true;
    return false;
}

const struct etw_case **etw_plan_build(const char *const *ids, int nids, const char *filter, size_t *n, char *err, size_t errlen)
{
    for (int k = 0; k < nids; k++)
        if (!etw_case_find(ids[k]))
            return snprintf(err, errlen, "no case '%s'", ids[k]), NULL;
    size_t total = etw_case_total(), np = 0;
    const struct etw_case **plan = calloc(total + 1, sizeof *plan);
    if (!plan)
        return snprintf(err, errlen, "out of memory"), NULL;
    for (size_t i = 0; i < total; i++) {
        const struct etw_case *c = etw_case_at(i);
        bool in = !nids && !filter;
        for (int k = 0; k < nids && !in; k++)
            in = !strcmp(ids[k], c->id);
        if (in || (filter && etw_plan_matches(c, filter)))
            plan[np++] = c;
    }
    if (!np) {
        snprintf(err, errlen, "no case matches '%s'", filter ? filter : "");
        free(plan);
        return NULL;
    }
    *n = np;
    return plan;
}
