#pragma once
// Predicate pushdown rules (local rewrites at one node).
#include "ir/plan.h"

namespace rfguard {

/// Filter over a join: conjuncts move into a side or, for inner/cross joins, into the condition.
bool pushFilterIntoJoin(PlanPtr& node);
/// Join condition conjuncts that read one side move into that side where the join type allows.
bool pushJoinConditionIntoSides(PlanPtr& node);
/// (a AND x) OR (a AND y) becomes a AND (x OR y), in filters and join conditions.
bool extractCommonOrConjuncts(PlanPtr& node);
/// Filter over Filter becomes one Filter.
bool mergeFilters(PlanPtr& node);
/// Filter over a deterministic Project moves below it, with the projection substituted.
bool pushFilterThroughProject(PlanPtr& node);
/// Filter over an Aggregate: conjuncts over group keys present in every grouping set move below.
bool pushFilterThroughAggregate(PlanPtr& node);
/// Filter over Sort moves below it.
bool pushFilterThroughSort(PlanPtr& node);
/// Filter over a Window: conjuncts over columns in every window's PARTITION BY move below.
bool pushFilterThroughWindow(PlanPtr& node);
/// Filter over UNION/INTERSECT goes into every child; over EXCEPT into the left child.
bool pushFilterThroughSetOp(PlanPtr& node);

}  // namespace rfguard
