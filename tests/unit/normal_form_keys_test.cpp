// The normal form's key law (verifier/row_keys.h, kKeys): DISTINCT over an
// input with a key among its columns is its input, on every database the
// constraints allow; without the key the bounded search tells them apart.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grammar/sql.h"
#include "pipeline/equiv.h"
#include "verifier/normal_form.h"
#include "verifier/row_keys.h"

using namespace rfguard;

namespace {

const std::string kSchema =
    "CREATE TABLE dept (deptno int PRIMARY KEY, name varchar(10));"
    "CREATE TABLE loose (u int UNIQUE, v int);"
    "CREATE TABLE strict (u int NOT NULL UNIQUE, v int);"
    "CREATE TABLE pair (a int, b int, c int, PRIMARY KEY (a, b));"
    "CREATE TABLE emp (empno int PRIMARY KEY, deptno int, boss int);\n";

std::vector<Query> bound(const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(kSchema + sql, "q.sql", c, qs, d), d.render());
  return qs;
}

/// The proof of the first two queries of `sql`, empty when there is none.
std::string proof(const std::string& sql) {
  auto qs = bound(sql);
  REQUIRE(qs.size() == 2);
  return provedEqual(*qs[0].plan, *qs[1].plan).value_or("");
}

const char* const kLaw = "DISTINCT dropped over a key of its input";

}  // namespace

TEST_CASE("row keys: scans, projections, filters and group keys") {
  auto keysOf = [](const std::string& sql) { return rowKeys(*bound(sql)[0].plan); };
  using Keys = std::vector<RowKey>;
  CHECK(keysOf("SELECT deptno, name FROM dept;") == Keys{{"q.deptno"}});
  CHECK(keysOf("SELECT name FROM dept;").empty());  // the key is not an output
  CHECK(keysOf("SELECT u FROM loose;").empty());    // UNIQUE over a nullable column
  CHECK(keysOf("SELECT u FROM strict WHERE v > 1;") == Keys{{"q.u"}});
  CHECK(keysOf("SELECT b, a FROM pair;") == Keys{{"q.a", "q.b"}});
  CHECK(keysOf("SELECT v, count(*) AS n FROM loose GROUP BY v;") == Keys{{"q.v"}});
  CHECK(keysOf("SELECT count(*) AS n FROM loose;") == Keys{{}});  // at most one row
  // A filter that rejects NULL makes a UNIQUE key over a nullable column a key.
  CHECK(keysOf("SELECT u FROM loose WHERE u IS NOT NULL;") == Keys{{"q.u"}});
  CHECK(keysOf("SELECT u FROM loose WHERE u > 0;") == Keys{{"q.u"}});
  CHECK(keysOf("SELECT u FROM loose WHERE v > 0;").empty());
  // An inner join on the other side's key keeps this side's key; any inner join
  // has the pair of keys.
  CHECK(keysOf("SELECT e.empno, d.name FROM emp e JOIN dept d ON e.deptno = d.deptno;") ==
        Keys{{"q.empno"}});
  CHECK(keysOf("SELECT e.empno, d.deptno FROM emp e JOIN dept d ON e.boss = d.deptno;").size() ==
        2);  // {empno} and {empno, deptno}
  CHECK(keysOf("SELECT e.empno FROM emp e JOIN dept d ON e.deptno < d.deptno;").empty());
  CHECK(keysOf("SELECT e.empno FROM emp e LEFT JOIN dept d ON e.deptno = d.deptno;") ==
        Keys{{"q.empno"}});
  CHECK(keysOf("SELECT e.empno FROM emp e LEFT JOIN loose l ON e.deptno = l.u;") ==
        Keys{{"q.empno"}});  // NULLs never match: a UNIQUE key will do
  CHECK(keysOf("SELECT e.empno FROM emp e LEFT JOIN loose l ON e.deptno = l.v;").empty());
  CHECK(keysOf("SELECT d.deptno FROM emp e RIGHT JOIN dept d ON e.deptno = d.deptno;").empty());
}

TEST_CASE("normal form: DISTINCT over a key of its input is its input") {
  CHECK(proof("SELECT deptno FROM dept; SELECT DISTINCT deptno FROM dept;").find(kLaw) !=
        std::string::npos);
  CHECK(
      proof("SELECT deptno, name FROM dept; SELECT DISTINCT deptno, name FROM dept;").find(kLaw) !=
      std::string::npos);
  CHECK(proof("SELECT u, v FROM strict WHERE v = 1; SELECT DISTINCT u, v FROM strict WHERE v = 1;")
            .find(kLaw) != std::string::npos);
  CHECK(proof("SELECT a, b FROM pair; SELECT DISTINCT a, b FROM pair;").find(kLaw) !=
        std::string::npos);
  CHECK(proof("SELECT u FROM loose WHERE u IS NOT NULL; SELECT DISTINCT u FROM loose WHERE u IS "
              "NOT NULL;")
            .find(kLaw) != std::string::npos);
  CHECK(proof("SELECT e.empno, d.name FROM emp e JOIN dept d ON e.deptno = d.deptno;"
              "SELECT DISTINCT e.empno, d.name FROM emp e JOIN dept d ON e.deptno = d.deptno;")
            .find(kLaw) != std::string::npos);
  CHECK(proof("SELECT v, n FROM (SELECT v, count(*) AS n FROM loose GROUP BY v) s;"
              "SELECT DISTINCT v, n FROM (SELECT v, count(*) AS n FROM loose GROUP BY v) s;")
            .find(kLaw) != std::string::npos);
}

TEST_CASE("normal form: without a key DISTINCT stays, and the search finds why") {
  // Each pair: no proof, and a counterexample that the constraints allow.
  const char* pairs[] = {
      // UNIQUE lets two rows hold NULL: DISTINCT keeps one.
      "SELECT u FROM loose; SELECT DISTINCT u FROM loose;",
      // A column that is no key: two departments of one name.
      "SELECT name FROM dept; SELECT DISTINCT name FROM dept;",
      // Part of a composite key.
      "SELECT a FROM pair; SELECT DISTINCT a FROM pair;",
      // A filter that lets NULL through keeps the UNIQUE key weak.
      "SELECT u FROM loose WHERE u IS NULL OR v > 0; SELECT DISTINCT u FROM loose WHERE u IS NULL "
      "OR v > 0;",
      // A join on a column that is no key of the other side: two matches.
      "SELECT e.empno FROM emp e JOIN loose l ON e.deptno = l.v;"
      "SELECT DISTINCT e.empno FROM emp e JOIN loose l ON e.deptno = l.v;",
  };
  for (const char* sql : pairs) {
    CAPTURE(sql);
    CHECK(proof(sql).empty());
    auto qs = bound(sql);
    BoundedOptions o;
    o.bound = 2;
    const EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, o);
    CHECK(r.verdict == "different");
    REQUIRE(r.bounded.counterexample);
  }
}
