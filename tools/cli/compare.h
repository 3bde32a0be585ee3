#pragma once
// `rfguard compare`: an engine's own placements against rfguard's, on the
// engine's own join trees (docs/engines.md).
#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/input_options.h"

namespace rfguard {

struct CompareArgs {
  std::vector<std::string> files;
  InputArgs input;
  std::string format = "text";  ///< text or json
  /// SQL files of the same queries (`-- name: q5`): rfguard's own plan of
  /// each, whose join tree is compared with the engine's (docs/join-order.md).
  std::vector<std::string> queries;
};

/// Per query of an engine's plans: the consumers the engine placed against
/// the ones the sound profile places on the same join tree (both, the
/// engine's only, rfguard's only), and against the engine's own profile.
/// Exit 0, or 2 on input errors (a report, not a gate).
int runCompare(const CompareArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
