// Random queries through the sound planner, every placement checked by the
// bounded verifier (and optionally SQLite). The unit suite runs a fixed seed;
// this is the longer run.
//
//   build/random_check [--queries N] [--seed S] [--bound B] [--seconds T]
//                      [--databases N] [--oracle] [--oracle-engine duckdb]
//                      [--oracle-databases N] [--verbose]
//                      [--shape small|analytic] [--method auto|whole|slices]
//                      [--profile NAME] [--mutants]
// Exit 1 when a counterexample is found (a rule bug), printing the query.
// --verbose also names every query whose filters stop short of the bound, and why.
// --shape analytic draws queries of TPC-DS's and JOB's shape (6 to 12 relations,
// testgen/random_analytic.cpp) instead of 3 to 6 random joins; the run ends with
// the check's time per query with filters (median, 90th percentile, most).
// --profile places an engine's filters instead of the sound planner's; a
// placement the whole-plan search refutes must then also stop short on its
// slices (a slice is never safe where the plan is not): SLICES UNSOUND, exit 1.
// --mutants does the same for every unsafe edit of each placement (testgen/mutate.h),
// and checks every slice with free joins dropped against the slice with them
// (a difference must survive the drop): DROP UNSOUND, exit 1.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>

#include "ir/printers.h"
#include "pipeline/session.h"
#include "testgen/mutate.h"
#include "testgen/random_queries.h"
#include "tools/cli/engine_oracle.h"
#include "verifier/bounded.h"
#include "verifier/slices.h"

using namespace rfguard;

namespace {

/// A whole-plan counterexample against the slices' verdict for the same plan.
struct SliceCrossCheck {
  int unsound = 0;  ///< refuted with one row per table, yet safe by slices at bound 1
  int past = 0;     ///< refuted with more rows, the slices safe beyond that bound
  int agreed = 0;   ///< refuted, and the slices stop short of the counterexample's bound

  /// A counterexample of one row per table makes every intermediate result (no
  /// UNION here) at most one row, which a slice's free tables range over: its
  /// slices must not be safe at bound 1. A larger one may need more rows in a
  /// free table than the bound gives: only counted.
  void check(const PlanNode& plan, const BoundedOptions& o, const BoundedVerdict& refuted,
             const std::string& what) {
    BoundedOptions bySlices = o;
    bySlices.method = BoundedOptions::Method::Slices;
    const BoundedVerdict s = checkFilters(plan, bySlices)[0];
    if (refuted.bound == 0 && s.sliceBound >= 1) {
      ++unsound;
      std::cout << "SLICES UNSOUND: " << what << " safe to bound " << s.sliceBound << " by "
                << s.slices << " slices, counterexample at bound 1\n";
    } else if (s.sliceBound > refuted.bound) {
      ++past;
    } else {
      ++agreed;
    }
  }
};

/// Each slice with its free joins dropped (slices.h dropFreeJoins) against the
/// same slice with them: the reduction is sound only if a slice that differs
/// at bound n with them also differs without them, at bound n or below.
struct DropCrossCheck {
  int slices = 0, differing = 0, unsound = 0, dropped = 0;

  void check(const PlanNode& plan, const BoundedOptions& o, const std::string& what) {
    std::string why;
    const std::vector<Slice> kept = filterSlices(plan, why, false);
    const std::vector<Slice> reduced = filterSlices(plan, why, true);
    if (kept.size() != reduced.size()) return;
    BoundedOptions whole = o;
    whole.method = BoundedOptions::Method::Whole;
    for (size_t i = 0; i < kept.size(); ++i) {
      ++slices;
      if (planToText(*kept[i].plan) == planToText(*reduced[i].plan)) continue;
      ++dropped;
      const BoundedVerdict k = checkFilters(*kept[i].plan, whole)[0];
      if (k.safe || !k.error.empty()) continue;
      ++differing;
      const BoundedVerdict r = checkFilters(*reduced[i].plan, whole)[0];
      if (r.bound > k.bound) {
        ++unsound;
        std::cout << "DROP UNSOUND: RF" << kept[i].filter << "'s slice of " << what
                  << " differs at bound " << k.bound + 1 << ", without its free joins "
                  << (r.safe ? "safe to bound " : "differs only at bound ")
                  << (r.safe ? r.bound : r.bound + 1) << "\n";
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  rfguard::tuneHeapForSearch();
  int queries = 200;
  uint64_t seed = 1;
  BoundedOptions o;
  o.bound = 2;
  o.seconds = 1;
  o.maxDatabases = 20000;
  o.everyValue = false;      // the search and its slices (the solver: filters_values_check)
  bool verbose = false;      // name every query whose filters stop short of the bound
  bool analytic = false;     // --shape analytic
  bool withMutants = false;  // --mutants
  SessionOptions sessionOptions;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() { return i + 1 < argc ? std::string(argv[++i]) : std::string("0"); };
    if (a == "--queries")
      queries = std::stoi(next());
    else if (a == "--seed")
      seed = std::stoull(next());
    else if (a == "--bound")
      o.bound = std::stoi(next());
    else if (a == "--seconds")
      o.seconds = std::stod(next());
    else if (a == "--databases")
      o.maxDatabases = std::stoull(next());
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--shape" && i + 1 < argc &&
             (std::string(argv[i + 1]) == "small" || std::string(argv[i + 1]) == "analytic"))
      analytic = next() == "analytic";
    else if (a == "--method" && i + 1 < argc && parseMethod(argv[i + 1]))
      o.method = *parseMethod(next());
    else if (a == "--mutants")
      withMutants = true;
    else if (a == "--profile" && i + 1 < argc && parseProfile(argv[i + 1]))
      sessionOptions.filters.profile = *parseProfile(next());
    else if (a == "--oracle")
      o.oracle = true;
    else if (a == "--oracle-engine") {
      o.oracle = true;
      o.oracleFactory = engine::oracleFactory(next());
    } else if (a == "--oracle-databases")
      o.oracleDatabases = std::stoull(next());
    else {
      std::cerr << "usage: random_check [--queries N] [--seed S] [--bound B] [--seconds T] "
                   "[--databases N] [--oracle] [--oracle-engine duckdb] [--oracle-databases N] "
                   "[--verbose] [--shape small|analytic] [--method auto|whole|slices] "
                   "[--profile NAME] [--mutants]\n";
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  int plans = 0, withFilters = 0, complete = 0, sliced = 0, sliceDiffers = 0, bound1 = 0,
      counterexamples = 0, defects = 0, errors = 0, mutants = 0, mutantsRefuted = 0;
  SliceCrossCheck slicesVsWhole;
  DropCrossCheck dropVsKeep;
  uint64_t databases = 0, consumers = 0, oracleRuns = 0;
  std::map<std::string, int> oracleSkipped;
  std::vector<double> checkSeconds;  // per plan with filters
  const std::string schema = analytic ? randomAnalyticSchema() : randomSchema();
  for (int n = 0; n < queries; ++n) {
    std::string sql = analytic ? randomAnalyticQuery(rng, 6 + static_cast<int>(rng() % 7))
                               : randomQuery(rng, 3 + static_cast<int>(rng() % 4));
    Session session(sessionOptions);
    Diagnostics diags;
    if (!session.loadAs(schema + sql, "random.sql", false, diags) ||
        session.queries().size() != 1) {
      std::cerr << "does not bind: " << sql << diags.render();
      ++errors;
      continue;
    }
    ++plans;
    session.run();
    const RfReport& r = session.queries()[0].placement;
    const PlanPtr& plan = session.queries()[0].query.plan;
    if (r.consumers.empty()) continue;
    ++withFilters;
    consumers += r.consumers.size();
    const auto started = std::chrono::steady_clock::now();
    auto vs = checkFilters(*plan, o);
    checkSeconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    const auto& v = vs[0];
    databases += v.databases + v.sliceDatabases;
    const bool whole =
        o.method != BoundedOptions::Method::Slices && v.complete && v.bound == o.bound;
    complete += whole;
    sliced += !whole && v.sliceBound == o.bound;
    if (verbose && !whole && v.sliceBound != o.bound)
      std::cout << "SHORT (whole to bound " << v.bound << ", slices to " << v.sliceBound
                << "): " << sql << "\n  " << (v.sliceLimit.empty() ? v.limit : v.sliceLimit)
                << "\n";
    if (v.sliceLimit.find("differs") != std::string::npos) {
      // Not a counterexample (a free table can hold what no database produces), but a
      // slice too coarse to conclude: worth a look.
      ++sliceDiffers;
      std::cout << "SLICE DIFFERS: " << sql << "  " << v.sliceLimit << "\n";
    }
    bound1 += v.bound >= 1;
    if (!v.safe) {
      ++counterexamples;
      std::cout << "COUNTEREXAMPLE: " << sql;
      slicesVsWhole.check(*plan, o, v, "the placement");
    }
    if (withMutants) dropVsKeep.check(*plan, o, "the placement of " + sql);
    if (withMutants)
      for (const Mutant& m : mutatePlacement(*plan)) {
        ++mutants;
        dropVsKeep.check(*m.plan, o, m.kind + " mutant of " + sql);
        BoundedOptions whole = o;
        whole.method = BoundedOptions::Method::Whole;
        const BoundedVerdict mv = checkFilters(*m.plan, whole)[0];
        if (mv.safe || !mv.error.empty()) continue;
        ++mutantsRefuted;
        slicesVsWhole.check(*m.plan, o, mv, m.kind + " mutant of " + sql);
      }
    oracleRuns += v.oracleRuns;
    if (!v.oracleSkipped.empty()) ++oracleSkipped[v.oracleSkipped.substr(0, 60)];
    if (!v.oracleDisagreements.empty()) {
      ++defects;
      std::cout << "EVALUATOR DEFECT: " << sql << "  " << v.oracleDisagreements[0] << "\n";
    }
    if (!v.error.empty()) {
      ++errors;
      std::cout << "CANNOT EVALUATE: " << sql << "  " << v.error << "\n";
    }
  }
  std::cout << plans << " queries planned, " << withFilters << " with filters (" << consumers
            << " consumers), " << complete << " checked completely to bound " << o.bound << ", "
            << sliced << " more by slices (" << sliceDiffers << " slices inconclusive), " << bound1
            << " at least to bound 1 whole, " << databases << " databases, " << counterexamples
            << " counterexamples, " << defects << " evaluator defects, " << errors << " errors\n";
  if (withMutants)
    std::cout << mutants << " mutants, " << mutantsRefuted << " refuted by the whole plan\n";
  if (withMutants || slicesVsWhole.unsound + slicesVsWhole.past + slicesVsWhole.agreed)
    std::cout << "slices against refuted placements: " << slicesVsWhole.agreed
              << " stop short of the counterexample, " << slicesVsWhole.past
              << " safe past a counterexample of more than one row per table, "
              << slicesVsWhole.unsound << " UNSOUND (safe past one of one row per table)\n";
  if (withMutants)
    std::cout << "slices with free joins dropped: " << dropVsKeep.dropped << " of "
              << dropVsKeep.slices << " slices, " << dropVsKeep.differing
              << " of them differing with the joins, " << dropVsKeep.unsound
              << " UNSOUND (not differing as soon without them)\n";
  if (!checkSeconds.empty()) {
    std::sort(checkSeconds.begin(), checkSeconds.end());
    auto at = [&](double q) {
      return checkSeconds[std::min(
          checkSeconds.size() - 1,
          static_cast<size_t>(q * static_cast<double>(checkSeconds.size())))];
    };
    const auto over =
        checkSeconds.end() - std::upper_bound(checkSeconds.begin(), checkSeconds.end(), o.seconds);
    std::cout << "check time per plan with filters: median " << at(0.5) << " s, 90th percentile "
              << at(0.9) << " s, most " << checkSeconds.back() << " s, " << over
              << " over one search's budget (" << o.seconds << " s)\n";
  }
  if (o.oracle) {
    std::cout << oracleRuns << " oracle queries";
    for (const auto& [why, n] : oracleSkipped) std::cout << "; " << n << "x not run: " << why;
    std::cout << "\n";
  }
  const bool expected = sessionOptions.filters.profile != Profile::Sound;  // engines err
  return (counterexamples && !expected) || defects || slicesVsWhole.unsound || dropVsKeep.unsound
             ? 1
         : errors ? 2
                  : 0;
}
