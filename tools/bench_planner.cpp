// Runtime-filter planning time for join chains and stars of 8, 64 and 512
// tables (Google Benchmark). Baseline in the same run: normalisation of the
// same plans, which every planning run follows. Join enumeration
// (rules/join_enum.h) on query graphs of the shapes JOB has: stars, chains,
// stars with cycles between dimensions (JOB's largest blocks have 17
// relations), and cliques (the worst case for DPccp).
//
//   build/bench_planner --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <string>

#include "grammar/sql.h"
#include "rules/join_enum.h"
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

/// Query graphs: 0 = star, 1 = chain, 2 = star with a cycle through every
/// other pair of dimensions, 3 = clique.
JoinGraph graph(int shape, int n) {
  JoinGraph g;
  for (int i = 0; i < n; ++i) g.rows.push_back(i == 0 ? 1e7 : 100.0 * i);
  auto edge = [&](int a, int b) {
    g.predicates.push_back({(RelSet{1} << a) | (RelSet{1} << b), 1.0 / (100.0 * (a + b + 1))});
  };
  for (int i = 1; i < n; ++i) {
    if (shape == 1) {
      edge(i - 1, i);
    } else {
      edge(0, i);
      if (shape == 2 && i % 2 == 0) edge(i - 1, i);
      if (shape == 3)
        for (int j = 1; j < i; ++j) edge(j, i);
    }
  }
  return g;
}

void BM_Enumerate(benchmark::State& state) {
  JoinGraph g = graph(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  JoinTree t;
  for (auto _ : state) {
    t = enumerateJoins(g);
    benchmark::DoNotOptimize(t);
  }
  state.counters["pairs"] = static_cast<double>(t.pairs);
  state.counters["dp"] = t.method == "dpccp" ? 1 : 0;
}

BENCHMARK(BM_Enumerate)
    ->ArgNames({"shape", "n"})
    ->ArgsProduct({{0, 1, 2}, {10, 14, 17}})
    ->Args({3, 10})
    ->Args({3, 12})
    ->Args({3, 14})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlanChain)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlanStar)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormaliseChain)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormaliseStar)->Arg(8)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
