// Lint throughput on the bundled corpus (seeds, TPC-H, SSB: 45 queries), in
// plans per second (Google Benchmark). Four figures in the same run:
//   Verify       verifying the placements already made (the verifier alone)
//   PlanVerify   placing the profile's filters, then verifying (what lint does per plan)
//   Plan         placing the filters alone: the baseline PlanVerify is compared with
//   LintJudged   verifying with the second judge (the bounded check of each
//                finding), as lint runs by default; its counters are the
//                median and the slowest plan in milliseconds
//
//   build/bench_lint --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "grammar/sql.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "verifier/judge.h"
#include "verifier/verify.h"

using namespace rfguard;

namespace {

/// The normalised plans of the bundled example corpus, without filters.
const std::vector<PlanPtr>& corpus() {
  static const std::vector<PlanPtr> plans = [] {
    std::vector<PlanPtr> out;
    for (const char* f : {"seeds.sql", "tpch.sql", "ssb.sql"}) {
      std::ifstream in(std::string(RFGUARD_SOURCE_DIR "/corpus/examples/") + f);
      std::stringstream buf;
      buf << in.rdbuf();
      SessionOptions so;
      so.placeFilters = false;  // each benchmark places its own profile's filters on copies
      Session session(so);
      Diagnostics diags;
      session.loadAs(buf.str(), f, false, diags);
      session.run();
      for (const auto& q : session.queries()) out.push_back(q.query.plan);
    }
    return out;
  }();
  return plans;
}

std::vector<PlanPtr> placed(Profile p) {
  std::vector<PlanPtr> out;
  for (const auto& plan : corpus()) {
    PlanPtr copy = clonePlan(*plan);
    RfReport r;
    planRuntimeFilters(*copy, r, p);
    out.push_back(copy);
  }
  return out;
}

void BM_Verify(benchmark::State& state) {
  auto plans = placed(static_cast<Profile>(state.range(0)));
  size_t findings = 0;
  for (auto _ : state) {
    findings = 0;
    for (const auto& p : plans) findings += verifyRuntimeFilters(*p).size();
  }
  state.counters["plans/s"] = benchmark::Counter(static_cast<double>(plans.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate);
  state.counters["findings"] = static_cast<double>(findings);
}

void run(benchmark::State& state, bool verify) {
  Profile profile = static_cast<Profile>(state.range(0));
  std::vector<PlanPtr> plans;
  for (const auto& p : corpus()) plans.push_back(clonePlan(*p));
  for (auto _ : state) {
    for (auto& p : plans) {
      RfReport r;
      planRuntimeFilters(*p, r, profile);
      if (verify) benchmark::DoNotOptimize(verifyRuntimeFilters(*p));
    }
  }
  state.counters["plans/s"] = benchmark::Counter(static_cast<double>(plans.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_LintJudged(benchmark::State& state) {
  auto plans = placed(static_cast<Profile>(state.range(0)));
  std::vector<double> ms(plans.size());
  size_t findings = 0;
  for (auto _ : state) {
    findings = 0;
    for (size_t i = 0; i < plans.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      auto fs = verifyRuntimeFilters(*plans[i]);
      judgeFindings(*plans[i], fs);
      ms[i] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      findings += fs.size();
    }
  }
  std::vector<double> sorted = ms;  // the last iteration's per-plan times
  std::sort(sorted.begin(), sorted.end());
  state.counters["median_ms"] = sorted[sorted.size() / 2];
  state.counters["max_ms"] = sorted.back();
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["plans/s"] = benchmark::Counter(static_cast<double>(plans.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Plan(benchmark::State& s) {
  run(s, false);
}
void BM_PlanVerify(benchmark::State& s) {
  run(s, true);
}

// 0 sound, 2 starrocks (the profile with findings).
BENCHMARK(BM_Verify)->Arg(0)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Plan)->Arg(0)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanVerify)->Arg(0)->Arg(2)->Unit(benchmark::kMicrosecond);
// Every profile: 0 sound, 1 doris, 2 starrocks, 3 trino, 4 duckdb.
BENCHMARK(BM_LintJudged)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
