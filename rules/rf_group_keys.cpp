// Aggregate keys a runtime filter may pass as (rules/rf_group_keys.h).
#include "rules/rf_group_keys.h"

#include <algorithm>
#include <set>

#include "ir/functions.h"

namespace rfguard {

/// `e` over an aggregate's keys and min/max/any_value of a key (which equal
/// that key in every group), as the keys' expressions below: SELECT k, min(k) m
/// ... GROUP BY k JOIN b ON g.m = b.k filters whole groups by k.
ExprPtr intoKeyedAggregates(const PlanNode& agg, const ExprPtr& e) {
  if (agg.exprs.empty()) return nullptr;
  auto below = [&](const std::string& id) -> const ExprPtr* {
    if (const ExprPtr* k = stableKeyAs(agg, id)) return k;
    for (const auto& a : agg.aggs) {
      if (a.name != id || a.args.size() != 1) continue;
      if (a.func != "min" && a.func != "max" && a.func != "any_value") return nullptr;
      for (size_t i = 0; i < agg.exprs.size(); ++i)
        if (keyInEverySet(agg, i) && exprEquals(agg.exprs[i].expr, a.args[0]))
          return &agg.exprs[i].expr;
    }
    return nullptr;
  };
  if (!allColumnRefs(*e, [&](const std::string& c) { return below(c) != nullptr; })) return nullptr;
  return substituteBy(e, below);
}

/// `e` over an aggregate's keys, some of them missing from some grouping sets
/// (ROLLUP, CUBE), as the keys' expressions below: where every grouping set
/// that lacks one of e's keys makes `e` NULL (e is NULL-propagating in the keys
/// it lacks) and the producer rejects a NULL key (the filter does not match
/// NULL keys). The subtotals the filter changes then all have `e` NULL and are
/// dropped by the producer anyway: GROUP BY ROLLUP(k) JOIN b ON g.k = b.k with
/// a filter on k below: the grand total shrinks, but its k is NULL and `=`
/// rejects it. With `<=>` it would match a NULL in b: not then.
ExprPtr intoRolledUpKeys(const PlanNode& agg, const ExprPtr& e, const RuntimeFilter& f) {
  if (agg.exprs.empty() || agg.groupingSets.empty() || matchesNullKeys(f) || !isDeterministic(*e))
    return nullptr;
  auto keyIndex = [&](const std::string& id) -> int {
    for (size_t i = agg.exprs.size(); i-- > 0;)
      if (agg.exprs[i].name == id) return static_cast<int>(i);
    return -1;
  };
  if (!allColumnRefs(*e, [&](const std::string& c) { return keyIndex(c) >= 0; })) return nullptr;
  const std::set<std::string> cols = columnsOf(*e);
  for (const auto& set : agg.groupingSets) {
    std::set<std::string> missing;
    for (const auto& c : cols)
      if (std::find(set.begin(), set.end(), keyIndex(c)) == set.end()) missing.insert(c);
    if (!missing.empty() && !isNullPropagating(*e, missing)) return nullptr;
  }
  return substituteBy(e, [&](const std::string& id) -> const ExprPtr* {
    int i = keyIndex(id);
    return i < 0 ? nullptr : &agg.exprs[static_cast<size_t>(i)].expr;
  });
}

}  // namespace rfguard
