# etwconf - conformance suite and reference implementation for Windows ETW APIs.
#
#   make            build build/etwconf and build/libetwref.so (and lint the rule/case tables and the mutants)
#   make run        the main job: reference at every emulated version (+ Wine if installed), reports
#   make test       every test stage; the last line is "N passed, N failed, N skipped"
#   make windows    cross-build build/etwconf.exe and build/etwconf-i686.exe (mk/windows.mk)
#   make wine       run the .exe under Wine at every Windows version (mk/windows.mk)
#   make report     HTML/Markdown/JUnit reports from build/results/*.jsonl (mk/reports.mk)
#   make mutate | fuzz | sanitize   prove the suite catches wrong implementations (mk/mutate.mk)
#   make bench      benchmarks into build/bench/results.md (mk/bench.mk)
#   make deps       install the Debian packages the core needs (DEPS="windows fuzz ...": more groups)
#   make test-distros   make run, make test, make run in fresh Debian 12 and 13 chroots (mk/distros.mk)
#
# Each of `run` and `test` installs what is missing first (.ci/deps.sh); no other target installs
# anything: one that lacks a package stops with the command that installs it.

.DEFAULT_GOAL := all
SHELL := /bin/sh
BUILD ?= build
CC ?= cc
OPT ?= -O2
PYTHON ?= python3
# the version table: spec/versions.def (VERSION(sym, nt, build, name, wine, label))
VERSION_FIELD = $(shell awk -F'"' '/^VERSION/ { print $$$(1) }' spec/versions.def)
VERSIONS := $(call VERSION_FIELD,2)
WARN := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
# -I$(BUILD)/gen: headers generated from the catalogues (rule_ids.def); a pointer or string where a
# rule id belongs is an error, not a warning
CFLAGS_COMMON := -std=c11 $(WARN) -Werror=int-conversion -g $(OPT) -I. -I$(BUILD)/gen -D_GNU_SOURCE
CFLAGS_PIC := $(CFLAGS_COMMON) -fPIC -fvisibility=hidden
LDLIBS_HARNESS := -ldl -lpthread

REF_SRC := $(sort $(wildcard reference/*.c))
CASE_SRC := $(sort $(wildcard cases/*.c))
# The harness in layers (README "How it fits together"): portable code, built for Linux and
# Windows (core, out, targets, tools), the command line, and one platform folder per host.
HARNESS_SRC := $(sort $(wildcard harness/core/*.c harness/suite/*.c harness/exec/*.c harness/out/*.c harness/plat/*.c tools/fuzz/*.c tools/export_wine/*.c)) harness/targets/target.c
# the Linux targets: the built-in reference and shared libraries (Windows: harness/targets/win_live/)
HARNESS_POSIX_TARGETS := harness/targets/reference.c harness/targets/library.c
HARNESS_CLI_SRC := $(sort $(wildcard harness/cli/*.c))
HARNESS_POSIX_SRC := $(sort $(wildcard harness/plat/posix/*.c)) $(HARNESS_POSIX_TARGETS)
HARNESS_WIN_SRC := $(sort $(wildcard harness/plat/win/*.c harness/targets/win_live/*.c))
RULE_DEFS := $(addprefix spec/,$(shell sed -n 's/^\#include "\(rules\/[^"]*\)"/\1/p' spec/rules.def))
GEN_HEADERS := $(BUILD)/gen/rule_ids.def
HEADERS := $(wildcard spec/*.h reference/*.h harness/*.h harness/*/*.h harness/*/*/*.h cases/*.h tools/*/*.h) \
    spec/rules.def spec/versions.def $(RULE_DEFS) $(GEN_HEADERS)

REF_OBJ := $(REF_SRC:%.c=$(BUILD)/obj/%.o)
CASE_OBJ := $(CASE_SRC:%.c=$(BUILD)/obj/%.o)
HARNESS_OBJ := $(HARNESS_SRC:%.c=$(BUILD)/obj/%.o) $(HARNESS_POSIX_SRC:%.c=$(BUILD)/obj/%.o)

# A unity build compiles the files UNITY_NAME as one translation unit, BUILD/unity/NAME.c, in half
# the time or less: for the builds no check reads file by file, UNITY=1 (the sanitizer build) and
# etwconf-i686.exe. A static name several files define is renamed in them (UNITY_RENAME,
# PATTERN:NAME: every file of cases/ names its table `cases`); another collision fails the compile.
UNITY_RENAME := cases/*:cases harness/targets/win_live/names.c:run_dir
UNITY_reference := $(REF_SRC)
UNITY_harness := $(HARNESS_SRC) $(HARNESS_POSIX_SRC)
UNITY_cases := $(CASE_SRC)
ifeq ($(UNITY),1)
REF_OBJ := $(BUILD)/unity/reference.o
HARNESS_OBJ := $(BUILD)/unity/harness.o
CASE_OBJ := $(BUILD)/unity/cases.o
endif
# the list, rewritten only when it changes (and kept: make would delete it as an intermediate file)
.PRECIOUS: $(BUILD)/unity/%.c
$(BUILD)/unity/%.c: FORCE
	@mkdir -p $(dir $@); set -f; i=0; for f in $(UNITY_$*); do i=$$((i + 1)) r=; \
	    for x in $(UNITY_RENAME); do case $$f in $${x%:*}) r="$$r $${x##*:}" ;; esac; done; \
	    for n in $$r; do echo "#define $$n $${n}_$$i"; done; echo "#include \"$$f\""; \
	    for n in $$r; do echo "#undef $$n"; done; done >$@.$$$$; \
	    cmp -s $@.$$$$ $@ && rm -f $@.$$$$ || mv -f $@.$$$$ $@
$(BUILD)/unity/reference.o: $(UNITY_reference)
$(BUILD)/unity/harness.o: $(UNITY_harness) $(BUILD)/gen/export_wine_runtime.h
$(BUILD)/unity/cases.o: $(UNITY_cases)
$(BUILD)/unity/%.o: $(BUILD)/unity/%.c $(HEADERS)
	$(CC) $(CFLAGS_PIC) $(CFLAGS) -c -o $@ $<

.PHONY: all deps run test lint clean help results FORCE
# the commit, for the results header (suite.git); record.o is rebuilt when it changes
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
# (written whole under a name of its own, then renamed: a make reading it meanwhile never sees it empty)
$(BUILD)/gitrev.txt: FORCE
	@mkdir -p $(BUILD); [ "$$(cat $@ 2>/dev/null)" = "$(GIT_REV)" ] || { echo "$(GIT_REV)" >$@.$$$$ && mv -f $@.$$$$ $@; }
$(BUILD)/obj/harness/out/record.o $(BUILD)/unity/harness.o: $(BUILD)/gitrev.txt
$(BUILD)/obj/harness/out/record.o $(BUILD)/unity/harness.o: CFLAGS += $(if $(GIT_REV),-DETWCONF_GIT='"$(GIT_REV)"')
all: $(BUILD)/etwconf $(BUILD)/libetwref.so $(BUILD)/libetwref.a $(BUILD)/lint.ok

help:
	@sed -n '3,15p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@sh .ci/deps.sh core $(DEPS)

# Every rule id as a C identifier, in catalogue order: RULE_ID(TQI_0B_EXACT_SIZE, "TQI.0B.EXACT_SIZE").
# Code cites rules as RID_TQI_0B_EXACT_SIZE, so a misspelt id is a compile error at its file:line.
# A generated file is written under a name of this make's own (.$$$$) and renamed over the target:
# two makes never share a temporary file, and a reader sees the old file or the new one, whole.
$(BUILD)/gen/rule_ids.def: spec/rules.def $(RULE_DEFS)
	@mkdir -p $(dir $@)
	@t=$@.$$$$; sed -n 's/^RULE("\([^"]*\)".*/\1/p' $(RULE_DEFS) | \
	    awk '{ s = $$1; gsub(/\./, "_", s); printf "RULE_ID(%s, \"%s\")\n", s, $$1 }' > $$t; \
	    bad=$$(sed -n 's/^RULE_ID(\([^,]*\),.*/\1/p' $$t | grep -v '^[A-Z0-9_]*$$'; \
	        sed -n 's/^RULE_ID(\([^,]*\),.*/\1/p' $$t | sort | uniq -d); \
	    if [ -n "$$bad" ]; then echo "spec/rules: ids that are not FAMILY.AREA.NAME in [A-Z0-9_] or map to one identifier: $$bad" >&2; \
	        rm -f $$t; exit 1; fi; \
	    mv -f $$t $@

$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_PIC) $(CFLAGS) -c -o $@ $<

$(BUILD)/libetwref.a: $(REF_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The shared library exports the Windows names and the EtwRef_* control API (reference/etwref.h).
$(BUILD)/libetwref.so: $(REF_OBJ)
	$(CC) -shared -Wl,-Bsymbolic -o $@ $^ -lpthread

CLI_OBJ := $(HARNESS_CLI_SRC:%.c=$(BUILD)/obj/%.o)
$(BUILD)/etwconf: $(HARNESS_OBJ) $(CASE_OBJ) $(CLI_OBJ) $(BUILD)/libetwref.a
	$(CC) -o $@ $(HARNESS_OBJ) $(CASE_OBJ) $(CLI_OBJ) $(BUILD)/libetwref.a $(LDLIBS_HARNESS)

# Every rule has a case, every case cites known rules, ids are unique: checked on every build.
$(BUILD)/lint.ok: $(BUILD)/etwconf
	$(BUILD)/etwconf lint
	@touch $@

lint: $(BUILD)/lint.ok

# ---------------------------------------------------------------- the main job
RESULTS := $(BUILD)/results
results: all
	@mkdir -p $(RESULTS)
	@$(BUILD)/etwconf run --target reference --emulate all --quiet --out-dir $(RESULTS); rc=$$?; \
	    if [ $$rc -gt 1 ]; then echo "etwconf run failed (exit $$rc)" >&2; exit $$rc; fi

# The main job: the reference results and the report. The steps fragments add (RUN_EXTRA, e.g. the
# Wine runs) are optional: each logs to BUILD/run/STEP.log; when one fails, the report is still
# built, and the last lines name the step, its log and what to do (RUN_HELP_STEP). The exit status
# is the main job's.
RUN_LOGS := $(BUILD)/run
run:
	@sh .ci/deps.sh core
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory results
	@mkdir -p $(RUN_LOGS); failed=""; \
	    for step in $(RUN_EXTRA); do \
	        { $(MAKE) --no-print-directory $$step 2>&1; echo $$? >$(RUN_LOGS)/$$step.rc; } | tee $(RUN_LOGS)/$$step.log; \
	        [ "$$(cat $(RUN_LOGS)/$$step.rc)" = 0 ] || failed="$$failed $$step"; \
	    done; \
	    $(MAKE) --no-print-directory report || exit $$?; \
	    for step in $$failed; do \
	        echo "run: the optional step '$$step' failed (exit $$(cat $(RUN_LOGS)/$$step.rc); its output: $(RUN_LOGS)/$$step.log)."; \
	        echo "     The report holds the results that exist; $$step's may be missing or from an earlier run."; \
	        $(foreach x,$(RUN_EXTRA),[ "$$step" != $(x) ] || echo "     $(RUN_HELP_$(x))";) \
	    done; \
	    [ -z "$$failed" ] || echo "run: reference results and report made; optional step(s) failed:$$failed"

# ---------------------------------------------------------------- tests
# Every test stage is a make target test-NAME; a fragment registers its own (TEST_STAGES += NAME) with
# its prerequisites, and a stage that must come after another stage names it (test-B: | test-A).
# `make test` makes them all in one make, TEST_JOBS jobs at a time (mk/stages.mk).
TEST_STAGES := abi scheduler unit conformance badtargets
# two more jobs than CPUs: several stages spend much of their time waiting (Wine, ssh, Chromium)
TEST_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 2 )))
# CPU-bound stages bounded by work run at a lower priority, in the time the others wait
TEST_NICE := mutate sanitize reports
# built before any stage starts: TEST_PREP for every stage, TEST_SETUP for those that name it
TEST_PREP := all
TEST_SETUP := winprep $(BUILD)/unit-tests
# The Wine stages run in prefixes of their own over the suite's (WINE_PREFIX_SHARED=1 tells fleet to
# leave the suite's wineserver alone); in a user's WINEPREFIX they take turns.
TEST_EXCLUSIVE := $(if $(WINEPREFIX),wine faults winci winetest fleet)
# Before the stages: the dependencies and Wine's 32-bit part (WINE32_INSTALL: no stage makes a Wine
# prefix while it is half there). The stages start the interpreter PYTHON names directly, also as
# python3 (BUILD/test/bin/python3 execs it), with -S: a version manager's shim doubles the cost of
# each of their many Python starts, and a site-packages .pth hook can add 40 ms to a start of 7.
# The suite's Python uses the standard library only, which -S also proves.
test:
	@sh .ci/deps.sh core $(TEST_DEPS)
	@$(WINE32_INSTALL)
	@py=$$($(PYTHON) -c 'import sys; print(sys.executable)' 2>/dev/null); \
	    case "$$py" in /*) ;; *) py=$$(command -v $(PYTHON)) ;; esac; \
	    bin=$(abspath $(BUILD))/test/bin; mkdir -p "$$bin"; \
	    printf '%s\n' '#!/bin/sh' '# make test: the interpreter itself, without site-packages (see the Makefile)' \
	        "exec \"$$py\" -S \"\$$@\"" >"$$bin/python3" && chmod +x "$$bin/python3"; \
	    PATH="$$bin:$$PATH" PYTHON="$$bin/python3" WINE_PREFIX_SHARED=$(if $(WINEPREFIX),0,1); \
	    export PATH PYTHON WINE_PREFIX_SHARED; $(TEST_RUN)

# make test starts the stages in the order they are registered: the longest ones first
include mk/windows.mk
include mk/twin.mk
include mk/mutate.mk
include mk/fleet.mk
include mk/winetest.mk
include mk/reports.mk
include mk/faults.mk
include mk/core-tests.mk
include mk/bench.mk
include mk/layers.mk
include mk/scenarios.mk
include mk/distros.mk

# run-extra: fragments add work to the main job (e.g. the Wine run when Wine is installed)
.PHONY: run-extra
run-extra: $(RUN_EXTRA)

# last: every stage is registered by now
include mk/stages.mk

clean:
	rm -rf $(BUILD)
