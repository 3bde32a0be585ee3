// Integrity constraints in the verifier (issue 44): a primary key is kept in the
// catalog and plan JSON, the bounded search ranges only over the databases it
// allows, and counterexample scripts declare it so that sqlite3 and DuckDB load them.
#include <doctest/doctest.h>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"
#include "verifier/search_space.h"

using namespace rfguard;

namespace {

std::vector<Query> plans(const std::string& sql, Catalog& c) {
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(sql, "q.sql", c, qs, d), d.render());
  return qs;
}

EquivResult compare(const std::string& schema, const std::string& a, const std::string& b,
                    int bound) {
  Catalog c;
  auto qs = plans(schema + a + "\n" + b + "\n", c);
  REQUIRE(qs.size() == 2);
  BoundedOptions o;
  o.bound = bound;
  o.proofs = false;
  return checkRewrite(*qs[0].plan, *qs[1].plan, o);
}

const char* kDept = "CREATE TABLE dept (deptno int PRIMARY KEY, name varchar(10));\n";

}  // namespace

TEST_CASE("constraints: DISTINCT over a primary key is equivalent, over another column not") {
  // Two rows deptno = 1 would tell them apart, but the schema forbids them.
  auto key = compare(kDept, "SELECT deptno FROM dept;", "SELECT DISTINCT deptno FROM dept;", 3);
  CHECK(key.verdict == "equivalent");
  CHECK(key.bounded.bound == 3);
  // Not vacuous: tables of three rows were searched (the key has values enough).
  REQUIRE(key.bounded.databasesPerBound.size() == 3);
  CHECK(key.bounded.databasesPerBound[2] >= 1);
  auto other = compare(kDept, "SELECT name FROM dept;", "SELECT DISTINCT name FROM dept;", 3);
  CHECK(other.verdict == "different");
  REQUIRE(other.bounded.counterexample);
  // The script declares the key: sqlite3 and DuckDB load only what the schema allows.
  CHECK(other.sql.find("PRIMARY KEY (\"deptno\")") != std::string::npos);
  // A composite key is unique as a pair, not per column.
  const char* emp = "CREATE TABLE e (a int, b int, PRIMARY KEY (a, b));\n";
  CHECK(compare(emp, "SELECT a, b FROM e;", "SELECT DISTINCT a, b FROM e;", 3).verdict ==
        "equivalent");
  CHECK(compare(emp, "SELECT a FROM e;", "SELECT DISTINCT a FROM e;", 2).verdict == "different");
}

TEST_CASE("constraints: the search space's key check and key values") {
  Catalog c;
  // Two plans, as equiv compares them: every column they read varies.
  auto qs = plans(
      std::string(kDept) + "SELECT deptno FROM dept;\nSELECT DISTINCT deptno FROM dept;\n", c);
  SearchSpace space({qs[0].plan.get(), qs[1].plan.get()}, 2, 4);
  REQUIRE(space.tables.size() == 1);
  const TableSpec& t = space.tables[0];
  REQUIRE(t.key.size() == 1);
  const ColumnSpec& k = t.columns[t.key[0]];
  CHECK(k.domain.size() >= 4);  // four rows need four keys
  for (const auto& v : k.domain) CHECK_FALSE(rt::isNull(v));
  rt::Database db;
  db["dept"] = rt::Table{{"deptno", "name"}, {{rt::Value(int64_t{1}), rt::Value("x")}}};
  CHECK(space.admissible(db));
  db["dept"].rows.push_back({rt::Value(int64_t{1}), rt::Value("y")});
  CHECK_FALSE(space.admissible(db));
}

TEST_CASE("constraints: UNIQUE lets NULLs repeat, and only them") {
  const char* uq = "CREATE TABLE u (k int UNIQUE, v int, w int, UNIQUE (v, w));\n";
  auto nulls = compare(uq, "SELECT k FROM u;", "SELECT DISTINCT k FROM u;", 3);
  CHECK(nulls.verdict == "different");  // two NULL rows
  REQUIRE(nulls.bounded.counterexample);
  CHECK(nulls.sql.find("UNIQUE (\"k\")") != std::string::npos);
  CHECK(nulls.sql.find("UNIQUE (\"v\", \"w\")") != std::string::npos);
  CHECK(compare(uq, "SELECT k FROM u WHERE k IS NOT NULL;",
                "SELECT DISTINCT k FROM u WHERE k IS NOT NULL;", 3)
            .verdict == "equivalent");
  Catalog c;
  Diagnostics d;
  std::vector<Query> qs;
  CHECK_FALSE(loadSql("CREATE TABLE x (a int, UNIQUE (b));", "q.sql", c, qs, d));
  CHECK(d.render().find("unique column b is not defined") != std::string::npos);
}

TEST_CASE("constraints: primary_key in plan JSON, read and written; never nullable") {
  Session s{SessionOptions{}};
  Diagnostics d;
  const std::string doc = R"({"format": "rfguard-plan", "version": 1, "catalog": {"tables": [
    {"name": "dept", "columns": [{"name": "deptno", "type": "int", "nullable": false, "primary_key": true},
                                 {"name": "name", "type": "varchar", "nullable": true}]}]},
    "queries": [{"name": "q", "plan": {"id": 1, "op": "scan", "table": "dept", "alias": "d",
                 "columns": ["deptno"], "children": []}}]})";
  REQUIRE_MESSAGE(s.loadContent(doc, "q.json", d), d.render());
  s.run();
  const PlanNode& scan = *s.queries()[0].query.plan;
  REQUIRE(scan.primaryKey.size() == 1);
  CHECK(scan.primaryKey[0] == "d.deptno");
  Session bad{SessionOptions{}};
  Diagnostics e;
  std::string nullable = doc;
  nullable.replace(nullable.find("\"nullable\": false"), 17, "\"nullable\": true");
  CHECK_FALSE(bad.loadContent(nullable, "q.json", e));
  CHECK(e.render().find("/catalog/tables/0/columns/0/nullable") != std::string::npos);
  // UNIQUE sets at table level, each a list of its columns.
  std::string unique = doc;
  const std::string lastColumn = "\"nullable\": true}]";
  unique.insert(unique.find(lastColumn) + lastColumn.size(), ", \"unique\": [[\"name\"]]");
  Session u{SessionOptions{}};
  Diagnostics f;
  REQUIRE_MESSAGE(u.loadContent(unique, "q.json", f), f.render());
  u.run();
  REQUIRE(u.queries()[0].query.plan->uniqueKeys.size() == 1);
  CHECK(u.queries()[0].query.plan->uniqueKeys[0] == std::vector<ColumnId>{ColumnId("d.name")});
  std::string badSet = doc;
  badSet.insert(badSet.find(lastColumn) + lastColumn.size(), ", \"unique\": [[\"nope\"]]");
  Session v{SessionOptions{}};
  Diagnostics g;
  CHECK_FALSE(v.loadContent(badSet, "q.json", g));
  CHECK(g.render().find("/catalog/tables/0/unique/0/0") != std::string::npos);
}
