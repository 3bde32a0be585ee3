#pragma once
// Scalar expressions of the IR: immutable trees shared by pointer.
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/node_pool.h"
#include "ir/types.h"

namespace rfguard {

struct PlanNode;
struct Expr;
struct FunctionInfo;
/// Expressions are immutable once built, so subtrees are shared freely.
using ExprPtr = std::shared_ptr<const Expr>;

/// What an expression node is.
enum class ExprKind { Column, Literal, Call, Cast, Subquery };

/// The three forms a subquery takes inside an expression before decorrelation.
enum class SubqueryKind { Exists, In, Scalar };

/// One expression node. Operators are calls (`=`, `and`, `+`, `coalesce`...).
struct Expr {
  ExprKind kind = ExprKind::Literal;
  Type type;
  bool nullable = true;
  std::string name;                  ///< column id ("alias.col") or function name
  const FunctionInfo* fn = nullptr;  ///< a call's catalog entry, as makeCall found it
  bool isNull = false;               ///< literal NULL
  bool distinct = false;             ///< aggregate call over DISTINCT arguments
  std::string value;                 ///< literal in canonical text (no quotes)
  std::vector<ExprPtr> args;         ///< call arguments; cast operand; IN-subquery left side
  SubqueryKind subquery = SubqueryKind::Exists;
  /// A subquery in this expression, itself or in an argument: the make*
  /// functions set it, and a copy whose arguments changed calls settleArgs().
  bool subqueryInside = false;
  std::shared_ptr<PlanNode> plan;  ///< subquery plan
  SourceLoc loc;                   ///< where the expression starts in the SQL text
};

/// A reference to column `id` ("alias.col").
ExprPtr makeColumn(std::string id, Type type, bool nullable, SourceLoc loc = {});
/// A literal with canonical text `value`.
ExprPtr makeLiteral(std::string value, Type type, SourceLoc loc = {});
/// The NULL literal of a type (Unknown for a bare NULL).
ExprPtr makeNull(Type type = {}, SourceLoc loc = {});
/// A boolean literal.
ExprPtr makeBool(bool v, SourceLoc loc = {});
/// A call of a catalog function; the result type and nullability come from the catalog.
ExprPtr makeCall(std::string name, std::vector<ExprPtr> args, SourceLoc loc = {});
/// A composite key (k1, k2...): the tuple a multi-column filter compares as one value.
ExprPtr makeComposite(std::vector<ExprPtr> parts);
/// True for a composite key built by makeComposite.
bool isComposite(const Expr& e);
/// A call whose result type is given explicitly.
ExprPtr makeTypedCall(std::string name, std::vector<ExprPtr> args, Type type, SourceLoc loc = {});
/// An aggregate call, possibly over DISTINCT arguments.
ExprPtr makeAggregate(std::string name, std::vector<ExprPtr> args, bool distinct,
                      SourceLoc loc = {});
/// CAST(e AS type).
ExprPtr makeCast(ExprPtr e, Type type, SourceLoc loc = {});
/// A subquery expression (EXISTS, IN or scalar).
ExprPtr makeSubquery(SubqueryKind kind, std::shared_ptr<PlanNode> plan, ExprPtr lhs, Type type,
                     SourceLoc loc = {});

/// Recomputes what a node records about its arguments (subqueryInside), for a
/// copy of a node whose arguments were replaced (mapArgs does it).
void settleArgs(Expr& e);

/// A copy of `e` with each argument `a` replaced by `f(a)`, what the node
/// records about its arguments settled again: how rewrites copy a node.
template <typename F>
std::shared_ptr<Expr> mapArgs(const Expr& e, const F& f) {
  auto copy = makePooled<Expr>(e);
  for (auto& a : copy->args) a = f(a);
  settleArgs(*copy);
  return copy;
}

/// `e` with each argument `a` replaced by `f(a)`, settled as mapArgs settles
/// it; `e` itself, not a copy, when every `f(a)` is `a`.
ExprPtr mapArgsIfChanged(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& f);

/// Structural equality, ignoring source locations.
bool exprEquals(const Expr& a, const Expr& b);
/// Structural equality of two pointers (both null counts as equal).
bool exprEquals(const ExprPtr& a, const ExprPtr& b);

/// The SQL-like rendering used by all printers: `coalesce(b.k, 0) = c.k`.
std::string exprToString(const Expr& e);

/// True when `e` calls the catalog function `name` (lower case, as makeCall
/// spells it). Compared as views, which the compiler does inline for a literal
/// (std::string's == with a C string calls memcmp).
inline bool isCallOf(const Expr& e, std::string_view name) {
  return e.kind == ExprKind::Call && std::string_view(e.name) == name;
}

/// Splits a predicate into its top-level AND conjuncts.
std::vector<ExprPtr> conjuncts(const ExprPtr& e);
/// Calls f(conjunct) on what conjuncts() returns, in order, without building
/// the list; stops when f returns false (and then returns false).
template <typename F>
bool forEachConjunct(const ExprPtr& e, const F& f) {
  if (!e) return true;
  if (isCallOf(*e, "and")) {
    for (const auto& a : e->args)
      if (!forEachConjunct(a, f)) return false;
    return true;
  }
  if (e->kind == ExprKind::Literal && !e->isNull && std::string_view(e->value) == "true")
    return true;  // TRUE AND x
  return f(e);
}
/// Joins conjuncts with AND; null when the list is empty.
ExprPtr makeAnd(const std::vector<ExprPtr>& parts);

/// Every column id the expression references (not looking into subquery plans).
std::set<std::string> columnsOf(const Expr& e);
/// True when `pred` holds for every column reference in the expression (not
/// looking into subquery plans; a column referenced twice is asked twice):
/// columnsOf() without building the set, for the rules' hot paths.
template <typename Pred>
bool allColumnRefs(const Expr& e, const Pred& pred) {
  if (e.kind == ExprKind::Column && !pred(e.name)) return false;
  for (const auto& a : e.args)
    if (!allColumnRefs(*a, pred)) return false;
  return true;
}
/// True when the expression references a column (not looking into subquery plans).
inline bool hasColumnRef(const Expr& e) {
  return !allColumnRefs(e, [](const std::string&) { return false; });
}
/// Column ids referenced, including the free (outer) references of subquery plans.
std::set<std::string> freeColumnsOf(const Expr& e);
/// True when the expression contains a subquery.
bool hasSubquery(const Expr& e);
/// Replaces column references by the mapped expressions.
ExprPtr substitute(const ExprPtr& e, const std::map<std::string, ExprPtr>& mapping);
/// Replaces each column reference by what `lookup(id)` points to (null: kept),
/// for callers that have the mapping at hand and need not build a map.
ExprPtr substituteBy(const ExprPtr& e,
                     const std::function<const ExprPtr*(const std::string&)>& lookup);
/// True when every function in the expression is deterministic.
bool isDeterministic(const Expr& e);
/// True when the expression contains an aggregate call.
bool hasAggregate(const Expr& e);
/// True when the expression contains a window function call.
bool hasWindow(const Expr& e);

}  // namespace rfguard
