// Rewrites as the unit of verification, measured (issue 12's acceptance): random
// queries are normalised rule by rule and every step is checked against the one
// before (each must be equivalent); then each deliberately broken rule
// (testgen/broken_rules.h) is applied to the normalised plan and must be refuted.
//
//   build/rewrite_check [--queries N] [--seed S] [--bound B] [--seconds T] [--databases N]
//                       [--no-proof] [--cross-check] [--verbose]
//
// Prints per rule the steps and their verdicts (equivalent by the bounded
// search or, in their own column, by the plans' normal forms, which hold on
// every database: verifier/normal_form.h), per broken rule refuted / tried and
// the median time to the counterexample. --no-proof searches every step;
// --cross-check also searches every step the normal form proved, and a
// counterexample there is a defect of the normal form (exit 1). --verbose names
// every open step, and every broken rule's open application, with its query. Exit 1 when a real
// step is different (a normalisation bug), printing the query. A broken rule's application found
// equivalent is printed for review: where the query makes it sound by coincidence (a NOT IN above
// an outer join that rejects its padding anyway) it is; otherwise the search missed it.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

#include "pipeline/equiv.h"
#include "pipeline/session.h"
#include "testgen/broken_rules.h"
#include "testgen/random_queries.h"
#include "tools/median.h"

using namespace rfguard;

namespace {

struct Tally {
  int steps = 0, identical = 0, equivalent = 0, proved = 0, open = 0, different = 0;
  std::vector<double> ms;
};

}  // namespace

int main(int argc, char** argv) {
  tuneHeapForSearch();
  int queries = 100;
  uint64_t seed = 1;
  BoundedOptions o;
  o.bound = 2;
  o.seconds = 2;
  o.maxDatabases = 200000;
  bool crossCheck = false, verbose = false;
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
    else if (a == "--no-proof")
      o.proofs = false;
    else if (a == "--cross-check")
      crossCheck = true;
    else if (a == "--verbose")
      verbose = true;
    else {
      std::cerr << "usage: rewrite_check [--queries N] [--seed S] [--bound B] [--seconds T] "
                   "[--databases N] [--no-proof] [--cross-check] [--verbose]\n";
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  std::map<std::string, Tally> rules, broken;
  int bad = 0, plans = 0;
  for (int n = 0; n < queries; ++n) {
    // 2 to 4 tables: whole plans a bounded search reaches bound 2 on.
    std::string sql = randomQuery(rng, 3 + static_cast<int>(rng() % 2));
    Session session;
    Diagnostics diags;
    if (!session.loadAs(randomSchema() + sql, "random.sql", false, diags) ||
        session.queries().size() != 1) {
      std::cerr << "does not bind: " << sql << "\n" << diags.render();
      return 2;
    }
    ++plans;
    const PlanNode& bound = *session.queries()[0].query.plan;
    auto steps = normalisationTrace(bound, {});
    for (const auto& v : checkTrace(steps, o)) {
      Tally& t = rules[steps[v.step].rule];
      ++t.steps;
      t.identical += v.identical;
      t.proved += !v.result.proof.empty();
      t.equivalent += !v.identical && v.result.proof.empty() && v.result.verdict == "equivalent";
      if (crossCheck && !v.result.proof.empty()) {
        BoundedOptions search = o;
        search.proofs = false;
        if (checkRewrite(*steps[v.step - 1].plan, *steps[v.step].plan, search).verdict ==
            "different") {
          ++bad;
          std::cout << "NORMAL FORM WRONG at " << steps[v.step].rule << " on: " << sql << "\n";
        }
      }
      const bool open = v.result.verdict == "inconclusive" || v.result.verdict == "error";
      t.open += open;
      if (open && verbose)
        std::cout << "OPEN " << steps[v.step].rule << " (" << v.result.verdict << " at bound "
                  << v.result.bounded.bound << ") on: " << sql << "\n";
      if (v.result.verdict == "different") {
        ++t.different;
        ++bad;
        std::cout << "UNSOUND STEP " << steps[v.step].rule << " on: " << sql << "\n";
      }
    }
    const PlanNode& normalised = *steps.back().plan;
    for (const auto& rule : brokenRules()) {
      auto rw = rule.apply(normalised);
      if (!rw) continue;
      Tally& t = broken[rule.name];
      ++t.steps;
      EquivResult r = checkRewrite(*rw->original, *rw->rewritten, o);
      if (r.verdict == "different") {
        ++t.different;
        t.ms.push_back(r.ms);
      } else if (r.verdict == "equivalent") {
        ++t.equivalent;
        std::cout << "REVIEW " << rule.name << " at " << rw->where
                  << (r.proof.empty() ? "" : " (proved by normal form: " + r.proof + ")")
                  << " on: " << sql << "\n";
      } else {
        ++t.open;
        if (verbose)
          std::cout << "OPEN " << rule.name << " at " << rw->where << " (" << r.verdict
                    << " at bound " << r.bounded.bound << ": " << r.bounded.limit << ") on: " << sql
                    << "\n";
      }
    }
  }
  std::cout << plans << " random queries (seed " << seed << "), bound " << o.bound << "\n";
  std::cout << "normalisation steps: rule, steps, equivalent (search), equivalent (normal form), "
               "identical, open, different\n";
  for (const auto& [name, t] : rules)
    std::printf("  %-34s %5d %5d %5d %5d %5d %5d\n", name.c_str(), t.steps, t.equivalent, t.proved,
                t.identical, t.open, t.different);
  std::cout << "broken rules: refuted / tried, open, found equivalent (review), median ms to the "
               "counterexample\n";
  for (const auto& rule : brokenRules()) {
    const Tally& t = broken[rule.name];
    std::printf("  %-34s %3d / %-3d %4d %4d %8.2f\n", rule.name, t.different, t.steps, t.open,
                t.equivalent, median(t.ms));
  }
  return bad ? 1 : 0;
}
