#pragma once
// Internal to tools/cli: the consumers a plan carries, as (producer, scan,
// target) triples, for comparing two placements on the same join tree
// (`<engine> compare`, `compare`).
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

/// A consumer: the producing node and the target at the scan.
struct Placed {
  int producer = 0;
  int scan = 0;
  std::string target;
  bool operator<(const Placed& o) const;
  bool operator==(const Placed& o) const;
};

/// The consumers placed on `plan`, sorted.
std::vector<Placed> placements(const PlanNode& plan);

}  // namespace rfguard
