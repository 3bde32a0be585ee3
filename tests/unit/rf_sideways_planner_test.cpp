// Filters the planner places beside their producer (rules/rf_planner_sideways.cpp):
// the sound profile's sideways copies, Doris' decoupled filters in the doris
// profile, and the wait graph that makes one of two mutually waiting filters
// non-blocking. Doris TPC-H q9 is the plan the engine itself printed.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "engines/doris/adapter.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "pipeline/session.h"
#include "rules/rf_planner.h"
#include "rules/rf_planner_sideways.h"
#include "verifier/bounded.h"
#include "verifier/verify.h"

using namespace rfguard;

namespace {

std::string readSource(const std::string& path) {
  std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/" + path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// One of Doris' TPC-H shape plans, imported with TPC-H's schema and statistics.
Session dorisPlan(const std::string& query, Diagnostics& d) {
  SessionOptions so;
  std::vector<Query> none;
  REQUIRE(loadSql(readSource("corpus/examples/tpch.sql"), "tpch.sql", so.schema, none, d));
  so.given = GivenPlans::Json;
  Session s(so);
  REQUIRE_MESSAGE(
      s.loadEngine(readSource("corpus/engines/doris/tpch_sf1000_shape_" + query + ".out"),
                   query + ".out", engine::dorisAdapter(), d),
      d.render());
  s.run();
  REQUIRE(s.queries().size() == 1);
  return s;
}

/// Per filter: its producer's condition, the filter, and its targets ("table.column").
struct Placed {
  std::string producer;
  RuntimeFilter filter;
  std::vector<std::string> targets;
};

std::map<int, Placed> placedIn(const PlanNode& root) {
  std::map<int, Placed> out;
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters)
      out[f.id].producer = exprToString(*n.predicate), out[f.id].filter = f;
    for (const auto& t : n.runtimeFilterTargets)
      out[t.id].targets.push_back(exprToString(*t.target));
  });
  return out;
}

/// The one filter that reaches `target`, by producer condition.
const Placed* reaching(const std::map<int, Placed>& placed, const std::string& target) {
  const Placed* found = nullptr;
  for (const auto& [id, p] : placed)
    for (const auto& t : p.targets)
      if (t == target) {
        CHECK_MESSAGE(!found, "two filters reach " << target);
        found = &p;
      }
  return found;
}

/// The session's one query with its filters re-placed under a profile, on a copy.
struct Replaced {
  RfReport report;
  PlanPtr plan;
  std::map<int, Placed> filters;
  QueryRun run;  ///< the query with that plan, for Session::verify
};

Replaced replaced(const Session& s, Profile profile) {
  Replaced r;
  r.plan = deepClonePlan(*s.queries()[0].query.plan);
  planRuntimeFilters(*r.plan, r.report, RfOptions(profile));
  r.filters = placedIn(*r.plan);
  r.run = s.queries()[0];
  r.run.query.plan = r.plan;
  return r;
}

/// Whether a decision of `rule` whose reason holds `words` is among `edges`.
bool decided(const std::vector<RfEdge>& edges, RfRule rule, const std::string& words = "") {
  for (const auto& e : edges)
    if (e.decision.rule == rule && e.decision.reason.text().find(words) != std::string::npos)
      return true;
  return false;
}

constexpr const char* kPartJoin = "part.p_partkey = lineitem.l_partkey";

/// The filter reaching `target` in the session's one query written as plan
/// JSON (which must hold `written`) and read back, where lint finds nothing.
Placed throughJson(const Session& s, const std::string& target, const std::string& written) {
  const std::string json = documentToJson(s.inputs()[0].catalog, {s.queries()[0].query}).dump();
  CHECK(json.find(written) != std::string::npos);
  Session back{SessionOptions{}};
  Diagnostics d;
  REQUIRE_MESSAGE(back.loadContent(json, "back.json", d), d.render());
  back.run();
  CHECK(back.verify(back.queries()[0]).empty());
  const auto filters = placedIn(*back.queries()[0].query.plan);
  const Placed* read = reaching(filters, target);
  REQUIRE(read);
  return *read;
}

/// The filter that reaches partsupp: part's keys, from the join of part and lineitem.
const Placed& toPartsupp(const std::map<int, Placed>& filters) {
  const Placed* p = reaching(filters, "partsupp.ps_partkey");
  REQUIRE(p);
  CHECK(p->producer == kPartJoin);
  CHECK(exprToString(*p->filter.build) == "part.p_partkey");
  return *p;
}

}  // namespace

TEST_CASE("Doris q9 as printed: its decoupled RF8 is imported non-blocking, so no wait cycle") {
  Diagnostics d;
  Session s = dorisPlan("q9", d);
  const auto& q = s.queries()[0];
  auto filters = placedIn(*q.query.plan);
  // Doris' RF8 is rfguard's RF9: p_partkey's keys at partsupp, beside its join.
  const Placed& rf8 = toPartsupp(filters);
  CHECK(rf8.filter.id == 9);
  CHECK(rf8.filter.nonBlocking);
  // Doris' RF7 (partsupp's keys at part) stays blocking: the two no longer wait on each other.
  const Placed* rf7 = reaching(filters, "part.p_partkey");
  REQUIRE(rf7);
  CHECK_FALSE(rf7->filter.nonBlocking);
  CHECK(s.verify(q).empty());
  // Plan JSON carries it both ways ("non_blocking": true).
  CHECK(throughJson(s, "partsupp.ps_partkey", "\"non_blocking\":true").filter.nonBlocking);
  // Both blocking, as a Doris without decoupled filters' non-blocking waits would run it.
  PlanPtr blocking = deepClonePlan(*q.query.plan);
  forEachNode(*blocking, [](const PlanNode& n) {
    for (auto& f : const_cast<PlanNode&>(n).runtimeFilters) f.nonBlocking = false;
  });
  QueryRun both = q;
  both.query.plan = blocking;
  auto fs = s.verify(both);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].code == "filter-wait-cycle");
  CHECK(fs[0].message.find("RF8 waits on RF9 waits on RF8") != std::string::npos);
  // The wait graph sees the same cycle, and none once RF9 does not block.
  WaitGraph waits(*blocking);
  forEachNode(*blocking, [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) waits.producer(f.id, n);
    for (const auto& t : n.runtimeFilterTargets) waits.consumer(t.id, n);
  });
  CHECK(waits.closesCycle(8));
  CHECK(waits.closesCycle(9));
  CHECK_FALSE(waits.closesCycle(1));  // RF1: n_nationkey at supplier
  waits.nonBlocking(9);
  CHECK_FALSE(waits.closesCycle(8));
  CHECK_FALSE(waits.closesCycle(9));
}

TEST_CASE("the doris profile places Doris' decoupled filter on q9 as Doris does") {
  Diagnostics d;
  Session s = dorisPlan("q9", d);
  Replaced r = replaced(s, Profile::Doris);
  // With statistics Doris prefers it: it blocks, and the condition's own
  // filters (partsupp's ps_partkey, at lineitem and at part) do not.
  CHECK_FALSE(toPartsupp(r.filters).filter.nonBlocking);
  std::vector<std::string> own;
  for (const auto& [id, p] : r.filters)
    if (exprToString(*p.filter.build) == "partsupp.ps_partkey") {
      CHECK(p.filter.nonBlocking);
      own.insert(own.end(), p.targets.begin(), p.targets.end());
    }
  std::sort(own.begin(), own.end());
  CHECK(own == std::vector<std::string>{"lineitem.l_partkey", "part.p_partkey"});
  // l_suppkey = ps_suppkey finds orders' join below (its build side provides
  // l_suppkey) with as many suppliers as partsupp has: Doris prunes it (ratio 1).
  CHECK(decided(r.report.generation, RfRule::DorisDecoupled, "10000 keys against 10000 values"));
  CHECK(s.verify(r.run).empty());
}

TEST_CASE("the sound profile places q9's sideways filter, non-blocking against the cycle") {
  Diagnostics d;
  Session s = dorisPlan("q9", d);
  Replaced r = replaced(s, Profile::Sound);
  const Placed& side = toPartsupp(r.filters);
  CHECK(side.filter.nonBlocking);  // part's scan waits for partsupp's keys
  CHECK(side.targets == std::vector<std::string>{"partsupp.ps_partkey"});
  CHECK(decided(r.report.generation, RfRule::NonBlockingAgainstWaitCycle));
  CHECK(s.verify(r.run).empty());
  const PlanPtr& plan = r.plan;
  // The whole plan: partsupp is read before the non-blocking filter is ready
  // (part waits for partsupp's keys), so the evaluator reads on without it.
  BoundedOptions o;
  o.bound = 1;
  o.method = BoundedOptions::Method::Whole;
  auto v = checkFilters(*plan, o).front();
  CHECK(v.error.empty());
  CHECK(v.safe);
  // Its slice, rooted at the join above whose build side it filters: there it is applied.
  o.bound = 2;
  o.method = BoundedOptions::Method::Slices;
  v = checkFilters(*plan, o).front();
  CHECK(v.error.empty());
  CHECK(v.sliceLimit.empty());
  CHECK(v.sliceBound == 2);
  CHECK(v.safe);
}

TEST_CASE("sideways only where the producer's build side is selective") {
  auto run = [](const std::string& where) {
    SessionOptions so;
    Session s(so);
    Diagnostics d;
    REQUIRE(s.loadContent(
        "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int); CREATE TABLE c (k int, v "
        "int); SELECT a.v FROM a JOIN b ON a.k = b.k JOIN c ON a.k = c.k" +
            where + ";",
        "q.sql", d));
    s.run();
    REQUIRE(s.queries().size() == 1);
    return s;
  };
  // Nothing filters b: its keys are no fewer than c's values, so no sideways filter.
  Session plain = run("");
  const auto& p = plain.queries()[0];
  CHECK_FALSE(reaching(placedIn(*p.query.plan), "c.k"));
  CHECK(decided(p.placement.rejected, RfRule::SidewaysWhereSelective,
                "no statistics, and nothing filters the build side"));
  // b filtered: b's keys go to c, the build side of the join above. c's filter
  // (copied to b across a.k = b.k) waits on c, so the sideways one does not block.
  Session filtered = run(" WHERE b.v = 1");
  const auto& q = filtered.queries()[0];
  auto filters = placedIn(*q.query.plan);
  const Placed* side = reaching(filters, "c.k");
  REQUIRE(side);
  CHECK(exprToString(*side->filter.build) == "b.k");
  CHECK(side->filter.nonBlocking);
  CHECK(filtered.verify(q).empty());
  BoundedOptions o;
  o.bound = 2;
  auto v = checkFilters(*q.query.plan, o).front();
  CHECK(v.error.empty());
  CHECK(v.safe);
}

TEST_CASE("Doris q18's decoupled RF3 from a column its join does not compare: beside it only") {
  Diagnostics d;
  Session s = dorisPlan("q18", d);
  const auto& q = s.queries()[0];
  const auto filters = placedIn(*q.query.plan);
  const Placed* rf3 = reaching(filters, "customer.c_custkey");
  REQUIRE(rf3);
  CHECK(rf3->producer == "orders.o_orderkey = g2.0_l_orderkey");
  CHECK(rf3->filter.besideOnly);
  CHECK(rf3->filter.nonBlocking);
  CHECK(exprToString(*rf3->filter.build) == "orders.o_custkey");
  CHECK(filterToString(rf3->filter).find("beside its join only") != std::string::npos);
  CHECK(s.verify(q).empty());
  // Plan JSON leaves its probe key out, and reads it back the same.
  CHECK(throughJson(s, "customer.c_custkey", "\"build\":{\"column\":\"orders.o_custkey\"},\"op\"")
            .filter.besideOnly);
  // The sound profile places it too (100,000 o_custkey values against
  // customer's 150,000 keys); the doris profile does not: Doris's statistics
  // at scale factor 1000 find HAVING sum(l_quantity) > 300 keeps few orders,
  // rfguard's estimate keeps a third, which is over Doris's ratio of 0.5.
  Replaced sound = replaced(s, Profile::Sound);
  const Placed* mine = reaching(sound.filters, "customer.c_custkey");
  REQUIRE(mine);
  CHECK(mine->filter.besideOnly);
  CHECK(s.verify(sound.run).empty());
  Replaced doris = replaced(s, Profile::Doris);
  CHECK_FALSE(reaching(doris.filters, "customer.c_custkey"));
  CHECK(decided(doris.report.generation, RfRule::DorisDecoupled,
                "about 100000 keys against 150000 values"));
}
