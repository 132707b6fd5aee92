# mk/mutate.mk - proving that the suite catches wrong implementations.
#
#   make mutate     mutation testing: every mutant of tools/mutate/mutants.def is built as a
#                   target and run at every version; prints the score and the survivors
#                   (MUTATE_FILTER='tqi.* cti.*' for a subset, MUTATE_JOBS in parallel)
#   make fuzz       the libFuzzer targets of harness/tests/fuzz on the reference, FUZZ_SECONDS
#                   in all (default 60), under ASan and UBSan
#   make sanitize   the unit tests, the conformance run and a differential fuzz under ASan+UBSan
#                   (harness and reference built into $(SAN_BUILD)), and the ThreadSanitizer test
#
# Test stages (make test): thirdparty (the example implementation's report names its
# divergences), mutate (every mutant), mutate-anchors (the mutants survive a rename and a comment
# reflow of the reference, and the anchor checks catch a broken tag), fuzz (a short libFuzzer pass
# and the differential fuzzer against the reference and against mutants), sanitize.
MUTATE_JOBS ?= 2
MUTATE_FILTER ?= *
FUZZ_SECONDS ?= 60
FUZZ_TEST_SECONDS ?= 16
FUZZ_TARGETS := api traits
FUZZ_CC ?= clang
SAN_BUILD ?= $(BUILD)-san
SAN_CC ?= clang -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
TSAN_FLAGS := -std=c11 -g -O1 -I. -D_GNU_SOURCE -fsanitize=thread
FUZZ_FLAGS := -std=c11 -g -O1 -I. -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer

TEST_STAGES += thirdparty mutate mutate-anchors fuzz sanitize
TEST_DEPS += fuzz

.PHONY: mutate fuzz sanitize test-thirdparty test-mutate test-mutate-anchors test-fuzz test-sanitize

# ---------------------------------------------------------------- mutation testing
$(BUILD)/mutate/mutate: tools/mutate/mutate.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -o $@ $<

mutate: all $(BUILD)/mutate/mutate
	@MUT_BUILD=$(BUILD) MUT_CC="$(CC)" MUT_CFLAGS="$(CFLAGS_PIC) $(CFLAGS) -w -O0 -g0" MUT_JOBS=$(MUTATE_JOBS) \
	    MUT_FILTER='$(MUTATE_FILTER)' sh tools/mutate/run.sh

test-mutate: mutate

# the mutants are anchored to tags, not to text: a rename and a comment reflow break none
test-mutate-anchors: $(BUILD)/mutate/mutate
	@sh tools/mutate/test-anchors.sh $(BUILD)

# ---------------------------------------------------------------- the example third-party target
$(BUILD)/thirdparty/minimal.so: harness/tests/thirdparty/minimal.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o $@ $<

test-thirdparty: all $(BUILD)/thirdparty/minimal.so
	@sh harness/tests/thirdparty/test.sh $(BUILD)

# ---------------------------------------------------------------- libFuzzer targets
$(BUILD)/fuzz/fuzz_%: harness/tests/fuzz/fuzz_%.c $(REF_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(REF_SRC) -lpthread

fuzz:
	@sh .ci/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
	@sh harness/tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# a short libFuzzer pass, then the differential fuzzer against the reference and mutants
test-fuzz: all $(BUILD)/mutate/mutate
	@$(MAKE) --no-print-directory -s $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%) >/dev/null
	@rc=0; sh harness/tests/fuzz/run.sh $(BUILD) $(FUZZ_TEST_SECONDS) $(FUZZ_TARGETS) | tee $(BUILD)/fuzz/test.log || rc=1; \
	    CC="$(CC)" sh harness/tests/fuzz/diff.sh $(BUILD) 3 | tee -a $(BUILD)/fuzz/test.log || rc=1; \
	    p=$$(sed -n 's/^[a-z-]*: \([0-9]*\) passed.*/\1/p' $(BUILD)/fuzz/test.log | awk '{s += $$1} END {print s + 0}'); \
	    f=$$(sed -n 's/^[a-z-]*: [0-9]* passed, \([0-9]*\) failed.*/\1/p' $(BUILD)/fuzz/test.log | awk '{s += $$1} END {print s + 0}'); \
	    echo "fuzz-all: $$p passed, $$f failed"; exit $$rc

# ---------------------------------------------------------------- sanitizers
$(SAN_BUILD)/tsan_cti: harness/tests/tsan_cti.c $(REF_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(TSAN_FLAGS) -o $@ $< $(REF_SRC) -lpthread

sanitize:
	@sh .ci/deps.sh core fuzz
	@$(MAKE) --no-print-directory -s BUILD=$(SAN_BUILD) CC="$(SAN_CC)" OPT=-O1 all $(SAN_BUILD)/unit-tests >/dev/null
	@$(MAKE) --no-print-directory -s $(SAN_BUILD)/tsan_cti >/dev/null
	@sh harness/tests/fuzz/sanitize.sh $(SAN_BUILD) $(SAN_BUILD)/tsan_cti

test-sanitize: sanitize
