# mk/faults.mk - the "faults" test stage (harness/tests/faults.sh): fault injection against the
# runner, with the targets of harness/tests/bad/ and, under Wine, harness/windows/tests/.
.PHONY: test-faults
FAULT_TARGETS := $(patsubst harness/tests/bad/%.c,$(BUILD)/bad/%.so,$(wildcard harness/tests/bad/*.c))
TEST_STAGES += faults
test-faults: all $(FAULT_TARGETS) $(BUILD)/etwconf.exe $(BUILD)/etwconf-i686.exe $(BUILD)/wine-elevated/etwconf.exe $(WIN_TEST_DLLS) $(WIN32_TEST_DLLS)
	@PYTHON="$(PYTHON)" sh harness/tests/faults.sh $(BUILD)
