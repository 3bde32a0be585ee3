#pragma once
// Internal to tools/cli: every command of the rfguard command line, its
// arguments and its CLI11 command, defined apart from the parsing and
// dispatch of runCli (cli.cpp).
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/cli/check.h"
#include "tools/cli/cli_engines.h"
#include "tools/cli/compare.h"
#include "tools/cli/equiv.h"
#include "tools/cli/lint.h"
#include "tools/cli/plan.h"
#include "tools/cli/replay.h"
#include "tools/cli/rule_help.h"

namespace rfguard {

/// Every command's arguments and CLI11 command; must outlive the parse.
struct Commands {
  PlanArgs plan;
  LintArgs lint;
  ReplayArgs replay;
  CheckArgs check;
  EquivArgs equiv;
  CompareArgs compare;
  RuleArgs rule;
  std::string shell;   ///< completion's shell
  std::string manDir;  ///< man-pages' output directory
  std::vector<std::unique_ptr<EngineCommands>> engines;
  CLI::App* planCmd = nullptr;
  CLI::App* lintCmd = nullptr;
  CLI::App* replayCmd = nullptr;
  CLI::App* checkCmd = nullptr;
  CLI::App* equivCmd = nullptr;
  CLI::App* compareCmd = nullptr;
  CLI::App* ruleCmd = nullptr;
  CLI::App* completionCmd = nullptr;
  CLI::App* manCmd = nullptr;  ///< hidden from --help: the build writes the man pages with it
};

/// Adds every command to `app`, and to `options` the function that defines
/// each one's options (run only for the command being run).
void addCommands(CLI::App& app, OptionDefiners& options, Commands& c);

}  // namespace rfguard
