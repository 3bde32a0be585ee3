// The bounded search behind rewrite verification (verifier/equivalence.cpp):
// the values a search gives columns compared with counts, and the search
// around a rewrite's changed subtrees when the whole space is too large.
#include <doctest/doctest.h>

#include <algorithm>

#include "grammar/sql.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"
#include "testgen/broken_rules.h"
#include "testgen/random_queries.h"
#include "verifier/search_space.h"

using namespace rfguard;

namespace {

/// The plans of the queries of `sql` (with its own CREATE TABLEs), as bound.
std::vector<Query> plans(const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(sql, "q.sql", c, qs, d), d.render());
  return qs;
}

/// `rule` applied to the normalised plan of `sql` over the random queries' schema.
BrokenRewrite broken(const std::string& rule, const std::string& sql) {
  Session session;
  Diagnostics diags;
  REQUIRE_MESSAGE(session.loadAs(randomSchema() + sql, "q.sql", false, diags), diags.render());
  auto steps = normalisationTrace(*session.queries()[0].query.plan, {});
  for (const auto& r : brokenRules())
    if (r.name == rule) {
      auto rw = r.apply(*steps.back().plan);
      REQUIRE(rw);
      return *rw;
    }
  FAIL("no broken rule " << rule);
  return {};
}

size_t mostRows(const rt::Database& db) {
  size_t n = 0;
  for (const auto& [name, t] : db) n = std::max(n, t.rows.size());
  return n;
}

}  // namespace

TEST_CASE("equiv: a column compared with a count meets the counts a small database makes") {
  // b.w's class holds a count and the constant 5 (and 4, 6 for the range): without
  // 1 in its domain, no database of the search joins a row, and the two queries
  // would look equal at every bound.
  auto qs = plans(
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n"
      "SELECT b.k FROM b JOIN (SELECT k, count(*) AS c FROM a GROUP BY k) AS x ON b.w = x.c;\n"
      "SELECT b.k FROM b JOIN (SELECT k, count(*) AS c FROM a GROUP BY k) AS x ON b.w = x.c "
      "AND b.w > 5;\n");
  BoundedOptions o;
  o.bound = 2;
  EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, o);
  CHECK(r.verdict == "different");
  CHECK(r.bounded.bound == 0);
  REQUIRE(r.bounded.counterexample);
  const rt::Database& db = r.bounded.counterexample->db;
  REQUIRE(db.at("b").rows.size() == 1);
  CHECK(db.at("b").rows[0][1] == rt::Value(int64_t{1}));  // w = count(*) of one row
  CHECK(r.bounded.around.empty());                        // the whole search found it
}

TEST_CASE("equiv: around the changed subtree, a counterexample the whole space is too large for") {
  // A filter moved below the LIMIT 1 of t3, under three more tables: bound 2 of
  // the whole plans is 83 million databases, and its corner of one grown table
  // is over the budget too. The LIMIT's subtree alone differs on two rows of t3;
  // around each such t3, the other tables at one row each tell the plans apart.
  BrokenRewrite rw = broken(
      "FilterBelowLimit",
      "SELECT * FROM t0 AS r0 LEFT SEMI JOIN t1 AS r1 ON r0.k + 1 <=> r1.k LEFT JOIN t2 AS r2 ON "
      "abs(r0.k) = coalesce(r2.k, 0) LEFT ANTI JOIN (SELECT k, v FROM t3 ORDER BY k LIMIT 1) AS "
      "r3 ON r0.k + 1 IS NOT DISTINCT FROM abs(r3.k) AND r0.v = r3.v;");
  BoundedOptions o;
  o.bound = 2;
  o.maxDatabases = 200000;
  o.seconds = 600;       // the database budget decides, not the clock
  o.everyValue = false;  // the solver refutes it first (a LIMIT below the root is encoded)
  BoundedVerdict whole = checkEquivalent(*rw.original, *rw.rewritten, o);
  CHECK_FALSE(whole.counterexample);
  CHECK(whole.bound == 1);
  CHECK(whole.limit.find("bound 2 has about ") == 0);

  EquivResult r = checkRewrite(*rw.original, *rw.rewritten, o);
  CHECK(r.verdict == "different");
  CHECK(r.bounded.bound == 1);
  REQUIRE(r.bounded.counterexample);
  CHECK(r.bounded.around ==
        "a database on which filter #8 and limit #8 differ, with the rest "
        "of the database searched around it");
  const rt::Database& db = r.bounded.counterexample->db;
  CHECK(mostRows(db) == 2);
  CHECK(db.at("t3").rows.size() == 2);  // what the LIMIT needs
  CHECK(r.bounded.databases <= o.maxDatabases + o.maxDatabases / 4);
  CHECK(r.sql.find("CREATE TABLE \"t3\"") != std::string::npos);
}

TEST_CASE("equiv: a search around that finds nothing says where it looked") {
  // The filter above the LEFT join drops its padded rows, and the rewrite keeps
  // them; but a padded row (r1.k NULL) joins r2 only where t2 holds a NULL k,
  // and then NOT IN over t2 rejects every row: the rewrite is sound here.
  BrokenRewrite rw = broken(
      "FilterIntoNullGeneratingSide",
      "SELECT * FROM (SELECT k, count(*) AS v FROM t0 GROUP BY k) AS r0 LEFT JOIN (SELECT k, v "
      "FROM t1 ORDER BY k LIMIT 1) AS r1 ON r0.k + 1 = cast(r1.k AS bigint) JOIN (SELECT k, "
      "count(*) AS v FROM t2 GROUP BY k) AS r2 ON r1.k <=> r2.k + 1 LEFT ANTI JOIN (SELECT k, "
      "count(*) AS v FROM t3 GROUP BY k) AS r3 ON r0.k + 1 = cast(r3.k AS bigint) WHERE r0.k NOT "
      "IN (SELECT k FROM t2);");
  BoundedOptions o;
  o.bound = 2;
  o.maxDatabases = 20000;
  o.seconds = 600;
  // The solver proves it for every value up to the bound.
  CHECK(checkRewrite(*rw.original, *rw.rewritten, o).verdict == "equivalent");
  o.everyValue = false;  // the search alone
  EquivResult r = checkRewrite(*rw.original, *rw.rewritten, o);
  CHECK(r.verdict == "inconclusive");
  CHECK_FALSE(r.bounded.counterexample);
  INFO(r.bounded.limit);
  CHECK(r.bounded.limit.find("; around left join #10: ") != std::string::npos);
  CHECK(r.bounded.databases > o.maxDatabases);  // the quarter the search around may take
  CHECK(r.bounded.databases <= o.maxDatabases + o.maxDatabases / 4 + 256);
}

TEST_CASE("equiv: the changed subtrees, inside subqueries and up to the same columns") {
  auto qs = plans(
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n"
      "SELECT k FROM a WHERE v > 0 AND k IN (SELECT k FROM b WHERE w > 1);\n"
      "SELECT k FROM a WHERE v > 0 AND k IN (SELECT k FROM b WHERE w > 2);\n"
      "SELECT a.k FROM a JOIN b ON a.k = b.k;\n"
      "SELECT a.k FROM a JOIN (SELECT k FROM b) AS b ON a.k = b.k;\n");
  // Only the subquery's filter changed: the pair is inside the subquery's plan,
  // and it alone is what a search around it holds.
  auto inside = changedSubtrees(*qs[0].plan, *qs[1].plan);
  REQUIRE(inside.size() == 1);
  CHECK(inside[0].first->op == PlanOp::Filter);
  CHECK(inside[0].first->children[0]->table == "b");
  // The scan of b became a projection of one column: compared alone they return
  // other columns, and so does the join above them; the pair is the roots.
  auto lifted = changedSubtrees(*qs[2].plan, *qs[3].plan);
  REQUIRE(lifted.size() == 1);
  CHECK(lifted[0].first == qs[2].plan.get());
  CHECK(lifted[0].second == qs[3].plan.get());
}

TEST_CASE("equiv: the rest of a database around held tables is canonical with their fresh values") {
  auto qs = plans(
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n"
      "SELECT a.k FROM a JOIN b ON a.k = b.k;\n");
  SearchSpace whole({qs[0].plan.get()}, 2);
  SearchSpace held = whole, rest = whole;
  held.keepTables([](const std::string& t) { return t == "a"; });
  rest.keepTables([](const std::string& t) { return t == "b"; });
  REQUIRE(held.tables.size() == 1);
  REQUIRE(rest.tables.size() == 1);
  // k varies over the fresh values 1 and 2, then NULL.
  const auto& options = rest.tables[0].options;
  REQUIRE(options.size() == 3);
  CHECK(options[0][0] == rt::Value(int64_t{1}));
  CHECK(options[1][0] == rt::Value(int64_t{2}));
  // a holds the first fresh value; b with the second alone is, on its own, a
  // renaming of b with the first, but beside a it is the database where they differ.
  rt::Database db;
  held.fill({{0}}, db);
  CHECK_FALSE(rest.canonical({{1}}));
  rest.pinnedFresh = held.freshUsedBy(db);
  CHECK(rest.pinnedFresh != 0);
  CHECK(rest.canonical({{1}}));
  CHECK(rest.canonical({{0}}));
  CHECK(held.freshUsedBy(rt::Database{}) == 0);
}

TEST_CASE("equiv: two plans that differ in a subtree are searched on that subtree first") {
  auto qs = plans(
      "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int);\n"
      "SELECT x.k, b.w FROM (SELECT k FROM a WHERE v > 1 AND v > 1) AS x JOIN b ON x.k = b.k;\n"
      "SELECT x.k, b.w FROM (SELECT k FROM a WHERE v > 1) AS x JOIN b ON x.k = b.k;\n"
      "SELECT x.k, b.w FROM (SELECT k FROM a WHERE v > 2) AS x JOIN b ON x.k = b.k;\n");
  BoundedOptions o;
  o.bound = 2;
  o.proofs = false;  // (the normal forms are equal: a proof would answer first)
  EquivResult same = checkRewrite(*qs[0].plan, *qs[1].plan, o);
  CHECK(same.verdict == "equivalent");
  CHECK(same.subtree.rfind("filter #", 0) == 0);
  CHECK(same.bounded.bound == 2);
  o.proofs = true;
  EquivResult whole = checkRewrite(*qs[0].plan, *qs[2].plan, o);
  CHECK(whole.verdict == "different");  // the subtrees differ: the whole plans decide
  CHECK(whole.subtree.empty());
  REQUIRE(whole.bounded.counterexample);
  CHECK(whole.bounded.counterexample->db.count("b"));  // a counterexample for the whole plans
}
