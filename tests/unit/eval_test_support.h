#pragma once
// Helpers shared by the reference evaluator's unit tests.
#include <doctest/doctest.h>

#include <string>

#include "evaluation/evaluator.h"
#include "rf_test_support.h"

namespace rfguard::testing {

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

}  // namespace rfguard::testing
