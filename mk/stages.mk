# mk/stages.mk - the test stages in one make (included after every fragment that registers a stage;
# the main README, "Tests, proofs and benchmarks", says how they are scheduled).
# `make test` runs TEST_RUN: a set-up make of TEST_PREP and TEST_SETUP with every job (its failures
# count nowhere: BUILD/test/setup.log), then one make -k of every stage, then the summary. Each
# recipe line of a stage (`private`: not its prerequisites' lines) runs through stages.sh: by hand
# as sh -c LINE, under make test (STAGE_LOGS) into BUILD/test/NAME.log with its status and times.
STAGES_SH ?= harness/tests/stages.sh
test-%: private .SHELLFLAGS = $(if $(filter $(@:test-%=%),$(TEST_STAGES)),$(STAGES_SH) $(@:test-%=%) \
    $(patsubst test-%,%,$(filter $(TEST_STAGES:%=test-%),$^ $|))) -c
$(TEST_STAGES:%=test-%): | $(TEST_PREP)
TEST_RUN = export STAGE_LOGS=$(abspath $(BUILD))/test; sh $(STAGES_SH) --start $(TEST_STAGES); \
    $(MAKE) -k -s -j$(TEST_JOBS) --no-print-directory $(TEST_PREP) $(TEST_SETUP) >$$STAGE_LOGS/setup.log 2>&1; \
    TEST_NICE="$(TEST_NICE)" TEST_EXCLUSIVE="$(TEST_EXCLUSIVE)" WINE_START_LOG=$$STAGE_LOGS/wine-starts.log \
        $(MAKE) -k -s -j$(TEST_JOBS) --output-sync=target --no-print-directory TEST_SETUP_DONE=1 $(TEST_STAGES:%=test-%); \
    TEST_JOBS=$(TEST_JOBS) sh $(STAGES_SH) --summary $$? $(TEST_STAGES)
