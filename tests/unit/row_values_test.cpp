// Row values (grammar/bind_rows.cpp) against SQLite's own: the SQL, row values
// and all, run in SQLite, and rfguard's item-wise form of it evaluated, on a
// database whose NULLs decide between TRUE, FALSE and NULL.
#include <doctest/doctest.h>

#include "eval_test_support.h"
#include "verifier/sqlite_oracle.h"

namespace rfguard {

namespace {

using testing::intPair;

}  // namespace

TEST_CASE("row values: rfguard's comparisons of items and SQLite's row values agree") {
  rt::Database db;
  db["a"] = {{"k", "v"},
             {intPair(2, 2), intPair(1, std::nullopt), intPair(3, 3),
              intPair(std::nullopt, std::nullopt)}};
  db["b"] = {{"k", "v"}, {intPair(2, std::nullopt), intPair(1, 5)}};
  SqliteOracle oracle;
  std::string error;
  REQUIRE_MESSAGE(oracle.load(db, error), error);
  auto both = [&](const std::string& where) {
    const std::string sql = "SELECT k FROM a WHERE " + where;
    rt::Relation ours = testing::run(sql, db);  // tables a (k, v) and b (k, v)
    std::vector<rt::Row> theirs;
    REQUIRE_MESSAGE(oracle.query(sql, theirs, error), error);
    CHECK_MESSAGE(rt::sortedBag(ours.rows) == rt::sortedBag(theirs), where);
    return rt::sortedBag(ours.rows);
  };
  // (2, 2) and (1, NULL) may equal (2, NULL) and (1, 5): NULL; (3, 3) is FALSE.
  CHECK(both("(k, v) IN (SELECT k, v FROM b)").empty());
  CHECK(both("(k, v) NOT IN (SELECT k, v FROM b)") ==
        std::vector<rt::Row>{{rt::Value(int64_t{3})}});
  CHECK(both("((k, v) IN (SELECT k, v FROM b)) IS NULL").size() == 3);
  both("(k, v) = (2, 2)");
  both("(k, v) <> (1, 5)");
  both("((k, v) <> (1, 5)) IS NULL");
  both("(k, v) IN ((2, 2), (1, 5))");
  both("(k, v) IN (VALUES (2, 2), (1, 5))");
  both("NOT ((k, v) IN ((2, 2), (1, 5)))");
}

}  // namespace rfguard
