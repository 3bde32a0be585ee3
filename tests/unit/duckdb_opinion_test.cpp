// rfguard's evaluator as the third opinion of `duckdb diff`: the random
// queries written in rfguard's SQL bind, and on DuckDB's own rows read back
// rfguard's evaluator gives DuckDB's results, as bound, normalised and with
// its own runtime filters; a result that is not DuckDB's is caught.
#include <doctest/doctest.h>

#include "pipeline/session.h"
#include "testgen/join_queries.h"
#include "testgen/opinion.h"
#ifdef RFGUARD_HAVE_DUCKDB
#include "engines/duckdb/schema_sql.h"
#endif

using namespace rfguard;

namespace {

DiffQuery exampleQuery() {
  DiffQuery q;
  q.first.shape = DiffRelation::OffsetJoined;
  q.first.table = 2;
  q.first.other = 3;
  q.first.offset = 4;
  DiffJoin semi;
  semi.type = 4;  // SEMI JOIN
  semi.right.alias = semi.right.table = 1;
  semi.op = 1;  // IS NOT DISTINCT FROM
  DiffJoin left;
  left.type = 1;  // LEFT JOIN
  left.right.alias = 2;
  left.right.table = 5;
  left.rightKey = DiffKey::Coalesce;
  q.joins = {semi, left};
  q.topN = 3;
  return q;
}

/// r0 over t0 joined to r1 over t1 on r0.k = r1.k.
DiffQuery innerJoin() {
  DiffQuery q;
  DiffJoin inner;
  inner.right.alias = inner.right.table = 1;
  q.joins = {inner};
  return q;
}

}  // namespace

TEST_CASE("duckdb opinion: a query in both dialects") {
  const DiffQuery q = exampleQuery();
  CHECK(diffQueryRowsSql(q, DiffDialect::DuckDb) ==
        "SELECT * FROM (SELECT * FROM (SELECT x.k, x.v FROM t2 x JOIN t3 y ON x.k = y.k ORDER BY "
        "x.v NULLS FIRST, x.k NULLS FIRST, x.rowid OFFSET 4) AS r0 SEMI JOIN t1 AS r1 ON r0.k IS "
        "NOT DISTINCT FROM r1.k LEFT JOIN t5 AS r2 ON r0.k = coalesce(r2.k, 0)) s ORDER BY ALL "
        "NULLS FIRST LIMIT 3");
  // rid for rowid, LEFT SEMI JOIN, the tables' k and v only, ORDER BY the four
  // columns of r0 and r2 (the semi join's r1 is not in the output).
  CHECK(diffQueryRowsSql(q, DiffDialect::RfGuard) ==
        "SELECT * FROM (SELECT * FROM (SELECT x.k, x.v FROM t2 x JOIN t3 y ON x.k = y.k ORDER BY "
        "x.v NULLS FIRST, x.k NULLS FIRST, x.rid OFFSET 4) AS r0 LEFT SEMI JOIN (SELECT k, v FROM "
        "t1) AS r1 ON r0.k IS NOT DISTINCT FROM r1.k LEFT JOIN (SELECT k, v FROM t5) AS r2 ON r0.k "
        "= coalesce(r2.k, 0)) s ORDER BY 1 NULLS FIRST, 2 NULLS FIRST, 3 NULLS FIRST, 4 NULLS "
        "FIRST LIMIT 3");
  CHECK(diffQuerySql(q) == "SELECT count(*) AS n, sum(hash(q)) AS h FROM (" +
                               diffQueryRowsSql(q, DiffDialect::DuckDb) + ") q");
}

TEST_CASE("duckdb opinion: every random query binds in rfguard's dialect") {
  const Catalog catalog = evaluatorCatalog(6);
  std::mt19937_64 rng(7);
  for (int n = 0; n < 300; ++n) {
    const DiffQuery q = randomDiffQuery(rng, 2 + n % 4);
    const std::string sql = diffQueryRowsSql(q, DiffDialect::RfGuard);
    Session s;
    Diagnostics diags;
    CHECK_MESSAGE(s.loadFormat(sql, "q", InputFormat::Sql, diags, catalog), sql, "\n",
                  diags.render());
    CHECK(s.queries().size() == 1);
  }
}

TEST_CASE("duckdb opinion: cells and bags") {
  CHECK(cellOf(rt::Value{int64_t{-42}}) == engine::Cell{"-42"});
  CHECK(cellOf(rt::null()) == std::nullopt);
  CHECK(cellOf(rt::Value{std::string("x")}) == engine::Cell{"x"});
  // NULL first, numbers by value (not as text), rows lexicographically.
  const auto sorted = sortedCells({{engine::Cell{"10"}, std::nullopt},
                                   {engine::Cell{"9"}, engine::Cell{"1"}},
                                   {std::nullopt, engine::Cell{"5"}},
                                   {engine::Cell{"9"}, std::nullopt}});
  CHECK(sorted == std::vector<std::vector<engine::Cell>>{{std::nullopt, engine::Cell{"5"}},
                                                         {engine::Cell{"9"}, std::nullopt},
                                                         {engine::Cell{"9"}, engine::Cell{"1"}},
                                                         {engine::Cell{"10"}, std::nullopt}});
}

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("duckdb opinion: rfguard's evaluator gives DuckDB's results on random queries") {
  std::string error;
  auto db = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE_MESSAGE(db, error);
  const long long rows[] = {40, 30, 25, 20, 15, 30};
  for (int i = 0; i < 6; ++i) {
    const TableDef t = diffQueryTable(i);  // rfguard's t<i> adds rid, DuckDB's rowid
    REQUIRE_MESSAGE(db->execute(duckdb_import::createTableSql(t) + ";" +
                                    duckdb_import::populateSql(t, rows[i], 3, {}, 20, 10),
                                nullptr, error),
                    error);
  }
  EvaluatorOracle oracle(*db, 6);
  for (int i = 0; i < 6; ++i) REQUIRE_MESSAGE(oracle.load(i, error), error);
  std::mt19937_64 rng(11);
  int agree = 0, filtered = 0;
  for (int n = 0; n < 150; ++n) {
    const DiffQuery q = randomDiffQuery(rng, 2 + n % 4);
    engine::Result duck;
    if (!db->execute(diffQueryRowsSql(q, DiffDialect::DuckDb), &duck, error)) continue;
    const EvaluatorOpinion o = oracle.judge(q, duck);
    CHECK_MESSAGE(o.verdict == EvaluatorOpinion::Agrees, diffQueryRowsSql(q, DiffDialect::DuckDb),
                  "\n", verdictName(o.verdict), " ", o.which, o.reason);
    agree += o.verdict == EvaluatorOpinion::Agrees;
    filtered += o.filters > 0;
  }
  CHECK(agree >= 140);     // DuckDB refuses a few (a cast it cannot make)
  CHECK(filtered >= 100);  // most put rfguard's own filters to the test
}

TEST_CASE("duckdb opinion: a result that is not DuckDB's is caught, with the rows") {
  std::string error;
  auto db = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE_MESSAGE(db, error);
  REQUIRE(
      db->execute("CREATE TABLE t0 (k INTEGER, v INTEGER); CREATE TABLE t1 (k INTEGER, v "
                  "INTEGER); INSERT INTO t0 VALUES (1, 10), (2, 20), (NULL, 30); INSERT INTO "
                  "t1 VALUES (1, 5), (1, 6), (NULL, 7);",
                  nullptr, error));
  EvaluatorOracle oracle(*db, 2);
  REQUIRE(oracle.load(0, error));
  REQUIRE(oracle.load(1, error));
  DiffQuery q = innerJoin();
  engine::Result duck;
  REQUIRE(db->execute(diffQueryRowsSql(q, DiffDialect::DuckDb), &duck, error));
  REQUIRE(duck.rows.size() == 2);
  EvaluatorOpinion o = oracle.judge(q, duck);
  CHECK(o.verdict == EvaluatorOpinion::Agrees);
  CHECK(o.filters == 1);
  // A wrong result: the row (1, 10, 1, 6) lost, (2, 20, NULL, NULL) gained.
  engine::Result wrong = duck;
  wrong.rows = sortedCells(wrong.rows);
  wrong.rows.back() = {engine::Cell{"2"}, engine::Cell{"20"}, std::nullopt, std::nullopt};
  o = oracle.judge(q, wrong);
  CHECK(o.verdict == EvaluatorOpinion::Disagrees);
  CHECK(o.which == "bound");
  using Rows = std::vector<std::vector<engine::Cell>>;
  CHECK(o.onlyDuckdb == Rows{{engine::Cell{"2"}, engine::Cell{"20"}, std::nullopt, std::nullopt}});
  CHECK(o.onlyRfguard ==
        Rows{{engine::Cell{"1"}, engine::Cell{"10"}, engine::Cell{"1"}, engine::Cell{"6"}}});
  // A table not read back is declined with the reason, never judged.
  DiffJoin more;
  more.right.alias = 2;
  more.right.table = 1;
  q.first.table = 1;
  q.joins.push_back(more);
  q.joins[0].right.table = 0;
  EvaluatorOracle empty(*db, 2);
  o = empty.judge(q, duck);
  CHECK(o.verdict == EvaluatorOpinion::Declined);
  CHECK(o.reason == "t0 was not read from DuckDB");
}
#endif

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("duckdb opinion: tables of mixed integer types, and results too large to evaluate") {
  std::string error;
  auto db = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE_MESSAGE(db, error);
  const std::vector<TableDef> defs = {diffQueryTable(0, TypeKind::SmallInt, TypeKind::BigInt),
                                      diffQueryTable(1, TypeKind::Int, TypeKind::Int)};
  for (const auto& t : defs) REQUIRE(db->execute(duckdb_import::createTableSql(t), nullptr, error));
  // A BIGINT beyond any INTEGER, and 500 rows of t1.
  REQUIRE(
      db->execute("INSERT INTO t0 VALUES (1, 5000000000000), (2, NULL), (NULL, 7);"
                  "INSERT INTO t1 SELECT i, i FROM range(500) r(i);",
                  nullptr, error));
  EvaluatorOracle oracle(*db, defs);
  REQUIRE(oracle.load(0, error));
  REQUIRE(oracle.load(1, error));
  DiffQuery q = innerJoin();
  EvaluatorOpinion o = thirdOpinion(*db, oracle, q, true);
  CHECK(o.verdict == EvaluatorOpinion::Agrees);
  REQUIRE(o.rfguard.size() == 2);  // (1, 5000000000000, 1, 1) and (2, NULL, 2, 2)
  CHECK(o.rfguard[0][1] == engine::Cell{"5000000000000"});
  // t1 < t1: 124,750 rows, more than rfguard is asked to evaluate.
  q.first.table = 1;
  q.joins[0].op = 2;  // <
  o = thirdOpinion(*db, oracle, q, true);
  CHECK(o.verdict == EvaluatorOpinion::Declined);
  CHECK(o.reason == "DuckDB's result has 124750 rows, more than the 100000 rfguard evaluates");
}
#endif
