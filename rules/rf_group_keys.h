#pragma once
// Internal to rules/: the aggregate passages of canPassThrough beyond keys
// present in every grouping set (ir/movement.h's moveInto).
#include "ir/plan.h"

namespace rfguard {

/// `e` over an aggregate's stable keys and min/max/any_value of them, as the
/// keys' expressions below; null when `e` reads anything else.
ExprPtr intoKeyedAggregates(const PlanNode& agg, const ExprPtr& e);
/// `e` over ROLLUP/CUBE keys as the keys' expressions below, where every
/// grouping set lacking one makes `e` NULL and `f` does not match NULL keys;
/// null otherwise.
ExprPtr intoRolledUpKeys(const PlanNode& agg, const ExprPtr& e, const RuntimeFilter& f);

}  // namespace rfguard
