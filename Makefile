# Front door for humans and CI. Every target installs missing Debian packages
# first (as root, or through sudo), so a fresh Debian 12 machine needs nothing else.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
PACKAGES := cmake g++ make pkg-config antlr4 default-jre-headless libantlr4-runtime-dev \
  nlohmann-json3-dev doctest-dev libre2-dev libcli11-dev libsqlite3-dev libxxhash-dev \
  libbenchmark-dev sqlite3

.PHONY: deps build demo test asan bench format clean

deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	./$(BUILD)/rfguard plan corpus/examples/seeds.sql corpus/examples/tpch.sql corpus/examples/ssb.sql
	./$(BUILD)/rfguard lint corpus/examples/seeds.sql corpus/examples/tpch.sql corpus/examples/ssb.sql

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DRFGUARD_SANITIZE=ON -DRFGUARD_BENCHMARKS=OFF
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j$(JOBS)

bench: build
	./$(BUILD)/bench_frontend --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_planner --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_lint --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_runtime --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
	./$(BUILD)/bench_check --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
