#pragma once
// The corpus files' format, read and written back:
//
//   # comment
//   directive [key=value ...]
//   input lines
//   ----
//   expected output lines, ended by a blank line
//
// When the output itself has blank lines it is written between "----" "----"
// and "----" "----".
#include <ostream>
#include <string>
#include <vector>

namespace rfguard::corpus {

/// One case: its directive line, input and expected output, and where it sits.
struct Case {
  int line = 0;  // line of the directive (1-based)
  std::string directive;
  std::vector<std::string> args;
  std::string input;
  std::string expected;
  size_t begin = 0, end = 0;  // line range [begin, end) the case occupies in the file
};

/// The lines of `text`, without their newlines.
std::vector<std::string> splitLines(const std::string& text);
/// The cases of a file's lines; false with `err` set ("line N: ...") when one is malformed.
bool parseFile(const std::vector<std::string>& lines, std::vector<Case>& cases, std::string& err);
/// The value of argument `key=value`, "true" for a bare `key`, else `dflt`.
std::string arg(const Case& c, const std::string& key, const std::string& dflt = "");
/// Every value of `key=a,b` arguments, in order (the key may repeat).
std::vector<std::string> argList(const Case& c, const std::string& key);
/// Writes case `c` of `lines` with `actual` as its expected output.
void writeCase(std::ostream& os, const std::vector<std::string>& lines, const Case& c,
               const std::string& actual);

}  // namespace rfguard::corpus
