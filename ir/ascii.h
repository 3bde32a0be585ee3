#pragma once
// Case folding of SQL names. Keywords and unquoted identifiers fold by ASCII
// rules whatever the process's locale (as PostgreSQL folds them), and inline:
// std::tolower is a call per character, paid for every identifier bound and
// every function looked up.
#include <string>
#include <string_view>

namespace rfguard {

constexpr char asciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline void asciiLowerInPlace(std::string& s) {
  for (char& c : s) c = asciiLower(c);
}

}  // namespace rfguard
