#include "pipeline/check.h"

#include "engines/adapter.h"
#include "verifier/counterexample.h"

namespace rfguard {

std::string checkVerdictWord(const BoundedVerdict& v, int requested) {
  if (!v.error.empty() && v.safe) return "error";
  if (!v.safe) return "unsafe";
  // Nothing placed, nothing searched: nothing can go wrong.
  const bool checked = !v.filters.empty() || v.databases > 0;
  const bool whole = v.bound >= requested && v.everyValue;
  const bool sliced = v.sliceBound >= requested && v.sliceEveryValue;
  return !checked || whole || sliced ? "safe" : "inconclusive";
}

std::vector<FilterCheck> checkQuery(const QueryRun& run, const BoundedOptions& options) {
  std::vector<FilterCheck> out;
  const PlanNode& plan = *run.query.plan;
  for (auto& v : checkFilters(plan, options)) {
    FilterCheck c;
    c.verdict = checkVerdictWord(v, options.bound);
    c.nothingPlaced = v.filters.empty() && v.databases == 0 && v.safe && v.error.empty();
    if (c.verdict == "inconclusive" && v.limit.empty()) v.limit = v.undecided;
    if (v.counterexample)
      c.counterexampleSql =
          counterexampleScript(plan, *v.counterexample, nullptr, engine::scriptSpellings());
    c.bounded = std::move(v);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace rfguard
