// Cardinality estimation (rules/cardinality.h) with its textbook numbers, and
// the join order it leads to on TPC-H and SSB (rules/reorder_joins.cpp).
#include <cmath>
#include <functional>

#include "rules/cardinality.h"
#include "tests/unit/rf_test_support.h"

using namespace rfguard;
using namespace rfguard::testing;

namespace {

const char* kSchema =
    "CREATE TABLE f (id int NOT NULL PRIMARY KEY, d int NOT NULL, e int, s varchar(10), x int) "
    "WITH (rows = 1000000, ndv_d = 100, ndv_x = 50);"
    "CREATE TABLE dim (d int NOT NULL PRIMARY KEY, name varchar(10)) WITH (rows = 100);"
    "CREATE TABLE pk2 (a int NOT NULL, b int NOT NULL, v int, PRIMARY KEY (a, b)) "
    "WITH (rows = 5000, ndv_a = 100, ndv_b = 50);"
    "CREATE TABLE nostats (k int, v int);";

/// The bound, normalised plan of one query (joins as written).
PlanPtr planOf(const std::string& sql) {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE_MESSAGE(loadSql(std::string(kSchema) + sql, "t.sql", catalog, qs, diags), diags.render());
  NormalizeReport nr;
  NormalizeOptions no;
  keepJoinsAsWritten(no);
  normalize(qs[0].plan, no, nr);
  return qs[0].plan;
}

/// Estimated rows of the first node of `op` in pre-order.
double rowsAt(const std::string& sql, PlanOp op) {
  PlanPtr p = planOf(sql);
  CardinalityEstimator est;
  const PlanNode* hit = find(*p, op);
  REQUIRE(hit);
  return est.rows(*hit);
}

}  // namespace

TEST_CASE("scans: the row statistic, or 1000 without one") {
  CHECK(rowsAt("SELECT id FROM f", PlanOp::Scan) == 1000000);
  CHECK(rowsAt("SELECT k FROM nostats", PlanOp::Scan) == 1000);
}

TEST_CASE("filters: 1/ndv, 1/10 without ndv, 1/3 per range, k/ndv for IN, independence") {
  CHECK(rowsAt("SELECT id FROM f WHERE d = 7", PlanOp::Filter) == doctest::Approx(10000));
  CHECK(rowsAt("SELECT id FROM f WHERE e = 7", PlanOp::Filter) == doctest::Approx(100000));
  CHECK(rowsAt("SELECT id FROM f WHERE id = 7", PlanOp::Filter) == doctest::Approx(1));
  CHECK(rowsAt("SELECT id FROM f WHERE e < 7", PlanOp::Filter) == doctest::Approx(1000000.0 / 3));
  CHECK(rowsAt("SELECT id FROM f WHERE d IN (1, 2, 3)", PlanOp::Filter) == doctest::Approx(30000));
  CHECK(rowsAt("SELECT id FROM f WHERE s LIKE 'a%'", PlanOp::Filter) == doctest::Approx(100000));
  CHECK(rowsAt("SELECT id FROM f WHERE e IS NULL", PlanOp::Filter) == doctest::Approx(100000));
  // d is NOT NULL: IS NULL keeps nothing, shown as the one-row floor.
  CHECK(rowsAt("SELECT id FROM f WHERE d IS NULL", PlanOp::Filter) == doctest::Approx(1));
  CHECK(rowsAt("SELECT id FROM f WHERE d = 7 AND x = 3", PlanOp::Filter) == doctest::Approx(200));
  // OR: 1 - (1 - 1/100)(1 - 1/50).
  CHECK(rowsAt("SELECT id FROM f WHERE d = 7 OR x = 3", PlanOp::Filter) ==
        doctest::Approx(1000000 * (1 - 0.99 * 0.98)));
  CHECK(rowsAt("SELECT id FROM f WHERE NOT d = 7", PlanOp::Filter) == doctest::Approx(990000));
}

TEST_CASE("joins: |R||S| / max(ndv), a key against a column without ndv, composite keys") {
  // f.d has 100 distinct values, dim.d is dim's key (100): 10^6 * 100 / 100.
  CHECK(rowsAt("SELECT 1 FROM f JOIN dim ON f.d = dim.d", PlanOp::Join) ==
        doctest::Approx(1000000));
  // A filtered dimension: 10 of its rows, so a tenth of f.
  CHECK(rowsAt("SELECT 1 FROM f JOIN dim ON f.d = dim.d WHERE dim.name = 'x'", PlanOp::Join) ==
        doctest::Approx(100000));
  // f.e has no ndv, dim.d is a key: containment, 10^6 * 100 / 100.
  CHECK(rowsAt("SELECT 1 FROM f JOIN dim ON f.e = dim.d", PlanOp::Join) ==
        doctest::Approx(1000000));
  // Two key columns covering pk2's primary key: every f row meets one pk2 row at
  // most, 10^6 * 5000 / 5000 (per column it would be 10^6 * 5000 / (100 * 50)).
  CHECK(rowsAt("SELECT 1 FROM f JOIN pk2 ON f.d = pk2.a AND f.x = pk2.b", PlanOp::Join) ==
        doctest::Approx(1000000));
  CHECK(rowsAt("SELECT 1 FROM f CROSS JOIN dim", PlanOp::Join) == doctest::Approx(1e8));
  // LEFT JOIN keeps at least its preserved side.
  CHECK(rowsAt("SELECT 1 FROM dim LEFT JOIN f ON f.d = dim.d AND f.x = 1", PlanOp::Join) ==
        doctest::Approx(20000));
  CHECK(rowsAt("SELECT 1 FROM dim LEFT JOIN nostats n ON n.k = dim.d AND n.v = 1", PlanOp::Join) ==
        doctest::Approx(100));
}

TEST_CASE("aggregates, limits, semi and anti joins") {
  CHECK(rowsAt("SELECT d, count(*) FROM f GROUP BY d", PlanOp::Aggregate) == 100);
  CHECK(rowsAt("SELECT d, x, count(*) FROM f GROUP BY d, x", PlanOp::Aggregate) == 5000);
  CHECK(rowsAt("SELECT count(*) FROM f", PlanOp::Aggregate) == 1);
  CHECK(rowsAt("SELECT id FROM f LIMIT 10", PlanOp::Limit) == 10);
  // Every f.d value is among dim's keys: the semi join keeps all of f.
  CHECK(rowsAt("SELECT id FROM f WHERE d IN (SELECT d FROM dim)", PlanOp::Join) ==
        doctest::Approx(1000000));
  // The anti join keeps at least a tenth.
  CHECK(rowsAt("SELECT id FROM f WHERE d NOT IN (SELECT d FROM dim)", PlanOp::Join) ==
        doctest::Approx(100000));
}

TEST_CASE("estimates are printed only where the schema has statistics") {
  PlanPtr with = planOf("SELECT id FROM f WHERE d = 7");
  annotateEstimates(*with);
  CHECK(planToText(*with).find("Filter #2 (~10.0K rows) f.d = 7") != std::string::npos);
  PlanPtr without = planOf("SELECT k FROM nostats WHERE v = 1");
  annotateEstimates(*without);
  CHECK(planToText(*without).find("rows)") == std::string::npos);
  CHECK(estimateText(6001215) == "6.0M");
  CHECK(estimateText(1500) == "1500");
  CHECK(estimateText(0.4) == "1");
  CHECK(estimateText(0) == "0");
  CHECK(estimateText(25300) == "25.3K");
}

namespace {

bool contains(const PlanNode& n, const std::string& table) {
  if (n.op == PlanOp::Scan && n.table == table) return true;
  for (const auto& c : n.children)
    if (contains(*c, table)) return true;
  return false;
}

}  // namespace

TEST_CASE("TPC-H and SSB ordered by estimates: no fact table builds where a dimension could") {
  for (const char* file : {"tpch.sql", "ssb.sql"}) {
    Catalog catalog;
    std::vector<Query> qs = loadExample(file, catalog);
    size_t joins = 0;
    for (auto& q : qs) {
      NormalizeReport nr;
      normalize(q.plan, {}, nr);
      CAPTURE(q.name);
      CHECK(verifyPlan(*q.plan).empty());
      CardinalityEstimator est;
      forEachNode(*q.plan, [&](const PlanNode& n) {
        if (n.op != PlanOp::Join) return;
        ++joins;
        // The smaller estimated input builds...
        CHECK(est.rows(*n.children[1]) <= est.rows(*n.children[0]));
        // ...so a fact table builds only when filtered below the other side
        // (Q12's lineitem: 6M rows, ~21K after its five conjuncts, against
        // orders' 1.5M), and orders, unfiltered, only against lineitem.
        const PlanNode& build = *n.children[1];
        if (build.op == PlanOp::Scan) {
          CHECK(build.table != "lineitem");
          CHECK(build.table != "lineorder");
          if (build.table == "orders") CHECK(contains(*n.children[0], "lineitem"));
        }
      });
    }
    CHECK(joins > 0);
  }
}

TEST_CASE("one estimator answers every node of a wide plan as a fresh one does") {
  // Its memo (an open-addressed table starting at 32 slots) grows several
  // times over a plan of some 60 nodes; each answer stays the node's own.
  std::string sql = "SELECT f.id FROM f";
  for (int i = 0; i < 20; ++i) {
    const std::string a = "d" + std::to_string(i);
    sql += " JOIN (SELECT d, name FROM dim WHERE d > " + std::to_string(i) + ") " + a + " ON " + a +
           ".d = f.d";
  }
  PlanPtr p = planOf(sql + " WHERE f.x = 3");
  std::vector<const PlanNode*> nodes;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& n) {
    nodes.push_back(&n);
    for (const auto& c : n.children) walk(*c);
  };
  walk(*p);
  REQUIRE(nodes.size() > 60);
  CardinalityEstimator shared;
  for (int round = 0; round < 2; ++round)
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      CardinalityEstimator fresh;
      CHECK(shared.rows(**it) == fresh.rows(**it));
    }
  CardinalityEstimator topFirst;  // the root first: every node below memoised on the way
  const double root = topFirst.rows(*p);
  for (const PlanNode* n : nodes) CHECK(topFirst.rows(*n) == CardinalityEstimator().rows(*n));
  CHECK(topFirst.rows(*p) == root);
}

namespace {

/// The plan of `sql` over `schema`, normalised with the default join order.
PlanPtr orderedPlan(const std::string& schema, const std::string& sql) {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE_MESSAGE(loadSql(schema + sql, "t.sql", catalog, qs, diags), diags.render());
  NormalizeReport nr;
  normalize(qs[0].plan, {}, nr);
  return qs[0].plan;
}

size_t crossJoins(const PlanNode& n) {
  size_t c = n.op == PlanOp::Join && n.joinType == JoinType::Cross;
  for (const auto& k : n.children) c += crossJoins(*k);
  return c;
}

}  // namespace

TEST_CASE("without statistics: the order written, unless it is a cross product the graph avoids") {
  const std::string schema =
      "CREATE TABLE title (id int PRIMARY KEY, kind_id int, production_year int);"
      "CREATE TABLE movie_keyword (id int PRIMARY KEY, movie_id int, keyword_id int);"
      "CREATE TABLE keyword (id int PRIMARY KEY, keyword varchar(20));"
      "CREATE TABLE kind_type (id int PRIMARY KEY, kind varchar(20));";
  // A JOB-style comma join: keyword and title, first in FROM, share no
  // condition. Written, it starts with a cross product; ordered, it has none.
  const std::string job =
      "SELECT t.production_year FROM keyword k, title t, kind_type kt, movie_keyword mk "
      "WHERE k.keyword = 'x' AND mk.keyword_id = k.id AND mk.movie_id = t.id AND t.kind_id = "
      "kt.id;";
  PlanPtr ordered = orderedPlan(schema, job);
  CHECK(crossJoins(*ordered) == 0);
  CHECK(verifyPlan(*ordered).empty());
  // Written in a connected order, it keeps that order (and sides).
  const std::string chain =
      "SELECT t.production_year FROM keyword k, movie_keyword mk, title t, kind_type kt "
      "WHERE k.keyword = 'x' AND mk.keyword_id = k.id AND mk.movie_id = t.id AND t.kind_id = "
      "kt.id;";
  const std::string text = planToText(*orderedPlan(schema, chain));
  CHECK(text.find("Join #2 JOIN ON t.kind_id = kt.id") != std::string::npos);
  CHECK(text.find("Join #3 JOIN ON mk.movie_id = t.id") != std::string::npos);
  // A query graph that is not connected keeps its one cross product.
  PlanPtr apart = orderedPlan(schema,
                              "SELECT * FROM keyword k, title t, kind_type kt "
                              "WHERE t.kind_id = kt.id;");
  CHECK(crossJoins(*apart) == 1);
}
