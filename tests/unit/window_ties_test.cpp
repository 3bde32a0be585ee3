// Window functions over peers (rows their ORDER BY ties): SQL leaves the peers'
// order open, so a function whose values depend on it (row_number, an aggregate
// over a ROWS frame) has an answer per order, and the evaluator lists them.
#include <doctest/doctest.h>

#include <set>

#include "eval_test_support.h"
#include "evaluation/evaluator.h"
#include "grammar/sql.h"
#include "verifier/bounded.h"

namespace rfguard {

namespace {

rt::Row row(int64_t k, int64_t v) {
  return {rt::Value(k), rt::Value(v)};
}

/// Every answer of `sql` on `db` (each a sorted bag), and whether that is all of them.
std::vector<std::vector<rt::Row>> answers(const std::string& sql, const rt::Database& db,
                                          bool* complete = nullptr) {
  auto p = testing::plan(sql);
  std::vector<rt::Relation> out;
  std::string error;
  bool all = false;
  REQUIRE_MESSAGE(rt::evaluateAll(*p.queries[0].plan, db, {}, out, error, 256, &all), error);
  if (complete) *complete = all;
  std::vector<std::vector<rt::Row>> bags;
  for (auto& r : out) bags.push_back(rt::sortedBag(r.rows));
  return bags;
}

rt::Row numbered(int64_t k, int64_t v, int64_t n) {
  return {rt::Value(k), rt::Value(v), rt::Value(n)};
}

}  // namespace

TEST_CASE("row_number over peers: each distinct order of the peers is an answer") {
  const std::string q = "SELECT k, v, row_number() OVER (ORDER BY k) FROM a";
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 20), row(2, 30), row(1, 10)}};
  bool complete = false;
  auto all = answers(q, db, &complete);
  CHECK(complete);
  // (1, 10) and (1, 20) tie: numbered 1 and 2 either way round; (2, 30) is 3.
  CHECK(all == std::vector<std::vector<rt::Row>>{
                   {numbered(1, 10, 1), numbered(1, 20, 2), numbered(2, 30, 3)},
                   {numbered(1, 10, 2), numbered(1, 20, 1), numbered(2, 30, 3)}});
  // Copies of one row are one row: no choice.
  db["a"] = {{"k", "v"}, {row(1, 10), row(1, 10), row(2, 30)}};
  CHECK(answers(q, db).size() == 1);
  // Three distinct peers: 3! orders; two copies and one other row: 3.
  db["a"] = {{"k", "v"}, {row(1, 10), row(1, 20), row(1, 30)}};
  CHECK(answers(q, db).size() == 6);
  db["a"] = {{"k", "v"}, {row(1, 10), row(1, 10), row(1, 30)}};
  CHECK(answers(q, db).size() == 3);
  // Per partition: two partitions of two distinct peers each, 2 * 2 answers.
  db["a"] = {{"k", "v"}, {row(1, 10), row(1, 20), row(2, 10), row(2, 20)}};
  CHECK(answers("SELECT k, v, row_number() OVER (PARTITION BY k) FROM a", db).size() == 4);
}

TEST_CASE("more orders than a tie cut offers: the list says it is not every answer") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 1), row(1, 2), row(1, 3), row(1, 4), row(1, 5)}};
  bool complete = true;
  auto all = answers("SELECT k, v, row_number() OVER (ORDER BY k) FROM a", db, &complete);
  CHECK_FALSE(complete);  // 5! = 120 orders, 64 listed
  CHECK(all.size() == rt::kTieAlternatives);
  CHECK(std::set<std::vector<rt::Row>>(all.begin(), all.end()).size() == all.size());
}

TEST_CASE("rank, dense_rank and RANGE frames give peers one value: one answer") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 20), row(2, 30), row(1, 10)}};
  for (const char* q : {"SELECT k, v, rank() OVER (ORDER BY k) FROM a",
                        "SELECT k, v, dense_rank() OVER (ORDER BY k) FROM a",
                        "SELECT k, v, sum(v) OVER (ORDER BY k) FROM a",
                        "SELECT k, v, sum(v) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND "
                        "UNBOUNDED FOLLOWING) FROM a"}) {
    CAPTURE(q);
    CHECK(answers(q, db).size() == 1);
  }
}

TEST_CASE("a ROWS frame over peers depends on their order") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 20), row(2, 30), row(1, 10)}};
  // The running sum: the first of the peers has its own v, the second 30.
  auto all = answers(
      "SELECT k, v, sum(v) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) "
      "FROM a",
      db);
  CHECK(all == std::vector<std::vector<rt::Row>>{
                   {numbered(1, 10, 10), numbered(1, 20, 30), numbered(2, 30, 60)},
                   {numbered(1, 10, 30), numbered(1, 20, 20), numbered(2, 30, 60)}});
}

TEST_CASE("an answer outside an incomplete list is undecided, not a difference") {
  // Nine peers (a cross join of three rows) have 9! orders, 64 listed: the
  // rewritten plan's order (every tie-breaker descending) is not among them.
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(
      loadSql("CREATE TABLE t1 (a int, b int);"
              "SELECT x.a, y.b, row_number() OVER (ORDER BY x.a) AS rn FROM t1 x, t1 y;"
              "SELECT x.a, y.b, row_number() OVER (ORDER BY x.a, x.b DESC, y.a DESC, y.b DESC) "
              "AS rn FROM t1 x, t1 y;",
              "q.sql", c, qs, d),
      d.render());
  rt::Database db;
  db["t1"] = {{"a", "b"}, {row(1, 1), row(1, 1), row(1, 2)}};
  BoundedOptions o;
  o.bound = 3;
  const BoundedVerdict v = checkOneDatabase(*qs[0].plan, *qs[1].plan, db, o);
  CHECK_FALSE(v.counterexample);
  CHECK(v.undecided ==
        "on t1={(1, 1) (1, 1) (1, 2)} ties allow the original more answers than were listed (64 "
        "per tie, 256 in all)");
  // The other way round the original's list is complete (one order of its
  // peers) and holds the rewritten plan's answers: no difference, decided.
  const BoundedVerdict back = checkOneDatabase(*qs[1].plan, *qs[0].plan, db, o);
  CHECK(back.undecided.empty());
}

}  // namespace rfguard
