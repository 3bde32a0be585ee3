# Front door for humans and CI. Every target installs missing Debian packages
# first (as root, or through sudo), so a fresh Debian 12 machine needs nothing else.
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc)
PACKAGES := cmake g++ make pkg-config antlr4 default-jre-headless libantlr4-runtime-dev \
  nlohmann-json3-dev doctest-dev libre2-dev libcli11-dev libsqlite3-dev libxxhash-dev \
  libbenchmark-dev sqlite3 libpq-dev libtomlplusplus-dev python3-yaml python3-jsonschema graphviz \
  zsh fish libmimalloc-dev libz3-dev
# The clang build with libFuzzer (make fuzz): Debian 12's clang and its runtimes.
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev

.PHONY: deps duckdb-deps fuzz-deps install-packages build build-cli install-cli demo test asan fuzz bench format clean

# DuckDB (engines/duckdb/): its shared library and C API header come from the npm
# registry, pinned in third_party/duckdb/package-lock.json. --ignore-scripts: the
# duckdb 1.4.4 package is there for its header only; its install script would
# fetch or compile a binary.
DUCKDB_DIR := third_party/duckdb
DUCKDB_STAMP := $(DUCKDB_DIR)/node_modules/.rfguard-installed

deps:
	@$(MAKE) --no-print-directory install-packages LIST="$(PACKAGES)"
	@$(MAKE) --no-print-directory duckdb-deps

duckdb-deps:
	@if [ ! -f $(DUCKDB_STAMP) ] || [ $(DUCKDB_DIR)/package-lock.json -nt $(DUCKDB_STAMP) ]; then \
	  command -v npm >/dev/null 2>&1 || $(MAKE) --no-print-directory install-packages LIST=npm; \
	  echo "installing DuckDB from the npm registry into $(DUCKDB_DIR)/node_modules"; \
	  (cd $(DUCKDB_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) && \
	  touch $(DUCKDB_STAMP); \
	fi

fuzz-deps:
	@$(MAKE) --no-print-directory install-packages LIST="$(FUZZ_PACKAGES)"

install-packages:
	@missing=""; for p in $(LIST); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

# The rfguard executable alone: what the demo, a container or a CI cache needs
# (make build and make test build the tests and benchmarks too).
build-cli: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS) --target rfguard

# The executable and DuckDB's library, which it loads from <prefix>/lib, under
# PREFIX: what a container image or a CI cache keeps (docs/ci.md). `cmake
# --install` after `make build` installs the library and headers too.
PREFIX ?= /usr/local
install-cli: build-cli
	install -D -m 755 $(BUILD)/rfguard $(PREFIX)/bin/rfguard
	install -D -m 644 $(DUCKDB_DIR)/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so \
	  $(PREFIX)/lib/libduckdb.so

demo: build-cli
	./$(BUILD)/rfguard plan corpus/examples/seeds.sql corpus/examples/tpch.sql corpus/examples/ssb.sql
	./$(BUILD)/rfguard lint corpus/examples/seeds.sql corpus/examples/tpch.sql corpus/examples/ssb.sql

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DRFGUARD_SANITIZE=ON -DRFGUARD_BENCHMARKS=OFF
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j$(JOBS)

# clang-14 with ASan + UBSan + libFuzzer: the whole test suite (as make asan runs
# it, optimised), then every fuzz target's regression inputs and FUZZ_SECONDS of
# fuzzing each (docs/fuzzing.md). CI runs this one sanitizer build, not make asan.
fuzz: deps fuzz-deps
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DRFGUARD_FUZZ=ON -DRFGUARD_BENCHMARKS=OFF
	cmake --build $(FUZZ_BUILD) -j$(JOBS)
	cd $(FUZZ_BUILD) && ctest --output-on-failure -j$(JOBS)
	fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# bench_planning runs twice: with the C library's malloc (the library in a host
# that keeps it) and with mimalloc preloaded (as the rfguard executable runs).
MIMALLOC_SO := $(firstword $(wildcard /usr/lib/*/libmimalloc.so.2))
bench: build
	./$(BUILD)/bench_planning --repetitions 30
	$(if $(MIMALLOC_SO),LD_PRELOAD=$(MIMALLOC_SO) ./$(BUILD)/bench_planning --repetitions 30)
	./$(BUILD)/bench_frontend --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_planner --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_lint --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_runtime --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_check --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_equiv
	python3 tools/bench_startup.py ./$(BUILD)/rfguard

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
