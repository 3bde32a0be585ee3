// Runtime filters over the bundled benchmarks: closure of every sound
// placement, the engine profiles' gaps, and reach per profile.
#include "tests/unit/rf_test_support.h"
#include "verifier/verify.h"

using namespace rfguard;
using namespace rfguard::testing;

TEST_CASE("every placement of the sound planner on the corpus passes the invariant check") {
  for (const char* file : {"tpch.sql", "ssb.sql", "seeds.sql"}) {
    CAPTURE(file);
    Catalog catalog;
    std::vector<Query> qs = loadExample(file, catalog);
    for (auto& q : qs) {
      NormalizeReport nr;
      normalize(q.plan, {}, nr);
      RfReport r;
      planRuntimeFilters(*q.plan, r);
      CHECK(verifyPlan(*q.plan).empty());
      // Every consumer sits in its producer's probe subtree and names a live producer.
      std::map<int, const PlanNode*> producers;
      std::function<void(const PlanNode&)> collect = [&](const PlanNode& n) {
        for (const auto& rf : n.runtimeFilters) producers[rf.id] = &n;
        for (const auto& c : n.children) collect(*c);
      };
      collect(*q.plan);
      for (const auto& d : r.consumers) {
        REQUIRE(producers.count(d.filter));
        CHECK(find(*producers[d.filter]->children[0], PlanOp::Scan) != nullptr);
        std::function<bool(const PlanNode&)> has = [&](const PlanNode& n) {
          if (n.id == d.scan) return true;
          for (const auto& c : n.children)
            if (has(*c)) return true;
          return false;
        };
        // Or beside it, in the other side of a join above (CopySideways), where
        // its derivation starts.
        if (!has(*producers[d.filter])) {
          auto steps = r.derivation(d);
          REQUIRE_FALSE(steps.empty());
          CHECK(steps.front().rule == RfRule::CopySideways);
          continue;
        }
        CHECK(has(*producers[d.filter]->children[0]));
        if (producers[d.filter]->op == PlanOp::Join)
          CHECK_FALSE(has(*producers[d.filter]->children[1]));
        else
          CHECK(producers[d.filter]->op == PlanOp::Limit);  // a TopN filter
      }
    }
  }
}

TEST_CASE("profiles: the StarRocks gap, Doris' null-safe stop, Trino's producers") {
  auto count = [](const std::string& sql, Profile profile) {
    Catalog catalog;
    std::vector<Query> qs;
    Diagnostics diags;
    REQUIRE(loadSql(
        "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int); CREATE TABLE c (k int);" +
            sql,
        "t.sql", catalog, qs, diags));
    NormalizeOptions opt;
    opt.disabled.insert("SimplifyOuterJoin");
    NormalizeReport nr;
    normalize(qs[0].plan, opt, nr);
    RfReport r;
    planRuntimeFilters(*qs[0].plan, r, profile);
    std::set<std::string> out;
    for (const auto& d : r.consumers) out.insert(d.target.str());
    return out;
  };
  const std::string nullSafe = "SELECT 1 FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k";
  CHECK(count(nullSafe, Profile::StarRocks) == std::set<std::string>{"a.k", "b.k"});
  CHECK(count(nullSafe, Profile::Sound).empty());
  CHECK(count(nullSafe, Profile::Doris).empty());
  CHECK(count(nullSafe, Profile::Trino).empty());
  CHECK(count("SELECT 1 FROM a LEFT JOIN b ON a.k = b.k JOIN c ON a.k <=> c.k", Profile::Doris)
            .empty());
  CHECK(count("SELECT 1 FROM a LEFT SEMI JOIN b ON a.k = b.k", Profile::Trino).empty());
  CHECK(count("SELECT 1 FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k", Profile::Trino)
            .empty());
  CHECK(count("SELECT 1 FROM a LEFT JOIN b ON a.k = b.k JOIN c ON a.k = c.k", Profile::Trino) ==
        std::set<std::string>{"a.k", "b.k"});
  CHECK(parseProfile("trino") == Profile::Trino);
  CHECK_FALSE(parseProfile("oracle").has_value());
}

TEST_CASE(
    "reach: on every TPC-H and SSB query sound places at least as many safe consumers as each "
    "engine, and none that the verifier flags") {
  for (const char* file : {"tpch.sql", "ssb.sql"}) {
    Catalog catalog;
    std::vector<Query> qs = loadExample(file, catalog);
    const size_t profiles = allProfiles().size();
    std::vector<size_t> total(profiles, 0);
    for (auto& q : qs) {
      NormalizeReport nr;
      normalize(q.plan, {}, nr);
      std::vector<size_t> counts(profiles, 0);
      for (Profile p : allProfiles()) {
        PlanPtr copy = clonePlan(*q.plan);
        RfReport r;
        planRuntimeFilters(*copy, r, p);
        // Safe consumers: those the verifier does not flag.
        std::set<std::pair<int, int>> flagged;
        auto findings = verifyRuntimeFilters(*copy);
        for (const auto& f : findings)
          if (f.nodes.size() >= 2) flagged.insert({f.filter, f.nodes[1]});
        if (p == Profile::Sound) CHECK_MESSAGE(findings.empty(), q.name);
        // Range filters (<, <=, >, >=) built at joins: DuckDB builds them over
        // any build side, the sound policy only over one-row (scalar) sides
        // and TopN thresholds, so they are left out of the comparison.
        std::set<int> joinRanges;
        forEachNode(*copy, [&](const PlanNode& n) {
          if (n.op != PlanOp::Join) return;
          for (const auto& f : n.runtimeFilters)
            if (f.op != CmpOp::Eq && f.op != CmpOp::NullSafeEq) joinRanges.insert(f.id);
        });
        size_t safe = 0;
        for (const auto& c : r.consumers)
          safe += !flagged.count({c.filter, c.scan}) &&
                  (p == Profile::Sound || !joinRanges.count(c.filter));
        counts[static_cast<size_t>(p)] = safe;
        total[static_cast<size_t>(p)] += r.consumers.size();
      }
      CAPTURE(q.name);
      for (size_t p = 1; p < profiles; ++p) CHECK(counts[0] >= counts[p]);
    }
    // The figures of the closing note, on joins ordered by estimates (issue 15):
    // TPC-H sound 69, Doris 67, Trino 59 (73/70/62 in FROM order: cross products
    // gave a join several keys to build from; and Q18's TopN filter now stops at
    // the aggregate below it, where it could not act); SSB 36 each. Q18's semi
    // join now filters orders before lineitem joins them (semi joins move past
    // inner joins), so its filter no longer also reaches lineitem: 70/68 before.
    // Filters placed sideways (the other side of a join above, where the
    // producer's build side is selective) add 9 sound consumers: 78, 69 before.
    if (std::string(file) == "tpch.sql") CHECK(total[0] == 78);
    if (std::string(file) == "tpch.sql") CHECK(total[3] == 59);
    if (std::string(file) == "tpch.sql") CHECK(total[1] == 67);
    if (std::string(file) == "ssb.sql") CHECK(total[0] == 36);
    // DuckDB's pushdown walks only first children: with the fact table probing
    // every join it reaches 60 and 36 (32 and 19 in FROM order).
    if (std::string(file) == "tpch.sql") CHECK(total[4] == 60);
    if (std::string(file) == "ssb.sql") CHECK(total[4] == 36);
  }
}
