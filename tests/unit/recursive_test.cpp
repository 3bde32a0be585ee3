// WITH RECURSIVE (grammar/bind_recursive.cpp): the SQL as written run in
// SQLite (and the linked DuckDB), both of which recurse themselves, against
// rfguard's evaluation of the unrolled plan; a recursion longer than the
// steps unrolled has no result; the forms refused.
#include <doctest/doctest.h>

#include "eval_test_support.h"
#include "grammar/sql.h"
#include "verifier/plan_sql.h"
#include "verifier/sqlite_oracle.h"

namespace rfguard {

namespace {

using testing::intPair;

/// b's rows are edges k -> v: a chain 1 -> 2 -> 3 -> 4, a cycle 5 -> 6 -> 5.
rt::Database database() {
  rt::Database db;
  db["a"] = {{"k", "v"}, {intPair(1, 0), intPair(5, 0), intPair(7, 1)}};
  db["b"] = {{"k", "v"},
             {intPair(1, 2), intPair(2, 3), intPair(3, 4), intPair(5, 6), intPair(6, 5),
              intPair(std::nullopt, 1)}};
  return db;
}

const char* const kQueries[] = {
    // Reachable from 1 and 5: UNION stops at the cycle.
    "WITH RECURSIVE r(n) AS (SELECT k FROM a WHERE v = 0 UNION SELECT b.v FROM r JOIN b ON b.k "
    "= r.n) SELECT n FROM r",
    // UNION ALL with the depth, from 1 only (the cycle would not end).
    "WITH RECURSIVE r(n, d) AS (SELECT k, 0 FROM a WHERE k = 1 UNION ALL SELECT b.v, r.d + 1 "
    "FROM r JOIN b ON b.k = r.n) SELECT n, d FROM r",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4) SELECT x FROM c",
    // Read by a query around it, and twice.
    "WITH RECURSIVE r(n) AS (SELECT 2 UNION SELECT b.v FROM b JOIN r ON r.n = b.k) SELECT a.k, "
    "r.n FROM a JOIN r ON r.n > a.k WHERE r.n IN (SELECT n FROM r)",
};

}  // namespace

TEST_CASE("WITH RECURSIVE: SQLite's recursion and rfguard's unrolled plan agree") {
  SqliteOracle sqlite;
  std::string error;
  REQUIRE_MESSAGE(sqlite.load(database(), error), error);
  for (const char* q : kQueries) testing::sameAsEngine(sqlite, q, database());
}

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("WITH RECURSIVE: DuckDB's recursion and rfguard's unrolled plan agree") {
  std::string error;
  auto duck = testing::duckdbWith(database());
  for (const char* q : kQueries) {
    const std::string sql = q;
    const std::vector<rt::Row> theirs = testing::sameAsEngine(*duck, sql, database());
    // And the oracle's SQL of the unrolled plan (too deep for SQLite's parser).
    std::string why;
    SqlFilters duckSql;
    duckSql.spelling = duck->spelling();
    auto unrolled = planToSqlite(*testing::plan(sql).queries[0].plan, duckSql, &why);
    REQUIRE_MESSAGE(unrolled, why);
    std::vector<rt::Row> rendered;
    REQUIRE_MESSAGE(duck->query(*unrolled, rendered, error), error);
    CHECK(rt::sortedBag(rendered) == rt::sortedBag(theirs));
  }
}
#endif

TEST_CASE("WITH RECURSIVE: past the steps unrolled, no result; the forms refused") {
  rt::Relation out;
  std::string error;
  const std::string longer =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < " +
      std::to_string(5 + 2) + ") SELECT x FROM c";
  CHECK_FALSE(rt::evaluate(*testing::plan(longer).queries[0].plan, database(), {}, out, error));
  CHECK(error.rfind(rt::kQueryFails, 0) == 0);
  // The unrolled transitive closure has no SQLite form: its parser stops.
  std::string why;
  CHECK_FALSE(planToSqlite(*testing::plan(kQueries[0]).queries[0].plan, SqlFilters{}, &why));
  CHECK(why == "a plan nested deeper than SQLite's parser takes");
  // A cycle under UNION ALL never ends.
  CHECK_FALSE(rt::evaluate(*testing::plan("WITH RECURSIVE r(n) AS (SELECT 5 UNION ALL SELECT "
                                          "b.v FROM r JOIN b ON b.k = r.n) SELECT n FROM r")
                                .queries[0]
                                .plan,
                           database(), {}, out, error));
  using testing::refused;
  CHECK(refused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM r) SELECT n "
                "FROM r;")
            .find("reads r through aggregate") != std::string::npos);
  CHECK(refused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r1.n FROM r r1 JOIN r r2 ON "
                "r1.n = r2.n) SELECT n FROM r;")
            .find("reads r 2 times") != std::string::npos);
  CHECK(refused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT k FROM b) SELECT n FROM r;")
            .find("drop RECURSIVE") != std::string::npos);
  CHECK(refused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT b.k FROM b LEFT JOIN r ON "
                "r.n = b.k) SELECT n FROM r;")
            .find("through join (LEFT JOIN)") != std::string::npos);
  // Without UNION it is an ordinary WITH query.
  CHECK(testing::run("WITH RECURSIVE r(n) AS (SELECT k FROM b WHERE v = 3) SELECT n FROM r",
                     database())
            .rows.size() == 1);
}

}  // namespace rfguard
