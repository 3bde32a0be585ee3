#include "verifier/judge.h"

#include <algorithm>
#include <string_view>

#include "verifier/bounded.h"
#include "verifier/counterexample.h"

namespace rfguard {

namespace {

/// Keeps only producer `id` and its consumer at node `consumer` in the copy.
void keepOnly(PlanNode& n, int id, int consumer) {
  std::erase_if(n.runtimeFilters, [&](const RuntimeFilter& f) { return f.id != id; });
  std::erase_if(n.runtimeFilterTargets,
                [&](const FilterTarget& t) { return t.id != id || n.id != consumer; });
  for (auto& c : n.children) keepOnly(*c, id, consumer);
  // The copy is deep (deepClonePlan): its subquery plans are its own to edit.
  forEachSubqueryPlan(n,
                      [&](const PlanNode& q) { keepOnly(const_cast<PlanNode&>(q), id, consumer); });
}

/// "a: (1, 1); b: (2, 1)": the counterexample's tables, empty ones left out.
std::string tablesText(const rt::Database& db) {
  std::string out;
  for (const auto& [name, t] : db) {
    if (t.rows.empty()) continue;
    if (!out.empty()) out += "; ";
    out += name + ":";
    for (const auto& r : t.rows) out += " " + rt::keyToString(r);
  }
  return out.empty() ? "every table empty" : out;
}

}  // namespace

bool judgedBySearch(const std::string& code) {
  static constexpr std::string_view kCodes[] = {"unsafe-null-generating-side",
                                                "unsafe-equality-copy",
                                                "into-null-aware-anti-build",
                                                "crossed-limit",
                                                "crossed-aggregate",
                                                "crossed-window",
                                                "into-except-right",
                                                "into-subquery",
                                                "crossed-nondeterministic-projection",
                                                "target-not-derivable",
                                                "consumer-outside-probe-side"};
  return std::find(std::begin(kCodes), std::end(kCodes), code) != std::end(kCodes);
}

void judgeFindings(const PlanNode& root, std::vector<Finding>& findings,
                   const JudgeOptions& options) {
  for (Finding& f : findings) {
    if (!judgedBySearch(f.code) || f.nodes.size() < 2) continue;
    // The filter alone, with this consumer alone: a counterexample then speaks
    // of this placement, not of another consumer's.
    PlanPtr copy = deepClonePlan(root);
    keepOnly(*copy, f.filter, f.nodes[1]);
    BoundedOptions bo;
    bo.bound = options.bound;
    bo.maxDatabases = options.maxDatabases;
    bo.seconds = options.seconds;
    bo.method = BoundedOptions::Method::Whole;
    const std::vector<BoundedVerdict> vs = checkFilters(*copy, bo);
    const BoundedVerdict& v = vs.front();
    if (!v.error.empty() && v.error.find("before its producer is ready") != std::string::npos) {
      f.judge = "rules";  // the placement cannot run at all: the rules' error stands
      f.message += "; the bounded check cannot run it either (" + v.error + ")";
      continue;
    }
    if (!v.error.empty()) {
      f.judge = "rules";
      f.severity = Severity::Warning;
      f.message +=
          "; not proven safe: the bounded check cannot evaluate the plan (" + v.error + ")";
      continue;
    }
    if (v.counterexample) {
      const Counterexample& c = *v.counterexample;
      f.judge = "refuted";
      f.severity = Severity::Error;
      f.message += "; refuted by the bounded check: on " + tablesText(c.db) +
                   (c.content == rt::Content::Workers ? " " + partitioningText(c) : "") +
                   " the query returns " + rowsText(c.original) + ", with the filter (" +
                   rt::contentName(c.content) + " content) " + rowsText(c.rewritten);
      continue;
    }
    f.judge = "not-proven";
    f.severity = Severity::Warning;
    f.message += v.everyValue
                     ? "; not proven safe: no counterexample on any database of up to " +
                           std::to_string(v.bound) +
                           " rows per table, over every value (a bound, not a proof for larger "
                           "tables)"
                     : "; not proven safe: no counterexample on " + std::to_string(v.databases) +
                           " databases of up to " + std::to_string(v.bound) +
                           " rows per table with values from a finite domain, which proves "
                           "nothing for other values";
  }
}

}  // namespace rfguard
