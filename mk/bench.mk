# mk/bench.mk - make bench [BENCH_ROUNDS=7]: the benchmarks of bench/README.md into
# $(BUILD)/bench/results.md.
BENCH_BIN := $(BUILD)/bench/bin
MINGW64_CC ?= x86_64-w64-mingw32-gcc

.PHONY: bench bench-progs
bench:
	@sh .ci/deps.sh --check core bench && $(MAKE) --no-print-directory all bench-progs && \
	    BUILD="$(BUILD)" MAKE="$(MAKE)" MINGW64_CC="$(MINGW64_CC)" sh bench/bench.sh

bench-progs: $(BENCH_BIN)/timeit $(BENCH_BIN)/cti_bench

$(BENCH_BIN)/timeit: bench/timeit.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $<

$(BENCH_BIN)/cti_bench: bench/cti_bench.c $(BUILD)/libetwref.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -o $@ $< $(BUILD)/libetwref.a -lpthread

# the Wine floor (built by bench/wine.sh only when the cross compiler is there)
$(BENCH_BIN)/hello.exe: bench/hello.c
	@mkdir -p $(dir $@)
	$(MINGW64_CC) -O2 -o $@ $<
