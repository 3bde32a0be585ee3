#pragma once
// SQL pattern matching, evaluated with re2 (linear time in the string for
// every pattern, unlike a backtracking matcher): LIKE and ILIKE with an
// optional ESCAPE character, SIMILAR TO, and regexp_matches.
#include <optional>
#include <string>

namespace rfguard::rt {

enum class PatternKind {
  Like,        ///< % any string, _ one character, the rest literal; whole string
  ILike,       ///< LIKE ignoring case
  SimilarTo,   ///< SQL regular expression: LIKE's % and _, plus | * + ? {m,n} ( ) [...]; whole
               ///< string
  RegexMatch,  ///< an RE2 regular expression found anywhere in the string (DuckDB's regexp_matches)
};

/// Whether `s` matches `pattern`. `escape` (LIKE, ILIKE, SIMILAR TO) makes the
/// next pattern character literal. nullopt with `error` on a malformed pattern
/// (an ESCAPE at the end, an ESCAPE that is not one character, a bad regular
/// expression).
std::optional<bool> matchPattern(PatternKind kind, const std::string& s, const std::string& pattern,
                                 const std::string* escape, std::string* error);

}  // namespace rfguard::rt
