// The per-operator movement table: how a predicate over an operator's output
// enters its inputs, for every passage.
#include <doctest/doctest.h>

#include "ir/movement.h"
#include "tests/unit/rf_test_support.h"

using namespace rfguard;
using namespace rfguard::testing;

namespace {

/// The first node of type `op` in the plan.
const PlanNode& nodeOf(const Planned& p, PlanOp op) {
  const PlanNode* n = find(*p.queries[0].plan, op);
  REQUIRE(n);
  return *n;
}

/// The bound plan of one query over tables a and b, not normalised.
Planned bound(const std::string& sql) {
  Planned p;
  Catalog catalog;
  Diagnostics diags;
  bool ok = loadSql("CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int);" + sql, "t.sql",
                    catalog, p.queries, diags);
  REQUIRE_MESSAGE(ok, diags.render());
  return p;
}

ExprPtr col(const PlanNode& n, size_t i) {
  const Column& c = n.output.at(i);
  return makeColumn(c.id, c.type, c.nullable);
}

}  // namespace

TEST_CASE("movement table: one row per operator, in order") {
  for (PlanOp op : {PlanOp::Scan, PlanOp::Filter, PlanOp::Project, PlanOp::Join, PlanOp::Aggregate,
                    PlanOp::Window, PlanOp::Sort, PlanOp::Limit, PlanOp::Union, PlanOp::Intersect,
                    PlanOp::Except, PlanOp::Values})
    CHECK(movementOf(op).op == op);
  CHECK(movementOf(PlanOp::Limit).passage == Passage::Blocked);
  CHECK(movementOf(PlanOp::Sort).passage == Passage::Unchanged);
  CHECK(movementOf(PlanOp::Join).passage == Passage::JoinSides);
}

TEST_CASE("movement: projections substitute, random() stays") {
  Planned p = bound("SELECT a.k + 1 AS s, random() AS r FROM a");
  const PlanNode& proj = nodeOf(p, PlanOp::Project);
  ExprPtr below = moveInto(proj, 0, col(proj, 0));
  REQUIRE(below);
  CHECK(exprToString(*below) == "a.k + 1");
  CHECK_FALSE(moveInto(proj, 0, col(proj, 1)));
}

TEST_CASE("movement: group keys of every grouping set only; never into a global aggregate") {
  Planned rollup = plan("SELECT a.k, a.v, count(*) FROM a GROUP BY ROLLUP(a.k, a.v)");
  const PlanNode& agg = nodeOf(rollup, PlanOp::Aggregate);
  CHECK_FALSE(moveInto(agg, 0, col(agg, 0)));  // k is NULL in the grand total
  Planned plain = plan("SELECT a.k, count(*) FROM a GROUP BY a.k");
  const PlanNode& g = nodeOf(plain, PlanOp::Aggregate);
  REQUIRE(moveInto(g, 0, col(g, 0)));
  CHECK(exprToString(*moveInto(g, 0, col(g, 0))) == "a.k");
  CHECK_FALSE(moveInto(g, 0, col(g, 1)));  // count(*) is not a key
  Planned global = plan("SELECT count(*) FROM a");
  CHECK_FALSE(opensInto(nodeOf(global, PlanOp::Aggregate), 0));
}

TEST_CASE("movement: set operations map by position; EXCEPT's right input is closed") {
  Planned u = plan("SELECT a.k FROM a UNION ALL SELECT b.v FROM b");
  const PlanNode& un = nodeOf(u, PlanOp::Union);
  ExprPtr out = col(un, 0);
  ExprPtr second = moveInto(un, 1, out);
  REQUIRE(second);
  CHECK(exprEquals(second, col(*un.children[1], 0)));
  Planned e = plan("SELECT a.k FROM a EXCEPT SELECT b.k FROM b");
  const PlanNode& ex = nodeOf(e, PlanOp::Except);
  CHECK(opensInto(ex, 0));
  CHECK_FALSE(opensInto(ex, 1));
  CHECK_FALSE(moveInto(ex, 1, col(ex, 0)));
}

TEST_CASE("movement: LIMIT and joins are not the table's to open") {
  Planned p = plan("SELECT * FROM (SELECT a.k FROM a LIMIT 1) x JOIN b ON x.k = b.k");
  const PlanNode& lim = nodeOf(p, PlanOp::Limit);
  CHECK_FALSE(moveInto(lim, 0, col(lim, 0)));
  const PlanNode& join = nodeOf(p, PlanOp::Join);
  CHECK_FALSE(opensInto(join, 0));
  CHECK(withCondition(JoinType::Cross, true) == JoinType::Inner);
  CHECK(withCondition(JoinType::Inner, false) == JoinType::Cross);
  CHECK(withCondition(JoinType::Left, false) == JoinType::Left);
}
