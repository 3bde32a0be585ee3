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

/// checkFiltersEveryValue at bound 2 over every filter, with or without the oracle.
BoundedVerdict everyValue(const PlanNode& plan, bool oracle = false) {
  BoundedOptions o;
  o.bound = 2;
  o.oracle = oracle;
  BoundedVerdict v;
  v.bound = 2;
  checkFiltersEveryValue(plan, {}, {}, o, v);
  return v;
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
                          "corpus/check/range_min_max.json", "corpus/check/topn_join.json"}) {
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
    const BoundedVerdict v = everyValue(*qs[0].plan);
    REQUIRE(v.counterexample);
    CHECK_FALSE(v.safe);
    // Minimal: one row per table is enough for each of these.
    CHECK(v.bound == 0);
    for (const auto& [name, t] : v.counterexample->db) CHECK(t.rows.size() <= 1);
    CHECK_FALSE(v.counterexample->original == v.counterexample->rewritten);
  }
}

TEST_CASE("check values: the solver's counterexample is replayed by the oracle") {
  // Each unsafe placement's database, as the solver found and shrank it, run in
  // SQLite: the original and every content's rewritten plan, as the search does
  // with its own databases; SQLite agrees with the evaluator on each.
  for (const char* rel :
       {"corpus/check/null_safe_rejects.json", "corpus/check/left_anti_probe.json",
        "corpus/check/range_min_max_left.json"}) {
    CAPTURE(rel);
    Catalog c;
    auto qs = planOf(rel, c);
    const BoundedVerdict v = everyValue(*qs[0].plan, true);
    REQUIRE(v.counterexample);
    CHECK(v.oracleName == "SQLite");
    CHECK(v.oracleSkipped.empty());
    // The original, and each content's rewritten plan up to the one that shows the difference.
    CHECK(v.oracleRuns >= 2);
    CHECK(v.oracleDisagreements.empty());
    // Without the oracle asked for, none runs.
    CHECK(everyValue(*qs[0].plan).oracleRuns == 0);
  }
  // The replay on one database is the search's probe: a counterexample and the
  // oracle's runs on it.
  Catalog c;
  auto qs = planOf("corpus/check/null_safe_rejects.json", c);
  const BoundedVerdict v = everyValue(*qs[0].plan);
  REQUIRE(v.counterexample);
  BoundedOptions o;
  o.bound = 2;
  o.oracle = true;
  const BoundedVerdict one =
      checkFiltersOnDatabase(*qs[0].plan, {}, v.counterexample->extras, v.counterexample->db, o);
  CHECK(one.counterexample);
  CHECK(one.oracleRuns == 2);  // the original, and the exact content that shows it
  CHECK(one.oracleDisagreements.empty());
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
  // A filter below a LIMIT changes which rows it keeps: the solver finds it too.
  Catalog c2;
  auto limited = planOf("corpus/check/below_limit.json", c2);
  CHECK(symbolicFilters(*limited[0].plan, {}, 2, 5).kind == SymbolicVerdict::Kind::Differs);
  // A TopN filter into a LEFT JOIN's NULL-generating side, NULLs first: the
  // solver tells the plans apart (its threshold, the top row's NULL, drops b's
  // row), and the check refutes it with the database a = {1, 2}, b = {(1, 1)}.
  Catalog c3;
  auto topn = planOf("corpus/check/topn_left_nulls_first.json", c3);
  CHECK(symbolicFilters(*topn[0].plan, {}, 2, 5).kind == SymbolicVerdict::Kind::Differs);
  auto refuted = checkFilters(*topn[0].plan, o);
  REQUIRE(refuted.size() == 1);
  REQUIRE(refuted[0].counterexample);
  CHECK(refuted[0].counterexample->db.at("a").rows.size() == 2);
  CHECK(refuted[0].counterexample->db.at("b").rows.size() == 1);
}
