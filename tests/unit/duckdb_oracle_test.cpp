// DuckDB as the bounded search's oracle (tools/cli/engine_oracle.h, `--oracle duckdb`):
// the SQL the verifier writes means in DuckDB what it means in SQLite and the
// evaluator, including where the two dialects differ; counterexample scripts
// run there as is. Built when DuckDB is linked.
#include <doctest/doctest.h>

#ifdef RFGUARD_HAVE_DUCKDB

#include "engines/adapter.h"
#include "engines/engine.h"
#include "grammar/sql.h"
#include "tools/cli/engine_oracle.h"
#include "verifier/counterexample.h"
#include "verifier/plan_sql.h"

using namespace rfguard;

namespace {

const std::string kSchema =
    "CREATE TABLE t (k int, s varchar, p varchar, d date);\n"
    "CREATE TABLE u (k int, w int);\n";

std::vector<Query> plans(const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(kSchema + sql, "q.sql", c, qs, d), d.render());
  return qs;
}

BoundedOptions withOracle(const std::string& engine) {
  BoundedOptions o;
  o.bound = 2;
  o.seconds = 30;
  o.oracle = true;
  o.oracleFactory = engine::oracleFactory(engine);
  o.oracleDatabases = 150;
  return o;
}

}  // namespace

TEST_CASE("duckdb oracle: agrees with the evaluator where the dialects differ") {
  // Each query against itself: no counterexample is possible, so what is
  // checked is every result DuckDB (and SQLite) computes against the evaluator's.
  const char* queries[] = {
      "SELECT k / 2 AS h, k % 3 AS m, -k / 2 AS n FROM t",  // truncating integer division
      "SELECT k FROM t WHERE s LIKE 'a%'",                  // a GLOB in SQLite
      "SELECT k FROM t WHERE s LIKE 'a!_%' ESCAPE '!'",
      "SELECT k FROM t WHERE s LIKE p",  // a pattern from a column: case_sensitive_like
      "SELECT k FROM t WHERE s ILIKE 'A%'",
      ("SELECT extract(year FROM d) AS y, extract(month FROM d) AS m, date_trunc('month', d) AS f, "
       "d + interval '1' month AS n, d - interval '1' year AS l FROM t"),
      "SELECT t.k, u.w FROM t JOIN u ON t.k <=> u.k",
      "SELECT t.k FROM t WHERE t.k IS DISTINCT FROM 1",
      "SELECT k FROM t WHERE k NOT IN (SELECT k FROM u)",
      "SELECT k FROM t INTERSECT ALL SELECT k FROM u",
      "SELECT k FROM t EXCEPT ALL SELECT k FROM u",
      "SELECT k, s FROM t ORDER BY k LIMIT 1 OFFSET 1",
      "SELECT cast(k AS varchar) AS c, k < 2 AS b FROM t",
      "SELECT t.k, u.w FROM t CROSS JOIN u",
  };
  for (const char* sql : queries) {
    CAPTURE(sql);
    auto qs = plans(std::string(sql) + ";");
    const PlanNode& p = *qs[0].plan;
    BoundedVerdict duck = checkEquivalent(p, p, withOracle("duckdb"));
    CHECK(duck.oracleName == "DuckDB");
    CHECK(duck.oracleSkipped == "");
    CHECK(duck.oracleRuns > 0);
    CHECK(duck.oracleDisagreements.empty());
    if (!duck.oracleDisagreements.empty()) MESSAGE(duck.oracleDisagreements[0]);
    BoundedVerdict lite = checkEquivalent(p, p, withOracle("sqlite"));
    CHECK(lite.oracleName == "SQLite");
    CHECK(lite.oracleSkipped == "");
    CHECK(lite.oracleDisagreements.empty());
    if (!lite.oracleDisagreements.empty()) MESSAGE(lite.oracleDisagreements[0]);
  }
}

TEST_CASE("duckdb oracle: SIMILAR TO and regexp_matches have DuckDB forms, not SQLite ones") {
  for (const char* sql : {"SELECT k FROM t WHERE s SIMILAR TO 'a(b|c)%';",
                          "SELECT k FROM t WHERE regexp_matches(s, 'a.');"}) {
    CAPTURE(sql);
    auto qs = plans(sql);
    BoundedVerdict duck = checkEquivalent(*qs[0].plan, *qs[0].plan, withOracle("duckdb"));
    CHECK(duck.oracleSkipped == "");
    CHECK(duck.oracleRuns > 0);
    CHECK(duck.oracleDisagreements.empty());
    BoundedVerdict lite = checkEquivalent(*qs[0].plan, *qs[0].plan, withOracle("sqlite"));
    CHECK(lite.oracleSkipped.find("no SQLite form") != std::string::npos);
  }
}

TEST_CASE("duckdb oracle: a counterexample script runs as is in DuckDB, typed") {
  // Trino #13109's rewrite: coalesce below the LEFT JOIN's NULL-generating side.
  auto qs = plans(
      "SELECT t.k, coalesce(u.w, 0) AS w FROM t LEFT JOIN u ON t.k = u.k;"
      "SELECT t.k, x.w FROM t LEFT JOIN (SELECT k, coalesce(w, 0) AS w FROM u) x ON t.k = x.k;");
  BoundedVerdict v = checkEquivalent(*qs[0].plan, *qs[1].plan, withOracle("duckdb"));
  REQUIRE(v.counterexample);
  CHECK(v.oracleDisagreements.empty());
  const std::string script = counterexampleScript(*qs[0].plan, *v.counterexample, qs[1].plan.get(),
                                                  engine::scriptSpellings());
  CHECK(script.find("runs as is in sqlite3 and in DuckDB") != std::string::npos);
  CHECK(script.find("\"k\" BIGINT") != std::string::npos);
  CHECK(script.find("\"s\" VARCHAR") != std::string::npos);
  CHECK(script.find("LIMIT -1") == std::string::npos);
  std::string error;
  auto e = engine::open("duckdb", engine::Options{1}, error);
  REQUIRE(e);
  engine::Result r;
  REQUIRE_MESSAGE(e->execute(script, &r, error), error);  // the last statement: the rewritten query
  CHECK(r.rows.size() == v.counterexample->rewritten.size());
  // The original alone, from the script's own line.
  const size_t at = script.find("-- original");
  const size_t from = script.find('\n', at) + 1;
  const std::string original = script.substr(from, script.find('\n', from) - from);
  REQUIRE(e->execute(original, &r, error));
  CHECK(r.rows.size() == v.counterexample->original.size());
}

TEST_CASE("duckdb oracle: LIKE over a column pattern needs SQLite's pragma, and says so") {
  auto qs = plans("SELECT k FROM t WHERE s LIKE p; SELECT k FROM t WHERE s LIKE p AND k > 0;");
  BoundedVerdict v = checkEquivalent(*qs[0].plan, *qs[1].plan, withOracle("sqlite"));
  REQUIRE(v.counterexample);
  const std::string script = counterexampleScript(*qs[0].plan, *v.counterexample, qs[1].plan.get(),
                                                  engine::scriptSpellings());
  CHECK(script.find("PRAGMA case_sensitive_like = ON;") != std::string::npos);
  CHECK(script.find("and in DuckDB") == std::string::npos);
  // A constant pattern is a GLOB in SQLite: no pragma; DuckDB's form follows as a comment.
  auto cs =
      plans("SELECT k FROM t WHERE s LIKE 'a%'; SELECT k FROM t WHERE s LIKE 'a%' AND k > 0;");
  BoundedVerdict c = checkEquivalent(*cs[0].plan, *cs[1].plan, withOracle("sqlite"));
  REQUIRE(c.counterexample);
  const std::string glob = counterexampleScript(*cs[0].plan, *c.counterexample, cs[1].plan.get(),
                                                engine::scriptSpellings());
  CHECK(glob.find("PRAGMA") == std::string::npos);
  CHECK(glob.find("GLOB 'a*'") != std::string::npos);
  CHECK(glob.find("-- DuckDB spells these queries differently") != std::string::npos);
}

TEST_CASE("duckdb oracle: an engine this build does not link is an error, not a silent skip") {
  std::string why;
  CHECK(engine::oracleAvailable("duckdb", why));
  CHECK(engine::oracleAvailable("sqlite", why));
  CHECK_FALSE(engine::oracleAvailable("oracle", why));
  CHECK(why == "unknown engine \"oracle\"");
}

#endif
