#pragma once
// The `replay` command (docs/replay.md).
#include <ostream>
#include <string>

#include "tools/cli/cli.h"

namespace rfguard {

struct ReplayArgs {
  std::string file;
  std::string strategy = "correct";
  std::string format = "text";
};

/// Runs `rfguard replay`; returns the exit code.
int runReplay(const ReplayArgs& args, std::ostream& out, std::ostream& err);
/// The same for a scenario already in memory (`args.file` names it in errors).
int replayDocument(const std::string& text, const ReplayArgs& args, std::ostream& out,
                   std::ostream& err);

}  // namespace rfguard
