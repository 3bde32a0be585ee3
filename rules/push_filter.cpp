// Pushing WHERE and ON conjuncts towards the scans. None of these rules moves
// a filter below LIMIT/OFFSET: SELECT * FROM (SELECT * FROM t ORDER BY k
// LIMIT 1) x WHERE x.v = 1 returns nothing when the first row has v = 2, but
// with the filter below the limit it would return the first row with v = 1.
#include "rules/push_filter.h"

#include "rules/rule_util.h"

namespace rfguard {

// WHERE conjuncts over a join. The join-type table decides which sides accept
// them. Excluded: the NULL-generating side. SELECT * FROM a LEFT JOIN b ON
// a.k = b.k WHERE b.v IS NULL returns a's unmatched rows and matched rows with
// b.v NULL; filtering b first (b.v IS NULL) turns a row that matched only
// b.v = 5 into a NULL-extended row that passes, a new wrong row. Conjuncts that
// read both sides join the condition only for INNER and CROSS: for outer joins
// the condition decides matching, not survival.
bool pushFilterIntoJoin(PlanPtr& node) {
  if (node->op != PlanOp::Filter || node->children[0]->op != PlanOp::Join) return false;
  PlanPtr join = node->children[0];
  const auto& info = joinInfo(join->joinType);
  const PlanNode* sides[2] = {join->children[0].get(), join->children[1].get()};
  const bool combinable = info.whereIntoCondition;
  // Where a conjunct goes: into side 0 or 1, into the condition (2), or it stays (-1).
  auto destination = [&](const Expr& c) {
    if (!movable(c) || !hasColumnRef(c)) return -1;
    for (int s = 0; s < 2; ++s)
      if (info.whereIntoSide[s] && producesColumnsOf(*sides[s], c)) return s;
    if (combinable && allColumnRefs(c, [&](const std::string& r) {
          return produces(*sides[0], r) || produces(*sides[1], r);
        }))
      return 2;
    return -1;
  };
  // Tried at every Filter over a join in every round: most have nothing to move.
  if (forEachConjunct(node->predicate, [&](const ExprPtr& c) { return destination(*c) < 0; }))
    return false;
  const std::vector<ExprPtr> all = conjuncts(node->predicate);
  // Each conjunct's destination, asked once; each list sized once.
  std::vector<int> to(all.size());
  size_t count[4] = {};  // kept, into the left, into the right, into the condition
  for (size_t i = 0; i < all.size(); ++i) ++count[(to[i] = destination(*all[i])) + 1];
  std::vector<ExprPtr> keep, into[2], cond;
  std::vector<ExprPtr>* lists[4] = {&keep, &into[0], &into[1], &cond};
  for (size_t k = 0; k < 4; ++k) lists[k]->reserve(count[k]);
  for (size_t i = 0; i < all.size(); ++i) lists[to[i] + 1]->push_back(all[i]);
  for (int s = 0; s < 2; ++s) addFilterAbove(join->children[s], into[s]);
  if (!cond.empty()) {
    auto both = conjuncts(join->predicate);
    both.insert(both.end(), cond.begin(), cond.end());
    join->predicate = makeAnd(both);
    join->joinType = withCondition(join->joinType, true);
  }
  computeOutput(*join);
  node = keep.empty() ? join : makeFilter(join, keep, node->loc);
  return true;
}

// ON conjuncts that read one side only. Excluded: a preserved side. SELECT *
// FROM a LEFT JOIN b ON a.k = b.k AND a.v = 1 keeps every a row; filtering a
// by a.v = 1 first would drop the rows with a.v <> 1 that the join preserves
// NULL-extended. NOT IN's condition stays whole on the probe side for the same
// reason (its unmatched probe rows are its output).
bool pushJoinConditionIntoSides(PlanPtr& node) {
  if (node->op != PlanOp::Join || !node->predicate) return false;
  const auto& info = joinInfo(node->joinType);
  const PlanNode* sides[2] = {node->children[0].get(), node->children[1].get()};
  // The side a conjunct goes into, or -1 where it stays.
  auto destination = [&](const Expr& c) {
    if (!movable(c) || !hasColumnRef(c)) return -1;
    for (int s = 0; s < 2; ++s)
      if (info.onIntoSide[s] && producesColumnsOf(*sides[s], c)) return s;
    return -1;
  };
  // Tried at every join in every round: most conditions have nothing to move.
  if (forEachConjunct(node->predicate, [&](const ExprPtr& c) { return destination(*c) < 0; }))
    return false;
  const std::vector<ExprPtr> all = conjuncts(node->predicate);
  std::vector<ExprPtr> keep, into[2];
  keep.reserve(all.size());
  for (const auto& c : all) {
    const int to = destination(*c);
    (to < 0 ? keep : into[to]).push_back(c);
  }
  for (int s = 0; s < 2; ++s) addFilterAbove(node->children[s], into[s]);
  node->predicate = makeAnd(keep);
  if (!node->predicate) {
    node->joinType = withCondition(node->joinType, false);
    if (joinInfo(node->joinType).hasCondition) node->predicate = makeBool(true, node->loc);
  }
  computeOutput(*node);
  return true;
}

bool mergeFilters(PlanPtr& node) {
  if (node->op != PlanOp::Filter || node->children[0]->op != PlanOp::Filter) return false;
  PlanPtr inner = node->children[0];
  auto all = conjuncts(inner->predicate);
  auto outer = conjuncts(node->predicate);
  all.insert(all.end(), outer.begin(), outer.end());
  // conjuncts() drops TRUE: two `WHERE true` filters leave nothing to AND.
  inner->predicate = all.empty() ? makeBool(true, inner->loc) : makeAnd(all);
  node = inner;
  return true;
}

namespace {

/// Moves the conjuncts of the Filter `node` that the movement table lets into
/// every open input of its child, an operator of type `op` (ir/movement.h).
/// A conjunct moves whole or not at all. Beyond the table: a conjunct that is
/// not deterministic or holds a subquery stays (except across a sort, which
/// changes no row), and one that reads no column stays above a grouping or a
/// partitioning (WHERE false above a GROUP BY k... says nothing about groups).
bool pushThrough(PlanPtr& node, PlanOp op) {
  if (node->op != PlanOp::Filter || node->children[0]->op != op) return false;
  PlanPtr below = node->children[0];
  const Passage passage = movementOf(op).passage;
  const bool anyConjunct = passage == Passage::Unchanged;
  const bool needsColumns = passage == Passage::GroupKeys || passage == Passage::PartitionKeys;
  const size_t inputs = below->children.size();
  std::vector<ExprPtr> keep;
  std::vector<std::vector<ExprPtr>> down(inputs);
  for (const auto& c : conjuncts(node->predicate)) {
    std::vector<ExprPtr> moved(inputs);
    bool ok = (anyConjunct || movable(*c)) && !(needsColumns && !hasColumnRef(*c));
    size_t open = 0;
    for (size_t i = 0; ok && i < inputs; ++i) {
      if (!opensInto(*below, i)) continue;
      moved[i] = moveInto(*below, i, c);
      ok = moved[i] && (anyConjunct || movable(*moved[i]));
      ++open;
    }
    if (!ok || !open) {
      keep.push_back(c);
      continue;
    }
    for (size_t i = 0; i < inputs; ++i)
      if (moved[i]) down[i].push_back(moved[i]);
  }
  bool any = false;
  for (size_t i = 0; i < inputs; ++i) {
    if (down[i].empty()) continue;
    addFilterAbove(below->children[i], down[i]);
    any = true;
  }
  if (!any) return false;
  node = keep.empty() ? below : makeFilter(below, keep, node->loc);
  return true;
}

}  // namespace

// Excluded: projections that are not deterministic. SELECT * FROM (SELECT
// random() AS r FROM t) x WHERE x.r < 0.5 evaluates random() once per row;
// substituting it below would draw a second, different number.
bool pushFilterThroughProject(PlanPtr& node) {
  return pushThrough(node, PlanOp::Project);
}

// Only conjuncts over group keys that are in every grouping set. SELECT k, s
// FROM (SELECT k, sum(v) s FROM t GROUP BY ROLLUP(k)) x WHERE k IS NULL keeps
// the grand-total row; below the aggregate it would keep only rows with k NULL
// and the total would shrink. A filter on an aggregate (s > 10) cannot move.
bool pushFilterThroughAggregate(PlanPtr& node) {
  return pushThrough(node, PlanOp::Aggregate);
}

bool pushFilterThroughSort(PlanPtr& node) {
  return pushThrough(node, PlanOp::Sort);
}

// Only conjuncts over PARTITION BY columns of every window. SELECT * FROM
// (SELECT k, rank() OVER (ORDER BY v) r FROM t) x WHERE k = 1 ranks k = 1
// among all rows; filtering first would rank it among the k = 1 rows only.
bool pushFilterThroughWindow(PlanPtr& node) {
  return pushThrough(node, PlanOp::Window);
}

// EXCEPT takes the filter on its left input only (its right input only removes
// rows). Every input gets the conjunct through the positional column mapping.
bool pushFilterThroughSetOp(PlanPtr& node) {
  if (node->op != PlanOp::Filter) return false;
  PlanOp op = node->children[0]->op;
  if (movementOf(op).passage != Passage::Positional) return false;
  return pushThrough(node, op);
}

}  // namespace rfguard
