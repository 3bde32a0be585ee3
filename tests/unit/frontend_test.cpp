// Types, the binder's errors, normalisation invariants and the JSON round trip.
#include <doctest/doctest.h>

#include <functional>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "rules/normalize.h"
#include "tests/unit/frontend_test_support.h"

using namespace rfguard;
using namespace rfguard::frontend_testing;

TEST_CASE("type names parse and print canonically") {
  CHECK(parseType("INTEGER")->toString() == "int");
  CHECK(parseType("decimal(15,2)")->toString() == "decimal(15,2)");
  CHECK(parseType("varchar(25)")->toString() == "varchar(25)");
  CHECK(parseType("float")->kind == TypeKind::Double);
  CHECK(parseType("string")->kind == TypeKind::Text);
  CHECK_FALSE(parseType("decimal(2,5)").has_value());
  CHECK_FALSE(parseType("int(3)").has_value());
  CHECK_FALSE(parseType("blob").has_value());
  CHECK_FALSE(parseType("decimal(1,2,3)").has_value());
  CHECK(Type::of(TypeKind::Double).isFloating());
  CHECK(Type::of(TypeKind::Boolean).isOrdered());  // false < true
  CHECK_FALSE(Type::of(TypeKind::Interval).isOrdered());
}

TEST_CASE("binder errors name file:line:col") {
  CHECK(firstError("SELECT nosuch FROM a") == "t.sql:2:8: error: unknown column \"nosuch\"");
  CHECK(firstError("SELECT k FROM a, b") ==
        "t.sql:2:8: error: column reference \"k\" is ambiguous (a.k, b.k)");
  CHECK(firstError("SELECT * FROM zz") == "t.sql:2:15: error: unknown table \"zz\"");
  CHECK(firstError("SELECT k FROM a UNION SELECT k, v FROM b") ==
        "t.sql:2:17: error: union needs the same number of columns on both sides, got 1 and 2");
  CHECK(firstError("SELECT b.d * 2 FROM b") ==
        "t.sql:2:8: error: operator * cannot take date and int");
  // date + integer counts days, for an integer constant only.
  CHECK(firstError("SELECT b.d + 1 FROM b") == "");
  CHECK(firstError("SELECT b.d - b.k FROM b") ==
        "t.sql:2:14: error: date - integer needs an integer constant (a number of days)");
  CHECK(firstError("SELECT k FROM a WHERE") ==
        "t.sql:2:22: error: syntax error: unexpected end of statement");
}

TEST_CASE("UTF-8 is checked against Unicode's well-formed byte sequences") {
  auto literal = [](const std::string& bytes) { return "SELECT '" + bytes + "' AS s FROM a"; };
  // Well formed: the boundaries of each row of Unicode's table 3-7.
  for (const char* ok : {"\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF",
                         "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
    INFO(ok);
    CHECK(load(literal(ok)).ok);
  }
  // Ill formed: overlong forms, surrogates, above U+10FFFF, stray and cut bytes.
  for (const char* bad :
       {"\xC0\xAF", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xED\xBF\xBF", "\xF0\x8F\xBF\xBF",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF6\xAC\xBA\xBB", "\xFF", "\x80", "\xE2\x82"}) {
    INFO(bad);
    CHECK(firstError(literal(bad)) == "t.sql:2:9: error: input is not valid UTF-8 text (byte 87)");
    // A message quoting such bytes (a JSON parser's excerpt) is escaped, so
    // that the JSON and SARIF writers can write it.
    CHECK(oneLine(std::string("x") + bad + "y").find("\\x") != std::string::npos);
  }
  CHECK(oneLine(std::string("caf\xC3\xA9 \xCC\0!", 9)) == "caf\xC3\xA9 \\xcc\\x00!");
}

TEST_CASE("ORDER BY and GROUP BY positions outside the select list are errors, not crashes") {
  CHECK(firstError("SELECT k FROM a ORDER BY 0") ==
        "t.sql:2:26: error: ORDER BY position 0 is not in the select list");
  CHECK(firstError("SELECT k FROM a ORDER BY 1, 0 DESC") ==
        "t.sql:2:29: error: ORDER BY position 0 is not in the select list");
  CHECK(firstError("SELECT k FROM a GROUP BY 12345678901234567890") ==
        "t.sql:2:26: error: GROUP BY position 12345678901234567890 is not in the select list");
}

TEST_CASE("WITH queries: nesting and expansion are bounded") {
  std::string chain = "WITH c0 AS (SELECT k FROM a)";
  for (int i = 1; i < 100; ++i)
    chain += ", c" + std::to_string(i) + " AS (SELECT k FROM c" + std::to_string(i - 1) + ")";
  CHECK(firstError(chain + " SELECT k FROM c99").find("WITH queries nested more than 64 deep") !=
        std::string::npos);
  std::string doubling = "WITH c0 AS (SELECT k FROM a)";
  for (int i = 1; i <= 12; ++i)
    doubling += ", c" + std::to_string(i) + " AS (SELECT x.k FROM c" + std::to_string(i - 1) +
                " x JOIN c" + std::to_string(i - 1) + " y ON x.k = y.k)";
  CHECK(firstError(doubling + " SELECT k FROM c12")
            .find("the query references more than 5000 tables once WITH queries and views are "
                  "expanded") != std::string::npos);
  CHECK(load(doubling + " SELECT k FROM c9").ok);  // 1,534 references
}

TEST_CASE("nullability comes from NOT NULL and from outer joins") {
  Loaded l = load("SELECT a.k, b.k FROM a LEFT JOIN b ON a.k = b.k; SELECT b.k FROM b");
  REQUIRE(l.ok);
  REQUIRE(l.queries.size() == 2);
  const auto& join = *l.queries[0].plan->children[0];
  REQUIRE(join.op == PlanOp::Join);
  CHECK(join.output[2].id == "b.k");
  CHECK(join.output[2].nullable);  // NOT NULL in b, but NULL-extended by the LEFT join
  CHECK_FALSE(l.queries[1].plan->output[0].nullable);
}

TEST_CASE("views and CTEs are expanded with unique aliases") {
  Loaded l = load(
      "CREATE VIEW vb AS SELECT k FROM b; WITH x AS (SELECT k FROM a) "
      "SELECT 1 FROM x JOIN x AS y ON x.k = y.k JOIN vb ON vb.k = x.k");
  REQUIRE(l.ok);
  std::string text = planToText(*l.queries[0].plan);
  CHECK(text.find("Scan #") != std::string::npos);
  CHECK(text.find("a AS a_2") != std::string::npos);
  CHECK(verifyPlan(*l.queries[0].plan).empty());
}

TEST_CASE("normalisation keeps invariants on every corpus-like shape") {
  Loaded l = load(
      "SELECT a.k, count(*) FROM a, b WHERE a.k = b.k AND b.v IN (SELECT v FROM a) GROUP BY a.k;"
      "SELECT * FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k) AND a.v > (SELECT avg(v) "
      "FROM b);"
      "SELECT * FROM (SELECT k FROM a UNION SELECT k FROM b) u LEFT JOIN b ON u.k = b.k WHERE b.v "
      "= 1");
  REQUIRE(l.ok);
  for (auto& q : l.queries) {
    NormalizeOptions opt;
    opt.verify = true;
    NormalizeReport report;
    normalize(q.plan, opt, report);
    CHECK(report.problems.empty());
    CHECK(verifyPlan(*q.plan).empty());
  }
}

namespace {
/// Normalises the first query of `l` with `rule` switched off.
NormalizeReport normalizeWithout(Loaded& l, const std::string& rule) {
  REQUIRE(l.ok);
  NormalizeOptions opt;
  opt.disabled.insert(rule);
  NormalizeReport report;
  normalize(l.queries[0].plan, opt, report);
  return report;
}
}  // namespace

TEST_CASE("each rule can be switched off") {
  Loaded l = load("SELECT 1 FROM a, b WHERE a.k = b.k");
  CHECK(normalizeWithout(l, "PushFilterIntoJoin").fired.count("PushFilterIntoJoin") == 0);
  CHECK(planToText(*l.queries[0].plan).find("CROSS JOIN") != std::string::npos);
  CHECK(isRuleName("SimplifyOuterJoin"));
  CHECK_FALSE(isRuleName("MakeItFast"));
}

TEST_CASE("plan -> JSON -> plan -> JSON is byte-identical") {
  Loaded l = load(
      "SELECT a.k, sum(b.v) s FROM a LEFT JOIN b ON a.k = b.k WHERE b.d > DATE '2024-01-01' "
      "GROUP BY CUBE (a.k) ORDER BY s DESC LIMIT 3;"
      "SELECT k, row_number() OVER (ORDER BY v) FROM a WHERE k NOT IN (SELECT k FROM b)");
  REQUIRE(l.ok);
  for (auto& q : l.queries) {
    NormalizeReport report;
    normalize(q.plan, {}, report);
    std::string first = documentToJson(l.catalog, {q}).dump(2);
    Catalog c2;
    std::vector<Query> back;
    Diagnostics d;
    REQUIRE(readPlanDocument(first, "rt.json", c2, back, d));
    CHECK(documentToJson(c2, back).dump(2) == first);
    CHECK(planToText(*back[0].plan) == planToText(*q.plan));
  }
}

TEST_CASE("JSON errors carry the JSON pointer") {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  CHECK_FALSE(readPlanDocument(
      "{\"format\": \"rfguard-plan\", \"version\": 1, \"catalog\": {\"tables\": []},"
      " \"queries\": [{\"name\": \"q\", \"plan\": {\"id\": 1, \"op\": \"scan\","
      " \"table\": \"t\", \"alias\": \"t\", \"columns\": [], \"children\": []}}]}",
      "x.json", c, qs, d));
  REQUIRE(d.items().size() == 1);
  CHECK(d.items()[0].pointer == "/queries/0/plan/table");
}

TEST_CASE("a syntax error skips only its own statement") {
  Loaded l = load("SELECT k FROM a WHERE;\nSELECT v FROM a;\nSELEC 1;\nSELECT k FROM b");
  CHECK_FALSE(l.ok);
  REQUIRE(l.diags.items().size() == 2);
  CHECK(l.diags.items()[0].render() ==
        "t.sql:2:22: error: syntax error: unexpected end of statement");
  CHECK(l.diags.items()[1].render() == "t.sql:4:1: error: syntax error at 'SELEC'");
  REQUIRE(l.queries.size() == 2);
  CHECK(l.queries[0].name == "query2");
  CHECK(l.queries[0].loc.line == 3);
  CHECK(l.queries[1].name == "query3");  // "SELEC 1" is not recognisably a query
}

TEST_CASE("each query keeps its own text and name, whichever lexer read it") {
  // ASCII goes through the direct lexer (byte offsets), text with a non-ASCII
  // character through ANTLR's (code point offsets): the same slices either way.
  for (const std::string quote : {"x", "\xc3\xa9t\xc3\xa9"}) {
    Loaded l = load(
        "-- name: first\nSELECT k FROM a WHERE v = 1;\n\n  -- name: second\n"
        "SELECT   'Q' || '" +
        quote + "' AS s FROM b ;");
    REQUIRE(l.ok);
    REQUIRE(l.queries.size() == 2);
    CHECK(l.queries[0].name == "first");
    CHECK(l.queries[0].sql == "SELECT k FROM a WHERE v = 1");
    CHECK(l.queries[1].name == "second");
    CHECK(l.queries[1].sql == "SELECT   'Q' || '" + quote + "' AS s FROM b");
  }
}

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

// A name used again gets the first free suffix: _2, _3... skipping one the
// query wrote itself. The binder remembers where each name's search stopped
// (a WITH query expanded into 5,000 scans named `x` made it quadratic).
TEST_CASE("repeated aliases get the first free suffix, in order") {
  std::string derived;
  for (const char* alias : {"x", "x_3", "x", "x", "x", "x_2_2"}) {
    derived += std::string(derived.empty() ? "" : ", ") + "(SELECT " + alias + ".k FROM a " +
               alias + ") q" + std::to_string(derived.size());
  }
  Loaded l = load("SELECT 1 FROM " + derived + ";");
  REQUIRE_MESSAGE(l.ok, l.diags.render());
  std::vector<std::string> aliases;
  forEachNode(*l.queries[0].plan, [&](const PlanNode& n) {
    if (n.op == PlanOp::Scan) aliases.push_back(n.alias);
  });
  CHECK(aliases == std::vector<std::string>{"x", "x_3", "x_2", "x_4", "x_5", "x_2_2"});
}
