#pragma once
// The plan verifier: closure (docs/design.md section 5) and a safety proof search for
// every consumer (docs/design.md section 3). It judges placements it did not make.
#include <vector>

#include "ir/plan.h"
#include "verifier/findings.h"

namespace rfguard {

/// Every finding about the runtime filters of the plan under `root` (node ids
/// must be unique). Sorted by filter id, then by code order. Empty: the
/// placement is closed and every consumer has a justified derivation.
std::vector<Finding> verifyRuntimeFilters(const PlanNode& root);

}  // namespace rfguard
