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

}  // namespace

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
