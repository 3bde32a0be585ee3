// Suppression comments in SQL text (docs/lint.md, "Suppressions"): found by a
// scan that knows strings, quoted names and both comment forms, so that a
// `--` inside a string is no comment and `/* ... */` works as `--` does.
#include <algorithm>
#include <optional>
#include <sstream>

#include "tools/cli/lint_policy.h"

namespace rfguard {

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

struct Form {
  const char* word;
  Directive::Scope scope;
};
// The longest first: "rfguard-disable-line" is a prefix of none, but
// "rfguard-disable" would be of all three.
const Form kForms[] = {{"rfguard-disable-next-line", Directive::Scope::NextLine},
                       {"rfguard-disable-line", Directive::Scope::SameLine},
                       {"rfguard-disable-file", Directive::Scope::WholeFile}};

/// The directive a comment's text makes, if it starts with "rfguard-".
std::optional<Directive> directiveOf(const std::string& file, std::string body, int line,
                                     int lastLine) {
  body = trim(body);
  if (body.rfind("rfguard-", 0) != 0) return std::nullopt;
  Directive d;
  d.file = file;
  d.line = line;
  d.lastLine = lastLine;
  const size_t wordEnd = body.find_first_of(" \t\r\n,");
  const std::string word = body.substr(0, wordEnd);
  const Form* form = nullptr;
  for (const auto& f : kForms)
    if (word == f.word) form = &f;
  if (!form) {
    d.malformed = "`" + word +
                  "` is none of rfguard-disable-next-line, rfguard-disable-line and "
                  "rfguard-disable-file";
    return d;
  }
  d.scope = form->scope;
  std::stringstream codes(wordEnd == std::string::npos ? "" : body.substr(wordEnd));
  for (std::string c; std::getline(codes, c, ',');) {
    c = trim(c);
    if (c.empty()) continue;
    if (c.find_first_of(" \t\r\n") != std::string::npos) {
      d.malformed = "codes are separated by commas: `" + c + "`";
      return d;
    }
    d.codes.push_back(c);
  }
  if (d.codes.empty()) d.malformed = "`" + word + "` names no code (" + word + " code[, code...])";
  d.used.assign(d.codes.size(), false);
  return d;
}

}  // namespace

bool Directive::covers(int findingLine) const {
  switch (scope) {
    case Scope::NextLine:
      return findingLine == lastLine + 1;
    case Scope::SameLine:
      return findingLine >= line && findingLine <= lastLine;
    case Scope::WholeFile:
      return true;
  }
  return false;
}

std::vector<Directive> parseDirectives(const std::string& file, const std::string& text) {
  std::vector<Directive> out;
  int line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '\'' || c == '"' || c == '`') {  // a string or a quoted name
      for (++i; i < text.size() && text[i] != c; ++i) line += text[i] == '\n';
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      const size_t end = std::min(text.find('\n', i), text.size());
      if (auto d = directiveOf(file, text.substr(i + 2, end - i - 2), line, line))
        out.push_back(std::move(*d));
      i = end - 1;  // the newline is counted by the loop
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t close = text.find("*/", i + 2);
      const size_t end = close == std::string::npos ? text.size() : close;
      const int first = line;
      for (size_t k = i; k < end; ++k) line += text[k] == '\n';
      if (auto d = directiveOf(file, text.substr(i + 2, end - i - 2), first, line))
        out.push_back(std::move(*d));
      i = close == std::string::npos ? text.size() : close + 1;
    }
  }
  return out;
}

}  // namespace rfguard
