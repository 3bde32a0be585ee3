// Issue 43: the causes of lint's unsound and imprecise verdicts, one by one.
// corpus/lint/soundness.test holds the same cases end to end, each checked by
// the bounded verifier as well.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "pipeline/session.h"
#include "rules/rf_hooks.h"
#include "verifier/bounded.h"
#include "verifier/counterexample.h"
#include "verifier/judge.h"
#include "verifier/verify.h"

using namespace rfguard;

namespace {

/// The cases of corpus/lint/soundness.test: each plan JSON input, by the title above it.
std::string corpusPlan(const std::string& titleStart) {
  std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/corpus/lint/soundness.test");
  REQUIRE(in);
  std::string line, title;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) title = line.substr(2);
    if (line == "lint" && title.rfind(titleStart, 0) == 0) {
      std::getline(in, line);
      return line;
    }
  }
  FAIL("no case titled " << titleStart);
  return "";
}

/// The findings of a plan JSON document judged as given, with or without the second judge.
std::vector<Finding> lintJson(const std::string& json, bool judge) {
  SessionOptions so;
  so.semanticJudge = judge;
  Session s(so);
  Diagnostics d;
  REQUIRE_MESSAGE(s.loadContent(json, "q.json", d), d.render());
  s.run();
  REQUIRE(s.queries().size() == 1);
  return s.verify(s.queries()[0]);
}

RuntimeFilter filterOf(CmpOp op, bool nullAllowed, bool acceptNull) {
  RuntimeFilter f;
  f.op = op;
  f.nullAllowed = nullAllowed;
  f.acceptNull = acceptNull;
  return f;
}

}  // namespace

TEST_CASE("one notion of a filter that matches NULL keys, read by every hook") {
  // A `<=>` filter marked only accept_null used to pass for one that rejects NULL.
  CHECK(matchesNullKeys(filterOf(CmpOp::NullSafeEq, false, true)));
  CHECK(matchesNullKeys(filterOf(CmpOp::NullSafeEq, true, false)));
  CHECK(matchesNullKeys(filterOf(CmpOp::NullSafeEq, false, false)));
  CHECK(matchesNullKeys(filterOf(CmpOp::Le, true, false)));  // a TopN threshold, NULLs first
  // accept_null on `=`: the producer's `=` still rejects the NULL key.
  CHECK_FALSE(matchesNullKeys(filterOf(CmpOp::Eq, false, true)));
  CHECK_FALSE(matchesNullKeys(filterOf(CmpOp::Eq, false, false)));

  auto fs = lintJson(corpusPlan("a `<=>` filter marked accept_null"), false);
  REQUIRE(fs.size() == 2);
  CHECK(fs[0].code == "unsafe-null-generating-side");
  CHECK(fs[1].code == "unsafe-equality-copy");
  CHECK(lintJson(corpusPlan("an `=` filter marked accept_null"), false).empty());
}

TEST_CASE("NOT IN's list takes an `=` filter that keeps NULL keys, judged strictly below it") {
  CHECK(lintJson(corpusPlan("an `=` filter that accepts NULL keys copied into the NOT IN"), false)
            .empty());
  CHECK(lintJson(corpusPlan("an accept_null filter below the NOT IN list across an inner"), false)
            .empty());
  for (const char* unsafe :
       {"the same without accept_null", "a `<=>` filter that accepts NULL keys"}) {
    CAPTURE(unsafe);
    auto fs = lintJson(corpusPlan(unsafe), false);
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].code == "into-null-aware-anti-build");
  }
  // Below the list a NULL key counts: a lost LEFT JOIN match turns 2 into NULL.
  auto below = lintJson(corpusPlan("an accept_null filter below the NOT IN list entering"), false);
  REQUIRE(below.size() == 1);
  CHECK(below[0].code == "unsafe-null-generating-side");
  RuntimeFilter f = filterOf(CmpOp::Eq, false, true);
  CHECK_FALSE(matchesNullKeys(f));
  CHECK(matchesNullKeys(nullKeysCount(f)));
}

TEST_CASE("comparesExactly: where a key's value carries across a comparison") {
  auto t = [](TypeKind k) { return Type::of(k); };
  CHECK(comparesExactly(t(TypeKind::Int), t(TypeKind::BigInt)));
  CHECK(comparesExactly(t(TypeKind::Int), t(TypeKind::Double)));
  CHECK(comparesExactly(t(TypeKind::SmallInt), t(TypeKind::Real)));
  CHECK(comparesExactly(t(TypeKind::BigInt), Type::of(TypeKind::Decimal, 20, 2)));
  CHECK(comparesExactly(t(TypeKind::Real), t(TypeKind::Double)));
  CHECK(comparesExactly(t(TypeKind::Varchar), t(TypeKind::Text)));
  CHECK(comparesExactly(t(TypeKind::Unknown), t(TypeKind::Varchar)));
  // 2^53 + 1 = 2^53 through DOUBLE; 2^24 + 1 = 2^24 through REAL.
  CHECK_FALSE(comparesExactly(t(TypeKind::BigInt), t(TypeKind::Double)));
  CHECK_FALSE(comparesExactly(t(TypeKind::Int), t(TypeKind::Real)));
  CHECK_FALSE(comparesExactly(Type::of(TypeKind::Decimal, 10, 1), t(TypeKind::Double)));
  CHECK_FALSE(comparesExactly(t(TypeKind::Int), t(TypeKind::Varchar)));
  CHECK_FALSE(comparesExactly(t(TypeKind::Char), t(TypeKind::Varchar)));
  CHECK_FALSE(comparesExactly(t(TypeKind::Date), t(TypeKind::Timestamp)));
}

TEST_CASE("subquery plans are verified: consumers inside them, with the correlation crossed") {
  auto unsafe = lintJson(corpusPlan("a consumer inside EXISTS whose correlation"), false);
  REQUIRE(unsafe.size() == 1);
  CHECK(unsafe[0].code == "into-subquery");
  CHECK(unsafe[0].nodes == std::vector<int>{6, 2, 4});
  CHECK(lintJson(corpusPlan("a consumer inside EXISTS below the correlation"), false).empty());
  CHECK(lintJson(corpusPlan("a consumer inside NOT EXISTS below"), false).empty());
  CHECK(lintJson(corpusPlan("a consumer inside a scalar count(*) correlated"), false).empty());
  auto count = lintJson(corpusPlan("a consumer inside an uncorrelated scalar count(*)"), false);
  REQUIRE(count.size() == 1);
  CHECK(count[0].code == "into-subquery");
  // A producer inside a subquery plan is checked like any other.
  auto inner = lintJson(corpusPlan("a producer inside a subquery"), false);
  REQUIRE_FALSE(inner.empty());
  CHECK(inner[0].code == "null-flag-mismatch");
}

TEST_CASE("EXCEPT's right input and OFFSET 0 pass a filter; an unordered LIMIT is a warning") {
  CHECK(lintJson(corpusPlan("a filter into EXCEPT's right input"), false).empty());
  CHECK(lintJson(corpusPlan("the same into EXCEPT ALL's right input"), false).empty());
  CHECK(lintJson(corpusPlan("a filter below OFFSET 0"), false).empty());
  auto unordered = lintJson(corpusPlan("a filter below a LIMIT without ORDER BY"), false);
  REQUIRE(unordered.size() == 1);
  CHECK(unordered[0].code == "crossed-unordered-limit");
  CHECK(unordered[0].severity == Severity::Warning);
  auto ordered = lintJson(corpusPlan("a filter below ORDER BY ... LIMIT"), false);
  REQUIRE(ordered.size() == 1);
  CHECK(ordered[0].code == "crossed-limit");
}

TEST_CASE("the second judge: refuted findings stay errors with their database") {
  auto fs = lintJson(corpusPlan("a consumer inside EXISTS whose correlation"), true);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].judge == "refuted");
  CHECK(fs[0].severity == Severity::Error);
  CHECK(fs[0].message.find("refuted by the bounded check") != std::string::npos);
  auto limit = lintJson(corpusPlan("a filter below ORDER BY ... LIMIT"), true);
  REQUIRE(limit.size() == 1);
  CHECK(limit[0].judge == "refuted");
  // Without the judge, findings are the rules' alone.
  CHECK(lintJson(corpusPlan("a consumer inside EXISTS whose correlation"), false)[0].judge ==
        "rules");
  CHECK(judgedBySearch("crossed-limit"));
  CHECK_FALSE(judgedBySearch("duplicate-filter-id"));
  CHECK_FALSE(judgedBySearch("crossed-unordered-limit"));  // sound under its own semantics
}

TEST_CASE("a WHERE equality carries the key: a.k = a.v lets a.k's filter apply to a.v") {
  // Consumed as a.v below `a.k = a.v`: a row the filter removes has a.v = a.k
  // outside the build domain, or fails the equality (CopyAcrossFilterEquality).
  auto plan = [](const std::string& pred, const std::string& type) {
    return R"({"format": "rfguard-plan", "version": 1, "catalog": {"tables": [
    {"name": "a", "columns": [{"name": "k", "type": "int", "nullable": true}, {"name": "v", "type": ")" +
           type + R"(", "nullable": true}]},
    {"name": "b", "columns": [{"name": "k", "type": "int", "nullable": true}]}]},
    "queries": [{"name": "q", "plan":
    {"id": 4, "op": "join", "join_type": "inner",
     "condition": {"call": "=", "args": [{"column": "a.k"}, {"column": "b.k"}]},
     "runtime_filters": [{"id": 1, "build": {"column": "b.k"}, "probe": {"column": "a.k"}, "op": "=", "kinds": ["in"]}],
     "children": [
       {"id": 2, "op": "filter", "predicate": {"call": ")" +
           pred + R"(", "args": [{"column": "a.k"}, {"column": "a.v"}]}, "children": [
         {"id": 1, "op": "scan", "table": "a", "alias": "a", "columns": ["k", "v"],
          "runtime_filter_targets": [{"id": 1, "target": {"column": "a.v"}}], "children": []}]},
       {"id": 3, "op": "scan", "table": "b", "alias": "b", "columns": ["k"], "children": []}]}}]})";
  };
  CHECK(lintJson(plan("=", "int"), false).empty());
  CHECK(lintJson(plan("<=>", "int"), false).empty());
  // Not across a range comparison, nor BIGINT = DOUBLE-like inexact sides.
  auto lt = lintJson(plan("<", "int"), false);
  REQUIRE(lt.size() == 1);
  CHECK(lt[0].code == "target-not-derivable");
  // The side condition matters: across `a.k < a.v` the search finds the database
  // (a = {(1, 2)}, b = {1}: the filter drops a.v = 2, the join's row is lost).
  CHECK(lintJson(plan("<", "int"), true)[0].judge == "refuted");
  REQUIRE(lintJson(plan("=", "real"), false).size() == 1);
}

TEST_CASE("the second judge: a placement the rules cannot justify and the search cannot refute") {
  // Consumed as a.k + 0: the same values, but no rule derives the sum from
  // a.k. The search finds no counterexample: a warning that says what was
  // searched, not an error and not a silent pass.
  const std::string json = R"({"format": "rfguard-plan", "version": 1, "catalog": {"tables": [
    {"name": "a", "columns": [{"name": "k", "type": "int", "nullable": true}]},
    {"name": "b", "columns": [{"name": "k", "type": "int", "nullable": true}]}]},
    "queries": [{"name": "q", "plan":
    {"id": 3, "op": "join", "join_type": "inner",
     "condition": {"call": "=", "args": [{"column": "a.k"}, {"column": "b.k"}]},
     "runtime_filters": [{"id": 1, "build": {"column": "b.k"}, "probe": {"column": "a.k"}, "op": "=", "kinds": ["in"]}],
     "children": [
       {"id": 1, "op": "scan", "table": "a", "alias": "a", "columns": ["k"],
        "runtime_filter_targets": [{"id": 1, "target": {"call": "+", "args": [{"column": "a.k"}, {"literal": 0, "type": "int"}]}}], "children": []},
       {"id": 2, "op": "scan", "table": "b", "alias": "b", "columns": ["k"], "children": []}]}}]})";
  auto rules = lintJson(json, false);
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].code == "target-not-derivable");
  CHECK(rules[0].severity == Severity::Error);
  auto judged = lintJson(json, true);
  REQUIRE(judged.size() == 1);
  CHECK(judged[0].code == "target-not-derivable");
  CHECK(judged[0].judge == "not-proven");
  CHECK(judged[0].severity == Severity::Warning);
  CHECK(judged[0].message.find("not proven safe: no counterexample on ") != std::string::npos);
}

TEST_CASE("a consumer reached through a cast that keeps every value is derived") {
  auto t = [](TypeKind k) { return Type::of(k); };
  CHECK(castKeepsValues(t(TypeKind::Int), t(TypeKind::BigInt)));
  CHECK(castKeepsValues(t(TypeKind::Int), t(TypeKind::Double)));
  CHECK(castKeepsValues(t(TypeKind::Real), t(TypeKind::Double)));
  CHECK(castKeepsValues(t(TypeKind::BigInt), Type::of(TypeKind::Decimal, 19, 0)));
  CHECK(castKeepsValues(Type::of(TypeKind::Decimal, 10, 2), Type::of(TypeKind::Decimal, 12, 4)));
  CHECK(castKeepsValues(Type::of(TypeKind::Varchar, 10), t(TypeKind::Text)));
  CHECK(castKeepsValues(Type::of(TypeKind::Varchar, 10), Type::of(TypeKind::Varchar, 20)));
  CHECK_FALSE(castKeepsValues(t(TypeKind::BigInt), t(TypeKind::Int)));
  CHECK_FALSE(castKeepsValues(t(TypeKind::BigInt), t(TypeKind::Double)));  // 2^53 + 1
  CHECK_FALSE(castKeepsValues(t(TypeKind::Double), t(TypeKind::Int)));     // 1.5 rounds
  CHECK_FALSE(
      castKeepsValues(Type::of(TypeKind::Decimal, 10, 2), Type::of(TypeKind::Decimal, 10, 0)));
  CHECK_FALSE(castKeepsValues(Type::of(TypeKind::Varchar, 10), Type::of(TypeKind::Varchar, 3)));
  CHECK_FALSE(castKeepsValues(t(TypeKind::Date), t(TypeKind::Timestamp)));
  CHECK_FALSE(castKeepsValues(t(TypeKind::Int), t(TypeKind::Varchar)));
  // Through a widening cast either way, and through coalesce where NULL keys do not count.
  CHECK(lintJson(corpusPlan("a filter of `CAST(a.k AS bigint) = b.k` consumed as a.k"), false)
            .empty());
  CHECK(lintJson(corpusPlan("an `=` filter consumed as coalesce(a.k, 0)"), false).empty());
  auto nullSafe = lintJson(corpusPlan("a `<=>` filter consumed as coalesce(a.k, 0)"), true);
  REQUIRE(nullSafe.size() == 1);
  CHECK(nullSafe[0].code == "target-not-derivable");
  CHECK(nullSafe[0].judge == "refuted");
}

TEST_CASE("a local filter is judged by the join's distribution, stated or derived") {
  auto shuffle = lintJson(corpusPlan("a local filter on a shuffle join"), false);
  REQUIRE(shuffle.size() == 1);
  CHECK(shuffle[0].code == "local-filter-partial-build");
  CHECK(shuffle[0].severity == Severity::Error);
  CHECK(lintJson(corpusPlan("a local filter on a broadcast join"), false).empty());
  CHECK(lintJson(corpusPlan("a local filter on a colocated join"), false).empty());
  CHECK(lintJson(corpusPlan("the same with both keys their tables' distribution keys"), false)
            .empty());
  auto unstated = lintJson(corpusPlan("a local filter on a join whose distribution"), true);
  REQUIRE(unstated.size() == 1);
  CHECK(unstated[0].severity == Severity::Warning);
  CHECK(unstated[0].judge == "rules");  // a closure finding: the rules speak
  CHECK(parseJoinDistribution("bucket_shuffle") == JoinDistribution::BucketShuffle);
  CHECK_FALSE(parseJoinDistribution("unknown"));
  CHECK(std::string(joinDistributionName(JoinDistribution::Shuffle)) == "shuffle");
}

TEST_CASE("check emulates workers for a local filter and names the partitioning") {
  auto verdict = [](const std::string& title) {
    Session s{SessionOptions{}};
    Diagnostics d;
    REQUIRE_MESSAGE(s.loadContent(corpusPlan(title), "q.json", d), d.render());
    s.run();
    BoundedOptions o;
    o.bound = 2;
    return checkFilters(*s.queries()[0].query.plan, o).front();
  };
  // a = {1} read on worker 0; the build key 1 is shuffled to worker 1, so worker
  // 0's filter is empty and drops the row the join matches.
  auto shuffle = verdict("a local filter on a shuffle join");
  REQUIRE_FALSE(shuffle.safe);
  CHECK(shuffle.counterexample->content == rt::Content::Workers);
  CHECK(partitioningText(*shuffle.counterexample).find("on 2 workers") == 0);
  CHECK_FALSE(verdict("a local filter on a join whose distribution").safe);  // as a shuffle
  CHECK(verdict("a local filter on a broadcast join").safe);
  CHECK(verdict("a local filter on a colocated join").safe);
  // Both tables hash-distributed on k: each row sits with its build matches.
  CHECK(verdict("the same with both keys their tables' distribution keys").safe);
  CHECK(rt::workerOfKey(rt::Value(int64_t{3})) == 1);
  CHECK(rt::workerOfKey(rt::Value(int64_t{-2})) == 0);
  CHECK(rt::workerOfKey(rt::Value(4.0)) == 0);  // an integral double is its integer
  CHECK(rt::workerOfKey(rt::Value(std::monostate{})) == 0);
}

TEST_CASE("a filter applied sideways to an ancestor join's other side (Doris q9's RF8)") {
  for (const char* safe :
       {"a filter of a JOIN b applied sideways", "the same through a projection",
        "the same into a LEFT JOIN's right side", "the same across `a.k <=> c.k` (safe"}) {
    CAPTURE(safe);
    CHECK(lintJson(corpusPlan(safe), false).empty());
  }
  for (const char* unsafe : {"the same into a RIGHT JOIN's preserved",
                             "the same across `a.k <=> c.k` above a LEFT JOIN"}) {
    CAPTURE(unsafe);
    auto fs = lintJson(corpusPlan(unsafe), true);
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].code == "consumer-outside-probe-side");
    CHECK(fs[0].nodes == std::vector<int>{3, 5, 6});  // producer, consumer, the join refused
    CHECK(fs[0].judge == "refuted");
  }
  // The evaluator publishes the sideways filter before the build side it filters.
  Session s{SessionOptions{}};
  Diagnostics d;
  REQUIRE(s.loadContent(corpusPlan("a filter of a JOIN b applied sideways"), "q.json", d));
  s.run();
  BoundedOptions o;
  o.bound = 2;
  auto v = checkFilters(*s.queries()[0].query.plan, o).front();
  CHECK(v.safe);
  CHECK(v.error.empty());
  CHECK(v.bound == 2);
}

TEST_CASE("the planner records the distribution a local filter rests on") {
  // 1,000 build rows against 1,000,000 probe rows: broadcast (Hologres' calibration).
  SessionOptions so;
  Session s(so);
  Diagnostics d;
  REQUIRE(s.loadContent(
      "CREATE TABLE f (k int, v int) WITH (rows = 1000000); CREATE TABLE g (k int) WITH (rows = "
      "1000); SELECT f.v FROM f JOIN g ON f.k = g.k;",
      "q.sql", d));
  s.run();
  const PlanNode* join = nullptr;
  forEachNode(*s.queries()[0].query.plan, [&](const PlanNode& n) {
    if (n.op == PlanOp::Join) join = &n;
  });
  REQUIRE(join);
  REQUIRE(join->runtimeFilters.size() == 1);
  CHECK(join->runtimeFilters[0].scope == FilterScope::Local);
  CHECK(join->distribution == JoinDistribution::Broadcast);
  CHECK(s.verify(s.queries()[0]).empty());
}
