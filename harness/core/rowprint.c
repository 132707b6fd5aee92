/*
 * harness/core/rowprint.c - the row format's names (from the X-lists of harness/case.h) and the
 * row printer: a struct etw_case printed as the CASE(...) source that compiles back to it. The
 * fuzzer prints its findings with it; harness/tests/unit_rowprint.c prints every printable row
 * of cases/, parses the text back and compares every field.
 */
#include "harness/etwconf.h"
#include <string.h>

#define NAME_(name) #name,
#define NAME2_(name, text) #name,
#define TEXT2_(name, text) text,
#define LOOKUP_(fn, type, list, X)                                                                                      \
    const char *fn(type v)                                                                                              \
    {                                                                                                                   \
        static const char *const n[] = {list(X)};                                                                       \
        return (unsigned)v < sizeof n / sizeof n[0] ? n[v] : NULL;                                                      \
    }
LOOKUP_(etw_fn_enum_name, enum etw_fn, ETW_FN_LIST, NAME_)
LOOKUP_(etw_hsel_enum_name, enum etw_hsel, ETW_HSEL_LIST, NAME_)
LOOKUP_(etw_bsel_enum_name, enum etw_bsel, ETW_BSEL_LIST, NAME_)
LOOKUP_(etw_patch_enum_name, enum etw_patch, ETW_PATCH_LIST, NAME_)
LOOKUP_(etw_logger_enum_name, enum etw_logger_kind, ETW_LOGGER_LIST, NAME2_)
LOOKUP_(etw_logger_kind_title, enum etw_logger_kind, ETW_LOGGER_LIST, TEXT2_)
LOOKUP_(etw_priv_enum_name, enum etw_priv, ETW_PRIV_LIST, NAME_)
LOOKUP_(etw_xkind_name, enum etw_xkind, ETW_XKIND_LIST, TEXT2_)

const char *etw_version_enum_name(unsigned v)
{
#define VERSION_(name) if (v == name) return #name;
    ETW_VERSION_LIST(VERSION_)
#undef VERSION_
    return NULL;
}
