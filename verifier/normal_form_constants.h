#pragma once
// Shared by the normal form's constant laws (normal_form_constants.cpp) and
// its condition laws (normal_form_conditions.cpp); not for other files.
#include "ir/plan.h"

namespace rfguard::normal_form {

/// A boolean literal of value `v`.
bool isBoolLiteral(const Expr& e, bool v);
/// NULL or FALSE: a condition no row passes.
bool neverTrue(const Expr& e);
/// Deterministic and free of subqueries: may be evaluated twice, or not at
/// all, with the same result and no error.
bool plain(const Expr& e);
/// NOT e, pushed to the leaves.
ExprPtr negation(const ExprPtr& e);
/// `e` folded and written one way (the constant laws).
ExprPtr simplify(const ExprPtr& e);
/// Conjunct `c` of the condition of `n` (a filter's, a join's but NOT IN's),
/// where NULL and FALSE alike reject, in its condition form.
ExprPtr asCondition(const ExprPtr& c, const PlanNode& n);

/// `x IN (subquery)` over a subquery whose rows are fixed expressions without
/// columns as the IN list `x IN (o1, o2, ...)` (FALSE over none); null when
/// `in` is no such subquery (kInValues, normal_form_conditions.cpp).
ExprPtr inListOf(const Expr& in);

}  // namespace rfguard::normal_form
