#pragma once
// Plans as SQLite SQL, for counterexample scripts and the SQLite oracle. Every
// node becomes a derived table whose columns are named by their plan ids
// ("a.k"). Runtime-filter consumers are written as `t IN (SELECT b FROM build)`
// (`EXISTS (... WHERE b IS t)` when null-allowing), with the content variant's
// false positive or MinMax range where one applies.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"
#include "ir/sql_spelling.h"

namespace rfguard {

/// How the consumers are written, and for which engine.
struct SqlFilters {
  bool apply = false;
  rt::Content content = rt::Content::Exact;
  std::vector<rt::Value> extras;  ///< the false-positive candidates, as the evaluator uses them
  std::set<int> only;             ///< apply only these filters; empty: all
  /// The engine the SQL is for: the SQL written is the subset SQLite 3.39+ and
  /// the engines share (IS [NOT] DISTINCT FROM, TRUE/FALSE, BIGINT/DOUBLE/VARCHAR
  /// casts, integer division spelled exactly); an engine's spelling overrides the
  /// rest (date functions, regular expressions, LIKE). Null: SQLite's.
  const SqlSpelling* spelling = nullptr;
};

/// The query as one SQLite SELECT, or nullopt with `why` when a construct has
/// no SQLite form (month arithmetic, a TopN filter...).
std::optional<std::string> planToSqlite(const PlanNode& root, const SqlFilters& filters,
                                        std::string* why);

/// False when SQLite's parser cannot take `sql` (its stack overflows on deep
/// nesting); names are not resolved.
bool sqliteParses(const std::string& sql);

/// A quoted SQLite identifier: "a.k" (embedded quotes doubled).
std::string sqlIdentifier(const std::string& id);

/// CREATE TABLE and INSERT statements for a database (dates as day numbers).
std::string databaseToSqlite(const rt::Database& db);

/// Per table, per column name: the SQL type both engines declare for the
/// evaluator's values of that column (BIGINT for integers, booleans-as-0/1 are
/// BOOLEAN, dates as day numbers BIGINT, DOUBLE, VARCHAR), from the plans' scans.
/// Per table, per column its SQL type; the entry of the empty column name, when
/// present, is the table's constraints ("PRIMARY KEY (\"k\"), CHECK (...)"), and
/// the entry kReferencePrefix + P its foreign keys to table P.
using SqlTableTypes = std::map<std::string, std::map<std::string, std::string>>;
void collectSqlTypes(const PlanNode& plan, SqlTableTypes& out);
/// Marks a SqlTableTypes entry of foreign keys (no column name holds a newline).
inline const std::string kReferencePrefix = "\n";
/// The database's tables, each after the tables its foreign keys reference
/// (names in order otherwise): the order to create and fill them in, the
/// reverse the order to empty them in.
std::vector<std::string> referenceOrder(const rt::Database& db, const SqlTableTypes& types);
/// The same, typed: CREATE TABLE with each column's type (untyped where unknown)
/// and constraints, then the INSERTs, referenced tables first; with `create`
/// false the INSERTs only. A foreign key to a table not in `db` is a comment:
/// no query reads that table, and rows with the referenced keys complete it.
std::string databaseToSql(const rt::Database& db, const SqlTableTypes& types, bool create = true);

}  // namespace rfguard
