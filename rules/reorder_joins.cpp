// ReorderJoins and ChooseBuildSides: the joins of a query in the order an
// engine would run them (docs/join-order.md).
//
// ReorderJoins takes each block of INNER and CROSS joins (a maximal tree of
// them; anything else, outer, semi and anti joins included, is a leaf of the
// block and a barrier to reordering), maps it to a query graph (relations =
// leaves, predicates = the conjuncts of the block's conditions, each reading
// the leaves whose columns it names) and rebuilds it as the cheapest tree under
// C_out (rules/join_enum.h), every join's smaller input on the build (right)
// side and every conjunct at the lowest join that sees all its leaves.
// Inner joins are commutative and associative, and a conjunct can be evaluated
// at any join above all the leaves it reads: (A JOIN B ON p) JOIN C ON q equals
// A JOIN (B JOIN C ON q) ON p when p reads only A and B and q only B and C.
// The same is false across an outer join (the join-type table's
// freelyReordered column has the counterexample), so outer, semi and anti
// joins stay where they are (their reorderings, Moerkotte et al. SIGMOD 2013's
// assoc / l-asscom / r-asscom, are not applied yet).
//
// ChooseBuildSides then puts the smaller estimated input of every other join on
// the build side, swapping the children and the type through the join-type
// table's mirror (LEFT <-> RIGHT, LEFT SEMI <-> RIGHT SEMI...): a join and its
// mirror with swapped children return the same rows.
//
// Both act only where some table below has a row-count statistic (WITH (rows
// = N)): without one every estimate is a default, and the plan keeps the
// order it was written in.
//
// A join's output lists its left columns first. Swapping sides changes that
// order, so both rules act only where a projection or aggregate above names
// the columns again (always so for plans bound from SQL), or where the join
// outputs one side only.
#include <algorithm>
#include <map>

#include "rules/cardinality.h"
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
  RelSet rels = 0;
  SourceLoc loc;  // the join it came from
};

struct Block {
  std::vector<PlanPtr*> leafSlots;
  std::vector<BlockConjunct> conjuncts;
  bool reorderable = true;
};

void collectBlock(PlanPtr& n, Block& b) {
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

/// Rebuilds a block from its chosen tree.
class BlockBuilder {
 public:
  BlockBuilder(const JoinTree& t, const std::vector<PlanPtr>& leaves,
               const std::vector<BlockConjunct>& conjuncts)
      : t_(t), leaves_(leaves), conjuncts_(conjuncts), placed_(conjuncts.size(), false) {}

  PlanPtr build() { return build(t_.root, true); }

 private:
  const JoinTree::Node& node(int i) const { return t_.nodes[static_cast<size_t>(i)]; }

  // Inputs are built first, so their joins take their conjuncts before this
  // one does: a conjunct lands at the lowest join that sees all its leaves.
  PlanPtr build(int i, bool root) {
    const auto& n = node(i);
    if (n.relation >= 0) return leaves_[static_cast<size_t>(n.relation)];
    // The larger input probes, the smaller builds; on a tie the input holding
    // the earlier FROM item stays on the probe side.
    int probe = n.left, buildSide = n.right;
    const auto &a = node(probe), &b = node(buildSide);
    if (a.rows < b.rows || (a.rows == b.rows && (b.set & (~b.set + 1)) < (a.set & (~a.set + 1))))
      std::swap(probe, buildSide);
    PlanPtr left = build(probe, false);
    PlanPtr right = build(buildSide, false);
    std::vector<ExprPtr> here;
    SourceLoc loc;
    for (size_t c = 0; c < conjuncts_.size(); ++c) {
      if (placed_[c]) continue;
      RelSet r = conjuncts_[c].rels;
      bool fits = r ? (r & ~n.set) == 0 : root;
      if (!fits) continue;
      if (here.empty()) loc = conjuncts_[c].loc;
      here.push_back(conjuncts_[c].expr);
      placed_[c] = true;
    }
    PlanPtr j = makeJoin(here.empty() ? JoinType::Cross : JoinType::Inner, left, right,
                         makeAnd(here), here.empty() ? leaves_[0]->loc : loc);
    computeOutput(*j);
    return j;
  }

  const JoinTree& t_;
  const std::vector<PlanPtr>& leaves_;
  const std::vector<BlockConjunct>& conjuncts_;
  std::vector<bool> placed_;
};

/// Same joins, same sides, same conditions, same leaves (by identity).
bool sameBlock(const PlanNode& a, const PlanNode& b) {
  if (!isBlockJoin(a) || !isBlockJoin(b)) return &a == &b;
  if (a.joinType != b.joinType) return false;
  auto ca = conjuncts(a.predicate), cb = conjuncts(b.predicate);
  if (ca.size() != cb.size()) return false;
  for (size_t i = 0; i < ca.size(); ++i)
    if (!exprEquals(ca[i], cb[i])) return false;
  return sameBlock(*a.children[0], *b.children[0]) && sameBlock(*a.children[1], *b.children[1]);
}

bool reorderBlock(PlanPtr& root, bool orderMatters);

bool reorderIn(PlanPtr& n, bool orderMatters) {
  if (isBlockJoin(*n)) return reorderBlock(n, orderMatters);
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
  std::vector<PlanPtr> leaves;
  for (auto* slot : block.leafSlots) leaves.push_back(*slot);
  if (changed) refreshOutputs(*root);
  if (orderMatters || !block.reorderable || leaves.size() > 64) return changed;
  if (std::none_of(leaves.begin(), leaves.end(),
                   [](const PlanPtr& l) { return hasStatistics(*l); }))
    return changed;

  for (auto& c : block.conjuncts)
    allColumnRefs(*c.expr, [&](const std::string& col) {
      for (size_t i = 0; i < leaves.size(); ++i)
        if (produces(*leaves[i], col)) c.rels |= RelSet{1} << i;
      return true;
    });

  CardinalityEstimator est;
  JoinGraph g;
  for (const auto& l : leaves) g.rows.push_back(est.rows(*l));
  // Conjuncts over the same two leaves are estimated together: a composite
  // key is one key (CardinalityEstimator::joinSelectivity).
  std::map<RelSet, std::vector<ExprPtr>> pairs;
  for (const auto& c : block.conjuncts) {
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
  PlanPtr rebuilt = BlockBuilder(tree, leaves, block.conjuncts).build();
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
