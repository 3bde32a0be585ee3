// The grammar's operator, set-operation and join lists, folded by the binder.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ir/plan.h"
#include "ir/printers.h"
#include "tests/unit/frontend_test_support.h"

using namespace rfguard;
using namespace rfguard::frontend_testing;

// The grammar reads operator chains as lists (no left recursion, so ANTLR
// predicts them from one token); the binder folds them into the tree a
// left-recursive grammar built: same shape, same locations, same first error.
TEST_CASE("operator lists fold by precedence and to the left") {
  Loaded l = load(
      "SELECT a.k - 1 - a.v * 2 * a.k + -a.v AS x, a.k % 3 || 'x' || a.v + 1 AS y FROM a "
      "WHERE a.k = 1 OR a.v = 2 AND NOT a.k = 3 AND a.v BETWEEN 1 AND 2 OR a.k > 0;"
      "SELECT k FROM a UNION SELECT k FROM b INTERSECT SELECT v FROM b EXCEPT ALL SELECT v FROM a;"
      "SELECT 1 FROM a JOIN b ON a.k = b.k LEFT JOIN a AS c ON c.v = b.v CROSS JOIN b AS d");
  REQUIRE_MESSAGE(l.ok, l.diags.render());
  std::string first = planToText(*l.queries[0].plan);
  CHECK(first.find("[q.x := a.k - 1 - a.v * 2 * a.k + -a.v, q.y := a.k % 3 || 'x' || (a.v + 1)]") !=
        std::string::npos);
  CHECK(first.find("a.k = 1 OR (a.v = 2 AND NOT (a.k = 3) AND a.v >= 1 AND a.v <= 2) OR a.k > 0") !=
        std::string::npos);
  // ((x - 1) - ((v * 2) * k)) + (-v): left-deep within a level.
  const Expr& x = *l.queries[0].plan->exprs[0].expr;
  REQUIRE(x.name == "+");
  CHECK(x.args[1]->kind == ExprKind::Call);
  CHECK(x.args[1]->name == "negate");
  REQUIRE(x.args[0]->name == "-");
  CHECK(x.args[0]->args[0]->name == "-");
  CHECK(x.args[0]->args[1]->name == "*");
  CHECK(x.args[0]->args[1]->args[0]->name == "*");
  // INTERSECT binds tighter than UNION and EXCEPT; qualifiers in binding order.
  std::vector<std::string> ops;
  forEachNode(*l.queries[1].plan, [&](const PlanNode& n) {
    if (n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except)
      ops.push_back(nodeLabel(n));
  });
  CHECK(ops == std::vector<std::string>{"Except #1 ALL [q_7.k]", "Union #2 DISTINCT [q_5.k]",
                                        "Intersect #5 DISTINCT [q_4.k]"});
  // Joins left-deep, in the order written.
  const PlanNode* j = l.queries[2].plan->children[0].get();
  CHECK(j->joinType == JoinType::Cross);
  CHECK(j->children[0]->joinType == JoinType::Left);
  CHECK(j->children[0]->children[0]->joinType == JoinType::Inner);

  CHECK(firstError("SELECT a.k + 'x' - nosuch FROM a") ==
        "t.sql:2:8: error: operator + cannot take int and varchar");
  CHECK(firstError("SELECT b.d + a.k FROM a, b") ==
        "t.sql:2:14: error: date + integer needs an integer constant (a number of days)");
  CHECK(firstError("SELECT k FROM a INTERSECT SELECT k, v FROM b UNION SELECT d FROM b") ==
        "t.sql:2:17: error: intersect needs the same number of columns on both sides, got 1 and 2");
  // The AND below the OR is bound (and fails) before the OR checks its operands.
  CHECK(firstError("SELECT 1 FROM a WHERE a.k OR a.v = 1 AND nosuch") ==
        "t.sql:2:42: error: unknown column \"nosuch\"");
  CHECK(firstError("SELECT 1 FROM a WHERE a.k OR a.v = 1") ==
        "t.sql:2:23: error: operand of or must be boolean, got int");
  // ILIKE and SIMILAR are reserved (as in PostgreSQL): a pattern, never a bare alias.
  CHECK(firstError("SELECT a.k ilike FROM a").find("error: syntax error") != std::string::npos);
  CHECK(
      load(
          "SELECT a.k AS \"ilike\", a.v AS escape FROM a WHERE CAST(a.v AS varchar) NOT ILIKE 'x%'")
          .ok);
}

TEST_CASE("long operator, set operation and join lists count as deep as they bind") {
  std::string sum = "SELECT a.k", unions = "SELECT 1", joins = "SELECT 1 FROM a";
  for (int i = 0; i < 2000; ++i) {
    sum += " + a.k";
    unions += " UNION ALL SELECT 1";
    joins += " CROSS JOIN a AS a" + std::to_string(i);
  }
  for (const std::string& q : {sum + " FROM a", unions, joins}) {
    CHECK(firstError(q).find("error: expression too deeply nested (parse tree deeper than 1500)") !=
          std::string::npos);
  }
  // Under the limit they bind.
  std::string shorter = "SELECT a.k";
  for (int i = 0; i < 1000; ++i) shorter += " + a.k";
  CHECK(load(shorter + " FROM a").ok);
}
