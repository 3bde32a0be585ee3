#include "tools/cli/rule_help.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "grammar/suggest.h"
#include "tools/cli/cli.h"
#include "verifier/findings.h"

namespace rfguard {

std::optional<std::string> ruleHelpMarkdown(const std::string& code) {
  const std::string doc = findingsDocument();
  const std::string heading = "\n## " + code + "\n";
  const size_t at = doc.find(heading);
  if (at == std::string::npos) return std::nullopt;
  size_t end = doc.find("\n## ", at + heading.size());
  if (end == std::string::npos) end = doc.size();
  std::string section = doc.substr(at + 1, end - at - 1);
  while (!section.empty() && section.back() == '\n') section.pop_back();
  return section + "\n";
}

std::string markdownAsText(const std::string& markdown) {
  std::istringstream in(markdown);
  std::string out, line;
  bool fence = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {  // a code block: indented, without its fence
      fence = !fence;
      continue;
    }
    if (fence) {
      out += "    " + line + "\n";
      continue;
    }
    if (line.rfind("## ", 0) == 0) line = line.substr(3);
    // Bold marks and link targets are noise on a terminal.
    std::string plain;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line.compare(i, 2, "**") == 0) {
        ++i;
        continue;
      }
      if (line[i] == ']' && i + 1 < line.size() && line[i + 1] == '(') {
        const size_t close = line.find(')', i);
        if (close != std::string::npos) {
          i = close;
          continue;
        }
      }
      if (line[i] == '[') continue;
      plain += line[i];
    }
    out += plain + "\n";
  }
  return out;
}

int runRule(const RuleArgs& args, std::ostream& out, std::ostream& err) {
  using Json = nlohmann::ordered_json;
  const auto& codes = findingCodes();
  if (args.list == !args.code.empty()) {
    err << "rfguard rule: give a finding code, or --list for all of them\n";
    return kExitInputError;
  }
  if (args.list) {
    Json all = Json::array();
    for (const auto& c : codes) {
      if (args.format == "json")
        all.push_back(
            Json{{"code", c.id}, {"severity", severityName(c.severity)}, {"summary", c.summary}});
      else
        out << c.id << "\t" << severityName(c.severity) << "\t" << c.summary << "\n";
    }
    if (args.format == "json") out << all.dump(2) << "\n";
    return kExitOk;
  }
  if (!isFindingCode(args.code)) {
    std::vector<std::string> ids;
    for (const auto& c : codes) ids.push_back(c.id);
    err << "rfguard rule: no finding code \"" << args.code << "\"" << didYouMean(args.code, ids)
        << " (rfguard rule --list)\n";
    return kExitInputError;
  }
  const FindingCode& c = findingCode(args.code);
  const std::string help =
      ruleHelpMarkdown(c.id).value_or(std::string("## ") + c.id + "\n\n" + c.summary + ".\n\n" +
                                      c.details + "\n\nFix: " + c.fix + "\n");
  if (args.format == "json") {
    out << Json{{"code", c.id},         {"severity", severityName(c.severity)},
                {"summary", c.summary}, {"details", c.details},
                {"fix", c.fix},         {"markdown", help}}
               .dump(2)
        << "\n";
  } else {
    out << markdownAsText(help);
  }
  return kExitOk;
}

}  // namespace rfguard
