// Runtime-filter planning time for join chains and stars of 8, 64 and 512
// tables (Google Benchmark). Baseline in the same run: normalisation of the
// same plans, which every planning run follows.
//
//   build/bench_planner --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <string>

#include "grammar/sql.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"

using namespace rfguard;

namespace {

/// t0 JOIN t1 ON t0.k = t1.k JOIN t2 ON t1.k = t2.k ...
std::string chain(int n) {
  std::string sql;
  for (int i = 0; i < n; ++i) sql += "CREATE TABLE t" + std::to_string(i) + " (k int, v int);";
  sql += "SELECT 1 FROM t0";
  for (int i = 1; i < n; ++i)
    sql += " JOIN t" + std::to_string(i) + " ON t" + std::to_string(i - 1) + ".k = t" +
           std::to_string(i) + ".k";
  return sql;
}

/// f JOIN d1 ON f.k1 = d1.k JOIN d2 ON f.k2 = d2.k ...
std::string star(int n) {
  std::string sql = "CREATE TABLE f (";
  for (int i = 1; i < n; ++i) sql += (i > 1 ? ", k" : "k") + std::to_string(i) + " int";
  sql += ");";
  for (int i = 1; i < n; ++i) sql += "CREATE TABLE d" + std::to_string(i) + " (k int, v int);";
  sql += "SELECT 1 FROM f";
  for (int i = 1; i < n; ++i)
    sql += " JOIN d" + std::to_string(i) + " ON f.k" + std::to_string(i) + " = d" +
           std::to_string(i) + ".k";
  return sql;
}

PlanPtr load(const std::string& sql) {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  SqlLimits limits;
  limits.maxTreeDepth = 100000;
  if (!loadSql(sql, "bench.sql", catalog, qs, diags, limits) || qs.size() != 1) return nullptr;
  return qs[0].plan;
}

void run(benchmark::State& state, const std::string& sql, bool planFilters) {
  PlanPtr bound = load(sql);
  if (!bound) {
    state.SkipWithError("query did not bind");
    return;
  }
  PlanPtr plan = clonePlan(*bound);
  NormalizeReport nr;
  normalize(plan, {}, nr);
  size_t filters = 0;
  for (auto _ : state) {
    if (planFilters) {
      RfReport report;
      planRuntimeFilters(*plan, report);
      filters = report.consumers.size();
    } else {
      PlanPtr copy = clonePlan(*bound);
      NormalizeReport r;
      normalize(copy, {}, r);
      benchmark::DoNotOptimize(copy);
    }
  }
  state.counters["consumers"] = static_cast<double>(filters);
}

void BM_PlanChain(benchmark::State& s) {
  run(s, chain(static_cast<int>(s.range(0))), true);
}
void BM_PlanStar(benchmark::State& s) {
  run(s, star(static_cast<int>(s.range(0))), true);
}
void BM_NormaliseChain(benchmark::State& s) {
  run(s, chain(static_cast<int>(s.range(0))), false);
}
void BM_NormaliseStar(benchmark::State& s) {
  run(s, star(static_cast<int>(s.range(0))), false);
}

BENCHMARK(BM_PlanChain)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlanStar)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormaliseChain)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormaliseStar)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
