// ReorderJoins and ChooseBuildSides: the joins of a query in the order an
// engine would run them (docs/join-order.md).
//
// ReorderJoins takes each block of INNER and CROSS joins (a maximal tree of
// them), maps it to a query graph (relations = leaves, predicates = the
// conjuncts of the block's conditions, each reading the leaves whose columns it
// names) and rebuilds it as the cheapest tree under C_out (rules/join_enum.h),
// every join's smaller input on the build (right) side and every conjunct at
// the lowest join that sees all its leaves. Inner joins are commutative and
// associative, and a conjunct can be evaluated at any join above all the leaves
// it reads: (A JOIN B ON p) JOIN C ON q equals A JOIN (B JOIN C ON q) ON p when
// p reads only A and B and q only B and C.
//
// LEFT, semi and anti joins are part of a block along the input whose rows they
// keep or drop whole (the join-type table's innerJoinsCommuteOn): their other
// input is attached to the block, not a leaf of it. l-asscom (Moerkotte et
// al., SIGMOD 2013) lets such a join move up or down past inner joins: (A LEFT
// JOIN B ON p) JOIN C ON q equals (A JOIN C ON q) LEFT JOIN B ON p when p reads
// no column of C. So an attached input may join at any point of the tree where
// every column its condition reads is present (above the attachments it reads,
// too), and a conjunct that reads its columns must stay above it: WHERE b.x IS
// NULL in a LEFT join's ON would keep the rows it rejects. The point is chosen
// by C_out with each attachment's estimated effect on the rows. Their other
// input and FULL joins stay barriers: (A LEFT JOIN B ON a=b) JOIN C ON b=c
// differs from A LEFT JOIN (B JOIN C ON b=c) ON a=b (A={1}, B={1}, C={}: the
// first is empty, the second keeps (1, NULL, NULL)).
//
// ChooseBuildSides then puts the smaller estimated input of every other join on
// the build side, swapping the children and the type through the join-type
// table's mirror (LEFT <-> RIGHT, LEFT SEMI <-> RIGHT SEMI...): a join and its
// mirror with swapped children return the same rows.
//
// Both act only where some table below has a row-count statistic (WITH (rows
// = N)): without one every estimate is a default, and the plan keeps the
// order it was written in, unless that order joins by a cross product
// relations its conditions connect (a comma join written in no join order):
// then the block is ordered on default estimates, which join on keys first (a
// primary key's distinct values are its rows), without a cross product.
//
// A join's output lists its left columns first. Swapping sides changes that
// order, so both rules act only where a projection or aggregate above names
// the columns again (always so for plans bound from SQL), or where the join
// outputs one side only.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <map>

#include "rules/cardinality.h"
#include "rules/join_attach.h"
#include "rules/join_enum.h"
#include "rules/normalize.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

/// True when some scan below `n` has a row-count statistic. Where none has,
/// every estimate would be a default, and the plan keeps the order written.
bool hasStatistics(const PlanNode& n) {
  if (n.op == PlanOp::Scan) return n.tableRows.has_value();
  for (const auto& c : n.children)
    if (hasStatistics(*c)) return true;
  return false;
}

bool isBlockJoin(const PlanNode& n) {
  return n.op == PlanOp::Join && joinInfo(n.joinType).freelyReordered;
}

/// Whether the column order of a child's output reaches the parent's output.
bool childOrderMatters(const PlanNode& parent, bool parentMatters) {
  switch (parent.op) {
    case PlanOp::Project:
    case PlanOp::Aggregate:
      return false;
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except:
      return true;
    default:
      return parentMatters;
  }
}

struct BlockConjunct {
  ExprPtr expr;
  RelSet rels = 0;  // the leaves (bits 0..n-1) and attachments (bits n...) it reads
  SourceLoc loc;    // the join it came from
};

/// The input of a LEFT, semi or anti join that is not part of the block: it
/// joins the block's rows at a point of the tree where its condition's columns
/// are present.
struct Attachment {
  PlanNode* join = nullptr;  // the join as written
  int side = 0;              // the join's input that is part of the block
  PlanPtr* slot = nullptr;   // the other input
  RelSet leaves = 0;         // the leaves it needs, through the attachments it reads
};

struct Block {
  std::vector<PlanPtr*> leafSlots;
  std::vector<BlockConjunct> conjuncts;
  std::vector<Attachment> attachments;  // bottom-up: each reads only attachments before it
  std::vector<AttachedJoin> placement;  // one per attachment (rules/join_attach.h)
  bool reorderable = true;
};

/// The input of `n` along which it belongs to a block of inner joins, or -1.
int attachedAlong(const PlanNode& n) {
  if (n.op != PlanOp::Join || !n.runtimeFilters.empty()) return -1;
  if (n.predicate && (hasSubquery(*n.predicate) || !isDeterministic(*n.predicate))) return -1;
  return joinInfo(n.joinType).innerJoinsCommuteOn;
}

void collectBlock(PlanPtr& n, Block& b) {
  if (int side = attachedAlong(*n); side >= 0) {
    collectBlock(n->children[static_cast<size_t>(side)], b);
    b.attachments.push_back({n.get(), side, &n->children[static_cast<size_t>(1 - side)]});
    b.placement.emplace_back();
    return;
  }
  if (!isBlockJoin(*n)) {
    b.leafSlots.push_back(&n);
    return;
  }
  if (!n->runtimeFilters.empty()) b.reorderable = false;
  for (const auto& c : conjuncts(n->predicate)) {
    if (hasSubquery(*c) || !isDeterministic(*c)) b.reorderable = false;
    b.conjuncts.push_back({c, 0, n->loc});
  }
  collectBlock(n->children[0], b);
  collectBlock(n->children[1], b);
}

/// Rebuilds a block from its chosen tree and the attachments' places.
class BlockBuilder {
 public:
  BlockBuilder(const JoinTree& t, const std::vector<PlanPtr>& leaves, const Block& b)
      : t_(t),
        leaves_(leaves),
        block_(b),
        flow_(attachedFlow(t, b.placement, leaves.size())),
        placed_(b.conjuncts.size(), false) {}

  PlanPtr build() {
    PlanPtr out = build(t_.root, true);
    // What reads an attachment placed above the root is evaluated above it.
    std::vector<ExprPtr> rest;
    SourceLoc loc;
    for (size_t c = 0; c < placed_.size(); ++c)
      if (!placed_[c]) {
        if (rest.empty()) loc = block_.conjuncts[c].loc;
        rest.push_back(block_.conjuncts[c].expr);
      }
    if (rest.empty()) return out;
    PlanPtr f = makeFilter(out, rest, loc);
    computeOutput(*f);
    return f;
  }

 private:
  const JoinTree::Node& node(int i) const { return t_.nodes[static_cast<size_t>(i)]; }
  double rows(int i) const { return flow_.rows[static_cast<size_t>(i)]; }
  RelSet attached(int i) const { return flow_.attached[static_cast<size_t>(i)]; }

  // Inputs are built first, so their joins take their conjuncts before this
  // one does: a conjunct lands at the lowest join that sees all it reads.
  PlanPtr build(int i, bool root) {
    const auto& n = node(i);
    PlanPtr out;
    if (n.relation >= 0) {
      out = leaves_[static_cast<size_t>(n.relation)];
    } else {
      // The larger input probes, the smaller builds; on a tie the input holding
      // the earlier FROM item stays on the probe side.
      int probe = n.left, buildSide = n.right;
      const auto &a = node(probe), &b = node(buildSide);
      if (rows(probe) < rows(buildSide) ||
          (rows(probe) == rows(buildSide) && (b.set & (~b.set + 1)) < (a.set & (~a.set + 1))))
        std::swap(probe, buildSide);
      PlanPtr left = build(probe, false);
      PlanPtr right = build(buildSide, false);
      RelSet sees = n.set | attached(n.left) | attached(n.right);
      std::vector<ExprPtr> here;
      SourceLoc loc;
      for (size_t c = 0; c < block_.conjuncts.size(); ++c) {
        if (placed_[c]) continue;
        RelSet r = block_.conjuncts[c].rels;
        bool fits = r ? (r & ~sees) == 0 : root;
        if (!fits) continue;
        if (here.empty()) loc = block_.conjuncts[c].loc;
        here.push_back(block_.conjuncts[c].expr);
        placed_[c] = true;
      }
      out = makeJoin(here.empty() ? JoinType::Cross : JoinType::Inner, left, right, makeAnd(here),
                     here.empty() ? leaves_[0]->loc : loc);
      computeOutput(*out);
    }
    for (size_t k = 0; k < block_.attachments.size(); ++k) {
      const Attachment& a = block_.attachments[k];
      if (block_.placement[k].at != i) continue;
      JoinType type = a.side == 0 ? a.join->joinType : mirrored(a.join->joinType);
      out = makeJoin(type, out, *a.slot, a.join->predicate, a.join->loc);
      computeOutput(*out);
    }
    return out;
  }

  const JoinTree& t_;
  const std::vector<PlanPtr>& leaves_;
  const Block& block_;
  AttachedFlow flow_;
  std::vector<bool> placed_;
};

/// Same joins and filters, same types, same conditions, same leaves (by identity).
bool sameBlock(const PlanNode& a, const PlanNode& b) {
  if (&a == &b) return true;
  if (a.op != b.op || (a.op != PlanOp::Join && a.op != PlanOp::Filter)) return false;
  if (a.joinType != b.joinType || a.children.size() != b.children.size()) return false;
  auto ca = conjuncts(a.predicate), cb = conjuncts(b.predicate);
  if (ca.size() != cb.size()) return false;
  for (size_t i = 0; i < ca.size(); ++i)
    if (!exprEquals(ca[i], cb[i])) return false;
  for (size_t i = 0; i < a.children.size(); ++i)
    if (!sameBlock(*a.children[i], *b.children[i])) return false;
  return true;
}

bool reorderBlock(PlanPtr& root, bool orderMatters);

/// The leaves (bits) of the written block below `n`; sets `cross` when one of
/// its inner joins meets two inputs no conjunct of the block compares.
RelSet writtenLeaves(const PlanNode& n, const Block& b, const std::vector<PlanPtr>& leaves,
                     bool& cross) {
  for (size_t i = 0; i < leaves.size(); ++i)
    if (leaves[i].get() == &n) return RelSet{1} << i;
  if (int side = attachedAlong(n); side >= 0)
    return writtenLeaves(*n.children[static_cast<size_t>(side)], b, leaves, cross);
  if (!isBlockJoin(n) || n.children.size() != 2) return 0;
  const RelSet l = writtenLeaves(*n.children[0], b, leaves, cross);
  const RelSet r = writtenLeaves(*n.children[1], b, leaves, cross);
  const RelSet mask = lowBits(leaves.size());
  const bool compared = std::any_of(b.conjuncts.begin(), b.conjuncts.end(), [&](const auto& c) {
    const RelSet rels = c.rels & mask;
    return (rels & l) && (rels & r) && !(rels & ~(l | r));
  });
  if (l && r && !compared) cross = true;
  return l | r;
}

/// True when the written block joins two inputs by a cross product though
/// its conjuncts connect every leaf: a JOB-style comma join without
/// statistics, whose FROM order is not the one to keep.
bool avoidableCrossProduct(const PlanNode& root, const Block& b,
                           const std::vector<PlanPtr>& leaves) {
  bool cross = false;
  writtenLeaves(root, b, leaves, cross);
  if (!cross) return false;
  const RelSet mask = lowBits(leaves.size());
  RelSet reached = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& c : b.conjuncts) {
      const RelSet rels = c.rels & mask;
      if ((rels & reached) && (rels & ~reached)) reached |= rels, grew = true;
    }
  }
  return reached == mask;
}

bool reorderIn(PlanPtr& n, bool orderMatters) {
  if (isBlockJoin(*n) || attachedAlong(*n) >= 0) return reorderBlock(n, orderMatters);
  bool changed = false;
  bool childMatters = childOrderMatters(*n, orderMatters);
  for (auto& c : n->children) changed = reorderIn(c, childMatters) || changed;
  if (changed) computeOutput(*n);
  return changed;
}

bool reorderBlock(PlanPtr& root, bool orderMatters) {
  Block block;
  collectBlock(root, block);
  bool changed = false;
  for (auto* slot : block.leafSlots) changed = reorderIn(*slot, orderMatters) || changed;
  for (auto& a : block.attachments) changed = reorderIn(*a.slot, orderMatters) || changed;
  std::vector<PlanPtr> leaves;
  for (auto* slot : block.leafSlots) leaves.push_back(*slot);
  if (changed) refreshOutputs(*root);
  const size_t n = leaves.size();
  if (orderMatters || !block.reorderable || n < 2 || n + block.attachments.size() > 64)
    return changed;
  const bool statistics =
      std::any_of(leaves.begin(), leaves.end(), [](const PlanPtr& l) { return hasStatistics(*l); });

  // The leaves and attachments whose columns an expression reads; `self` is
  // the attachment whose condition it is, if any.
  auto readsOf = [&](const Expr& e, size_t self) {
    RelSet rels = 0;
    allColumnRefs(e, [&](const std::string& col) {
      // The leaves are disjoint subtrees and a column id has one scan: at
      // most one leaf produces it.
      for (size_t i = 0; i < n; ++i)
        if (produces(*leaves[i], col)) {
          rels |= RelSet{1} << i;
          break;
        }
      for (size_t k = 0; k < block.attachments.size(); ++k)
        if (n + k != self && produces(**block.attachments[k].slot, col))
          rels |= RelSet{1} << (n + k);
      return true;
    });
    return rels;
  };
  for (auto& c : block.conjuncts) c.rels = readsOf(*c.expr, SIZE_MAX);
  const RelSet leafMask = lowBits(n);
  // Without statistics every estimate is a default: the order written stays,
  // unless it joins by a cross product relations the conditions connect.
  if (!statistics && !avoidableCrossProduct(*root, block, leaves)) return changed;
  CardinalityEstimator est;
  for (size_t k = 0; k < block.attachments.size(); ++k) {
    auto& a = block.attachments[k];
    AttachedJoin& p = block.placement[k];
    if (a.join->predicate) p.reads = readsOf(*a.join->predicate, n + k);
    const PlanNode& kept = *a.join->children[static_cast<size_t>(a.side)];
    p.factor = est.rows(*a.join) / std::max(1.0, est.rows(kept));
    a.leaves = p.reads & leafMask;
    for (size_t j = 0; j < k; ++j)
      if (p.reads & (RelSet{1} << (n + j))) a.leaves |= block.attachments[j].leaves;
  }

  JoinGraph g;
  for (const auto& l : leaves) g.rows.push_back(est.rows(*l));
  // Conjuncts over the same two leaves are estimated together: a composite
  // key is one key (CardinalityEstimator::joinSelectivity). Conjuncts that
  // read an attachment are not the inner joins' to order by.
  std::map<RelSet, std::vector<ExprPtr>> pairs;
  for (const auto& c : block.conjuncts) {
    if (c.rels & ~leafMask) {
      // It joins the leaves below the attachments it reads (and those it reads
      // itself), at a default selectivity, once those attachments are joined.
      RelSet joined = c.rels & leafMask;
      for (size_t k = 0; k < block.attachments.size(); ++k)
        if (c.rels & (RelSet{1} << (n + k))) joined |= block.attachments[k].leaves;
      for (size_t k = 0; k < block.attachments.size(); ++k)
        if (joined && (c.rels & (RelSet{1} << (n + k)))) block.placement[k].under.push_back(joined);
      if (joined) g.predicates.push_back({joined, est.defaults().otherSelectivity});
      continue;
    }
    int count = __builtin_popcountll(c.rels);
    if (count == 2) {
      pairs[c.rels].push_back(c.expr);
    } else if (count >= 1) {
      const PlanNode& leaf = *leaves[static_cast<size_t>(__builtin_ctzll(c.rels))];
      g.predicates.push_back({c.rels, est.selectivity(c.expr, leaf)});
    }
  }
  for (const auto& [rels, exprs] : pairs) {
    int a = __builtin_ctzll(rels), b = __builtin_ctzll(rels & (rels - 1));
    g.predicates.push_back(
        {rels, est.joinSelectivity(makeAnd(exprs), *leaves[static_cast<size_t>(a)],
                                   *leaves[static_cast<size_t>(b)])});
  }
  JoinTree tree = enumerateJoins(g);
  placeAttachedJoins(tree, block.placement, n);
  PlanPtr rebuilt = BlockBuilder(tree, leaves, block).build();
  if (sameBlock(*root, *rebuilt)) return changed;
  root = rebuilt;
  return true;
}

bool chooseSides(PlanPtr& n, bool orderMatters, CardinalityEstimator& est) {
  bool changed = false;
  bool childMatters = childOrderMatters(*n, orderMatters);
  for (auto& c : n->children) changed = chooseSides(c, childMatters, est) || changed;
  if (changed) computeOutput(*n);
  if (n->op != PlanOp::Join || !n->runtimeFilters.empty()) return changed;
  const auto& info = joinInfo(n->joinType);
  bool bothOut = info.outputs[0] && info.outputs[1];
  if (bothOut && orderMatters) return changed;
  if (!hasStatistics(*n->children[0]) && !hasStatistics(*n->children[1])) return changed;
  if (est.rows(*n->children[0]) >= est.rows(*n->children[1])) return changed;
  std::swap(n->children[0], n->children[1]);
  n->joinType = mirrored(n->joinType);
  computeOutput(*n);
  return true;
}

}  // namespace

bool reorderJoins(PlanPtr& root) {
  return reorderIn(root, true);
}

bool chooseBuildSides(PlanPtr& root) {
  CardinalityEstimator est;
  return chooseSides(root, true, est);
}

}  // namespace rfguard
