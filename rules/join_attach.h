#pragma once
// Joins attached to a block of inner joins (rules/reorder_joins.cpp): LEFT,
// semi and anti joins along the input whose rows they keep or drop whole. Their
// other input is not a relation of the block's query graph; once the inner
// joins are ordered, each such join is placed above a node of the tree where
// its condition can be read (l-asscom lets it sit at any such node). Pure:
// relations are numbers, as in rules/join_enum.h.
#include <cstddef>
#include <vector>

#include "rules/join_enum.h"

namespace rfguard {

/// One attached join, in bottom-up order: it reads only attached joins before it.
struct AttachedJoin {
  /// What its condition reads: leaves (bits below the leaf count) and earlier
  /// attached joins (bit leafCount + k for the k-th).
  RelSet reads = 0;
  double factor = 1;  ///< estimated rows after the join per row before it
  /// The leaves of conjuncts that read its columns: placed below the join of
  /// the tree that first sees each, where it can, so the conjunct is that join's
  /// condition rather than a filter above a cross product.
  std::vector<RelSet> under;
  int at = -1;  ///< the node of the tree it is placed above (-1: not placed)
};

/// What flows out of each node of a join tree with its attached joins placed.
struct AttachedFlow {
  std::vector<double> rows;      ///< rows leaving the node, its attached joins applied
  std::vector<RelSet> attached;  ///< attached joins at or below the node (bits from the leaf count)
  double cost = 0;               ///< C_out, the attached joins included
};

/// The rows and cost of `t` with the attached joins placed so far. Nodes of
/// `t` list their inputs first (as rules/join_enum.h builds them).
AttachedFlow attachedFlow(const JoinTree& t, const std::vector<AttachedJoin>& joins,
                          size_t leafCount);

/// Places each attached join, bottom-up, above the node of the tree where C_out
/// is least among those that see everything its condition reads (the lowest
/// such node on a tie), below the joins its `under` names where it can.
void placeAttachedJoins(const JoinTree& t, std::vector<AttachedJoin>& joins, size_t leafCount);

}  // namespace rfguard
