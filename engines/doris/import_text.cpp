// Reading Doris's operator lines: brackets, lists, names, join types.
#include <cctype>

#include "engines/doris/import_state.h"

namespace rfguard::doris_import {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' ');
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(' ') - a + 1);
}

/// The text between the bracket at `open` and its match; npos `end` when unmatched.
std::string balanced(const std::string& s, size_t open, size_t& end) {
  const char o = s[open], c = o == '[' ? ']' : ')';
  int depth = 0;
  bool quoted = false;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) {
      end = i;
      return s.substr(open + 1, i - open - 1);
    }
  }
  end = std::string::npos;
  return "";
}

/// The operator's name: the text before its first '[', '(' or space.
std::string headOf(const std::string& t) {
  return t.substr(0, t.find_first_of("[( "));
}

std::string lastPart(const std::string& name) {
  return name.substr(name.rfind('.') + 1);
}

std::string alnum(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') out += c;
  return out.empty() ? "c" : out.substr(0, 40);
}

/// Doris's join type names -> rfguard's (ir/join_type.cpp).
std::string joinType(const std::string& doris) {
  static const std::map<std::string, std::string> kTypes = {
      {"INNER_JOIN", "inner"},           {"CROSS_JOIN", "cross"},
      {"LEFT_OUTER_JOIN", "left"},       {"RIGHT_OUTER_JOIN", "right"},
      {"FULL_OUTER_JOIN", "full"},       {"LEFT_SEMI_JOIN", "left_semi"},
      {"RIGHT_SEMI_JOIN", "right_semi"}, {"LEFT_ANTI_JOIN", "left_anti"},
      {"RIGHT_ANTI_JOIN", "right_anti"}, {"NULL_AWARE_LEFT_ANTI_JOIN", "null_aware_left_anti"}};
  auto it = kTypes.find(doris);
  return it == kTypes.end() ? "" : it->second;
}

/// Doris's distribution of a join's inputs -> plan JSON's.
std::string distribution(const std::string& doris) {
  if (doris == "broadcast") return "broadcast";
  if (doris == "shuffle") return "shuffle";
  if (doris == "colocated") return "colocated";
  if (doris == "bucketShuffle") return "bucket_shuffle";
  return "";
}

std::string clip(const std::string& s) {
  return s.size() <= 120 ? s : s.substr(0, 57) + " ... " + s.substr(s.size() - 57);
}

bool holds(const ShapeNode& outer, const ShapeNode* inner) {
  if (&outer == inner) return true;
  for (const auto& c : outer.children)
    if (holds(*c, inner)) return true;
  return false;
}

}  // namespace rfguard::doris_import
