// The reference evaluator's joins: the hash join against the nested loop, the
// in-place `column = column` condition against the general one, and the
// per-right-row flags on both sides of their stack buffer.
#include <doctest/doctest.h>

#include "eval_test_support.h"
#include "evaluation/evaluator.h"
#include "ir/join_type.h"

namespace rfguard {

using testing::run;

// Large joins look rows up by their `=` keys instead of trying every pair; the
// result must be the nested loop's. `a.k - b.k = 0` is the same condition in a
// form the hash join does not read (both sides in one operand): the loop.
TEST_CASE("the hash join gives the nested loop's result, for every join type") {
  rt::Database db;
  db["a"].columns = db["b"].columns = {"k", "v"};
  auto value = [](int64_t x, int64_t nullEvery) {
    return x % nullEvery == 0 ? rt::null() : rt::Value(x % 7);
  };
  for (int64_t i = 1; i <= 40; ++i) db["a"].rows.push_back({value(i, 5), rt::Value(i % 11)});
  for (int64_t i = 1; i <= 30; ++i) db["b"].rows.push_back({value(i * 3, 4), rt::Value(i % 13)});
  const std::string joins[] = {
      "JOIN",           "LEFT JOIN",      "RIGHT JOIN",      "FULL JOIN",
      "LEFT SEMI JOIN", "LEFT ANTI JOIN", "RIGHT SEMI JOIN", "RIGHT ANTI JOIN"};
  for (const auto& j : joins) {
    for (const char* extra : {"", " AND a.v < b.v", " AND a.v + 1 = b.v"}) {
      CAPTURE(j);
      CAPTURE(extra);
      const std::string cols =
          j.find("SEMI") != std::string::npos || j.find("ANTI") != std::string::npos
              ? (j.rfind("RIGHT", 0) == 0 ? "b.k, b.v" : "a.k, a.v")
              : "a.k, a.v, b.k, b.v";
      const auto hashed = run("SELECT " + cols + " FROM a " + j + " b ON a.k = b.k" + extra, db);
      const auto looped =
          run("SELECT " + cols + " FROM a " + j + " b ON a.k - b.k = 0" + extra, db);
      CHECK(rt::sortedBag(hashed.rows) == rt::sortedBag(looped.rows));
      CHECK(!hashed.rows.empty());
    }
  }
  // Pairs of equal non-NULL keys, counted by hand (a: 32 non-NULL of 40, b: 23 of 30).
  CHECK(run("SELECT * FROM a JOIN b ON a.k = b.k", db).rows.size() == 105);
}

// A join on `l.x = r.y` alone compares the two columns in place; the same
// condition in any other form goes through the expression evaluator.
TEST_CASE("a column = column join agrees with the general condition, NULLs and numbers") {
  rt::Database db;
  db["a"].columns = db["b"].columns = {"k", "v"};
  const std::vector<rt::Value> keys = {rt::Value(int64_t{1}), rt::Value(1.0),
                                       rt::Value(2.5),        rt::null(),
                                       rt::Value(int64_t{3}), rt::Value(int64_t{2})};
  for (size_t i = 0; i < keys.size(); ++i) {
    db["a"].rows.push_back({keys[i], rt::Value(static_cast<int64_t>(i))});
    db["b"].rows.push_back({keys[(i * 5 + 2) % keys.size()], rt::Value(static_cast<int64_t>(i))});
  }
  const std::string joins[] = {
      "JOIN",           "LEFT JOIN",      "RIGHT JOIN",      "FULL JOIN",
      "LEFT SEMI JOIN", "LEFT ANTI JOIN", "RIGHT SEMI JOIN", "RIGHT ANTI JOIN"};
  for (const auto& j : joins) {
    CAPTURE(j);
    const std::string cols =
        j.find("SEMI") != std::string::npos || j.find("ANTI") != std::string::npos
            ? (j.rfind("RIGHT", 0) == 0 ? "b.k, b.v" : "a.k, a.v")
            : "a.k, a.v, b.k, b.v";
    const std::string from = "SELECT " + cols + " FROM a " + j + " b ON ";
    const auto direct = rt::sortedBag(run(from + "a.k = b.k", db).rows);
    CHECK(direct == rt::sortedBag(run(from + "b.k = a.k", db).rows));
    CHECK(direct == rt::sortedBag(run(from + "a.k = b.k AND 1 = 1", db).rows));
  }
  // The NULL-aware anti joins (NOT IN) have no SQL spelling: the anti joins' plans, retyped.
  for (JoinType type : {JoinType::NullAwareLeftAnti, JoinType::NullAwareRightAnti}) {
    const bool right = type == JoinType::NullAwareRightAnti;
    auto bag = [&](const std::string& condition) {
      auto p =
          testing::plan(std::string("SELECT ") + (right ? "b.k, b.v" : "a.k, a.v") + " FROM a " +
                        (right ? "RIGHT" : "LEFT") + " ANTI JOIN b ON " + condition);
      PlanNode* join = p.queries[0].plan.get();
      while (join->op != PlanOp::Join) join = join->children[0].get();
      join->joinType = type;
      return rt::sortedBag(testing::runPlan(*p.queries[0].plan, db).rows);
    };
    const auto direct = bag("a.k = b.k");
    CHECK(direct == bag("b.k = a.k"));
    CHECK(direct == bag("a.k = b.k AND 1 = 1"));
    CHECK(direct.empty());  // the other side holds a NULL key: no row qualifies
  }
  // 1 = 1.0 matches; NULL matches nothing: (1, 1.0) x (1, 1.0) gives 4 pairs, 3 and 2 one each.
  CHECK(run("SELECT * FROM a JOIN b ON a.k = b.k", db).rows.size() == 7);
  // NOT IN: a NULL in b's keys makes every comparison unknown for unmatched a rows.
  CHECK(run("SELECT k FROM a WHERE k NOT IN (SELECT k FROM b)", db).rows.empty());
}

// A join remembers per right row whether it matched and whether a comparison was
// NULL: on the stack up to 64 right rows, on the heap beyond.
TEST_CASE("right rows' matches are kept on both sides of 64 right rows") {
  for (int64_t n : {63, 64, 65, 100}) {
    CAPTURE(n);
    rt::Database db;
    db["a"].columns = db["b"].columns = {"k", "v"};
    for (int64_t i = 1; i <= 10; ++i) db["a"].rows.push_back({rt::Value(i), rt::Value(i)});
    db["a"].rows.push_back({rt::Value(int64_t{500}), rt::Value(int64_t{0})});
    for (int64_t i = 1; i <= n; ++i) db["b"].rows.push_back({rt::Value(i), rt::Value(i)});
    auto rows = [&](const std::string& sql) { return run(sql, db).rows.size(); };
    // b.k = 1..n, a.k = 1..10 and 500: ten right rows match, one left row does not.
    CHECK(rows("SELECT * FROM a RIGHT JOIN b ON a.k = b.k") == static_cast<size_t>(n));
    CHECK(rows("SELECT * FROM a FULL JOIN b ON a.k = b.k") == static_cast<size_t>(n + 1));
    CHECK(rows("SELECT b.k FROM a RIGHT SEMI JOIN b ON a.k = b.k") == 10);
    CHECK(rows("SELECT b.k FROM a RIGHT ANTI JOIN b ON a.k = b.k") == static_cast<size_t>(n - 10));
    // The same through the loop (no `=` key to hash on).
    CHECK(rows("SELECT b.k FROM a RIGHT ANTI JOIN b ON a.k - b.k = 0") ==
          static_cast<size_t>(n - 10));
    CHECK(rows("SELECT k FROM a WHERE k NOT IN (SELECT k FROM b)") == 1);
    db["b"].rows.back()[0] = rt::null();  // a NULL in the list: NOT IN keeps nothing
    CHECK(rows("SELECT k FROM a WHERE k NOT IN (SELECT k FROM b)") == 0);
    CHECK(rows("SELECT * FROM a RIGHT JOIN b ON a.k = b.k") == static_cast<size_t>(n));
  }
}

}  // namespace rfguard
