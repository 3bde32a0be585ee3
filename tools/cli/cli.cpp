// Command-line parsing and the `plan` command.
#include "tools/cli/cli.h"

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "execution/replay.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "tools/cli/check.h"
#include "tools/cli/duckdb_diff.h"
#include "tools/cli/duckdb_run.h"
#include "tools/cli/equiv.h"
#include "tools/cli/input_options.h"
#include "tools/cli/lint.h"
#include "tools/cli/replay.h"

namespace rfguard {

namespace {

struct PlanArgs {
  std::vector<std::string> files;
  std::string format = "text";
  std::vector<std::string> disabled;
  bool listRules = false;
  bool showRules = false;
  bool verify = false;
  bool noRuntimeFilters = false;
  bool explain = false;
  std::string profile = "sound";
  bool compare = false;
  bool cost = false;
  bool composite = false;
  std::string trace;  ///< directory for one normalisation trace per query
  InputArgs input;
};

/// One line per filter with its consumers: "RF1 a.k, b.k; RF2 a.k".
/// "RF1 a.k, b.k; RF2 c.k": consumers grouped by filter.
std::string consumerList(const std::vector<RfDerivation>& consumers) {
  std::string out;
  for (size_t i = 0; i < consumers.size(); ++i) {
    const bool first = i == 0 || consumers[i - 1].filter != consumers[i].filter;
    if (first) out += (i ? "; RF" : "RF") + std::to_string(consumers[i].filter) + " ";
    out += (first ? "" : ", ") + consumers[i].target;
  }
  return out;
}

/// --compare: the consumers each profile places on the same normalised plan.
std::string compareProfiles(const Query& q) {
  std::string out = "-- " + q.name + "\n";
  for (const auto& pc : consumersByProfile(*q.plan, RfOptions{})) {
    std::string name = profileName(pc.profile);
    out += "  " + name + std::string(10 - name.size(), ' ') + std::to_string(pc.consumers.size()) +
           (pc.consumers.empty() ? "" : "  " + consumerList(pc.consumers)) + "\n";
  }
  return out;
}

int runPlan(const PlanArgs& args, std::ostream& out, std::ostream& err) {
  if (args.listRules) {
    for (const auto& r : normalisationRules()) out << r.name << "\t" << r.description << "\n";
    for (const auto& r : allRfRules()) out << r.name << "\t" << r.doc << "\n";
    return kExitOk;
  }
  if (args.files.empty()) {
    err << "rfguard plan: no input files (use - for stdin)\n";
    return kExitInputError;
  }
  // Flags that add to one format only are refused with the others, never ignored.
  auto refuse = [&](const std::string& what) {
    err << "rfguard plan: " << what << "\n";
    return kExitInputError;
  };
  if (args.explain && args.format != "text")
    return refuse("--explain adds the decisions to the text plan; it has no " + args.format +
                  " form (use --format text)");
  if (args.compare && (args.format == "dot" || args.format == "mermaid"))
    return refuse("--compare prints consumers per profile as text or json, not " + args.format);
  if (args.compare && args.explain) return refuse("--compare and --explain: choose one");
  if (args.compare && args.noRuntimeFilters)
    return refuse("--compare places every profile; --no-runtime-filters contradicts it");
  SessionOptions so;
  for (const auto& d : args.disabled) {
    if (!isRuleName(d)) {
      err << "rfguard plan: unknown rule " << d << " in --disable (see --list-rules)\n";
      return kExitInputError;
    }
    so.normalize.disabled.insert(d);
  }
  so.normalize.verify = args.verify;
  so.filters = RfOptions(*parseProfile(args.profile));
  so.filters.cost = args.cost;
  so.filters.composite = args.composite;
  // --compare places every profile on copies of the normalised plan itself.
  so.placeFilters = !args.noRuntimeFilters && !args.compare;
  // A plan JSON that carries runtime filters is shown as given: it is someone
  // else's placement, for the verifier to judge, not to redo.
  so.given = GivenPlans::JsonWithFilters;
  so.keepBound = !args.trace.empty();
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  if (!args.trace.empty() && !makeOutputDirectory(args.trace, err)) return kExitInputError;
  Session session(so);
  int code = kExitOk;
  for (const auto& f : args.files) {
    Diagnostics diags;
    if (!session.load(f, diags)) code = kExitInputError;
    err << renderErrors(diags);
  }
  if (session.run()) code = kExitInputError;
  std::vector<std::string> placing;
  if (args.profile != "sound") placing.push_back("--profile " + args.profile);
  if (args.explain) placing.push_back("--explain");
  if (args.cost) placing.push_back("--cost");
  if (args.composite) placing.push_back("--composite");
  if (!args.compare && !checkPlacementFlags(session, placing, "plan", err)) return kExitInputError;
  if (!args.trace.empty())
    for (size_t i = 0; i < session.inputs().size(); ++i)
      for (size_t qi : session.inputs()[i].queries) {
        const QueryRun& q = session.queries()[qi];
        if (!q.bound) continue;  // plan JSON: nothing was normalised
        const std::string path = args.trace + "/" + q.query.name + ".jsonl";
        std::ofstream file(path, std::ios::binary);
        file << traceJsonLines(session.inputs()[i].catalog, q.query,
                               normalisationTrace(*q.bound, so.normalize));
        if (!file) {
          err << path << ": error: cannot write the trace\n";
          code = kExitInputError;
        }
      }
  for (const auto& q : session.queries()) {
    for (const auto& p : q.normalization.problems)
      err << q.input << ": " << q.query.name << ": invariant broken by " << p << "\n";
    if (args.compare) {
      if (args.format == "text") out << compareProfiles(q.query);
      continue;
    }
    if (args.format != "text") continue;
    out << "-- " << q.query.name;
    if (q.query.loc.line)
      out << " (" << q.query.file << ":" << q.query.loc.line << ":" << q.query.loc.col << ")";
    out << "\n" << planToText(*q.query.plan);
    if (q.imported) {
      for (const auto& n : q.imported->losses)
        out << "-- not imported faithfully: " << n.message << "\n";
      for (const auto& n : q.imported->ambiguities)
        out << "-- ambiguous producer: " << n.message << "\n";
    }
    if (args.explain)
      out << explainRuntimeFilters(q.placement);
    else
      for (const auto& s : q.placement.skipped)
        out << "-- skipped by cost: join #" << s.node << " `" << s.what
            << "`: " << s.decision.reason << "\n";
    if (args.showRules) {
      out << "-- rules:";
      for (const auto& [name, n] : q.normalization.fired) out << " " << name << "(" << n << ")";
      out << "\n";
    }
    out << "\n";
  }
  if (args.compare && args.format == "json") {
    nlohmann::ordered_json doc{{"format", "rfguard-compare"}, {"version", 1}};
    nlohmann::ordered_json qs = nlohmann::ordered_json::array();
    for (const auto& q : session.queries()) {
      nlohmann::ordered_json profiles = nlohmann::ordered_json::array();
      for (const auto& pc : consumersByProfile(*q.query.plan, RfOptions{})) {
        nlohmann::ordered_json consumers = nlohmann::ordered_json::array();
        for (const auto& c : pc.consumers)
          consumers.push_back({{"filter", c.filter}, {"target", c.target}});
        profiles.push_back({{"profile", profileName(pc.profile)}, {"consumers", consumers}});
      }
      qs.push_back({{"name", q.query.name}, {"input", q.input}, {"profiles", profiles}});
    }
    doc["queries"] = qs;
    out << doc.dump(2) << "\n";
  }
  if (args.compare) return code;
  if (args.format == "json") {
    // One input: one document. Several: JSON Lines, one compact document per
    // input and line, which lint, check and plan read back (docs/plan-json.md).
    const bool lines = session.inputs().size() > 1;
    for (const auto& in : session.inputs()) {
      if (!in.ok) continue;
      std::vector<Query> qs;
      for (size_t i : in.queries) qs.push_back(session.queries()[i].query);
      out << documentToJson(in.catalog, qs).dump(lines ? -1 : 2) << "\n";
    }
  } else if (args.format == "dot") {
    std::vector<Query> all;
    for (const auto& q : session.queries()) all.push_back(q.query);
    out << planToDot(all);
  } else if (args.format == "mermaid") {
    std::vector<Query> all;
    for (const auto& q : session.queries()) all.push_back(q.query);
    out << planToMermaid(all);
  }
  return code;
}

/// The bounded search's options, shared by check and equiv.
template <typename Args>
void addSearchOptions(CLI::App* cmd, Args& args) {
  cmd->add_option("--bound", args.bound, "most rows per table (default 2)")
      ->check(CLI::Range(1, 6));
  cmd->add_option("--seconds", args.seconds, "time budget per search (default 10)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--databases", args.databases, "database budget per search (default 2000000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--oracle", args.oracle,
                  "none (default), sqlite, or a linked engine (duckdb): cross-check the evaluator")
      ->check(CLI::IsMember({"none", "sqlite", "duckdb"}));
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

}  // namespace

int runCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"rfguard: runtime-filter rule engine and plan verifier"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("rfguard ") + kVersion);
  PlanArgs plan;
  auto* cmd = app.add_subcommand("plan", "print each query's normalised plan");
  cmd->add_option("files", plan.files, "SQL or plan JSON files, - for stdin");
  cmd->add_option("--format", plan.format, "text, json, dot (Graphviz) or mermaid (Markdown)")
      ->check(CLI::IsMember({"text", "json", "dot", "mermaid"}));
  cmd->add_option("--disable", plan.disabled, "switch off a normalisation rule (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--list-rules", plan.listRules,
                "list the normalisation and runtime-filter rules and exit");
  cmd->add_flag("--show-rules", plan.showRules, "after each text plan, list the rules that fired");
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
  cmd->footer(
      "Exit codes: 0 planned, 2 usage or input error (located: file:line:col, or a JSON "
      "pointer).\n\nExamples:\n  rfguard plan queries.sql\n  rfguard plan --explain --profile "
      "starrocks queries.sql\n  rfguard plan --format json a.sql b.sql > plans.jsonl   (JSON "
      "Lines for several inputs)\n  rfguard plan --format dot q.sql | dot -Tsvg > q.svg\n  "
      "rfguard plan --compare --format json queries.sql\n\nDocs: docs/plan-json.md, "
      "docs/rules.md");
  LintArgs lint;
  auto* lintCmd = app.add_subcommand(
      "lint", "verify runtime-filter placements: plan JSON as given, SQL as the profile plans it");
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
  lintCmd->add_option(
      "--docs-url", lint.docsUrl,
      std::string("base of the documentation links in SARIF (default ") + kDocsUrl + ")");
  addInputOptions(lintCmd, lint.input);
  lintCmd->footer(
      "Defaults: --format text, --profile sound, --fail-on warning, --color auto; settings "
      "from the nearest .rfguard.toml, command-line flags win.\n\nExit codes: 0 nothing "
      "reported (or --fail-on allows it), 1 findings, 2 usage or input error.\n\n"
      "Examples:\n  rfguard lint plans/\n  rfguard lint --profile starrocks --format sarif "
      "--output rfguard.sarif queries/\n  rfguard lint --write-baseline baseline.json plans/\n"
      "  rfguard lint --baseline baseline.json --fail-on error plans/\n  cat q.sql | rfguard "
      "lint --stdin-filename q.sql -\n\nDocs: docs/lint.md, docs/findings.md");
  ReplayArgs replay;
  auto* replayCmd =
      app.add_subcommand("replay", "replay a sharded filter publication scenario (docs/replay.md)");
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
  replayCmd->footer(
      "Exit codes: 0 replayed, 1 the query fails (a conflicting digest), 2 input error (a JSON "
      "pointer).\n\nExamples:\n  rfguard replay corpus/replay/worked.json\n  rfguard replay "
      "--strategy partial-or --format json corpus/replay/worked.json\n  rfguard replay "
      "--strategy null-unaware corpus/replay/in_null_safe.json\n\nDocs: docs/replay.md");
  CheckArgs check;
  auto* checkCmd = app.add_subcommand(
      "check", "bounded verification: search small databases on which the filters change results");
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
  checkCmd->add_option("--emit-sql", check.emitSql,
                       "write each counterexample as DIR/<query>_<filters>.sql, a script that "
                       "runs as is in sqlite3");
  checkCmd->add_flag("--rewrites", check.rewrites,
                     "also check normalisation: the bound plan against the normalised one");
  addInputOptions(checkCmd, check.input);
  checkCmd->footer(
      "Defaults: --bound 2, --seconds 10, --method auto, --oracle none.\n\nExit codes: 0 every "
      "check safe up to its bound, 1 a counterexample (or an oracle disagreement), 2 input "
      "error or a plan that cannot be evaluated.\n\nExamples:\n  rfguard check "
      "queries.sql\n  rfguard check --profile starrocks --oracle sqlite queries.sql\n  "
      "rfguard check --method slices --bound 2 tpcds.sql\n  rfguard check --oracle duckdb "
      "--oracle-databases 200 plan.json\n\nDocs: docs/check.md");
  EquivArgs equiv;
  auto* equivCmd = app.add_subcommand(
      "equiv",
      "is a rewritten plan equal to the original on every database? bounded search for a "
      "counterexample, for two plans or every step of an optimizer's trace");
  equivCmd->add_option("files", equiv.files,
                       "ORIGINAL REWRITTEN: SQL files (one query each), plan JSON or engine plans");
  addSearchOptions(equivCmd, equiv);
  equivCmd->add_option("--trace", equiv.trace,
                       "an optimizer's trace (JSON Lines or a JSON array of {rule, plan}): "
                       "every step against the one before");
  equivCmd->add_option("--format", equiv.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  addInputOptions(equivCmd, equiv.input);
  equivCmd->footer(
      "Exit codes: 0 equivalent up to the bound reached (the verdict says \"inconclusive\" when "
      "that is below --bound), 1 different (a counterexample), 2 input error or a plan that "
      "cannot be evaluated.\n\nExamples:\n  rfguard equiv before.sql after.sql\n  rfguard "
      "equiv --schema schema.sql --format json before.json after.json\n  rfguard equiv "
      "--trace optimizer-trace.jsonl");
  auto* duckCmd =
      app.add_subcommand("duckdb", "DuckDB in the loop: run queries, import and lint its plans");
  duckCmd->require_subcommand(1);
  DuckDbRunArgs duckRun;
  auto* duckRunCmd = duckCmd->add_subcommand(
      "run",
      "run a SQL file's queries in DuckDB on generated data and lint DuckDB's executed plans");
  duckRunCmd
      ->add_option("file", duckRun.file, "SQL file: CREATE TABLEs (WITH (rows = N)) and queries")
      ->required();
  duckRunCmd->add_option("--threads", duckRun.threads, "DuckDB's threads (default 2)")
      ->check(CLI::Range(1, 256));
  duckRunCmd
      ->add_option("--scale", duckRun.scale,
                   "rows per table: WITH (rows = N) times this (default 1)")
      ->check(CLI::NonNegativeNumber);
  duckRunCmd->add_option("--seed", duckRun.seed, "seed of the generated data (default 1)");
  duckRunCmd->add_option("--format", duckRun.format, "text, json or sarif (lint's formats)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  duckRunCmd->add_option("--save-plans", duckRun.savePlans,
                         "write DuckDB's profile of each query to DIR/<query>.json");
  DuckDbCompareArgs duckCompare;
  auto* duckCompareCmd = duckCmd->add_subcommand(
      "compare",
      "per query, the consumers DuckDB reports against the duckdb profile's, on DuckDB's "
      "own join tree, every difference explained");
  duckCompareCmd->add_option("file", duckCompare.file, "SQL file")->required();
  duckCompareCmd->add_option("--threads", duckCompare.threads, "DuckDB's threads (default 1)")
      ->check(CLI::Range(1, 256));
  duckCompareCmd
      ->add_option("--scale", duckCompare.scale,
                   "rows per table: WITH (rows = N) times this (default 0.01)")
      ->check(CLI::NonNegativeNumber);
  duckCompareCmd->add_option("--seed", duckCompare.seed, "seed of the generated data (default 1)");
  duckCompareCmd->add_option("--format", duckCompare.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  DuckDbDiffArgs duckDiff;
  auto* duckDiffCmd = duckCmd->add_subcommand(
      "diff",
      "random queries in DuckDB with join filter pushdown on and off: any different "
      "result, linted and written out as a DuckDB script");
  duckDiffCmd->add_option("--seed", duckDiff.seed, "seed of the data and queries (default 1)");
  duckDiffCmd->add_option("--queries", duckDiff.queries, "queries to run (default 100)")
      ->check(CLI::Range(1, 10000000));
  duckDiffCmd->add_option("--threads", duckDiff.threads, "DuckDB's threads (default 2)")
      ->check(CLI::Range(1, 256));
  duckDiffCmd
      ->add_option("--big", duckDiff.bigRows, "rows of the large probe table t0 (default 100000)")
      ->check(CLI::Range(1, 100000000));
  duckDiffCmd->add_option("--out", duckDiff.out, "write each difference as DIR/diff_<n>.sql");
  duckDiffCmd->add_option("--format", duckDiff.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  duckDiffCmd->add_flag("--verbose", duckDiff.verbose, "also list the queries DuckDB refused");
  // A word where a command is due that names none is reported as such (CLI11
  // would only say that a subcommand is required).
  CLI::App* level = &app;
  std::string path = "rfguard";
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    auto subs = level->get_subcommands({});
    if (subs.empty()) break;  // the command's own arguments
    CLI::App* next = nullptr;
    std::string names;
    for (auto* sub : subs) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      if (sub->get_name() == argv[i]) next = sub;
    }
    if (!next) {
      err << path << ": unknown command \"" << argv[i] << "\" (commands: " << names << "; " << path
          << " --help)\n";
      return kExitInputError;
    }
    level = next;
    path += " " + next->get_name();
  }
  duckRunCmd->footer(
      "Exit codes: as rfguard lint's: 0 clean, 1 findings, 2 usage or input error (DuckDB's "
      "refusal located at the query).\n\nExamples:\n  rfguard duckdb run --scale 0.01 "
      "corpus/examples/tpch.sql\n  rfguard duckdb run --format sarif --save-plans plans/ "
      "queries.sql\n\nDocs: docs/duckdb.md");
  duckCompareCmd->footer(
      "Exit codes: 0 every difference between the duckdb profile and DuckDB's own placements "
      "explained, 1 an unexplained one, 2 usage or input error.\n\nExample:\n  rfguard duckdb "
      "compare corpus/examples/ssb.sql\n\nDocs: docs/duckdb.md");
  duckDiffCmd->footer(
      "Exit codes: 0 no result differs with join filter pushdown on and off, 1 one does (each "
      "written with --out), 2 usage error.\n\nExamples:\n  rfguard duckdb diff --queries 100 "
      "--seed 5\n  rfguard duckdb diff --queries 1000 --threads 2 --out diffs/\n\nDocs: "
      "docs/duckdb.md");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitInputError;
  }
  if (cmd->parsed()) return runPlan(plan, out, err);
  if (lintCmd->parsed()) return runLint(lint, out, err);
  if (replayCmd->parsed()) return runReplay(replay, out, err);
  if (checkCmd->parsed()) return runCheck(check, out, err);
  if (equivCmd->parsed()) return runEquiv(equiv, out, err);
  if (duckRunCmd->parsed()) return runDuckDbRun(duckRun, out, err);
  if (duckCompareCmd->parsed()) return runDuckDbCompare(duckCompare, out, err);
  if (duckDiffCmd->parsed()) return runDuckDbDiff(duckDiff, out, err);
  return kExitInputError;
}

}  // namespace rfguard
