// Every command of the rfguard command line with its options and help
// (cli_commands.h); runCli (cli.cpp) parses and dispatches.
#include "tools/cli/cli_commands.h"

#include <string>
#include <vector>

#include "execution/replay.h"
#include "rules/rf_planner.h"
#include "tools/cli/completion.h"

namespace rfguard {

namespace {

/// The bounded search's options, shared by check and equiv.
template <typename Args>
void addSearchOptions(CLI::App* cmd, Args& args) {
  cmd->add_option("--bound", args.bound, "most rows per table (default 2)")
      ->check(CLI::Range(1, 6));
  CLI::Option* seconds =
      cmd->add_option("--seconds", args.seconds, "time budget per search (default 10)")
          ->check(CLI::PositiveNumber);
  CLI::Option* databases =
      cmd->add_option("--databases", args.databases,
                      "database budget per search (default 2000000); given without --seconds, "
                      "the only budget, so the verdict is the same on any machine")
          ->check(CLI::PositiveNumber);
  // A time budget's reach depends on the machine; --databases alone replaces it.
  cmd->parse_complete_callback([seconds, databases, &args] {
    if (databases->count() > 0 && seconds->count() == 0) args.seconds = 1e9;
  });
  std::vector<std::string> oracles = {"none", "sqlite"};
  std::string live;
  for (const engine::Adapter* a : engine::adapters())
    if (a->live()) {
      oracles.push_back(a->name());
      live += (live.empty() ? "" : ", ") + a->name();
    }
  cmd->add_option(
         "--oracle", args.oracle,
         "none (default), sqlite, or a linked engine (" + live + "): cross-check the evaluator")
      ->check(CLI::IsMember(oracles));
  cmd->add_option("--oracle-databases", args.oracleDatabases,
                  "the oracle sees only the first N databases of each search (default 0: all; "
                  "DuckDB takes milliseconds per query)")
      ->check(CLI::NonNegativeNumber);
}

/// The names of every profile, from the profile table.
std::vector<std::string> profileNames() {
  std::vector<std::string> names;
  for (const auto& p : allProfileInfos()) names.push_back(p.name);
  return names;
}

/// `rfguard plan`: each query's normalised plan.
void addPlanCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  PlanArgs& plan = c.plan;
  auto* cmd = app.add_subcommand("plan", "print each query's normalised plan");
  options.emplace_back(cmd, [&, cmd] {
    cmd->add_option("files", plan.files, "SQL or plan JSON files, - for stdin");
    cmd->add_option("--format", plan.format, "text, json, dot (Graphviz) or mermaid (Markdown)")
        ->check(CLI::IsMember({"text", "json", "dot", "mermaid"}));
    cmd->add_option("--disable", plan.disabled, "switch off a normalisation rule (repeatable)")
        ->allow_extra_args(false)
        ->type_name("RULE");
    cmd->add_flag("--list-rules", plan.listRules,
                  "list the normalisation and runtime-filter rules and exit");
    cmd->add_flag("--show-rules", plan.showRules,
                  "after each text plan, list the rules that fired");
    cmd->add_flag("--verify-rewrites", plan.verify, "check plan invariants after every rewrite");
    cmd->add_option("--trace", plan.trace,
                    "write DIR/<query>.jsonl: the plan as bound, then after every normalisation "
                    "rule that changed it (for rfguard equiv --trace)");
    cmd->add_flag("--no-runtime-filters", plan.noRuntimeFilters,
                  "normalise only, place no runtime filters");
    cmd->add_option("--profile", plan.profile,
                    "placement policy: sound (default), doris, starrocks, trino, duckdb")
        ->check(CLI::IsMember(profileNames()));
    cmd->add_flag("--cost", plan.cost,
                  "build only filters that pass the trigger thresholds (probe >= 100000 rows, "
                  "build/probe <= 0.1)");
    cmd->add_flag(
        "--composite", plan.composite,
        "one composite filter over all equality conjuncts of a join instead of one per conjunct");
    cmd->add_flag("--compare", plan.compare,
                  "per query, the consumers each profile places, side by side");
    cmd->add_flag("--explain", plan.explain,
                  "after each text plan, every runtime-filter decision with its rule and reason");
    addInputOptions(cmd, plan.input);
  });
  cmd->footer(
      "Exit codes: 0 planned, 2 usage or input error (located: file:line:col, or a JSON "
      "pointer).\n\nExamples:\n  rfguard plan queries.sql\n  rfguard plan --explain --profile "
      "starrocks queries.sql\n  rfguard plan --format json a.sql b.sql > plans.jsonl   (JSON "
      "Lines for several inputs)\n  rfguard plan --format dot q.sql | dot -Tsvg > q.svg\n  "
      "rfguard plan --compare --format json queries.sql\n\nDocs: docs/plan-json.md, "
      "docs/rules.md");
  c.planCmd = cmd;
}

/// `rfguard lint`: placements verified, for CI.
void addLintCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  LintArgs& lint = c.lint;
  auto* lintCmd = app.add_subcommand(
      "lint", "verify runtime-filter placements: plan JSON as given, SQL as the profile plans it");
  options.emplace_back(lintCmd, [&, lintCmd] {
    lintCmd->add_option("files", lint.files,
                        "SQL or plan JSON files, directories (walked for *.sql, *.json, *.jsonl), "
                        "- for stdin");
    lintCmd
        ->add_option("--exclude", lint.exclude,
                     "leave out files found in directories whose path or name matches this "
                     "glob (repeatable)")
        ->allow_extra_args(false);
    lintCmd->add_option("--format", lint.format, "text, json, sarif or gitlab (Code Quality)")
        ->check(CLI::IsMember({"text", "json", "sarif", "gitlab"}));
    lintCmd
        ->add_option(
            "--profile", lint.profile,
            "placement policy for SQL inputs: sound (default), doris, starrocks, trino, duckdb")
        ->check(CLI::IsMember(profileNames()));
    lintCmd->add_flag("--composite", lint.composite,
                      "plan composite filters over all equality conjuncts of a join (SQL inputs)");
    lintCmd
        ->add_option("--fail-on", lint.failOn,
                     "what exits 1: error, warning (default: any finding) or never")
        ->check(CLI::IsMember({"error", "warning", "never"}));
    lintCmd->add_flag("--quiet", lint.quiet, "report errors only, no warnings");
    lintCmd->add_flag("--show-suppressed", lint.showSuppressed,
                      "also list suppressed findings, marked (text format)");
    lintCmd->add_flag("--verbose", lint.verbose,
                      "every note of an engine plan's import, not one line per kind");
    lintCmd->add_option("--output", lint.output, "write the report to FILE instead of stdout");
    lintCmd->add_option("--stdin-filename", lint.stdinFilename,
                        "the name reports give input read from - (stdin)");
    lintCmd
        ->add_option("--color", lint.color,
                     "auto (default: a terminal, unless NO_COLOR), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    lintCmd->add_option("--baseline", lint.baseline,
                        "report only findings not recorded in this baseline file");
    lintCmd->add_option("--write-baseline", lint.writeBaseline,
                        "record the findings reported as a baseline file (and exit 0)");
    lintCmd->add_option("--config", lint.config,
                        "settings file (default: the nearest .rfguard.toml upwards)");
    lintCmd->add_flag("--no-config", lint.noConfig, "read no .rfguard.toml");
    lintCmd
        ->add_option("--jobs,-j", lint.jobs,
                     "files linted at once (default 0: one per core); the report keeps the "
                     "order of the inputs")
        ->check(CLI::Range(0, 1024));
    lintCmd
        ->add_option("--docs-url", lint.docsUrl,
                     "base URL of a published copy of rfguard's docs: SARIF rules link to "
                     "URL/findings.md#<code> (default: no link; each rule carries its whole help)")
        ->type_name("URL");
    addInputOptions(lintCmd, lint.input);
  });
  lintCmd->footer(
      "Defaults: --format text, --profile sound, --fail-on warning, --color auto; settings "
      "from the nearest .rfguard.toml, command-line flags win.\n\nExit codes: 0 nothing "
      "reported (or --fail-on allows it), 1 findings, 2 usage or input error.\n\n"
      "Examples:\n  rfguard lint plans/\n  rfguard lint --profile starrocks --format sarif "
      "--output rfguard.sarif queries/\n  rfguard lint --write-baseline baseline.json plans/\n"
      "  rfguard lint --baseline baseline.json --fail-on error plans/\n  cat q.sql | rfguard "
      "lint --stdin-filename q.sql -\n\nDocs: docs/lint.md, docs/findings.md");
  c.lintCmd = lintCmd;
}

/// `rfguard replay`: a sharded publication scenario.
void addReplayCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  ReplayArgs& replay = c.replay;
  auto* replayCmd =
      app.add_subcommand("replay", "replay a sharded filter publication scenario (docs/replay.md)");
  options.emplace_back(replayCmd, [&, replayCmd] {
    replayCmd->add_option("scenario", replay.file, "scenario JSON, - for stdin")->required();
    std::vector<std::string> strategies;
    for (rt::Strategy s : rt::allStrategies()) strategies.push_back(rt::strategyName(s));
    replayCmd
        ->add_option("--strategy", replay.strategy,
                     "correct (default), or a wrong protocol: partial-or, and, stale-epoch-counts, "
                     "top-as-zero, missing-as-empty; or wrong content: null-unaware")
        ->check(CLI::IsMember(strategies));
    replayCmd->add_option("--format", replay.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
  });
  replayCmd->footer(
      "Exit codes: 0 replayed, 1 the query fails (a conflicting digest), 2 input error (a JSON "
      "pointer).\n\nExamples:\n  rfguard replay corpus/replay/worked.json\n  rfguard replay "
      "--strategy partial-or --format json corpus/replay/worked.json\n  rfguard replay "
      "--strategy null-unaware corpus/replay/in_null_safe.json\n\nDocs: docs/replay.md");
  c.replayCmd = replayCmd;
}

/// `rfguard check`: the bounded search for filters that change results.
void addCheckCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  CheckArgs& check = c.check;
  auto* checkCmd = app.add_subcommand(
      "check", "bounded verification: search small databases on which the filters change results");
  options.emplace_back(checkCmd, [&, checkCmd] {
    checkCmd->add_option("files", check.files, "SQL or plan JSON files, - for stdin");
    addSearchOptions(checkCmd, check);
    checkCmd
        ->add_option(
            "--profile", check.profile,
            "placement policy for SQL inputs: sound (default), doris, starrocks, trino, duckdb")
        ->check(CLI::IsMember(profileNames()));
    checkCmd->add_option("--format", check.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    checkCmd
        ->add_option("--method", check.method,
                     "auto (default: the whole plan, then per-filter slices if it stops short), "
                     "whole, slices")
        ->check(CLI::IsMember({"auto", "whole", "slices"}));
    checkCmd
        ->add_option("--progress", check.progress,
                     "bound, databases and time on stderr: auto (when stderr is a terminal), "
                     "always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    checkCmd->add_flag("--verbose", check.verbose,
                       "every note of an engine plan's import, not one line per kind");
    checkCmd->add_option("--emit-sql", check.emitSql,
                         "write each counterexample as DIR/<query>_<filters>.sql, a script that "
                         "runs as is in sqlite3");
    checkCmd->add_flag("--rewrites", check.rewrites,
                       "also check normalisation: the bound plan against the normalised one");
    addInputOptions(checkCmd, check.input);
  });
  checkCmd->footer(
      "Defaults: --bound 2, --seconds 10, --method auto, --oracle none.\n\nExit codes: 0 every "
      "check safe up to --bound (whole or by slices), 1 a counterexample (or an oracle "
      "disagreement), 2 input error or a plan that cannot be evaluated, 4 no counterexample "
      "but a check stopped short of --bound (INCONCLUSIVE; raise --seconds or "
      "--databases).\n\nExamples:\n  rfguard check "
      "queries.sql\n  rfguard check --profile starrocks --oracle sqlite queries.sql\n  "
      "rfguard check --method slices --bound 2 tpcds.sql\n  rfguard check --oracle duckdb "
      "--oracle-databases 200 plan.json\n\nDocs: docs/check.md");
  c.checkCmd = checkCmd;
}

/// `rfguard equiv`: two plans, or every step of a trace, compared.
void addEquivCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  EquivArgs& equiv = c.equiv;
  auto* equivCmd = app.add_subcommand(
      "equiv",
      "is a rewritten plan equal to the original on every database? bounded search for a "
      "counterexample, for two plans or every step of an optimizer's trace");
  options.emplace_back(equivCmd, [&, equivCmd] {
    equivCmd->add_option(
        "files", equiv.files,
        "ORIGINAL REWRITTEN: SQL files (one query each), plan JSON or engine plans");
    addSearchOptions(equivCmd, equiv);
    equivCmd->add_option("--trace", equiv.trace,
                         "an optimizer's trace (JSON Lines or a JSON array of {rule, plan}): "
                         "every step against the one before");
    equivCmd->add_flag("--no-proof", equiv.noProof,
                       "search even when the plans have the same normal form (a proof for every "
                       "database; docs/equiv.md)");
    equivCmd->add_option("--format", equiv.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    addInputOptions(equivCmd, equiv.input);
  });
  equivCmd->footer(
      "Exit codes: 0 equivalent up to --bound (or on every database), 1 different (a "
      "counterexample), 2 input error or a plan that cannot be evaluated, 4 inconclusive: the "
      "budget ran out below --bound (with --trace: the worst step's, 2 then 1 then "
      "4).\n\nExamples:\n  rfguard equiv before.sql after.sql\n  rfguard "
      "equiv --schema schema.sql --format json before.json after.json\n  rfguard equiv "
      "--trace optimizer-trace.jsonl");
  c.equivCmd = equivCmd;
}

/// `rfguard compare`: engines' own placements beside rfguard's.
void addCompareCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  CompareArgs& compare = c.compare;
  auto* compareCmd = app.add_subcommand(
      "compare",
      "an engine's own placements against rfguard's sound placement and the engine's profile, "
      "on the engine's join trees");
  options.emplace_back(compareCmd, [&, compareCmd] {
    compareCmd
        ->add_option("files", compare.files,
                     "engines' plan files (duckdb, doris, starrocks, trino)")
        ->required();
    compareCmd->add_option("--format", compare.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
    compareCmd
        ->add_option("--queries", compare.queries,
                     "SQL files of the same queries (`-- name: q5`, with their tables): "
                     "rfguard's join tree of each against the engine's, matched by query "
                     "number (repeatable)")
        ->allow_extra_args(false)
        ->check(CLI::ExistingFile);
    addInputOptions(compareCmd, compare.input);
  });
  compareCmd->footer(
      "Exit codes: 0 compared (a report, not a gate), 2 usage or input error.\n\nExample:\n  "
      "rfguard compare --schema corpus/examples/tpch.sql corpus/engines/doris/*.out\n  rfguard "
      "compare --schema corpus/examples/tpch.sql --queries corpus/examples/tpch.sql "
      "corpus/engines/doris/*.out\n\nDocs: "
      "docs/engines.md");
  c.compareCmd = compareCmd;
}

/// `rfguard rule`: a finding code explained.
void addRuleCommand(CLI::App& app, OptionDefiners& options, Commands& c) {
  RuleArgs& rule = c.rule;
  auto* ruleCmd = app.add_subcommand(
      "rule", "explain a finding code: what is unsafe, an example, the fix (or --list them all)");
  options.emplace_back(ruleCmd, [&, ruleCmd] {
    ruleCmd->add_option("code", rule.code, "a finding code, as lint reports it");
    ruleCmd->add_flag("--list", rule.list, "every finding code: its severity and summary");
    ruleCmd->add_option("--format", rule.format, "text or json")
        ->check(CLI::IsMember({"text", "json"}));
  });
  ruleCmd->footer(
      "Exit codes: 0 printed, 2 an unknown code or usage error.\n\nExamples:\n  rfguard rule "
      "unsafe-null-generating-side\n  rfguard rule --list\n\nDocs: docs/findings.md");
  c.ruleCmd = ruleCmd;
}

/// `rfguard completion` and the hidden `rfguard man-pages`.
void addShellCommands(CLI::App& app, OptionDefiners& options, Commands& c) {
  std::string& shell = c.shell;
  auto* completionCmd =
      app.add_subcommand("completion", "print the shell completion script for bash, zsh or fish");
  options.emplace_back(completionCmd, [&, completionCmd] {
    completionCmd->add_option("shell", shell, "bash, zsh or fish")
        ->required()
        ->check(CLI::IsMember(completionShells()));
  });
  completionCmd->footer(
      "Exit codes: 0 printed, 2 usage error.\n\nExamples:\n  source <(rfguard completion "
      "bash)\n  rfguard completion zsh > ~/.zfunc/_rfguard\n  rfguard completion fish | "
      "source");
  // The build writes the man pages with this; hidden from --help.
  std::string& manDir = c.manDir;
  auto* manCmd = app.add_subcommand("man-pages", "write rfguard's man pages to DIR");
  manCmd->group("");
  options.emplace_back(
      manCmd, [&, manCmd] { manCmd->add_option("dir", manDir, "output directory")->required(); });
  c.completionCmd = completionCmd;
  c.manCmd = manCmd;
}

}  // namespace

void addCommands(CLI::App& app, OptionDefiners& options, Commands& c) {
  addPlanCommand(app, options, c);
  addLintCommand(app, options, c);
  addReplayCommand(app, options, c);
  addCheckCommand(app, options, c);
  addEquivCommand(app, options, c);
  addCompareCommand(app, options, c);
  addEngineCommands(app, options, c.engines);
  addRuleCommand(app, options, c);
  addShellCommands(app, options, c);
}

}  // namespace rfguard
