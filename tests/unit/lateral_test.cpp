// LATERAL derived tables (grammar/bind_lateral.cpp): the SQL as written run in
// the linked DuckDB, which runs LATERAL itself, against rfguard's evaluation
// of the joins and scalar subqueries it binds them to; the forms it refuses.
#include <doctest/doctest.h>

#include "eval_test_support.h"
#include "grammar/sql.h"
#include "verifier/plan_sql.h"

namespace rfguard {

namespace {

using testing::intPair;

rt::Database database() {
  rt::Database db;
  db["a"] = {
      {"k", "v"},
      {intPair(1, 0), intPair(2, 9), intPair(3, 1), intPair(std::nullopt, 1), intPair(1, 5)}};
  db["b"] = {
      {"k", "v"},
      {intPair(1, 4), intPair(1, 6), intPair(2, 3), intPair(std::nullopt, 2), intPair(3, 1)}};
  return db;
}

const char* const kQueries[] = {
    "SELECT a.k, s.v FROM a, LATERAL (SELECT b.v FROM b WHERE b.k = a.k) s",
    "SELECT a.k, s.c FROM a CROSS JOIN LATERAL (SELECT count(*) AS c FROM b WHERE b.k = a.k) s",
    "SELECT a.k, s.w FROM a LEFT JOIN LATERAL (SELECT b.v + 1 AS w FROM b WHERE b.k = a.k) s "
    "ON true",
    // ON over an aggregate's row: the padded row where it fails.
    "SELECT a.k, s.m FROM a LEFT JOIN LATERAL (SELECT max(b.v) AS m FROM b WHERE b.k = a.k) s "
    "ON s.m > a.v",
    "SELECT a.k, s.x FROM a JOIN LATERAL (SELECT a.v + b.v AS x FROM b WHERE b.k = a.k) s "
    "ON s.x > 5",
    "SELECT a.k, s.v FROM a LEFT JOIN LATERAL (SELECT b.v FROM b WHERE b.k = a.k AND b.v > a.v) "
    "s ON s.v < 5",
    // A constant of the subquery is NULL for a left row that meets no row.
    "SELECT a.k, s.one FROM a LEFT JOIN LATERAL (SELECT 1 AS one FROM b WHERE b.k = a.k) s "
    "ON true",
    "SELECT a.k, s.c FROM a LEFT JOIN LATERAL (SELECT coalesce(max(b.v), 0) AS c FROM b WHERE "
    "b.k = a.k) s ON true",
    "SELECT a.k, s.v FROM a, LATERAL (SELECT b.v FROM b WHERE b.v > 3) s",
};

}  // namespace

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("LATERAL: DuckDB's own LATERAL and rfguard's joins agree") {
  auto duck = testing::duckdbWith(database());
  for (const char* q : kQueries) testing::sameAsEngine(*duck, q, database());
}
#endif

TEST_CASE("LATERAL: the forms without a join form are refused where they are") {
  using testing::refused;
  CHECK(refused("SELECT a.k FROM a, LATERAL (SELECT b.v FROM b WHERE b.k = a.k LIMIT 1) s;")
            .find("t.sql:2:20: error: a LATERAL derived table that reads the left side and "
                  "ends in ORDER BY, LIMIT") != std::string::npos);
  CHECK(refused("SELECT a.k FROM a, LATERAL (SELECT b.k, count(*) FROM b WHERE b.v = a.v GROUP "
                "BY b.k) s;")
            .find("GROUP BY") != std::string::npos);
  CHECK(refused("SELECT a.k FROM a RIGHT JOIN LATERAL (SELECT b.v FROM b WHERE b.k = a.k) s ON "
                "true;")
            .find("INNER, CROSS or LEFT JOIN") != std::string::npos);
  CHECK(refused("SELECT a.k FROM a LEFT JOIN LATERAL (SELECT a.v AS x FROM b WHERE b.k = a.k) s "
                "ON true;")
            .find("under LEFT JOIN whose select list reads the left side") != std::string::npos);
  CHECK(refused("SELECT a.k FROM a, LATERAL b;").find("error") != std::string::npos);
  // Without a left side to read, LATERAL is a derived table.
  CHECK(testing::run("SELECT s.v FROM LATERAL (SELECT v FROM b WHERE k = 1) s", database())
            .rows.size() == 2);
}

}  // namespace rfguard
