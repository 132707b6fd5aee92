/*
 * harness/rule_id.h - rule ids as C identifiers. The build generates rule_ids.def from the
 * catalogue (the family files of spec/rules.def, in catalogue order): RULE_ID(TQI_0B_EXACT_SIZE, "TQI.0B.EXACT_SIZE").
 * Rows and checks cite a rule as RID_ + its id with '.' written '_' (RID_TQI_0B_EXACT_SIZE), so a
 * misspelt id is a compile error naming the file and line that cites it.
 */
#ifndef ETWCONF_RULE_ID_H
#define ETWCONF_RULE_ID_H

enum etw_rule_id {
    RID_NONE = 0, /* ends a RULES() list; in a check: the case's primary rule (RID_PRIMARY) */
#define RULE_ID(sym, str) RID_##sym,
#include "rule_ids.def"
#undef RULE_ID
    RID_END
};
#define RID_PRIMARY RID_NONE
#define ETW_RULE_IDS (RID_END - 1) /* rules in the catalogue */

#endif
