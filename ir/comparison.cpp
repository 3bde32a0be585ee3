#include "ir/comparison.h"

#include <cassert>

#include "ir/functions.h"

namespace rfguard {

namespace {

using C = Comparison;

// One row per comparison, in enum order: the only place their facts are written.
constexpr ComparisonInfo kComparisons[] = {
    // kind, name, filterOp, flipped, negated, symmetric, equality, order, nullSafe, <, =, >
    {C::Eq, "=", CmpOp::Eq, C::Eq, C::Ne, true, true, false, false, false, true, false},
    {C::Ne, "<>", std::nullopt, C::Ne, C::Eq, true, false, false, false, true, false, true},
    {C::Lt, "<", CmpOp::Lt, C::Gt, C::Ge, false, false, true, false, true, false, false},
    {C::Le, "<=", CmpOp::Le, C::Ge, C::Gt, false, false, true, false, true, true, false},
    {C::Gt, ">", CmpOp::Gt, C::Lt, C::Le, false, false, true, false, false, false, true},
    {C::Ge, ">=", CmpOp::Ge, C::Le, C::Lt, false, false, true, false, false, true, true},
    {C::NotDistinct, "<=>", CmpOp::NullSafeEq, C::NotDistinct, C::Distinct, true, true, false, true,
     false, true, false},
    {C::Distinct, "is_distinct_from", std::nullopt, C::Distinct, C::NotDistinct, true, false, false,
     true, true, false, true},
};

// The runtime-filter operators in CmpOp's order.
constexpr Comparison kOfCmpOp[] = {C::Eq, C::NotDistinct, C::Lt, C::Le, C::Gt, C::Ge};

}  // namespace

const ComparisonInfo& comparisonInfo(Comparison c) {
  const ComparisonInfo& info = kComparisons[static_cast<size_t>(c)];
  assert(info.kind == c);
  return info;
}

const ComparisonInfo& comparisonInfo(CmpOp op) {
  const ComparisonInfo& info = comparisonInfo(kOfCmpOp[static_cast<size_t>(op)]);
  assert(info.filterOp == op);
  return info;
}

const ComparisonInfo* comparisonNamed(std::string_view name) {
  for (const auto& c : kComparisons)
    if (name == c.name) return &c;
  return nullptr;
}

const ComparisonInfo* comparisonOf(const Expr& e) {
  const FunctionInfo* fn = functionOf(e);
  return fn && e.args.size() == 2 ? fn->comparison : nullptr;
}

}  // namespace rfguard
