// Time to a verdict of `rfguard equiv` per rewrite pair (Google Benchmark), the
// figure issue 44 asks for (VeriEQL, the anchor, reports seconds per pair):
//   Corpus/B  every pair of corpus/equiv/bug_reports.test and rewrites.test
//             at bound B (2 or 3)
//   Tpch/B    every step of the normalisation of the 22 TPC-H queries (a
//             query against itself with one rule applied) at bound B
// One iteration checks every pair once; the counters are the median and the
// slowest pair in milliseconds, the pairs, and how many were proven by the
// normal form, found equivalent, different or left inconclusive.
//
//   build/bench_equiv --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "grammar/sql.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"

using namespace rfguard;

namespace {

struct Pair {
  PlanPtr original, rewritten;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

/// The `equiv` cases of a corpus file: its schema block, then each case's two
/// statements (one per line), bound as plans.
std::vector<Pair> corpusPairs(const std::string& file) {
  std::istringstream in(slurp(std::string(RFGUARD_SOURCE_DIR "/corpus/equiv/") + file));
  std::string line, schema;
  std::vector<Pair> out;
  while (std::getline(in, line)) {
    if (line == "schema") {
      while (std::getline(in, line) && line != "----") schema += line + "\n";
      continue;
    }
    if (line.rfind("equiv", 0) != 0) continue;
    std::string a, b;
    std::getline(in, a);
    std::getline(in, b);
    Catalog c;
    std::vector<Query> qs;
    Diagnostics d;
    if (!loadSql(schema + a + "\n" + b + "\n", file, c, qs, d) || qs.size() != 2) continue;
    out.push_back({qs[0].plan, qs[1].plan});
  }
  return out;
}

const std::vector<Pair>& corpus() {
  static const std::vector<Pair> pairs = [] {
    auto p = corpusPairs("bug_reports.test");
    for (auto& q : corpusPairs("rewrites.test")) p.push_back(std::move(q));
    return p;
  }();
  return pairs;
}

/// Each step of each TPC-H query's normalisation, against the plan before it.
const std::vector<Pair>& tpch() {
  static const std::vector<Pair> pairs = [] {
    SessionOptions so;
    so.placeFilters = false;
    so.keepBound = true;
    Session s(so);
    Diagnostics d;
    s.loadAs(slurp(RFGUARD_SOURCE_DIR "/corpus/examples/tpch.sql"), "tpch.sql", false, d);
    s.run();
    std::vector<Pair> out;
    for (const auto& q : s.queries()) {
      if (!q.bound) continue;
      auto steps = normalisationTrace(*q.bound, {});
      for (size_t i = 1; i < steps.size(); ++i) out.push_back({steps[i - 1].plan, steps[i].plan});
    }
    return out;
  }();
  return pairs;
}

void run(benchmark::State& state, const std::vector<Pair>& pairs) {
  BoundedOptions o;
  o.bound = static_cast<int>(state.range(0));
  o.maxDatabases = 200000;  // a database budget alone: the same verdicts on any machine
  o.seconds = 1e9;
  o.solverSeconds = 10;  // Z3's resource count for about 10 s here (its watchdog at 20 s)
  std::vector<double> ms(pairs.size());
  size_t proven = 0, equivalent = 0, different = 0, open = 0;
  for (auto _ : state) {
    proven = equivalent = different = open = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      EquivResult r = checkRewrite(*pairs[i].original, *pairs[i].rewritten, o);
      ms[i] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      proven += !r.proof.empty();
      equivalent += r.proof.empty() && r.verdict == "equivalent";
      different += r.verdict == "different";
      open += r.verdict == "inconclusive" || r.verdict == "error";
    }
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["median_ms"] = sorted.empty() ? 0 : sorted[sorted.size() / 2];
  state.counters["max_ms"] = sorted.empty() ? 0 : sorted.back();
  state.counters["proven"] = static_cast<double>(proven);
  state.counters["equivalent"] = static_cast<double>(equivalent);
  state.counters["different"] = static_cast<double>(different);
  state.counters["open"] = static_cast<double>(open);
}

void BM_Corpus(benchmark::State& state) {
  run(state, corpus());
}
void BM_Tpch(benchmark::State& state) {
  run(state, tpch());
}

BENCHMARK(BM_Corpus)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Tpch)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
