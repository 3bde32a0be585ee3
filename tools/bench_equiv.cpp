// Time to a verdict of `rfguard equiv` per rewrite pair (Google Benchmark), the
// figure issue 44 asks for (VeriEQL, the anchor, reports seconds per pair):
//   Corpus/B  every pair of corpus/equiv/bug_reports.test and rewrites.test
//             at bound B (2 or 3)
//   Tpch/B    every step of the normalisation of the 22 TPC-H queries (a
//             query against itself with one rule applied) at bound B
//   Rules/B   every pair of the rule suites, corpus/equiv/rules/*.test (issue
//             49), at bound B; also `unsound_refuted` (the sound=false pairs
//             refuted), `unsupported` (a pair that does not load), and after
//             the run the laws the proofs used, counted
// One iteration checks every pair once; the counters are the median and the
// slowest pair in milliseconds, the pairs, and how many were proven by the
// normal form, found equivalent, different or left inconclusive.
//
//   build/bench_equiv --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "grammar/sql.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"

using namespace rfguard;

namespace {

struct Pair {
  PlanPtr original, rewritten;
  int sound = -1;  ///< a rule suite's sound= (1 or 0), -1 elsewhere
};

size_t unsupported = 0;                  // rule-suite pairs that did not load
std::map<std::string, size_t> lawsUsed;  // over the last Rules run

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

/// The `equiv` cases of a corpus file: its schema block, then each case's two
/// statements (one per line), bound as plans.
std::vector<Pair> corpusPairs(const std::string& file) {
  std::istringstream in(slurp(file));
  std::string line, schema;
  std::vector<Pair> out;
  while (std::getline(in, line)) {
    if (line == "schema") {
      while (std::getline(in, line) && line != "----") schema += line + "\n";
      continue;
    }
    // The directive, not an expected "equivalent ..." line.
    if (line != "equiv" && line.rfind("equiv ", 0) != 0) continue;
    const int sound = line.find("sound=true") != std::string::npos    ? 1
                      : line.find("sound=false") != std::string::npos ? 0
                                                                      : -1;
    std::string a, b;
    std::getline(in, a);
    std::getline(in, b);
    Catalog c;
    std::vector<Query> qs;
    Diagnostics d;
    if (!loadSql(schema + a + "\n" + b + "\n", file, c, qs, d) || qs.size() != 2) {
      unsupported += sound >= 0;
      continue;
    }
    out.push_back({qs[0].plan, qs[1].plan, sound});
  }
  return out;
}

const std::vector<Pair>& corpus() {
  static const std::vector<Pair> pairs = [] {
    const std::string dir = RFGUARD_SOURCE_DIR "/corpus/equiv/";
    auto p = corpusPairs(dir + "bug_reports.test");
    for (auto& q : corpusPairs(dir + "rewrites.test")) p.push_back(std::move(q));
    return p;
  }();
  return pairs;
}

/// Every pair of the rule suites (corpus/equiv/rules/), files in name order.
const std::vector<Pair>& rules() {
  static const std::vector<Pair> pairs = [] {
    std::vector<std::string> files;
    for (const auto& e :
         std::filesystem::directory_iterator(RFGUARD_SOURCE_DIR "/corpus/equiv/rules"))
      if (e.path().extension() == ".test") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    std::vector<Pair> out;
    for (const auto& f : files)
      for (auto& q : corpusPairs(f)) out.push_back(std::move(q));
    return out;
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
  size_t proven = 0, equivalent = 0, different = 0, open = 0, refuted = 0, unsound = 0;
  for (auto _ : state) {
    proven = equivalent = different = open = refuted = unsound = 0;
    lawsUsed.clear();
    for (size_t i = 0; i < pairs.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      EquivResult r = checkRewrite(*pairs[i].original, *pairs[i].rewritten, o);
      ms[i] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      proven += !r.proof.empty();
      equivalent += r.proof.empty() && r.verdict == "equivalent";
      different += r.verdict == "different";
      open += r.verdict == "inconclusive" || r.verdict == "error";
      unsound += pairs[i].sound == 0;
      refuted += pairs[i].sound == 0 && r.verdict == "different";
      // The laws a proof names, one count each.
      for (size_t from = 0; !r.proof.empty() && from <= r.proof.size();) {
        size_t to = r.proof.find("; ", from);
        if (to == std::string::npos) to = r.proof.size();
        ++lawsUsed[r.proof.substr(from, to - from)];
        from = to + 2;
      }
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
  if (unsound) {
    state.counters["unsound_refuted"] = static_cast<double>(refuted);
    state.counters["unsound"] = static_cast<double>(unsound);
    state.counters["unsupported"] = static_cast<double>(unsupported);
  }
}

void BM_Corpus(benchmark::State& state) {
  run(state, corpus());
}
void BM_Tpch(benchmark::State& state) {
  run(state, tpch());
}

void BM_Rules(benchmark::State& state) {
  run(state, rules());
}

BENCHMARK(BM_Corpus)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Tpch)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Rules)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!lawsUsed.empty()) {
    std::cout << "\nLaws the rule suites' proofs used (pairs per law, last Rules run):\n";
    for (const auto& [law, n] : lawsUsed) std::cout << "  " << n << "  " << law << "\n";
  }
  return 0;
}
