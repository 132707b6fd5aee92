# mk/winetest.mk - Wine's test formats (README "Wine's test formats": etwconf-report winetest,
# etwconf export-wine) and their stage, make test-winetest (harness/tests/winetest.sh).
# The runner the exported test carries (tools/export_wine/runtime.inc) becomes a C string.
$(BUILD)/gen/export_wine_runtime.h: tools/export_wine/runtime.inc
	@mkdir -p $(dir $@)
	@sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@.$$$$ && mv -f $@.$$$$ $@
$(BUILD)/obj/tools/export_wine/export_wine.o $(BUILD)/win64/obj/tools/export_wine/export_wine.o \
    $(BUILD)/win32/obj/tools/export_wine/export_wine.o: $(BUILD)/gen/export_wine_runtime.h

.PHONY: test-winetest
TEST_STAGES += winetest
test-winetest: all $(BUILD)/bad/success.so $(BUILD)/bad/crash.so
	@PYTHON="$(PYTHON)" MINGW64="$(MINGW64)" MINGW32="$(MINGW32)" sh harness/tests/winetest.sh "$(BUILD)"
