# mk/layers.mk - the "layers" test stage (harness/tests/layers.py): on the built objects' symbols
# (nm), no file uses a layer above its own and no files use each other in a circle; no C source of
# the harness or the tools is over 800 lines. It checks the Linux objects, which prep builds (make
# test builds nothing more for it), and the Windows objects and the twin's when they are there (make
# windows, make twin);
# in make test it runs after winprep, which builds those.
.PHONY: test-layers
TEST_STAGES += layers
TEST_AFTER += winprep:layers
LAYERS_OBJ_DIRS = $(BUILD)/obj $(wildcard $(BUILD)/win64/obj $(BUILD)/win32/obj $(BUILD)/twin/obj)
test-layers: $(HARNESS_OBJ) $(CASE_OBJ) $(CLI_OBJ) $(REF_OBJ)
	@$(PYTHON) harness/tests/layers.py $(LAYERS_OBJ_DIRS)
