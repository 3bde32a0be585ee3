// Shrinking a `duckdb diff` difference: the row ranges, the query
// simplifications, the greedy searches (against stated predicates, so that the
// result is known), and the SQL that cuts a table down, run in DuckDB.
#include <doctest/doctest.h>

#include <regex>
#include <set>

#include "testgen/join_queries.h"
#include "testgen/shrink.h"
#ifdef RFGUARD_HAVE_DUCKDB
#include "engines/engine.h"
#endif

using namespace rfguard;

namespace {

/// Every alias the SQL reads (rN.) is one of its relations (AS rN).
bool aliasesResolve(const std::string& sql) {
  std::set<std::string> defined, read;
  static const std::regex def(R"(AS (r\d+))"), use(R"((r\d+)\.)");
  for (std::sregex_iterator it(sql.begin(), sql.end(), def), end; it != end; ++it)
    defined.insert((*it)[1]);
  for (std::sregex_iterator it(sql.begin(), sql.end(), use), end; it != end; ++it)
    read.insert((*it)[1]);
  for (const auto& r : read)
    if (!defined.count(r)) return false;
  return true;
}

}  // namespace

TEST_CASE("duckdb shrink: kept row ranges") {
  KeptRows k = KeptRows::all(10);
  CHECK(k.count() == 10);
  CHECK(k.condition("i") == "true");
  KeptRows a = k.without(2, 5);
  CHECK(a.count() == 7);
  CHECK(a.condition("i") == "(i >= 0 AND i < 2) OR (i >= 5 AND i < 10)");
  // Positions count kept rows only: positions 1 and 2 are rows 1 and 5.
  KeptRows b = a.without(1, 3);
  CHECK(b.count() == 5);
  CHECK(b.condition("rowid") == "rowid = 0 OR (rowid >= 6 AND rowid < 10)");
  CHECK(b.without(0, 5).condition("i") == "false");
  CHECK(KeptRows::all(0).condition("i") == "false");
  CHECK(keepRowsSql(3, b) ==
        "CREATE OR REPLACE TABLE t3 AS SELECT k, v FROM t3_all WHERE i = 0 OR (i >= 6 AND i < "
        "10) ORDER BY i");
  CHECK(deleteOtherRowsSql(3, b) ==
        "DELETE FROM t3 WHERE NOT (rowid = 0 OR (rowid >= 6 AND rowid < 10))");
}

TEST_CASE("duckdb shrink: rows down to the two that matter") {
  auto has = [](const KeptRows& k, long long row) {
    for (const auto& [lo, hi] : k.ranges)
      if (lo <= row && row < hi) return true;
    return false;
  };
  int tests = 0;
  auto needs = [&](const KeptRows& k) {
    ++tests;
    return has(k, 37) && has(k, 90);
  };
  int budget = 1000;
  KeptRows kept = shrinkRows(KeptRows::all(100), needs, budget);
  CHECK(kept.count() == 2);
  CHECK(kept.condition("i") == "i = 37 OR i = 90");
  CHECK(tests == 1000 - budget);
  CHECK(tests < 60);
  // A budget stops the search where it is, with a set that still reproduces.
  int small = 5;
  KeptRows partial = shrinkRows(KeptRows::all(100), needs, small);
  CHECK(small == 0);
  CHECK(needs(partial));
  CHECK(partial.count() > 2);
  // A smallest chunk stops the search at that size: with 7, chunks of 50, 25
  // and 12 rows are tried, not 6, and each needed row keeps the 12 around it.
  int coarse = 1000;
  KeptRows chunks = shrinkRows(KeptRows::all(100), needs, coarse, 7);
  CHECK(chunks.condition("i") == "(i >= 37 AND i < 49) OR (i >= 86 AND i < 98)");
  // Then on from there to single rows: the same two.
  CHECK(shrinkRows(chunks, needs, coarse).condition("i") == "i = 37 OR i = 90");
}

TEST_CASE("duckdb shrink: the simplest query that still shows it") {
  DiffQuery q;
  q.first.shape = DiffRelation::OffsetSmallest;
  q.first.offset = 20;
  DiffJoin left;
  left.type = 1;  // LEFT JOIN
  left.right.alias = left.right.table = 1;
  left.leftKey = DiffKey::Coalesce;
  left.op = 1;
  left.sameV = true;
  DiffJoin inner;
  inner.left = 1;
  inner.right.alias = inner.right.table = 2;
  inner.right.shape = DiffRelation::Limit;
  inner.right.limit = 9;
  q.joins = {left, inner};
  q.where = DiffQuery::NotIn;
  q.whereTable = 4;
  q.topN = 7;
  CHECK(diffQuerySql(q) ==
        "SELECT count(*) AS n, sum(hash(q)) AS h FROM (SELECT * FROM (SELECT * FROM (SELECT k, v "
        "FROM t0 ORDER BY v NULLS FIRST, k NULLS FIRST, rowid OFFSET 20) AS r0 LEFT JOIN t1 AS r1 "
        "ON coalesce(r0.k, 0) IS NOT DISTINCT FROM r1.k AND r0.v = r1.v JOIN (SELECT k, v FROM t2 "
        "ORDER BY v NULLS FIRST, k NULLS FIRST, rowid LIMIT 9) AS r2 ON r1.k = r2.k WHERE r0.k NOT "
        "IN (SELECT k FROM t4)) s ORDER BY ALL NULLS FIRST LIMIT 7) q");
  CHECK(diffQueryTables(q) == std::vector<int>{0, 1, 2, 4});
  // r2's join reads r1: r1's join cannot go before it.
  for (const auto& s : diffQuerySimplifications(q)) CHECK(aliasesResolve(diffQuerySql(s)));
  int budget = 500;
  auto offsetUnderLeftJoin = [](const DiffQuery& c) {
    const std::string sql = diffQuerySql(c);
    return sql.find("OFFSET") != std::string::npos && sql.find("LEFT JOIN") != std::string::npos;
  };
  DiffQuery small = shrinkDiffQuery(q, offsetUnderLeftJoin, budget);
  CHECK(diffQuerySql(small) ==
        "SELECT count(*) AS n, sum(hash(q)) AS h FROM (SELECT * FROM (SELECT k, v FROM t0 ORDER BY "
        "v NULLS FIRST, k NULLS FIRST, rowid OFFSET 0) AS r0 LEFT JOIN t1 AS r1 ON r0.k = r1.k) q");
  CHECK(budget > 0);
}

TEST_CASE("duckdb shrink: random queries simplify to valid queries, down to one table") {
  std::mt19937_64 rng(42);
  for (int n = 0; n < 300; ++n) {
    const DiffQuery q = randomDiffQuery(rng, 2 + n % 4);
    const std::string sql = diffQuerySql(q);
    REQUIRE(aliasesResolve(sql));
    for (const auto& s : diffQuerySimplifications(q)) {
      CHECK(diffQuerySql(s) != sql);
      CHECK(aliasesResolve(diffQuerySql(s)));
    }
    int budget = 10000;
    DiffQuery least = shrinkDiffQuery(
        q, [](const DiffQuery&) { return true; }, budget);
    CHECK(diffQuerySql(least) ==
          "SELECT count(*) AS n, sum(hash(q)) AS h FROM (SELECT * FROM t0 AS r0) q");
  }
}

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("duckdb shrink: the reproducer's DELETE keeps the rows the shrinking kept") {
  std::string error;
  auto e = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE_MESSAGE(e, error);
  REQUIRE(
      e->execute("CREATE TABLE t2 AS SELECT (i * 7 % 11)::INTEGER AS k, i::INTEGER AS v "
                 "FROM range(40) r(i);"
                 "CREATE TABLE t2_all AS SELECT rowid AS i, k, v FROM t2;",
                 nullptr, error));
  KeptRows kept = KeptRows::all(40).without(30, 40).without(3, 20).without(0, 1);
  REQUIRE(kept.count() == 12);
  auto rows = [&](const std::string& sql) {
    engine::Result r;
    REQUIRE_MESSAGE(e->execute(sql, &r, error), error);
    std::vector<std::string> out;
    for (const auto& row : r.rows) out.push_back(*row[0] + "," + *row[1]);
    return out;
  };
  REQUIRE_MESSAGE(e->execute(keepRowsSql(2, kept), nullptr, error), error);
  const auto shrunk = rows("SELECT k, v FROM t2 ORDER BY rowid");
  CHECK(shrunk.size() == 12);
  CHECK(shrunk.front() == "7,1");  // row 0 went, rows 1 and 2 stay
  REQUIRE(e->execute("CREATE OR REPLACE TABLE t2 AS SELECT k, v FROM t2_all ORDER BY i", nullptr,
                     error));
  REQUIRE_MESSAGE(e->execute(deleteOtherRowsSql(2, kept), nullptr, error), error);
  CHECK(rows("SELECT k, v FROM t2 ORDER BY rowid") == shrunk);
}
#endif
