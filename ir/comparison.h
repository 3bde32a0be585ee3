#pragma once
// The comparison operators of the function catalog as facts: which operator
// each one is with its operands swapped or negated, whether it is symmetric,
// an equality, an order or NULL-safe, and its truth table over non-NULL
// operands. Rules, the verifier and the evaluator ask these facts and never
// compare operator names themselves.
#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/cmp_op.h"
#include "ir/expr.h"

namespace rfguard {

/// Every comparison of the catalog.
enum class Comparison : uint8_t {
  Eq,           ///< `=`
  Ne,           ///< `<>` (also written `!=`)
  Lt,           ///< `<`
  Le,           ///< `<=`
  Gt,           ///< `>`
  Ge,           ///< `>=`
  NotDistinct,  ///< `<=>`, IS NOT DISTINCT FROM
  Distinct,     ///< is_distinct_from, IS DISTINCT FROM
};

/// The facts of one comparison.
struct ComparisonInfo {
  Comparison kind;
  const char* name;               ///< its catalog name ("=", "<>", ..., "is_distinct_from")
  std::optional<CmpOp> filterOp;  ///< the runtime-filter operator it is, when it is one
  Comparison flipped;             ///< the same test with the operands swapped: a < b is b > a
  /// NOT (a op b), NULLs included: NOT (a < b) is a >= b (NULL when either is NULL,
  /// as NOT NULL is), NOT (a <=> b) is a IS DISTINCT FROM b.
  Comparison negated;
  bool symmetric;  ///< a op b is b op a
  bool equality;   ///< `=` or `<=>`: true exactly for equal values
  bool order;      ///< `<`, `<=`, `>` or `>=`
  bool nullSafe;   ///< `<=>` or IS DISTINCT FROM: NULL is a value, the result never NULL
  /// The result for non-NULL a and b when a < b, a = b and a > b.
  bool onLess, onEqual, onGreater;
};

/// The facts of `c`.
const ComparisonInfo& comparisonInfo(Comparison c);
/// The comparison of the catalog name `name` (exactly as the catalog spells it),
/// or nullptr when `name` is no comparison.
const ComparisonInfo* comparisonNamed(std::string_view name);
/// The comparison `e` makes when it is a call of one with two arguments, else nullptr.
const ComparisonInfo* comparisonOf(const Expr& e);
/// The comparison a runtime-filter operator is.
const ComparisonInfo& comparisonInfo(CmpOp op);

}  // namespace rfguard
