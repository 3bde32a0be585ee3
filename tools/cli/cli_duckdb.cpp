// The `rfguard duckdb` command group: its commands, their options and help.
#include "tools/cli/cli_duckdb.h"

namespace rfguard {

namespace {

/// DuckDB's memory and time per statement (run, compare and diff).
void addLimitOptions(CLI::App* cmd, DuckDbLimits& limits) {
  cmd->add_option("--memory-limit", limits.memoryLimitMb,
                  "MiB DuckDB may use; a query over it fails with DuckDB's out-of-memory error "
                  "at its position (default 4096)")
      ->check(CLI::Range(16LL, 1LL << 30));
  cmd->add_option("--timeout", limits.timeoutSeconds,
                  "seconds a statement may run before it is interrupted and fails at its "
                  "position (default 300, 0: none)")
      ->check(CLI::Range(0.0, 1e6));
}

/// The options of the data DuckDB runs on (duckdb run and compare), each
/// command's defaults given for the help.
template <typename Args>
void addDataOptions(CLI::App* cmd, Args& args, const std::string& threads,
                    const std::string& scale) {
  cmd->add_option("--threads", args.threads, "DuckDB's threads (default " + threads + ")")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--scale", args.scale,
                  "rows per table: WITH (rows = N) times this (default " + scale + ")")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed", args.seed, "seed of the generated data (default 1)");
  addLimitOptions(cmd, args.limits);
}

}  // namespace

void addDuckDbCommands(CLI::App& app, OptionDefiners& options, DuckDbCommands& cmds) {
  auto* duckCmd =
      app.add_subcommand("duckdb", "DuckDB in the loop: run queries, import and lint its plans");
  duckCmd->require_subcommand(1);
  cmds.runCmd = duckCmd->add_subcommand(
      "run",
      "run a SQL file's queries in DuckDB on generated data and lint DuckDB's executed plans");
  options.emplace_back(cmds.runCmd, [&cmds] {
    CLI::App* duckRunCmd = cmds.runCmd;
    DuckDbRunArgs& duckRun = cmds.run;
    duckRunCmd
        ->add_option("file", duckRun.file, "SQL file: CREATE TABLEs (WITH (rows = N)) and queries")
        ->required();
    addDataOptions(duckRunCmd, duckRun, "2", "1");
    duckRunCmd->add_option("--format", duckRun.format, "text, json or sarif (lint's formats)")
        ->check(CLI::IsMember({"text", "json", "sarif"}));
    duckRunCmd->add_option("--save-plans", duckRun.savePlans,
                           "write DuckDB's profile of each query to DIR/<query>.json");
  });
  cmds.compareCmd = duckCmd->add_subcommand(
      "compare",
      "per query, the consumers DuckDB reports against the duckdb profile's, on DuckDB's "
      "own join tree, every difference explained");
  options.emplace_back(cmds.compareCmd, [&cmds] {
    CLI::App* duckCompareCmd = cmds.compareCmd;
    DuckDbCompareArgs& duckCompare = cmds.compare;
    duckCompareCmd->add_option("file", duckCompare.file, "SQL file")->required();
    addDataOptions(duckCompareCmd, duckCompare, "1", "0.01");
    duckCompareCmd->add_option("--format", duckCompare.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
  });
  cmds.diffCmd = duckCmd->add_subcommand(
      "diff",
      "random queries in DuckDB with join filter pushdown on and off: any different "
      "result shrunk to a minimal reproducer, linted and written out as a DuckDB script");
  options.emplace_back(cmds.diffCmd, [&cmds] {
    CLI::App* duckDiffCmd = cmds.diffCmd;
    DuckDbDiffArgs& duckDiff = cmds.diff;
    duckDiffCmd->add_option("--seed", duckDiff.seed, "seed of the data and queries (default 1)");
    duckDiffCmd->add_option("--queries", duckDiff.queries, "queries to run (default 100)")
        ->check(CLI::Range(1, 10000000));
    duckDiffCmd->add_option("--threads", duckDiff.threads, "DuckDB's threads (default 2)")
        ->check(CLI::Range(1, 256));
    addLimitOptions(duckDiffCmd, duckDiff.limits);
    duckDiffCmd
        ->add_option("--big", duckDiff.bigRows, "rows of the large probe table t0 (default 100000)")
        ->check(CLI::Range(1, 100000000));
    duckDiffCmd->add_option("--out", duckDiff.out, "write each difference as DIR/diff_<n>.sql");
    duckDiffCmd
        ->add_option("--shrink-tests", duckDiff.shrinkTests,
                     "runs spent shrinking each difference to the simplest query and fewest rows "
                     "that still show it (default 200, 0: none)")
        ->check(CLI::Range(0, 100000));
    duckDiffCmd
        ->add_option("--evaluator-rows", duckDiff.evaluatorRows,
                     "queries whose tables have at most this many rows are also run by rfguard's "
                     "evaluator, as bound, normalised and with its own filters (default 2000, 0: "
                     "never)")
        ->check(CLI::Range(0, 100000000));
    duckDiffCmd->add_option("--format", duckDiff.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    duckDiffCmd->add_flag("--verbose", duckDiff.verbose, "also list the queries DuckDB refused");
  });
  cmds.runCmd->footer(
      "Exit codes: as rfguard lint's: 0 clean, 1 findings, 2 usage or input error (DuckDB's "
      "refusal located at the query).\n\nExamples:\n  rfguard duckdb run --scale 0.01 "
      "corpus/examples/tpch.sql\n  rfguard duckdb run --format sarif --save-plans plans/ "
      "queries.sql\n\nDocs: docs/duckdb.md");
  cmds.compareCmd->footer(
      "Exit codes: 0 every difference between the duckdb profile and DuckDB's own placements "
      "explained, 1 an unexplained one, 2 usage or input error.\n\nExample:\n  rfguard duckdb "
      "compare corpus/examples/ssb.sql\n\nDocs: docs/duckdb.md");
  cmds.diffCmd->footer(
      "Exit codes: 0 no result differs with join filter pushdown on and off, 1 one does (each "
      "written with --out) or rfguard's evaluator disagrees with DuckDB, 2 usage "
      "error.\n\nExamples:\n  rfguard duckdb diff --queries 100 "
      "--seed 5\n  rfguard duckdb diff --queries 1000 --threads 2 --out diffs/\n\nDocs: "
      "docs/duckdb.md");
}

int runDuckDbCommand(const DuckDbCommands& cmds, std::ostream& out, std::ostream& err) {
  if (cmds.runCmd->parsed()) return runDuckDbRun(cmds.run, out, err);
  if (cmds.compareCmd->parsed()) return runDuckDbCompare(cmds.compare, out, err);
  if (cmds.diffCmd->parsed()) return runDuckDbDiff(cmds.diff, out, err);
  return -1;
}

}  // namespace rfguard
