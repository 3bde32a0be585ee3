// Columns of plans: the order a scan lists them in, pruning (before and after
// the rewrite rounds), free columns of subqueries, shared ids, outputs kept
// current, and the column-reference helpers.
#include <doctest/doctest.h>

#include <functional>

#include "grammar/sql.h"
#include "rules/normalize.h"
#include "tests/unit/frontend_test_support.h"

using namespace rfguard;
using namespace rfguard::frontend_testing;

TEST_CASE("a scan lists its columns in the table's order, however they are asked for") {
  Loaded l = load("SELECT d, k FROM b");
  REQUIRE(l.ok);
  PlanPtr scan = l.queries[0].plan;
  while (scan->op != PlanOp::Scan) scan = scan->children[0];
  auto ids = [&] {
    std::vector<std::string> out;
    for (const auto& c : scan->output) out.push_back(c.id);
    return out;
  };
  scan->scanColumns = {"b.k", "b.d"};
  computeOutput(*scan);
  CHECK(ids() == std::vector<std::string>{"b.k", "b.d"});
  scan->scanColumns = {"b.d", "b.k"};  // out of order: the same output
  computeOutput(*scan);
  CHECK(ids() == std::vector<std::string>{"b.k", "b.d"});
  scan->scanColumns = {"b.v"};
  computeOutput(*scan);
  CHECK(ids() == std::vector<std::string>{"b.v"});
}

// PruneScanColumns lists the table's needed columns in table order, sharing the
// table's column ids, whatever list the scan had (the binder's, or plan JSON's);
// a list that is already that is left alone.
TEST_CASE("column pruning lists the needed columns in table order, whatever the scan listed") {
  auto pruned = [](std::vector<std::string> listed, bool rebuilt = true) {
    Loaded l = load("SELECT b.d, b.k + 1 AS x FROM b");
    REQUIRE(l.ok);
    PlanPtr plan = l.queries[0].plan;
    PlanPtr scan = plan;
    while (scan->op != PlanOp::Scan) scan = scan->children[0];
    if (!listed.empty()) scan->scanColumns.assign(listed.begin(), listed.end());
    refreshOutputs(*plan);
    NormalizeReport report;
    normalize(plan, NormalizeOptions{}, report);
    scan = plan;
    while (scan->op != PlanOp::Scan) scan = scan->children[0];
    std::vector<std::string> ids;
    for (const auto& id : scan->scanColumns) {
      // A list made by the binder or by the pruning holds the very strings of
      // the table's columns, not copies.
      bool shared = false;
      for (const auto& c : scan->tableColumns) shared = shared || &c.id.str() == &id.str();
      CHECK(shared == rebuilt);
      ids.push_back(id);
    }
    return ids;
  };
  const std::vector<std::string> want{"b.k", "b.d"};
  CHECK(pruned({}) == want);                     // the binder's list: all, in order
  CHECK(pruned({"b.k", "b.d"}, false) == want);  // already right: left as it is
  CHECK(pruned({"b.d", "b.v", "b.k"}) == want);  // out of order
  CHECK(pruned({"b.d"}) == want);                // a needed column missing
  CHECK(pruned({"b.k", "b.k", "b.d"}) == want);  // listed twice
}

// Pruning runs before the rewrite rounds (they then carry only the columns the
// query reads) and again after them: decorrelating the EXISTS drops the
// subquery's `SELECT *`, the last reader of b.v and b.d.
TEST_CASE("column pruning runs before the rewrite rounds and again after them") {
  Loaded l = load("SELECT a.k FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.k)");
  REQUIRE(l.ok);
  PlanPtr plan = l.queries[0].plan;
  std::vector<std::string> rules;
  std::vector<std::vector<std::string>> scans;  // each step's scan lists, in plan order
  NormalizeOptions options;
  options.onStep = [&](const std::string& rule, const PlanNode& root) {
    rules.push_back(rule);
    std::vector<std::string> lists;
    std::function<void(const PlanNode&)> visit = [&](const PlanNode& n) {
      if (n.op == PlanOp::Scan) {
        std::string list = n.alias + ":";
        for (const auto& c : n.output) list += " " + c.id.str();
        lists.push_back(list);
      }
      forEachExpr(n, [&](const ExprPtr& e) {
        if (e->kind == ExprKind::Subquery && e->plan) visit(*e->plan);
        for (const auto& a : e->args)
          if (a->kind == ExprKind::Subquery && a->plan) visit(*a->plan);
      });
      for (const auto& c : n.children) visit(*c);
    };
    visit(root);
    scans.push_back(lists);
  };
  NormalizeReport report;
  normalize(plan, options, report);
  CHECK(rules == std::vector<std::string>{"NormalizeSubqueries", "PruneScanColumns",
                                          "DecorrelateExists", "PruneScanColumns"});
  CHECK(report.fired.at("PruneScanColumns") == 2);
  REQUIRE(scans.size() == 4);
  CHECK(scans[0] == std::vector<std::string>{"b: b.k b.v b.d", "a: a.k a.v"});
  CHECK(scans[1] == std::vector<std::string>{"b: b.k b.v b.d", "a: a.k"});
  CHECK(scans[2] == std::vector<std::string>{"a: a.k", "b: b.k b.v b.d"});
  CHECK(scans[3] == std::vector<std::string>{"a: a.k", "b: b.k"});
  // Switched off, it runs at neither end.
  Loaded again = load("SELECT a.k FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.k)");
  CHECK(normalizeWithout(again, "PruneScanColumns").fired.count("PruneScanColumns") == 0);
}

// A plan's free columns: read in it (or free in a subquery inside it) and
// produced by none of its nodes: a correlated subquery's references outside.
TEST_CASE("free columns of plans with nested correlated subqueries") {
  Loaded l = load(
      "SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND "
      "EXISTS (SELECT 1 FROM b AS c WHERE c.v = a.v AND c.k = b.k))");
  REQUIRE(l.ok);
  std::vector<const PlanNode*> subplans;  // outermost first
  std::function<void(const Expr&)> find = [&](const Expr& e) {
    if (e.kind == ExprKind::Subquery && e.plan) {
      subplans.push_back(e.plan.get());
      forEachNode(*e.plan,
                  [&](const PlanNode& n) { forEachExpr(n, [&](const ExprPtr& x) { find(*x); }); });
      return;
    }
    for (const auto& a : e.args) find(*a);
  };
  forEachExpr(*l.queries[0].plan->children[0], [&](const ExprPtr& e) { find(*e); });
  REQUIRE(subplans.size() >= 2);
  CHECK(freeColumns(*l.queries[0].plan).empty());
  CHECK(freeColumns(*subplans[0]) == std::set<std::string>{"a.k", "a.v"});
  CHECK(freeColumns(*subplans.back()) == std::set<std::string>{"a.v", "b.k"});
}

TEST_CASE("a table read under its own name shares the catalog's column ids") {
  Loaded l = load("SELECT b.k FROM b; SELECT x.k FROM b AS x, b");
  REQUIRE(l.ok);
  const std::vector<ColumnId>* own = l.catalog.ownColumnIds("b");
  REQUIRE(own);
  CHECK(std::vector<std::string>(own->begin(), own->end()) ==
        std::vector<std::string>{"b.k", "b.v", "b.d"});
  CHECK(l.catalog.ownColumnIds("nosuch") == nullptr);
  std::vector<const PlanNode*> scans;
  for (const auto& q : l.queries)
    forEachNode(*q.plan, [&](const PlanNode& n) {
      if (n.op == PlanOp::Scan) scans.push_back(&n);
    });
  REQUIRE(scans.size() == 3);
  for (const PlanNode* scan : scans) {
    REQUIRE(scan->tableColumns.size() == 3);
    const bool unaliased = scan->alias == "b";
    CHECK(scan->tableColumns[0].id == scan->alias + ".k");
    CHECK(scan->tableColumns[2].id == scan->alias + ".d");
    // The same text, and for an unaliased scan the very same string.
    CHECK((&scan->tableColumns[1].id.str() == &(*own)[1].str()) == unaliased);
    CHECK(scan->primaryKey.empty());
  }
}

TEST_CASE("outputs follow every change, though unchanged nodes are not recomputed") {
  Loaded l = load("SELECT a.k, b.k FROM a JOIN b ON a.k = b.k WHERE a.v = 1");
  REQUIRE(l.ok);
  PlanPtr join = l.queries[0].plan;
  while (join->op != PlanOp::Join) join = join->children[0];
  REQUIRE(join->output.size() >= 2);
  auto nullable = [](const PlanNode& n, const std::string& id) {
    for (const auto& c : n.output)
      if (c.id == id) return c.nullable;
    FAIL("no column " << id);
    return false;
  };
  CHECK_FALSE(nullable(*join, "b.k"));
  // A join type changed in place: the next refresh sees it.
  join->joinType = JoinType::Left;
  refreshOutputs(*l.queries[0].plan);
  CHECK(nullable(*join, "b.k"));
  // A child replaced by a copy that is then changed: the parent follows.
  PlanPtr copy = clonePlan(*join);
  PlanPtr filter = std::make_shared<PlanNode>();
  filter->op = PlanOp::Filter;
  filter->predicate = makeBool(true);
  filter->children = {copy};
  computeOutput(*filter);
  CHECK(filter->output.size() == join->output.size());
  CHECK(nullable(*filter, "b.k"));
  copy->joinType = JoinType::LeftSemi;  // outputs the left side only
  computeOutput(*copy);
  computeOutput(*filter);
  CHECK(filter->output.size() == copy->output.size());
  CHECK(std::none_of(filter->output.begin(), filter->output.end(),
                     [](const Column& c) { return c.id == "b.k"; }));
  // Swapped inputs: the join's columns follow the new order.
  std::swap(join->children[0], join->children[1]);
  computeOutput(*join);
  CHECK(join->output.front().id.rfind("b.", 0) == 0);
}

TEST_CASE(
    "a recomputed output is exactly its inputs' columns; an unchanged one keeps its version") {
  Loaded l = load("SELECT a.k, b.k FROM a JOIN b ON a.k = b.k");
  REQUIRE(l.ok);
  PlanPtr join = l.queries[0].plan;
  while (join->op != PlanOp::Join) join = join->children[0];
  PlanNode& left = *join->children[0];
  REQUIRE(left.op == PlanOp::Scan);
  REQUIRE(left.scanColumns.size() >= 2);
  auto ids = [](const std::vector<Column>& cs) {
    std::vector<std::string> v;
    for (const auto& c : cs) v.push_back(c.id.str());
    return v;
  };
  auto inputs = [&] {
    auto v = ids(join->children[0]->output);
    for (const auto& id : ids(join->children[1]->output)) v.push_back(id);
    return v;
  };
  CHECK(ids(join->output) == inputs());
  const uint64_t version = join->outputStamp.version;
  refreshOutputs(*l.queries[0].plan);
  CHECK(join->outputStamp.version == version);
  // The left input loses its first column: everything after it moves up.
  left.scanColumns.erase(left.scanColumns.begin());
  computeOutput(left);
  computeOutput(*join);
  CHECK(ids(join->output) == inputs());
  CHECK(join->outputStamp.version != version);
  // Right join: the left input's columns become nullable, the right's stay.
  join->joinType = JoinType::Right;
  computeOutput(*join);
  CHECK(ids(join->output) == inputs());
  const size_t leftCount = join->children[0]->output.size();
  for (size_t i = 0; i < join->output.size(); ++i)
    CHECK(join->output[i].nullable ==
          (i < leftCount || join->children[1]->output[i - leftCount].nullable));
}

TEST_CASE("column-reference helpers agree with columnsOf") {
  Loaded l = load(
      "SELECT a.k FROM a JOIN b ON a.k = b.k WHERE a.v + b.v > 1 AND 2 > 1 AND "
      "a.k IN (SELECT b.k FROM b WHERE b.v = a.v)");
  REQUIRE(l.ok);
  std::vector<ExprPtr> exprs;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& n) {
    forEachExpr(n, [&](const ExprPtr& e) {
      for (const auto& c : conjuncts(e)) exprs.push_back(c);
    });
    for (const auto& c : n.children) walk(*c);
  };
  walk(*l.queries[0].plan);
  REQUIRE(exprs.size() >= 3);
  PlanPtr scanA = l.queries[0].plan;
  while (scanA->op != PlanOp::Scan) scanA = scanA->children[0];
  for (const auto& e : exprs) {
    auto cols = columnsOf(*e);
    CHECK(hasColumnRef(*e) == !cols.empty());
    size_t asked = 0;
    CHECK(allColumnRefs(*e, [&](const std::string& c) { return cols.count(c) > 0 && ++asked; }));
    CHECK(asked >= cols.size());
    CHECK(producesColumnsOf(*scanA, *e) == producesAll(*scanA, cols));
  }
  // The IN conjunct reads a.k; the subquery's columns (b.v = a.v) are not its own.
  bool sawIn = false;
  for (const auto& e : exprs)
    if (hasSubquery(*e)) {
      sawIn = true;
      CHECK(columnsOf(*e) == std::set<std::string>{"a.k"});
      CHECK(allColumnRefs(*e, [](const std::string& c) { return c == "a.k"; }));
    }
  CHECK(sawIn);
  CHECK_FALSE(hasColumnRef(*makeBool(true)));
}
