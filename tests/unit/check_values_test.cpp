// `check` over every value (issue 44 §2, verifier/symbolic.h symbolicFilters):
// the solver proves sound placements for any content that holds every build
// key, refutes unsafe ones with a database the evaluator confirms, and says
// which constructs it leaves open.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "ir/plan_json.h"
#include "verifier/bounded.h"
#include "verifier/symbolic.h"

using namespace rfguard;

namespace {

std::vector<Query> planOf(const std::string& rel, Catalog& c) {
  std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/" + rel);
  std::stringstream buf;
  buf << in.rdbuf();
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(readPlanDocument(buf.str(), rel, c, qs, d), d.render());
  REQUIRE(qs.size() == 1);
  return qs;
}

SymbolicVerdict solve(const std::string& rel) {
  Catalog c;
  auto qs = planOf(rel, c);
  return symbolicFilters(*qs[0].plan, {}, 2, 5);
}

}  // namespace

TEST_CASE("check values: sound placements hold for every content and value") {
  // A `<=>` filter that lets NULL through, a composite key, a range filter.
  for (const char* rel : {"corpus/check/null_safe_accepts.json", "corpus/check/composite.json",
                          "corpus/check/range_min_max.json"}) {
    CAPTURE(rel);
    CHECK(solve(rel).kind == SymbolicVerdict::Kind::Equal);
  }
}

TEST_CASE("check values: unsafe placements are refuted, the model confirmed by the evaluator") {
  for (const char* rel :
       {"corpus/check/null_safe_rejects.json", "corpus/check/left_anti_probe.json",
        "corpus/check/not_in_probe.json", "corpus/check/range_min_max_left.json",
        "corpus/lint/coalesce_into_left_join.json"}) {
    CAPTURE(rel);
    Catalog c;
    auto qs = planOf(rel, c);
    const SymbolicVerdict s = symbolicFilters(*qs[0].plan, {}, 2, 5);
    CHECK(s.kind == SymbolicVerdict::Kind::Differs);
    BoundedOptions o;
    o.bound = 2;
    BoundedVerdict v;
    v.bound = 2;
    checkFiltersEveryValue(*qs[0].plan, {}, {}, o, v);
    REQUIRE(v.counterexample);
    CHECK_FALSE(v.safe);
    // Minimal: one row per table is enough for each of these.
    CHECK(v.bound == 0);
    for (const auto& [name, t] : v.counterexample->db) CHECK(t.rows.size() <= 1);
    CHECK_FALSE(v.counterexample->original == v.counterexample->rewritten);
  }
}

TEST_CASE("check values: the whole check says every value, or why not") {
  Catalog c;
  auto qs = planOf("corpus/check/null_safe_accepts.json", c);
  BoundedOptions o;
  o.bound = 2;
  auto vs = checkFilters(*qs[0].plan, o);
  REQUIRE(vs.size() == 1);
  CHECK(vs[0].safe);
  CHECK(vs[0].everyValue);
  CHECK(vs[0].valuesOpen.empty());
  CHECK(vs[0].domain.find("NULL") != std::string::npos);
  // A filter below a LIMIT: outside the fragment, so the values stay open.
  Catalog c2;
  auto limited = planOf("corpus/check/below_limit.json", c2);
  CHECK(symbolicFilters(*limited[0].plan, {}, 2, 5).kind == SymbolicVerdict::Kind::Unsupported);
}
