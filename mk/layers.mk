# mk/layers.mk - the "layers" test stage: the include rules between the harness's layers, no
# include cycle, no C source of the harness or the tools over 800 lines (harness/tests/layers.py).
.PHONY: test-layers
TEST_STAGES += layers
test-layers:
	@$(PYTHON) harness/tests/layers.py
