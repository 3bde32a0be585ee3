// SimplifyOuterJoin: LEFT/RIGHT/FULL become INNER/LEFT/RIGHT when a predicate
// above rejects the NULL-extended rows. A predicate rejects them when it
// evaluates to NULL whenever all columns of the NULL-generating side are NULL
// (isNullPropagating over the function catalog), so FALSE-or-NULL drops the row.
//
// Excluded, with counterexamples (A = {1}, B empty):
//   SELECT * FROM a LEFT JOIN b ON a.k = b.k WHERE b.k IS NOT DISTINCT FROM NULL
//     keeps (1, NULL): <=> is never NULL, so it does not reject.
//   ... WHERE coalesce(b.k, 0) = 0   keeps (1, NULL): coalesce turns NULL into 0.
//   ... WHERE b.k IS NULL            keeps (1, NULL).
//   ... WHERE b.k = 1 OR a.k = 1     keeps (1, NULL): only one disjunct is NULL.
// Predicates travel down through filters, inner-join conditions, deterministic
// projections (substituted), group keys present in every grouping set and sorts;
// never through LIMIT, windows or set operations, and never into a side that
// still generates NULLs (its NULL-extended rows would be judged by the wrong rows).
#include "ir/functions.h"
#include "rules/normalize.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

/// True when some predicate is NULL whenever every column of `side` is.
bool rejectsNullsOf(const std::vector<ExprPtr>& preds, const PlanNode& side) {
  const std::function<bool(const std::string&)> ofSide = [&](const std::string& id) {
    return produces(side, id);
  };
  for (const auto& p : preds)
    if (isNullPropagating(*p, ofSide)) return true;
  return false;
}

int walk(PlanNode& n, std::vector<ExprPtr> preds) {
  int fired = 0;
  if (n.op == PlanOp::Filter) {
    auto own = conjuncts(n.predicate);
    preds.insert(preds.end(), own.begin(), own.end());
  }
  switch (movementOf(n.op).passage) {
    case Passage::Unchanged:
      return walk(*n.children[0], std::move(preds));
    case Passage::Substituted:
    case Passage::GroupKeys: {
      // Through a projection, columns of other relations stay as they are:
      // isNullPropagating treats them as unknown values, which is what they are
      // to this subtree. Conjuncts that read an aggregate result or a key missing
      // from some grouping set say nothing about the input rows.
      std::vector<ExprPtr> down;
      for (const auto& p : preds)
        if (ExprPtr below = moveInto(n, 0, p)) down.push_back(below);
      return walk(*n.children[0], std::move(down));
    }
    case Passage::JoinSides: {
      // Only a join that NULL-extends a side, under conjuncts, can become simpler.
      const auto& before = joinInfo(n.joinType);
      JoinType t = n.joinType;
      if (!preds.empty() && (before.generatesNulls[0] || before.generatesNulls[1])) {
        t = withNullsRejected(n.joinType, rejectsNullsOf(preds, *n.children[0]),
                              rejectsNullsOf(preds, *n.children[1]));
      }
      if (t != n.joinType) {
        n.joinType = t;
        computeOutput(n);
        ++fired;
      }
      const auto& info = joinInfo(n.joinType);
      const bool anyCond = info.conditionRejectsNullsOf[0] || info.conditionRejectsNullsOf[1];
      const auto cond = anyCond ? conjuncts(n.predicate) : std::vector<ExprPtr>{};
      for (int s = 0; s < 2; ++s) {
        std::vector<ExprPtr> down;
        if (!info.generatesNulls[s]) down = s == 1 ? std::move(preds) : preds;
        if (info.conditionRejectsNullsOf[s]) down.insert(down.end(), cond.begin(), cond.end());
        fired += walk(*n.children[s], std::move(down));
      }
      return fired;
    }
    case Passage::PartitionKeys:
    case Passage::Positional:
    case Passage::Blocked:
    case Passage::Leaf:
      for (auto& c : n.children) fired += walk(*c, {});
      return fired;
  }
  return fired;
}

/// True when some join in the tree NULL-extends a side: the only kind the walk
/// can simplify (most plans have none, and need not gather their predicates).
bool anyOuterJoin(const PlanNode& n) {
  if (n.op == PlanOp::Join) {
    const auto& info = joinInfo(n.joinType);
    if (info.generatesNulls[0] || info.generatesNulls[1]) return true;
  }
  for (const auto& c : n.children)
    if (anyOuterJoin(*c)) return true;
  return false;
}

}  // namespace

bool simplifyOuterJoins(PlanPtr& root) {
  if (!anyOuterJoin(*root)) return false;
  int fired = walk(*root, {});
  if (fired) refreshOutputs(*root);
  return fired > 0;
}

}  // namespace rfguard
