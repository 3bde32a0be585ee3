// The solver's filter check cross-checked with the search and the evaluator
// (issue 44 §2, `check`): random queries, their runtime filters placed by the
// sound planner or an engine profile, and every unsafe edit of each placement
// (testgen/mutate.h); each plan checked by the search alone over its finite
// domain and by the solver over every value (symbolicFilters).
//
//   build/filters_values_check [--queries N] [--seed S] [--bound B] [--seconds T]
//                              [--profile NAME] [--verbose]
//
// A defect, printed with the query and exit 1, when:
//  - a counterexample of the search (not per worker, no repeated row) is not a
//    model of the encoding: fixed to that database, the solver says no content
//    changes the result;
//  - the solver says no content changes the result, and the search found one
//    within the bound (no row repeated to fill a LIMIT window).
// A solver model the evaluator confirms (exact, MinMax or one false positive)
// is counted; one it cannot confirm is counted apart (a content of several
// false positives, which only a Bloom filter builds): neither is a defect.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "pipeline/session.h"
#include "testgen/mutate.h"
#include "testgen/random_queries.h"
#include "tools/median.h"
#include "verifier/bounded.h"
#include "verifier/symbolic.h"

using namespace rfguard;

namespace {

struct Tally {
  int plans = 0, searchUnsafe = 0, modelsChecked = 0, equal = 0, refuted = 0, solverOnly = 0,
      unconfirmed = 0, unknown = 0, unsupported = 0, defects = 0;
  std::vector<double> ms;
};

void crossCheck(const PlanNode& plan, const std::string& what, int bound, double seconds,
                bool verbose, Tally& t) {
  ++t.plans;
  std::string db;  // the search's counterexample, for a defect's report
  auto defect = [&](const std::string& d) {
    ++t.defects;
    std::cout << "DEFECT: " << d << "\n  " << what << "\n" << db;
  };
  BoundedOptions search;
  search.bound = bound;
  search.seconds = seconds * 5;
  search.maxDatabases = 200000;
  search.method = BoundedOptions::Method::Whole;
  search.everyValue = false;
  const BoundedVerdict s = checkFilters(plan, search)[0];
  if (!s.error.empty()) return;
  const bool found = !s.safe;
  t.searchUnsafe += found;
  if (found) {
    const Counterexample& c = *s.counterexample;
    db = "  search: " + std::string(rt::contentName(c.content)) + " content,";
    for (const auto& [name, table] : c.db) {
      db += " " + name + "={";
      for (const auto& row : table.rows) {
        db += "(";
        for (size_t i = 0; i < row.size(); ++i)
          db += (i ? ", " : "") + rt::sqlLiteral(row[i], Type{});
        db += ")";
      }
      db += "}";
    }
    db += "\n";
  }
  if (found && s.counterexample->content != rt::Content::Workers &&
      s.counterexample->repeated == 0) {
    const SymbolicVerdict on = symbolicFiltersOn(plan, s.filters, s.counterexample->db, seconds);
    if (on.kind == SymbolicVerdict::Kind::Equal)
      defect("the encoding says no content changes the result on the search's counterexample");
    t.modelsChecked += on.kind == SymbolicVerdict::Kind::Differs;
  }
  BoundedOptions solver = search;
  solver.solverSeconds = seconds;
  BoundedVerdict v;
  v.bound = bound;
  checkFiltersEveryValue(plan, s.filters, {}, solver, v);
  t.ms.push_back(v.solverMs);
  if (v.everyValue) {
    ++t.equal;
    // A counterexample with a row repeated to fill a LIMIT window is past the
    // bound the solver was asked about: no defect.
    if (found && s.counterexample->repeated == 0)
      defect("the solver says no content changes the result, the search found one");
  } else if (v.counterexample) {
    ++t.refuted;
    t.solverOnly += !found;
    if (verbose && !found) std::cout << "the solver alone refuted: " << what << "\n";
  } else if (v.valuesOpen.find("but no exact") != std::string::npos) {
    ++t.unconfirmed;
    if (verbose) std::cout << "unconfirmed: " << what << "\n";
  } else if (v.valuesOpen.find("does not encode") != std::string::npos) {
    ++t.unsupported;
    if (verbose) std::cout << "not encoded (" << v.valuesOpen << "): " << what << "\n";
  } else {
    ++t.unknown;
    if (verbose) std::cout << "undecided (" << v.valuesOpen << "): " << what << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  tuneHeapForSearch();
  int queries = 40, bound = 2;
  uint64_t seed = 1;
  double seconds = 2;
  bool verbose = false;
  std::string profile = "sound";
  CLI::App app{"the solver's filter check against the search and the evaluator"};
  app.add_option("--queries", queries, "random queries");
  app.add_option("--seed", seed, "the random queries' seed");
  app.add_option("--bound", bound, "most rows per table")->check(CLI::Range(1, 4));
  app.add_option("--seconds", seconds, "the solver's budget per plan");
  app.add_option("--profile", profile, "the placement: sound or an engine's profile")
      ->check([](const std::string& p) {
        return parseProfile(p) ? std::string() : "unknown profile " + p;
      });
  app.add_flag("--verbose", verbose, "name every plan the solver did not decide");
  CLI11_PARSE(app, argc, argv);
  SessionOptions so;
  so.filters.profile = *parseProfile(profile);
  std::mt19937_64 rng(seed);
  Tally t;
  const std::string schema = randomSchema();
  for (int n = 0; n < queries; ++n) {
    const std::string sql = randomQuery(rng, 2 + static_cast<int>(rng() % 3));
    Session session(so);
    Diagnostics diags;
    if (!session.loadAs(schema + sql, "random.sql", false, diags) ||
        session.queries().size() != 1) {
      std::cerr << "does not bind: " << sql << "\n" << diags.render();
      return 2;
    }
    session.run();
    const PlanPtr& plan = session.queries()[0].query.plan;
    if (session.queries()[0].placement.consumers.empty()) continue;
    crossCheck(*plan, sql, bound, seconds, verbose, t);
    for (const Mutant& m : mutatePlacement(*plan))
      crossCheck(*m.plan, sql + "  [" + m.kind + ": " + m.what + "]", bound, seconds, verbose, t);
  }
  std::printf(
      "%d plans at bound %d: solver safe %d, refuted %d (the search's domain missed %d), "
      "a content beyond one false positive %d, undecided %d, not encoded %d\n"
      "search unsafe %d; its counterexamples checked as models of the encoding %d\n"
      "solver time: median %.1f ms, max %.1f ms\n"
      "defects: %d\n",
      t.plans, bound, t.equal, t.refuted, t.solverOnly, t.unconfirmed, t.unknown, t.unsupported,
      t.searchUnsafe, t.modelsChecked, median(t.ms),
      t.ms.empty() ? 0.0 : *std::max_element(t.ms.begin(), t.ms.end()), t.defects);
  return t.defects ? 1 : 0;
}
