# mk/core-tests.mk - the core test stages: abi, unit, conformance, badtargets.
TEST_STAGES += typed-refs grading testlib emptysets
.PHONY: test-abi test-unit test-conformance test-badtargets test-typed-refs test-grading \
    test-scheduler test-testlib test-emptysets
test-abi:
	@sh harness/tests/abi.sh
test-unit: $(BUILD)/unit-tests
	@$(BUILD)/unit-tests
test-conformance: all
	@sh harness/tests/conformance.sh $(BUILD)/etwconf "$(VERSIONS)"
test-badtargets: all $(BUILD)/bad/success.so $(BUILD)/bad/crash.so $(BUILD)/bad/hang.so $(BUILD)/bad/overrun.so
	@sh harness/tests/badtargets.sh $(BUILD)

$(BUILD)/bad/%.so: harness/tests/bad/%.c spec/abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -fPIC -shared -o $@ $<

UNIT_SRC := $(sort $(wildcard harness/tests/unit_*.c))
# the live Windows target's portable parts (name matching, fixture parameters, its answers to needs): tested here too
UNIT_SRC += harness/targets/win_live/names.c harness/targets/win_live/build.c harness/targets/win_live/needs.c
# the row printer's output, compiled: every printable row printed as C (harness/tests/rowprint_gen.c);
# harness/tests/unit_rowprint.c compares the compiled rows with the rows they were printed from
$(BUILD)/rowprint-gen: harness/tests/rowprint_gen.c harness/tests/rowprint_synthetic.h $(HARNESS_OBJ) $(CASE_OBJ) $(BUILD)/libetwref.a
	$(CC) $(CFLAGS_COMMON) -o $@ $< $(HARNESS_OBJ) $(CASE_OBJ) $(BUILD)/libetwref.a $(LDLIBS_HARNESS)
$(BUILD)/gen/rows_printed.c: $(BUILD)/rowprint-gen
	$(BUILD)/rowprint-gen >$@.tmp && mv $@.tmp $@
$(BUILD)/obj/gen/rows_printed.o: $(BUILD)/gen/rows_printed.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Werror -c -o $@ $<
$(BUILD)/unit-tests: $(UNIT_SRC) $(BUILD)/obj/gen/rows_printed.o $(HARNESS_OBJ) $(CASE_OBJ) $(BUILD)/libetwref.a
	$(CC) $(CFLAGS_COMMON) -o $@ $(UNIT_SRC) $(BUILD)/obj/gen/rows_printed.o $(HARNESS_OBJ) $(CASE_OBJ) $(BUILD)/libetwref.a $$(pkg-config --libs cunit 2>/dev/null || echo -lcunit) $(LDLIBS_HARNESS)

# a misspelt rule id fails the build at its file and line (harness/rule_id.h)
test-typed-refs: $(BUILD)/gen/rule_ids.def
	@sh harness/tests/typed_refs.sh $(BUILD)

# the grading audit (spec/grading-audit.md) agrees with the catalogue, and no counted check rests
# on a code its rule's sources do not give
test-grading: all
	@$(PYTHON) harness/tests/grading.py $(BUILD)/etwconf

# how make test runs the stages (mk/stages.mk, harness/tests/stages.sh), on made-up stages
test-scheduler:
	@sh harness/tests/stages_test.sh

# the helpers the stages share (harness/tests/lib.sh, wine-env.sh), on made-up commands
test-testlib:
	@sh harness/tests/testlib_test.sh

# every check over a set fails on an empty one: the stages' own check code on empty sets
test-emptysets: all $(BUILD)/mutate/mutate
	@PYTHON="$(PYTHON)" sh harness/tests/emptysets_test.sh $(BUILD)
