// Bounded equivalence over every value (verifier/symbolic.h, docs/equiv.md
// "Every value"): the solver proves what no finite domain can, refutes what
// the search's domain misses, respects keys, and says which constructs it does
// not encode; an equivalence it cannot cover is inconclusive, never equivalent.
#include <doctest/doctest.h>

#include "grammar/sql.h"
#include "pipeline/equiv.h"
#include "verifier/bounded.h"
#include "verifier/symbolic.h"

using namespace rfguard;

namespace {

const std::string kSchema =
    "CREATE TABLE t1 (id int, a int); CREATE TABLE t2 (uid int, b int);"
    "CREATE TABLE dept (deptno int PRIMARY KEY, name varchar(10));"
    "CREATE TABLE bag (deptno int, name varchar(10));"
    "CREATE TABLE s (k int, x varchar(8));\n";

std::vector<Query> plans(const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(kSchema + sql, "q.sql", c, qs, d), d.render());
  return qs;
}

SymbolicVerdict solve(const std::string& sql, int bound = 2) {
  auto qs = plans(sql);
  REQUIRE(qs.size() == 2);
  return symbolicCompare(*qs[0].plan, *qs[1].plan, bound, 5);
}

/// The solver's model on which the two queries of `sql` differ, confirmed by the evaluator.
SymbolicVerdict refuted(const std::string& sql, int bound = 2);

BoundedOptions options(int bound, bool everyValue = true) {
  BoundedOptions o;
  o.bound = bound;
  o.proofs = false;
  o.everyValue = everyValue;
  return o;
}

SymbolicVerdict refuted(const std::string& sql, int bound) {
  auto qs = plans(sql);
  REQUIRE(qs.size() == 2);
  const SymbolicVerdict v = symbolicCompare(*qs[0].plan, *qs[1].plan, bound, 5);
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  CHECK(checkOneDatabase(*qs[0].plan, *qs[1].plan, v.db, options(bound)).counterexample);
  return v;
}

}  // namespace

TEST_CASE(
    "symbolic: a value no finite domain holds refutes the rewrite; the search alone is "
    "inconclusive") {
  // id % 97 = 5 with id > 1000: the search's values (constants, their
  // neighbours and images, fresh ones) hold no such id.
  auto qs = plans(
      "SELECT id FROM t1 WHERE id % 97 = 5 AND id > 1000;"
      "SELECT id FROM t1 WHERE a <> a;");
  const EquivResult search = checkRewrite(*qs[0].plan, *qs[1].plan, options(2, false));
  CHECK(search.verdict == "inconclusive");  // never "equivalent" on a finite domain
  CHECK_FALSE(search.bounded.counterexample);
  CHECK(search.bounded.databases > 0);
  CHECK(search.bounded.domain.find("NULL") != std::string::npos);
  const EquivResult full = checkRewrite(*qs[0].plan, *qs[1].plan, options(2));
  REQUIRE(full.verdict == "different");
  REQUIRE(full.bounded.counterexample);
  const auto& c = *full.bounded.counterexample;
  REQUIRE(c.db.at("t1").rows.size() == 1);  // fewest rows
  const int64_t id = std::get<int64_t>(c.db.at("t1").rows[0][0]);
  CHECK(id > 1000);
  CHECK(id % 97 == 5);
  CHECK(id <= 1000000);  // small values first
  CHECK(c.original.size() == 1);
  CHECK(c.rewritten.empty());
}

TEST_CASE("symbolic: equal over every value, where the search's domain proves nothing") {
  auto v = solve("SELECT a FROM t1 WHERE a > 3; SELECT a FROM t1 WHERE a >= 4;", 3);
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
  v = solve("SELECT a FROM t1 WHERE a > 3; SELECT a FROM t1 WHERE a >= 3;", 3);
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  CHECK(std::get<int64_t>(v.db.at("t1").rows.at(0).at(1)) == 3);
  // Arithmetic both ways: x + 5 = y against y - 5 = x.
  v = solve(
      "SELECT t1.id, t2.b FROM t1 JOIN t2 ON t1.id + 5 = t2.uid;"
      "SELECT t1.id, t2.b FROM t1 JOIN t2 ON t2.uid - 5 = t1.id;");
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
  auto qs = plans("SELECT a FROM t1 WHERE a > 3; SELECT a FROM t1 WHERE a >= 4;");
  const EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, options(3));
  CHECK(r.verdict == "equivalent");
  CHECK(r.bounded.everyValue);
  CHECK(r.bounded.valuesOpen.empty());
}

TEST_CASE("symbolic: outer joins, NULLs and the issue's LEFT JOIN reproducer") {
  auto v = solve(
      "SELECT * FROM t1 LEFT JOIN t2 ON t1.id + 5 = t2.uid;"
      "SELECT * FROM t1 LEFT JOIN t2 ON t1.id + 5 = t2.uid AND t2.b > 0;");
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  const auto& t1 = v.db.at("t1").rows;
  const auto& t2 = v.db.at("t2").rows;
  REQUIRE(t1.size() >= 1);
  REQUIRE(t2.size() >= 1);
  // A NULL-padded row is not a match: WHERE on the padded side is not ON.
  v = solve(
      "SELECT t1.id, t2.b FROM t1 LEFT JOIN t2 ON t1.id = t2.uid WHERE t2.b IS NULL;"
      "SELECT t1.id, t2.b FROM t1 LEFT JOIN t2 ON t1.id = t2.uid AND t2.b IS NULL;");
  CHECK(v.kind == SymbolicVerdict::Kind::Differs);
  v = solve(
      "SELECT t1.id FROM t1 WHERE t1.id NOT IN (SELECT uid FROM t2);"
      "SELECT t1.id FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.uid = t1.id);");
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);  // a NULL uid empties NOT IN
  v = solve(
      "SELECT t1.id FROM t1 WHERE t1.id IN (SELECT uid FROM t2);"
      "SELECT t1.id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.uid = t1.id);");
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
}

TEST_CASE("symbolic: keys make DISTINCT redundant; without the key it is not") {
  auto v = solve("SELECT deptno FROM dept; SELECT DISTINCT deptno FROM dept;", 3);
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
  v = solve("SELECT deptno FROM bag; SELECT DISTINCT deptno FROM bag;", 3);
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  CHECK(v.db.at("bag").rows.size() == 2);
  // Grouping: count(*) and count(col) differ on a NULL.
  v = solve("SELECT id, count(*) FROM t1 GROUP BY id; SELECT id, count(a) FROM t1 GROUP BY id;");
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  v = solve(
      "SELECT id, sum(a), min(a), max(a) FROM t1 GROUP BY id;"
      "SELECT id, sum(a), min(a), max(a) FROM t1 WHERE a IS NOT NULL OR a IS NULL GROUP BY id;");
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
}

TEST_CASE("symbolic: text in byte order, with strings made between the constants") {
  auto v = solve("SELECT k FROM s WHERE x > 'b'; SELECT k FROM s WHERE x >= 'c';");
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  const auto& x = std::get<std::string>(v.db.at("s").rows.at(0).at(1));
  CHECK(x > "b");
  CHECK(x < "c");
  v = solve("SELECT k FROM s WHERE x = 'b' OR x > 'b'; SELECT k FROM s WHERE x >= 'b';");
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
}

TEST_CASE("symbolic: ORDER BY keys compared with the rows; a finer order is allowed") {
  auto v = solve("SELECT id, a FROM t1 ORDER BY id; SELECT id, a FROM t1 ORDER BY id, a DESC;");
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
  v = solve("SELECT id, a FROM t1 ORDER BY id, a DESC; SELECT id, a FROM t1 ORDER BY id;");
  CHECK(v.kind == SymbolicVerdict::Kind::Unsupported);
  // Rows sorted by a key the output does not show: equal bags, other orders.
  v = solve("SELECT id FROM t1 ORDER BY a; SELECT id FROM t1 ORDER BY a + 0;");
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
}

TEST_CASE("symbolic: constructs outside the fragment are named, and the verdict stays open") {
  // A narrowing cast (values out of SMALLINT's range) is not encoded.
  const std::string narrow =
      "SELECT CAST(a AS smallint) FROM t1;"
      "SELECT CAST(a AS smallint) + 0 FROM t1;";
  auto v = solve(narrow);
  CHECK(v.kind == SymbolicVerdict::Kind::Unsupported);
  CHECK(v.why.find("narrowing") != std::string::npos);
  auto qs = plans(narrow);
  const EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, options(2));
  CHECK(r.verdict == "inconclusive");
  CHECK_FALSE(r.bounded.everyValue);
  CHECK(r.bounded.valuesOpen.find("narrowing") != std::string::npos);
  CHECK(symbolicGap(*qs[0].plan).find("narrowing") != std::string::npos);
  CHECK(symbolicGap(*plans("SELECT a FROM t1; SELECT a FROM t1;")[0].plan).empty());
}

TEST_CASE("symbolic: window functions, per partition and frame") {
  // A filter on the partition key moved below the window: the same numbers.
  auto v = solve(
      "SELECT a, rn FROM (SELECT a, row_number() OVER (PARTITION BY a ORDER BY id) AS rn FROM t1) "
      "q WHERE a = 1;"
      "SELECT a, rn FROM (SELECT a, row_number() OVER (PARTITION BY a ORDER BY id) AS rn FROM t1 "
      "WHERE a = 1) q;",
      3);
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
  CHECK(v.why.empty());
  // rank, dense_rank, a running sum, a ROWS frame and a RANGE offset frame.
  const std::string calls =
      "rank() OVER (PARTITION BY a ORDER BY id) AS r, dense_rank() OVER (PARTITION BY a ORDER BY "
      "id DESC) AS d, sum(id) OVER (PARTITION BY a ORDER BY id) AS s, count(*) OVER (PARTITION "
      "BY a ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c, max(id) OVER (PARTITION "
      "BY a ORDER BY id RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS m";
  v = solve("SELECT * FROM (SELECT a, id, " + calls + " FROM t1) q WHERE a > 0; SELECT * FROM " +
                "(SELECT a, id, " + calls + " FROM t1 WHERE a > 0) q;",
            3);
  CHECK(v.kind == SymbolicVerdict::Kind::Equal);
  // On the ORDER BY column, the running sum changes: a model the evaluator confirms.
  refuted(
      "SELECT * FROM (SELECT a, id, sum(id) OVER (PARTITION BY a ORDER BY id) AS s FROM t1) q "
      "WHERE id > 0;"
      "SELECT * FROM (SELECT a, id, sum(id) OVER (PARTITION BY a ORDER BY id) AS s FROM t1 WHERE "
      "id > 0) q;");
}

TEST_CASE("symbolic: grouping sets, each with its keys and grouping()") {
  // ROLLUP is its grouping sets; a set more is a difference the evaluator confirms.
  CHECK(solve("SELECT id, a, count(*), grouping(id, a) FROM t1 GROUP BY ROLLUP (id, a);"
              "SELECT id, a, count(*), grouping(id, a) FROM t1 GROUP BY GROUPING SETS ((id, a), "
              "(id), ());",
              3)
            .kind == SymbolicVerdict::Kind::Equal);
  refuted(
      "SELECT id, a, sum(a) FROM t1 GROUP BY ROLLUP (id, a);"
      "SELECT id, a, sum(a) FROM t1 GROUP BY CUBE (id, a);");
  // The empty set has its row on an empty table: a filter on a key moved below it is no rewrite.
  refuted(
      "SELECT * FROM (SELECT id, count(*) AS c FROM t1 GROUP BY ROLLUP (id)) q WHERE c >= 0;"
      "SELECT * FROM (SELECT id, count(*) AS c FROM t1 WHERE id IS NOT NULL GROUP BY ROLLUP (id)) "
      "q;");
}

TEST_CASE("symbolic: LIMIT below the root, and ties broken every way") {
  // A filter moved below ORDER BY ... LIMIT: a smaller row ahead of the one kept.
  auto v = refuted(
      "SELECT id FROM (SELECT id FROM t1 ORDER BY id LIMIT 1) q WHERE id > 0;"
      "SELECT id FROM (SELECT id FROM t1 WHERE id > 0 ORDER BY id LIMIT 1) q;");
  CHECK(v.ties);
  // Another window at the root, and LIMIT without ORDER BY below it.
  CHECK(
      solve("SELECT id FROM t1 ORDER BY id LIMIT 1; SELECT id FROM t1 ORDER BY id LIMIT 2;").kind ==
      SymbolicVerdict::Kind::Differs);
  CHECK(solve("SELECT count(*) FROM (SELECT id FROM t1 LIMIT 1) q;"
              "SELECT count(*) FROM (SELECT id FROM t1 LIMIT 1 OFFSET 0) q;")
            .kind == SymbolicVerdict::Kind::Equal);
  // An added tie-breaker: every answer of the rewritten plan is one the original
  // allows, proven; dropped, row_number may number (1, 2) first.
  const std::string byId = "SELECT id, a, row_number() OVER (ORDER BY id) FROM t1;";
  const std::string byIdA = "SELECT id, a, row_number() OVER (ORDER BY id, a DESC) FROM t1;";
  CHECK(solve(byId + byIdA, 3).kind == SymbolicVerdict::Kind::Equal);
  // (NULLS FIRST: the evaluator's canonical tie-break agrees, so the answer
  // that differs is another order of the peers.)
  auto qs = plans("SELECT id, a, row_number() OVER (ORDER BY id, a NULLS FIRST) FROM t1;" + byId);
  v = symbolicCompare(*qs[0].plan, *qs[1].plan, 2, 5);
  REQUIRE(v.kind == SymbolicVerdict::Kind::Differs);
  const BoundedVerdict confirmed = checkOneDatabase(*qs[0].plan, *qs[1].plan, v.db, options(2));
  REQUIRE(confirmed.counterexample);
  CHECK(confirmed.counterexample->tieAnswer);  // not the canonical tie-break's answer
}

TEST_CASE("symbolic: the evaluator's counterexample is a model of the encoding") {
  auto qs = plans(
      "SELECT t1.id, coalesce(t2.b, 0) FROM t1 LEFT JOIN t2 ON t1.id = t2.uid;"
      "SELECT t1.id, t2.b FROM t1 LEFT JOIN t2 ON t1.id = t2.uid;");
  const EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, options(2, false));
  REQUIRE(r.bounded.counterexample);
  const SymbolicVerdict on = symbolicOn(*qs[0].plan, *qs[1].plan, r.bounded.counterexample->db, 5);
  CHECK(on.kind == SymbolicVerdict::Kind::Differs);
  rt::Database same = r.bounded.counterexample->db;
  same["t1"].rows.clear();  // no rows: both plans return nothing
  CHECK(symbolicOn(*qs[0].plan, *qs[1].plan, same, 5).kind == SymbolicVerdict::Kind::Equal);
}
