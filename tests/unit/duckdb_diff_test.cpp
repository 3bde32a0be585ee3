// `rfguard duckdb diff` against DuckDB 1.5.6's filter below an OFFSET: a
// relation that is a whole table behind a join's probe (its scan starts after
// the builds), and wide tables, whose sorts DuckDB does not compress, so that a
// filter from a join above reaches the scan below the OFFSET.
#include <doctest/doctest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engines/adapter.h"
#include "testgen/diff_tables.h"
#include "testgen/differential.h"
#include "testgen/join_queries.h"
#ifdef RFGUARD_HAVE_DUCKDB
#include "engines/duckdb/schema_sql.h"
#include "engines/engine.h"
#include "pipeline/session.h"
#include "tests/unit/duckdb_test_support.h"
#endif

using namespace rfguard;

namespace {

/// t0, ordered by v and cut by OFFSET 3 behind its semi join with itself,
/// joined to t3 on k.
DiffQuery delayedOffsetQuery() {
  DiffQuery q;
  q.first.shape = DiffRelation::OffsetDelayed;
  q.first.offset = 3;
  DiffJoin j;
  j.right.alias = j.right.table = 3;
  q.joins = {j};
  return q;
}

}  // namespace

TEST_CASE("duckdb diff: a whole table behind a semi join with itself, in both dialects") {
  const DiffQuery q = delayedOffsetQuery();
  CHECK(diffQueryRowsSql(q, DiffDialect::DuckDb) ==
        "SELECT * FROM (SELECT x.k, x.v FROM t0 x SEMI JOIN t0 y ON x.k IS NOT DISTINCT FROM y.k "
        "ORDER BY x.v NULLS FIRST, x.k NULLS FIRST, x.rowid OFFSET 3) AS r0 JOIN t3 AS r3 ON r0.k "
        "= r3.k");
  CHECK(diffQueryRowsSql(q, DiffDialect::RfGuard) ==
        "SELECT * FROM (SELECT x.k, x.v FROM t0 x LEFT SEMI JOIN t0 y ON x.k IS NOT DISTINCT FROM "
        "y.k ORDER BY x.v NULLS FIRST, x.k NULLS FIRST, x.rid OFFSET 3) AS r0 JOIN (SELECT k, v "
        "FROM t3) AS r3 ON r0.k = r3.k");
  CHECK(diffQueryTables(q) == std::vector<int>{0, 3});
  // Simpler: the plain table, or half the OFFSET.
  bool plain = false, halved = false;
  for (const auto& s : diffQuerySimplifications(q)) {
    plain = plain || s.first.shape == DiffRelation::Table;
    halved = halved || (s.first.shape == DiffRelation::OffsetDelayed && s.first.offset == 1);
  }
  CHECK(plain);
  CHECK(halved);
}

TEST_CASE("duckdb diff: the wide tables' spread") {
  // INTEGER by multiples of a million, BIGINT of 10^12, SMALLINT not at all.
  CHECK(spreadSql(diffQueryTable(2, TypeKind::Int, TypeKind::BigInt), 7) ==
        "CREATE OR REPLACE TABLE t2 AS SELECT CASE WHEN hash(rowid, 7, 7) % 50 = 0 THEN k + "
        "(1000000 * (1 + hash(rowid, 7, 7, 1) % 1000))::INTEGER ELSE k END AS k, CASE WHEN "
        "hash(rowid, 7, 8) % 50 = 0 THEN v + (1000000000000 * (1 + hash(rowid, 7, 8, 1) % "
        "1000))::BIGINT ELSE v END AS v FROM t2 ORDER BY rowid");
  CHECK(spreadSql(diffQueryTable(1, TypeKind::SmallInt, TypeKind::Int), 3) ==
        "CREATE OR REPLACE TABLE t1 AS SELECT k, CASE WHEN hash(rowid, 3, 8) % 50 = 0 THEN v + "
        "(1000000 * (1 + hash(rowid, 3, 8, 1) % 1000))::INTEGER ELSE v END AS v FROM t1 ORDER BY "
        "rowid");
  CHECK(spreadSql(diffQueryTable(1, TypeKind::SmallInt, TypeKind::SmallInt), 3).empty());
}

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE(
    "duckdb diff: over wide data 1.5.6's filter crosses the OFFSET, and lint flags the plan") {
  std::string error;
  // One thread: the builds finish before the probe scan below the OFFSET starts.
  auto e = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE(e);
  const struct {
    int table;
    long long rows;
    int nullPercent;
  } tables[] = {{0, 100000, 5}, {3, 60, 20}};
  for (const auto& t : tables) {
    const TableDef def = diffQueryTable(t.table);
    REQUIRE(e->execute(duckdb_import::createTableSql(def) + ";" +
                           duckdb_import::populateSql(def, t.rows, 2, {}, t.nullPercent, 2),
                       nullptr, error));
  }
  const std::string sql = diffQuerySql(delayedOffsetQuery());
  auto run = [&](bool pushdown) {
    engine::Result r;
    REQUIRE(e->setRuntimeFilters(pushdown, error));
    REQUIRE_MESSAGE(e->execute(sql, &r, error), error);
    REQUIRE(e->setRuntimeFilters(true, error));
    REQUIRE(r.rows.size() == 1);
    return r.rows[0][0].value_or("NULL") + " rows";
  };
  auto compressed = [&] {
    engine::Result r;
    REQUIRE(e->execute("EXPLAIN " + sql, &r, error));
    std::string plan;
    for (const auto& row : r.rows)
      for (const auto& c : row) plan += c.value_or("");
    return plan.find("__internal_compress") != std::string::npos;
  };
  // Narrow: DuckDB sorts compressed keys, and the filter stops at the projection.
  CHECK(compressed());
  CHECK(run(true) == run(false));
  // Wide: 2% of t0's keys (and of its values) spread out, none beyond INTEGER.
  REQUIRE(e->execute(spreadSql(diffQueryTable(0), 2), nullptr, error));
  engine::Result spread;
  REQUIRE(
      e->execute("SELECT count(*), avg((k >= 1000000)::INT), avg((v >= 1000000)::INT), "
                 "max(k) < 2147483647 - 25000 FROM t0",
                 &spread, error));
  CHECK(spread.rows[0][0] == std::optional<std::string>("100000"));
  CHECK(std::stod(*spread.rows[0][1]) > 0.015);
  CHECK(std::stod(*spread.rows[0][1]) < 0.025);
  CHECK(std::stod(*spread.rows[0][2]) > 0.015);
  CHECK(std::stod(*spread.rows[0][2]) < 0.025);
  CHECK(spread.rows[0][3] == std::optional<std::string>("true"));
  CHECK_FALSE(compressed());
  // t3's keys (0 .. 14) reach t0's scan below the OFFSET: the OFFSET skips
  // three of the rows that join instead of three of all rows.
  const std::string with = run(true), without = run(false);
  CHECK(with != without);
  engine::Result profiled;
  std::string profile;
  REQUIRE(e->profile(sql, profiled, profile, error));
  CHECK(profiled.rows[0][0].value_or("NULL") + " rows" == with);
  CHECK(lintFindings(profile, "crossed-limit") == 1);
}

TEST_CASE("duckdb diff: a difference found, shrunk to 11 rows, linted and written as a script") {
  // One thread: DuckDB runs its pipelines in one order, and seed 38's query 19
  // (t0 below an OFFSET, joined to a UNION ALL of t1 and t2) shows the
  // difference every time.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("rfguard_diff_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  DiffArgs args;
  args.engine = engine::findAdapter("duckdb");
  args.seed = 38;
  args.queries = 19;
  args.options.threads = 1;
  args.bigRows = 20000;
  args.evaluatorRows = 0;
  args.shrinkTests = 1000;
  args.format = "json";
  args.out = dir.string();
  std::ostringstream out, err;
  CHECK(runDifferential(args, out, err) == DiffOutcome::Differences);
  const auto j = nlohmann::json::parse(out.str());
  CHECK(j["queries"] == 19);
  // The seed's t0: --big rows, SMALLINT keys, not spread. DuckDB compresses a
  // SMALLINT only into a UTINYINT (a range below 256), so its sort keeps k as
  // it is and the filter on k crosses the ORDER BY.
  CHECK(j["tables"][0] == nlohmann::json::parse(R"({"name": "t0", "rows": 20000, "null_percent": 5,
      "k": "SMALLINT", "v": "INTEGER", "wide": false})"));
  REQUIRE(j["differences"].size() == 1);
  const auto& d = j["differences"][0];
  CHECK(d["found_in"] == "query 19");
  // The query shrunk from a join with a UNION ALL on abs(k) and OFFSET 4 to an
  // inner join with t1 on k and OFFSET 1, the rows to 10 of t0 and one of t1.
  CHECK(d["found_sql"].get<std::string>().find(
            "OFFSET 4) AS r0 JOIN (SELECT k, v FROM t1 UNION ALL SELECT k, v FROM t2) AS r1 ON "
            "r0.k = abs(r1.k)") != std::string::npos);
  CHECK(d["sql"] ==
        "SELECT count(*) AS n, sum(hash(q)) AS h FROM (SELECT * FROM (SELECT x.k, x.v FROM t0 x "
        "SEMI JOIN t0 y ON x.k IS NOT DISTINCT FROM y.k ORDER BY x.v NULLS FIRST, x.k NULLS FIRST, "
        "x.rowid OFFSET 1) AS r0 JOIN t1 AS r1 ON r0.k = r1.k) q");
  CHECK(d["rows"]["t0"] == 10);
  CHECK(d["rows"]["t1"] == 1);
  CHECK(d["with_pushdown"] == "n = 0, h = NULL");
  CHECK(d["without_pushdown"].get<std::string>().rfind("n = 1, ", 0) == 0);
  // The plan linted is the one of the run that went wrong, and lint flags it.
  CHECK(d["plan_run_wrong"] == true);
  REQUIRE(d["findings"].size() == 1);
  CHECK(d["findings"][0]["code"] == "crossed-limit");
  // The script runs as it is in DuckDB and shows the difference.
  std::ifstream script(d["script"].get<std::string>());
  std::string line, setup;
  std::vector<std::string> results;
  std::string error;
  auto e = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE(e);
  while (std::getline(script, line)) {
    if (line.rfind("SELECT count(*)", 0) != 0) {
      setup += line + "\n";
      continue;
    }
    REQUIRE_MESSAGE(e->execute(setup, nullptr, error), error);
    setup.clear();
    engine::Result r;
    REQUIRE_MESSAGE(e->execute(line, &r, error), error);
    results.push_back(r.rows.at(0).at(0).value_or("NULL"));
  }
  CHECK(results == std::vector<std::string>{"0", "1"});
  std::filesystem::remove_all(dir);
}
#endif
