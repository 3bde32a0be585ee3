#pragma once
// The SQL front end: parse a script and bind it into plans. No ANTLR types here.
#include <optional>
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/dialect.h"
#include "ir/plan.h"

namespace rfguard {

/// Limits that keep hostile input from exhausting the stack.
struct SqlLimits {
  int maxNesting = 128;        ///< parentheses, CASE and prefix operators open at once
  int maxTreeDepth = 1500;     ///< depth of the parse tree (long operator chains)
  size_t maxTokens = 1000000;  ///< tokens in one input (a parse tree costs ~1 KB a token)
  /// Table references of one statement once WITH queries and views are expanded
  /// (each reference binds a fresh copy: fourteen self-joining WITH queries make 16,384).
  size_t maxRelations = 5000;
  int maxCteDepth = 64;  ///< WITH queries whose binding is under way at once (a chain)
};

/// Parses `text` (a script of `;`-separated statements), applies DDL to
/// `catalog` and appends every bound query to `queries`. Errors go to `diags`
/// with file:line:col; a statement with an error (syntax or binding) is
/// reported once and skipped, the rest go on. Unnamed queries are query1, query2...
/// Returns false when any error was reported.
bool loadSql(const std::string& text, const std::string& file, Catalog& catalog,
             std::vector<Query>& queries, Diagnostics& diags, const SqlLimits& limits = {});
/// The same, read as `dialect` reads SQL where engines differ (ir/dialect.h).
bool loadSql(const std::string& text, const std::string& file, Catalog& catalog,
             std::vector<Query>& queries, Diagnostics& diags, const SqlLimits& limits,
             Dialect dialect);

/// Lexes `text` with the direct lexer (grammar/fast_lexer.h) and with the
/// ANTLR-generated one and describes the first difference between their tokens
/// (type, text, channel, offsets, line, column): empty when they agree, nullopt
/// when the direct lexer declines the text. For the tests and the fuzzer.
std::optional<std::string> lexerDifference(const std::string& text);

}  // namespace rfguard
