#pragma once
// Internal to verifier/: the integrity constraints of the tables some plans
// read, as the bounded search and the solver's counterexamples must respect
// them (issue 44): "up to bound N" ranges over the databases the schema allows.
#include <functional>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"

namespace rfguard {

class TableConstraints {
 public:
  /// The constraints of every table the plans scan. A FOREIGN KEY counts only
  /// when the referenced table is scanned too: a table no plan reads can be
  /// completed with the rows the references need, without changing a result.
  explicit TableConstraints(const std::vector<const PlanNode*>& plans);

  /// True when `db` satisfies them: a primary key's values distinct (as a
  /// tuple) and a UNIQUE set's among the rows where none of its columns is
  /// NULL; every foreign key whose columns are all non-NULL present in the
  /// referenced table; no CHECK constraint FALSE (NULL passes). A table not in
  /// `db` has no rows.
  bool admissible(const rt::Database& db) const;
  /// Keeps only the tables `keep` accepts (and the references between them).
  void keepTables(const std::function<bool(const std::string& table)>& keep);
  /// True when some table has a constraint.
  bool any() const { return !tables_.empty(); }

 private:
  struct Reference {
    std::vector<size_t> columns;  ///< in the referencing table
    std::string table;            ///< the referenced table
    std::vector<size_t> refColumns;
  };
  struct Table {
    std::string name;
    std::vector<std::vector<size_t>> distinct;  ///< the key and the UNIQUE sets
    std::vector<Reference> references;
    /// The rows that break a CHECK constraint: a Filter over a scan of the table.
    PlanPtr violations;
    std::shared_ptr<rt::EvalCache> cache;
  };
  std::vector<Table> tables_;
};

}  // namespace rfguard
