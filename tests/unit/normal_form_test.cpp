// Proofs by normal form (verifier/normal_form.h): the identities it applies make
// equal plans equal, and nothing that changes a result is forgotten.
#include <doctest/doctest.h>

#include <functional>
#include <random>

#include "grammar/sql.h"
#include "ir/printers.h"
#include "normal_form_support.h"
#include "pipeline/equiv.h"
#include "testgen/broken_rules.h"
#include "testgen/random_queries.h"
#include "verifier/normal_form.h"

using namespace rfguard;
using namespace rfguard::testing;

namespace {

PlanNode* findJoin(PlanNode& n) {
  if (n.op == PlanOp::Join) return &n;
  for (auto& c : n.children)
    if (auto* j = findJoin(*c)) return j;
  return nullptr;
}

/// A copy of `join` with its inputs swapped and its type mirrored.
PlanPtr mirroredJoin(const PlanNode& join) {
  PlanPtr m = deepClonePlan(join);
  std::swap(m->children[0], m->children[1]);
  m->joinType = mirrored(m->joinType);
  refreshOutputs(*m);
  return m;
}

}  // namespace

TEST_CASE("normal form: inner joins in any order, conditions in ON or WHERE, are one plan") {
  std::string why;
  CHECK(
      proved("SELECT a.k, c.x FROM a JOIN b ON a.k = b.k JOIN c ON b.w = c.k WHERE a.v > 1;"
             "SELECT a.k, c.x FROM c, b, a WHERE 1 < a.v AND c.k = b.w AND b.k = a.k;",
             &why));
  CHECK(why ==
        "inner joins reordered or their conjuncts moved; operands of symmetric comparisons "
        "swapped");
  // A repeated conjunct and a TRUE filter change nothing.
  CHECK(
      proved("SELECT a.k FROM a JOIN b ON a.k = b.k;"
             "SELECT a.k FROM a JOIN b ON a.k = b.k AND a.k = b.k WHERE true;"));
}

TEST_CASE("normal form: what changes a result is never forgotten") {
  // A conjunct dropped, or another constant.
  CHECK_FALSE(
      proved("SELECT a.k FROM a JOIN b ON a.k = b.k WHERE a.v > 1;"
             "SELECT a.k FROM a JOIN b ON a.k = b.k;"));
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE a.v > 1;"
             "SELECT a.k FROM a WHERE a.v > 2;"));
  // a < b is not b < a.
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE a.k < a.v;"
             "SELECT a.k FROM a WHERE a.v < a.k;"));
  // A LEFT JOIN's inputs swapped without the mirrored type; a WHERE conjunct
  // moved into an outer join's ON; LEFT as INNER.
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;"
             "SELECT a.k, b.w FROM b LEFT JOIN a ON a.k = b.k;"));
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE b.w > 1;"
             "SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k AND b.w > 1;"));
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;"
             "SELECT a.k, b.w FROM a JOIN b ON a.k = b.k;"));
  // Another select-list order.
  CHECK_FALSE(proved("SELECT a.k, a.v FROM a; SELECT a.v, a.k FROM a;"));
  // A non-deterministic conjunct keeps its place: evaluated per row of a, or
  // per row of the join, it draws other numbers.
  CHECK_FALSE(
      proved("SELECT a.k FROM a JOIN b ON a.k = b.k WHERE random() < 0.5;"
             "SELECT a.k FROM (SELECT * FROM a WHERE random() < 0.5) a JOIN b ON a.k = b.k;"));
  // So does a conjunct with a subquery (a scalar subquery on more rows may fail).
  CHECK_FALSE(
      proved("SELECT a.k FROM a JOIN b ON a.k = b.k WHERE a.v = (SELECT x FROM c WHERE c.k = a.k);"
             "SELECT a.k FROM (SELECT * FROM a WHERE a.v = (SELECT x FROM c WHERE c.k = a.k)) a "
             "JOIN b ON a.k = b.k;"));
  // ... but not one of an aggregate without group keys: one row for every
  // outer row, it is a LEFT JOIN to the aggregate grouped, and its conjunct
  // moves like any other.
  CHECK(proved(
      "SELECT a.k FROM a JOIN b ON a.k = b.k WHERE a.v = (SELECT max(x) FROM c WHERE c.k = a.k);"
      "SELECT a.k FROM (SELECT * FROM a WHERE a.v = (SELECT max(x) FROM c WHERE c.k = a.k)) a "
      "JOIN b ON a.k = b.k;"));
}

TEST_CASE("normal form: a join is its mirror, where no result sees the column order") {
  auto qs = bound("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k;");
  PlanNode* join = findJoin(*qs[0].plan);
  REQUIRE(join);
  // Below a projection: the mirrored join (RIGHT, inputs swapped) is the same plan.
  PlanPtr whole = deepClonePlan(*qs[0].plan);
  PlanNode* j = findJoin(*whole);
  PlanPtr m = mirroredJoin(*j);
  *j = *m;
  refreshOutputs(*whole);
  CHECK(j->joinType == JoinType::Right);
  auto why = provedEqual(*qs[0].plan, *whole);
  REQUIRE(why);
  CHECK(*why == "join inputs swapped with the mirrored join type");
  // As the result itself, the columns come in another order: not proved.
  CHECK_FALSE(provedEqual(*join, *mirroredJoin(*join)));
}

TEST_CASE("normal form: the inputs of a set operation keep their column order") {
  auto qs = bound(
      "SELECT * FROM a JOIN b ON a.k = b.k UNION ALL SELECT * FROM a AS x JOIN b AS y ON x.k = "
      "y.k;");
  PlanPtr original = deepClonePlan(*qs[0].plan);
  REQUIRE(original->op == PlanOp::Union);
  // The union reads the join directly (no projection between them).
  original->children[0] = original->children[0]->children[0];
  REQUIRE(original->children[0]->op == PlanOp::Join);
  refreshOutputs(*original);
  PlanPtr swapped = deepClonePlan(*original);
  swapped->children[0] = mirroredJoin(*swapped->children[0]);
  refreshOutputs(*swapped);
  // The union pairs columns by position: (a.k, a.v, b.k, b.w) became (b.k, b.w, a.k, a.v).
  CHECK_FALSE(provedEqual(*original, *swapped));
  EquivResult r = checkRewrite(*original, *swapped, BoundedOptions{});
  CHECK(r.verdict == "different");
}

TEST_CASE("normal form: scans may list other columns, unless something reads them") {
  auto qs = bound("SELECT a.k FROM a JOIN b ON a.k = b.k;");
  PlanPtr pruned = deepClonePlan(*qs[0].plan);
  std::function<void(PlanNode&)> prune = [&](PlanNode& n) {
    if (n.op == PlanOp::Scan) n.scanColumns = {n.alias + ".k"};
    for (auto& c : n.children) prune(*c);
  };
  prune(*pruned);
  refreshOutputs(*pruned);
  auto why = provedEqual(*qs[0].plan, *pruned);
  REQUIRE(why);
  CHECK(*why == "scans list other columns");
  // A plan that reads a column its scan no longer lists does not bind: no proof.
  auto reads = bound("SELECT a.v FROM a JOIN b ON a.k = b.k;");
  PlanPtr broken = deepClonePlan(*reads[0].plan);
  prune(*broken);
  refreshOutputs(*broken);
  CHECK_FALSE(provedEqual(*reads[0].plan, *broken));
}

TEST_CASE("normal form: rfguard's join ordering of a 6-table block is proved, not searched") {
  auto qs = bound(
      "CREATE TABLE d (k int, y int) WITH (rows = 10); CREATE TABLE e (k int, z int) WITH (rows "
      "= 1000000); CREATE TABLE f (k int, u int) WITH (rows = 5);"
      "SELECT a.k, f.u FROM e JOIN a ON e.k = a.k JOIN b ON a.v = b.k JOIN c ON b.w = c.k "
      "JOIN d ON c.x = d.k JOIN f ON d.y = f.k;");
  auto steps = normalisationTrace(*qs[0].plan, {});
  bool reordered = false;
  for (const auto& v : checkTrace(steps, BoundedOptions{})) {
    CHECK(v.result.verdict == "equivalent");
    if (steps[v.step].rule == "ReorderJoins") {
      reordered = true;
      CHECK(v.result.proof.find("inner joins reordered") == 0);
      CHECK(v.result.bounded.databases == 0);
    }
  }
  CHECK(reordered);
}

TEST_CASE(
    "normal form: conjuncts move into the inputs of outer, semi and anti joins where it is sound") {
  std::string why;
  // A semi join keeps a row of its left input when some right row matches: an
  // ON conjunct over the left input alone is a filter on it.
  CHECK(
      proved("SELECT a.k FROM a LEFT SEMI JOIN b ON a.k = b.k AND a.v > 1;"
             "SELECT a.k FROM a LEFT SEMI JOIN b ON a.k = b.k WHERE a.v > 1;",
             &why));
  CHECK(why ==
        "inner joins reordered or their conjuncts moved; conjuncts moved into an input of an "
        "outer, semi or anti join");
  CHECK(
      proved("SELECT a.k FROM b RIGHT SEMI JOIN a ON a.k = b.k AND a.v > 1;"
             "SELECT a.k FROM a LEFT SEMI JOIN b ON a.k = b.k WHERE a.v > 1;"));
  // Not for a LEFT join (the row would be padded, not dropped), nor an anti
  // join (the row would be kept, not dropped).
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k AND a.v > 1;"
             "SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE a.v > 1;"));
  CHECK_FALSE(
      proved("SELECT a.k FROM a LEFT ANTI JOIN b ON a.k = b.k AND a.v > 1;"
             "SELECT a.k FROM a LEFT ANTI JOIN b ON a.k = b.k WHERE a.v > 1;"));
  // rfguard's own pushdowns through a LEFT and a semi join, proved step by step.
  for (const std::string sql :
       {"SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k AND b.w > 1 WHERE a.v > 1;",
        "SELECT a.k FROM a LEFT SEMI JOIN b ON a.k = b.k AND b.w < 2 AND a.v > 1 WHERE a.v < 5;",
        "SELECT a.k FROM a LEFT ANTI JOIN b ON a.k = b.k AND b.w < 2 WHERE a.v < 5;"}) {
    CAPTURE(sql);
    auto qs = bound(sql);
    auto steps = normalisationTrace(*qs[0].plan, {});
    REQUIRE(steps.size() > 1);
    for (const auto& v : checkTrace(steps, BoundedOptions{})) {
      CAPTURE(steps[v.step].rule);
      CHECK(v.result.verdict == "equivalent");
      CHECK(!v.result.proof.empty());
    }
  }
}

TEST_CASE("normal form: on random queries, no broken rule is proved and every proof holds") {
  // The normal form against the search: a broken rule's rewrite (verifier/
  // broken_rules.h) never has the original's form, and a normalisation step
  // the form proves is never refuted at bound 1.
  std::mt19937_64 rng(12);
  int proofs = 0, broken = 0;
  for (int n = 0; n < 40; ++n) {
    std::string sql = randomQuery(rng, 2 + static_cast<int>(rng() % 3));
    CAPTURE(sql);
    Catalog c;
    std::vector<Query> qs;
    Diagnostics d;
    REQUIRE_MESSAGE(loadSql(randomSchema() + sql, "random.sql", c, qs, d), d.render());
    auto steps = normalisationTrace(*qs[0].plan, {});
    BoundedOptions search;
    search.bound = 1;
    search.proofs = false;
    for (size_t i = 1; i < steps.size(); ++i)
      if (provedEqual(*steps[i - 1].plan, *steps[i].plan)) {
        ++proofs;
        CHECK(checkRewrite(*steps[i - 1].plan, *steps[i].plan, search).verdict != "different");
      }
    for (const auto& rule : brokenRules())
      if (auto rw = rule.apply(*steps.back().plan)) {
        ++broken;
        CAPTURE(rule.name);
        CHECK_FALSE(provedEqual(*rw->original, *rw->rewritten));
      }
  }
  CHECK(proofs > 40);
  CHECK(broken > 40);
}

TEST_CASE("normal form: an outer join whose padded rows a conjunct rejects is an inner join") {
  std::string why;
  CHECK(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE b.w > 1;"
             "SELECT a.k, b.w FROM a JOIN b ON a.k = b.k WHERE b.w > 1;",
             &why));
  CHECK(why ==
        "inner joins reordered or their conjuncts moved; outer joins simplified where a "
        "conjunct rejects their padded rows");
  // Through a join above it, and for a RIGHT join.
  CHECK(
      proved("SELECT a.k FROM a RIGHT JOIN b ON a.k = b.k JOIN c ON a.v = c.x;"
             "SELECT a.k FROM c JOIN a ON a.v = c.x JOIN b ON a.k = b.k;"));
  // Not when the conjunct is TRUE on a padded row: IS NULL, <=>, coalesce, OR.
  for (const char* where :
       {"b.w IS NULL", "b.w <=> 1", "coalesce(b.w, 2) > 1", "b.w > 1 OR a.v > 1"}) {
    CAPTURE(where);
    CHECK_FALSE(proved(std::string("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE ") +
                       where + "; SELECT a.k, b.w FROM a JOIN b ON a.k = b.k WHERE " + where +
                       ";"));
  }
  // A FULL join loses the side whose padded rows are rejected.
  CHECK(
      proved("SELECT a.k, b.w FROM a FULL JOIN b ON a.k = b.k WHERE a.v > 1;"
             "SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE a.v > 1;"));
  CHECK(
      proved("SELECT a.k, b.w FROM a FULL JOIN b ON a.k = b.k WHERE a.v > 1 AND b.w > 1;"
             "SELECT a.k, b.w FROM a JOIN b ON a.k = b.k WHERE a.v > 1 AND b.w > 1;"));
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a FULL JOIN b ON a.k = b.k WHERE a.v > 1;"
             "SELECT a.k, b.w FROM a JOIN b ON a.k = b.k WHERE a.v > 1;"));
  // A semi join above matches no padded row on `b.w = c.k`; an anti join keeps it.
  CHECK(
      proved("SELECT a.k FROM a LEFT JOIN b ON a.k = b.k LEFT SEMI JOIN c ON b.w = c.k;"
             "SELECT a.k FROM a JOIN b ON a.k = b.k LEFT SEMI JOIN c ON b.w = c.k;"));
  CHECK_FALSE(
      proved("SELECT a.k FROM a LEFT JOIN b ON a.k = b.k LEFT ANTI JOIN c ON b.w = c.k;"
             "SELECT a.k FROM a JOIN b ON a.k = b.k LEFT ANTI JOIN c ON b.w = c.k;"));
  // Through the preserved input of another outer join: b.w = d.k above drops
  // every row made from a row of (a LEFT JOIN b) whose b is padded.
  const std::string nested =
      "SELECT a.k FROM a LEFT JOIN b ON a.k = b.k LEFT JOIN c ON a.k = c.k JOIN c AS d ON b.w = "
      "d.k;"
      "SELECT a.k FROM a JOIN b ON a.k = b.k LEFT JOIN c ON a.k = c.k JOIN c AS d ON b.w = d.k;";
  CHECK(proved(nested));
  {
    auto qs = bound(nested);
    BoundedOptions search;
    search.proofs = false;
    CHECK(checkRewrite(*qs[0].plan, *qs[1].plan, search).verdict == "equivalent");
  }
  // An ON conjunct does not reach into the preserved input: a row of (b LEFT
  // JOIN c) with c padded matches no row of a, and is returned padded.
  const std::string preserved =
      "SELECT b.k, c.x FROM a RIGHT JOIN (b LEFT JOIN c ON b.k = c.k) ON a.k = c.x;"
      "SELECT b.k, c.x FROM a RIGHT JOIN (b JOIN c ON b.k = c.k) ON a.k = c.x;";
  CHECK_FALSE(proved(preserved));
  // With a filter that rejects a's padding the RIGHT join is inner, and then it is.
  CHECK(
      proved("SELECT a.k FROM a RIGHT JOIN (b LEFT JOIN c ON b.k = c.k) ON a.k = c.x WHERE a.v = 1;"
             "SELECT a.k FROM a RIGHT JOIN (b JOIN c ON b.k = c.k) ON a.k = c.x WHERE a.v = 1;"));
  {
    auto qs = bound(preserved);
    CHECK(checkRewrite(*qs[0].plan, *qs[1].plan, BoundedOptions{}).verdict == "different");
  }
  // Nor when it reads the preserved side only.
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE a.v > 1;"
             "SELECT a.k, b.w FROM a JOIN b ON a.k = b.k WHERE a.v > 1;"));
}

TEST_CASE("normal form: an inner join whose condition has a subquery keeps it in place") {
  // The scalar subquery reads a only; moved to the upper join it would run on
  // other rows (the rows of a ⋈ b, not those a ⋈ b matched on both conjuncts).
  auto qs = bound(
      "SELECT a.k FROM a JOIN b ON a.k = b.k AND a.v = (SELECT max(x) FROM c) JOIN c AS d ON b.w "
      "= d.k;"
      "SELECT a.k FROM a JOIN b ON a.k = b.k JOIN c AS d ON b.w = d.k AND a.v = (SELECT max(x) "
      "FROM c);");
  CHECK_FALSE(provedEqual(*qs[0].plan, *qs[1].plan));
  // Without a subquery the same move is an identity.
  CHECK(
      proved("SELECT a.k FROM a JOIN b ON a.k = b.k AND a.v = 3 JOIN c AS d ON b.w = d.k;"
             "SELECT a.k FROM a JOIN b ON a.k = b.k JOIN c AS d ON b.w = d.k AND a.v = 3;"));
}

TEST_CASE("normal form: uncorrelated IN and NOT IN are the semi and NULL-aware anti joins") {
  for (const char* sql : {"SELECT a.k FROM a WHERE a.k IN (SELECT k FROM b) AND a.v > 1;",
                          "SELECT a.k FROM a WHERE a.k NOT IN (SELECT w FROM b) AND a.v > 1;",
                          "SELECT a.k FROM a JOIN c ON a.k = c.k WHERE a.v NOT IN (SELECT w FROM "
                          "b WHERE b.k > 2);"}) {
    CHECK(provedStepByStep(sql, "DecorrelateIn",
                           "uncorrelated IN / NOT IN as semi / NULL-aware anti joins"));
  }
  // NOT IN is not NOT EXISTS, nor IN: the anti join's kind is part of the form.
  auto qs = bound("SELECT a.k FROM a WHERE a.k NOT IN (SELECT w FROM b);");
  auto steps = normalisationTrace(*qs[0].plan, {});
  PlanPtr plain = deepClonePlan(*steps.back().plan);
  PlanNode* j = findJoin(*plain);
  REQUIRE(j);
  REQUIRE(j->joinType == JoinType::NullAwareLeftAnti);
  for (JoinType other : {JoinType::LeftAnti, JoinType::LeftSemi}) {
    j->joinType = other;
    refreshOutputs(*plain);
    CHECK_FALSE(provedEqual(*qs[0].plan, *plain));
  }
}

TEST_CASE("normal form: what every branch of an OR shares comes out of it") {
  std::string why;
  CHECK(
      proved("SELECT a.k FROM a JOIN b ON true WHERE (a.k = b.k AND a.v = 1) OR (a.k = b.k AND "
             "b.w = 2);"
             "SELECT a.k FROM a JOIN b ON a.k = b.k WHERE a.v = 1 OR b.w = 2;",
             &why));
  CHECK(why.find("conjuncts common to every branch of an OR taken out of it") != std::string::npos);
  // A branch that is only the shared part: the OR holds whenever it does.
  CHECK(
      proved("SELECT a.k FROM a WHERE (a.k = 1 AND a.v = 2) OR a.k = 1;"
             "SELECT a.k FROM a WHERE a.k = 1;"));
  // Shared by some branches only: nothing comes out.
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE (a.k = 1 AND a.v = 2) OR (a.k = 1 AND a.v = 3) OR "
             "a.v = 4;"
             "SELECT a.k FROM a WHERE a.k = 1 AND (a.v = 2 OR a.v = 3 OR a.v = 4);"));
  // TPC-H q19's step, proved.
  auto qs = bound(
      "SELECT a.k FROM a, b WHERE (a.k = b.k AND a.v < 3 AND b.w = 1) OR (a.k = b.k AND a.v > 5 "
      "AND b.w = 2) OR (a.k = b.k AND b.w = 3);");
  auto steps = normalisationTrace(*qs[0].plan, {});
  for (const auto& v : checkTrace(steps, BoundedOptions{})) {
    CAPTURE(steps[v.step].rule);
    CHECK((v.identical || !v.result.proof.empty()));
  }
}
