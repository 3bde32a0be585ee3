// The reference evaluator: LIMIT with ties (any valid top-k is an answer) and bag set
// operations, against SQLite.
#include <doctest/doctest.h>

#include "eval_test_support.h"
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

using testing::run;

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

TEST_CASE("filter keys compare as values do: an integer and a double past 2^53") {
  // compare() holds 10^16 + 1 (an integer) equal to 1e16 (a double): the integer
  // rounds to it. The filter built from one side must keep the other's row, or a
  // sound placement is "refuted" by a difference no engine shows.
  const std::string ddl = "CREATE TABLE big (x bigint); CREATE TABLE dbl (y double);";
  const rt::Value bigInt(int64_t{10000000000000001});
  const rt::Value bigDouble(1e16);
  rt::Database db;
  db["big"] = {{"x"}, {{bigInt}}};
  db["dbl"] = {{"y"}, {{bigDouble}}};
  for (const char* q : {"SELECT 1 FROM dbl JOIN big ON dbl.y = big.x",
                        "SELECT 1 FROM big JOIN dbl ON big.x = dbl.y"}) {
    CAPTURE(q);
    CHECK(testing::run(ddl + q, db).rows.size() == 1);
    CHECK(droppedWith(ddl + q, db, rt::Content::Exact) == 0);
    CHECK(droppedWith(ddl + q, db, rt::Content::FalsePositive) == 0);
    CHECK(droppedWith(ddl + q, db, rt::Content::MinMax) == 0);
  }
  // Below 2^53 the look-up stays exact: 2^53 - 1 is not 2^53 - 2.
  db["big"] = {{"x"}, {{rt::Value(int64_t{9007199254740991})}}};
  db["dbl"] = {{"y"}, {{rt::Value(9007199254740990.0)}}};
  CHECK(droppedWith(ddl + "SELECT 1 FROM dbl JOIN big ON dbl.y = big.x", db, rt::Content::Exact) ==
        1);
  // The hash join's buckets: values compare() holds equal share one.
  CHECK(rt::bucketKey(bigInt) == rt::bucketKey(bigDouble));
  CHECK(rt::bucketKey(rt::Value(int64_t{3})) == rt::bucketKey(rt::Value(3.0)));
  CHECK(rt::bucketKey(rt::Value(int64_t{3})) != rt::bucketKey(rt::Value(int64_t{4})));
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

TEST_CASE("any_value and single_value: a value where it is determined, else no result") {
  auto fails = [](const std::string& sql, const rt::Database& db) {
    rt::Relation out;
    std::string error;
    CHECK_FALSE(rt::evaluate(*testing::plan(sql).queries[0].plan, db, {}, out, error));
    CHECK(error.rfind(rt::kQueryFails, 0) == 0);
    return error;
  };
  rt::Database db;
  db["a"] = {{"k", "v"}, {row(1, 10), row(1, 10), row(2, 20)}};
  rt::Relation r = run("SELECT k, any_value(v) FROM a GROUP BY k", db);
  CHECK(rt::sortedBag(r.rows) == std::vector<rt::Row>{row(1, 10), row(2, 20)});
  r = run("SELECT k, single_value(v) FROM a WHERE k = 2 GROUP BY k", db);
  CHECK(r.rows == std::vector<rt::Row>{row(2, 20)});
  // Over no rows single_value is NULL, as a scalar subquery of none.
  r = run("SELECT single_value(v) FROM a WHERE k = 3", db);
  REQUIRE(r.rows.size() == 1);
  CHECK(rt::isNull(r.rows[0][0]));
  // Two rows: engines raise an error, even of one value.
  CHECK(fails("SELECT k, single_value(v) FROM a GROUP BY k", db).find("group of 2 rows") !=
        std::string::npos);
  // Different values, or NULL and a value: each engine picks its own.
  db["a"].rows.push_back(row(2, 21));
  CHECK(fails("SELECT k, any_value(v) FROM a GROUP BY k", db).find("any_value()") !=
        std::string::npos);
  db["a"].rows.back() = {rt::Value(int64_t{2}), rt::null()};
  fails("SELECT k, any_value(v) FROM a GROUP BY k", db);
}

}  // namespace rfguard
