#pragma once
// Helpers shared by the front end's tests: SQL over a two-table schema, loaded.
#include <string>
#include <vector>

#include "grammar/sql.h"

namespace rfguard::frontend_testing {

inline const char* kSchema =
    "CREATE TABLE a (k int, v int); CREATE TABLE b (k int NOT NULL, v int, d date);";

struct Loaded {
  Catalog catalog;
  std::vector<Query> queries;
  Diagnostics diags;
  bool ok = false;
};

inline Loaded load(const std::string& sql) {
  Loaded l;
  l.ok = loadSql(std::string(kSchema) + "\n" + sql, "t.sql", l.catalog, l.queries, l.diags);
  return l;
}

inline std::string firstError(const std::string& sql) {
  Loaded l = load(sql);
  return l.diags.items().empty() ? "" : l.diags.items()[0].render();
}

}  // namespace rfguard::frontend_testing
