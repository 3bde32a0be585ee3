// RemoveTrueFilter: a Filter whose predicate is the literal TRUE passes every
// row unchanged, so it goes. Only the literal: `a.k = a.k` is NULL, not TRUE,
// for a NULL a.k (SELECT * FROM a WHERE a.k = a.k drops a = {NULL}), and
// proving `1 = 1` TRUE would be constant folding, which rfguard does not do.
// WHERE true is what generated SQL writes; MergeFilters leaves it of two.
#include "rules/rule_util.h"

namespace rfguard {

bool removeTrueFilter(PlanPtr& node) {
  // Conjuncts leave out TRUE literals: none left means the predicate is TRUE.
  if (node->op != PlanOp::Filter ||
      !forEachConjunct(node->predicate, [](const ExprPtr&) { return false; }))
    return false;
  node = node->children[0];
  return true;
}

}  // namespace rfguard
