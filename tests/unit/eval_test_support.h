#pragma once
// Helpers shared by the reference evaluator's unit tests.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>

#include "evaluation/evaluator.h"
#include "rf_test_support.h"
#include "verifier/plan_sql.h"
#ifdef RFGUARD_HAVE_DUCKDB
#include "tools/cli/engine_oracle.h"
#endif

namespace rfguard::testing {

/// A row of two integers, either NULL.
inline rt::Row intPair(std::optional<int64_t> k, std::optional<int64_t> v) {
  auto value = [](std::optional<int64_t> x) { return x ? rt::Value(*x) : rt::null(); };
  return {value(k), value(v)};
}

#ifdef RFGUARD_HAVE_DUCKDB
/// The linked DuckDB with `db` loaded, its tables typed as plan() declares
/// a (k, v) and b (k, v).
inline std::unique_ptr<SqlOracle> duckdbWith(const rt::Database& db) {
  std::string error;
  auto duck = engine::openOracle("duckdb", error);
  REQUIRE_MESSAGE(duck, error);
  SqlTableTypes types;
  collectSqlTypes(*plan("SELECT * FROM a, b").queries[0].plan, types);
  REQUIRE_MESSAGE(duck->load(db, types, error), error);
  return duck;
}
#endif

/// `plan` evaluated on `db` without runtime filters; an evaluation error fails the test.
inline rt::Relation runPlan(const PlanNode& plan, const rt::Database& db) {
  rt::Relation out;
  std::string error;
  REQUIRE_MESSAGE(rt::evaluate(plan, db, {}, out, error), error);
  return out;
}

/// The same for the first query of `sql`, planned as plan() plans it.
inline rt::Relation run(const std::string& sql, const rt::Database& db) {
  return runPlan(*plan(sql).queries[0].plan, db);
}

/// `sql` as written run in `engine` and evaluated by rfguard (as plan()
/// plans it) on `db`, which `engine` holds: the same bag. Returns the engine's rows.
inline std::vector<rt::Row> sameAsEngine(SqlOracle& engine, const std::string& sql,
                                         const rt::Database& db) {
  CAPTURE(sql);
  std::string error;
  std::vector<rt::Row> theirs;
  REQUIRE_MESSAGE(engine.query(sql, theirs, error), error);
  rt::Relation ours = run(sql, db);
  CHECK(rt::sortedBag(ours.rows) == rt::sortedBag(theirs));
  return theirs;
}

}  // namespace rfguard::testing
