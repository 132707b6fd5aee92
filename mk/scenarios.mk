# mk/scenarios.mk - the "scenarios" test stage (harness/tests/scenarios.sh): the client scenarios,
# against the reference and a hand-broken target (noprobe.so).
.PHONY: test-scenarios
TEST_STAGES += scenarios
SCEN_NOPROBE_SRC := harness/tests/scenarios/noprobe.c $(filter-out reference/trace.c,$(REF_SRC))
$(BUILD)/scen/noprobe.so: $(SCEN_NOPROBE_SRC) reference/trace.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_PIC) -shared -Wl,-Bsymbolic -o $@ $(SCEN_NOPROBE_SRC) -lpthread
test-scenarios: all $(BUILD)/scen/noprobe.so $(BUILD)/bad/crash.so
	@PYTHON="$(PYTHON)" sh harness/tests/scenarios.sh $(BUILD)
