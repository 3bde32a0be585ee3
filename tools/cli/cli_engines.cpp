// The command group of each live engine (`rfguard duckdb`): its commands,
// their options and help, written once over the adapter interface.
#include "tools/cli/cli_engines.h"

#include "tools/cli/cli.h"

namespace rfguard {

namespace {

/// The engine's memory and time per statement (run, compare and diff).
void addLimitOptions(CLI::App* cmd, EngineLimits& limits, const std::string& who) {
  cmd->add_option("--memory-limit", limits.memoryLimitMb,
                  "MiB " + who + " may use; a query over it fails with " + who +
                      "'s out-of-memory error at its position (default 4096)")
      ->check(CLI::Range(16LL, 1LL << 30));
  cmd->add_option("--timeout", limits.timeoutSeconds,
                  "seconds a statement may run before it is interrupted and fails at its "
                  "position (default 300, 0: none)")
      ->check(CLI::Range(0.0, 1e6));
}

/// The options of the data the engine runs on (run and compare), each
/// command's defaults given for the help.
template <typename Args>
void addDataOptions(CLI::App* cmd, Args& args, const std::string& who, const std::string& threads,
                    const std::string& scale) {
  cmd->add_option("--threads", args.threads, who + "'s threads (default " + threads + ")")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--scale", args.scale,
                  "rows per table: WITH (rows = N) times this (default " + scale + ")")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed", args.seed, "seed of the generated data (default 1)");
  addLimitOptions(cmd, args.limits, who);
}

void addEngineGroup(CLI::App& app, OptionDefiners& options, EngineCommands& cmds) {
  const engine::Adapter& eng = *cmds.engine;
  const std::string name = eng.name(), who = eng.displayName();
  cmds.run.engine = cmds.compare.engine = cmds.diff.engine = &eng;
  auto* group =
      app.add_subcommand(name, who + " in the loop: run queries, import and lint its plans");
  group->require_subcommand(1);
  cmds.runCmd =
      group->add_subcommand("run", "run a SQL file's queries in " + who +
                                       " on generated data and lint " + who + "'s executed plans");
  options.emplace_back(cmds.runCmd, [&cmds, who] {
    CLI::App* cmd = cmds.runCmd;
    EngineRunArgs& args = cmds.run;
    cmd->add_option("file", args.file, "SQL file: CREATE TABLEs (WITH (rows = N)) and queries")
        ->required();
    addDataOptions(cmd, args, who, "2", "1");
    cmd->add_option("--format", args.format, "text, json or sarif (lint's formats)")
        ->check(CLI::IsMember({"text", "json", "sarif"}));
    cmd->add_option("--save-plans", args.savePlans,
                    "write " + who + "'s profile of each query to DIR/<query>.json");
    cmd->add_flag("--verbose", args.verbose,
                  "every note of the import of " + who + "'s plans, not one line per kind");
  });
  cmds.compareCmd = group->add_subcommand(
      "compare", "per query, the consumers " + who + " reports against the " + eng.profileName() +
                     " profile's, on " + who + "'s own join tree, every difference explained");
  options.emplace_back(cmds.compareCmd, [&cmds, who] {
    CLI::App* cmd = cmds.compareCmd;
    EngineCompareArgs& args = cmds.compare;
    cmd->add_option("file", args.file, "SQL file")->required();
    addDataOptions(cmd, args, who, "1", "0.01");
    cmd->add_option("--format", args.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
  });
  cmds.runCmd->footer(
      "Exit codes: as rfguard lint's: 0 clean, 1 findings, 2 usage or input error (" + who +
      "'s refusal located at the query).\n\nExamples:\n  rfguard " + name +
      " run --scale 0.01 corpus/examples/tpch.sql\n  rfguard " + name +
      " run --format sarif --save-plans plans/ queries.sql\n\nDocs: docs/" + name + ".md");
  cmds.compareCmd->footer("Exit codes: 0 every difference between the " + eng.profileName() +
                          " profile and " + who +
                          "'s own placements explained, 1 an unexplained one, 2 usage or input "
                          "error.\n\nExample:\n  rfguard " +
                          name + " compare corpus/examples/ssb.sql\n\nDocs: docs/" + name + ".md");
  if (!eng.differential()) return;
  cmds.diffCmd = group->add_subcommand(
      "diff", "random queries in " + who +
                  " with its runtime filters on and off: any different result shrunk to a "
                  "minimal reproducer, linted and written out as a " +
                  who + " script");
  options.emplace_back(cmds.diffCmd, [&cmds, who] {
    CLI::App* cmd = cmds.diffCmd;
    DiffArgs& args = cmds.diff;
    cmd->add_option("--seed", args.seed, "seed of the data and queries (default 1)");
    cmd->add_option("--queries", args.queries, "queries to run (default 100)")
        ->check(CLI::Range(1, 10000000));
    cmd->add_option("--threads", args.options.threads, who + "'s threads (default 2)")
        ->check(CLI::Range(1, 256));
    addLimitOptions(cmd, cmds.diffLimits, who);
    cmd->add_option("--big", args.bigRows, "rows of the large probe table t0 (default 100000)")
        ->check(CLI::Range(1, 100000000));
    cmd->add_option("--out", args.out, "write each difference as DIR/diff_<n>.sql");
    cmd->add_option("--shrink-tests", args.shrinkTests,
                    "runs spent shrinking each difference to the simplest query and fewest rows "
                    "that still show it (default 200, 0: none)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--evaluator-rows", args.evaluatorRows,
                    "queries whose tables have at most this many rows are also run by rfguard's "
                    "evaluator, as bound, normalised and with its own filters (default 2000, 0: "
                    "never)")
        ->check(CLI::Range(0, 100000000));
    cmd->add_option("--format", args.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_flag("--verbose", args.verbose, "also list the queries " + who + " refused");
  });
  cmds.diffCmd->footer(
      "Exit codes: 0 no result differs with runtime filters on and off, 1 one does (each "
      "written with --out) or rfguard's evaluator disagrees with " +
      who + ", 2 usage error.\n\nExamples:\n  rfguard " + name +
      " diff --queries 100 --seed 5\n  rfguard " + name +
      " diff --queries 1000 --threads 2 --out diffs/\n\nDocs: docs/" + name + ".md");
}

}  // namespace

void addEngineCommands(CLI::App& app, OptionDefiners& options,
                       std::vector<std::unique_ptr<EngineCommands>>& cmds) {
  for (const engine::Adapter* a : engine::adapters()) {
    if (!a->live()) continue;
    cmds.push_back(std::make_unique<EngineCommands>());
    cmds.back()->engine = a;
    addEngineGroup(app, options, *cmds.back());
  }
}

int runEngineCommand(const std::vector<std::unique_ptr<EngineCommands>>& cmds, std::ostream& out,
                     std::ostream& err) {
  for (const auto& c : cmds) {
    if (c->runCmd->parsed()) return runEngineRun(c->run, out, err);
    if (c->compareCmd->parsed()) return runEngineCompare(c->compare, out, err);
    if (c->diffCmd && c->diffCmd->parsed()) {
      DiffArgs args = c->diff;
      args.options.memoryLimitMb = c->diffLimits.memoryLimitMb;
      args.options.timeoutSeconds = c->diffLimits.timeoutSeconds;
      switch (runDifferential(args, out, err)) {
        case DiffOutcome::Clean:
          return kExitOk;
        case DiffOutcome::Differences:
          return kExitFindings;
        case DiffOutcome::Error:
          return kExitInputError;
      }
    }
  }
  return -1;
}

}  // namespace rfguard
