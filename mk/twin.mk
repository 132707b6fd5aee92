# mk/twin.mk - the Windows twin (harness/twin/): a model of Windows's ETW for etwconf.exe's live mode
# under Wine (harness/windows/README.md, "The Windows twin").
#
#   make twin       build/twin/etwtwin.dll (the reference's model and the controller functions the
#                   live target calls), etwtwin-i686.dll for etwconf-i686.exe, and
#                   build/twin/twinctl.exe (prints what a run left behind)
#   make test-twin  the "twin" test stage (harness/tests/twin.sh): the live target against the twin
#                   under Wine at several builds and with each personality, and planted bugs
TWIN_SRC := $(filter-out harness/twin/ctl.c,$(sort $(wildcard harness/twin/*.c)))
TWIN_CFLAGS := -std=gnu11 $(WARN) -O1 -I. -I$(BUILD)/gen -D_WIN32_WINNT=0x0A00 -DWINVER=0x0A00 $(WIN_LEAN)
TWIN_OBJ := $(TWIN_SRC:%.c=$(BUILD)/twin/obj/%.o) $(REF_SRC:%.c=$(BUILD)/twin/obj/%.o)
TWIN_HEADERS := $(wildcard harness/twin/*.h harness/twin/*.def reference/*.h) spec/abi.h spec/versions.def

# the i686 DLL is built from two unity builds (Makefile), the reference's and the twin's own files;
# the layers stage reads the per-file objects of the x86_64 one
UNITY_twin := $(TWIN_SRC)
TWIN32_OBJ := $(BUILD)/twin/win32/reference.o $(BUILD)/twin/win32/twin.o

.PHONY: twin test-twin
twin: $(BUILD)/twin/etwtwin.dll $(BUILD)/twin/etwtwin-i686.dll $(BUILD)/twin/twinctl.exe

# the reference's files with their API renamed (harness/twin/rename.h)
$(BUILD)/twin/obj/reference/%.o: reference/%.c $(TWIN_HEADERS)
	@mkdir -p $(dir $@)
	$(MINGW64) $(TWIN_CFLAGS) -include harness/twin/rename.h -c -o $@ $<

$(BUILD)/twin/obj/harness/twin/%.o: harness/twin/%.c $(TWIN_HEADERS)
	@mkdir -p $(dir $@)
	$(MINGW64) $(TWIN_CFLAGS) -c -o $@ $<

$(BUILD)/twin/etwtwin.dll: $(TWIN_OBJ)
	$(MINGW64) -shared -static -s -o $@ $^ -ladvapi32

# the same for etwconf-i686.exe (32-bit Windows, WOW64)
$(BUILD)/twin/win32/reference.o: $(BUILD)/unity/reference.c $(REF_SRC) $(TWIN_HEADERS)
	@mkdir -p $(dir $@)
	$(MINGW32) $(TWIN_CFLAGS) -include harness/twin/rename.h -c -o $@ $<

$(BUILD)/twin/win32/twin.o: $(BUILD)/unity/twin.c $(TWIN_SRC) $(TWIN_HEADERS)
	@mkdir -p $(dir $@)
	$(MINGW32) $(TWIN_CFLAGS) -c -o $@ $<

$(BUILD)/twin/etwtwin-i686.dll: $(TWIN32_OBJ)
	$(MINGW32) -shared -static -s -o $@ $^ -ladvapi32

$(BUILD)/twin/twinctl.exe: harness/twin/ctl.c
	@mkdir -p $(dir $@)
	$(MINGW64) $(TWIN_CFLAGS) -static -s -o $@ $<

TEST_STAGES += twin
# built by winprep with the other Windows programs, before the Wine stages start
test-twin: | winprep
winprep: $(if $(shell command -v $(MINGW64) 2>/dev/null),$(BUILD)/twin/etwtwin.dll $(BUILD)/twin/twinctl.exe) \
    $(if $(shell command -v $(MINGW32) 2>/dev/null),$(BUILD)/twin/etwtwin-i686.dll)
# the runs use the Wine stages' copies of the exes (WINE_EXE_DIR, mk/windows.mk: the full token)
test-twin: all $(BUILD)/etwconf.exe $(WINE_EXE_DIR)/etwconf.exe $(WINE_EXE_DIR)/win64-res.o $(BUILD)/twin/etwtwin.dll \
    $(BUILD)/twin/twinctl.exe $(BUILD)/win64/pch/exe/pch.h.gch \
    $(if $(shell command -v $(MINGW32) 2>/dev/null),$(WINE_EXE_DIR)/etwconf-i686.exe $(BUILD)/twin/etwtwin-i686.dll)
	@MAKE="$(MAKE)" PYTHON="$(PYTHON)" sh harness/tests/twin.sh "$(BUILD)"

# a planted bug (harness/tests/twin.sh): etwconf.exe linked with one object built from a patched copy
# of its source, PLANT_SRC, in place of PLANT_OBJ, and the Wine stages' manifest; into PLANT_DIR
.PHONY: twin-plant
twin-plant:
	@$(MINGW64) $(WIN_CFLAGS) -Winvalid-pch -include $(BUILD)/win64/pch/exe/pch.h -DETWCONF_PROG='"etwconf.exe"' -c -o $(PLANT_DIR)/plant.o $(PLANT_SRC)
	@$(MINGW64) $(WIN_LDFLAGS) -o $(PLANT_DIR)/etwconf.exe $(filter-out $(PLANT_OBJ),$(WIN64_OBJ)) $(PLANT_DIR)/plant.o \
	    $(WINE_EXE_DIR)/win64-res.o $(WIN_LIBS)
