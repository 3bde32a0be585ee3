#pragma once
// Helpers shared by the runtime-filter unit tests.
#include <doctest/doctest.h>

#include <cstdio>
#include <functional>
#include <set>
#include <string>

#include "grammar/sql.h"
#include "ir/printers.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"

namespace rfguard::testing {

/// The queries of one script and the planner's report for the first.
struct Planned {
  std::vector<Query> queries;
  RfReport report;
};

/// Loads the schema and one query, normalises it (optionally without outer-join
/// The tables plan() declares (on the first line of its input).
inline const std::string kTestTables =
    "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int);"
    "CREATE TABLE c (k int, v int) WITH (rows = 10); CREATE TABLE d (x double);";

/// The errors of `sql` over plan()'s tables, which it must have ("t.sql:1:..."
/// for its first line, after the tables).
inline std::string refused(const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  CHECK_FALSE(loadSql(kTestTables + "\n" + sql, "t.sql", c, qs, d));
  return d.render();
}

/// simplification) and places runtime filters. Joins stay as written (the
/// cases test rules at given shapes; join order has its own tests).
inline Planned plan(const std::string& sql, bool simplify = true,
                    const RfOptions& options = RfOptions{}) {
  SessionOptions so;  // the pipeline every front door runs
  if (!simplify) so.normalize.disabled.insert("SimplifyOuterJoin");
  keepJoinsAsWritten(so.normalize);
  so.filters = options;
  Session session(so);
  Diagnostics diags;
  bool ok = session.loadAs(kTestTables + sql, "t.sql", false, diags);
  REQUIRE_MESSAGE(ok, diags.render());
  session.run();
  Planned p;
  for (const auto& q : session.queries()) p.queries.push_back(q.query);
  p.report = session.queries()[0].placement;
  return p;
}

/// "a.k@a" for every consumer of filter `id`, sorted.
inline std::set<std::string> consumers(const Planned& p, int id) {
  std::set<std::string> out;
  for (const auto& c : p.report.consumers)
    if (c.filter == id) out.insert(c.target.str());
  return out;
}

inline std::string rejectionRule(const Planned& p, int id) {
  for (const auto& e : p.report.rejected)
    if (e.filter == id) return ruleName(e.decision.rule);
  return "";
}

inline const PlanNode* find(const PlanNode& n, PlanOp op, const std::string& alias = "") {
  if (n.op == op && (alias.empty() || n.alias == alias)) return &n;
  for (const auto& c : n.children)
    if (const PlanNode* f = find(*c, op, alias)) return f;
  return nullptr;
}

/// Loads a bundled example script (corpus/examples/NAME), schema and queries.
inline std::vector<Query> loadExample(const std::string& name, Catalog& catalog) {
  std::string path = std::string(RFGUARD_SOURCE_DIR) + "/corpus/examples/" + name;
  FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE_MESSAGE(f, path);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE_MESSAGE(loadSql(text, name, catalog, qs, diags), diags.render());
  return qs;
}

}  // namespace rfguard::testing
