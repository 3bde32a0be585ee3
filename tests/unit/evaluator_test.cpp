// The reference evaluator's LIMIT with ties: any valid top-k is an answer.
#include <doctest/doctest.h>

#include "rf_test_support.h"
#include "runtime/evaluator.h"

namespace rfguard {

namespace {

rt::Row row(int64_t k, int64_t v) {
  return {rt::Value(k), rt::Value(v)};
}

rt::Relation run(const std::string& sql, const rt::Database& db) {
  auto p = testing::plan(sql);
  rt::Relation out;
  std::string error;
  REQUIRE_MESSAGE(rt::evaluate(*p.queries[0].plan, db, {}, out, error), error);
  return out;
}

}  // namespace

TEST_CASE("a root LIMIT reports its ties, and any valid top-k is accepted") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(2, 30), row(1, 20), row(1, 10), row(3, 40)}};
  rt::Relation r = run("SELECT * FROM a ORDER BY k LIMIT 2", db);
  REQUIRE(r.topK);
  // Ordered by k: (1, 10) and (1, 20) tie, then (2, 30), (3, 40).
  CHECK(r.topK->group == std::vector<size_t>{0, 0, 2, 3});
  CHECK(r.topK->from == 0);
  CHECK(r.topK->to == 2);
  CHECK(rt::validTopK(*r.topK, {row(1, 20), row(1, 10)}));
  CHECK_FALSE(rt::validTopK(*r.topK, {row(1, 10), row(2, 30)}));

  // LIMIT 1 cuts through the tie: either tied row is an answer, nothing else is.
  r = run("SELECT * FROM a ORDER BY k LIMIT 1", db);
  REQUIRE(r.topK);
  CHECK(r.rows.size() == 1);
  CHECK(rt::validTopK(*r.topK, {row(1, 10)}));
  CHECK(rt::validTopK(*r.topK, {row(1, 20)}));
  CHECK_FALSE(rt::validTopK(*r.topK, {row(2, 30)}));
  CHECK_FALSE(rt::validTopK(*r.topK, {row(1, 10), row(1, 20)}));
  CHECK_FALSE(rt::validTopK(*r.topK, {}));

  // OFFSET 1 LIMIT 1 takes the second tied row: again either of them.
  r = run("SELECT * FROM a ORDER BY k LIMIT 1 OFFSET 1", db);
  REQUIRE(r.topK);
  CHECK(rt::validTopK(*r.topK, {row(1, 10)}));
  CHECK(rt::validTopK(*r.topK, {row(1, 20)}));
  CHECK_FALSE(rt::validTopK(*r.topK, {row(2, 30)}));
}

TEST_CASE("LIMIT without ORDER BY: any rows of the input, as many as the limit") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(2, 30), row(1, 20), row(2, 30)}};
  rt::Relation r = run("SELECT * FROM a LIMIT 2", db);
  REQUIRE(r.topK);
  CHECK(rt::validTopK(*r.topK, {row(2, 30), row(2, 30)}));
  CHECK(rt::validTopK(*r.topK, {row(1, 20), row(2, 30)}));
  CHECK_FALSE(rt::validTopK(*r.topK, {row(1, 20), row(1, 20)}));  // only one (1, 20)
  CHECK_FALSE(rt::validTopK(*r.topK, {row(2, 30)}));
}

TEST_CASE("a LIMIT below the root reports nothing: its result is compared as a bag") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 10)}};
  rt::Relation r = run("SELECT x.k + 1 FROM (SELECT * FROM a ORDER BY k LIMIT 1) x", db);
  CHECK_FALSE(r.topK);
  REQUIRE(r.rows.size() == 1);
  CHECK(rt::compare(r.rows[0][0], rt::Value(int64_t{2})) == 0);
}

}  // namespace rfguard
