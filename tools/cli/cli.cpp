// Command-line parsing: the command named, its options defined and parsed, the
// command run (the commands themselves: cli_commands.cpp).
#include "tools/cli/cli.h"

#include <algorithm>
#include <fstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "grammar/suggest.h"
#include "tools/cli/cli_commands.h"
#include "tools/cli/command_tree.h"
#include "tools/cli/completion.h"
#include "tools/cli/input_options.h"
#include "tools/cli/manpage.h"

namespace rfguard {

namespace {

/// Reports each `--word` of the command line that `cmd` has no option for,
/// with the nearest one it has; false when there is none such (the unexpected
/// argument is something else).
bool reportUnknownOptions(const CLI::App& cmd, const std::string& path, int argc, char** argv,
                          std::ostream& err) {
  std::vector<std::string> known{"--help"};
  for (const CLI::Option* o : cmd.get_options())
    for (const auto& n : o->get_lnames()) known.push_back("--" + n);
  bool any = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string name = arg.substr(0, arg.find('='));
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    err << path << ": unknown option " << name << didYouMean(name, known) << " (" << path
        << " --help)\n";
    any = true;
  }
  return any;
}

/// The command the words of the command line name (`lint`, `duckdb diff`),
/// its path in `path` ("rfguard lint"); nullptr, said on `err`, when a word
/// where a command is due names none (CLI11 would only say that a subcommand
/// is required).
CLI::App* commandOf(CLI::App& app, int argc, char** argv, std::string& path, std::ostream& err) {
  CLI::App* level = &app;
  path = "rfguard";
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    auto subs = level->get_subcommands({});
    if (subs.empty()) break;  // the command's own arguments
    CLI::App* next = nullptr;
    std::string names;
    std::vector<std::string> visible;
    for (auto* sub : subs) {
      if (sub->get_name() == argv[i]) next = sub;
      if (sub->get_group().empty()) continue;  // hidden
      names += (names.empty() ? "" : ", ") + sub->get_name();
      visible.push_back(sub->get_name());
    }
    if (!next) {
      err << path << ": unknown command \"" << argv[i] << "\"" << didYouMean(argv[i], visible)
          << " (commands: " << names << "; " << path << " --help)\n";
      return nullptr;
    }
    level = next;
    path += " " + next->get_name();
  }
  return level;
}

/// Writes the man pages of every command to `dir`.
int writeManPages(const CLI::App& app, const std::string& dir, std::ostream& err) {
  if (!makeOutputDirectory(dir, err)) return kExitInputError;
  for (const auto& p : manPages(describeCommands(app), kVersion, kDocsUrl)) {
    std::ofstream file(dir + "/" + p.file, std::ios::binary);
    file << p.text;
    if (!file) {
      err << dir << "/" << p.file << ": error: cannot write\n";
      return kExitInputError;
    }
  }
  return kExitOk;
}

/// Runs the command that was parsed.
int dispatch(const CLI::App& app, const Commands& c, std::ostream& out, std::ostream& err) {
  if (c.planCmd->parsed()) return runPlan(c.plan, out, err);
  if (c.lintCmd->parsed()) return runLint(c.lint, out, err);
  if (c.replayCmd->parsed()) return runReplay(c.replay, out, err);
  if (c.checkCmd->parsed()) return runCheck(c.check, out, err);
  if (c.equivCmd->parsed()) return runEquiv(c.equiv, out, err);
  if (c.compareCmd->parsed()) return runCompare(c.compare, out, err);
  if (int code = runEngineCommand(c.engines, out, err); code >= 0) return code;
  if (c.ruleCmd->parsed()) return runRule(c.rule, out, err);
  if (c.completionCmd->parsed()) {
    out << completionScript(describeCommands(app), c.shell);
    return kExitOk;
  }
  if (c.manCmd->parsed()) return writeManPages(app, c.manDir, err);
  return kExitInputError;
}

}  // namespace

int runCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"rfguard: runtime-filter rule engine and plan verifier"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("rfguard ") + kVersion);
  app.footer(
      "Exit codes: 0 success (nothing found), 1 findings, a counterexample or a failing "
      "replay, 2 usage or input error (located: file:line:col for SQL, a JSON pointer for "
      "plans), 3 internal error, 4 a bounded search stopped short of --bound without a "
      "counterexample (rfguard check, rfguard equiv).\n\nEnvironment: NO_COLOR turns colour off "
      "where --color is "
      "auto (rfguard lint). RFGUARD_DUCKDB_LIBRARY names the libduckdb.so that the DuckDB "
      "commands and --oracle duckdb open (default: the one installed with rfguard).\n\nFiles: "
      ".rfguard.toml, the settings of rfguard lint, found by "
      "walking up from the working directory.\n\nExamples:\n  rfguard plan --explain "
      "queries.sql\n  rfguard lint --format sarif plans/\n  rfguard check --oracle sqlite "
      "queries.sql\n  rfguard equiv before.sql after.sql\n  source <(rfguard completion "
      "bash)\n\nDocs: docs/lint.md, docs/check.md, docs/equiv.md, docs/plan-json.md, "
      "docs/rules.md");
  // Each command's options, defined only for the command being run (and for
  // every command where the whole tree is printed: completion, man pages).
  // CLI11 builds several objects per option; defining all of them was a fifth
  // of what a one-query `rfguard plan` executed.
  OptionDefiners options;
  Commands c;
  addCommands(app, options, c);
  std::string path;
  CLI::App* level = commandOf(app, argc, argv, path, err);
  if (!level) return kExitInputError;
  const bool wholeTree = level == c.completionCmd || level == c.manCmd;
  for (auto& [command, define] : options)
    if (wholeTree || command == level) define();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    // CLI11 says only that an argument was not expected: a mistyped option
    // gets the nearest one the command has.
    if (reportUnknownOptions(*level, path, argc, argv, err)) return kExitInputError;
    int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitInputError;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitInputError;
  }
  return dispatch(app, c, out, err);
}

}  // namespace rfguard
