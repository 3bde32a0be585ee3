#pragma once
// Tables and views known to a session.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/column_id.h"
#include "ir/diagnostics.h"
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

/// A base table with its properties.
struct TableDef {
  std::string name;
  std::vector<ColumnDef> columns;
  std::optional<long long> rows;  ///< row count statistic (WITH (rows = N))
  bool runtimeFilter = true;      ///< the table accepts runtime filters at its scans
  std::string distributionKey;    ///< hash distribution column, empty if none
  SourceLoc loc;                  ///< where it was defined

  /// The index of column `name`, or -1.
  int columnIndex(const std::string& name) const;
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
/// identifiers are lower-cased by the parser).
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
  const std::map<std::string, TableDef>& tables() const { return tables_; }
  /// All views in name order.
  const std::map<std::string, ViewDef>& views() const { return views_; }
  /// The column ids of a scan that reads table `name` under its own name
  /// ("name.col", in column order), made when the table was added and shared
  /// by every such scan; nullptr for an unknown table.
  const std::vector<ColumnId>* ownColumnIds(const std::string& name) const;

 private:
  std::map<std::string, TableDef> tables_;
  std::map<std::string, ViewDef> views_;
  std::map<std::string, std::vector<ColumnId>> ownIds_;  ///< by table name
};

}  // namespace rfguard
