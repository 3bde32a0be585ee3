#pragma once
// Row-count estimates from table statistics, for the filter kind, the scope
// and the cost thresholds of the runtime-filter planner.
#include <map>
#include <optional>
#include <string>

#include "ir/plan.h"

namespace rfguard {

/// An upper bound on a node's row count from table statistics (table -> rows), if one is known.
std::optional<long long> estimateRows(const PlanNode& n,
                                      const std::map<std::string, long long>& rows);

}  // namespace rfguard
