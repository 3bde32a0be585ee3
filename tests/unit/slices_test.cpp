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

/// A plan over a fact table f and dimensions x, y, z, w, s (k, a), joins as written;
/// `tables` adds CREATE TABLE statements.
PlanPtr star(const std::string& sql, const std::string& tables = "") {
  SessionOptions so;
  keepJoinsAsWritten(so.normalize);
  Session session(so);
  Diagnostics diags;
  std::string schema = "CREATE TABLE f (d0 int, d1 int, d2 int, d3 int, q int);";
  for (const char* t : {"x", "y", "z", "w", "s"})
    schema += std::string("CREATE TABLE ") + t + " (k int, a int);";
  REQUIRE_MESSAGE(session.loadAs(schema + tables + sql, "star.sql", false, diags), diags.render());
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

/// The first scan of a free table in `n`.
const PlanNode* freeScan(const PlanNode& n) {
  if (isFreeTableScan(n)) return &n;
  for (const auto& c : n.children)
    if (const PlanNode* f = freeScan(*c)) return f;
  return nullptr;
}

/// Whether the free scan has a column for `id` (made as "sub<id>.<id with _>").
bool freeColumn(const PlanNode& scan, std::string id) {
  for (auto& ch : id) ch = ch == '.' ? '_' : ch;
  for (const auto& c : scan.tableColumns)
    if (c.id.view().substr(c.id.view().find('.') + 1) == id) return true;
  return false;
}

int joins(const PlanNode& n) {
  int count = n.op == PlanOp::Join;
  for (const auto& c : n.children) count += joins(*c);
  return count;
}

}  // namespace

TEST_CASE("a star's other dimensions leave the slice of a filter with two consumers") {
  // w's filter on f.d1 reaches s.k too (through the LEFT JOIN's f.d1 = s.k): its two
  // consumers meet at the LEFT JOIN and do not lift (a free table would lose that s.k
  // is f.d1 or NULL), so x, y and z's joins stay on the path as joins with free
  // tables, until dropped.
  auto p = star(
      "SELECT * FROM (f LEFT JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
      "JOIN y ON f.d2 = y.k JOIN z ON f.d3 = z.k JOIN w ON f.d1 = w.k");
  const Slice fromW = sliceFromW(*p);
  INFO(planToText(*fromW.plan));
  CHECK(joins(*fromW.plan) == 2);  // the producer and the LEFT JOIN
  SearchSpace space({fromW.plan.get()}, 2);
  CHECK(space.tables.size() == 3);  // f, s and w's free table
  CHECK(scans(*fromW.plan, "f") == 1);
  CHECK(scans(*fromW.plan, "s") == 1);
  BoundedOptions o;
  o.method = BoundedOptions::Method::Slices;
  auto v = checkFilters(*p, o);
  CHECK(v[0].safe);
  CHECK(v[0].sliceBound == 2);
  CHECK(v[0].slices == 4);
  // Without the drop: six tables in w's slice, and it stops at bound 1 after 525,824
  // databases; with it, 810 databases to bound 2, and 72 for each other slice.
  CHECK(v[0].sliceDatabases == 1026);
  CHECK(v[0].sliceLimit.empty());
}

TEST_CASE("consumers on both sides of a semi or anti join lift together") {
  // w's filter on f.d1 reaches s.k through the join's f.d1 = s.k. A row of f that
  // the filter passes matches only rows of s equal to it, which the filter passes
  // too: the join of the filtered sides is the filtered join, one free table.
  for (const char* join : {"LEFT SEMI JOIN", "LEFT ANTI JOIN"}) {
    INFO(join);
    auto p = star(std::string("SELECT * FROM (f ") + join +
                  " s ON f.d1 = s.k) JOIN x ON f.d0 = x.k JOIN y ON f.d2 = y.k "
                  "JOIN z ON f.d3 = z.k JOIN w ON f.d1 = w.k");
    const Slice fromW = sliceFromW(*p);
    INFO(planToText(*fromW.plan));
    CHECK(joins(*fromW.plan) == 1);
    CHECK(scans(*fromW.plan, "f") + scans(*fromW.plan, "s") == 0);
    const PlanNode* free = freeScan(*fromW.plan->children[0]);
    REQUIRE(free);
    REQUIRE(free->runtimeFilterTargets.size() == 1);  // f.d1's; s.k is not an output
    CHECK(exprToString(*free->runtimeFilterTargets[0].target) == free->table + ".f_d1");
    BoundedOptions o;
    o.method = BoundedOptions::Method::Slices;
    auto v = checkFilters(*p, o);
    CHECK(v[0].safe);
    CHECK(v[0].sliceBound == 2);
    CHECK(v[0].sliceLimit.empty());
  }
  // NOT IN: a NULL key on its build side rejects every row, and an `=` filter there
  // drops it. The same plan as a NULL-aware anti join keeps the join and s.
  auto p = star(
      "SELECT * FROM (f LEFT ANTI JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
      "JOIN w ON f.d1 = w.k");
  auto* anti = const_cast<PlanNode*>(testing::find(*p, PlanOp::Join));
  while (anti && anti->joinType != JoinType::LeftAnti) anti = anti->children[0].get();
  REQUIRE(anti);
  REQUIRE(scans(*sliceFromW(*p).plan, "s") == 0);
  anti->joinType = JoinType::NullAwareLeftAnti;
  const Slice kept = sliceFromW(*p);
  INFO(planToText(*kept.plan));
  CHECK(scans(*kept.plan, "s") == 1);
  CHECK(joins(*kept.plan) >= 2);
}

TEST_CASE("columns a kept join condition equates are one column of the free table") {
  // w's filter reaches f.d0 and x.k; they lift over f JOIN x, whose condition stays as
  // a Filter over the free table. A row with f.d0 and x.k apart never passes it.
  auto p = star("SELECT * FROM f JOIN x ON f.d0 = x.k JOIN w ON f.d0 = w.k");
  const Slice fromW = sliceFromW(*p);
  INFO(planToText(*fromW.plan));
  const PlanNode* free = freeScan(*fromW.plan->children[0]);
  REQUIRE(free);
  CHECK(freeColumn(*free, "f.d0"));
  CHECK(!freeColumn(*free, "x.k"));
  CHECK(freeColumn(*free, "x.a"));
  CHECK(free->runtimeFilterTargets.size() == 1);  // the two targets are one
  BoundedOptions o;
  o.method = BoundedOptions::Method::Slices;
  CHECK(checkFilters(*p, o)[0].sliceBound == 2);
  // Doubles stay apart: 0 = -0 holds between values that are not the same.
  auto q = star("SELECT * FROM r JOIN t ON r.k = t.k JOIN u ON r.k = u.k",
                "CREATE TABLE r (k double, a int); CREATE TABLE t (k double, a int);"
                "CREATE TABLE u (k double, a int);");
  std::string why;
  auto slices = filterSlices(*q, why);
  REQUIRE(slices.size() == 2);  // u's filter and t's (on r.k, at the first join)
  const Slice& fromU =
      exprToString(*slices[0].plan->predicate) == "r.k = u.k" ? slices[0] : slices[1];
  INFO(planToText(*fromU.plan));
  REQUIRE(exprToString(*fromU.plan->predicate) == "r.k = u.k");
  CHECK(fromU.plan->children[0]->op == PlanOp::Filter);  // r.k = t.k over the free table
  const PlanNode* apart = freeScan(*fromU.plan->children[0]);
  REQUIRE(apart);
  CHECK(freeColumn(*apart, "r.k"));
  CHECK(freeColumn(*apart, "t.k"));
}

TEST_CASE("a free join stays when the slice reads its columns or loses its condition's") {
  // The producer's condition reads x.a: x's join stays.
  auto p = star(
      "SELECT * FROM (f LEFT JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
      "JOIN y ON f.d2 = y.k JOIN w ON f.d1 = w.k AND x.a = w.a");
  const Slice fromW = sliceFromW(*p);
  INFO(planToText(*fromW.plan));
  CHECK(joins(*fromW.plan) == 3);  // the producer, x's join and the LEFT JOIN; y's went
  // y's condition reads f.d2, which a derived table drops before the producer: the
  // matches of two rows differing only there would not be told apart. y's join stays.
  auto q = star(
      "SELECT * FROM (SELECT f.d1, f.d0 FROM (f LEFT JOIN s ON f.d1 = s.k) "
      "JOIN y ON f.d2 = y.k) AS t JOIN w ON t.d1 = w.k");
  const Slice kept = sliceFromW(*q);
  INFO(planToText(*kept.plan));
  CHECK(joins(*kept.plan) == 3);
}

TEST_CASE("no free join leaves a slice below a join that pads or drops the path's rows") {
  // The producer made each join type in turn over the same slice, kept whole: the
  // path (its probe side, the fact table's) is padded by a RIGHT or FULL join.
  auto p = star(
      "SELECT * FROM (f LEFT JOIN s ON f.d1 = s.k) JOIN x ON f.d0 = x.k "
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
