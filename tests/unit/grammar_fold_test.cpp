// The grammar's operator, set-operation and join lists, folded by the binder.
#include <doctest/doctest.h>

#include <functional>
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
  // The parser measures the depth as rules exit and reports where the deepest
  // rule starts: the sum's first operand, which the fold puts at the bottom.
  CHECK(firstError(sum + " FROM a").rfind("t.sql:2:8: error: expression too deeply nested", 0) ==
        0);
}

// The parser builds no parse tree: the binder reads labelled fields, and a
// rule's text comes from its tokens, joined without the whitespace and
// comments between them, as a parse tree's getText() gave it.
TEST_CASE("rule texts come from the tokens, as the parse tree gave them") {
  CHECK(firstError("SELECT CAST(a.k AS foo ( 10 , /* c */ 2 )) FROM a") ==
        "t.sql:2:20: error: unknown type foo(10,2)");
  CHECK(firstError("CREATE TABLE c (x double  precision, y nosuch (3))") ==
        "t.sql:2:40: error: unknown type nosuch(3)");
  // Labelled parts of every statement kind bind as before.
  Loaded l = load(
      "CREATE TABLE c (x int NOT NULL, y varchar(3), PRIMARY KEY (x)) WITH (rows = 10, "
      "runtime_filter = false, distribution_key = 'x', ndv_y = 4);"
      "CREATE VIEW w (p, q) AS SELECT c.x, c.y FROM c;"
      "WITH t (k) AS (SELECT w.p FROM w) SELECT t.k FROM t LEFT SEMI JOIN b ON t.k = b.k "
      "LEFT ANTI JOIN a USING (k) ORDER BY 1 DESC NULLS LAST LIMIT 3;"
      "SELECT sum(a.v) OVER (PARTITION BY a.k ORDER BY a.v ROWS BETWEEN 2 PRECEDING AND CURRENT "
      "ROW) FROM a GROUP BY GROUPING SETS ((a.k, a.v), (a.k)), ROLLUP (a.v), CUBE (a.k)");
  REQUIRE_MESSAGE(l.ok, l.diags.render());
  const TableDef* c = l.catalog.table("c");
  REQUIRE(c);
  CHECK(c->rows == 10);
  CHECK_FALSE(c->runtimeFilter);
  CHECK(c->distributionKey == "x");
  CHECK(c->columns[0].primaryKey);
  CHECK(c->columns[1].ndv == 4);
  CHECK(c->columns[1].type.toString() == "varchar(3)");
  REQUIRE(l.catalog.view("w"));
  CHECK(l.catalog.view("w")->columnNames == std::vector<std::string>{"p", "q"});
  std::string text = planToText(*l.queries[0].plan);
  CHECK(text.find("LEFT SEMI JOIN ON t.p = b.k") != std::string::npos);
  CHECK(text.find("LEFT ANTI JOIN ON t.p = a.k") != std::string::npos);
  CHECK(text.find("Sort #2 [q.k DESC NULLS LAST]") != std::string::npos);
  CHECK(text.find("limit=3") != std::string::npos);
}

// Alternatives that began with the same tokens cost ANTLR a prediction each
// time; the grammar now chooses from one token and the binder tells apart what
// the old alternatives did. Same plans, and the old syntax errors are errors
// with a location.
TEST_CASE("predicates, qualified stars and parenthesised relations choose from one token") {
  Loaded l = load(
      "SELECT a.k FROM a WHERE a.k IS NULL AND a.v IS NOT NULL AND a.k IS DISTINCT FROM a.v "
      "AND a.k IS NOT DISTINCT FROM 1 AND a.k NOT BETWEEN 1 AND 2 AND a.k NOT IN (1, 2) "
      "AND a.k IN (SELECT b.k FROM b) AND a.v NOT IN ((SELECT 1));"
      "SELECT 1 FROM a WHERE CAST(a.v AS varchar) NOT LIKE 'a%' ESCAPE '!' "
      "AND CAST(a.k AS varchar) NOT SIMILAR TO 'x' AND CAST(a.k AS varchar) ILIKE 'y';"
      "SELECT x.*, b.k AS bk FROM a AS x, b;"
      "SELECT 1 FROM (a JOIN b ON a.k = b.k), (SELECT 1 AS one) AS s, (VALUES (1, 2)) AS v(p, q)");
  REQUIRE_MESSAGE(l.ok, l.diags.render());
  REQUIRE(l.queries.size() == 4);
  std::string where = planToText(*l.queries[0].plan);
  CHECK(where.find("a.k IS NULL AND a.v IS NOT NULL AND a.k IS DISTINCT FROM a.v AND a.k <=> 1 "
                   "AND NOT (a.k >= 1 AND a.k <= 2) AND NOT (a.k IN (1, 2))") != std::string::npos);
  // IN (query) is a subquery predicate, and so is IN ((query)): a parenthesised
  // query is a query first, as when IN (query) was an alternative before IN (list).
  std::vector<std::string> subqueries;
  std::function<void(const Expr&, const std::string&)> visit = [&](const Expr& x,
                                                                   const std::string& above) {
    if (x.kind == ExprKind::Subquery)
      subqueries.push_back(above + (x.subquery == SubqueryKind::In ? "IN" : "scalar"));
    for (const auto& a : x.args) visit(*a, x.kind == ExprKind::Call ? x.name + " " : "");
  };
  forEachNode(*l.queries[0].plan,
              [&](const PlanNode& n) { forEachExpr(n, [&](const ExprPtr& e) { visit(*e, ""); }); });
  CHECK(subqueries == std::vector<std::string>{"and IN", "not IN"});
  CHECK(planToText(*l.queries[1].plan)
            .find("NOT (CAST(a.v AS varchar) LIKE 'a%' ESCAPE '!') AND NOT (CAST(a.k AS varchar) "
                  "SIMILAR TO 'x') AND CAST(a.k AS varchar) ILIKE 'y'") != std::string::npos);
  CHECK(planToText(*l.queries[2].plan).find("[q.k := x.k, q.v := x.v, q.bk := b.k]") !=
        std::string::npos);
  int scans = 0, values = 0;
  forEachNode(*l.queries[3].plan, [&](const PlanNode& n) {
    scans += n.op == PlanOp::Scan;
    values += n.op == PlanOp::Values;
  });
  CHECK(scans == 2);
  CHECK(values == 2);  // VALUES, and the SELECT without FROM

  // `t.*` is a whole select item or an error where it stands.
  CHECK(firstError("SELECT a.* AS z FROM a") == "t.sql:2:15: error: a.* takes no alias");
  CHECK(firstError("SELECT a.* + 1 FROM a") ==
        "t.sql:2:8: error: a.* stands for columns only as a whole select item");
  CHECK(firstError("SELECT count(a.*) FROM a") ==
        "t.sql:2:14: error: a.* stands for columns only as a whole select item");
  CHECK(firstError("SELECT nosuch.* FROM a") ==
        "t.sql:2:8: error: unknown table or alias \"nosuch\" in nosuch.*");
  // OFFSET is reserved (as in PostgreSQL): an OFFSET clause, never an alias.
  CHECK(firstError("SELECT a.k offset FROM a").find("error: syntax error at 'FROM'") !=
        std::string::npos);
  CHECK(firstError("SELECT a.k FROM a offset").find("error: syntax error") != std::string::npos);
  CHECK(load("SELECT a.k AS \"offset\" FROM a offset 2").ok);
}
