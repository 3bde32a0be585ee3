#pragma once
// Plans as SQLite SQL, for counterexample scripts and the SQLite oracle. Every
// node becomes a derived table whose columns are named by their plan ids
// ("a.k"). Runtime-filter consumers are written as `t IN (SELECT b FROM build)`
// (`EXISTS (... WHERE b IS t)` when null-allowing), with the content variant's
// false positive or MinMax range where one applies.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"

namespace rfguard {

/// How the consumers are written.
struct SqlFilters {
  bool apply = false;
  rt::Content content = rt::Content::Exact;
  std::vector<rt::Value> extras;  ///< the false-positive candidates, as the evaluator uses them
  std::set<int> only;             ///< apply only these filters; empty: all
};

/// The query as one SQLite SELECT, or nullopt with `why` when a construct has
/// no SQLite form (month arithmetic, a TopN filter...).
std::optional<std::string> planToSqlite(const PlanNode& root, const SqlFilters& filters,
                                        std::string* why);

/// A quoted SQLite identifier: "a.k" (embedded quotes doubled).
std::string sqlIdentifier(const std::string& id);

/// CREATE TABLE and INSERT statements for a database (dates as day numbers).
std::string databaseToSqlite(const rt::Database& db);

}  // namespace rfguard
