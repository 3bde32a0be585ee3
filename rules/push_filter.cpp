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
  std::set<std::string> cols[2] = {outputIds(*join->children[0]), outputIds(*join->children[1])};
  bool combinable = join->joinType == JoinType::Inner || join->joinType == JoinType::Cross;
  std::vector<ExprPtr> keep, into[2], cond;
  for (const auto& c : conjuncts(node->predicate)) {
    auto refs = columnsOf(*c);
    if (!movable(*c) || refs.empty()) {
      keep.push_back(c);
      continue;
    }
    bool placed = false;
    for (int s = 0; s < 2 && !placed; ++s)
      if (info.whereIntoSide[s] && subsetOf(refs, cols[s])) into[s].push_back(c), placed = true;
    if (!placed && combinable) {
      std::set<std::string> both = cols[0];
      both.insert(cols[1].begin(), cols[1].end());
      if (subsetOf(refs, both)) cond.push_back(c), placed = true;
    }
    if (!placed) keep.push_back(c);
  }
  if (into[0].empty() && into[1].empty() && cond.empty()) return false;
  for (int s = 0; s < 2; ++s) addFilterAbove(join->children[s], into[s]);
  if (!cond.empty()) {
    auto all = conjuncts(join->predicate);
    all.insert(all.end(), cond.begin(), cond.end());
    join->predicate = makeAnd(all);
    if (join->joinType == JoinType::Cross) join->joinType = JoinType::Inner;
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
  std::set<std::string> cols[2] = {outputIds(*node->children[0]), outputIds(*node->children[1])};
  std::vector<ExprPtr> keep, into[2];
  for (const auto& c : conjuncts(node->predicate)) {
    auto refs = columnsOf(*c);
    bool placed = false;
    if (movable(*c) && !refs.empty())
      for (int s = 0; s < 2 && !placed; ++s)
        if (info.onIntoSide[s] && subsetOf(refs, cols[s])) into[s].push_back(c), placed = true;
    if (!placed) keep.push_back(c);
  }
  if (into[0].empty() && into[1].empty()) return false;
  for (int s = 0; s < 2; ++s) addFilterAbove(node->children[s], into[s]);
  node->predicate = makeAnd(keep);
  if (!node->predicate) {
    if (node->joinType == JoinType::Inner)
      node->joinType = JoinType::Cross;
    else
      node->predicate = makeBool(true, node->loc);
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

// Excluded: projections that are not deterministic. SELECT * FROM (SELECT
// random() AS r FROM t) x WHERE x.r < 0.5 evaluates random() once per row;
// substituting it below would draw a second, different number.
bool pushFilterThroughProject(PlanPtr& node) {
  if (node->op != PlanOp::Filter || node->children[0]->op != PlanOp::Project) return false;
  PlanPtr project = node->children[0];
  auto mapping = projectMapping(*project);
  std::vector<ExprPtr> keep, down;
  for (const auto& c : conjuncts(node->predicate)) {
    ExprPtr sub = substitute(c, mapping);
    bool ok = movable(*c) && movable(*sub) && subsetOf(columnsOf(*c), outputIds(*project));
    (ok ? down : keep).push_back(ok ? sub : c);
  }
  if (down.empty()) return false;
  addFilterAbove(project->children[0], down);
  node = keep.empty() ? project : makeFilter(project, keep, node->loc);
  return true;
}

// Only conjuncts over group keys that are in every grouping set. SELECT k, s
// FROM (SELECT k, sum(v) s FROM t GROUP BY ROLLUP(k)) x WHERE k IS NULL keeps
// the grand-total row; below the aggregate it would keep only rows with k NULL
// and the total would shrink. A filter on an aggregate (s > 10) cannot move.
bool pushFilterThroughAggregate(PlanPtr& node) {
  if (node->op != PlanOp::Filter || node->children[0]->op != PlanOp::Aggregate) return false;
  PlanPtr agg = node->children[0];
  if (agg->exprs.empty()) return false;  // a global aggregate returns a row even for no input
  std::map<std::string, ExprPtr> keys = stableKeys(*agg);
  std::set<std::string> keyIds;
  for (const auto& [k, e] : keys) keyIds.insert(k);
  std::vector<ExprPtr> keep, down;
  for (const auto& c : conjuncts(node->predicate)) {
    auto refs = columnsOf(*c);
    bool ok = movable(*c) && !refs.empty() && subsetOf(refs, keyIds);
    (ok ? down : keep).push_back(ok ? substitute(c, keys) : c);
  }
  if (down.empty()) return false;
  addFilterAbove(agg->children[0], down);
  node = keep.empty() ? agg : makeFilter(agg, keep, node->loc);
  return true;
}

bool pushFilterThroughSort(PlanPtr& node) {
  if (node->op != PlanOp::Filter || node->children[0]->op != PlanOp::Sort) return false;
  PlanPtr sort = node->children[0];
  addFilterAbove(sort->children[0], conjuncts(node->predicate));
  node = sort;
  return true;
}

// Only conjuncts over PARTITION BY columns of every window. SELECT * FROM
// (SELECT k, rank() OVER (ORDER BY v) r FROM t) x WHERE k = 1 ranks k = 1
// among all rows; filtering first would rank it among the k = 1 rows only.
bool pushFilterThroughWindow(PlanPtr& node) {
  if (node->op != PlanOp::Filter || node->children[0]->op != PlanOp::Window) return false;
  PlanPtr win = node->children[0];
  std::set<std::string> common;
  bool first = true;
  for (const auto& w : win->windows) {
    std::set<std::string> part;
    for (const auto& p : w.partitionBy)
      if (p->kind == ExprKind::Column) part.insert(p->name);
    if (first) common = part;
    std::set<std::string> both;
    for (const auto& c : common)
      if (part.count(c)) both.insert(c);
    common = both;
    first = false;
  }
  std::vector<ExprPtr> keep, down;
  for (const auto& c : conjuncts(node->predicate)) {
    auto refs = columnsOf(*c);
    bool ok = movable(*c) && !refs.empty() && subsetOf(refs, common);
    (ok ? down : keep).push_back(c);
  }
  if (down.empty()) return false;
  addFilterAbove(win->children[0], down);
  node = keep.empty() ? win : makeFilter(win, keep, node->loc);
  return true;
}

// EXCEPT takes the filter on its left input only (filtering the right one too
// would be correct but buys nothing). Every child gets the conjunct through the
// positional column mapping.
bool pushFilterThroughSetOp(PlanPtr& node) {
  if (node->op != PlanOp::Filter) return false;
  PlanPtr setop = node->children[0];
  if (setop->op != PlanOp::Union && setop->op != PlanOp::Intersect && setop->op != PlanOp::Except)
    return false;
  std::vector<ExprPtr> keep, down;
  for (const auto& c : conjuncts(node->predicate)) (movable(*c) ? down : keep).push_back(c);
  if (down.empty()) return false;
  size_t targets = setop->op == PlanOp::Except ? 1 : setop->children.size();
  for (size_t i = 0; i < targets; ++i) {
    PlanPtr& child = setop->children[i];
    std::map<std::string, ExprPtr> mapping;
    for (size_t k = 0; k < setop->outNames.size() && k < child->output.size(); ++k) {
      const Column& col = child->output[k];
      mapping[setop->outNames[k]] = makeColumn(col.id, col.type, col.nullable);
    }
    std::vector<ExprPtr> mapped;
    for (const auto& c : down) mapped.push_back(substitute(c, mapping));
    addFilterAbove(child, mapped);
  }
  node = keep.empty() ? setop : makeFilter(setop, keep, node->loc);
  return true;
}

}  // namespace rfguard
