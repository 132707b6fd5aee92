# mk/windows.mk - the Windows runner (harness/plat/win/, harness/targets/win_live/, harness/windows/README.md).
#
#   make windows    build/etwconf.exe (x86_64) and build/etwconf-i686.exe with mingw-w64
#   make wine       both exes under Wine at every version winecfg offers, headless, in the prefix
#                   build/wineprefix -> build/results/wine-[i686-]VERSION.jsonl
#   make test-wine  the "wine" test stage (harness/tests/wine.sh says what it checks)
#   make run-wine   make wine when Wine is installed (part of make run), or says how to get it
#   make wine-record  make wine, then record this Wine's results in reports/expectations/wine.json
#                   (README "Your Wine's results")
#
# Needs: sh .ci/deps.sh windows (gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 wine wine64).

MINGW64 ?= x86_64-w64-mingw32-gcc
MINGW32 ?= i686-w64-mingw32-gcc
WINDRES64 ?= x86_64-w64-mingw32-windres
WINDRES32 ?= i686-w64-mingw32-windres
WINE_VERSIONS ?= $(call VERSION_FIELD,4)

# the fuzzer needs the built-in reference, which the exe does not contain
WIN_SRC := $(filter-out tools/fuzz/%,$(HARNESS_SRC)) $(CASE_SRC) $(HARNESS_CLI_SRC) $(HARNESS_WIN_SRC)
# _WIN32_WINNT 0x0502: nothing newer than Server 2003 can be imported by accident (newer APIs are
# looked up with GetProcAddress). The exe tests the system it runs on: no reference is linked.
# WIN_LEAN: most of the compile time is windows.h; WIN32_LEAN_AND_MEAN and marking the x86
# intrinsics headers as read (nothing here uses them) leave a quarter of it. -O1: the exe's time
# goes to the system it tests, and -O2 costs a third more to compile.
WIN_LEAN := -DWIN32_LEAN_AND_MEAN -D_X86INTRIN_H_INCLUDED -D_EMMINTRIN_H_INCLUDED
WIN_CFLAGS := -std=c11 $(WARN) -Werror=int-conversion -O1 -I. -I$(BUILD)/gen -D_GNU_SOURCE -D_WIN32_WINNT=0x0502 -DWINVER=0x0502 \
    $(WIN_LEAN) -DETWCONF_DEFAULT_TARGET='"live"'
WIN_LDFLAGS := -static -s
WIN_LIBS := -ladvapi32
WIN_VERSION := $(shell sed -n 's/^\#define ETWCONF_VERSION "\([0-9.]*\)".*/\1/p' harness/core/core.h)

# etwconf.exe is linked from per-file objects (the layers stage reads them, the twin stage's planted
# bugs replace one); etwconf-i686.exe, of the same files, from one unity build (Makefile), which
# takes half the compile time: the portable files come first, windows.h is read once, after them
WIN64_OBJ := $(WIN_SRC:%.c=$(BUILD)/win64/obj/%.o)
UNITY_win := $(WIN_SRC)
WIN32_OBJ := $(BUILD)/win32/etwconf.o
# the Wine stages' copies of the exes (below)
WINE_EXE_DIR := $(BUILD)/wine-elevated
# the misbehaving DLL targets of harness/windows/tests/bad.c, one per name of its list BAD_DLLS
WIN_TEST_DLLS := $(patsubst %,$(BUILD)/win64/tests/%.dll,$(shell sed -n 's/^ *X(\([a-z_]*\)).*/\1/p' harness/windows/tests/bad.c))
# 32-bit builds of the DLLs that the faults stage runs with etwconf-i686.exe where Wine runs 32-bit
# programs (wine_i686_faults in harness/tests/faults.sh: a DLL named there and missing here fails it);
# any other builds with make BUILD/win32/tests/NAME.dll
WIN32_FAULT_DLLS := crash overrun exitprocess overflow spin
WIN32_TEST_DLLS := $(WIN32_FAULT_DLLS:%=$(BUILD)/win32/tests/%.dll)

.PHONY: windows wine test-wine run-wine
windows: $(BUILD)/etwconf.exe $(BUILD)/etwconf-i686.exe

# <windows.h> precompiled (harness/plat/win/pch.h) for etwconf.exe's per-file objects. The files that
# include windows.h, through win.h or live.h, are given it first with -include; the others (the
# portable ones) never see windows.h. A file missing from this list still builds right, only slower.
WIN_PCH_SRC := $(shell grep -l -e '^\#include <windows.h>' -e '^\#include "harness/plat/win/win.h"' \
    -e '^\#include "harness/targets/win_live/live.h"' $(WIN_SRC))
# $* is 64 or 32: the compiler is MINGW64 or MINGW32
$(BUILD)/win%/pch/exe/pch.h.gch: harness/plat/win/pch.h
	@mkdir -p $(dir $@)
	@cp $< $(dir $@)pch.h
	$(MINGW$*) $(WIN_CFLAGS) -x c-header -o $@ $(dir $@)pch.h

$(WIN_PCH_SRC:%.c=$(BUILD)/win64/obj/%.o): $(BUILD)/win64/pch/exe/pch.h.gch
$(WIN_PCH_SRC:%.c=$(BUILD)/win64/obj/%.o): WIN_PCH_USE := -Winvalid-pch -include $(BUILD)/win64/pch/exe/pch.h

$(BUILD)/win64/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(MINGW64) $(WIN_CFLAGS) $(WIN_PCH_USE) $(WIN_EXTRA) -DETWCONF_PROG='"etwconf.exe"' -c -o $@ $<

$(WIN32_OBJ): $(BUILD)/unity/win.c $(WIN_SRC) $(HEADERS) $(BUILD)/gen/export_wine_runtime.h
	@mkdir -p $(dir $@)
	$(MINGW32) $(WIN_CFLAGS) $(WIN_EXTRA) -DETWCONF_PROG='"etwconf-i686.exe"' -c -o $@ $<

# the commit in the results header (suite.git), as for the Linux build (Makefile: GIT_REV)
$(BUILD)/win64/obj/harness/out/record.o $(WIN32_OBJ): $(BUILD)/gitrev.txt
$(BUILD)/win64/obj/harness/out/record.o $(WIN32_OBJ): WIN_EXTRA += $(if $(GIT_REV),-DETWCONF_GIT='"$(GIT_REV)"')

# the resource script reads its version numbers from a generated header
$(BUILD)/win64/etwconf-version.h: harness/core/core.h
	@mkdir -p $(dir $@)
	@v="$(WIN_VERSION)"; n=$$(echo "$$v" | tr . ,); \
	printf '#define ETWCONF_RC_VERSION %s,0\n#define ETWCONF_RC_VERSION_STR "%s"\n' "$$n" "$$v" >$@.$$$$ && mv -f $@.$$$$ $@

# $* is 64 or 32
$(BUILD)/win%/etwconf-res.o: harness/windows/etwconf.rc harness/windows/etwconf.manifest $(BUILD)/win64/etwconf-version.h
	@mkdir -p $(dir $@)
	$(WINDRES$*) -I harness/windows -I $(BUILD)/win64 -O coff -o $@ $<

$(BUILD)/etwconf.exe: $(BUILD)/win64/etwconf-res.o
$(BUILD)/etwconf-i686.exe: $(BUILD)/win32/etwconf-res.o
$(BUILD)/etwconf.exe $(WINE_EXE_DIR)/etwconf.exe: $(WIN64_OBJ)
	$(MINGW64) $(WIN_LDFLAGS) -o $@ $^ $(WIN_LIBS)
$(BUILD)/etwconf-i686.exe $(WINE_EXE_DIR)/etwconf-i686.exe: $(WIN32_OBJ)
	$(MINGW32) $(WIN_LDFLAGS) -Wl,--large-address-aware -o $@ $^ $(WIN_LIBS)

# The Wine stages' copies of the two exes, BUILD/wine-elevated/: the same objects, linked with a
# manifest that asks for highestAvailable (README "Your Wine's results"), not requireAdministrator:
# an account without a full token still runs them, and the records say which token they got.
WINE_EXES := $(WINE_EXE_DIR)/etwconf.exe $(WINE_EXE_DIR)/etwconf-i686.exe
$(WINE_EXE_DIR)/manifest/etwconf.manifest: harness/windows/etwconf.manifest
	@mkdir -p $(dir $@)
	@sed 's/level="asInvoker"/level="highestAvailable"/' $< >$@.$$$$ && grep -q 'level="highestAvailable"' $@.$$$$ && mv $@.$$$$ $@ || \
	    { rm -f $@.$$$$; echo "$<: no requestedExecutionLevel asInvoker to turn into highestAvailable" >&2; exit 1; }

# $* is 64 or 32; the manifest directory comes first, so windres takes its etwconf.manifest
$(WINE_EXE_DIR)/win%-res.o: harness/windows/etwconf.rc $(WINE_EXE_DIR)/manifest/etwconf.manifest $(BUILD)/win64/etwconf-version.h
	$(WINDRES$*) -I $(WINE_EXE_DIR)/manifest -I harness/windows -I $(BUILD)/win64 -O coff -o $@ $<

$(WINE_EXE_DIR)/etwconf.exe: $(WINE_EXE_DIR)/win64-res.o
$(WINE_EXE_DIR)/etwconf-i686.exe: $(WINE_EXE_DIR)/win32-res.o

# the misbehaving DLL targets for the platform checks of the wine and faults stages: one object per
# architecture, linked under each name (it does what its name says); slowreset.dll alone also
# exports EtwRef_Reset. 32-bit: stdcall exports under their plain names (--kill-at), as Windows'
# own DLLs export them.
WIN_DLL_CFLAGS := -std=gnu11 $(WARN) -O1 -I. $(WIN_LEAN)
.SECONDARY: $(BUILD)/win64/tests/bad.o $(BUILD)/win32/tests/bad.o
$(BUILD)/win%/tests/bad.o: harness/windows/tests/bad.c spec/abi.h
	@mkdir -p $(dir $@)
	$(MINGW$*) $(WIN_DLL_CFLAGS) -c -o $@ $<
$(BUILD)/win%/tests/reset.def:
	@mkdir -p $(dir $@); printf 'EXPORTS\nEtwRef_Reset\n' >$@
$(BUILD)/win64/tests/slowreset.dll: $(BUILD)/win64/tests/reset.def
$(BUILD)/win32/tests/slowreset.dll: $(BUILD)/win32/tests/reset.def
$(BUILD)/win64/tests/%.dll: $(BUILD)/win64/tests/bad.o
	$(MINGW64) -shared -s -o $@ $^
$(BUILD)/win32/tests/%.dll: $(BUILD)/win32/tests/bad.o
	$(MINGW32) -shared -s -Wl,--kill-at -o $@ $^

# ---------------------------------------------------------------- Wine
wine: $(BUILD)/etwconf.exe $(BUILD)/etwconf-i686.exe $(WINE_EXES)
	@sh harness/tests/wine.sh run "$(BUILD)" "$(WINE_VERSIONS)"

TEST_STAGES += wine
TEST_DEPS += windows
# winprep builds what the Wine stages share and makes the suite's prefix (test-prep-wine) meanwhile;
# the Wine stages come after it, so that the builds their recipes start find it all made.
WINPREP_FILES := $(if $(shell command -v $(MINGW64) 2>/dev/null),$(BUILD)/etwconf.exe $(WINE_EXE_DIR)/etwconf.exe $(WIN_TEST_DLLS)) \
    $(if $(shell command -v $(MINGW32) 2>/dev/null),$(BUILD)/etwconf-i686.exe $(WINE_EXE_DIR)/etwconf-i686.exe $(WIN32_TEST_DLLS))
.PHONY: winprep
winprep: $(WINPREP_FILES) $(if $(shell command -v "$(or $(WINE),wine)" 2>/dev/null),test-prep-wine)
test-wine test-winetest test-faults test-winci test-fleet: | winprep
# run alone, the stage makes the prefix (about 5 s of waiting on wineboot) while the executables
# build; under make test the set-up make has made it (TEST_SETUP_DONE).
WINE_TEST_FILES := $(BUILD)/etwconf.exe $(BUILD)/etwconf-i686.exe $(WINE_EXES) $(WIN_TEST_DLLS)
# WINE32_INSTALL, run by make test before any stage starts: Wine's 32-bit part, when this machine
# runs i386 code (.ci/deps.sh wine32). A failure only skips the 32-bit runs, with the reason, and is
# not retried in this build directory while its log is there. WINE32=0: not tried.
WINE32_INSTALL = mkdir -p $(BUILD)/test/wine; [ "$${WINE32:-1}" = 0 ] || grep -qs 'apt-get install failed' $(BUILD)/test/wine/wine32-deps.log || \
    sh .ci/deps.sh wine32 >$(BUILD)/test/wine/wine32-deps.log 2>&1 || true
test-wine:
	@mkdir -p $(BUILD)/test/wine; { [ -n "$(TEST_SETUP_DONE)" ] || \
	      sh harness/tests/wine.sh prefix "$(BUILD)" >$(BUILD)/test/wine/prefix.log 2>&1; } & p=$$!; \
	    $(MAKE) --no-print-directory -s $(if $(filter -j%,$(MAKEFLAGS)),,-j2) $(WINE_TEST_FILES) $(BUILD)/etwconf >$(BUILD)/test/wine/build.log 2>&1 || \
	        cat $(BUILD)/test/wine/build.log; \
	    wait $$p || cat $(BUILD)/test/wine/prefix.log; \
	    MAKE="$(MAKE)" PYTHON="$(PYTHON)" sh harness/tests/wine.sh test "$(BUILD)" "$(WINE_VERSIONS)"

# The suite's own prefix, made (or found current) by winprep, its wineserver then stopped so that
# its registry is on disk: the other Wine stages run in prefixes of their own over it (wine_overlay,
# harness/tests/wine-env.sh). Under make test the set-up make has done it (TEST_SETUP_DONE).
.PHONY: test-prep-wine
test-prep-wine:
	@[ -n "$(TEST_SETUP_DONE)" ] || { mkdir -p $(BUILD)/test/wine; \
	    sh harness/tests/wine.sh prefix "$(BUILD)" >$(BUILD)/test/wine/prefix.log 2>&1 || cat $(BUILD)/test/wine/prefix.log; \
	    B="$(BUILD)"; . harness/tests/wine-env.sh; timeout 20 "$$WINESERVER" -k >/dev/null 2>&1; timeout 30 "$$WINESERVER" -w >/dev/null 2>&1; true; }

.PHONY: wine-record
wine-record: wine
	@$(PYTHON) reports/etwconf-report update-expectations --impl wine \
	    --out reports/expectations/wine.json $(wildcard $(BUILD)/results/wine-*.jsonl)
	@git diff --stat -- reports/expectations/ 2>/dev/null; echo "wine-record: review 'git diff reports/expectations/' and write each \"TODO: explain\""

RUN_EXTRA += run-wine
RUN_HELP_run-wine = 'make wine' runs it alone (which Wine and prefix: WINE, WINEPREFIX, see harness/tests/wine.sh); 'make run RUN_EXTRA=' leaves it out.
run-wine:
	@if command -v "$${WINE:-wine}" >/dev/null 2>&1 && command -v $(MINGW64) >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory wine; \
	else \
	    echo "run-wine: Wine runs skipped: Wine and mingw-w64 are not installed."; \
	    echo "          Install them with 'sh .ci/deps.sh windows' (as root), then 'make run' includes build/results/wine-*.jsonl."; \
	fi
