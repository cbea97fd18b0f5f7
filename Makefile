# llmtriage — quick start: `make demo`, then `make test`.
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=
GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build test test-fast sanitize tsan fuzz bench demo clean

all: build

deps:
	@scripts/install-deps

$(BUILD)/CMakeCache.txt:
	@scripts/install-deps
	cmake -S . -B $(BUILD) $(GEN) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	@scripts/install-deps
	cmake --build $(BUILD) -j$(JOBS)

# Every test through ctest (fast and slow labels); slow tests start real servers on 127.0.0.1.
# A clean build of the tests compiles in unity batches with precompiled headers (cmake/modules.cmake):
# about 13 min on 2 cores, ASan about 17 (docs/benchmarks.md, "CI build time").
test: $(BUILD)/CMakeCache.txt
	@scripts/install-deps --with-test-peers
	cmake --build $(BUILD) -j$(JOBS) --target llmtriage_tests
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test-fast: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS) --target llmtriage_tests
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) -L fast

# ASan + UBSan build of the tests (benchmarks off), at -O1 with line tables: the simulator-heavy tests crawl at -O0.
sanitize:
	@scripts/install-deps --with-test-peers
	cmake -S . -B build-asan $(GEN) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 -DLLMTRIAGE_SANITIZE=ON -DLLMTRIAGE_BENCH=OFF
	cmake --build build-asan -j$(JOBS) --target llmtriage_tests
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j$(JOBS) -E '$(SANITIZE_SKIP)'

# Left out of the sanitizer run: the accuracy floors over whole data sets (real incidents, the
# simulator against published results). They run the code paths the unit tests run, on hundreds
# of inputs: ~350 of its test-seconds (about 3 of its ~18 minutes at -j2); `make test` keeps them.
SANITIZE_SKIP ?= IncidentSet\.Floor|FidelityHeldOut\.|Fidelity\.FitSet

# ThreadSanitizer build of the tests of the modules that run threads.
tsan:
	@scripts/install-deps --with-test-peers
	cmake -S . -B build-tsan $(GEN) -DCMAKE_BUILD_TYPE=Debug -DLLMTRIAGE_TSAN=ON -DLLMTRIAGE_BENCH=OFF
	cmake --build build-tsan -j$(JOBS) --target llmtriage_tests
	ctest --test-dir build-tsan --output-on-failure -j$(JOBS) -L net

# libFuzzer targets in fuzz/, each for FUZZ_SECONDS on its seed corpus (clang, ASan+UBSan).
FUZZ_SECONDS ?= 20
FUZZ_TARGETS ?=
fuzz:
	@scripts/install-deps
	scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: build
	@scripts/install-deps --with-test-peers
	scripts/run-benchmarks $(BUILD)

demo: build
	@scripts/demo $(BUILD)

clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz
