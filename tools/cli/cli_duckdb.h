#pragma once
// Internal to tools/cli: the `rfguard duckdb` command group, defined apart from
// the other commands (cli.cpp).
#include <functional>
#include <ostream>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/cli/duckdb_diff.h"
#include "tools/cli/duckdb_run.h"

namespace rfguard {

/// Each command with the function that defines its options, run only for the
/// command being run (CLI11 builds several objects per option).
using OptionDefiners = std::vector<std::pair<CLI::App*, std::function<void()>>>;

/// The duckdb commands' arguments and their CLI11 commands.
struct DuckDbCommands {
  DuckDbRunArgs run;
  DuckDbCompareArgs compare;
  DuckDbDiffArgs diff;
  CLI::App* runCmd = nullptr;
  CLI::App* compareCmd = nullptr;
  CLI::App* diffCmd = nullptr;
};

/// Adds `duckdb run`, `duckdb compare` and `duckdb diff` to `app`, their option
/// definitions to `options`; `cmds` must outlive the parse.
void addDuckDbCommands(CLI::App& app, OptionDefiners& options, DuckDbCommands& cmds);

/// Runs the duckdb command that was parsed: its exit code, or -1 when none was.
int runDuckDbCommand(const DuckDbCommands& cmds, std::ostream& out, std::ostream& err);

}  // namespace rfguard
