// The normal form's key laws (verifier/row_keys.h, normal_form_laws.h):
// DISTINCT over an input with a key among its columns is its input, GROUP BY
// over a key a projection, a join no one reads the other input of (on a NOT
// NULL foreign key, or LEFT on a key) its kept input, on every database the
// constraints allow; without the key the bounded search tells them apart.
#include <doctest/doctest.h>

#include "normal_form_support.h"

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
    "CREATE TABLE emp (empno int PRIMARY KEY, deptno int, boss int);"
    "CREATE TABLE staff (sno int PRIMARY KEY, dno int NOT NULL REFERENCES dept (deptno),"
    "  mgr int REFERENCES dept (deptno), pay int);"
    "CREATE TABLE part (pa int, pb int, PRIMARY KEY (pa, pb));"
    "CREATE TABLE t0 (k int, v int); CREATE TABLE t1 (k int, v int); CREATE TABLE t2 (k int, v "
    "int);"
    "CREATE TABLE line (lno int PRIMARY KEY, la int NOT NULL, lb int NOT NULL,"
    "  FOREIGN KEY (la, lb) REFERENCES part (pa, pb));\n";

std::vector<Query> bound(const std::string& sql) {
  return testing::boundOver(kSchema, sql);
}

/// The proof of the first two queries of `sql`, empty when there is none.
std::string proof(const std::string& sql) {
  return testing::proofOver(kSchema, sql);
}

const char* const kLaw = "DISTINCT dropped, GROUP BY as a projection, over a key of its input";
const char* const kJoinLaw = "joins dropped whose other input nothing reads";

/// Each pair of `pairs` has no proof, and the bounded search finds a
/// counterexample that the constraints allow.
void refuted(const std::vector<const char*>& pairs) {
  testing::refutedOver(kSchema, pairs);
}

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
  refuted(std::vector<const char*>(std::begin(pairs), std::end(pairs)));
}

TEST_CASE("normal form: GROUP BY over a key of its input is a projection") {
  const char* proven[] = {
      "SELECT deptno FROM dept; SELECT deptno FROM dept GROUP BY deptno;",
      "SELECT deptno, name AS m FROM dept; SELECT deptno, max(name) AS m FROM dept GROUP BY "
      "deptno;",
      "SELECT a, b, c AS s FROM pair; SELECT a, b, min(c) AS s FROM pair GROUP BY b, a;",
      "SELECT deptno, CAST(deptno AS bigint) AS s FROM dept;"
      "SELECT deptno, sum(deptno) AS s FROM dept GROUP BY deptno;",
      // Group keys of a derived table are a key of it.
      "SELECT v, n FROM (SELECT v, count(*) AS n FROM loose GROUP BY v) s;"
      "SELECT v, max(n) AS n FROM (SELECT v, count(*) AS n FROM loose GROUP BY v) s GROUP BY v;",
  };
  for (const char* sql : proven) {
    CAPTURE(sql);
    CHECK(proof(sql).find(kLaw) != std::string::npos);
  }
  refuted({
      // No key among the group keys: two rows of one v are one group.
      "SELECT v, v AS m FROM loose; SELECT v, max(v) AS m FROM loose GROUP BY v;",
      // UNIQUE over a nullable column: two NULLs are one group.
      "SELECT u FROM loose; SELECT u FROM loose GROUP BY u;",
      // No group keys: one row even over an empty table.
      "SELECT 1 AS n FROM dept WHERE deptno = 1;"
      "SELECT count(*) AS n FROM dept WHERE deptno = 1;",
  });
}

TEST_CASE("normal form: joins no one reads the other input of, on keys, dropped") {
  const char* proven[] = {
      // An inner join on a NOT NULL foreign key: every staff row meets one dept.
      "SELECT s.sno FROM staff s; SELECT s.sno FROM staff s JOIN dept d ON s.dno = d.deptno;",
      "SELECT s.sno FROM staff s; SELECT s.sno FROM staff s, dept d WHERE d.deptno = s.dno;",
      "SELECT s.sno FROM staff s WHERE s.pay > 1;"
      "SELECT s.sno FROM staff s, dept d WHERE s.dno = d.deptno AND s.pay > 1;",
      "SELECT count(*) AS n FROM staff s;"
      "SELECT count(*) AS n FROM staff s JOIN dept d ON s.dno = d.deptno;",
      // A composite foreign key.
      "SELECT l.lno FROM line l; SELECT l.lno FROM line l JOIN part p ON l.la = p.pa AND l.lb = "
      "p.pb;",
      // LEFT joins on a key of the other input: each row once, matched or not.
      "SELECT e.empno FROM emp e; SELECT e.empno FROM emp e LEFT JOIN dept d ON e.boss = d.deptno;",
      "SELECT e.empno FROM emp e; SELECT e.empno FROM dept d RIGHT JOIN emp e ON e.boss = "
      "d.deptno;",
      "SELECT e.empno FROM emp e;"
      "SELECT e.empno FROM emp e LEFT JOIN (SELECT v, count(*) AS n FROM loose GROUP BY v) g "
      "ON e.deptno = g.v;",
      // A self-join on the primary key: each row meets itself alone.
      "SELECT e.empno FROM emp e; SELECT e.empno FROM emp e JOIN emp z ON e.empno = z.empno;",
      // Two joins, one after the other.
      "SELECT s.sno FROM staff s;"
      "SELECT s.sno FROM staff s JOIN dept d ON s.dno = d.deptno LEFT JOIN dept m ON s.mgr = "
      "m.deptno;",
  };
  for (const char* sql : proven) {
    CAPTURE(sql);
    CHECK(proof(sql).find(kJoinLaw) != std::string::npos);
  }
  refuted({
      // The foreign key's column may be NULL: that row meets no dept.
      "SELECT s.sno FROM staff s; SELECT s.sno FROM staff s JOIN dept d ON s.mgr = d.deptno;",
      // No foreign key: a row meets no dept.
      "SELECT e.empno FROM emp e; SELECT e.empno FROM emp e JOIN dept d ON e.boss = d.deptno;",
      // The referenced table filtered: not every row of it.
      "SELECT s.sno FROM staff s;"
      "SELECT s.sno FROM staff s JOIN (SELECT deptno FROM dept WHERE name = 'x') d ON s.dno = "
      "d.deptno;",
      // The referenced key equated twice: the two referencing columns must agree.
      "SELECT s.sno FROM staff s; SELECT s.sno FROM staff s JOIN dept d ON s.pay = d.deptno AND "
      "s.dno = d.deptno;",
      // Half of a composite foreign key: many parts share one pa.
      "SELECT l.lno FROM line l; SELECT l.lno FROM line l JOIN part p ON l.la = p.pa;",
      // A self-join on a column that is no key: a row meets its equals too.
      "SELECT e.empno FROM emp e; SELECT e.empno FROM emp e JOIN emp z ON e.boss = z.boss;",
      // UNIQUE over a nullable column: the row whose u is NULL meets none.
      "SELECT l.u FROM loose l; SELECT l.u FROM loose l JOIN loose z ON l.u = z.u;",
      // LEFT on no key of the other input: two matches, the row twice.
      "SELECT e.empno FROM emp e; SELECT e.empno FROM emp e LEFT JOIN loose l ON e.boss = l.v;",
      // The dropped input's column is read.
      "SELECT e.empno, e.boss AS n FROM emp e;"
      "SELECT e.empno, d.deptno AS n FROM emp e LEFT JOIN dept d ON e.boss = d.deptno;",
      // The kept side of a foreign key under an outer join: NULL-padded rows.
      "SELECT d.deptno FROM dept d LEFT JOIN staff s ON s.sno = d.deptno;"
      "SELECT d.deptno FROM dept d LEFT JOIN staff s ON s.sno = d.deptno JOIN dept x ON s.dno = "
      "x.deptno;",
  });
}

TEST_CASE("normal form: names of tables and of derived tables do not matter") {
  const char* proven[] = {
      "SELECT * FROM emp WHERE deptno = 10; SELECT * FROM emp e WHERE e.deptno = 10;",
      "SELECT e.empno, d.name FROM emp e JOIN dept d ON e.deptno = d.deptno;"
      "SELECT x.empno, y.name FROM dept y JOIN emp x ON y.deptno = x.deptno;",
      "SELECT e.empno FROM emp e WHERE e.deptno IN (SELECT d.deptno FROM dept d);"
      "SELECT empno FROM emp WHERE deptno IN (SELECT deptno FROM dept);",
      // Derived tables: projections merged, filters below them.
      "SELECT s.x FROM (SELECT boss AS x FROM emp) s WHERE s.x > 1;"
      "SELECT u.x FROM (SELECT boss AS x FROM emp) u WHERE u.x > 1;",
      "SELECT s.x FROM (SELECT boss + 1 AS x FROM emp) s WHERE s.x > 1;"
      "SELECT boss + 1 AS x FROM emp WHERE boss + 1 > 1;",
      // Grouped by a derived table's column: the aggregate reads through it.
      "SELECT s.d, count(*) AS n FROM (SELECT deptno AS d FROM emp) s GROUP BY s.d;"
      "SELECT deptno AS d, count(*) AS n FROM emp GROUP BY deptno;",
      "SELECT s.d, sum(s.x) AS n FROM (SELECT deptno AS d, boss AS x FROM emp) s WHERE s.x > 1 "
      "GROUP BY s.d;"
      "SELECT deptno AS d, sum(boss) AS n FROM emp WHERE boss > 1 GROUP BY deptno;",
  };
  for (const char* sql : proven) {
    CAPTURE(sql);
    CHECK_FALSE(proof(sql).empty());
  }
  // Renaming keeps what a column holds: other columns are still other columns,
  // and a substituted filter reads the projected value.
  refuted({
      "SELECT e.empno FROM emp e WHERE e.boss > 1; SELECT empno FROM emp WHERE deptno > 1;",
      "SELECT s.x FROM (SELECT boss + 1 AS x FROM emp) s WHERE s.x > 1;"
      "SELECT boss + 1 AS x FROM emp WHERE boss > 1;",
      "SELECT s.d, count(*) AS n FROM (SELECT deptno AS d FROM emp) s GROUP BY s.d;"
      "SELECT boss AS d, count(*) AS n FROM emp GROUP BY boss;",
  });
  // A table read twice: its scans numbered every way round. The aliases
  // swapped is the same query; the join condition swapped is not.
  CHECK_FALSE(proof("SELECT a.empno FROM emp a JOIN emp b ON a.empno = b.boss;"
                    "SELECT b.empno FROM emp b JOIN emp a ON b.empno = a.boss;")
                  .empty());
  CHECK_FALSE(proof("SELECT x.empno, y.boss FROM emp x, emp y, emp z WHERE x.boss = y.empno AND "
                    "y.boss = z.empno;"
                    "SELECT c.empno, b.boss FROM emp a, emp b, emp c WHERE b.boss = a.empno AND "
                    "c.boss = b.empno;")
                  .empty());
  refuted(
      {"SELECT a.empno FROM emp a JOIN emp b ON a.empno = b.boss;"
       "SELECT a.empno FROM emp a JOIN emp b ON a.boss = b.empno;"});
}

TEST_CASE("normal form: filters into set operations, UNION and INTERSECT flat and unordered") {
  const char* proven[] = {
      "SELECT k FROM t0 UNION ALL SELECT k FROM t1; SELECT k FROM t1 UNION ALL SELECT k FROM t0;",
      "SELECT k FROM t0 INTERSECT SELECT k FROM t1; SELECT k FROM t1 INTERSECT SELECT k FROM t0;",
      "SELECT u.k FROM (SELECT k FROM t0 UNION ALL SELECT k FROM t1) u WHERE u.k > 1;"
      "SELECT k FROM t0 WHERE k > 1 UNION ALL SELECT k FROM t1 WHERE k > 1;",
      "SELECT u.k FROM (SELECT k FROM t0 EXCEPT SELECT k FROM t1) u WHERE u.k > 1;"
      "SELECT k FROM t0 WHERE k > 1 EXCEPT SELECT k FROM t1 WHERE k > 1;",
      "SELECT k FROM t0 UNION ALL (SELECT k FROM t1 UNION ALL SELECT k FROM t2);"
      "SELECT k FROM t2 UNION ALL SELECT k FROM t0 UNION ALL SELECT k FROM t1;",
      // An inner UNION ALL under a DISTINCT UNION: its duplicates go anyway.
      "SELECT k FROM t0 UNION (SELECT k FROM t1 UNION ALL SELECT k FROM t2);"
      "SELECT k FROM t2 UNION SELECT k FROM t0 UNION SELECT k FROM t1;",
      // Result columns are read by position: their names do not matter.
      "SELECT k AS x FROM t0; SELECT k AS y FROM t0;",
  };
  for (const char* sql : proven) {
    CAPTURE(sql);
    const std::string why = proof(sql);
    const bool named = std::string(sql).find(" AS x") != std::string::npos;
    CHECK(why.find(named ? "result columns by position" : "set operations") != std::string::npos);
  }
  refuted({
      // EXCEPT is not symmetric.
      "SELECT k FROM t0 EXCEPT SELECT k FROM t1; SELECT k FROM t1 EXCEPT SELECT k FROM t0;",
      // A DISTINCT UNION under a UNION ALL: its duplicates would come back.
      "SELECT k FROM t0 UNION ALL (SELECT k FROM t1 UNION SELECT k FROM t2);"
      "SELECT k FROM t0 UNION ALL SELECT k FROM t1 UNION ALL SELECT k FROM t2;",
      // The filter on one input only of a UNION.
      "SELECT u.k FROM (SELECT k FROM t0 UNION ALL SELECT k FROM t1) u WHERE u.k > 1;"
      "SELECT k FROM t0 WHERE k > 1 UNION ALL SELECT k FROM t1;",
      // Columns by position: swapped, they differ.
      "SELECT k, v FROM t0; SELECT v, k FROM t0;",
  });
}
