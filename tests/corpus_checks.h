#pragma once
// Checks the corpus runner applies to every plan it loads from SQL, beyond the
// case's own expectation: the sound placement verifies clean, and every unsafe
// edit of it is caught by the verifier.
#include <string>
#include <vector>

#include "ir/plan.h"
#include "verifier/findings.h"

namespace rfguard {

/// Mutants tried and caught over a run, by kind.
struct MutantTally {
  int tried = 0;
  int caught = 0;
  std::vector<std::pair<std::string, std::pair<int, int>>> byKind;  ///< kind -> (tried, caught)
  void add(const std::string& kind, bool wasCaught);
};

/// One line per finding: severity, code, nodes, position, message; "clean" when none.
std::string findingLines(const std::vector<Finding>& fs);

/// Places the sound profile's filters (per conjunct, then composite) on copies of a
/// normalised plan; verifies each and every mutant of it. Returns "" when the
/// placements verify clean and every mutant is caught, else what went wrong.
std::string soundCheck(const PlanNode& plan, const std::string& name, MutantTally& tally);

}  // namespace rfguard
