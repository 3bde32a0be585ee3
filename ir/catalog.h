#pragma once
// Tables and views known to a session.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/column_id.h"
#include "ir/diagnostics.h"
#include "ir/expr.h"
#include "ir/types.h"

namespace rfguard {

/// One column of a table.
struct ColumnDef {
  std::string name;
  Type type;
  bool nullable = true;
  bool primaryKey = false;
  std::optional<long long> ndv;  ///< distinct values (WITH (ndv_col = N)), if known
};

/// A FOREIGN KEY: every row whose `columns` are all non-NULL has their values
/// in `refColumns` of some row of `refTable` (SQL's MATCH SIMPLE: a row with a
/// NULL in the key references nothing). `refColumns` are the referenced
/// table's primary key or one of its UNIQUE sets, in the order of `columns`.
struct ForeignKey {
  std::vector<std::string> columns;
  std::string refTable;
  std::vector<std::string> refColumns;
};

/// A base table with its properties.
struct TableDef {
  std::string name;
  std::vector<ColumnDef> columns;
  std::optional<long long> rows;  ///< row count statistic (WITH (rows = N))
  bool runtimeFilter = true;      ///< the table accepts runtime filters at its scans
  std::string distributionKey;    ///< hash distribution column, empty if none
  /// UNIQUE column sets: rows whose columns of one set are all non-NULL differ
  /// in them (NULLs never collide, as in SQL).
  std::vector<std::vector<std::string>> uniqueKeys;
  std::vector<ForeignKey> foreignKeys;
  /// CHECK constraints: a row is allowed unless one of them is FALSE (NULL
  /// passes, as in SQL). Deterministic, without subqueries or aggregates; a
  /// column reference's id is the bare column name.
  std::vector<ExprPtr> checks;
  SourceLoc loc;  ///< where it was defined

  /// The index of column `name`, or -1.
  int columnIndex(const std::string& name) const;
  /// The primary key's columns, in table order; empty without one.
  std::vector<std::string> primaryKeyColumns() const;
  /// True when `names` (in any order) are the primary key or a UNIQUE set:
  /// what a FOREIGN KEY may reference.
  bool isKey(std::vector<std::string> names) const;
};

/// A view: a query stored as SQL text, bound where it is used.
struct ViewDef {
  std::string name;
  std::vector<std::string> columnNames;  ///< explicit column list, may be empty
  std::string sql;                       ///< the SELECT text
  std::string file;                      ///< where the text came from
  SourceLoc loc;                         ///< position of the SELECT text in that file
};

/// The tables and views of a session. Names are stored as written (unquoted
/// identifiers are lower-cased by the parser). Copies share their entries
/// until one of them adds a table or a view (a session copies its schema for
/// every input it loads, and most inputs add nothing); what a copy returned
/// stays valid while that copy or another holding the same entries lives.
class Catalog {
 public:
  /// Adds a table; false if the name is taken.
  bool addTable(TableDef t);
  /// Adds a view; false if the name is taken.
  bool addView(ViewDef v);
  /// The table named `name`, or nullptr.
  const TableDef* table(const std::string& name) const;
  /// The view named `name`, or nullptr.
  const ViewDef* view(const std::string& name) const;
  /// All tables in name order.
  const std::map<std::string, TableDef>& tables() const { return entries().tables; }
  /// All views in name order.
  const std::map<std::string, ViewDef>& views() const { return entries().views; }
  /// The column ids of a scan that reads table `name` under its own name
  /// ("name.col", in column order), made when the table was added and shared
  /// by every such scan; nullptr for an unknown table.
  const std::vector<ColumnId>* ownColumnIds(const std::string& name) const;

 private:
  struct Entries {
    std::map<std::string, TableDef> tables;
    std::map<std::string, ViewDef> views;
    std::map<std::string, std::vector<ColumnId>> ownIds;  ///< by table name
  };
  const Entries& entries() const { return entries_ ? *entries_ : none(); }
  /// The entries, this catalog's own: copied first when shared.
  Entries& own();
  static const Entries& none();
  std::shared_ptr<Entries> entries_;  ///< null while empty; changed only through own()
};

}  // namespace rfguard
