// Adversarial placements against lint, with the bounded verifier as ground
// truth (issue 43). For random queries (testgen/random_queries.h) it takes each
// filter the sound planner produces and places it, alone, at every scan of the
// producer's probe side (subquery plans included) on every column of the scan and on
// `coalesce(column, 0)`: the sound placement's own consumers and every way of
// moving one, across every operator the random queries hold. Each placement is
// linted as a CI gate would (the rules, then the second judge) and searched
// whole to the bound; the run counts how the two agree.
//
//   build/adversarial_check [--queries N] [--seed S] [--bound B] [--databases N]
//                           [--tables 3..6] [--verbose]
//
// Ground truth is the whole plan searched to the bound, or where that space is
// too large the filter's slice (verifier/slices.h); what neither covers is
// counted as undecided.
//
// Exit 1 when lint passes a placement the search refutes (a miss), or reports
// a "refuted" error the search does not confirm.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/printers.h"
#include "pipeline/session.h"
#include "testgen/random_queries.h"
#include "verifier/bounded.h"
#include "verifier/judge.h"
#include "verifier/verify.h"

using namespace rfguard;

namespace {

/// Every scan of the plan, subquery plans included (the copy is deep: its own to edit).
void scansOf(PlanNode& n, std::vector<PlanNode*>& out) {
  if (n.op == PlanOp::Scan) out.push_back(&n);
  for (auto& c : n.children) scansOf(*c, out);
  forEachSubqueryPlan(n, [&](const PlanNode& q) { scansOf(const_cast<PlanNode&>(q), out); });
}

/// The subtree filter `id` may be consumed in: its producer's probe side.
PlanNode* probeSideOf(PlanNode& n, int id) {
  for (const auto& f : n.runtimeFilters)
    if (f.id == id) {
      PlanNode* c = n.children[0].get();  // a join's left; a TopN limit's sort
      return n.op == PlanOp::Limit && c->op == PlanOp::Sort ? c->children[0].get() : c;
    }
  for (auto& c : n.children)
    if (PlanNode* p = probeSideOf(*c, id)) return p;
  PlanNode* found = nullptr;
  forEachSubqueryPlan(n, [&](const PlanNode& q) {
    if (!found) found = probeSideOf(const_cast<PlanNode&>(q), id);
  });
  return found;
}

/// Drops every producer but `id` and every consumer.
void keepProducer(PlanNode& n, int id) {
  std::erase_if(n.runtimeFilters, [&](const RuntimeFilter& f) { return f.id != id; });
  n.runtimeFilterTargets.clear();
  for (auto& c : n.children) keepProducer(*c, id);
  forEachSubqueryPlan(n, [&](const PlanNode& q) { keepProducer(const_cast<PlanNode&>(q), id); });
}

/// The ids of the plan's producers.
void producerIds(const PlanNode& n, std::vector<int>& out) {
  forEachNode(n, [&](const PlanNode& x) {
    for (const auto& f : x.runtimeFilters) out.push_back(f.id);
  });
}

/// Lint's word on a placement: the worst finding, and which judge spoke.
std::string lintVerdict(const std::vector<Finding>& fs) {
  std::string worst = "clean";
  for (const auto& f : fs) {
    if (f.severity == Severity::Error) {
      if (f.judge == "refuted") return "error (refuted)";
      worst = "error (" + f.judge + ")";
    } else if (worst == "clean") {
      worst = "warning (" + f.judge + ")";
    }
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  tuneHeapForSearch();
  int queries = 40;
  uint64_t seed = 1;
  bool verbose = false;
  BoundedOptions truth;
  truth.bound = 2;
  truth.maxDatabases = 40000;
  truth.seconds = 600;  // budgets in databases: the same counts on any machine
  truth.method = BoundedOptions::Method::Auto;  // whole, then the filter's slice
  truth.sliceMaxDatabases = 400000;
  truth.everyValue = false;  // the search's truth, in databases: the same on any machine
  int maxTables = 4;
  CLI::App app{"lint against the bounded verifier on adversarial placements"};
  app.add_option("--queries", queries, "random queries");
  app.add_option("--seed", seed, "the random queries' seed");
  app.add_option("--bound", truth.bound, "the ground truth's most rows per table");
  app.add_option("--databases", truth.maxDatabases, "the ground truth's databases per search");
  app.add_option("--tables", maxTables, "most tables per query")->check(CLI::Range(3, 6));
  app.add_flag("--verbose", verbose, "name every placement flagged though safe to the bound");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help, or a usage error
  }
  std::mt19937_64 rng(seed);
  // (ground truth, lint's verdict) -> placements
  std::map<std::pair<std::string, std::string>, int> table;
  std::map<std::string, int> missedBy, flaggedSafeBy;  // finding codes (or "clean")
  int placements = 0, unevaluable = 0;
  for (int n = 0; n < queries; ++n) {
    const std::string sql =
        randomQuery(rng, 3 + static_cast<int>(rng() % static_cast<uint64_t>(maxTables - 2)));
    Session session{SessionOptions{}};
    Diagnostics diags;
    if (!session.loadAs(randomSchema() + sql, "random.sql", false, diags)) continue;
    session.run();
    const PlanPtr& plan = session.queries()[0].query.plan;
    std::vector<int> ids;
    producerIds(*plan, ids);
    for (int id : ids) {
      PlanPtr base = deepClonePlan(*plan);
      keepProducer(*base, id);
      // Consumers outside the probe side are closure errors (a filter that
      // waits for itself, or one applied where its producer cannot reach):
      // structural, not a question of results.
      std::vector<PlanNode*> scans;
      scansOf(*probeSideOf(*base, id), scans);
      for (size_t s = 0; s < scans.size(); ++s) {
        for (const Column& col : scans[s]->tableColumns) {
          for (int form = 0; form < 2; ++form) {
            PlanPtr copy = deepClonePlan(*base);
            std::vector<PlanNode*> cs;
            scansOf(*probeSideOf(*copy, id), cs);
            ExprPtr t = makeColumn(col.id.str(), col.type, col.nullable);
            if (form == 1) t = makeCall("coalesce", {t, makeLiteral("0", col.type)});
            cs[s]->runtimeFilterTargets.push_back({id, t});
            ++placements;
            std::vector<Finding> fs = verifyRuntimeFilters(*copy);
            judgeFindings(*copy, fs);
            const std::string word = lintVerdict(fs);
            const BoundedVerdict v = checkFilters(*copy, truth).front();
            if (!v.error.empty()) {
              ++unevaluable;
              continue;
            }
            // Not refuted is "safe to the bound" only where the search covered it.
            const bool whole = v.complete && v.bound == truth.bound;
            const std::string real = v.counterexample                       ? "unsafe"
                                     : whole || v.sliceBound == truth.bound ? "safe to the bound"
                                                                            : "undecided";
            ++table[{real, word}];
            const std::string code = fs.empty() ? "clean" : fs[0].code;
            if (real == "unsafe" && word == "clean") {
              ++missedBy[code];
              std::cout << "MISSED: RF" << id << " -> " << exprToString(*t) << " in " << sql << "\n"
                        << planToText(*copy);
            } else if (real == "safe to the bound" && word != "clean") {
              ++flaggedSafeBy[code];
              if (verbose)
                std::cout << "FLAGGED, SAFE TO THE BOUND (" << word << ", " << code << "): RF" << id
                          << " -> " << exprToString(*t) << " in " << sql << "\n";
            }
            // The judge's counterexample is a real one; it contradicts only a
            // search that covered the whole bound without finding any.
            if (real == "safe to the bound" && word == "error (refuted)") {
              std::cout << "UNCONFIRMED ERROR: RF" << id << " -> " << exprToString(*t) << " in "
                        << sql << "\n";
              ++missedBy["unconfirmed"];
            }
          }
        }
      }
    }
  }
  int unsafe = 0, safe = 0, undecided = 0, missed = 0, warned = 0, erred = 0;
  for (const auto& [k, count] : table) {
    (k.first == "unsafe" ? unsafe : k.first == "undecided" ? undecided : safe) += count;
    if (k.first == "unsafe" && k.second == "clean") missed += count;
    if (k.first == "safe to the bound" && k.second.rfind("warning", 0) == 0) warned += count;
    if (k.first == "safe to the bound" && k.second.rfind("error", 0) == 0) erred += count;
  }
  std::cout << placements << " placements of the filters of " << queries << " random queries ("
            << unevaluable
            << " the search cannot evaluate); ground truth: whole-plan search to bound "
            << truth.bound << " (" << truth.maxDatabases << " databases each)\n";
  for (const auto& [k, count] : table)
    std::cout << "  " << k.first << ", lint " << k.second << ": " << count << "\n";
  std::cout << "unsafe: " << unsafe << ", missed " << missed << "; safe to the bound: " << safe
            << ", flagged as warning " << warned << " (" << (safe ? 1000.0 * warned / safe : 0.0)
            << " per 1,000), as error " << erred
            << "; undecided by the search (budget): " << undecided << "\n";
  for (const auto& [code, count] : flaggedSafeBy)
    std::cout << "  flagged though safe to the bound, by " << code << ": " << count << "\n";
  return missedBy.empty() ? 0 : 1;
}
