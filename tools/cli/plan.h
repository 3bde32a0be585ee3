#pragma once
// The `plan` command: each query's normalised plan with its runtime filters.
#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/input_options.h"

namespace rfguard {

struct PlanArgs {
  std::vector<std::string> files;
  std::string format = "text";
  std::vector<std::string> disabled;
  bool listRules = false;
  bool showRules = false;
  bool verify = false;
  bool noRuntimeFilters = false;
  bool explain = false;
  std::string profile = "sound";
  bool compare = false;
  bool cost = false;
  bool composite = false;
  std::string trace;  ///< directory for one normalisation trace per query
  InputArgs input;
};

/// Runs `rfguard plan`; returns the exit code.
int runPlan(const PlanArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
