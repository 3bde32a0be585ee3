#pragma once
// The `equiv` command: is a rewritten plan equal to the original on every
// database (to a bound)? Two inputs, or an optimizer's trace (docs/equiv.md).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/cli.h"
#include "tools/cli/input_options.h"

namespace rfguard {

struct EquivArgs {
  std::vector<std::string> files;  ///< ORIGINAL REWRITTEN
  std::string trace;               ///< a trace file instead of two files
  int bound = 2;
  std::string oracle = "none";
  std::string format = "text";
  double seconds = 10;
  uint64_t databases = 2000000;
  uint64_t oracleDatabases = 0;  ///< 0: the oracle sees every database
  bool noProof = false;          ///< search even where the normal forms prove equality
  InputArgs input;
};

/// Runs `rfguard equiv`; returns the exit code: 0 equivalent up to the bound
/// reached (a verdict says when that is below the bound asked for), 1 different
/// (or the SQLite cross-check disagreed), 2 input error or a plan that cannot be
/// evaluated.
int runEquiv(const EquivArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
