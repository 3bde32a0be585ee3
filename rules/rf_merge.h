#pragma once
// Merging duplicate runtime filters: one filter per (join, build key, consumer).
#include "rules/rf_planner.h"

namespace rfguard {

/// After placement: removes each consumer that an earlier filter of the same
/// join with the same build key, comparison, flags, kinds and scope already
/// serves at the same scan expression, and each filter left without consumers.
/// Records every removal in `report.merged` (for --explain).
void mergeDuplicateFilters(PlanNode& root, RfReport& report);

}  // namespace rfguard
