// The reference evaluator: LIMIT with ties (any valid top-k is an answer) and bag set
// operations, against SQLite.
#include <doctest/doctest.h>

#include "evaluation/eval_internal.h"
#include "evaluation/evaluator.h"
#include "execution/filters.h"
#include "rf_test_support.h"
#include "verifier/plan_sql.h"
#include "verifier/sqlite_oracle.h"

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

TEST_CASE("a LIMIT below the root that cuts a tie: every answer it may give") {
  auto p = testing::plan("SELECT x.k, x.v FROM (SELECT * FROM a ORDER BY k LIMIT 2) x");
  auto all = [&](const rt::Database& db) {
    std::vector<rt::Relation> out;
    std::string error;
    REQUIRE_MESSAGE(rt::evaluateAll(*p.queries[0].plan, db, {}, out, error), error);
    std::vector<std::vector<rt::Row>> bags;
    for (auto& r : out) bags.push_back(rt::sortedBag(r.rows));
    return bags;
  };
  rt::Database db;
  // (1, 10) first, then one of the three rows with k = 2: three answers.
  db["a"] = {{"k", "v"}, {row(2, 30), row(1, 10), row(2, 20), row(2, 40)}};
  auto answers = all(db);
  CHECK(answers == std::vector<std::vector<rt::Row>>{{row(1, 10), row(2, 20)},
                                                     {row(1, 10), row(2, 30)},
                                                     {row(1, 10), row(2, 40)}});
  // Copies are one row: {(2, 20), (2, 20), (2, 30)} offers two answers, not three.
  db["a"] = {{"k", "v"}, {row(2, 20), row(2, 30), row(2, 20), row(3, 0)}};
  answers = all(db);
  CHECK(answers ==
        std::vector<std::vector<rt::Row>>{{row(2, 20), row(2, 20)}, {row(2, 20), row(2, 30)}});
  // No tie at the cut: one answer.
  db["a"] = {{"k", "v"}, {row(1, 10), row(2, 20), row(3, 30)}};
  CHECK(all(db).size() == 1);
}

TEST_CASE("a LIMIT below the root is not the answer: no TopK") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 10)}};
  rt::Relation r = run("SELECT x.k + 1 FROM (SELECT * FROM a ORDER BY k LIMIT 1) x", db);
  CHECK_FALSE(r.topK);
  REQUIRE(r.rows.size() == 1);
  CHECK(rt::compare(r.rows[0][0], rt::Value(int64_t{2})) == 0);
}

}  // namespace rfguard

namespace rfguard {

namespace {

/// The query's rows from the evaluator and from SQLite (through plan_sql), sorted.
std::pair<std::vector<rt::Row>, std::vector<rt::Row>> bothWays(const std::string& sql,
                                                               const rt::Database& db) {
  auto p = testing::plan(sql);
  rt::Relation ours;
  std::string error;
  REQUIRE_MESSAGE(rt::evaluate(*p.queries[0].plan, db, {}, ours, error), error);
  std::string why;
  auto text = planToSqlite(*p.queries[0].plan, {}, &why);
  REQUIRE_MESSAGE(text, why);
  SqliteOracle oracle;
  std::vector<rt::Row> theirs;
  REQUIRE_MESSAGE(oracle.load(db, error), error);
  REQUIRE_MESSAGE(oracle.query(*text, theirs, error), error);
  return {rt::sortedBag(ours.rows), rt::sortedBag(theirs)};
}

rt::Row key(int64_t k) {
  return {rt::Value(k)};
}

rt::Relation evaluateSql(const std::string& sql, const rt::Database& db, std::string& sqliteSql) {
  Catalog catalog;
  Diagnostics diags;
  std::vector<Query> qs;
  REQUIRE_MESSAGE(loadSql(sql, "t.sql", catalog, qs, diags), diags.render());
  rt::Relation out;
  std::string error;
  REQUIRE_MESSAGE(rt::evaluate(*qs[0].plan, db, {}, out, error), error);
  std::string why;
  auto text = planToSqlite(*qs[0].plan, {}, &why);
  REQUIRE_MESSAGE(text, why);
  sqliteSql = *text;
  return out;
}

}  // namespace

TEST_CASE("INTERSECT ALL and EXCEPT ALL: the evaluator and SQLite count copies alike") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 1), row(1, 2), row(1, 3), row(2, 1), row(4, 0)}};
  db["b"] = {{"k", "v"}, {row(1, 9), row(1, 8), row(3, 0), row(4, 1), row(4, 2)}};
  db["c"] = {{"k", "v"}, {row(1, 7)}};
  auto [ours, theirs] = bothWays("SELECT k FROM a INTERSECT ALL SELECT k FROM b", db);
  CHECK(ours == std::vector<rt::Row>{key(1), key(1), key(4)});
  CHECK(theirs == ours);
  std::tie(ours, theirs) = bothWays("SELECT k FROM a EXCEPT ALL SELECT k FROM b", db);
  CHECK(ours == std::vector<rt::Row>{key(1), key(2)});
  CHECK(theirs == ours);
  // Left to right: (a EXCEPT ALL b) EXCEPT ALL c takes one more copy of 1 away.
  std::tie(ours, theirs) =
      bothWays("SELECT k FROM a EXCEPT ALL SELECT k FROM b EXCEPT ALL SELECT k FROM c", db);
  CHECK(ours == std::vector<rt::Row>{key(2)});
  CHECK(theirs == ours);
}

TEST_CASE("month arithmetic clamps to the month's end, in the evaluator and in SQLite") {
  auto day = [](int y, int m, int d) { return rt::Value(rt::daysFromCivil(y, m, d)); };
  rt::Database db;
  db["t"] = {{"d"}, {{day(2024, 1, 31)}, {day(2024, 3, 31)}, {day(2023, 11, 30)}, {rt::null()}}};
  std::string sql;
  rt::Relation ours = evaluateSql(
      "CREATE TABLE t (d date);"
      "SELECT d + INTERVAL '1' month, d - INTERVAL '1' month, d + INTERVAL '1' year,"
      " d + INTERVAL '2' quarter, d - INTERVAL '2' week FROM t",
      db, sql);
  SqliteOracle oracle;
  std::string error;
  std::vector<rt::Row> theirs;
  REQUIRE_MESSAGE(oracle.load(db, error), error);
  REQUIRE_MESSAGE(oracle.query(sql, theirs, error), error);
  CHECK(rt::sortedBag(theirs) == rt::sortedBag(ours.rows));
  // 31 January + 1 month is 29 February 2024 (a leap year), not 2 March.
  REQUIRE(ours.rows.size() == 4);
  CHECK(ours.rows[0] == rt::Row{day(2024, 2, 29), day(2023, 12, 31), day(2025, 1, 31),
                                day(2024, 7, 31), day(2024, 1, 17)});
  CHECK(ours.rows[1] == rt::Row{day(2024, 4, 30), day(2024, 2, 29), day(2025, 3, 31),
                                day(2024, 9, 30), day(2024, 3, 17)});
  CHECK(rt::isNull(ours.rows[3][0]));
}

}  // namespace rfguard

namespace rfguard {

namespace {

/// Rows the filters removed at the scans of `sql` on `db` with the given content.
uint64_t droppedWith(const std::string& sql, const rt::Database& db, rt::Content content) {
  auto p = testing::plan(sql);
  rt::EvalOptions o;
  o.applyFilters = true;
  o.content = content;
  o.extras = {rt::Value(int64_t{2}), rt::Value(std::string("x"))};
  rt::Relation out;
  std::string error;
  REQUIRE_MESSAGE(rt::evaluate(*p.queries[0].plan, db, o, out, error), error);
  return out.dropped;
}

}  // namespace

TEST_CASE("the evaluator applies the runtime's own filters: IN, IN plus a false positive, MinMax") {
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 0), row(2, 0), row(3, 0), row(7, 0)}};
  db["c"] = {{"k", "v"}, {row(1, 0), row(3, 0)}};
  const std::string q = "SELECT a.v FROM a JOIN c ON a.k = c.k";
  // IN {1, 3} drops 2 and 7; with the false positive 2 only 7; MinMax [1, 3] only 7.
  CHECK(droppedWith(q, db, rt::Content::Exact) == 2);
  CHECK(droppedWith(q, db, rt::Content::FalsePositive) == 1);
  CHECK(droppedWith(q, db, rt::Content::MinMax) == 1);
  // On DOUBLE keys the runtime builds no range (NaN, -0.0): MinMax content is TOP.
  rt::Database dd;
  dd["d"] = {{"x"}, {{rt::Value(0.5)}, {rt::Value(9.5)}}};
  dd["e"] = {{"x"}, {{rt::Value(0.5)}}};
  const std::string qd =
      "SELECT 1 FROM d JOIN (SELECT d2.x FROM d AS d2 WHERE d2.x < 1) e ON d.x = e.x";
  CHECK(droppedWith(qd, dd, rt::Content::Exact) == 1);
  CHECK(droppedWith(qd, dd, rt::Content::MinMax) == 0);
  CHECK(rt::runtimeKind(FilterKind::Bitset) == rt::Kind::In);
  CHECK(rt::runtimeKind(FilterKind::MinMax) == rt::Kind::MinMax);
}

}  // namespace rfguard

TEST_CASE("casts to dates: text becomes a day number, invalid text an error, not a crash") {
  using namespace rfguard::rt;
  using rfguard::Type;
  using rfguard::TypeKind;
  std::string error;
  auto d = castTo(Value(std::string("1999-02-22")), Type::of(TypeKind::Date), &error);
  REQUIRE(d);
  CHECK(std::get<int64_t>(*d) == daysFromCivil(1999, 2, 22));
  d = castTo(Value(std::string("2000-01-01 12:30:00")), Type::of(TypeKind::Date), &error);
  REQUIRE(d);
  CHECK(std::get<int64_t>(*d) == daysFromCivil(2000, 1, 1));
  CHECK_FALSE(castTo(Value(std::string("1999-02-30")), Type::of(TypeKind::Date), &error));
  CHECK(error == "cannot cast '1999-02-30' to date");
  CHECK_FALSE(castTo(Value(std::string("soon")), Type::of(TypeKind::Date), &error));
  auto ts = castTo(Value(daysFromCivil(2000, 1, 1)), Type::of(TypeKind::Timestamp), &error);
  REQUIRE(ts);
  CHECK(std::get<std::string>(*ts) == "2000-01-01 00:00:00");
  // A date moved by days from a value that is no date is an error.
  CHECK_FALSE(applyFunction("+", {Value(std::string("1999-02-22")), Value(std::string("30 day"))},
                            Type::of(TypeKind::Date), &error));
  CHECK(error == "date arithmetic on a non-date");
}

namespace rfguard {

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
      rt::Relation out;
      std::string error;
      REQUIRE_MESSAGE(rt::evaluate(*p.queries[0].plan, db, {}, out, error), error);
      return rt::sortedBag(out.rows);
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

// A projection of the child's columns in their order passes its rows on as they
// are; any other projection computes each row.
TEST_CASE("projections: the child's columns in order, permuted, repeated") {
  rt::Database db;
  db["a"].columns = {"k", "v"};
  db["a"].rows = {{rt::Value(int64_t{1}), rt::Value(std::string("x"))},
                  {rt::null(), rt::Value(int64_t{7})}};
  using Rows = std::vector<rt::Row>;
  CHECK(run("SELECT * FROM a", db).rows == db["a"].rows);
  CHECK(run("SELECT k, v FROM a", db).rows == db["a"].rows);
  CHECK(rt::sortedBag(run("SELECT v, k FROM a", db).rows) ==
        rt::sortedBag(Rows{{rt::Value(std::string("x")), rt::Value(int64_t{1})},
                           {rt::Value(int64_t{7}), rt::null()}}));
  CHECK(rt::sortedBag(run("SELECT k, k FROM a", db).rows) ==
        rt::sortedBag(
            Rows{{rt::Value(int64_t{1}), rt::Value(int64_t{1})}, {rt::null(), rt::null()}}));
  CHECK(run("SELECT k FROM a", db).rows.front().size() == 1);
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

TEST_CASE("the evaluator's (pointer, pointer) table keeps every entry as it grows") {
  rfguard::rt::PointerPairMap m;
  std::vector<int> exprs(300), indexes(4);
  bool fresh = false;
  for (size_t i = 0; i < exprs.size(); ++i)
    for (size_t j = 0; j < indexes.size(); ++j) {
      m.at(&exprs[i], &indexes[j], fresh) = i * 10 + j;
      CHECK(fresh);
    }
  m.at(&exprs[0], nullptr, fresh) = 7;  // another key: the pointer pair differs
  CHECK(fresh);
  for (size_t i = 0; i < exprs.size(); ++i)
    for (size_t j = 0; j < indexes.size(); ++j) {
      CHECK(m.at(&exprs[i], &indexes[j], fresh) == i * 10 + j);
      CHECK_FALSE(fresh);
    }
  CHECK(m.at(&exprs[0], nullptr, fresh) == 7);
}
