#pragma once
// Join enumeration over a query graph: an exact dynamic programme over
// connected subgraphs (DPccp, Moerkotte and Neumann, VLDB 2006) for blocks up
// to a size, greedy operator ordering (GOO, Fegaras 1998) above it, both under
// the cost C_out (the sum of the estimated rows of every join's result). Pure:
// relations are numbers, predicates are sets of them with a selectivity. The
// plan side (rules/reorder_joins.cpp) maps a block of inner joins to a graph
// and the chosen tree back to joins.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rfguard {

/// Relations are bits of a set: at most 64 per block.
using RelSet = uint64_t;

/// The set of the first `n` relations.
RelSet lowBits(size_t n);

/// A join block: relations with their estimated rows and the predicates over them.
struct JoinGraph {
  struct Predicate {
    RelSet rels = 0;           ///< the relations the predicate reads
    double selectivity = 1.0;  ///< the share of rows of the product over `rels` it keeps
  };
  std::vector<double> rows;  ///< estimated rows of relation i
  std::vector<Predicate> predicates;

  /// Estimated rows of the join of `set`: the product of the relations' rows and
  /// of the selectivities of the predicates whose relations all lie in `set`
  /// (independence). The same for every tree over `set`.
  double cardinality(RelSet set) const;
  /// True when some predicate reads both sets and nothing outside them (an
  /// edge or hyperedge joins them without a cross product).
  bool connects(RelSet a, RelSet b) const;
};

/// A join tree: leaves are relations, inner nodes joins of two subtrees.
struct JoinTree {
  struct Node {
    RelSet set = 0;
    int relation = -1;  ///< for a leaf
    int left = -1;      ///< for a join: node indexes of the two inputs
    int right = -1;
    double rows = 0;  ///< estimated rows of `set`
  };
  std::vector<Node> nodes;
  int root = -1;
  double cost = 0;      ///< C_out: the sum of the rows of every join node
  std::string method;   ///< "dpccp", "greedy", or "dpccp+greedy" (components joined greedily)
  long long pairs = 0;  ///< csg-cmp pairs the DP considered

  /// The tree as text, for tests and --explain: "((0 1) 2)".
  std::string text() const;
};

/// Options of the enumeration.
struct EnumerateOptions {
  int dpLimit = 18;                  ///< the DP for components of at most this many relations
  long long pairBudget = 1'000'000;  ///< above this many csg-cmp pairs, fall back to greedy
};

/// The cheapest tree under C_out: DPccp on each component of the graph's
/// binary predicates (exact within the search space of bushy trees without
/// cross products), greedy above the limits, and components joined greedily
/// (by a hyperedge where one connects them, by a cross product otherwise).
/// Needs at least one relation.
JoinTree enumerateJoins(const JoinGraph& g, const EnumerateOptions& options = {});

/// Greedy operator ordering alone: repeatedly join the two trees whose join is
/// smallest, connected pairs before cross products.
JoinTree greedyJoins(const JoinGraph& g);

/// The exhaustive optimum over the same search space as DPccp (every subset
/// split into two connected, mutually connected halves; 3^n): the reference the
/// tests hold enumerateJoins to. Only for small connected graphs.
JoinTree exhaustiveJoins(const JoinGraph& g);

}  // namespace rfguard
