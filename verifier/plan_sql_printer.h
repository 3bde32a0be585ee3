#pragma once
// Internal to verifier/: the printer that writes a plan as one SQL query for the
// oracles (plan_sql.h). plan_sql_expr.cpp prints expressions, plan_sql.cpp nodes.
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "verifier/plan_sql.h"

namespace rfguard::plan_sql {

/// A column id as a quoted SQL identifier.
std::string q(const std::string& id);

/// A LIKE pattern as a GLOB (case-sensitive in SQLite as in SQL): % and _
/// become * and ?, GLOB's own * ? [ are bracketed; nullopt for a malformed escape.
std::optional<std::string> likeToGlob(const std::string& like, const std::string& escape);

/// Writes plan nodes and expressions as SQL; the first thing it cannot write
/// goes to `why`.
struct Printer {
  const SqlFilters& f;  ///< the filters to apply, with their contents
  std::string why;      ///< the first thing the printer could not write
  int alias = 0;        ///< the last derived table's alias number
  std::map<int, std::pair<const PlanNode*, const RuntimeFilter*>> producers;  ///< by filter id
  std::map<std::string, std::string> rename;  ///< column id -> "alias"."col" inside a scan
  /// The worker (rt::Content::Workers) of a row of the scan whose consumers are
  /// written, as SQL; empty when it has none in SQL.
  std::string scanWorker;

  /// A fresh derived-table alias: t1, t2, ...
  std::string fresh() { return "t" + std::to_string(++alias); }
  /// Records `w` as why the plan cannot be written (the first such); false.
  bool fail(const std::string& w) {
    if (why.empty()) why = w;
    return false;
  }

  /// A literal, as SQLite reads it.
  std::string lit(const Expr& e);
  /// An expression.
  std::string ex(const Expr& e);
  /// A node's output columns, quoted (NULL when it has none).
  std::string cols(const PlanNode& n);

  /// A consumer: `target` accepted by filter `id`'s content (and every NULL, for a
  /// filter that accepts NULL).
  std::string consumer(int id, const Expr& target, const std::map<std::string, std::string>& raw);

  /// Filters whose content is being written (the consumers below their build sides).
  std::vector<int> writing;
  /// Per filter: whether its content depends on itself (a consumer of it in its
  /// build side's filters' build sides...): a wait cycle. Such a non-blocking
  /// filter never arrives in time, as the evaluator has it (docs/check.md).
  std::map<int, bool> cyclic;
  bool waitsOnItself(int id);

  /// The condition that `target` passes filter `id`, read from its producer's build side.
  std::string content(int id, const Expr& target, const std::map<std::string, std::string>& raw);

  /// INTERSECT ALL / EXCEPT ALL over the children, columns named by outNames.
  std::string bagSetOperation(const PlanNode& n);

  /// A node and everything below it, as one query.
  std::string node(const PlanNode& n);
};

}  // namespace rfguard::plan_sql
