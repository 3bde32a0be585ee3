// DuckDB in the loop (engines/duckdb/capi): the adapter, generated data, and
// DuckDB's executed plan imported and linted. Built when DuckDB is linked.
#include <doctest/doctest.h>

#ifdef RFGUARD_HAVE_DUCKDB

#include "engines/duckdb/schema_sql.h"
#include "engines/engine.h"
#include "grammar/sql.h"
#include "pipeline/session.h"
#include "tests/unit/duckdb_test_support.h"

using namespace rfguard;

namespace {

const char* kSchema =
    "CREATE TABLE t (k int, v int) WITH (rows = 200000);\n"
    "CREATE TABLE u (k int NOT NULL, w varchar) WITH (rows = 50);\n";

struct Db {
  std::unique_ptr<engine::Engine> e;
  Catalog catalog;
};

Db populated(uint64_t seed) {
  Db db;
  std::string error;
  db.e = engine::open("duckdb", engine::Options{2}, error);
  REQUIRE_MESSAGE(db.e, error);
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE(loadSql(kSchema, "s.sql", db.catalog, qs, d));
  for (const auto& [name, t] : db.catalog.tables()) {
    REQUIRE_MESSAGE(db.e->execute(duckdb_import::createTableSql(t), nullptr, error), error);
    REQUIRE_MESSAGE(db.e->execute(duckdb_import::populateSql(t, *t.rows, seed), nullptr, error),
                    error);
  }
  return db;
}

std::string scalar(engine::Engine& e, const std::string& sql) {
  engine::Result r;
  std::string error;
  REQUIRE_MESSAGE(e.execute(sql, &r, error), error);
  REQUIRE(r.rows.size() == 1);
  return r.rows[0][0].value_or("NULL");
}

}  // namespace

TEST_CASE("duckdb live: the pinned DuckDB opens and runs SQL") {
  CHECK(engine::linkedEngines() == std::vector<std::string>{"duckdb"});
  std::string error;
  auto e = engine::open("duckdb", engine::Options{2}, error);
  REQUIRE(e);
  CHECK(e->version() == "v1.5.6");
  engine::Result r;
  REQUIRE(e->execute("SELECT 1 AS one, NULL AS n, 'x' AS s", &r, error));
  CHECK(r.columns == std::vector<std::string>{"one", "n", "s"});
  CHECK(r.types == std::vector<std::string>{"INTEGER", "INTEGER", "VARCHAR"});
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0][0] == std::optional<std::string>("1"));
  CHECK_FALSE(r.rows[0][1].has_value());
  CHECK_FALSE(e->execute("SELEC 1", nullptr, error));
  CHECK(error.find("syntax error") != std::string::npos);
  CHECK_FALSE(engine::open("oracle", {}, error));
  CHECK(error == "unknown engine \"oracle\"");
}

TEST_CASE("duckdb live: generated data is seeded, skewed and has NULLs where allowed") {
  Db a = populated(7), b = populated(7), c = populated(8);
  CHECK(scalar(*a.e, "SELECT count(*) FROM t") == "200000");
  const std::string digest = "SELECT sum(hash(k, v)) FROM t";
  CHECK(scalar(*a.e, digest) == scalar(*b.e, digest));
  CHECK(scalar(*a.e, digest) != scalar(*c.e, digest));
  // 5% NULLs in a nullable column, none in a NOT NULL one.
  double nulls = std::stod(scalar(*a.e, "SELECT avg((k IS NULL)::INT) FROM t"));
  CHECK(nulls > 0.04);
  CHECK(nulls < 0.06);
  CHECK(scalar(*a.e, "SELECT count(*) FROM u WHERE k IS NULL") == "0");
  // Skew: the ten hot values hold 30% of the rows (plus their share of the rest).
  double hot = std::stod(scalar(*a.e, "SELECT avg((k < 10)::INT) FROM t WHERE k IS NOT NULL"));
  CHECK(hot > 0.28);
  CHECK(hot < 0.32);
  // The tables as DuckDB declares them.
  std::vector<engine::EngineTable> tables;
  std::string error;
  REQUIRE(a.e->tables(tables, error));
  REQUIRE(tables.size() == 2);
  CHECK(tables[1].name == "u");
  CHECK(tables[1].columns[0].type == "INTEGER");
  CHECK_FALSE(tables[1].columns[0].nullable);
}

TEST_CASE("duckdb live: join keys draw evenly over the key they join, so joins stay small") {
  // JOB's shape: three tables join one numbered key; with the ten hot values
  // (3% of rows each) the three-way join on movie_id had millions of rows.
  const char* sql =
      "CREATE TABLE title (id int PRIMARY KEY, year int) WITH (rows = 1000);\n"
      "CREATE TABLE mk (movie_id int, k int) WITH (rows = 2000);\n"
      "CREATE TABLE mi (movie_id int, info int) WITH (rows = 3000);\n"
      "SELECT count(*) FROM title t, mk, mi WHERE t.id = mk.movie_id AND mk.movie_id = "
      "mi.movie_id;\n";
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE(loadSql(sql, "job.sql", catalog, qs, d));
  const std::map<std::string, long long> rows = {{"title", 1000}, {"mk", 2000}, {"mi", 3000}};
  const auto keys = duckdb_import::joinKeyDomains(qs, catalog, rows);
  // mk.movie_id and mi.movie_id join title's numbered key; title.id is that key.
  CHECK(keys.at("mk.movie_id") == 1000);
  CHECK(keys.at("mi.movie_id") == 1000);
  CHECK(keys.at("title.id") == 0);
  CHECK(keys.count("mk.k") == 0);
  std::string error;
  auto e = engine::open("duckdb", engine::Options{2}, error);
  REQUIRE_MESSAGE(e, error);
  for (const auto& [name, t] : catalog.tables()) {
    REQUIRE_MESSAGE(e->execute(duckdb_import::createTableSql(t), nullptr, error), error);
    REQUIRE_MESSAGE(e->execute(duckdb_import::populateSql(t, rows.at(name), 1, {}, 5, 30, keys),
                               nullptr, error),
                    error);
  }
  // Every key is a title (or NULL), and no value holds more than a few rows.
  CHECK(scalar(*e, "SELECT count(*) FROM mk WHERE movie_id >= 1000") == "0");
  CHECK(std::stoll(scalar(*e,
                          "SELECT max(c) FROM (SELECT count(*) c FROM mi WHERE movie_id IS "
                          "NOT NULL GROUP BY movie_id)")) <= 15);
  // 2,000 x 3,000 rows over 1,000 keys: about 6,000 join rows, not millions.
  const long long joined = std::stoll(scalar(*e, qs[0].sql));
  CHECK(joined > 4000);
  CHECK(joined < 9000);
  // Without the join keys, the same tables' three-way join is many times larger.
  auto skewed = engine::open("duckdb", engine::Options{2}, error);
  REQUIRE(skewed);
  for (const auto& [name, t] : catalog.tables()) {
    REQUIRE(skewed->execute(duckdb_import::createTableSql(t), nullptr, error));
    REQUIRE(skewed->execute(duckdb_import::populateSql(t, rows.at(name), 1), nullptr, error));
  }
  CHECK(std::stoll(scalar(*skewed, qs[0].sql)) > 5 * joined);
}

TEST_CASE("duckdb live: a statement over its time limit is interrupted, memory is bounded") {
  std::string error;
  auto e = engine::open("duckdb", engine::Options{1, 64, 0.5}, error);
  REQUIRE_MESSAGE(e, error);
  CHECK(scalar(*e, "SELECT current_setting('memory_limit')") == "61.0 MiB");
  // A cross join of 10^12 rows: interrupted after half a second.
  CHECK_FALSE(
      e->execute("SELECT count(*) FROM range(1000000) a, range(1000000) b", nullptr, error));
  CHECK(error == "the statement ran over its time limit of 0.5 s (--timeout) and was interrupted");
  // The connection still works after the interrupt.
  CHECK(scalar(*e, "SELECT 41 + 1") == "42");
  // Over the memory limit: DuckDB's own out-of-memory error, not the kernel's kill.
  auto small = engine::open("duckdb", engine::Options{1, 32, 0}, error);
  REQUIRE(small);
  CHECK_FALSE(small->execute(
      "SELECT count(DISTINCT x) FROM (SELECT repeat('x', 100) || i::VARCHAR AS x FROM "
      "range(3000000) r(i))",
      nullptr, error));
  CHECK(error.find("Out of Memory") != std::string::npos);
}

TEST_CASE("duckdb live: an executed plan is captured, imported and linted") {
  Db db = populated(1);
  const std::string sql = "SELECT count(*) FROM t JOIN u ON t.k = u.k";
  engine::Result plain, profiled;
  std::string error, profile;
  REQUIRE(db.e->execute(sql, &plain, error));
  REQUIRE_MESSAGE(db.e->profile(sql, profiled, profile, error), error);
  CHECK(plain.rows == profiled.rows);
  SessionOptions so;
  so.schema = db.catalog;
  Session s(so);
  Diagnostics d;
  REQUIRE_MESSAGE(s.loadFormat(profile, "profile.json", InputFormat::Engine, d), d.render());
  const QueryRun& q = s.queries()[0];
  REQUIRE(q.imported);
  CHECK(q.query.sql == sql);
  // DuckDB filtered t.k from the join's build side u.k.
  REQUIRE(q.imported->dynamicFilters.size() == 1);
  CHECK(q.imported->dynamicFilters[0].column == "t.k");
  CHECK(q.imported->dynamicFilters[0].producers.size() == 1);
  CHECK(s.verify(q).empty());
  // EXPLAIN gives the plan without running it: no dynamic filters yet.
  std::string explained;
  REQUIRE(db.e->explain(sql, explained, error));
  Session s2(so);
  REQUIRE(s2.loadFormat(explained, "explain.json", InputFormat::Auto, d));
  CHECK(s2.queries()[0].imported->dynamicFilters.empty());
}

#endif  // RFGUARD_HAVE_DUCKDB

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("duckdb live: 1.5.6's filter below an OFFSET changes the result, and lint flags it") {
  // DuckDB's regression case for PR #22963, made deterministic: the scan
  // below the OFFSET is the probe of a hash join, so it starts only after that
  // join's build side (ords) is built, and by then the outer join's one-row
  // build side (boolean_keys) has published its filter flag = false. The scan
  // keeps only (false, 2000), and the OFFSET 999 skips it. One thread: tasks
  // run in the order their pipelines become ready, so both builds finish first
  // (with two, a loaded machine sometimes starts the scan earlier).
  std::string error;
  auto e = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE(e);
  REQUIRE(
      e->execute("CREATE TABLE ordered_probe AS SELECT i <> 2000 AS flag, i::INTEGER AS ord "
                 "FROM range(1, 2001) r(i);"
                 "CREATE TABLE ords AS SELECT i::INTEGER AS o FROM range(1001, 2001) r(i);"
                 "CREATE TABLE boolean_keys (flag_key BOOLEAN);"
                 "INSERT INTO boolean_keys VALUES (false);",
                 nullptr, error));
  const std::string sql =
      "WITH c AS (SELECT flag FROM ordered_probe JOIN ords ON ord = o ORDER BY ord OFFSET 999) "
      "SELECT count(*) FROM c INNER JOIN boolean_keys ON flag = flag_key";
  REQUIRE(e->setRuntimeFilters(false, error));
  CHECK(scalar(*e, sql) == "1");  // the row (false, 2000) survives the OFFSET and joins
  REQUIRE(e->setRuntimeFilters(true, error));
  for (int run = 0; run < 5; ++run) {
    engine::Result r;
    std::string profile;
    REQUIRE(e->profile(sql, r, profile, error));
    CHECK(r.rows[0][0] == std::optional<std::string>("0"));
    CHECK(lintFindings(profile, "crossed-limit") == 1);
  }
}
#endif
