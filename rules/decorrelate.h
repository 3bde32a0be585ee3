#pragma once
// Subquery decorrelation rules (local rewrites at a Filter node).
#include "ir/plan.h"

namespace rfguard {

/// EXISTS / NOT EXISTS conjuncts become LEFT SEMI / LEFT ANTI joins.
bool decorrelateExists(PlanPtr& node);
/// IN conjuncts become LEFT SEMI joins; uncorrelated NOT IN becomes a NULL-aware anti join.
bool decorrelateIn(PlanPtr& node);
/// Scalar subqueries in a conjunct become a join with a one-row (or one-row-per-key) side.
bool decorrelateScalarSubquery(PlanPtr& node);

}  // namespace rfguard
