#pragma once
// Internal to verifier/: a bounded search's cross-check of its evaluator
// against a SQL engine (SQLite, or DuckDB where linked), database by database.
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "verifier/bounded.h"
#include "verifier/plan_sql.h"
#include "verifier/sqlite_oracle.h"

namespace rfguard {

/// The oracle, when asked for, with the current database loaded once per database.
struct Oracle {
  std::unique_ptr<SqlOracle> engine;
  SqlTableTypes types;  ///< the scans' column types, for typed tables
  bool active = false;  ///< consulted for the current database
  bool loaded = false;

  /// Opens the oracle of `o` (SQLite by default) for the plans; false when it cannot.
  bool open(const BoundedOptions& o, std::initializer_list<const PlanNode*> plans,
            BoundedVerdict& out);
  SqlFilters dialect() const {
    SqlFilters f;
    f.spelling = engine->spelling();
    return f;
  }
};

/// Rows as a sorted bag: "{(1, NULL) (2, 3)}".
std::string bagText(const std::vector<rt::Row>& rows);

/// Runs one query in the oracle over `db`: its rows must be one of the answers the
/// evaluator allows (`answers`, every way LIMITs may cut ties; compared as bags).
/// A disagreement is recorded in `out` (at most three).
void consult(Oracle& oracle, const std::optional<std::string>& sql, const rt::Database& db,
             const std::vector<rt::Relation>& answers, const std::string& what,
             BoundedVerdict& out);

}  // namespace rfguard
