#pragma once
// A join condition split into keys (comparisons with one operand over each
// input) and a residue: the one home of that split, for the runtime-filter
// hooks and the cardinality model. (The evaluator keeps its own, as the oracle
// the rest is tested against.)
#include <functional>
#include <optional>
#include <vector>

#include "ir/cmp_op.h"
#include "ir/expr.h"

namespace rfguard {

/// Whether an operand reads only one input of the join (its columns, say).
using SideTest = std::function<bool(const Expr&)>;

/// A conjunct `a op b` seen as `left op' right`, left over the join's first
/// input: op' is op, or op flipped when the conjunct is written the other way round.
struct JoinKey {
  const Expr* conjunct = nullptr;  ///< the conjunct
  bool swapped = false;            ///< its right operand is over the first input
  CmpOp op = CmpOp::Eq;            ///< left op right

  const ExprPtr& left() const { return conjunct->args[swapped ? 1 : 0]; }
  const ExprPtr& right() const { return conjunct->args[swapped ? 0 : 1]; }
};

/// `conjunct` as a key when it is a comparison among `ops` with one operand
/// over each input (`onLeft`, `onRight`), the left one tried first; nullopt otherwise.
std::optional<JoinKey> joinKeyOf(const Expr& conjunct, const SideTest& onLeft,
                                 const SideTest& onRight, CmpOpSet ops);

/// A condition's keys and the conjuncts that are none.
struct SplitCondition {
  std::vector<JoinKey> keys;
  std::vector<const Expr*> residue;
};

/// Splits `conjuncts` (a condition's top-level conjuncts; they must outlive the
/// result) into keys among `ops` and the residue, in their order.
SplitCondition splitJoinCondition(const std::vector<const Expr*>& conjuncts, const SideTest& onLeft,
                                  const SideTest& onRight, CmpOpSet ops = {CmpOp::Eq});

}  // namespace rfguard
