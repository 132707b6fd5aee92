/*
 * harness/etwconf.h - every layer's header at once, included by harness/targets/win_live/,
 * tools/export_wine/ and harness/tests/unit_livefx.c. Every other file includes its own layer's
 * header: harness/core/core.h, suite/suite.h, out/out.h, targets/targets.h, exec/exec.h,
 * cli/cli.h, tools/tools.h (README "How it fits together"). What a file uses is checked on its
 * object, whatever it includes (harness/tests/layers.py).
 */
#ifndef ETWCONF_HARNESS_H
#define ETWCONF_HARNESS_H

#include "harness/core/core.h"
#include "harness/suite/suite.h"
#include "harness/out/out.h"
#include "harness/targets/targets.h"
#include "tools/tools.h"

#endif
