// Join enumeration (rules/join_enum.h), attached joins' places
// (rules/join_attach.h) and cardinality estimation
// (rules/cardinality.h): DPccp finds the exhaustive optimum, greedy is used above
// the limits, and the estimator's textbook numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "rules/join_attach.h"
#include "rules/join_enum.h"

using namespace rfguard;

namespace {

RelSet rel(int i) {
  return RelSet{1} << i;
}

/// A connected random graph: a random spanning tree plus extra edges, some
/// hyperedges over three relations, rows from 1 to 10^7.
JoinGraph randomGraph(std::mt19937& rng, int n, int extraEdges, int hyperedges) {
  JoinGraph g;
  std::uniform_real_distribution<double> exponent(0, 7), sel(-6, 0);
  for (int i = 0; i < n; ++i) g.rows.push_back(std::floor(std::pow(10.0, exponent(rng))) + 1);
  for (int i = 1; i < n; ++i) {
    int parent = std::uniform_int_distribution<int>(0, i - 1)(rng);
    g.predicates.push_back({rel(i) | rel(parent), std::pow(10.0, sel(rng))});
  }
  for (int e = 0; e < extraEdges; ++e) {
    int a = std::uniform_int_distribution<int>(0, n - 1)(rng);
    int b = std::uniform_int_distribution<int>(0, n - 1)(rng);
    if (a != b) g.predicates.push_back({rel(a) | rel(b), std::pow(10.0, sel(rng))});
  }
  for (int h = 0; h < hyperedges && n >= 3; ++h) {
    RelSet s = 0;
    while (__builtin_popcountll(s) < 3) s |= rel(std::uniform_int_distribution<int>(0, n - 1)(rng));
    g.predicates.push_back({s, 0.5});
  }
  return g;
}

/// Checks that every relation is a leaf exactly once and costs add up.
void checkTree(const JoinGraph& g, const JoinTree& t) {
  RelSet seen = 0;
  double cost = 0;
  for (const auto& n : t.nodes) {
    if (n.relation >= 0) {
      CHECK((seen & rel(n.relation)) == 0);
      seen |= rel(n.relation);
    } else {
      CHECK(n.set ==
            (t.nodes[static_cast<size_t>(n.left)].set | t.nodes[static_cast<size_t>(n.right)].set));
      CHECK((t.nodes[static_cast<size_t>(n.left)].set &
             t.nodes[static_cast<size_t>(n.right)].set) == 0);
      cost += n.rows;
    }
  }
  CHECK(seen == (g.rows.size() == 64 ? ~RelSet{0} : rel(static_cast<int>(g.rows.size())) - 1));
  CHECK(t.nodes[static_cast<size_t>(t.root)].set == seen);
  CHECK(cost == doctest::Approx(t.cost).epsilon(1e-9));
}

}  // namespace

TEST_CASE("C_out of a three-relation chain, by hand") {
  // A(100) - B(1000) - C(10): A.B selectivity 1/1000, B.C 1/10.
  JoinGraph g{{100, 1000, 10}, {{rel(0) | rel(1), 1e-3}, {rel(1) | rel(2), 0.1}}};
  CHECK(g.cardinality(rel(0) | rel(1)) == doctest::Approx(100));
  CHECK(g.cardinality(rel(1) | rel(2)) == doctest::Approx(1000));
  CHECK(g.cardinality(rel(0) | rel(1) | rel(2)) == doctest::Approx(100));
  CHECK(g.connects(rel(0), rel(1)));
  CHECK_FALSE(g.connects(rel(0), rel(2)));
  JoinTree t = enumerateJoins(g);
  checkTree(g, t);
  // (A B) C costs 100 + 100 = 200; A (B C) costs 1000 + 100 = 1100. No A x C.
  CHECK(t.cost == doctest::Approx(200));
  CHECK(t.method == "dpccp");
  CHECK((t.text() == "((0 1) 2)" || t.text() == "(2 (0 1))"));
}

TEST_CASE("DPccp equals the exhaustive optimum on random connected graphs up to 10 relations") {
  std::mt19937 rng(20261201);
  int graphs = 0;
  for (int n = 2; n <= 10; ++n)
    for (int shape = 0; shape < 40; ++shape) {
      JoinGraph g = randomGraph(rng, n, shape % 4 == 0 ? 0 : shape % 7, shape % 3 == 0 ? 1 : 0);
      JoinTree dp = enumerateJoins(g);
      JoinTree ex = exhaustiveJoins(g);
      CAPTURE(n);
      CAPTURE(shape);
      checkTree(g, dp);
      checkTree(g, ex);
      CHECK(dp.method == "dpccp");
      CHECK(dp.cost == doctest::Approx(ex.cost).epsilon(1e-9));
      ++graphs;
    }
  CHECK(graphs == 360);
}

TEST_CASE("greedy above the limit, and never cheaper than the optimum") {
  std::mt19937 rng(7);
  for (int shape = 0; shape < 30; ++shape) {
    JoinGraph g = randomGraph(rng, 8, shape % 5, 0);
    JoinTree greedy = greedyJoins(g);
    checkTree(g, greedy);
    CHECK(greedy.cost >= exhaustiveJoins(g).cost * (1 - 1e-9));
    EnumerateOptions small;
    small.dpLimit = 4;
    JoinTree capped = enumerateJoins(g, small);
    CHECK(capped.method == "greedy");
    CHECK(capped.cost == doctest::Approx(greedy.cost));
  }
}

TEST_CASE("a budget of pairs sends the DP to greedy; a star of 17 stays within it") {
  // A star: a fact table and 16 dimensions, the shape of the largest JOB blocks.
  JoinGraph star;
  star.rows.push_back(1e7);
  for (int i = 1; i <= 16; ++i) {
    star.rows.push_back(100.0 * i);
    star.predicates.push_back({rel(0) | rel(i), 1.0 / (100.0 * i)});
  }
  JoinTree t = enumerateJoins(star);
  checkTree(star, t);
  CHECK(t.method == "dpccp");
  CHECK(t.pairs == 16 * (1 << 15));  // (n-1) 2^(n-2) csg-cmp pairs of a star
  EnumerateOptions tight;
  tight.pairBudget = 1000;
  JoinTree g = enumerateJoins(star, tight);
  checkTree(star, g);
  CHECK(g.method == "greedy");
}

TEST_CASE("disconnected graphs: components first, one cross product between them") {
  JoinGraph g{{10, 20, 30, 40}, {{rel(0) | rel(1), 0.1}, {rel(2) | rel(3), 0.01}}};
  JoinTree t = enumerateJoins(g);
  checkTree(g, t);
  CHECK(t.method == "dpccp+greedy");
  // (0 1) = 20 rows, (2 3) = 12 rows, then their product: 240.
  CHECK(t.cost == doctest::Approx(20 + 12 + 240));
  // A hyperedge over three relations connects what binary edges do not.
  JoinGraph h{{10, 20, 30}, {{rel(0) | rel(1), 0.1}, {rel(0) | rel(1) | rel(2), 0.001}}};
  JoinTree th = enumerateJoins(h);
  checkTree(h, th);
  CHECK(th.cost == doctest::Approx(20 + 0.6));
}

TEST_CASE("attached joins: placed where C_out is least among the nodes that see what they read") {
  // A(1000) - B(10), selectivity 1/1000: the join keeps 10 rows.
  JoinGraph g{{1000, 10}, {{rel(0) | rel(1), 1e-3}}};
  JoinTree t = enumerateJoins(g);
  REQUIRE(t.nodes.size() == 3);
  const int a = t.nodes[0].relation == 0 ? 0 : 1, join = t.root;
  // A LEFT JOIN reading A that keeps each row once: above A it costs 1000 +
  // 10, above the join 10 + 10.
  std::vector<AttachedJoin> left{{rel(0), 1.0, {}, -1}};
  placeAttachedJoins(t, left, 2);
  CHECK(left[0].at == join);
  CHECK(attachedFlow(t, left, 2).cost == doctest::Approx(20));
  // A semi join keeping 1 row in 1000 goes below the join: 1 + 0.01.
  std::vector<AttachedJoin> semi{{rel(0), 1e-3, {}, -1}};
  placeAttachedJoins(t, semi, 2);
  CHECK(semi[0].at == a);
  auto flow = attachedFlow(t, semi, 2);
  CHECK(flow.cost == doctest::Approx(1 + 0.01));
  CHECK(flow.rows[static_cast<size_t>(a)] == doctest::Approx(1));
  CHECK(flow.attached[static_cast<size_t>(join)] == rel(2));
  // A conjunct over A, B and the LEFT JOIN's columns: the LEFT JOIN goes below
  // the join that evaluates it, though above it would cost less.
  std::vector<AttachedJoin> under{{rel(0), 1.0, {rel(0) | rel(1)}, -1}};
  placeAttachedJoins(t, under, 2);
  CHECK(under[0].at == a);
  // Not possible below a leaf: placed by cost alone.
  std::vector<AttachedJoin> leafOnly{{rel(0), 1.0, {rel(0)}, -1}};
  placeAttachedJoins(t, leafOnly, 2);
  CHECK(leafOnly[0].at == join);
  // A LEFT JOIN whose condition reads another attached join's columns goes
  // above it: the first at A (semi), the second reads it and B.
  std::vector<AttachedJoin> chain{{rel(0), 1e-3, {}, -1}, {rel(2) | rel(1), 1.0, {}, -1}};
  placeAttachedJoins(t, chain, 2);
  CHECK(chain[0].at == a);
  CHECK(chain[1].at == join);
  // Reading nothing of the block (ON TRUE-like): anywhere; the cheapest is B.
  std::vector<AttachedJoin> anywhere{{0, 1.0, {}, -1}};
  placeAttachedJoins(t, anywhere, 2);
  CHECK(t.nodes[static_cast<size_t>(anywhere[0].at)].set == rel(1));
}
