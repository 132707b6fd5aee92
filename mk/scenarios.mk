# mk/scenarios.mk - the scenarios stage: every program of spec/programs.def has a client scenario,
# the reference passes them all at every version, and a hand-broken target fails the PerfView,
# pmctrace and DTrace scenarios at the step it breaks (harness/tests/scenarios.sh).
.PHONY: test-scenarios
TEST_STAGES += scenarios
SCEN_NOPROBE_SRC := harness/tests/scenarios/noprobe.c $(filter-out reference/trace.c,$(REF_SRC))
$(BUILD)/scen/noprobe.so: $(SCEN_NOPROBE_SRC) reference/trace.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_PIC) -shared -Wl,-Bsymbolic -o $@ $(SCEN_NOPROBE_SRC) -lpthread
test-scenarios: all $(BUILD)/scen/noprobe.so $(BUILD)/bad/crash.so
	@PYTHON="$(PYTHON)" sh harness/tests/scenarios.sh $(BUILD)
