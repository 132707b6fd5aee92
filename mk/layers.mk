# mk/layers.mk - the "layers" test stage (harness/tests/layers.py says what it checks). It reads the
# Linux objects (its prerequisites) and the Windows and twin objects when they are there; in make
# test it runs after winprep, which builds those.
.PHONY: test-layers
TEST_STAGES += layers
test-layers: | winprep
LAYERS_OBJ_DIRS = $(BUILD)/obj $(wildcard $(BUILD)/win64/obj $(BUILD)/win32/obj $(BUILD)/twin/obj)
test-layers: $(HARNESS_OBJ) $(CASE_OBJ) $(CLI_OBJ) $(REF_OBJ)
	@$(PYTHON) harness/tests/layers.py $(LAYERS_OBJ_DIRS)
