#pragma once
// Small helpers shared by the normalisation rules.
#include <set>
#include <string>
#include <vector>

#include "ir/movement.h"
#include "ir/plan.h"

namespace rfguard {

/// A Filter node over `child` (or `child` itself when there are no conjuncts).
PlanPtr makeFilter(PlanPtr child, const std::vector<ExprPtr>& conjs, SourceLoc loc = {});
/// A join node with outputs computed.
PlanPtr makeJoin(JoinType type, PlanPtr left, PlanPtr right, ExprPtr condition, SourceLoc loc = {});
/// True when every element of `a` is in `b`.
bool subsetOf(const std::set<std::string>& a, const std::set<std::string>& b);
/// Pushes conjuncts into a Filter directly above `child` (merging with one that is there).
void addFilterAbove(PlanPtr& child, const std::vector<ExprPtr>& conjs);
/// True when a conjunct may move at all: deterministic and free of subqueries.
bool movable(const Expr& e);

}  // namespace rfguard
