#pragma once
// Diagnostics collected as data: every input error carries its location.
#include <string>
#include <vector>

namespace rfguard {

/// `s` on one line: line breaks and other control characters that quoted input
/// may hold are written as escapes (\n, \r, \xHH), tabs as spaces.
std::string oneLine(std::string s);

/// A position in a source file (1-based line and column); line 0 means unknown.
struct SourceLoc {
  int line = 0;
  int col = 0;
};

/// One error or note about the user's input, with where it was found.
struct Diagnostic {
  std::string file;     ///< source file name ("-" for stdin)
  SourceLoc loc;        ///< SQL position, when the input was SQL
  std::string pointer;  ///< JSON pointer, when the input was plan JSON
  std::string message;  ///< what is wrong, in words

  /// "file:line:col: error: message" or "file: error at /json/pointer: message".
  std::string render() const;
};

/// An ordered list of diagnostics; empty means success.
class Diagnostics {
 public:
  /// Records an error at a SQL location.
  void error(const std::string& file, SourceLoc loc, std::string message);
  /// Records an error at a JSON pointer.
  void errorAt(const std::string& file, std::string pointer, std::string message);
  /// True when at least one error was recorded.
  bool hasErrors() const { return !items_.empty(); }
  /// All recorded diagnostics, in the order they were found.
  const std::vector<Diagnostic>& items() const { return items_; }
  /// Every diagnostic rendered, one per line.
  std::string render() const;
  /// Removes all diagnostics.
  void clear() { items_.clear(); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace rfguard
