#pragma once
// Internal to verifier/: the databases a bounded search ranges over.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"
#include "verifier/bounded.h"
#include "verifier/constraints.h"

namespace rfguard {

/// One table column: whether it varies, and over which values.
struct ColumnSpec {
  std::string name;  ///< bare column name
  Type type;
  bool varies = false;
  std::vector<rt::Value> domain;  ///< NULL (if nullable), the plan's constants, fresh values
};

struct TableSpec {
  std::string name;
  std::vector<ColumnSpec> columns;
  std::vector<std::vector<rt::Value>> options;  ///< every tuple of the varying columns
  std::vector<uint32_t> freshMask;              ///< per option: which fresh values it uses
  /// The primary key's columns (indexes in `columns`); empty without one.
  std::vector<size_t> key;
  /// Each UNIQUE set's columns (indexes in `columns`).
  std::vector<std::vector<size_t>> unique;
};

/// A LIMIT whose window (limit + offset rows) a bound-sized input may not pass.
struct LimitConstant {
  int node = 0;                     ///< the Limit node's id
  long long rows = 0;               ///< limit + offset: the input rows it takes to pass the window
  std::string text;                 ///< "LIMIT 10 OFFSET 5 at #4"
  std::vector<std::string> tables;  ///< the tables scanned below it
};

struct SearchSpace {
  std::vector<TableSpec> tables;
  std::vector<LimitConstant> limits;  ///< every LIMIT / OFFSET / TopN of the plans
  std::vector<rt::Value> extras;      ///< false-positive candidates
  std::string error;                  ///< the space is too large to enumerate
  /// Fresh values that tables outside the space already hold (freshUsedBy): a
  /// database of this space is canonical with them, not from the first.
  uint32_t pinnedFresh = 0;
  /// Builds the space of the plans (their tables, constants and read columns).
  /// A primary key takes at least `keyValues` distinct values (the bound: a
  /// table of n rows needs n keys), with values beyond the fresh ones if need be.
  SearchSpace(const std::vector<const PlanNode*>& plans, int fresh, int keyValues = 0);
  /// The database of one choice (per table, the option indexes of its rows) into `db`,
  /// reusing its tables: a search fills one database in a loop.
  void fill(const std::vector<std::vector<int>>& choice, rt::Database& db) const;
  /// True when the fresh values used form a prefix of each type's pool (one
  /// database per renaming of fresh values).
  bool canonical(const std::vector<std::vector<int>>& choice) const;
  /// The fresh values the rows of this space's tables in `db` use (as `canonical` counts them).
  uint32_t freshUsedBy(const rt::Database& db) const;
  /// The integrity constraints of the plans' tables.
  TableConstraints constraints;
  /// True when `db` satisfies the tables' integrity constraints (keys, foreign
  /// keys, CHECK: TableConstraints). The search skips the others: "up to bound
  /// N" ranges over the databases the schema allows.
  bool admissible(const rt::Database& db) const { return constraints.admissible(db); }
  /// The values the space's columns draw from, for a verdict's words:
  /// "{NULL, 0, 1, 5, 'a'}" (numbers in order, then strings; at most 16 shown).
  std::string domainText() const;
  /// Keeps only the tables `keep` accepts.
  void keepTables(const std::function<bool(const std::string& table)>& keep);
};

/// One search (verifier/bounded.cpp): iterative deepening over the space's
/// databases up to `options.bound` rows per table, within its budget; `differs`
/// evaluates one database and says whether it is a counterexample (it records
/// it in the verdict).
BoundedVerdict searchDatabases(
    const SearchSpace& space, const BoundedOptions& options,
    const std::function<bool(const rt::Database&, BoundedVerdict&)>& differs);

}  // namespace rfguard
