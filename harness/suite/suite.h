/* harness/suite/suite.h - every case table (one per cases/ file), the lookups over them, and the
 * cross-checks between rules, cases and scenarios (etwconf lint). */
#ifndef ETWCONF_SUITE_H
#define ETWCONF_SUITE_H

#include "harness/core/core.h"

/* harness/suite/registry.c */
size_t etw_case_total(void);
const struct etw_case *etw_case_at(size_t i); /* all tables, in order */
const struct etw_case *etw_case_find(const char *id);
/* rule/case cross-checks, the scenario rows' among them; prints problems to f, returns their number */
int etw_lint(FILE *f);

#endif
