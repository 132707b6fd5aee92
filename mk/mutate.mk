# mk/mutate.mk - proving that the suite catches wrong implementations (tools/mutate/README.md):
#   make mutate     every mutant of tools/mutate/mutants.def run as a target at every version
#                   (MUTATE_FILTER='tqi.* cti.*' for a subset, MUTATE_JOBS in parallel)
#   make fuzz       the libFuzzer targets of harness/tests/fuzz, FUZZ_SECONDS in all (default 60)
#   make sanitize   the unit tests, the conformance run and a differential fuzz under ASan+UBSan
#                   (the harness and the reference built into $(SAN_BUILD)), and the TSan test
MUTATE_JOBS ?= 2
MUTATE_FILTER ?= *
FUZZ_SECONDS ?= 60
# the fuzz stage's libFuzzer pass: FUZZ_TEST_RUNS inputs per target, a fixed seed (make fuzz is
# the long run, bounded by the clock)
FUZZ_TEST_RUNS ?= 10000
# the differential fuzz under ASan: make sanitize fuzzes for SAN_FUZZ_SECONDS; the sanitize stage
# makes SAN_FUZZ_TEST_CALLS calls of seed SAN_FUZZ_SEED (the same programs on a busy machine as on
# an idle one). Seed 5's first 150000 calls reach every line and branch of the reference library
# and of the harness (but its platform timers) that seed 2's first 500000 reach (clang
# source-based coverage; a million calls of seed 2 reach one line more)
SAN_FUZZ_SECONDS ?= 5
SAN_FUZZ_TEST_CALLS ?= 150000
SAN_FUZZ_SEED ?= 5
FUZZ_TARGETS := api traits
FUZZ_CC ?= clang
SAN_BUILD ?= $(BUILD)-san
SAN_CC ?= clang -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# the instrumented builds are -O0: a third to a half of the compile time of -O1 (10000 libFuzzer
# inputs run in about the same time), and every memory access is instrumented (none optimized
# away); line tables are all a sanitizer report needs
SAN_OPT ?= -O0 -gline-tables-only
TSAN_FLAGS := -std=c11 -g -O0 -I. -D_GNU_SOURCE -fsanitize=thread
FUZZ_FLAGS := -std=c11 -g -O0 -I. -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -fno-omit-frame-pointer

TEST_STAGES += thirdparty mutate mutate-anchors fuzz sanitize
TEST_DEPS += fuzz

.PHONY: mutate fuzz sanitize test-thirdparty test-mutate test-mutate-anchors test-fuzz test-sanitize

# ---------------------------------------------------------------- mutation testing
$(BUILD)/mutate/mutate: tools/mutate/mutate.py
	@mkdir -p $(dir $@)
	cp $< $@ && chmod +x $@

# make checks the mutants on every build: every counted rule has a mutant, every tag names a rule
# and every mutant applies once on its tagged line (a MUST rule without a mutant fails the build)
all: $(BUILD)/mutants.ok
$(BUILD)/mutants.ok: $(BUILD)/mutate/mutate tools/mutate/mutants.def $(REF_SRC) \
    $(wildcard reference/*.h) spec/rules.def $(RULE_DEFS)
	$(BUILD)/mutate/mutate check tools/mutate/mutants.def
	@touch $@

mutate test-mutate: all $(BUILD)/mutate/mutate
	@MUT_BUILD=$(BUILD) MUT_CC="$(CC)" MUT_CFLAGS="$(CFLAGS_PIC) $(CFLAGS) -w -O0 -g0" \
	    MUT_JOBS=$(MUTATE_JOBS) MUT_FILTER='$(MUTATE_FILTER)' sh tools/mutate/run.sh

# the mutants are anchored to tags, not to text: a rename and a comment reflow break none
test-mutate-anchors:
	@$(PYTHON) tools/mutate/test-anchors.py $(BUILD)

# ---------------------------------------------------------------- the example third-party target
$(BUILD)/thirdparty/minimal.so: harness/tests/thirdparty/minimal.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o $@ $<

test-thirdparty: all $(BUILD)/thirdparty/minimal.so
	@sh harness/tests/thirdparty/test.sh $(BUILD)

# ---------------------------------------------------------------- libFuzzer targets
# the reference is compiled once (instrumented for coverage and the sanitizers) for every target,
# as one translation unit (Makefile: unity builds)
FUZZ_REF_OBJ := $(BUILD)/fuzz/reference.o
$(FUZZ_REF_OBJ): $(BUILD)/unity/reference.c $(REF_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

$(BUILD)/fuzz/fuzz_%: harness/tests/fuzz/fuzz_%.c $(FUZZ_REF_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_REF_OBJ) -lpthread

fuzz:
	@sh .ci/deps.sh --check fuzz
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
	@sh harness/tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# a short libFuzzer pass, then the differential fuzzer against the reference and mutants
test-fuzz: all $(BUILD)/mutate/mutate $(BUILD)/bad/hang.so $(BUILD)/bad/stack.so
	@$(MAKE) --no-print-directory -s $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%) >/dev/null
	@CC="$(CC)" sh harness/tests/fuzz/test.sh $(BUILD) $(FUZZ_TEST_RUNS) $(FUZZ_TARGETS)

# ---------------------------------------------------------------- sanitizers
$(SAN_BUILD)/tsan_cti: harness/tests/tsan_cti.c $(BUILD)/unity/reference.c $(REF_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(TSAN_FLAGS) -o $@ $< $(BUILD)/unity/reference.c -lpthread

# only what sanitize.sh runs is built instrumented (not the lint and mutant checks of `all`), the
# harness and the reference each as one translation unit (Makefile: unity builds)
sanitize:
	@sh .ci/deps.sh --check core fuzz
	@$(MAKE) --no-print-directory -s BUILD=$(SAN_BUILD) SAN_BUILD=$(SAN_BUILD) CC="$(SAN_CC)" OPT="$(SAN_OPT)" UNITY=1 \
	    $(addprefix $(SAN_BUILD)/,etwconf libetwref.so unit-tests tsan_cti) >/dev/null
	@SAN_FUZZ_SECONDS=$(SAN_FUZZ_SECONDS) SAN_FUZZ_CALLS=$(SAN_FUZZ_CALLS) SAN_FUZZ_SEED=$(SAN_FUZZ_SEED) \
	    sh harness/tests/fuzz/sanitize.sh $(SAN_BUILD) $(SAN_BUILD)/tsan_cti

test-sanitize:
	@$(MAKE) --no-print-directory sanitize SAN_FUZZ_CALLS=$(SAN_FUZZ_TEST_CALLS)
