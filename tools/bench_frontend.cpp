// Front-end speed: parse + bind + normalise per TPC-H query (Google Benchmark).
// Baseline in the same run: parsing and binding alone, and parsing the schema
// alone (the fixed cost every query pays when loaded as its own script).
//
//   build/bench_frontend --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "grammar/sql.h"
#include "pipeline/session.h"
#include "rules/normalize.h"

using namespace rfguard;

namespace {

struct Corpus {
  std::string schema;
  std::vector<std::pair<std::string, std::string>> queries;  // name, SQL (views inlined before q15)
};

/// Splits the bundled TPC-H script into the schema part and one script per query.
const Corpus& tpch() {
  static const Corpus corpus = [] {
    Corpus c;
    std::ifstream in(RFGUARD_SOURCE_DIR "/corpus/examples/tpch.sql");
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    size_t first = text.find("-- name: ");
    c.schema = text.substr(0, first);
    std::string pending;  // a CREATE VIEW belongs to the query after it
    size_t pos = first;
    while (pos != std::string::npos) {
      size_t next = text.find("-- name: ", pos + 1);
      std::string chunk =
          text.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      size_t view = chunk.find("create view");
      std::string name = chunk.substr(9, chunk.find('\n') - 9);
      if (view != std::string::npos) {
        c.queries.push_back({name, pending + chunk.substr(0, view)});
        pending = chunk.substr(view);
      } else {
        c.queries.push_back({name, pending + chunk});
        pending.clear();
      }
      pos = next;
    }
    return c;
  }();
  return corpus;
}

Catalog schemaCatalog() {
  Catalog catalog;
  std::vector<Query> none;
  Diagnostics diags;
  loadSql(tpch().schema, "tpch.sql", catalog, none, diags);
  return catalog;
}

void BM_SchemaOnly(benchmark::State& state) {
  for (auto _ : state) {
    Catalog catalog = schemaCatalog();
    benchmark::DoNotOptimize(catalog);
  }
}
BENCHMARK(BM_SchemaOnly);

/// Loads one TPC-H query over a copy of the schema, and normalises it when asked.
void run(benchmark::State& state, bool normaliseToo) {
  const auto& q = tpch().queries[state.range(0)];
  state.SetLabel(q.first);
  const Catalog base = schemaCatalog();
  for (auto _ : state) {
    Session session;  // the pipeline every front door runs
    Diagnostics diags;
    if (!session.loadAs(q.second, "q.sql", false, diags, base)) state.SkipWithError("did not bind");
    if (normaliseToo) session.normalize();
    benchmark::DoNotOptimize(session.queries());
  }
}

void BM_ParseBind(benchmark::State& state) {
  run(state, false);
}
void BM_ParseBindNormalise(benchmark::State& state) {
  run(state, true);
}

BENCHMARK(BM_ParseBind)->DenseRange(0, 21)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParseBindNormalise)->DenseRange(0, 21)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
