// The runtime-filter hooks and planner: which rule decides, and the worked
// cases of docs/design.md section 4.
#include "tests/unit/rf_test_support.h"
#include "verifier/verify.h"

using namespace rfguard;
using namespace rfguard::testing;

TEST_CASE("coalesce into the NULL-generating side is refused, with the reason") {
  Planned p = plan("SELECT 1 FROM a LEFT JOIN b ON a.k = b.k JOIN c ON coalesce(b.k, 0) = c.k");
  CHECK(consumers(p, 1).empty());
  CHECK(p.report.dropped == std::vector<int>{1});
  REQUIRE(p.report.rejected.size() == 1);
  CHECK(p.report.rejected[0].decision.rule == RfRule::PassThroughJoinNullGeneratingSide);
  CHECK(p.report.rejected[0].decision.reason.text() ==
        "entered the NULL-generating side of left join #3 with `coalesce(b.k, 0)`, which is not "
        "NULL-propagating");
  // The producer without consumer is removed from the plan.
  CHECK(find(*p.queries[0].plan, PlanOp::Join)->runtimeFilters.empty());
}

TEST_CASE("reasons are written when read, from values the report holds") {
  // Reasons are put together lazily; a report must still say them after its
  // plan is gone (ASan catches a reason that kept a pointer into the plan).
  RfReport report;
  {
    Planned p = plan("SELECT 1 FROM a LEFT JOIN b ON a.k = b.k JOIN c ON coalesce(b.k, 0) = c.k");
    report = p.report;
  }
  REQUIRE(report.rejected.size() == 1);
  const std::string want =
      "entered the NULL-generating side of left join #3 with `coalesce(b.k, 0)`, which is not "
      "NULL-propagating";
  CHECK(report.rejected[0].decision.reason.text() == want);
  CHECK(report.rejected[0].decision.reason.text() == want);  // the same on every reading
  // An accepted step's reason, and a refusal's, from the hooks directly.
  Planned q = plan("SELECT 1 FROM a JOIN b ON a.k = b.k");
  const PlanNode* join = find(*q.queries[0].plan, PlanOp::Join);
  REQUIRE(join);
  Decision yes = canGenerate(*join, join->predicate, nullptr);
  CHECK(yes.ok);
  CHECK(yes.reason.text() ==
        "inner join #2 drops unmatched probe rows and `a.k = b.k` is a "
        "top-level conjunct");
  Decision plain = Decision::no(RfRule::ConsumeAtScan, "said at once");
  CHECK(plain.reason.text() == "said at once");
}

TEST_CASE("a plain key enters B and is copied to A (without simplification)") {
  Planned p = plan("SELECT 1 FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k", false);
  CHECK(consumers(p, 1) == std::set<std::string>{"a.k", "b.k"});
  const PlanNode* scanA = find(*p.queries[0].plan, PlanOp::Scan, "a");
  REQUIRE(scanA);
  REQUIRE(scanA->runtimeFilterTargets.size() == 1);
  CHECK(exprToString(*scanA->runtimeFilterTargets[0].target) == "a.k");
  for (const auto& d : p.report.consumers)
    if (d.target.str() == "a.k") {
      auto steps = p.report.derivation(d);
      REQUIRE(steps.size() == 2);
      CHECK(steps[0].rule == RfRule::CopyAcrossJoinEquality);
      CHECK(steps[0].before.str() == "b.k");
      CHECK(steps[0].after.str() == "a.k");
      CHECK(steps[1].rule == RfRule::ConsumeAtScan);
    }
}

TEST_CASE("a range conjunct copies no key: the filter stays on its own side") {
  // fuzz_check's finding: with A = {3}, B = {4}, C = {4} the query returns one row;
  // a filter on A.k from C's domain {4} would remove A's row.
  Planned p = plan("SELECT 1 FROM (a JOIN b ON a.k < b.k) JOIN c ON b.k <=> c.k");
  CHECK(consumers(p, 1) == std::set<std::string>{"b.k"});
  bool refused = false;
  for (const auto& e : p.report.rejected)
    if (e.decision.rule == RfRule::CopyAcrossJoinEquality) {
      refused = true;
      CHECK(e.decision.reason.text() ==
            "`a.k < b.k` is a range comparison of the two sides of inner join #3: a key's value "
            "does not carry across it");
    }
  CHECK(refused);
}

TEST_CASE("null-safe parent: no copy to A, no entry into B") {
  Planned p = plan("SELECT 1 FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k");
  CHECK(consumers(p, 1).empty());
  std::set<std::string> rules;
  for (const auto& e : p.report.rejected) rules.insert(ruleName(e.decision.rule));
  CHECK(rules ==
        std::set<std::string>{"PassThroughJoinNullGeneratingSide", "CopyAcrossJoinEquality"});
}

TEST_CASE("full outer join: a plain column reaches both sides, coalesce neither") {
  Planned plain = plan("SELECT 1 FROM (a FULL JOIN b ON a.k = b.k) JOIN c ON a.k = c.k", false);
  CHECK(consumers(plain, 1) == std::set<std::string>{"a.k", "b.k"});
  Planned co =
      plan("SELECT 1 FROM (a FULL JOIN b ON a.k = b.k) JOIN c ON coalesce(a.k, 0) = c.k", false);
  CHECK(consumers(co, 1).empty());
}

TEST_CASE("anti joins, NOT IN and OR conditions generate nothing") {
  for (const char* sql :
       {"SELECT 1 FROM a LEFT ANTI JOIN b ON a.k = b.k",
        "SELECT 1 FROM a WHERE a.k NOT IN (SELECT k FROM b)",
        "SELECT 1 FROM a LEFT JOIN b ON a.k = b.k", "SELECT 1 FROM a FULL JOIN b ON a.k = b.k"}) {
    CAPTURE(sql);
    Planned p = plan(sql, false);
    CHECK(p.report.consumers.empty());
    REQUIRE_FALSE(p.report.generation.empty());
    CHECK(p.report.generation[0].decision.rule == RfRule::GenerateFromJoinConjunct);
    CHECK_FALSE(p.report.generation[0].decision.ok);
  }
  Planned orCase = plan("SELECT 1 FROM a JOIN b ON a.k = b.k OR a.v = b.v");
  CHECK(orCase.report.consumers.empty());
  CHECK(orCase.report.generation[0].decision.reason.text().find("disjunction") !=
        std::string::npos);
}

TEST_CASE("blockers: LIMIT, window order keys, aggregate results, ROLLUP keys") {
  CHECK(rejectionRule(
            plan("SELECT 1 FROM (SELECT * FROM a ORDER BY v LIMIT 3) x JOIN c ON x.k = c.k"), 1) ==
        "BlockAtLimit");
  CHECK(
      rejectionRule(
          plan("SELECT 1 FROM (SELECT k, rank() OVER (ORDER BY v) r FROM a) x JOIN c ON x.k = c.k"),
          1) == "PassThroughWindowPartition");
  Planned part = plan(
      "SELECT 1 FROM (SELECT k, rank() OVER (PARTITION BY k ORDER BY v) r FROM a) x JOIN c ON x.k "
      "= c.k");
  CHECK(consumers(part, 1) == std::set<std::string>{"a.k"});
  CHECK(rejectionRule(
            plan("SELECT 1 FROM (SELECT k, sum(v) s FROM a GROUP BY k) x JOIN c ON x.s = c.k"),
            1) == "PassThroughAggregateKeys");
  // ROLLUP (k): the subtotals a filter on k changes have k NULL, which `=`
  // rejects; under `<=>` the grand total's NULL could match, so not there.
  CHECK(consumers(plan("SELECT 1 FROM (SELECT k, sum(v) s FROM a GROUP BY ROLLUP (k)) x JOIN c "
                       "ON x.k = c.k"),
                  1) == std::set<std::string>{"a.k"});
  CHECK(rejectionRule(plan("SELECT 1 FROM (SELECT k, sum(v) s FROM a GROUP BY ROLLUP (k)) x JOIN c "
                           "ON x.k <=> c.k"),
                      1) == "PassThroughAggregateKeys");
  // ROLLUP (k, v): a filter on k + v is NULL wherever v or both are rolled up.
  CHECK(consumers(plan("SELECT 1 FROM (SELECT k, v, sum(v) s FROM a GROUP BY ROLLUP (k, v)) x "
                       "JOIN c ON x.k + x.v = c.k"),
                  1) == std::set<std::string>{"a.k + a.v"});
  // coalesce(k, v) is not NULL where only k is rolled up... ROLLUP (k, v) never
  // lacks k alone, so CUBE shows it: the set (v) keeps coalesce(NULL, v) = v.
  CHECK(rejectionRule(plan("SELECT 1 FROM (SELECT k, v, sum(v) s FROM a GROUP BY CUBE (k, v)) x "
                           "JOIN c ON coalesce(x.k, x.v) = c.k"),
                      1) == "PassThroughAggregateKeys");
  // min(k) per group k is k: the filter removes whole groups.
  CHECK(
      consumers(plan("SELECT 1 FROM (SELECT k, min(k) m FROM a GROUP BY k) x JOIN c ON x.m = c.k"),
                1) == std::set<std::string>{"a.k"});
  CHECK(rejectionRule(plan("SELECT 1 FROM (SELECT k, min(v) m FROM a GROUP BY k) x JOIN c ON x.m "
                           "= c.k"),
                      1) == "PassThroughAggregateKeys");
  Planned keys = plan("SELECT 1 FROM (SELECT k, sum(v) s FROM a GROUP BY k) x JOIN c ON x.k = c.k");
  CHECK(consumers(keys, 1) == std::set<std::string>{"a.k"});
}

TEST_CASE("set operations take the filter in every input, EXCEPT's right one by a column key") {
  Planned u =
      plan("SELECT 1 FROM (SELECT k FROM a UNION ALL SELECT k FROM b) x JOIN c ON x.k = c.k");
  CHECK(consumers(u, 1) == std::set<std::string>{"a.k", "b.k"});
  // (A - (B n P)) n P = (A - B) n P: the producer re-applies the filter above.
  Planned e = plan("SELECT 1 FROM (SELECT k FROM a EXCEPT SELECT k FROM b) x JOIN c ON x.k = c.k");
  CHECK(consumers(e, 1) == std::set<std::string>{"a.k", "b.k"});
  // A key that rows EXCEPT holds equal may not share (-0.0 and 0.0 as text) stays out.
  Planned d = plan(
      "SELECT 1 FROM (SELECT x FROM d EXCEPT SELECT x FROM d AS d2) y "
      "JOIN a ON cast(y.x AS varchar) = cast(a.k AS varchar)");
  CHECK(consumers(d, 1).size() == 1);  // the left input's scan only
  CHECK(rejectionRule(d, 1) == "PassThroughSetOp");
}

TEST_CASE("canConsume: tables that refuse runtime filters, string functions") {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE(
      loadSql("CREATE TABLE p (k int, s varchar(10)) WITH (runtime_filter = false);"
              "CREATE TABLE q (k int, s varchar(10));"
              "SELECT 1 FROM p JOIN q ON p.k = q.k; SELECT 1 FROM q JOIN p ON upper(q.s) = p.s",
              "t.sql", catalog, qs, diags));
  for (auto& q : qs) {
    NormalizeReport nr;
    normalize(q.plan, {}, nr);
  }
  RfReport r1, r2;
  planRuntimeFilters(*qs[0].plan, r1);
  planRuntimeFilters(*qs[1].plan, r2);
  REQUIRE(r1.rejected.size() == 1);
  CHECK(r1.rejected[0].decision.reason.text() == "table p does not accept runtime filters");
  REQUIRE(r2.rejected.size() == 1);
  CHECK(r2.rejected[0].decision.reason.text().find("evaluates a function over a string column") !=
        std::string::npos);
}

TEST_CASE("scalar filters: a one-row build side, BETWEEN split, flipped comparisons") {
  Planned p =
      plan("SELECT 1 FROM a WHERE a.v BETWEEN (SELECT min(v) FROM c) AND (SELECT max(v) FROM c)");
  REQUIRE(p.report.consumers.size() == 2);
  std::set<std::string> ops;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) {
      ops.insert(cmpSpelling(f.op));
      CHECK(f.kinds == std::vector<FilterKind>{FilterKind::MinMax});
      CHECK_FALSE(f.nullAllowed);
    }
    for (const auto& ch : n.children) walk(*ch);
  };
  walk(*p.queries[0].plan);
  CHECK(ops == std::set<std::string>{">=", "<="});
  Planned flipped = plan("SELECT 1 FROM a, (SELECT max(v) AS m FROM c) x WHERE x.m < a.v");
  CHECK(find(*flipped.queries[0].plan, PlanOp::Join)->runtimeFilters.at(0).op == CmpOp::Gt);
  Planned many = plan("SELECT 1 FROM a JOIN b ON a.v < b.v");
  CHECK(many.report.consumers.empty());
  CHECK(many.report.generation.at(0).decision.reason.text().find("more than one row") !=
        std::string::npos);
}

TEST_CASE("TopN filters: direction, NULL order, and where they stop") {
  Planned desc = plan("SELECT a.k, a.v FROM a ORDER BY a.v DESC LIMIT 10");
  const PlanNode* limit = find(*desc.queries[0].plan, PlanOp::Limit);
  REQUIRE(limit->runtimeFilters.size() == 1);
  CHECK(limit->runtimeFilters[0].op == CmpOp::Ge);
  CHECK(limit->runtimeFilters[0].nullAllowed);  // DESC puts NULLs first by default
  CHECK(consumers(desc, 1) == std::set<std::string>{"a.v"});
  Planned asc = plan("SELECT a.k, a.v FROM a ORDER BY a.v NULLS LAST LIMIT 10");
  CHECK(find(*asc.queries[0].plan, PlanOp::Limit)->runtimeFilters.at(0).op == CmpOp::Le);
  CHECK_FALSE(find(*asc.queries[0].plan, PlanOp::Limit)->runtimeFilters.at(0).nullAllowed);
  CHECK(rejectionRule(plan("SELECT x FROM (SELECT a.v + 1 AS x FROM a) t ORDER BY x LIMIT 3"), 1) ==
        "ConsumeTopNThreshold");
  // The threshold acts only while the scan runs: an aggregate reads its whole
  // input first (even on a group key), and so does a join's build side.
  CHECK(rejectionRule(plan("SELECT k, sum(v) AS s FROM a GROUP BY k ORDER BY s LIMIT 3"), 1) ==
        "TopNWhileScanning");
  Planned grouped = plan("SELECT k, sum(v) AS s FROM a GROUP BY k ORDER BY k LIMIT 3");
  CHECK(rejectionRule(grouped, 1) == "TopNWhileScanning");
  CHECK(consumers(grouped, 1).empty());
  Planned joined = plan("SELECT a.k, b.v FROM a JOIN b ON a.k = b.k ORDER BY a.k LIMIT 3");
  const PlanNode* topn = find(*joined.queries[0].plan, PlanOp::Limit);
  REQUIRE(topn->runtimeFilters.size() == 1);
  std::set<std::string> topnConsumers;
  for (const auto& c : joined.report.consumers)
    if (c.filter == topn->runtimeFilters[0].id) topnConsumers.insert(c.target.str());
  CHECK(topnConsumers == std::set<std::string>{"a.k"});  // the probe side, not b.k
}

TEST_CASE("composite filters: one tuple filter per join, copied when every part is a key") {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE(loadSql(
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int); CREATE TABLE c (k int, v int);"
      "SELECT 1 FROM a JOIN b ON a.k = b.k AND a.v = b.v JOIN c ON b.k = c.k AND b.v = c.v",
      "t.sql", catalog, qs, diags));
  NormalizeReport nr;
  normalize(qs[0].plan, {}, nr);
  RfOptions o;
  o.composite = true;
  RfReport r;
  planRuntimeFilters(*qs[0].plan, r, o);
  std::set<std::string> targets;
  for (const auto& d : r.consumers) targets.insert(std::to_string(d.filter) + ":" + d.target.str());
  CHECK(targets == std::set<std::string>{"1:(a.k, a.v)", "1:(b.k, b.v)", "2:(a.k, a.v)"});
  const PlanNode* top = find(*qs[0].plan, PlanOp::Join);
  REQUIRE(top->runtimeFilters.size() == 1);
  CHECK(top->runtimeFilters[0].kinds == std::vector<FilterKind>{FilterKind::Bloom});
  CHECK(exprToString(*top->runtimeFilters[0].probe) == "(b.k, b.v)");
}

TEST_CASE("one filter per join, build key and consumer: equivalence twins merge") {
  // c.k = a.k AND c.k = b.k over a.k = b.k: RF1 and RF2 hold c.k's keys and
  // both reach a.k and b.k. RF2 goes, RF1 serves both scans.
  Planned p = plan("SELECT 1 FROM a JOIN b ON a.k = b.k JOIN c ON c.k = a.k AND c.k = b.k");
  CHECK(consumers(p, 1) == std::set<std::string>{"a.k", "b.k"});
  CHECK(consumers(p, 2).empty());
  REQUIRE(p.report.merged.size() == 2);
  for (const auto& m : p.report.merged) {
    CHECK(m.filter == 2);
    CHECK(m.into == 1);
    CHECK(m.whole);
  }
  const PlanNode* top = find(*p.queries[0].plan, PlanOp::Join);
  REQUIRE(top);
  CHECK(top->runtimeFilters.size() == 1);
  CHECK(explainRuntimeFilters(p.report).find("RF2 from #2 `c.k = b.k` (merged into RF1") !=
        std::string::npos);
  CHECK(verifyRuntimeFilters(*p.queries[0].plan).empty());
  // Build keys equated below the join hold the same keys (JOB 1a's shape).
  Planned eq = plan("SELECT 1 FROM a JOIN (b JOIN c ON b.k = c.k) ON a.k = b.k AND a.k = c.k");
  CHECK(consumers(eq, 1) == std::set<std::string>{"a.k"});
  CHECK(consumers(eq, 2).empty());
  REQUIRE(eq.report.merged.size() == 1);
  CHECK(eq.report.merged[0].target.str() == "a.k");
  // ...but not across an outer join's own condition (b's unmatched rows keep
  // b.k with c.k NULL): both stay.
  Planned outer =
      plan("SELECT 1 FROM a JOIN (b LEFT JOIN c ON b.k = c.k) ON a.k = b.k AND a.k = c.k", false);
  CHECK(outer.report.merged.empty());
  // Different build keys are different key sets: both stay.
  Planned two = plan("SELECT 1 FROM a JOIN b ON a.k = b.k AND a.k = b.v");
  CHECK(consumers(two, 1) == std::set<std::string>{"a.k"});
  CHECK(consumers(two, 2) == std::set<std::string>{"a.k"});
  CHECK(two.report.merged.empty());
}

// A range comparison over a build side of many rows: the planner builds no
// scalar filter from it, the verifier accepts the min/max bound an engine
// builds (RangeBuild::AnyRows), except on floating point and at a LEFT join.
TEST_CASE("canGenerate: range comparisons over many build rows are min/max bounds") {
  auto conjunctOf = [](const Planned& p) {
    const PlanNode* j = find(*p.queries[0].plan, PlanOp::Join);
    REQUIRE(j);
    REQUIRE(j->predicate);
    return std::make_pair(j, j->predicate);
  };
  Planned p = plan("SELECT 1 FROM a JOIN b ON a.v < b.v");
  CHECK(p.report.consumers.empty());
  auto [join, conjunct] = conjunctOf(p);
  Decision planner = canGenerate(*join, conjunct, nullptr);
  CHECK_FALSE(planner.ok);
  CHECK(planner.reason.text() ==
        "`a.v < b.v` is a range comparison and the build side may return more than one row");
  EquiConjunct split;
  Decision verifier = canGenerate(*join, conjunct, &split, RangeBuild::AnyRows);
  CHECK(verifier.ok);
  CHECK(verifier.rule == RfRule::GenerateFromJoinConjunct);
  CHECK(verifier.reason.text() == "inner join #2 bounds `a.v <` by the build side's max");
  CHECK(exprToString(*split.probe) == "a.v");
  CHECK(split.op == CmpOp::Lt);
  // `b.v <= a.v` is `a.v >= b.v` from the probe side: the min.
  Planned ge = plan("SELECT 1 FROM a JOIN b ON b.v <= a.v");
  auto [geJoin, geConjunct] = conjunctOf(ge);
  CHECK(canGenerate(*geJoin, geConjunct, nullptr, RangeBuild::AnyRows).reason.text() ==
        "inner join #2 bounds `a.v >=` by the build side's min");
  Planned dbl = plan("SELECT 1 FROM d JOIN d AS e ON d.x < e.x");
  auto [dJoin, dConjunct] = conjunctOf(dbl);
  CHECK_FALSE(canGenerate(*dJoin, dConjunct, nullptr, RangeBuild::AnyRows).ok);
  Planned left = plan("SELECT 1 FROM a LEFT JOIN b ON a.v < b.v", false);
  auto [lJoin, lConjunct] = conjunctOf(left);
  CHECK_FALSE(canGenerate(*lJoin, lConjunct, nullptr, RangeBuild::AnyRows).ok);
}
