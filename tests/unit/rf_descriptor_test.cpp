// What a placed filter is: its NULL flag, kinds (from types and statistics),
// scope (broadcast or colocated) and the cost thresholds that decide it.
#include "rules/cardinality.h"
#include "rules/rf_stats.h"
#include "tests/unit/rf_test_support.h"
#include "verifier/verify.h"

using namespace rfguard;
using namespace rfguard::testing;

TEST_CASE("descriptor: nullAllowed, kinds from type and statistics") {
  Planned eq = plan("SELECT 1 FROM a JOIN c ON a.k = c.k");
  const PlanNode* join = find(*eq.queries[0].plan, PlanOp::Join);
  REQUIRE(join->runtimeFilters.size() == 1);
  const RuntimeFilter& f = join->runtimeFilters[0];
  CHECK_FALSE(f.nullAllowed);
  CHECK(f.op == CmpOp::Eq);
  CHECK(f.kinds == std::vector<FilterKind>{FilterKind::In, FilterKind::MinMax});  // c has 10 rows
  CHECK(f.scope == FilterScope::Global);
  Planned ns = plan("SELECT 1 FROM a JOIN b ON a.k <=> b.k");
  const RuntimeFilter& g = find(*ns.queries[0].plan, PlanOp::Join)->runtimeFilters.at(0);
  CHECK(g.nullAllowed);
  CHECK(g.kinds == std::vector<FilterKind>{FilterKind::Bloom});  // no statistics; no MinMax for <=>
  Planned dbl = plan("SELECT 1 FROM d JOIN d AS e ON d.x <=> e.x");
  CHECK(dbl.report.generation.at(0).decision.ok == false);
  CHECK(dbl.report.generation.at(0).decision.reason.text().find("no <=> filter on double") == 0);
  // A double probe with an int build key: no MinMax, which the verifier would
  // flag on the probe's type (found by fuzz_plan_json).
  Planned mixed = plan("SELECT 1 FROM d JOIN c ON d.x = c.k");
  const PlanNode* mj = find(*mixed.queries[0].plan, PlanOp::Join);
  REQUIRE(mj->runtimeFilters.size() == 1);
  CHECK(mj->runtimeFilters[0].kinds == std::vector<FilterKind>{FilterKind::In});
  CHECK(exprToString(*mj->runtimeFilters[0].probe) == "d.x");
  CHECK(verifyRuntimeFilters(*mixed.queries[0].plan).empty());
  // Copied across `a.k = d.x`, an in+min_max filter of ints stops before the
  // double column; a TopN threshold over doubles is not built at all.
  Planned copied = plan("SELECT 1 FROM a JOIN d ON a.k = d.x JOIN c ON a.k = c.k");
  CHECK(consumers(copied, 1) == std::set<std::string>{"a.k"});
  bool refused = false;
  for (const auto& r : copied.report.rejected)
    refused = refused || (r.filter == 1 && r.decision.reason.text() ==
                                               "the filter's kinds do not suit `d.x`: no "
                                               "min_max on double");
  CHECK(refused);
  CHECK(verifyRuntimeFilters(*copied.queries[0].plan).empty());
  Planned top = plan("SELECT x FROM d ORDER BY x LIMIT 5");
  REQUIRE(top.report.generation.size() == 1);
  CHECK_FALSE(top.report.generation[0].decision.ok);
  CHECK(top.report.generation[0].decision.reason.text() ==
        "the threshold would be a min_max on double");
  CHECK(verifyRuntimeFilters(*top.queries[0].plan).empty());
}

TEST_CASE("local scope when both keys are the tables' distribution keys") {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE(
      loadSql("CREATE TABLE p (k int, v int) WITH (distribution_key = 'k');"
              "CREATE TABLE q (k int, v int) WITH (distribution_key = 'k');"
              "SELECT 1 FROM p JOIN q ON p.k = q.k; SELECT 1 FROM p JOIN q ON p.v = q.k",
              "t.sql", catalog, qs, diags));
  std::vector<FilterScope> scopes;
  for (auto& q : qs) {
    NormalizeReport nr;
    normalize(q.plan, {}, nr);
    RfReport r;
    planRuntimeFilters(*q.plan, r);
    scopes.push_back(find(*q.plan, PlanOp::Join)->runtimeFilters.at(0).scope);
  }
  CHECK(scopes == std::vector<FilterScope>{FilterScope::Local, FilterScope::Global});
}

// A filter is local when the build side is broadcast: build rows x 40 workers
// x 10 <= probe rows, by the plan's own estimates where it has them (a plan
// read from JSON keeps the ones it was given). Any stated estimate is taken in
// range: 1e300 rows neither overflows nor wraps negative.
TEST_CASE("scope by the plan's estimated rows, taken in range") {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE(
      loadSql("CREATE TABLE p (k int, v int) WITH (rows = 1000000);"
              "CREATE TABLE q (k int, v int) WITH (rows = 1000);"
              "SELECT 1 FROM p JOIN q ON p.v = q.v",
              "t.sql", catalog, qs, diags));
  NormalizeOptions keep;
  keepJoinsAsWritten(keep);
  NormalizeReport nr;
  normalize(qs[0].plan, keep, nr);
  annotateEstimates(*qs[0].plan);
  auto scopeWith = [&](std::optional<double> probe, std::optional<double> build) {
    PlanPtr copy = clonePlan(*qs[0].plan);
    PlanNode* join = const_cast<PlanNode*>(find(*copy, PlanOp::Join));
    if (probe) join->children[0]->estimatedRows = probe;
    if (build) join->children[1]->estimatedRows = build;
    RfReport r;
    planRuntimeFilters(*copy, r);
    return join->runtimeFilters.at(0).scope;
  };
  // As normalised: 1,000 x 400 <= 1,000,000.
  CHECK(scopeWith(std::nullopt, std::nullopt) == FilterScope::Local);
  CHECK(scopeWith(399999.0, 1000.0) == FilterScope::Global);
  CHECK(scopeWith(400000.0, 1000.0) == FilterScope::Local);
  CHECK(scopeWith(1e300, 1e300) == FilterScope::Global);  // both 1e15: 4e17 > 1e15
  CHECK(scopeWith(1e300, 0.0) == FilterScope::Local);     // at least one row: 400 <= 1e15
}

TEST_CASE("--cost: the Hologres trigger thresholds") {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE(loadSql(
      "CREATE TABLE big (k int) WITH (rows = 1000000); CREATE TABLE small (k int) WITH (rows = 50);"
      "CREATE TABLE mid (k int) WITH (rows = 200000);"
      "SELECT 1 FROM big JOIN small ON big.k = small.k; SELECT 1 FROM small JOIN big ON small.k = "
      "big.k;"
      "SELECT 1 FROM big JOIN mid ON big.k = mid.k",
      "t.sql", catalog, qs, diags));
  auto place = [&](bool joinOrder) {
    std::vector<size_t> kept, skipped;
    for (const auto& q : qs) {
      PlanPtr p = clonePlan(*q.plan);
      NormalizeReport nr;
      NormalizeOptions no;
      if (!joinOrder) keepJoinsAsWritten(no);
      normalize(p, no, nr);
      RfOptions o;
      o.cost = true;
      RfReport r;
      planRuntimeFilters(*p, r, o);
      kept.push_back(r.consumers.size());
      skipped.push_back(r.skipped.size());
    }
    return std::make_pair(kept, skipped);
  };
  // As written: small JOIN big builds from big, over the threshold.
  auto [kept, skipped] = place(false);
  CHECK(kept == std::vector<size_t>{1, 0, 0});
  CHECK(skipped == std::vector<size_t>{0, 1, 1});
  // Ordered by estimates: small builds in both, and big JOIN mid still builds
  // from mid's 200000 rows, over the threshold.
  std::tie(kept, skipped) = place(true);
  CHECK(kept == std::vector<size_t>{1, 1, 0});
  CHECK(skipped == std::vector<size_t>{0, 0, 1});
}

TEST_CASE("table statistics: by table, the last scan that states each one wins") {
  auto scan = [](std::string table, std::optional<long long> rows, std::string key) {
    auto n = std::make_shared<PlanNode>();
    n->op = PlanOp::Scan;
    n->table = std::move(table);
    n->tableRows = rows;
    n->distributionKey = std::move(key);
    return n;
  };
  auto join = std::make_shared<PlanNode>();
  join->op = PlanOp::Join;
  auto inner = std::make_shared<PlanNode>();
  inner->op = PlanOp::Join;
  inner->children = {scan("t", 10, "k"), scan("u", std::nullopt, "")};
  join->children = {inner, scan("t", 20, ""), scan("s", std::nullopt, "x")};
  const TableStats stats(*join);
  CHECK(stats.rows("t") == 20);              // the later scan's count
  CHECK(stats.distributionKey("t") == "k");  // the later scan states no key
  CHECK_FALSE(stats.rows("u").has_value());  // a scan without statistics
  CHECK_FALSE(stats.rows("s").has_value());
  CHECK(stats.distributionKey("s") == "x");
  CHECK_FALSE(stats.rows("v").has_value());  // no scan of it
  CHECK(stats.distributionKey("v").empty());
  CHECK(estimateRows(*join->children[1], stats) == 20);
}
