// Per-filter slices, predicate abstraction and value classes: the reductions
// that bring large plans within the bounded search (verifier/slices.h).
#include <doctest/doctest.h>

#include "rf_test_support.h"
#include "verifier/bounded.h"
#include "verifier/search_space.h"
#include "verifier/slices.h"

namespace rfguard {

namespace {

using testing::plan;

int scans(const PlanNode& n, const std::string& table) {
  int count = n.op == PlanOp::Scan && n.table == table;
  for (const auto& c : n.children) count += scans(*c, table);
  return count;
}

const ColumnSpec& column(const SearchSpace& s, const std::string& table, const std::string& name) {
  for (const auto& t : s.tables)
    if (t.name == table)
      for (const auto& c : t.columns)
        if (c.name == name) return c;
  FAIL("no column " << table << "." << name);
  return s.tables[0].columns[0];
}

/// A plan over a fact table f and dimensions x, y, z, w, s (k, a), joins as written.
PlanPtr star(const std::string& sql) {
  SessionOptions so;
  keepJoinsAsWritten(so.normalize);
  Session session(so);
  Diagnostics diags;
  std::string schema = "CREATE TABLE f (d0 int, d1 int, d2 int, d3 int, q int);";
  for (const char* t : {"x", "y", "z", "w", "s"})
    schema += std::string("CREATE TABLE ") + t + " (k int, a int);";
  REQUIRE_MESSAGE(session.loadAs(schema + sql, "star.sql", false, diags), diags.render());
  session.run();
  return session.queries()[0].query.plan;
}

/// The slice of the filter whose build side scans w; the plan must decompose.
Slice sliceFromW(const PlanNode& plan, bool dropJoins = true) {
  std::string why;
  const std::vector<Slice> slices = filterSlices(plan, why, dropJoins);
  REQUIRE(why.empty());
  for (const auto& s : slices) {
    const PlanNode* producer = nullptr;
    std::function<void(const PlanNode&)> find = [&](const PlanNode& n) {
      for (const auto& rf : n.runtimeFilters)
        if (rf.id == s.filter) producer = &n;
      for (const auto& c : n.children) find(*c);
    };
    find(plan);
    if (producer && scans(*producer->children[1], "w") == 1) return s;
  }
  FAIL("no filter built from w");
  return slices[0];
}

int joins(const PlanNode& n) {
  int count = n.op == PlanOp::Join;
  for (const auto& c : n.children) count += joins(*c);
  return count;
}

}  // namespace

TEST_CASE("a star's other dimensions leave the slice of a filter with two consumers") {
  // w's filter on f.d1 reaches s.k too (through the semi join's f.d1 = s.k): its two
  // consumers meet at the semi join and do not lift, so x, y and z's joins stay on
  // the path as joins with free tables, until dropped.
  auto p = star(
      "SELECT * FROM (f LEFT SEMI JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
      "JOIN y ON f.d2 = y.k JOIN z ON f.d3 = z.k JOIN w ON f.d1 = w.k");
  const Slice fromW = sliceFromW(*p);
  INFO(planToText(*fromW.plan));
  CHECK(joins(*fromW.plan) == 2);  // the producer and the semi join
  SearchSpace space({fromW.plan.get()}, 2);
  CHECK(space.tables.size() == 3);  // f, s and w's free table
  CHECK(scans(*fromW.plan, "f") == 1);
  CHECK(scans(*fromW.plan, "s") == 1);
  BoundedOptions o;
  o.method = BoundedOptions::Method::Slices;
  auto v = checkFilters(*p, o);
  CHECK(v[0].safe);
  CHECK(v[0].sliceBound == 2);
  CHECK(v[0].slices == 5);
  // Without the drop: six tables in w's slice, and the slices stop at bound 1 after
  // 497,696 databases.
  CHECK(v[0].sliceDatabases == 1098);
  CHECK(v[0].sliceLimit.empty());
}

TEST_CASE("a free join stays when the slice reads its columns or loses its condition's") {
  // The producer's condition reads x.a: x's join stays.
  auto p = star(
      "SELECT * FROM (f LEFT SEMI JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
      "JOIN y ON f.d2 = y.k JOIN w ON f.d1 = w.k AND x.a = w.a");
  const Slice fromW = sliceFromW(*p);
  INFO(planToText(*fromW.plan));
  CHECK(joins(*fromW.plan) == 3);  // the producer, x's join and the semi join; y's went
  // y's condition reads f.d2, which a derived table drops before the producer: the
  // matches of two rows differing only there would not be told apart. y's join stays.
  auto q = star(
      "SELECT * FROM (SELECT f.d1, f.d0 FROM (f LEFT SEMI JOIN s ON f.d1 = s.k) "
      "JOIN y ON f.d2 = y.k) AS t JOIN w ON t.d1 = w.k");
  const Slice kept = sliceFromW(*q);
  INFO(planToText(*kept.plan));
  CHECK(joins(*kept.plan) == 3);
}

TEST_CASE("no free join leaves a slice below a join that pads or drops the path's rows") {
  // The producer made each join type in turn over the same slice, kept whole: the
  // path (its probe side, the fact table's) is padded by a RIGHT or FULL join.
  auto p = star(
      "SELECT * FROM (f LEFT SEMI JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
      "JOIN y ON f.d2 = y.k JOIN z ON f.d3 = z.k JOIN w ON f.d1 = w.k");
  for (JoinType t : {JoinType::Inner, JoinType::Left, JoinType::Right, JoinType::Full}) {
    Slice s = sliceFromW(*p, false);
    s.plan->joinType = t;
    refreshOutputs(*s.plan);
    INFO(joinInfo(t).sql);
    CHECK(dropFreeJoins(s.plan) == (t == JoinType::Inner || t == JoinType::Left ? 3 : 0));
  }
  // Between the producer and the joins: a Filter keeps or drops rows one by one; an
  // Aggregate counts the matches (it groups by the fact table's columns, so that the
  // joins' conditions reach the output and nothing reads the free tables).
  for (PlanOp op : {PlanOp::Filter, PlanOp::Aggregate}) {
    Slice s = sliceFromW(*p, false);
    auto mid = std::make_shared<PlanNode>();
    mid->op = op;
    mid->children = {s.plan->children[0]};
    if (op == PlanOp::Aggregate)
      for (const auto& c : s.plan->children[0]->output)
        if (c.id.rfind("f.", 0) == 0)
          mid->exprs.push_back({c.id, makeColumn(c.id, c.type, c.nullable, {})});
    s.plan->children[0] = mid;
    refreshOutputs(*s.plan);
    INFO(planToText(*s.plan));
    CHECK(dropFreeJoins(s.plan) == (op == PlanOp::Filter ? 3 : 0));
  }
}

TEST_CASE("an inner spine lifts every consumer into a free probe side") {
  auto p = plan("SELECT * FROM a JOIN b ON a.k = b.k JOIN c ON a.v = c.v");
  std::string why;
  auto slices = filterSlices(*p.queries[0].plan, why);
  REQUIRE(why.empty());
  REQUIRE(slices.size() == 2);
  for (const auto& s : slices) {
    INFO(planToText(*s.plan));
    CHECK(s.plan->op == PlanOp::Join);
    // Two tables: the build side free, the probe side its consumer scan or, below the
    // top join, a free table carrying the target.
    SearchSpace space({s.plan.get()}, 2);
    CHECK(space.tables.size() == 2);
    const PlanNode* probe = s.plan->children[0].get();
    if (probe->op == PlanOp::Project) probe = probe->children[0].get();
    REQUIRE(probe->op == PlanOp::Scan);
    REQUIRE(probe->runtimeFilterTargets.size() == 1);
    CHECK(probe->runtimeFilterTargets[0].id == s.filter);
  }
  CHECK(scans(*slices[0].plan, "a") + scans(*slices[1].plan, "a") == 1);
  BoundedOptions o;
  o.method = BoundedOptions::Method::Slices;
  auto v = checkFilters(*p.queries[0].plan, o);
  REQUIRE(v.size() == 1);
  CHECK(v[0].safe);
  CHECK(v[0].sliceBound == 2);
  CHECK(v[0].slices == 2);
  // 72 per slice: two tables of one key over two fresh values and NULL, up to two rows
  // each, one database per renaming of the fresh values.
  CHECK(v[0].sliceDatabases == 144);
  CHECK(v[0].sliceLimit.empty());
}

TEST_CASE("a LEFT JOIN's NULL-generating side stays concrete in the slice") {
  auto p = plan("SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k", false);
  std::string why;
  auto slices = filterSlices(*p.queries[0].plan, why);
  REQUIRE(why.empty());
  bool sawLeft = false;
  for (const auto& s : slices)
    if (s.plan->children[0]->op == PlanOp::Join &&
        s.plan->children[0]->joinType == JoinType::Left) {
      sawLeft = true;
      CHECK(scans(*s.plan, "b") == 1);  // the consumer below the NULL-generating side
    }
  CHECK(sawLeft);
  BoundedOptions o;
  o.method = BoundedOptions::Method::Slices;
  o.oracle = true;
  auto v = checkFilters(*p.queries[0].plan, o);
  CHECK(v[0].sliceBound == 2);
  CHECK(v[0].oracleDisagreements.empty());
  CHECK(v[0].oracleRuns > 0);
}

TEST_CASE("an unsafe placement differs on its slice") {
  // StarRocks copies the <=> filter to the preserved side of the LEFT JOIN.
  auto p = plan("SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k", true,
                *parseProfile("starrocks"));
  BoundedOptions o;
  o.method = BoundedOptions::Method::Slices;
  auto v = checkFilters(*p.queries[0].plan, o);
  CHECK(v[0].safe);  // a slice's difference is not a counterexample of the plan
  CHECK(v[0].sliceBound == 0);
  CHECK(v[0].sliceLimit.find("RF1's slice: differs at bound 1") == 0);
}

TEST_CASE("another filter consumed at a concrete non-scan node stops the decomposition") {
  auto p = plan("SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k", false);
  PlanNode& root = *p.queries[0].plan;
  auto* left = const_cast<PlanNode*>(testing::find(root, PlanOp::Join));
  while (left && left->joinType != JoinType::Left) left = left->children[0].get();
  REQUIRE(left);
  left->runtimeFilterTargets.push_back({99, makeColumn("a.k", Type::of(TypeKind::Int), true)});
  auto* top = const_cast<PlanNode*>(testing::find(root, PlanOp::Join));
  RuntimeFilter extra;
  extra.id = 99;
  extra.build = makeColumn("c.k", Type::of(TypeKind::Int), true);
  extra.probe = makeColumn("a.k", Type::of(TypeKind::Int), true);
  top->runtimeFilters.push_back(extra);
  std::string why;
  CHECK(filterSlices(root, why).empty());
  CHECK(why.find("RF99 is consumed at left join #") == 0);
}

TEST_CASE("conjuncts read nowhere else become one boolean column") {
  auto p = plan("SELECT a.k + 1 FROM a WHERE a.v > 5 AND a.v < 9 AND a.k = 1");
  PlanNode& root = *p.queries[0].plan;
  CHECK(abstractPredicates(root) == 1);
  const PlanNode* filter = testing::find(root, PlanOp::Filter);
  REQUIRE(filter);
  // a.k is read by the projection, so its conjunct stays; a.v's two become a.pass<id>.
  CHECK(exprToString(*filter->predicate) == "a.pass" + std::to_string(filter->id) + " AND a.k = 1");
  const PlanNode* scan = testing::find(root, PlanOp::Scan);
  CHECK(scan->tableColumns.back().id == "a.pass" + std::to_string(filter->id));
  CHECK_FALSE(scan->tableColumns.back().nullable);
}

TEST_CASE("a column's domain holds only the constants of its value class") {
  auto p = plan("SELECT * FROM a JOIN b ON a.k = b.k WHERE a.v = 7 AND b.v > 20");
  SearchSpace s({p.queries[0].plan.get()}, 2);
  REQUIRE(s.error.empty());
  // a.v: two fresh values, 7, NULL; b.v: two fresh, 20 with its neighbours 19 and 21, NULL;
  // the keys: two fresh values and NULL (they meet no constant).
  CHECK(column(s, "a", "v").domain.size() == 4);
  CHECK(column(s, "b", "v").domain.size() == 6);
  CHECK(column(s, "a", "k").domain.size() == 3);
  CHECK(column(s, "b", "k").domain.size() == 3);
}

}  // namespace rfguard
