# mk/stages.mk - the test stages in one make (included after every fragment that registers a stage).
#
# A stage is a target test-NAME (TEST_STAGES += NAME). `make test` runs TEST_RUN: one make -k of
# every stage, TEST_JOBS jobs at a time, TEST_PREP first, then the summary (stages.sh --summary).
# A stage with another among its prerequisites (test-B: | test-A) starts after it, and is counted
# as skipped, with the reason, when that one failed or did not run.
# Each recipe line of a stage (`private`: not its prerequisites' lines) runs through stages.sh: by
# hand as sh -c LINE, under make test (STAGE_LOGS) into BUILD/test/NAME.log with its exit status
# and times beside it (TEST_NICE, TEST_EXCLUSIVE: nice, flock).
# Before that make, TEST_PREP and TEST_SETUP (what some stages share, e.g. the Windows builds) are
# built with every job: the compiles then take no slot from a running stage, and the stages that
# wait on them start sooner. Its failures count nowhere (BUILD/test/setup.log): the stages' make
# builds the same again, and a stage whose prerequisite fails is skipped, with the reason.
STAGES_SH ?= harness/tests/stages.sh
test-%: private .SHELLFLAGS = $(if $(filter $(@:test-%=%),$(TEST_STAGES)),$(STAGES_SH) $(@:test-%=%) \
    $(patsubst test-%,%,$(filter $(TEST_STAGES:%=test-%),$^ $|))) -c
$(TEST_STAGES:%=test-%): | $(TEST_PREP)
TEST_RUN = export STAGE_LOGS=$(abspath $(BUILD))/test; sh $(STAGES_SH) --start $(TEST_STAGES); \
    $(MAKE) -k -s -j$(TEST_JOBS) --no-print-directory $(TEST_PREP) $(TEST_SETUP) >$$STAGE_LOGS/setup.log 2>&1; \
    TEST_NICE="$(TEST_NICE)" TEST_EXCLUSIVE="$(TEST_EXCLUSIVE)" WINE_START_LOG=$$STAGE_LOGS/wine-starts.log \
        $(MAKE) -k -s -j$(TEST_JOBS) --output-sync=target --no-print-directory TEST_SETUP_DONE=1 $(TEST_STAGES:%=test-%); \
    TEST_JOBS=$(TEST_JOBS) sh $(STAGES_SH) --summary $$? $(TEST_STAGES)
