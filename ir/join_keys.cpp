#include "ir/join_keys.h"

#include "ir/comparison.h"

namespace rfguard {

std::optional<JoinKey> joinKeyOf(const Expr& conjunct, const SideTest& onLeft,
                                 const SideTest& onRight, CmpOpSet ops) {
  const ComparisonInfo* cmp = comparisonOf(conjunct);
  if (!cmp || !cmp->filterOp || !ops.contains(*cmp->filterOp)) return std::nullopt;
  const Expr& a = *conjunct.args[0];
  const Expr& b = *conjunct.args[1];
  if (onLeft(a) && onRight(b)) return JoinKey{&conjunct, false, *cmp->filterOp};
  if (onLeft(b) && onRight(a)) return JoinKey{&conjunct, true, flipped(*cmp->filterOp)};
  return std::nullopt;
}

SplitCondition splitJoinCondition(const std::vector<const Expr*>& conjuncts, const SideTest& onLeft,
                                  const SideTest& onRight, CmpOpSet ops) {
  SplitCondition out;
  for (const Expr* c : conjuncts) {
    if (auto k = joinKeyOf(*c, onLeft, onRight, ops))
      out.keys.push_back(*k);
    else
      out.residue.push_back(c);
  }
  return out;
}

}  // namespace rfguard
