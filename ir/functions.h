#pragma once
// The function catalog: every function's arity, result type and null policy.
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expr.h"

namespace rfguard {

/// How a function's result depends on NULL arguments (Calcite's Strong, as data).
enum class NullPolicy {
  Strict,       ///< NULL if any argument is NULL (proisstrict): `=`, `+`, abs, cast
  FirstArg,     ///< NULL if the first argument is NULL: nullif, IN-list
  AllArgs,      ///< NULL only if every argument is NULL: coalesce, ifnull, nvl, AND, OR
  CaseResults,  ///< NULL only if every result branch is NULL: CASE
  NeverNull,    ///< never NULL: IS NULL, `<=>`, count, concat that skips NULLs
};

/// What sort of function it is.
enum class FunctionKind { Operator, Scalar, Aggregate, Window };

/// How the result type is derived from the arguments.
enum class ReturnRule {
  Boolean,     ///< boolean
  FirstArg,    ///< type of the first argument
  SecondArg,   ///< type of the second argument (extract's value, for instance)
  Common,      ///< common supertype of all arguments (coalesce)
  CaseCommon,  ///< common type of CASE result branches
  Arithmetic,  ///< numeric promotion, date +/- interval
  BigInt,      ///< bigint
  Double,      ///< double
  Int,         ///< int
  Text,        ///< varchar
  Average,     ///< avg: decimal stays decimal, others double
  Deviation,   ///< variance and standard deviation: double, of numbers
  Sum,         ///< sum: integers widen to bigint
};

struct ComparisonInfo;  // ir/comparison.h

/// One catalog entry.
struct FunctionInfo {
  const char* name;    ///< lower-case name; operators by symbol ("=", "+", "and")
  FunctionKind kind;   ///< operator, scalar, aggregate or window function
  NullPolicy policy;   ///< null behaviour
  ReturnRule ret;      ///< result type rule
  int minArgs;         ///< fewest arguments
  int maxArgs;         ///< most arguments, -1 for any number
  bool deterministic;  ///< same inputs give the same output
  const char* infix;   ///< SQL spelling for infix operators, nullptr otherwise
  int precedence;      ///< binding strength for printing (higher binds tighter)
  /// The comparison it is (ir/comparison.h), nullptr for other functions.
  const ComparisonInfo* comparison = nullptr;
};

/// The entry for `name` (lower case, aliases resolved), or nullptr.
const FunctionInfo* lookupFunction(std::string_view name);
/// The catalog entry of a call (the one it was made with), or nullptr for
/// other expressions.
inline const FunctionInfo* functionOf(const Expr& e) {
  if (e.kind != ExprKind::Call) return nullptr;
  return e.fn ? e.fn : lookupFunction(e.name);
}
/// Every catalog entry, in a stable order.
const std::vector<FunctionInfo>& allFunctions();
/// How many arguments `fn` takes, in words: "1 argument", "2 to 3 arguments",
/// "1 or more arguments".
std::string arityText(const FunctionInfo& fn);
/// The result type of calling `fn` with argument types `args`.
Type returnType(const FunctionInfo& fn, const std::vector<ExprPtr>& args);

/// True when `e` evaluates to NULL whenever all of `columns` are NULL (whatever the
/// other columns hold), judged from the catalog's null policies.
bool isNullPropagating(const Expr& e, const std::set<std::string>& columns);
/// The same, with the NULL columns named by a test of their ids.
bool isNullPropagating(const Expr& e, const std::function<bool(const std::string&)>& isNullColumn);

}  // namespace rfguard
