#include "grammar/foreign_syntax.h"

#include <cctype>
#include <vector>

#include "RfSqlParser.h"

namespace rfguard {

namespace {

using P = rfsql::RfSqlParser;

/// One construct: a sequence of token patterns and what to say. A pattern is
/// a word or symbol (compared without case), or one of
///   <string>  a string literal      <name>   an identifier or a keyword
///   <number>  an integer            <start>  the statement's start (matches no token)
struct Construct {
  std::vector<const char*> tokens;
  const char* message;
};

// The message says what the construct is, whose it is, and how rfguard's SQL
// writes the same query. Ordered: the first match wins.
const std::vector<Construct>& constructs() {
  static const std::vector<Construct> table = {
      {{":", ":"},
       "`x::type` casts (DuckDB, PostgreSQL) are outside rfguard's SQL: write CAST(x AS type)"},
      {{"GROUP", "BY", "ALL"},
       "GROUP BY ALL (DuckDB) is outside rfguard's SQL: list the grouping columns"},
      {{"ORDER", "BY", "ALL"},
       "ORDER BY ALL (DuckDB) is outside rfguard's SQL: list the sort keys"},
      {{"*", "EXCLUDE"},
       "SELECT * EXCLUDE (DuckDB) is outside rfguard's SQL: list the columns to keep"},
      {{"*", "REPLACE"},
       "SELECT * REPLACE (DuckDB) is outside rfguard's SQL: list the columns, with the "
       "replaced expressions"},
      {{"*", "RENAME"},
       "SELECT * RENAME (DuckDB) is outside rfguard's SQL: list the columns with AS"},
      {{"FROM", "<string>"},
       "reading a file in FROM ('x.parquet', DuckDB) is outside rfguard's SQL: rfguard reads "
       "the tables CREATE TABLE declares"},
      {{"JOIN", "<string>"},
       "reading a file in FROM ('x.parquet', DuckDB) is outside rfguard's SQL: rfguard reads "
       "the tables CREATE TABLE declares"},
      {{"FROM", "<name>", "("},
       "table functions in FROM (read_csv(...), range(...); DuckDB) are outside rfguard's SQL: "
       "declare the table with CREATE TABLE"},
      {{"JOIN", "<name>", "("},
       "table functions in FROM (read_csv(...), range(...); DuckDB) are outside rfguard's SQL: "
       "declare the table with CREATE TABLE"},
      {{",", "<name>", "("},
       "table functions in FROM (read_csv(...), range(...); DuckDB) are outside rfguard's SQL: "
       "declare the table with CREATE TABLE"},
      {{"<start>", "FROM"},
       "FROM-first queries (DuckDB's `FROM t SELECT ...`) are outside rfguard's SQL: write "
       "SELECT ... FROM t"},
      {{"USING", "SAMPLE"},
       "USING SAMPLE (DuckDB) is outside rfguard's SQL: a sample is not a deterministic query"},
      {{"TABLESAMPLE"},
       "TABLESAMPLE is outside rfguard's SQL: a sample is not a deterministic query"},
      {{"PIVOT"},
       "PIVOT (DuckDB) is outside rfguard's SQL: write the aggregation with GROUP BY and CASE"},
      {{"UNPIVOT"}, "UNPIVOT (DuckDB) is outside rfguard's SQL: write a UNION ALL"},
      {{"LIMIT", "<number>", "%"},
       "LIMIT n% (DuckDB) is outside rfguard's SQL: LIMIT takes a row count"},
      {{"WINDOW"},
       "named windows (OVER w ... WINDOW w AS (...)) are outside rfguard's SQL: write the "
       "window in OVER (...)"},
      {{"OVER", "<name>"},
       "named windows (OVER w ... WINDOW w AS (...)) are outside rfguard's SQL: write the "
       "window in OVER (...)"},
      {{"["},
       "lists and subscripts ([...], DuckDB) are outside rfguard's SQL: rfguard's values are "
       "scalars"},
      {{"{"}, "structs ({'x': 1}, DuckDB) are outside rfguard's SQL: rfguard's values are scalars"},
  };
  return table;
}

/// Joins that parse as an alias followed by a join (`a SEMI JOIN b` is `a AS
/// semi JOIN b`): the word before JOIN, and what to say.
const std::vector<Construct>& joins() {
  static const std::vector<Construct> table = {
      {{"SEMI"},
       "`a SEMI JOIN b` (DuckDB, Spark) is outside rfguard's SQL: write a LEFT SEMI JOIN b, "
       "or WHERE EXISTS (...)"},
      {{"ANTI"},
       "`a ANTI JOIN b` (DuckDB, Spark) is outside rfguard's SQL: write a LEFT ANTI JOIN b, "
       "or WHERE NOT EXISTS (...)"},
      {{"ASOF"},
       "ASOF JOIN (DuckDB) is outside rfguard's SQL: it picks the nearest match, which no "
       "join condition of rfguard's SQL states"},
      {{"POSITIONAL"},
       "POSITIONAL JOIN (DuckDB) is outside rfguard's SQL: rows pair by position, which a "
       "join condition cannot state"},
  };
  return table;
}

std::string upper(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// The statement's tokens on the default channel, in order (no EOF).
std::vector<antlr4::Token*> visible(antlr4::TokenStream& tokens) {
  std::vector<antlr4::Token*> out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    antlr4::Token* t = tokens.get(i);
    if (t->getType() == antlr4::Token::EOF) break;
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) out.push_back(t);
  }
  return out;
}

bool matches(const char* pattern, const antlr4::Token& t) {
  const std::string p = pattern;
  if (p == "<string>") return t.getType() == P::STRING;
  if (p == "<number>") return t.getType() == P::INTEGER_VALUE;
  if (p == "<name>") {  // an identifier, or a word the grammar keeps (range, left)
    const std::string& x = t.getText();
    return t.getType() == P::QUOTED_IDENTIFIER || t.getType() == P::BACKQUOTED_IDENTIFIER ||
           (!x.empty() && (std::isalpha(static_cast<unsigned char>(x[0])) || x[0] == '_'));
  }
  return upper(t.getText()) == p;
}

/// Whether `c` matches the tokens from `v[first]` on (`<start>` at a
/// statement's start: index 0, or after a semicolon).
bool matchesAt(const Construct& c, const std::vector<antlr4::Token*>& v, size_t first) {
  size_t i = first;
  for (const char* p : c.tokens) {
    if (std::string(p) == "<start>") {
      if (i != 0 && v[i - 1]->getType() != P::SEMICOLON) return false;
      continue;
    }
    if (i >= v.size() || !matches(p, *v[i])) return false;
    ++i;
  }
  return true;
}

}  // namespace

std::optional<ForeignConstruct> foreignConstructAt(antlr4::TokenStream& tokens, size_t bad) {
  const std::vector<antlr4::Token*> v = visible(tokens);
  // The error's position among the visible tokens (the end when at EOF).
  size_t at = v.size();
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i]->getTokenIndex() >= bad) {
      at = i;
      break;
    }
  // A construct that covers the error token or ends just before it: ANTLR
  // may report it at the token after its word (the word taken as an alias).
  for (const Construct& c : constructs()) {
    size_t n = 0;  // the tokens it spans (<start> spans none)
    for (const char* p : c.tokens) n += std::string(p) == "<start>" ? 0 : 1;
    for (size_t first = at >= n ? at - n : 0; first <= at && first < v.size(); ++first)
      if (first + n >= at && matchesAt(c, v, first)) return ForeignConstruct{v[first], c.message};
  }
  return std::nullopt;
}

std::optional<ForeignConstruct> foreignJoin(antlr4::TokenStream& tokens) {
  // Runs on every parse: a walk back from each JOIN, no copy of the tokens.
  auto previous = [&](size_t i) -> antlr4::Token* {  // the visible token before i
    while (i > 0) {
      antlr4::Token* t = tokens.get(--i);
      if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) return t;
    }
    return nullptr;
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    antlr4::Token* join = tokens.get(i);
    if (join->getType() == antlr4::Token::EOF) break;
    if (join->getType() != P::JOIN) continue;
    // Past LEFT / RIGHT / FULL / INNER / OUTER to the word before them.
    antlr4::Token* w = previous(i);
    while (w && (w->getType() == P::LEFT || w->getType() == P::RIGHT || w->getType() == P::FULL ||
                 w->getType() == P::INNER || w->getType() == P::OUTER))
      w = previous(w->getTokenIndex());
    if (!w) continue;
    // Not after AS (an alias named so) and not rfguard's own LEFT SEMI JOIN.
    antlr4::Token* before = previous(w->getTokenIndex());
    if (!before || before->getType() == P::AS || before->getType() == P::LEFT ||
        before->getType() == P::RIGHT)
      continue;
    for (const Construct& c : joins())
      if (matches(c.tokens[0], *w)) return ForeignConstruct{w, c.message};
  }
  return std::nullopt;
}

}  // namespace rfguard
