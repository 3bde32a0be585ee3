#pragma once
// SQL of other dialects that rfguard's grammar does not take (DuckDB's `::`,
// QUALIFY, GROUP BY ALL, SEMI JOIN, table functions ...): told apart from a
// plain syntax error, so that the message names the construct and says how to
// write it in rfguard's SQL, instead of "syntax error at ':'".
#include <antlr4-runtime.h>

#include <optional>
#include <string>

namespace rfguard {

/// A construct of another dialect, the token to point at and the message.
struct ForeignConstruct {
  antlr4::Token* at = nullptr;
  std::string message;
};

/// After a syntax error at token `bad` (an index into `tokens`): the
/// construct of another dialect at or just before it, if there is one.
std::optional<ForeignConstruct> foreignConstructAt(antlr4::TokenStream& tokens, size_t bad);

/// Before parsing: `a SEMI JOIN b`, `a ASOF JOIN b` and the like, which would
/// parse as `a AS semi JOIN b` and fail later on an unknown alias.
std::optional<ForeignConstruct> foreignJoin(antlr4::TokenStream& tokens);

}  // namespace rfguard
