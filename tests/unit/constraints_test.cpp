// Integrity constraints in the verifier (issue 44): a primary key is kept in the
// catalog and plan JSON, the bounded search ranges only over the databases it
// allows, and counterexample scripts declare it so that sqlite3 and DuckDB load them.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
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

namespace {

const char* kFk =
    "CREATE TABLE dept (deptno int PRIMARY KEY, name varchar(10));\n"
    "CREATE TABLE emp (empno int PRIMARY KEY, deptno int REFERENCES dept, sal int CHECK (sal > "
    "0));\n";

std::string loadError(const std::string& sql) {
  Catalog c;
  Diagnostics d;
  std::vector<Query> qs;
  CHECK_FALSE(loadSql(sql, "q.sql", c, qs, d));
  return d.render();
}

}  // namespace

TEST_CASE("constraints: FOREIGN KEY and CHECK are parsed into the catalog and the scans") {
  Catalog c;
  auto qs = plans(std::string(kFk) +
                      "CREATE TABLE p (a int, b int, UNIQUE (a, b));\n"
                      "CREATE TABLE r (x int, y int, CONSTRAINT ab FOREIGN KEY (x, y) REFERENCES p "
                      "(a, b), CONSTRAINT pos CHECK (x > 0 OR y IS NULL));\n"
                      "SELECT empno FROM emp;\n",
                  c);
  const TableDef* emp = c.table("emp");
  REQUIRE(emp);
  REQUIRE(emp->foreignKeys.size() == 1);
  CHECK(emp->foreignKeys[0].columns == std::vector<std::string>{"deptno"});
  CHECK(emp->foreignKeys[0].refTable == "dept");
  CHECK(emp->foreignKeys[0].refColumns == std::vector<std::string>{"deptno"});  // the primary key
  REQUIRE(emp->checks.size() == 1);
  const TableDef* r = c.table("r");
  REQUIRE(r);
  REQUIRE(r->foreignKeys.size() == 1);
  CHECK(r->foreignKeys[0].refColumns == std::vector<std::string>{"a", "b"});
  CHECK(r->checks.size() == 1);
  // The scan carries them over its own column ids.
  const PlanNode* scan = qs[0].plan.get();
  while (scan->op != PlanOp::Scan) scan = scan->children[0].get();
  REQUIRE(scan->foreignKeys.size() == 1);
  CHECK(scan->foreignKeys[0].columns == std::vector<ColumnId>{ColumnId("emp.deptno")});
  REQUIRE(scan->checks.size() == 1);
  CHECK(freeColumnsOf(*scan->checks[0]) == std::set<std::string>{"emp.sal"});
  // A table may reference itself.
  plans("CREATE TABLE m (id int PRIMARY KEY, boss int REFERENCES m (id));", c);
}

TEST_CASE("constraints: a malformed FOREIGN KEY or CHECK is a located error") {
  CHECK(loadError("CREATE TABLE e (d int REFERENCES nope);")
            .find("q.sql:1:34: error: referenced table nope is not defined") != std::string::npos);
  CHECK(loadError("CREATE TABLE p (a int);\nCREATE TABLE e (d int REFERENCES p);")
            .find("p has no primary key: name the referenced columns") != std::string::npos);
  CHECK(loadError("CREATE TABLE p (a int, b int);\nCREATE TABLE e (d int REFERENCES p (a));")
            .find("the referenced columns of p are not its primary key or a UNIQUE set") !=
        std::string::npos);
  CHECK(loadError("CREATE TABLE p (a int PRIMARY KEY);\n"
                  "CREATE TABLE e (d int, f int, FOREIGN KEY (d, f) REFERENCES p);")
            .find("the foreign key has 2 columns but references 1") != std::string::npos);
  CHECK(
      loadError("CREATE TABLE p (a int PRIMARY KEY);\nCREATE TABLE e (d varchar(3) REFERENCES p);")
          .find("foreign key column d (varchar(3)) cannot reference p.a (int)") !=
      std::string::npos);
  CHECK(loadError("CREATE TABLE e (d int, FOREIGN KEY (z) REFERENCES e);")
            .find("foreign key column z is not defined") != std::string::npos);
  CHECK(loadError("CREATE TABLE e (d int CHECK (d + 1));")
            .find("a CHECK constraint is a condition, not") != std::string::npos);
  CHECK(loadError("CREATE TABLE e (d int CHECK (nope > 0));").find("nope") != std::string::npos);
  CHECK(loadError("CREATE TABLE s (k int);\nCREATE TABLE e (d int CHECK (d IN (SELECT k FROM s)));")
            .find("a CHECK constraint cannot hold a subquery") != std::string::npos);
  CHECK(loadError("CREATE TABLE e (d int CHECK (random() > 0.5));")
            .find("a CHECK constraint must be deterministic") != std::string::npos);
}

TEST_CASE("constraints: foreign keys and CHECK in plan JSON, written and read back") {
  Catalog c;
  auto qs = plans(std::string(kFk) + "SELECT empno FROM emp;\n", c);
  const std::string doc = documentToJson(c, qs).dump();
  CHECK(
      doc.find(
          R"("foreign_keys":[{"columns":["deptno"],"references":"dept","ref_columns":["deptno"]}])") !=
      std::string::npos);
  CHECK(doc.find(R"("checks":[{"call":">")") != std::string::npos);
  Catalog back;
  std::vector<Query> read;
  Diagnostics d;
  REQUIRE_MESSAGE(readPlanDocument(doc, "q.json", back, read, d), d.render());
  REQUIRE(back.table("emp"));
  CHECK(back.table("emp")->foreignKeys.size() == 1);
  CHECK(back.table("emp")->checks.size() == 1);
  CHECK(documentToJson(back, read).dump() == doc);
  // Errors name the JSON pointer.
  auto error = [&](std::string from, const std::string& to) {
    from = doc.substr(0, doc.find(from)) + to + doc.substr(doc.find(from) + from.size());
    Catalog x;
    std::vector<Query> y;
    Diagnostics e;
    CHECK_FALSE(readPlanDocument(from, "q.json", x, y, e));
    return e.render();
  };
  CHECK(error(R"("references":"dept")", R"("references":"nope")")
            .find("/catalog/tables/1/foreign_keys/0/references: table \"nope\" is not in the "
                  "catalog") != std::string::npos);
  CHECK(error(R"("ref_columns":["deptno"])", R"("ref_columns":["name"])")
            .find("/catalog/tables/1/foreign_keys/0/ref_columns: not the primary key or a UNIQUE "
                  "set of dept") != std::string::npos);
  CHECK(error(R"("columns":["deptno"],)", R"("columns":["zz"],)")
            .find("/catalog/tables/1/foreign_keys/0/columns/0: not a column of emp") !=
        std::string::npos);
  CHECK(error(R"("checks":[{"call":">")", R"("checks":[{"call":"+")")
            .find("/catalog/tables/1/checks/0: a CHECK constraint is a condition") !=
        std::string::npos);
}

TEST_CASE(
    "constraints: the search allows only databases with every reference present and no CHECK "
    "false") {
  Catalog c;
  auto qs = plans(std::string(kFk) +
                      "SELECT e.empno FROM emp e JOIN dept d ON e.deptno = d.deptno;\n"
                      "SELECT empno FROM emp WHERE deptno IS NOT NULL;\n",
                  c);
  SearchSpace space({qs[0].plan.get(), qs[1].plan.get()}, 2, 3);
  auto row = [](std::optional<int64_t> a, std::optional<int64_t> b, std::optional<int64_t> s) {
    auto v = [](std::optional<int64_t> x) { return x ? rt::Value(*x) : rt::null(); };
    return rt::Row{v(a), v(b), v(s)};
  };
  rt::Database db;
  db["dept"] = rt::Table{{"deptno", "name"}, {{rt::Value(int64_t{1}), rt::Value("x")}}};
  db["emp"] =
      rt::Table{{"empno", "deptno", "sal"}, {row(1, 1, 5), row(2, std::nullopt, std::nullopt)}};
  CHECK(space.admissible(db));  // a NULL reference and a NULL CHECK pass
  db["emp"].rows.push_back(row(3, 2, 5));
  CHECK_FALSE(space.admissible(db));  // dept 2 is missing
  db["emp"].rows.pop_back();
  db["emp"].rows.push_back(row(3, 1, 0));
  CHECK_FALSE(space.admissible(db));  // sal > 0 is FALSE
  // The referencing columns vary with the referenced ones, or no row could join.
  for (const auto& t : space.tables)
    for (const auto& col : t.columns)
      if (col.name == "deptno") CHECK(col.varies);
  // A referenced table no plan reads constrains nothing: rows can complete it.
  Catalog c2;
  auto alone = plans(std::string(kFk) + "SELECT empno FROM emp;\n", c2);
  SearchSpace one({alone[0].plan.get()}, 2, 3);
  rt::Database lone;
  lone["emp"] = rt::Table{{"empno", "deptno", "sal"}, {row(1, 7, 1)}};
  CHECK(one.admissible(lone));
}

TEST_CASE("constraints: key joins through a foreign key, proven over every value; scripts load") {
  auto removed = compare(kFk, "SELECT e.empno FROM emp e JOIN dept d ON e.deptno = d.deptno;",
                         "SELECT empno FROM emp WHERE deptno IS NOT NULL;", 3);
  CHECK(removed.verdict == "equivalent");
  CHECK(removed.bounded.everyValue);
  // Without the foreign key the join drops an unmatched row.
  const char* noFk =
      "CREATE TABLE dept (deptno int PRIMARY KEY, name varchar(10));\n"
      "CREATE TABLE emp (empno int PRIMARY KEY, deptno int, sal int CHECK (sal > 0));\n";
  auto kept = compare(noFk, "SELECT e.empno FROM emp e JOIN dept d ON e.deptno = d.deptno;",
                      "SELECT empno FROM emp WHERE deptno IS NOT NULL;", 3);
  CHECK(kept.verdict == "different");
  // A counterexample with both tables: the script creates and fills dept first,
  // declares the foreign key and the CHECK, and loads with foreign keys enforced.
  auto filtered = compare(
      kFk, "SELECT e.empno FROM emp e JOIN dept d ON e.deptno = d.deptno WHERE d.name = 'x';",
      "SELECT empno FROM emp WHERE deptno IS NOT NULL;", 3);
  REQUIRE(filtered.verdict == "different");
  const std::string& sql = filtered.sql;
  CHECK(sql.find("FOREIGN KEY (\"deptno\") REFERENCES \"dept\" (\"deptno\")") != std::string::npos);
  CHECK(sql.find("CHECK ((\"sal\" > 0))") != std::string::npos);
  CHECK(sql.find("INSERT INTO \"dept\"") < sql.find("INSERT INTO \"emp\""));
  CHECK(sql.find("CREATE TABLE \"dept\"") < sql.find("CREATE TABLE \"emp\""));
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  char* err = nullptr;
  const std::string script = "PRAGMA foreign_keys = ON;\n" + sql;
  CHECK_MESSAGE(sqlite3_exec(db, script.c_str(), nullptr, nullptr, &err) == SQLITE_OK,
                (err ? err : ""));
  sqlite3_free(err);
  sqlite3_close(db);
  // The referenced table unread: the foreign key is a comment, the script still loads.
  auto unread =
      compare(kFk, "SELECT empno FROM emp;", "SELECT empno FROM emp WHERE deptno IS NOT NULL;", 3);
  REQUIRE(unread.verdict == "different");
  CHECK(
      unread.sql.find("-- FOREIGN KEY (\"deptno\") REFERENCES \"dept\" (\"deptno\"): left out, no "
                      "query reads dept") != std::string::npos);
}
