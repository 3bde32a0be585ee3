#pragma once
// Helpers shared by the front end's tests: SQL over a two-table schema, loaded.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grammar/sql.h"
#include "rules/normalize.h"

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

/// Normalises the first query of `l` with `rule` switched off.
inline NormalizeReport normalizeWithout(Loaded& l, const std::string& rule) {
  REQUIRE(l.ok);
  NormalizeOptions opt;
  opt.disabled.insert(rule);
  NormalizeReport report;
  normalize(l.queries[0].plan, opt, report);
  return report;
}

inline std::string firstError(const std::string& sql) {
  Loaded l = load(sql);
  return l.diags.items().empty() ? "" : l.diags.items()[0].render();
}

}  // namespace rfguard::frontend_testing
