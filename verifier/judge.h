#pragma once
// The second judge of lint (issue 43): a consumer the rules cannot justify is
// handed to the bounded verifier, on a copy of the plan that keeps only that
// filter and that consumer. A counterexample confirms the finding (an error,
// with the database); without one the finding is a warning, "not proven safe",
// since the search covers a bounded space, not every database.
#include <cstdint>
#include <vector>

#include "ir/plan.h"
#include "verifier/findings.h"

namespace rfguard {

/// How hard the second judge searches for each finding it is given.
struct JudgeOptions {
  int bound = 2;                  ///< most rows per table
  uint64_t maxDatabases = 50000;  ///< per finding, so that a run is the same on any machine
  double seconds = 2;             ///< a ceiling per finding, for plans with huge spaces
};

/// True for the codes the rules' derivation search reports (a step refused, or
/// no step at all), which a search can confirm or leave open; closure findings
/// (ids, positions, kinds, waits) stay as they are.
bool judgedBySearch(const std::string& code);

/// Judges each such finding of `findings` (from verifyRuntimeFilters(root)) by
/// the bounded search and records the verdict in it: Finding::judge, the
/// severity, and a sentence added to the message.
void judgeFindings(const PlanNode& root, std::vector<Finding>& findings,
                   const JudgeOptions& options = {});

}  // namespace rfguard
