// SQL dialects (ir/dialect.h, docs/dialects.md): each row of the table, the
// SQL as written run in the engine itself (the linked DuckDB, SQLite) against
// rfguard's evaluation of it read under that engine's dialect; PostgreSQL's
// and Calcite's rows against their documented results.
#include <doctest/doctest.h>

#include <optional>

#include "evaluation/evaluator.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "verifier/plan_sql.h"
#include "verifier/sqlite_oracle.h"
#ifdef RFGUARD_HAVE_DUCKDB
#include "tools/cli/engine_oracle.h"
#endif

namespace rfguard {

namespace {

const std::string kSchema = "CREATE TABLE t (k int, v int, s varchar(10));\n";

rt::Value num(int64_t x) {
  return rt::Value(x);
}

rt::Row row(std::optional<int64_t> k, std::optional<int64_t> v, std::optional<std::string> s) {
  return {k ? num(*k) : rt::null(), v ? num(*v) : rt::null(), s ? rt::Value(*s) : rt::null()};
}

rt::Database database() {
  rt::Database db;
  db["t"] = {{"k", "v", "s"},
             {row(1, 2, "abc"), row(7, 2, "Abd"), row(-7, 2, "xa"), row(4, std::nullopt, "b"),
              row(5, 3, std::nullopt), row(6, 0, "a_")}};
  return db;
}

/// The plan of `sql` read under `d`; null with the errors in `error`.
PlanPtr planOf(const std::string& sql, Dialect d, std::string* error = nullptr) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics diags;
  const bool ok = loadSql(kSchema + sql, "q.sql", c, qs, diags, {}, d);
  if (error) *error = diags.render();
  return ok && qs.size() == 1 ? qs[0].plan : nullptr;
}

/// The rows rfguard's evaluator gives `sql` read under `d`, or nullopt with
/// the evaluator's error in `why`.
std::optional<std::vector<rt::Row>> ours(const std::string& sql, Dialect d, std::string* why) {
  PlanPtr p = planOf(sql, d, why);
  REQUIRE_MESSAGE(p, *why);
  rt::Relation r;
  if (!rt::evaluate(*p, database(), {}, r, *why)) return std::nullopt;
  return r.rows;
}

std::vector<rt::Row> ours(const std::string& sql, Dialect d) {
  std::string why;
  auto rows = ours(sql, d, &why);
  REQUIRE_MESSAGE(rows, why);
  return *rows;
}

std::vector<rt::Row> ints(std::initializer_list<int64_t> xs) {
  std::vector<rt::Row> out;
  for (int64_t x : xs) out.push_back({num(x)});
  return out;
}

/// The queries whose results the dialects tell apart, with whether their
/// result's order counts.
struct Probe {
  const char* sql;
  bool ordered;
};
const Probe kProbes[] = {
    {"SELECT k / v FROM t WHERE v <> 0", false},  // 7 / 2: 3, or 3.5
    {"SELECT k % v FROM t", false},               // % 0 is NULL in both engines
    {"SELECT avg(k) FROM t", false},
    {"SELECT k FROM t ORDER BY v, k LIMIT 3", true},  // where NULL sorts
    {"SELECT k FROM t ORDER BY v DESC, k LIMIT 2", true},
    {"SELECT k FROM t WHERE s LIKE 'a%'", false},  // 'Abd' in SQLite
    {"SELECT v, count(*) FROM t GROUP BY 1", false},
};

/// Each probe in `engine` (the SQL as written) and in rfguard under `d`.
void agree(SqlOracle& engine, Dialect d, const std::vector<std::string>& extra) {
  std::string error;
  PlanPtr typed = planOf("SELECT * FROM t", d);
  SqlTableTypes types;
  collectSqlTypes(*typed, types);
  REQUIRE_MESSAGE(engine.load(database(), types, error), error);
  std::vector<Probe> probes(std::begin(kProbes), std::end(kProbes));
  for (const auto& s : extra) probes.push_back({s.c_str(), false});
  for (const Probe& p : probes) {
    const std::string sql = p.sql;
    CAPTURE(sql);
    std::vector<rt::Row> theirs;
    REQUIRE_MESSAGE(engine.query(p.sql, theirs, error), error);
    std::vector<rt::Row> mine = ours(p.sql, d);
    if (p.ordered)
      CHECK(mine == theirs);
    else
      CHECK(rt::sortedBag(mine) == rt::sortedBag(theirs));
  }
}

}  // namespace

TEST_CASE("dialects: names, and every name read back") {
  for (const auto& name : dialectNames()) {
    auto d = dialectNamed(name);
    REQUIRE(d);
    CHECK(dialectName(*d) == name);
  }
  CHECK(dialectNamed("PostgreSQL") == Dialect::Postgres);
  CHECK(dialectNamed("DuckDB") == Dialect::DuckDb);
  CHECK_FALSE(dialectNamed("mysql"));
}

TEST_CASE("dialects: SQLite's reading of the SQL is SQLite's own result") {
  SqliteOracle sqlite;
  // The oracle makes LIKE case-sensitive for the SQL it is given: SQLite's own LIKE here.
  std::vector<rt::Row> none;
  std::string error;
  REQUIRE_MESSAGE(sqlite.query("PRAGMA case_sensitive_like = OFF", none, error), error);
  agree(sqlite, Dialect::Sqlite, {"SELECT k / v FROM t"});  // NULL where v is 0
  // Not the default's: NULLs sort first ascending, LIKE ignores ASCII case.
  CHECK(ours("SELECT k FROM t ORDER BY v, k LIMIT 3", Dialect::Sqlite) == ints({4, 6, -7}));
  CHECK(ours("SELECT k FROM t ORDER BY v, k LIMIT 3", Dialect::Default) == ints({6, -7, 1}));
  CHECK(rt::sortedBag(ours("SELECT k FROM t WHERE s LIKE 'a%'", Dialect::Sqlite)) ==
        ints({1, 6, 7}));
  CHECK(rt::sortedBag(ours("SELECT k FROM t WHERE s LIKE 'a%'", Dialect::Default)) == ints({1, 6}));
}

#ifdef RFGUARD_HAVE_DUCKDB
TEST_CASE("dialects: DuckDB's reading of the SQL is DuckDB's own result") {
  std::string error;
  auto duck = engine::openOracle("duckdb", error);
  REQUIRE_MESSAGE(duck, error);
  agree(*duck, Dialect::DuckDb, {"SELECT concat(s, 'x') FROM t"});
  // Not the default's: / of integers is exact, NULLs sort last descending too.
  CHECK(rt::sortedBag(ours("SELECT k / v FROM t WHERE k = 7", Dialect::DuckDb)) ==
        std::vector<rt::Row>{{rt::Value(3.5)}});
  CHECK(ours("SELECT k FROM t ORDER BY v DESC, k LIMIT 2", Dialect::DuckDb) == ints({5, -7}));
  CHECK(ours("SELECT k FROM t ORDER BY v DESC, k LIMIT 2", Dialect::Default) == ints({4, 5}));
  // 1 / 0 is an infinity in DuckDB, a value rfguard does not model: no result.
  std::vector<rt::Row> theirs;
  REQUIRE_MESSAGE(duck->query("SELECT k / v FROM t WHERE v = 0", theirs, error), error);
  std::string why;
  CHECK_FALSE(ours("SELECT k / v FROM t", Dialect::DuckDb, &why));
  CHECK(why.rfind(rt::kQueryFails, 0) == 0);
}
#endif

TEST_CASE("dialects: PostgreSQL's and Calcite's division by zero is no result") {
  for (Dialect d : {Dialect::Postgres, Dialect::Calcite}) {
    std::string why;
    CHECK_FALSE(ours("SELECT k / v FROM t", d, &why));
    CHECK(why.find("division by zero") != std::string::npos);
    CHECK_FALSE(ours("SELECT k % v FROM t", d, &why));
    // Elsewhere division truncates, and a literal divisor is no check.
    CHECK(rt::sortedBag(ours("SELECT k / v FROM t WHERE v <> 0", d)) ==
          rt::sortedBag(ours("SELECT k / v FROM t WHERE v <> 0", Dialect::Default)));
    CHECK(planToText(*planOf("SELECT k / 2 FROM t", d)).find("nonzero_divisor") ==
          std::string::npos);
  }
  // The default and SQLite: NULL.
  CHECK(ours("SELECT k / v FROM t WHERE v = 0", Dialect::Default) ==
        std::vector<rt::Row>{{rt::null()}});
}

TEST_CASE("dialects: Calcite's integer AVG, GROUP BY a constant, concat refused") {
  // AVG of an integer is an integer, truncated toward zero: (-7 + 4) / 2 is -1.
  CHECK(ours("SELECT avg(k) FROM t WHERE k IN (-7, 4)", Dialect::Calcite) == ints({-1}));
  CHECK(ours("SELECT avg(k) FROM t WHERE k IN (-7, 4)", Dialect::Default) ==
        std::vector<rt::Row>{{rt::Value(-1.5)}});
  CHECK(ours("SELECT avg(k) FROM t WHERE k > 100", Dialect::Calcite) ==
        std::vector<rt::Row>{{rt::null()}});
  std::string error;
  // GROUP BY 1 groups by the constant 1: one group over rows, none over none.
  CHECK(ours("SELECT count(*) FROM t GROUP BY 1", Dialect::Calcite) == ints({6}));
  CHECK(ours("SELECT count(*) FROM t WHERE k > 100 GROUP BY 1", Dialect::Calcite).empty());
  // The oracles' SQL groups by the constant too (SQLite would read a position).
  SqliteOracle sqlite;
  REQUIRE_MESSAGE(sqlite.load(database(), error), error);
  for (const char* sql : {"SELECT count(*) FROM t GROUP BY 5", "SELECT k FROM t GROUP BY k, 2"}) {
    CAPTURE(sql);
    PlanPtr plan = planOf(sql, Dialect::Calcite);
    REQUIRE(plan);
    std::string why;
    auto text = planToSqlite(*plan, SqlFilters{}, &why);
    REQUIRE_MESSAGE(text, why);
    std::vector<rt::Row> theirs;
    REQUIRE_MESSAGE(sqlite.query(*text, theirs, error), error);
    CHECK(rt::sortedBag(theirs) == rt::sortedBag(ours(sql, Dialect::Calcite)));
  }
  CHECK_FALSE(planOf("SELECT count(*) FROM t GROUP BY 1", Dialect::Default, &error));
  CHECK(error.find("refers to an aggregate") != std::string::npos);
  CHECK_FALSE(planOf("SELECT concat(s, 'x') FROM t", Dialect::Calcite, &error));
  CHECK(error.find("q.sql:2:8: error: concat() under --dialect calcite") != std::string::npos);
  CHECK_FALSE(planOf("SELECT avg(k) OVER () FROM t", Dialect::Calcite, &error));
  CHECK(error.find("not supported") != std::string::npos);
}

TEST_CASE("dialects: the oracles' SQL spells each choice out") {
  // The plan is rendered, not the SQL: SQLite computes the DuckDB reading.
  SqliteOracle sqlite;
  std::string error;
  REQUIRE_MESSAGE(sqlite.load(database(), error), error);
  for (const Probe& p : kProbes)
    for (const auto& name : dialectNames()) {
      const Dialect d = *dialectNamed(name);
      if (d == Dialect::Calcite && std::string(p.sql).find("GROUP BY 1") != std::string::npos)
        continue;  // Calcite refuses the select list's v, not grouped
      const std::string text = p.sql;
      CAPTURE(text);
      CAPTURE(name);
      PlanPtr plan = planOf(p.sql, d);
      REQUIRE(plan);
      std::string why;
      auto rows = ours(p.sql, d, &why);
      if (!rows) continue;  // a division by zero: no result to compare
      auto sql = planToSqlite(*plan, SqlFilters{}, &why);
      REQUIRE_MESSAGE(sql, why);
      std::vector<rt::Row> theirs;
      REQUIRE_MESSAGE(sqlite.query(*sql, theirs, error), error);
      if (p.ordered)
        CHECK(*rows == theirs);
      else
        CHECK(rt::sortedBag(*rows) == rt::sortedBag(theirs));
    }
}

}  // namespace rfguard
