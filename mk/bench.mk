# mk/bench.mk - the benchmarks (bench/README.md).
#
#   make bench   the benchmarks of bench/README.md into $(BUILD)/bench/results.md (under 5 minutes)
#                BENCH_SKIP_FRESH=1  skips the fresh-clone `make test` figures (they are then reported as
#                                    "not measured" with that reason)
#                BENCH_FRESH_LIMIT=S stops the fresh-clone `make test` after S seconds (default 150; 0: no
#                                    limit) and reports "more than S s"
#                BENCH_ROUNDS=N      rounds per timing (default 7; medians of side-by-side samples)
BENCH_DIR := $(BUILD)/bench
BENCH_BIN := $(BENCH_DIR)/bin
BENCH_PROGS := $(BENCH_BIN)/timeit $(BENCH_BIN)/cti_bench $(BENCH_BIN)/isobench
MINGW64_CC ?= x86_64-w64-mingw32-gcc

.PHONY: bench bench-progs
# BENCH_T0: when `make bench` started, so that bench.sh keeps the whole of it under 5 minutes
bench:
	@t0=$$(date +%s); sh .ci/deps.sh --check core bench && $(MAKE) --no-print-directory all bench-progs && \
	    BENCH_T0=$$t0 BUILD="$(BUILD)" MAKE="$(MAKE)" MINGW64_CC="$(MINGW64_CC)" sh bench/bench.sh

bench-progs: $(BENCH_PROGS)

$(BENCH_BIN)/timeit: bench/timeit.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $<

$(BENCH_BIN)/cti_bench: bench/cti_bench.c bench/median.h $(BUILD)/libetwref.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< $(BUILD)/libetwref.a -lpthread

$(BENCH_BIN)/isobench: bench/isobench.c bench/median.h $(HARNESS_OBJ) $(CASE_OBJ) $(BUILD)/libetwref.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< $(HARNESS_OBJ) $(CASE_OBJ) $(BUILD)/libetwref.a $(LDLIBS_HARNESS)

# isobench for Windows / Wine, on the objects of etwconf.exe (mk/windows.mk); built by bench/wine.sh
BENCH_WIN_OBJ := $(filter-out $(BUILD)/win64/obj/harness/cli/%,$(WIN64_OBJ))
$(BENCH_BIN)/isobench.exe: bench/isobench.c bench/median.h $(BENCH_WIN_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(MINGW64_CC) $(WIN_CFLAGS) -o $@ $< $(BENCH_WIN_OBJ) -static $(WIN_LIBS)

# the Wine floor (built by bench/bench.sh only when the cross compiler is there)
$(BENCH_BIN)/hello.exe: bench/hello.c
	@mkdir -p $(dir $@)
	$(MINGW64_CC) -O2 -o $@ $<
