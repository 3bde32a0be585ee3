// DuckDB's plans imported into the IR: the expression text parser, the
// operators, the producers of dynamic filters, what is lost, and errors at
// JSON pointers. Fixtures in tests/fixtures/duckdb/ are DuckDB 1.5.6 profiles
// (metrics stripped) of the queries named in their "query_name".
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "engines/duckdb/expr_text.h"
#include "engines/duckdb/plan_import.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "pipeline/session.h"

using namespace rfguard;
using namespace rfguard::duckdb_import;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/tests/fixtures/duckdb/" + name);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

Catalog schema() {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE(loadSql("CREATE TABLE t (k int, v int); CREATE TABLE u (k int, w varchar);", "s.sql", c,
                  qs, d));
  return c;
}

/// Loads a DuckDB document into a session that judges it as given.
struct Loaded {
  Session session;
  Diagnostics diags;
  bool ok = false;
};
Loaded load(const std::string& text, const std::string& name, bool withSchema = true) {
  SessionOptions so;
  if (withSchema) so.schema = schema();
  Loaded l{Session(so), {}, false};
  l.ok = l.session.loadText(text, name, l.diags);
  l.session.run();
  return l;
}

std::string show(const TextExprPtr& e) {
  if (!e) return "null";
  using K = TextExpr::Kind;
  switch (e->kind) {
    case K::Name:
      return e->text;
    case K::Ref:
      return e->text;
    case K::Integer:
    case K::Decimal:
      return e->text;
    case K::String:
      return "'" + e->text + "'";
    case K::Null:
      return "NULL";
    case K::Boolean:
      return e->text;
    case K::Subquery:
      return "SUBQUERY";
    case K::Bloom:
      return "BF(" + show(e->args[0]) + ")";
    case K::Cast:
      return "cast(" + show(e->args[0]) + " as " + e->type + ")";
    case K::Call:
      break;
  }
  std::string out = e->text + "(";
  for (size_t i = 0; i < e->args.size(); ++i) out += (i ? ", " : "") + show(e->args[i]);
  return out + ")";
}

std::string parsed(const std::string& text) {
  std::string err;
  auto e = parseExpr(text, err);
  return e ? show(e) : "error: " + err;
}

}  // namespace

TEST_CASE("duckdb import: expression text as DuckDB prints it") {
  CHECK(parsed("k = k") == "=(k, k)");
  CHECK(parsed("#0 IS NOT DISTINCT FROM #1") == "<=>(#0, #1)");
  CHECK(parsed("CAST(v AS VARCHAR) < w") == "<(cast(v as VARCHAR), w)");
  CHECK(parsed("o_orderdate>='1994-01-01'::DATE") == ">=(o_orderdate, cast('1994-01-01' as DATE))");
  CHECK(parsed("k IN BF(c_custkey)") == "in(k, BF(c_custkey))");
  CHECK(parsed("k IN (7, 70, 77)") == "in(k, 7, 70, 77)");
  CHECK(parsed("(NOT prefix(w, 'x')) AND (w IS NOT NULL)") ==
        "and(not(prefix(w, 'x')), is_not_null(w))");
  CHECK(parsed("(s_comment ~~ '%Customer%Complaints%')") ==
        "like(s_comment, '%Customer%Complaints%')");
  CHECK(parsed("CASE WHEN ((#1 > 1)) THEN 'a' ELSE #0 END") == "case(>(#1, 1), 'a', #0)");
  CHECK(parsed("count(DISTINCT #3)") == "count(#3)");
  CHECK(parsed("sum(memory.main.t.v)") == "sum(memory.main.t.v)");
  CHECK(parsed("\"substring\"(c_phone, 1, 2)") == "substring(c_phone, 1, 2)");
  CHECK(parsed("v BETWEEN 3 AND 10") == "and(>=(v, 3), <=(v, 10))");
  CHECK(parsed("k = ").rfind("error: unexpected end of expression", 0) == 0);
  CHECK(parsed("k = 'open").rfind("error: unterminated string at offset 4", 0) == 0);

  // Conjuncts split at the top level only: not inside parentheses, quotes or BETWEEN.
  auto parts = splitConjuncts(
      "optional: k IN (1, 2) AND optional: k>=1 AND (a AND b) AND 'x AND y' = w AND v BETWEEN 1 "
      "AND 2");
  REQUIRE(parts.size() == 5);
  CHECK(parts[0] == "optional: k IN (1, 2)");
  CHECK(parts[2] == "(a AND b)");
  CHECK(parts[3] == "'x AND y' = w");
  CHECK(parts[4] == "v BETWEEN 1 AND 2");

  // Window frames are read, not skipped; what rfguard cannot express is refused.
  {
    std::string err;
    auto w = parseExpr(
        "sum(qty) OVER (PARTITION BY store ORDER BY item ASC NULLS LAST ROWS "
        "BETWEEN 1 PRECEDING AND CURRENT ROW)",
        err);
    REQUIRE(w);
    REQUIRE(w->frame);
    CHECK(frameSql(*w->frame) == "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW");
    w = parseExpr("max(v) OVER (ORDER BY k RANGE UNBOUNDED PRECEDING)", err);
    REQUIRE(w);
    REQUIRE(w->frame);
    CHECK(frameSql(*w->frame) == "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW");
    w = parseExpr("stddev_samp(v) OVER (PARTITION BY k)", err);
    REQUIRE(w);
    CHECK_FALSE(w->frame);
  }
  CHECK(parsed("sum(v) OVER (ORDER BY k GROUPS 1 PRECEDING)") ==
        "error: GROUPS frames are not read at offset 24");
  CHECK(parsed("sum(v) OVER (ORDER BY k ROWS 1 PRECEDING EXCLUDE CURRENT ROW)")
            .rfind("error: frame EXCLUDE clauses are not read", 0) == 0);

  TextSortKey k;
  std::string err;
  REQUIRE(parseSortKey("memory.main.supplier.s_acctbal DESC NULLS FIRST", k, err));
  CHECK_FALSE(k.ascending);
  CHECK(k.nullsFirst);
}

TEST_CASE("duckdb import: DuckDB's JSON is told apart from the first object's top-level keys") {
  // A profile: keys anywhere in the object, after nested values.
  CHECK(looksLikeDuckDbJson(R"({"extra_info": {"children": 1}, "x": [[{}]], "children": []})"));
  // EXPLAIN (FORMAT JSON): an array whose first element is the plan.
  CHECK(looksLikeDuckDbJson(R"( [{"name": "PROJECTION", "children": [], "extra_info": {}}, 3])"));
  // rfguard's own plan JSON, even with DuckDB's keys beside "format".
  CHECK_FALSE(
      looksLikeDuckDbJson(R"({"children": [], "extra_info": {}, "format": "rfguard-plan"})"));
  // The keys must be the first object's own, not a nested object's.
  CHECK_FALSE(looksLikeDuckDbJson(R"({"plan": {"children": [], "extra_info": {}}})"));
  CHECK_FALSE(looksLikeDuckDbJson(R"([[{"children": [], "extra_info": {}}]])"));
  CHECK_FALSE(looksLikeDuckDbJson(R"([1, {"children": [], "extra_info": {}}])"));
  CHECK_FALSE(looksLikeDuckDbJson(R"({"children": []})"));
  CHECK_FALSE(looksLikeDuckDbJson("[]"));
  CHECK_FALSE(looksLikeDuckDbJson("select 1"));
  // Not JSON at all, although it starts like DuckDB's.
  CHECK_FALSE(looksLikeDuckDbJson(R"({"children": [], "extra_info": {}} trailing)"));
  CHECK_FALSE(looksLikeDuckDbJson(R"({"children": [], "extra_info": {})"));
}

TEST_CASE("duckdb import: an inner join's dynamic filter is attributed to it") {
  std::string text = fixture("inner_join.json");
  CHECK(looksLikeDuckDbJson(text));
  CHECK(detectFormat("p.json", text) == InputFormat::Engine);
  Loaded l = load(text, "inner_join.json");
  REQUIRE(l.ok);
  REQUIRE(l.session.queries().size() == 1);
  const QueryRun& q = l.session.queries()[0];
  REQUIRE(q.imported);
  CHECK(q.given);
  // DuckDB 1.5.6 on 200000 probe rows: Bloom, IN and min/max on t.k, from the join on k.
  CHECK(planToText(*q.query.plan) ==
        "Aggregate #1 keys=[] aggs=[g1.a0_count := count(*)]\n"
        "  Join #2 JOIN ON t.k = u.k; RF1 <- u.k (t.k =, bloom+in+min_max, global)\n"
        "    Filter #4 t.k <= 10\n"
        "      Scan #3 t columns=[k]; RF1 -> t.k\n"
        "    Filter #6 u.w LIKE '%1%'\n"
        "      Scan #5 u columns=[k, w]\n");
  REQUIRE(q.imported->dynamicFilters.size() == 1);
  CHECK(q.imported->dynamicFilters[0].column == "t.k");
  CHECK(q.imported->dynamicFilters[0].producers == std::vector<int>{2});
  CHECK(q.imported->ambiguities.empty());
  CHECK(q.imported->losses.empty());
  CHECK(l.session.verify(q).empty());
  // Findings and nodes point into DuckDB's own document.
  CHECK(q.imported->sourcePointer.at(3) == "/children/0/children/0/children/0");
}

TEST_CASE("duckdb import: NOT IN's MARK join is a null-aware anti join") {
  Loaded l = load(fixture("not_in.json"), "not_in.json");
  REQUIRE(l.ok);
  const QueryRun& q = l.session.queries()[0];
  CHECK(planToText(*q.query.plan).find("NULL AWARE LEFT ANTI JOIN ON t.k = u.k") !=
        std::string::npos);
}

TEST_CASE("duckdb import: a correlated EXISTS's delim join becomes a join over the distinct keys") {
  Loaded l = load(fixture("exists_corr.json"), "exists_corr.json");
  REQUIRE(l.ok);
  const std::string plan = planToText(*l.session.queries()[0].query.plan);
  CHECK(plan.find("LEFT SEMI JOIN ON t.k <=> ") != std::string::npos);
  // DELIM_SCAN: the distinct correlated column of a copy of the input.
  CHECK(plan.find("Aggregate #8 keys=[t_2.k]\n          Scan #9 t AS t_2 columns=[k]") !=
        std::string::npos);
}

TEST_CASE("duckdb import: two producers on one column, told apart by their bounds") {
  // t JOIN u ON t.k = u.k JOIN u2 ON t.k = u2.k: DuckDB joins u with u2 first,
  // so t.k gets one filter, from the join above.
  Loaded l = load(fixture("two_joins.json"), "two_joins.json");
  REQUIRE(l.ok);
  const QueryRun& q = l.session.queries()[0];
  REQUIRE(q.imported->dynamicFilters.size() == 2);
  CHECK(q.imported->ambiguities.empty());
  // The build side's "k" is u.k or u_2.k, equal under their inner join: no loss.
  CHECK(q.imported->losses.empty());

  // The same scan column under two joins with keys on it, but one bound pair:
  // ambiguous, attributed to the nearest, and said so.
  const std::string two = R"({"query_name": "two", "children": [{
    "operator_name": "HASH_JOIN", "extra_info": {"Join Type": "INNER", "Conditions": "k = k"},
    "children": [
      {"operator_name": "HASH_JOIN", "extra_info": {"Join Type": "INNER", "Conditions": "k = k"},
       "children": [
         {"operator_name": "SEQ_SCAN", "extra_info": {"Table": "memory.main.t", "Projections": "k",
          "Dynamic Filters": "optional: k>=1 AND optional: k<=9"}, "children": []},
         {"operator_name": "SEQ_SCAN", "extra_info": {"Table": "memory.main.u", "Projections": "k"}, "children": []}]},
      {"operator_name": "SEQ_SCAN", "extra_info": {"Table": "memory.main.u", "Projections": "k"}, "children": []}]}]})";
  Loaded a = load(two, "two.json");
  REQUIRE(a.ok);
  const QueryRun& qa = a.session.queries()[0];
  REQUIRE(qa.imported->ambiguities.size() == 1);
  CHECK(qa.imported->ambiguities[0].message ==
        "dynamic filter on t.k may come from joins #2, #1: attributed to the nearest (#2)");
  CHECK(qa.imported->dynamicFilters[0].candidates == std::vector<int>{2, 1});
  CHECK(qa.imported->dynamicFilters[0].producers == std::vector<int>{2});
}

TEST_CASE("duckdb import: a filter on a LEFT join's preserved probe side is flagged") {
  // right_join.json with the join type edited to LEFT: t is then preserved,
  // and DuckDB's filter on t.k would drop unmatched t rows.
  Loaded l = load(fixture("unsafe_left_join.json"), "unsafe_left_join.json");
  REQUIRE(l.ok);
  const QueryRun& q = l.session.queries()[0];
  auto findings = l.session.verify(q);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].code == "producer-join-type");
  FindingSite site = l.session.siteOf(q, findings[0]);
  CHECK(site.planFile == "unsafe_left_join.json");
  CHECK(site.pointer == "/children/0/children/0");
  // The original, a RIGHT join, is clean.
  Loaded r = load(fixture("right_join.json"), "right_join.json");
  REQUIRE(r.ok);
  CHECK(r.session.verify(r.session.queries()[0]).empty());
}

TEST_CASE("duckdb import: without a schema, types come from literals and the loss is listed") {
  Loaded l = load(fixture("right_join.json"), "right_join.json", false);
  REQUIRE(l.ok);
  const QueryRun& q = l.session.queries()[0];
  // optional: k>=0 tells t.k is an integer.
  CHECK(l.session.inputs()[0].catalog.table("t")->columns[0].type.toString() == "int");
  REQUIRE(q.imported->losses.size() == 2);
  CHECK(q.imported->losses[0].message.find("table t is not in a schema") != std::string::npos);
  CHECK(l.session.verify(q).empty());
}

TEST_CASE("duckdb import: what DuckDB does not print is listed, not guessed silently") {
  const std::string aliased = R"([{"name": "PROJECTION", "extra_info": {"Projections": ["k", "x"]},
    "children": [{"name": "SEQ_SCAN", "extra_info": {"Table": "memory.main.t", "Projections": ["k", "v"]},
                  "children": []}]}])";
  Loaded l = load(aliased, "explain.json");
  REQUIRE(l.ok);
  const QueryRun& q = l.session.queries()[0];
  REQUIRE(q.imported->losses.size() == 1);
  CHECK(q.imported->losses[0].pointer == "/0/extra_info/Projections");
  CHECK(q.imported->losses[0].message ==
        "projection \"x\": DuckDB printed only its alias, not its expression: imported as NULL");
}

TEST_CASE("duckdb import: errors name the JSON pointer in DuckDB's document") {
  auto errorOf = [](const std::string& text) {
    Loaded l = load(text, "bad.json");
    CHECK_FALSE(l.ok);
    return l.diags.render();
  };
  CHECK(
      errorOf(
          R"([{"name": "PROJECTION", "extra_info": {}, "children": [{"name": "UNNEST", "extra_info": {}, "children": []}]}])") ==
      "bad.json: error at /0/children/0: DuckDB operator UNNEST is not imported\n");
  CHECK(
      errorOf(
          R"([{"name": "FILTER", "extra_info": {"Expression": "k = ("}, "children": [{"name": "SEQ_SCAN", "extra_info": {"Table": "t", "Projections": "k"}, "children": []}]}])")
          .find("bad.json: error at /0/extra_info/Expression: cannot read \"k = (\"") == 0);
  CHECK(
      errorOf(
          R"({"query_name": "x", "children": [{"operator_name": "HASH_JOIN", "extra_info": {"Join Type": "INNER"}, "children": []}]})") ==
      "bad.json: error at /children/0/children: HASH_JOIN has 0 children, expected 2\n");
  CHECK(errorOf(R"([{"name": "EMPTY_RESULT", "extra_info": {}, "children": []}])") ==
        "bad.json: error at /0: EMPTY_RESULT: DuckDB does not print its columns and the operator "
        "above reads none of them; it cannot be imported\n");
}

// Operators that print no columns: they get the ones the operator above reads
// of them, over a table that stands for their rows (any content; none for
// EMPTY_RESULT), and the import says so.
TEST_CASE("duckdb import: VALUES, long IN lists and empty results") {
  auto imported = [](const std::string& name) {
    Loaded l = load(fixture(name), name, false);
    REQUIRE_MESSAGE(l.ok, l.diags.render());
    const QueryRun& q = l.session.queries()[0];
    REQUIRE(q.imported->losses.size() >= 1);
    return std::make_tuple(planToText(*q.query.plan), q.imported->losses[0],
                           l.session.verify(q).size());
  };
  // A VALUES list joined: its columns x and y are read by the join's conditions
  // (build side, right); both build filters DuckDB placed on a's scan.
  auto [values, valuesLoss, valuesFindings] = imported("values_join.json");
  CHECK(values ==
        "Project #1 [p1.0_v := a.v]\n"
        "  Join #2 JOIN ON a.k = rows_4.x AND a.v < rows_4.y; RF1 <- rows_4.x (a.k =, in+min_max, "
        "global); RF2 <- rows_4.y (a.v <, min_max, global)\n"
        "    Scan #3 a columns=[k, v]; RF1 -> a.k; RF2 -> a.v\n"
        "    Scan #4 rows_4 columns=[x, y]\n");
  CHECK(valuesLoss.pointer == "/children/0/children/0/children/1");
  CHECK(valuesLoss.message ==
        "COLUMN_DATA_SCAN: rows DuckDB materialised (a VALUES list, a long IN list) and does not "
        "print: imported as a table rows_4 of any content with the columns the operator above "
        "reads (x, y)");
  CHECK(valuesFindings == 0);  // the range filter too: a min/max bound, lint accepts it
  // A long IN list: a MARK join under FILTER "IN (...)", the list read by #0.
  auto [inList, inLoss, inFindings] = imported("in_list_mark.json");
  CHECK(inList.find("  Join #3 LEFT SEMI JOIN ON a.k = rows_5.c0\n"
                    "    Scan #4 a columns=[k]\n"
                    "    Scan #5 rows_5 columns=[c0]\n") != std::string::npos);
  CHECK(inLoss.message.find("imported as a table rows_5 of any content with the columns the "
                            "operator above reads (c0)") != std::string::npos);
  CHECK(inFindings == 0);
  // An empty build side: no rows, whatever the table would hold.
  auto [empty, emptyLoss, emptyFindings] = imported("empty_result.json");
  CHECK(empty ==
        "Join #1 LEFT JOIN ON a.k = empty_3.k\n"
        "  Scan #2 a columns=[k]\n"
        "  Filter #3 false\n"
        "    Scan #4 empty_3 columns=[k]\n");
  CHECK(emptyLoss.message ==
        "EMPTY_RESULT: DuckDB proved this part of the plan empty and prints no columns: imported "
        "as no rows of the columns the operator above reads (k)");
  CHECK(emptyFindings == 0);
}

TEST_CASE("duckdb import: DuckDB 1.5.6 filters below an OFFSET, and lint says so") {
  // WITH c AS (SELECT flag FROM ordered_probe ORDER BY ord OFFSET 2)
  // SELECT * FROM c JOIN boolean_keys ON flag = flag_key: DuckDB 1.5.6 pushes
  // the join's min/max filter below the OFFSET (fixed upstream later, DuckDB
  // PR #22963), which changes which rows the OFFSET skips.
  Loaded l = load(fixture("offset_below_join.json"), "offset_below_join.json", false);
  REQUIRE(l.ok);
  const QueryRun& q = l.session.queries()[0];
  auto findings = l.session.verify(q);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].code == "crossed-limit");
  CHECK(findings[0].message.rfind(
            "RF1 -> ordered_probe.flag at scan #6: limit #3: filtering below LIMIT/OFFSET changes "
            "which rows are picked; not proven safe",
            0) == 0);
  // The import lost the OFFSET's number (DuckDB does not print it), so the search
  // cannot refute what the rules refuse: a warning that says so, not a pass.
  CHECK(findings[0].judge == "not-proven");
  CHECK(findings[0].severity == Severity::Warning);
  CHECK(q.query.plan->children[0]->children[0]->unprinted);
  // DuckDB does not print a streaming limit's count: imported without one, said so.
  bool noted = false;
  for (const auto& n : q.imported->losses)
    noted |= n.message ==
             "STREAMING_LIMIT: DuckDB does not print its row count: imported without a limit";
  CHECK(noted);
}

TEST_CASE("duckdb profile: DuckDB 1.5's pushdown, its LIMIT gap included") {
  auto placed = [](const std::string& sql) {
    SessionOptions so;
    so.filters = RfOptions(Profile::DuckDb);
    Session s(so);
    Diagnostics d;
    REQUIRE(s.loadText("CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int);" + sql,
                       "q.sql", d));
    s.run();
    const QueryRun& q = s.queries()[0];
    return std::make_pair(planToText(*q.query.plan), s.verify(q));
  };
  // Through the OFFSET, as 1.5.x does: lint calls it crossed-limit.
  auto [limitPlan, limitFindings] =
      placed("SELECT * FROM (SELECT * FROM a ORDER BY v OFFSET 2) x JOIN b ON x.k = b.k;");
  CHECK(limitPlan.find("Scan #6 a columns=[k, v]; RF1 -> a.k") != std::string::npos);
  REQUIRE(limitFindings.size() == 1);
  CHECK(limitFindings[0].code == "crossed-limit");
  // A range condition builds a min/max filter; IS NOT DISTINCT FROM builds none.
  CHECK(placed("SELECT * FROM a JOIN b ON a.k < b.k;")
            .first.find("RF1 <- b.k (a.k <, min_max, global)") != std::string::npos);
  CHECK(placed("SELECT * FROM a JOIN b ON a.k <=> b.k;").first.find("RF") == std::string::npos);
  // Only into the first child: never from a LEFT join, never into a build side.
  CHECK(placed("SELECT * FROM a LEFT JOIN b ON a.k = b.k;").first.find("RF") == std::string::npos);
  CHECK(placed("SELECT * FROM a JOIN b ON a.k = b.k JOIN a AS c ON b.v = c.v;")
            .first.find("-> b.v") == std::string::npos);
}
