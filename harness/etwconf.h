/*
 * harness/etwconf.h - every layer's header at once, for the files that have not yet moved to the
 * header of their own layer (harness/targets/win_live/, tools/export_wine/). New code includes
 * its layer's header: harness/core/core.h, suite/suite.h, out/out.h, targets/targets.h,
 * exec/exec.h, cli/cli.h, tools/tools.h (README "How it fits together").
 */
#ifndef ETWCONF_HARNESS_H
#define ETWCONF_HARNESS_H

#include "harness/core/core.h"
#include "harness/suite/suite.h"
#include "harness/out/out.h"
#include "harness/targets/targets.h"
#include "tools/tools.h"

#endif
