// A set operation as a filter producer (Doris's RuntimeFilterV2): an
// INTERSECT's or EXCEPT's filter of one input's values into another input, in
// plan JSON, the verifier, the evaluator and the solver.
#include <doctest/doctest.h>

#include <string>

#include "ir/plan_json.h"
#include "ir/printers.h"
#include "tests/unit/rf_test_support.h"
#include "verifier/bounded.h"
#include "verifier/symbolic.h"
#include "verifier/verify.h"

using namespace rfguard;

namespace {

/// Tables a, b, c of (k, v); k NOT NULL when `keysNotNull`.
std::string catalog(bool keysNotNull) {
  std::string t;
  for (const char* name : {"a", "b", "c"})
    t += std::string(t.empty() ? "" : ",") + R"({"name": ")" + name +
         R"(", "columns": [{"name": "k", "type": "int", "nullable": )" +
         (keysNotNull ? "false" : "true") +
         R"(}, {"name": "v", "type": "int", "nullable": true}]})";
  return R"({"format": "rfguard-plan", "version": 1, "catalog": {"tables": [)" + t + "]}, ";
}

/// `op` over scans of a, b (and c) outputting k and v; `filter` on the set
/// operation, `targets` of the scans by table.
std::string plan(const std::string& op, const std::string& filter, const std::string& ta,
                 const std::string& tb, const std::string& tc = "", bool three = false,
                 bool keysNotNull = false, bool all = false) {
  auto scan = [](const char* t, int id, const std::string& target) {
    std::string s = R"({"id": )" + std::to_string(id) + R"(, "op": "scan", "table": ")" + t +
                    R"(", "alias": ")" + t + R"(", "columns": ["k", "v"], "children": [])";
    if (!target.empty())
      s += R"(, "runtime_filter_targets": [{"id": 1, "target": {"column": ")" + target + R"("}}])";
    return s + "}";
  };
  std::string kids = scan("a", 1, ta) + ", " + scan("b", 2, tb);
  if (three) kids += ", " + scan("c", 3, tc);
  return catalog(keysNotNull) + R"("queries": [{"name": "q", "plan": {"id": 9, "op": ")" + op +
         R"(", "all": )" + (all ? "true" : "false") +
         R"(, "columns": ["e.k", "e.v"], "runtime_filters": [)" + filter + R"(], "children": [)" +
         kids + "]}}]}";
}

std::string rf(const std::string& build, const std::string& probe, bool nullAllowed) {
  return R"({"id": 1, "build": {"column": ")" + build + R"("}, "probe": {"column": ")" + probe +
         R"("}, "op": "=", "kinds": ["in", "bloom", "min_max"], "null_allowed": )" +
         (nullAllowed ? "true" : "false") + "}";
}

PlanPtr read(const std::string& json) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(readPlanDocument(json, "t.json", c, qs, d), d.render());
  REQUIRE(qs.size() == 1);
  return qs[0].plan;
}

std::string codes(const PlanNode& root) {
  std::string out;
  for (const auto& f : verifyRuntimeFilters(root)) out += (out.empty() ? "" : " ") + f.code;
  return out;
}

}  // namespace

TEST_CASE("set-op filters: the inputs they are built from and applied below") {
  auto p = read(plan("intersect", rf("c.k", "a.k", true), "a.k", "", "", true));
  const PlanNode& n = *p;
  REQUIRE(n.runtimeFilters.size() == 1);
  CHECK(filterBuildInput(n, n.runtimeFilters[0]) == 2);
  CHECK(filterProbeInput(n, n.runtimeFilters[0]) == 0);
  // A join's are its sides; a TopN filter reads no input's rows.
  RuntimeFilter f;
  PlanNode join;
  join.op = PlanOp::Join;
  CHECK(filterBuildInput(join, f) == 1);
  CHECK(filterProbeInput(join, f) == 0);
  PlanNode limit;
  limit.op = PlanOp::Limit;
  CHECK(filterBuildInput(limit, f) == -1);
  CHECK(filterProbeInput(limit, f) == 0);
}

TEST_CASE("set-op filters: sound placements lint clean, unsound ones are findings") {
  // Doris's q87 shape: EXCEPT's first input's values into the other inputs.
  CHECK(codes(*read(plan("except", rf("a.k", "b.k", true), "", "b.k"))) == "");
  CHECK(codes(*read(plan("except", rf("a.k", "c.k", true), "", "", "c.k", true))) == "");
  // An INTERSECT's: any input's values into any other.
  CHECK(codes(*read(plan("intersect", rf("c.k", "a.k", true), "a.k", "", "", true))) == "");
  CHECK(codes(*read(
            plan("intersect", rf("a.k", "b.k", true), "", "b.k", "", false, false, true))) == "");
  // NULL keys that cannot match: an `=` filter is enough where a column is NOT NULL.
  CHECK(codes(*read(plan("except", rf("a.k", "b.k", false), "", "b.k", "", false, true))) == "");
  CHECK(codes(*read(plan("except", rf("a.k", "b.k", false), "", "b.k"))) == "null-flag-mismatch");
  CHECK(codes(*read(plan("union", rf("a.k", "b.k", true), "", "b.k"))) ==
        "set-op-producer-ineligible");
  CHECK(codes(*read(plan("except", rf("b.k", "a.k", true), "a.k", ""))) ==
        "set-op-producer-ineligible");
  // EXCEPT's second input's values bound no third input either.
  CHECK(codes(*read(plan("except", rf("b.k", "c.k", true), "", "", "c.k", true))) ==
        "set-op-producer-ineligible");
  CHECK(codes(*read(plan("except", rf("a.k", "b.v", true), "", "b.v"))) ==
        "set-op-producer-ineligible");
  // Consumers: in the build input it waits on itself; in a third input it is
  // not below its probe input.
  CHECK(codes(*read(plan("except", rf("a.k", "b.k", true), "a.k", ""))) ==
        "consumer-in-build-side");
  CHECK(codes(*read(plan("except", rf("a.k", "b.k", true), "", "", "c.k", true))) ==
        "consumer-outside-probe-side");
}

TEST_CASE(
    "set-op filters: the bounded check refutes a NULL-dropping filter and the solver "
    "proves a null-allowing one") {
  BoundedOptions o;
  o.bound = 2;
  {
    auto p = read(plan("except", rf("a.k", "b.k", false), "", "b.k"));
    const BoundedVerdict v = checkFilters(*p, o).at(0);
    REQUIRE(v.counterexample);
    CHECK_FALSE(v.safe);
    // a = b = {NULL}: EXCEPT returns nothing, with b's NULL filtered out it returns NULL.
    CHECK(v.counterexample->original.empty());
    CHECK(v.counterexample->rewritten.size() == 1);
  }
  for (const char* op : {"except", "intersect"}) {
    CAPTURE(op);
    auto p = read(plan(op, rf("a.k", "b.k", true), "", "b.k"));
    CHECK(symbolicFilters(*p, {}, 2, 5).kind == SymbolicVerdict::Kind::Equal);
  }
  // The solver refutes the filter into EXCEPT's first input (values it returns).
  auto bad = read(plan("except", rf("b.k", "a.k", true), "a.k", ""));
  CHECK(symbolicFilters(*bad, {}, 2, 5).kind == SymbolicVerdict::Kind::Differs);
  // Three inputs, read from the left: ((a - b) - c). The first input's values
  // into the third are sound; the second's into the third are not (a = c =
  // {1}, b = {}: filtered by b's values, c loses 1 and the EXCEPT returns it).
  for (bool all : {false, true}) {
    CAPTURE(all);
    auto good = read(plan("except", rf("a.k", "c.k", true), "", "", "c.k", true, false, all));
    CHECK(symbolicFilters(*good, {}, 2, 5).kind == SymbolicVerdict::Kind::Equal);
    auto wrong = read(plan("except", rf("b.k", "c.k", true), "", "", "c.k", true, false, all));
    CHECK(symbolicFilters(*wrong, {}, 2, 5).kind == SymbolicVerdict::Kind::Differs);
    const BoundedVerdict v = checkFilters(*wrong, o).at(0);
    CHECK(v.counterexample);
    auto three = read(plan("intersect", rf("c.k", "b.k", true), "", "b.k", "", true, false, all));
    CHECK(symbolicFilters(*three, {}, 2, 5).kind == SymbolicVerdict::Kind::Equal);
  }
}

TEST_CASE("set-op filters: plan JSON and text carry them") {
  auto p = read(plan("intersect", rf("a.k", "b.k", true), "", "b.k"));
  const std::string json = planToJson(*p).dump();
  CHECK(json.find(R"("op":"intersect")") != std::string::npos);
  CHECK(json.find(R"("runtime_filters":[{)") != std::string::npos);
  CHECK(planToText(*p).find("Intersect #9 DISTINCT [e.k, e.v]; RF1 <- a.k (b.k =") !=
        std::string::npos);
}

TEST_CASE("set-op filters: the sound and doris profiles place them, others do not") {
  using rfguard::testing::consumers;
  using rfguard::testing::plan;
  // ((a EXCEPT b) EXCEPT c), as the binder nests it: each EXCEPT's first
  // input's values into its second, null-allowing (both columns may be NULL),
  // verified sound.
  auto p = plan("SELECT k FROM a EXCEPT SELECT k FROM b EXCEPT SELECT k FROM c;");
  const PlanNode* outer = rfguard::testing::find(*p.queries[0].plan, PlanOp::Except);
  REQUIRE(outer);
  const PlanNode* inner = rfguard::testing::find(*outer->children[0], PlanOp::Except);
  REQUIRE(inner);
  for (const PlanNode* e : {outer, inner}) {
    REQUIRE(e->runtimeFilters.size() == 1);
    CHECK(e->runtimeFilters[0].nullAllowed);
    CHECK(filterBuildInput(*e, e->runtimeFilters[0]) == 0);
    CHECK(filterProbeInput(*e, e->runtimeFilters[0]) == 1);
  }
  CHECK(consumers(p, outer->runtimeFilters[0].id) == std::set<std::string>{"c.k"});
  CHECK(consumers(p, inner->runtimeFilters[0].id) == std::set<std::string>{"b.k"});
  CHECK(verifyRuntimeFilters(*p.queries[0].plan).empty());
  // Through the other input's operators by the same hooks: into b below its
  // filter and its projection.
  auto q = plan("SELECT k FROM a INTERSECT SELECT k + 0 FROM b WHERE v > 1;");
  const PlanNode* i = rfguard::testing::find(*q.queries[0].plan, PlanOp::Intersect);
  REQUIRE(i);
  REQUIRE(i->runtimeFilters.size() == 1);
  CHECK(consumers(q, i->runtimeFilters[0].id) == std::set<std::string>{"b.k + 0"});
  CHECK(verifyRuntimeFilters(*q.queries[0].plan).empty());
  // UNION builds none; the trino and starrocks profiles none at EXCEPT either.
  auto u = plan("SELECT k FROM a UNION SELECT k FROM b;");
  CHECK(u.report.consumers.empty());
  for (Profile prof : {Profile::Trino, Profile::StarRocks}) {
    RfOptions o;
    o.profile = prof;
    auto t = plan("SELECT k FROM a EXCEPT SELECT k FROM b;", true, o);
    CHECK(t.report.consumers.empty());
  }
  RfOptions doris;
  doris.profile = Profile::Doris;
  auto d = plan("SELECT k FROM a EXCEPT SELECT k FROM b;", true, doris);
  CHECK(d.report.consumers.size() == 1);
}
