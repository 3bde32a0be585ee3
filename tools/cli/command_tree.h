#pragma once
// The command line's commands and options as data, read from the CLI11
// application that parses them: one source for --help, the man pages and the
// shell completions, so none of them can fall behind the others.
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rfguard {

struct OptionSpec {
  std::vector<std::string> names;    ///< "-h", "--help"; a positional's name alone
  std::string type;                  ///< "TEXT", "INT", "FLOAT", ...; empty for a flag
  std::vector<std::string> choices;  ///< the values an IsMember check allows
  std::string description;
  bool positional = false;
  bool required = false;
  bool repeatable = false;  ///< takes several values, or may be given again
  /// A value that names a file or directory (completed from the file system):
  /// a TEXT option without choices. Options whose values are no paths say so
  /// with their type name (RULE, URL).
  bool pathValue() const { return type == "TEXT" && choices.empty(); }
  bool flag() const { return type.empty(); }
};

struct CommandSpec {
  std::string name;  ///< "run"
  std::string path;  ///< "rfguard duckdb run"
  std::string description;
  std::string footer;  ///< paragraphs: "Defaults: ...", "Exit codes: ...", "Examples:\n  ..."
  std::vector<OptionSpec> options;
  std::vector<CommandSpec> subcommands;  ///< hidden commands (empty group) left out
};

/// The command tree under `app`, in the order --help lists it.
CommandSpec describeCommands(const CLI::App& app);

/// The footer paragraph that starts with `label` ("Exit codes:", "Examples:"),
/// without the label; empty if there is none.
std::string footerSection(const std::string& footer, const std::string& label);

}  // namespace rfguard
