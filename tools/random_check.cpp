// Random queries through the sound planner, every placement checked by the
// bounded verifier (and optionally SQLite). The unit suite runs a fixed seed;
// this is the longer run.
//
//   build/random_check [--queries N] [--seed S] [--bound B] [--seconds T]
//                      [--databases N] [--oracle] [--oracle-engine duckdb]
//                      [--oracle-databases N] [--verbose]
// Exit 1 when a counterexample is found (a rule bug), printing the query.
// --verbose also names every query whose filters stop short of the bound, and why.
#include <cstring>
#include <iostream>
#include <map>

#include "pipeline/session.h"
#include "tools/cli/engine_oracle.h"
#include "verifier/bounded.h"
#include "verifier/random_queries.h"

using namespace rfguard;

int main(int argc, char** argv) {
  rfguard::tuneHeapForSearch();
  int queries = 200;
  uint64_t seed = 1;
  BoundedOptions o;
  o.bound = 2;
  o.seconds = 1;
  o.maxDatabases = 20000;
  bool verbose = false;  // name every query whose filters stop short of the bound
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
                   "[--verbose]\n";
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  int plans = 0, withFilters = 0, complete = 0, sliced = 0, sliceDiffers = 0, bound1 = 0,
      counterexamples = 0, defects = 0, errors = 0;
  uint64_t databases = 0, consumers = 0, oracleRuns = 0;
  std::map<std::string, int> oracleSkipped;
  for (int n = 0; n < queries; ++n) {
    std::string sql = randomQuery(rng, 3 + static_cast<int>(rng() % 4));
    Session session;
    Diagnostics diags;
    if (!session.loadAs(randomSchema() + sql, "random.sql", false, diags) ||
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
    auto vs = checkFilters(*plan, o);
    const auto& v = vs[0];
    databases += v.databases + v.sliceDatabases;
    const bool whole = v.complete && v.bound == o.bound;
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
  if (o.oracle) {
    std::cout << oracleRuns << " oracle queries";
    for (const auto& [why, n] : oracleSkipped) std::cout << "; " << n << "x not run: " << why;
    std::cout << "\n";
  }
  return counterexamples || defects ? 1 : errors ? 2 : 0;
}
