// Rewrite verification (docs/equiv.md): two plans over one schema, results in
// ORDER BY order, traces checked step by step, the C++ API's call.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "grammar/sql.h"
#include "include/rfguard/rfguard.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "pipeline/equiv.h"
#include "testgen/broken_rules.h"
#include "verifier/verify.h"

using namespace rfguard;

namespace {

const std::string kSchema = "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n";

/// The plans of the queries of `sql` over kSchema, as bound.
std::vector<Query> bound(const std::string& sql, Catalog* catalog = nullptr) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(kSchema + sql, "q.sql", c, qs, d), d.render());
  if (catalog) *catalog = c;
  return qs;
}

BoundedOptions bound2() {
  BoundedOptions o;
  o.bound = 2;
  return o;
}

/// A trace line: {"rule": rule, "plan": the plan document of `q`} (catalog on the first only).
std::string traceLine(const std::string& rule, const Query& q, const Catalog& c, bool catalog) {
  auto doc = documentToJson(c, {q});
  if (!catalog) doc.erase("catalog");
  nlohmann::ordered_json step;
  if (!rule.empty()) step["rule"] = rule;
  step["plan"] = doc;
  return step.dump() + "\n";
}

}  // namespace

TEST_CASE("equiv: Trino #13109, coalesce below the LEFT JOIN, refuted with a = {1}, b = {}") {
  auto qs = bound(
      "SELECT a.k, coalesce(b.w, 0) AS w FROM a LEFT JOIN b ON a.k = b.k;"
      "SELECT a.k, b.w FROM a LEFT JOIN (SELECT k, coalesce(w, 0) AS w FROM b) b ON a.k = b.k;"
      "SELECT a.k, CASE WHEN b.w IS NULL THEN 0 ELSE b.w END AS w FROM a LEFT JOIN b ON a.k = "
      "b.k;");
  std::string why;
  REQUIRE(comparable(*qs[0].plan, *qs[1].plan, why));
  EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, bound2());
  CHECK(r.verdict == "different");
  REQUIRE(r.bounded.counterexample);
  const auto& c = *r.bounded.counterexample;
  CHECK(r.bounded.bound + 1 == 1);
  CHECK(c.db.at("a").rows.size() == 1);
  CHECK(c.db.at("b").rows.empty());
  CHECK(rt::keyToString(c.original.at(0)) == "(1, 0)");
  CHECK(rt::keyToString(c.rewritten.at(0)) == "(1, NULL)");
  CHECK(r.sql.find("coalesce") != std::string::npos);
  // The CASE form above the join is the same query: proven (coalesce is that
  // CASE), and searched without the proof, no database up to 2 rows tells them apart.
  EquivResult s = checkRewrite(*qs[0].plan, *qs[2].plan, bound2());
  CHECK(s.verdict == "equivalent");
  CHECK(s.proof.find("coalesce and nullif as CASE") != std::string::npos);
  BoundedOptions searched = bound2();
  searched.proofs = false;
  EquivResult t = checkRewrite(*qs[0].plan, *qs[2].plan, searched);
  CHECK(t.verdict == "equivalent");
  CHECK(t.bounded.bound == 2);
  CHECK(t.bounded.databases == 759);
}

TEST_CASE("equiv: an ORDER BY fixes the order up to ties; no ORDER BY fixes none") {
  auto qs = bound(
      "SELECT k FROM a ORDER BY k;"
      "SELECT k FROM a ORDER BY k DESC;"
      "SELECT k FROM a;"
      "SELECT k, v FROM a ORDER BY k;"
      "SELECT k, v FROM a ORDER BY k, v DESC;");
  auto r = checkRewrite(*qs[0].plan, *qs[1].plan, bound2());
  CHECK(r.verdict == "different");
  REQUIRE(r.bounded.counterexample);
  CHECK(r.bounded.counterexample->ordered);
  CHECK(r.bounded.counterexample->original.size() == 2);
  CHECK(r.bounded.counterexample->original ==
        std::vector<rt::Row>{{rt::Value(int64_t{1})}, {rt::Value(int64_t{2})}});
  CHECK(r.bounded.counterexample->rewritten ==
        std::vector<rt::Row>{{rt::Value(int64_t{2})}, {rt::Value(int64_t{1})}});
  // The script orders the original's result as well.
  CHECK(r.sql.find("ORDER BY \"q.k\" ASC NULLS LAST;") != std::string::npos);
  CHECK(checkRewrite(*qs[0].plan, *qs[2].plan, bound2()).verdict == "different");
  CHECK(checkRewrite(*qs[2].plan, *qs[0].plan, bound2()).verdict == "equivalent");
  CHECK(checkRewrite(*qs[3].plan, *qs[4].plan, bound2()).verdict == "equivalent");
  CHECK(checkRewrite(*qs[4].plan, *qs[3].plan, bound2()).verdict == "different");
}

TEST_CASE("equiv: plans over two schemas are not compared; column counts differ without a search") {
  auto qs = bound("SELECT k FROM a; SELECT k, v FROM a;");
  auto r = checkRewrite(*qs[0].plan, *qs[1].plan, bound2());
  CHECK(r.verdict == "different");
  CHECK(r.reason == "the original returns 1 column and the rewritten plan 2 columns");
  CHECK(r.bounded.databases == 0);
  Catalog other;
  std::vector<Query> qo;
  Diagnostics d;
  REQUIRE(loadSql("CREATE TABLE a (k varchar, v int); SELECT k FROM a;", "o.sql", other, qo, d));
  std::string why;
  CHECK_FALSE(comparable(*qs[0].plan, *qo[0].plan, why));
  CHECK(why ==
        "table a is (k int, v int) in the original and (k varchar, v int) in the rewritten plan: "
        "not one schema");
}

TEST_CASE("equiv: one side per input, SQL over the other side's tables or its own") {
  Catalog schema, declared;
  EquivSide side;
  Diagnostics d;
  REQUIRE(
      loadEquivSide(kSchema + "SELECT k FROM a;", "o.sql", InputFormat::Auto, {}, side, schema, d));
  CHECK(side.name == "query1");
  CHECK(schema.tables().size() == 2);
  // The rewritten side may lean on the original's tables...
  REQUIRE(loadEquivSide("SELECT k FROM a WHERE true;", "r.sql", InputFormat::Auto, schema, side,
                        declared, d));
  // ...or declare its own.
  REQUIRE(loadEquivSide(kSchema + "SELECT k FROM b;", "r.sql", InputFormat::Auto, schema, side,
                        declared, d));
  CHECK(d.items().empty());
  CHECK_FALSE(loadEquivSide(kSchema + "SELECT k FROM a; SELECT k FROM b;", "two.sql",
                            InputFormat::Auto, {}, side, declared, d));
  CHECK(d.render() ==
        "two.sql:2:18: error: holds 2 queries; each side of a comparison is one query (the "
        "second starts here)\n");
  d.clear();
  CHECK_FALSE(loadEquivSide("SELECT k FROM nope;", "bad.sql", InputFormat::Auto, schema, side,
                            declared, d));
  CHECK(d.render().rfind("bad.sql:1:", 0) == 0);
}

TEST_CASE("equiv: a trace is checked step by step up to the first unsound rule") {
  Catalog c;
  auto qs = bound(
      "SELECT a.k, coalesce(b.w, 0) AS w FROM a LEFT JOIN b ON a.k = b.k;"
      "SELECT a.k, coalesce(b.w, 0) AS w FROM a LEFT JOIN b ON b.k = a.k;"
      "SELECT a.k, b.w FROM a LEFT JOIN (SELECT k, coalesce(w, 0) AS w FROM b) b ON a.k = b.k;",
      &c);
  std::string trace = traceLine("", qs[0], c, true) + traceLine("Identity", qs[0], c, false) +
                      "\n" + traceLine("SwapComparison", qs[1], c, false) +
                      traceLine("PushCoalesceBelowJoin", qs[2], c, false) +
                      traceLine("Later", qs[2], c, false);
  std::vector<TraceStep> steps;
  Diagnostics d;
  REQUIRE_MESSAGE(readTrace(trace, "t.jsonl", {}, steps, d), d.render());
  REQUIRE(steps.size() == 5);
  CHECK(steps[3].where == "t.jsonl:5");  // the blank line counts
  auto vs = checkTrace(steps, bound2());
  REQUIRE(vs.size() == 4);
  CHECK(vs[0].identical);
  CHECK(vs[0].result.bounded.databases == 0);
  CHECK(vs[1].result.verdict == "equivalent");
  CHECK(vs[2].result.verdict == "different");
  CHECK(steps[vs[2].step].rule == "PushCoalesceBelowJoin");
  CHECK(vs[3].skipped);

  // The same steps as one JSON array.
  std::string array = "[";
  for (size_t i = 0; i < 3; ++i) {
    std::string l = traceLine(i ? "R" : "", qs[i], c, i == 0);
    array += (i ? "," : "") + l.substr(0, l.size() - 1);
  }
  steps.clear();
  REQUIRE(readTrace(array + "]", "t.json", {}, steps, d));
  CHECK(steps[2].where == "t.json /2");
}

TEST_CASE("equiv: a bad trace gets a located error") {
  Catalog c;
  auto qs = bound("SELECT k FROM a;", &c);
  std::vector<TraceStep> steps;
  Diagnostics d;
  CHECK_FALSE(readTrace(traceLine("", qs[0], c, true) + "{\"rule\": 1\n", "t.jsonl", {}, steps, d));
  CHECK(d.render() ==
        "t.jsonl:2:1: error: malformed JSON on this line (a trace holds one step per line)\n");
  d.clear();
  steps.clear();
  CHECK_FALSE(readTrace(traceLine("", qs[0], c, false) + traceLine("", qs[0], c, false), "t.jsonl",
                        {}, steps, d));
  CHECK(d.render().rfind("t.jsonl:1: error at /plan: no catalog", 0) == 0);
  d.clear();
  steps.clear();
  CHECK(readTrace(traceLine("", qs[0], c, true), "t.jsonl", {}, steps, d));  // no rule fired
  CHECK(checkTrace(steps, bound2()).empty());
  steps.clear();
  CHECK_FALSE(readTrace("\n\n", "t.jsonl", {}, steps, d));
  CHECK(d.render() ==
        "t.jsonl:1:1: error: a trace needs at least one plan (the plan before the first rule)\n");
  d.clear();
  steps.clear();
  std::string bad = traceLine("", qs[0], c, true);
  bad.replace(bad.find("\"op\":\"scan\""), 11, "\"op\":\"scam\"");
  CHECK_FALSE(readTrace(bad + bad, "t.jsonl", {}, steps, d));
  CHECK(d.render().find("t.jsonl:1: error at /plan/queries/0/plan") == 0);
  d.clear();
  CHECK_FALSE(
      readTrace(std::string(3000, '[') + std::string(3000, ']'), "deep.json", {}, steps, d));
  CHECK(d.render() == "deep.json:1:2049: error: nested more than 2048 levels deep\n");
}

TEST_CASE("equiv: the C++ API's call") {
  using api::Plans;
  auto loaded =
      Plans::loadSql(kSchema +
                         "SELECT k FROM a WHERE k NOT IN (SELECT k FROM b);"
                         "SELECT k FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k);",
                     "q.sql");
  REQUIRE(loaded.plans);
  const Plans& p = *loaded.plans;
  api::EquivVerdict v = Plans::equivalent(p, 0, p, 1);
  CHECK(v.verdict == "different");
  CHECK(v.bound == 1);
  CHECK(v.requestedBound == 2);
  CHECK(v.counterexampleSql.find("NOT EXISTS") != std::string::npos);
  CHECK(Plans::equivalent(p, 0, p, 0).verdict == "equivalent");
  api::EquivVerdict missing = Plans::equivalent(p, 0, p, 7);
  CHECK(missing.verdict == "error");
  CHECK(missing.reason == "no query 7 in the rewritten plans");
  CHECK(v.subtree.empty());
  CHECK(v.around.empty());
  // Two plans that differ in one filter of a join's input: searched on it alone.
  auto twice = Plans::loadSql(kSchema +
                                  "SELECT x.k FROM (SELECT k FROM a WHERE v > 1 AND v > 1) AS x "
                                  "JOIN b ON x.k = b.k;"
                                  "SELECT x.k FROM (SELECT k FROM a WHERE v > 1) AS x JOIN b ON "
                                  "x.k = b.k;",
                              "q.sql");
  REQUIRE(twice.plans);
  api::CheckSettings searched;
  searched.proofs = false;
  api::EquivVerdict local = Plans::equivalent(*twice.plans, 0, *twice.plans, 1, searched);
  CHECK(local.verdict == "equivalent");
  CHECK(local.subtree.rfind("filter #", 0) == 0);
  CHECK(local.everyValue);  // the solver's word: no values tell them apart
  CHECK(local.valuesOpen.empty());
  // A window over its partition key: the solver proves the filter moved below it.
  auto window = Plans::loadSql(
      kSchema +
          "SELECT k, r FROM (SELECT k, rank() OVER (PARTITION BY k ORDER BY v) AS r FROM a) q "
          "WHERE k = 1;"
          "SELECT k, r FROM (SELECT k, rank() OVER (PARTITION BY k ORDER BY v) AS r FROM a "
          "WHERE k = 1) q;",
      "q.sql");
  REQUIRE(window.plans);
  api::EquivVerdict proven = Plans::equivalent(*window.plans, 0, *window.plans, 1, searched);
  CHECK(proven.verdict == "equivalent");
  CHECK(proven.everyValue);
  // A narrowing cast is outside the solver's fragment: the API says inconclusive, and why.
  auto narrow = Plans::loadSql(kSchema +
                                   "SELECT CAST(v AS smallint) FROM a;"
                                   "SELECT CAST(v AS smallint) + 0 FROM a;",
                               "q.sql");
  REQUIRE(narrow.plans);
  api::EquivVerdict open = Plans::equivalent(*narrow.plans, 0, *narrow.plans, 1, searched);
  CHECK(open.verdict == "inconclusive");
  CHECK_FALSE(open.everyValue);
  CHECK(open.valuesOpen.find("narrowing") != std::string::npos);
  CHECK(open.domain.find("NULL") != std::string::npos);
}

TEST_CASE("equiv: every broken rule is refuted where it is certainly unsound") {
  // Per broken rule, a query where its application changes the result on some
  // database, and the bound of the smallest one.
  const std::map<std::string, std::pair<std::string, int>> cases = {
      {"OuterJoinToInner", {"SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;", 1}},
      {"CoalesceBelowNullGeneratingSide", {"SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;", 1}},
      {"NotInAsPlainAnti", {"SELECT k FROM a WHERE k NOT IN (SELECT k FROM b);", 1}},
      // LIMIT 3 takes four rows to pass: one repeated three times, then another.
      {"FilterBelowLimit", {"SELECT k FROM a ORDER BY k LIMIT 3;", 2}},
      {"FilterIntoNullGeneratingSide", {"SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;", 1}},
      {"OnConjunctIntoPreservedSide", {"SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;", 1}},
  };
  REQUIRE(brokenRules().size() == cases.size());
  for (const auto& rule : brokenRules()) {
    CAPTURE(rule.name);
    const auto& [sql, at] = cases.at(rule.name);
    auto qs = bound(sql);
    auto steps = normalisationTrace(*qs[0].plan, {});
    auto rw = rule.apply(*steps.back().plan);
    REQUIRE(rw);
    EquivResult r = checkRewrite(*rw->original, *rw->rewritten, bound2());
    CHECK(r.verdict == "different");
    CHECK(r.proof.empty());
    REQUIRE(r.bounded.counterexample);
    CHECK(r.bounded.bound + 1 == at);
    // And the rule leaves alone a plan without its site.
    CHECK_FALSE(rule.apply(*bound("SELECT k FROM a;")[0].plan));
  }
}

// A search whose next bound is over the budget still tries that bound's corner
// where one table (below a LIMIT first) has its rows and the others at most one:
// a filter moved below a LIMIT 1 needs two rows of one table only.
TEST_CASE("equiv: past the budget, the corner of one grown table finds the counterexample") {
  auto qs = bound(
      "SELECT * FROM a AS x JOIN b AS y ON x.k = y.k JOIN (SELECT k, v FROM a ORDER BY k LIMIT 1) "
      "AS z ON y.w = z.v JOIN b AS u ON z.k = u.w;");
  const BrokenRule* rule = nullptr;
  for (const auto& r : brokenRules())
    if (std::string(r.name) == "FilterBelowLimit") rule = &r;
  REQUIRE(rule);
  auto rw = rule->apply(*normalisationTrace(*qs[0].plan, {}).back().plan);
  REQUIRE(rw);
  BoundedOptions o = bound2();
  o.maxDatabases = 40000;  // bound 1 fits, bound 2 (494,209) does not; the corner gets 10,000
  EquivResult r = checkRewrite(*rw->original, *rw->rewritten, o);
  CHECK(r.verdict == "different");
  CHECK(r.bounded.bound == 1);
  REQUIRE(r.bounded.counterexample);
  CHECK(r.bounded.limit.find("bound 2 has about ") == 0);
  // Two equal plans: bound 1 is all the search can say, and it says where it stopped.
  o.proofs = false;  // (their normal forms are equal: a proof would answer without a search)
  CHECK(checkRewrite(*rw->original, *rw->original, o).verdict == "equivalent");  // the solver's
  o.everyValue = false;                                                          // the search alone
  EquivResult same = checkRewrite(*rw->original, *rw->original, o);
  CHECK(same.verdict == "inconclusive");
  CHECK(same.bounded.bound == 1);
  CHECK(same.bounded.limit ==
        "bound 2 has about 494209 databases, over the budget; the budget ran out in its corner of "
        "one table with 2 rows");
}

TEST_CASE("equiv: rfguard's own normalisation, step by step, is equivalent") {
  auto qs = bound(
      "SELECT a.k FROM a LEFT JOIN b ON a.k = b.k WHERE b.w > 1 AND a.k NOT IN (SELECT k FROM "
      "b);");
  auto steps = normalisationTrace(*qs[0].plan, {});
  REQUIRE(steps.size() >= 3);
  CHECK(steps[0].rule.empty());
  std::set<std::string> rules;
  for (size_t i = 1; i < steps.size(); ++i) rules.insert(steps[i].rule);
  CHECK(rules.count("SimplifyOuterJoin"));
  CHECK(rules.count("DecorrelateIn"));
  for (const auto& v : checkTrace(steps, bound2())) {
    CAPTURE(steps[v.step].rule);
    CHECK((v.identical || v.result.verdict == "equivalent"));
  }
}

TEST_CASE("equiv: NOT IN with the outer rows on the build side (DataFusion's shape)") {
  // The same NOT IN as a null-aware left anti join (a probes, b builds) and as a
  // null-aware right anti join (b probes, a builds).
  auto doc = [](const std::string& type, bool swapped, bool filter) {
    // With `filter`, b (the NOT IN list, probe side) consumes a filter built from a.
    const std::string target =
        filter ? R"(, "runtime_filter_targets": [{"id": 1, "target": {"column": "b.k"}}])" : "";
    const std::string a =
        R"({"id": 3, "op": "scan", "table": "a", "alias": "a", "columns": ["k"], "children": []})";
    const std::string b =
        R"({"id": 4, "op": "scan", "table": "b", "alias": "b", "columns": ["k"], "children": [])" +
        target + "}";
    const std::string rf =
        filter
            ? R"(, "runtime_filters": [{"id": 1, "build": {"column": "a.k"}, "probe": {"column": "b.k"}, "op": "=", "kinds": ["in"]}])"
            : "";
    return R"({"format": "rfguard-plan", "version": 1, "catalog": {"tables": [
      {"name": "a", "columns": [{"name": "k", "type": "int", "nullable": true}]},
      {"name": "b", "columns": [{"name": "k", "type": "int", "nullable": true}]}]},
      "queries": [{"name": "q", "plan": {"id": 1, "op": "join", "join_type": ")" +
           type + R"(", "condition": {"call": "=", "args": [{"column": "a.k"}, {"column": "b.k"}]},
      "children": [)" +
           (swapped ? b + ", " + a : a + ", " + b) + "]" + rf + "}}]}";
  };
  auto load = [](const std::string& text) {
    Catalog c;
    std::vector<Query> qs;
    Diagnostics d;
    REQUIRE_MESSAGE(readPlanDocument(text, "p.json", c, qs, d), d.render());
    return qs[0].plan;
  };
  PlanPtr left = load(doc("null_aware_left_anti", false, false));
  PlanPtr right = load(doc("null_aware_right_anti", true, false));
  PlanPtr plain = load(doc("right_anti", true, false));
  CHECK(checkRewrite(*left, *right, bound2()).verdict == "equivalent");
  // As a plain anti join it keeps the rows NOT IN rejects when b holds a NULL.
  EquivResult r = checkRewrite(*left, *plain, bound2());
  CHECK(r.verdict == "different");
  CHECK(r.bounded.bound + 1 == 1);
  // It builds from the outer rows but may not filter the NOT IN list with them:
  // a = {NULL} there makes every row of b fail, whatever b's keys.
  PlanPtr filtered = load(doc("null_aware_right_anti", true, true));
  auto findings = verifyRuntimeFilters(*filtered);
  REQUIRE_FALSE(findings.empty());
  CHECK(findings[0].code == "producer-join-type");
}
