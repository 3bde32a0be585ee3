#pragma once
// Internal to tools/cli: the command group of each engine that can run in
// rfguard's process (`rfguard duckdb run|compare|diff`), one per adapter of
// the registry (engines/adapter.h), defined apart from the other commands.
// `diff` is the differential driver of testgen/.
#include <functional>
#include <memory>
#include <ostream>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "testgen/differential.h"
#include "tools/cli/engine_run.h"

namespace rfguard {

/// Each command with the function that defines its options, run only for the
/// command being run (CLI11 builds several objects per option).
using OptionDefiners = std::vector<std::pair<CLI::App*, std::function<void()>>>;

/// One engine's commands: their arguments and their CLI11 commands.
struct EngineCommands {
  const engine::Adapter* engine = nullptr;
  EngineRunArgs run;
  EngineCompareArgs compare;
  DiffArgs diff;
  EngineLimits diffLimits;  ///< diff's --memory-limit and --timeout, into diff.options
  CLI::App* runCmd = nullptr;
  CLI::App* compareCmd = nullptr;
  CLI::App* diffCmd = nullptr;  ///< null when the engine takes no differential queries
};

/// Adds `<engine> run`, `<engine> compare` (and `<engine> diff`) to `app` for
/// every engine that can run live, their option definitions to `options`;
/// `cmds` must outlive the parse.
void addEngineCommands(CLI::App& app, OptionDefiners& options,
                       std::vector<std::unique_ptr<EngineCommands>>& cmds);

/// Runs the engine command that was parsed: its exit code, or -1 when none was.
int runEngineCommand(const std::vector<std::unique_ptr<EngineCommands>>& cmds, std::ostream& out,
                     std::ostream& err);

}  // namespace rfguard
