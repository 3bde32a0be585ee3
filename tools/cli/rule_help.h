#pragma once
// Each finding code's help (docs/findings.md, compiled in): what is unsafe,
// the bad example, the fix. `rfguard rule` prints it; SARIF's rules carry it.
#include <optional>
#include <ostream>
#include <string>

namespace rfguard {

/// docs/findings.md as it was when rfguard was built.
const char* findingsDocument();

/// The section of docs/findings.md on `code`, in Markdown, from its heading to
/// the next; nullopt for a code the document has no section on.
std::optional<std::string> ruleHelpMarkdown(const std::string& code);

/// The same for a terminal: headings and code fences without their marks.
std::string markdownAsText(const std::string& markdown);

struct RuleArgs {
  std::string code;             ///< the code to explain
  bool list = false;            ///< every code, one line each
  std::string format = "text";  ///< text or json
};

/// Runs `rfguard rule`; returns the exit code.
int runRule(const RuleArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
