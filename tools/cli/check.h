#pragma once
// The `check` command: bounded verification of runtime-filter placements.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/cli.h"
#include "tools/cli/input_options.h"

namespace rfguard {

struct CheckArgs {
  std::vector<std::string> files;
  int bound = 2;
  std::string profile = "sound";
  std::string oracle = "none";
  std::string format = "text";
  double seconds = 10;
  bool rewrites = false;
  std::string method = "auto";
  uint64_t databases = 2000000;
  uint64_t oracleDatabases = 0;   ///< 0: the oracle sees every database
  std::string emitSql;            ///< write each counterexample script into this directory
  std::string progress = "auto";  ///< progress on stderr: auto (a terminal), always, never
  bool verbose = false;           ///< every import note, not one line per kind
  InputArgs input;
};

/// Runs `rfguard check`; returns the exit code.
int runCheck(const CheckArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
