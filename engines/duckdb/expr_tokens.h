#pragma once
// The tokens of DuckDB's printed expressions (expr_text.cpp parses them), and
// the text helpers the plan importer shares with that parser.
#include <string>
#include <vector>

namespace rfguard::duckdb_import {

/// One token: a name, a "quoted" name, #n, a number, a 'string', an operator, or the end.
struct Token {
  enum class T { Ident, Quoted, Ref, Number, String, Op, End } t = T::End;
  std::string text;
  size_t pos = 0;
};

/// A character that may continue an identifier (letters, digits, '_', '$').
bool identChar(char c);
/// Upper case (ASCII).
std::string upper(std::string s);
/// Splits `text` into tokens; false with `error` on a character it cannot read.
bool tokenize(const std::string& s, std::vector<Token>& out, std::string& error);

}  // namespace rfguard::duckdb_import
