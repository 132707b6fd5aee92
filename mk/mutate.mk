# mk/mutate.mk - proving that the suite catches wrong implementations (issue 5).
#
#   make mutate     mutation testing: every mutant of harness/mutate/mutants.def, built as a
#                   target and run at every version; prints the score and the survivors
#   make fuzz       libFuzzer targets on the reference (harness/tests/fuzz), FUZZ_SECONDS in all
#   make sanitize   the unit tests and the conformance run under ASan+UBSan (in build-san),
#                   and the ThreadSanitizer test of CreateTraceInstanceId
#
# Test stages: thirdparty (the example implementation gets a report naming its divergences),
# mutate (every mutant), fuzz (short libFuzzer pass + differential fuzz), sanitize.
MUTATE_JOBS ?= 2
MUTATE_FILTER ?= *

.PHONY: mutate test-mutate
$(BUILD)/mutate/mutate: harness/mutate/mutate.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -o $@ $<

mutate: all $(BUILD)/mutate/mutate
	@MUT_BUILD=$(BUILD) MUT_CC="$(CC)" MUT_CFLAGS="$(CFLAGS_PIC) $(CFLAGS) -w" MUT_JOBS=$(MUTATE_JOBS) \
	    MUT_FILTER='$(MUTATE_FILTER)' sh harness/mutate/run.sh

test-mutate: mutate

# ---------------------------------------------------------------- the example third-party target
.PHONY: test-thirdparty
$(BUILD)/thirdparty/minimal.so: harness/tests/thirdparty/minimal.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o $@ $<

test-thirdparty: all $(BUILD)/thirdparty/minimal.so
	@sh harness/tests/thirdparty/test.sh $(BUILD)
