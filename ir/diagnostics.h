#pragma once
// Diagnostics collected as data: every input error carries its location.
#include <string>
#include <vector>

namespace rfguard {

/// `s` on one line and valid UTF-8: line breaks, other control characters and
/// bytes of no UTF-8 character that quoted input may hold are written as
/// escapes (\n, \r, \xHH), tabs as spaces. JSON and SARIF writers need both.
std::string oneLine(std::string s);

/// The length of the well-formed UTF-8 sequence at byte `i` of `s`, or 0 where
/// none starts: Unicode's table of well-formed byte sequences (Unicode 15, table
/// 3-7): no overlong forms, no surrogates (U+D800..U+DFFF), nothing above
/// U+10FFFF. ANTLR's decoder and the JSON writer both reject the rest.
size_t utf8Length(const std::string& s, size_t i);

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
