// Bounded verification figures (Google Benchmark), same run:
//   FirstCounterexample/<case>  time to refute each must-hold case of issue 5
//   Verify/<3|4>                time to verify a 3- and a 4-table query up to bound 3
//   EvaluatorDatabases[Cached] / SqliteDatabases
//                               databases per second for one query: the evaluator
//                               (alone, and with the lookup tables the search shares)
//                               against SQLite (load + query) on the same databases
//
//   build/bench_check --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fstream>
#include <sstream>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "verifier/bounded.h"
#include "verifier/plan_sql.h"
#include "verifier/sqlite_oracle.h"

using namespace rfguard;

namespace {

const char* kSchema =
    "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int); "
    "CREATE TABLE c (k int, v int); CREATE TABLE d (k int, v int);";

PlanPtr fromSql(const std::string& sql, Profile p) {
  SessionOptions so;
  so.filters = RfOptions(p);
  Session session(so);
  Diagnostics d;
  if (!session.loadAs(std::string(kSchema) + sql, "b.sql", false, d) || session.queries().empty())
    return nullptr;
  session.run();
  return session.queries()[0].query.plan;
}

PlanPtr fromJson(const std::string& rel) {
  std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/" + rel);
  std::stringstream buf;
  buf << in.rdbuf();
  Catalog cat;
  std::vector<Query> qs;
  Diagnostics d;
  if (!readPlanDocument(buf.str(), rel, cat, qs, d) || qs.empty()) return nullptr;
  return qs[0].plan;
}

PlanPtr mustHold(int i) {
  switch (i) {
    case 0:
      return fromJson("corpus/lint/coalesce_into_left_join.json");
    case 1:
      return fromSql("SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k",
                     Profile::StarRocks);
    case 2:
      return fromJson("corpus/check/left_anti_probe.json");
    case 3:
      return fromJson("corpus/check/not_in_probe.json");
    default:
      return fromJson("corpus/check/below_limit.json");
  }
}

void BM_FirstCounterexample(benchmark::State& state) {
  PlanPtr plan = mustHold(static_cast<int>(state.range(0)));
  BoundedOptions o;
  o.bound = 1;
  uint64_t dbs = 0;
  bool unsafe = false;
  for (auto _ : state) {
    auto v = checkFilters(*plan, o);
    dbs = v[0].databases;
    unsafe = !v[0].safe;
  }
  if (!unsafe) state.SkipWithError("no counterexample");
  state.counters["databases"] = static_cast<double>(dbs);
}

void BM_Verify(benchmark::State& state) {
  PlanPtr plan =
      state.range(0) == 3
          ? fromSql("SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k", Profile::Sound)
          : fromSql(
                "SELECT * FROM a JOIN b ON a.k = b.k LEFT JOIN c ON b.k = c.k "
                "JOIN d ON a.k = d.k",
                Profile::Sound);
  BoundedOptions o;
  o.bound = 3;
  o.seconds = 600;
  o.maxDatabases = 100000000;
  // state.range(1): 0 the whole plan, 1 per-filter slices (docs/check.md).
  const bool slices = state.range(1) == 1;
  o.method = slices ? BoundedOptions::Method::Slices : BoundedOptions::Method::Whole;
  uint64_t dbs = 0;
  bool ok = false;
  for (auto _ : state) {
    auto v = checkFilters(*plan, o);
    dbs = slices ? v[0].sliceDatabases : v[0].databases;
    ok = v[0].safe && (slices ? v[0].sliceBound == 3 : v[0].complete && v[0].bound == 3);
  }
  if (!ok) state.SkipWithError("not verified to bound 3");
  state.counters["databases"] = static_cast<double>(dbs);
}

/// The databases of a 3-table search at bound 2, for the throughput comparison.
struct Dbs {
  PlanPtr plan =
      fromSql("SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k", Profile::Sound);
  std::vector<rt::Database> dbs;
  Dbs() {
    std::vector<rt::Value> ks = {rt::null(), int64_t{1}, int64_t{2}};
    int64_t tag = 0;
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y)
        for (int z = 0; z < 4; ++z) {
          rt::Database db;
          int pick[3] = {x, y, z};
          const char* names[3] = {"a", "b", "c"};
          for (int t = 0; t < 3; ++t) {
            rt::Table tab{{"k", "v"}, {}};
            if (pick[t] < 3) tab.rows.push_back({ks[static_cast<size_t>(pick[t])], ++tag});
            db[names[t]] = tab;
          }
          dbs.push_back(db);
        }
  }
};

Dbs& dbs() {
  static Dbs d;
  return d;
}

void BM_EvaluatorDatabases(benchmark::State& state) {
  auto& d = dbs();
  for (auto _ : state)
    for (const auto& db : d.dbs) {
      rt::Relation r;
      std::string err;
      rt::evaluate(*d.plan, db, {}, r, err);
      benchmark::DoNotOptimize(r.rows.size());
    }
  state.counters["databases/s"] = benchmark::Counter(static_cast<double>(d.dbs.size()),
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

// As the bounded search runs it: one plan's lookup tables (column positions,
// resolved references, classified calls) built once and shared by every database.
void BM_EvaluatorDatabasesCached(benchmark::State& state) {
  auto& d = dbs();
  rt::EvalOptions o;
  o.cache = rt::newEvalCache();
  for (auto _ : state)
    for (const auto& db : d.dbs) {
      rt::Relation r;
      std::string err;
      rt::evaluate(*d.plan, db, o, r, err);
      benchmark::DoNotOptimize(r.rows.size());
    }
  state.counters["databases/s"] = benchmark::Counter(static_cast<double>(d.dbs.size()),
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

void BM_SqliteDatabases(benchmark::State& state) {
  auto& d = dbs();
  SqliteOracle oracle;
  std::string why;
  auto sql = planToSqlite(*d.plan, {}, &why);
  for (auto _ : state)
    for (const auto& db : d.dbs) {
      std::string err;
      std::vector<rt::Row> rows;
      oracle.load(db, err);
      oracle.query(*sql, rows, err);
      benchmark::DoNotOptimize(rows.size());
    }
  state.counters["databases/s"] = benchmark::Counter(static_cast<double>(d.dbs.size()),
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

// 0 coalesce (plan JSON), 1 StarRocks <=>, 2 LEFT ANTI probe, 3 NOT IN probe, 4 below LIMIT
BENCHMARK(BM_FirstCounterexample)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Verify)
    ->Args({3, 0})
    ->Args({4, 0})
    ->Args({3, 1})
    ->Args({4, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_EvaluatorDatabases)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EvaluatorDatabasesCached)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SqliteDatabases)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  rfguard::tuneHeapForSearch();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
