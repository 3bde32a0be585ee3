#pragma once
// Unsafe edits of a sound placement, to test that the verifier catches each
// kind (issue 4): consumers moved into a NULL-generating side, below a LIMIT,
// into a build subtree; the nullAllowed flag dropped; a filter produced onto
// the probe side of an anti join or by an outer join; ids renamed.
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

/// One edited copy of a plan.
struct Mutant {
  std::string kind;  ///< "null-side", "below-limit", "into-build", "drop-null-allowed",
                     ///< "anti-probe", "outer-producer", "rename-consumer", "rename-producer"
  std::string what;  ///< the edit in words
  PlanPtr plan;
  std::vector<std::string> expect;  ///< finding codes of which the verifier must report one
};

/// Every applicable unsafe edit of `root`'s runtime-filter placement, one per mutant.
/// Edits that would only reproduce an existing consumer are not made.
std::vector<Mutant> mutatePlacement(const PlanNode& root);

}  // namespace rfguard
