#pragma once
// Runtime filters removed from a plan, before the planner places its own.
#include "ir/plan.h"

namespace rfguard {

/// Every runtime filter of the plan gone, subquery plans' too (the planner
/// places none there: a plan JSON's own would otherwise stay and be judged
/// as the profile's). Subquery plans are changed on copies: clonePlan shares them.
void clearRuntimeFilters(PlanNode& n);

}  // namespace rfguard
