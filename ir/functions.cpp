#include "ir/functions.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cctype>
#include <cstdint>
#include <string_view>

#include "ir/ascii.h"
#include "ir/comparison.h"

namespace rfguard {

namespace {

using K = FunctionKind;
using P = NullPolicy;
using R = ReturnRule;

// The one table of function facts. Null policies are data: rules ask
// isNullPropagating() and never test function names themselves.
std::vector<FunctionInfo> entries() {
  return {
      // logical
      {"and", K::Operator, P::AllArgs, R::Boolean, 2, -1, true, "AND", 2},
      {"or", K::Operator, P::AllArgs, R::Boolean, 2, -1, true, "OR", 1},
      {"not", K::Operator, P::Strict, R::Boolean, 1, 1, true, "NOT", 3},
      // comparisons
      {"=", K::Operator, P::Strict, R::Boolean, 2, 2, true, "=", 4},
      {"<>", K::Operator, P::Strict, R::Boolean, 2, 2, true, "<>", 4},
      {"<", K::Operator, P::Strict, R::Boolean, 2, 2, true, "<", 4},
      {"<=", K::Operator, P::Strict, R::Boolean, 2, 2, true, "<=", 4},
      {">", K::Operator, P::Strict, R::Boolean, 2, 2, true, ">", 4},
      {">=", K::Operator, P::Strict, R::Boolean, 2, 2, true, ">=", 4},
      {"<=>", K::Operator, P::NeverNull, R::Boolean, 2, 2, true, "<=>", 4},
      {"is_distinct_from", K::Operator, P::NeverNull, R::Boolean, 2, 2, true, "IS DISTINCT FROM",
       4},
      {"is_null", K::Operator, P::NeverNull, R::Boolean, 1, 1, true, nullptr, 4},
      {"is_not_null", K::Operator, P::NeverNull, R::Boolean, 1, 1, true, nullptr, 4},
      // Pattern matching (evaluated with re2): value, pattern, optional ESCAPE character.
      {"like", K::Operator, P::Strict, R::Boolean, 2, 3, true, "LIKE", 4},
      {"ilike", K::Operator, P::Strict, R::Boolean, 2, 3, true, "ILIKE", 4},
      {"similar_to", K::Operator, P::Strict, R::Boolean, 2, 3, true, "SIMILAR TO", 4},
      {"regexp_matches", K::Scalar, P::Strict, R::Boolean, 2, 2, true, nullptr, 9},
      {"starts_with", K::Scalar, P::Strict, R::Boolean, 2, 2, true, nullptr, 9},
      {"ends_with", K::Scalar, P::Strict, R::Boolean, 2, 2, true, nullptr, 9},
      {"strpos", K::Scalar, P::Strict, R::Int, 2, 2, true, nullptr, 9},
      {"in", K::Operator, P::FirstArg, R::Boolean, 2, -1, true, nullptr, 4},
      // arithmetic
      {"+", K::Operator, P::Strict, R::Arithmetic, 2, 2, true, "+", 5},
      {"-", K::Operator, P::Strict, R::Arithmetic, 2, 2, true, "-", 5},
      {"*", K::Operator, P::Strict, R::Arithmetic, 2, 2, true, "*", 6},
      {"/", K::Operator, P::Strict, R::Arithmetic, 2, 2, true, "/", 6},
      {"%", K::Operator, P::Strict, R::Arithmetic, 2, 2, true, "%", 6},
      {"negate", K::Operator, P::Strict, R::FirstArg, 1, 1, true, nullptr, 7},
      {"||", K::Operator, P::Strict, R::Text, 2, 2, true, "||", 5},
      // NULL-replacing functions
      {"coalesce", K::Scalar, P::AllArgs, R::Common, 1, -1, true, nullptr, 9},
      {"ifnull", K::Scalar, P::AllArgs, R::Common, 2, 2, true, nullptr, 9},
      {"nvl", K::Scalar, P::AllArgs, R::Common, 2, 2, true, nullptr, 9},
      {"nullif", K::Scalar, P::FirstArg, R::FirstArg, 2, 2, true, nullptr, 9},
      {"case", K::Scalar, P::CaseResults, R::CaseCommon, 2, -1, true, nullptr, 9},
      // concat skips NULL arguments in PostgreSQL, Hologres and Trino, so NULL may become ''.
      {"concat", K::Scalar, P::NeverNull, R::Text, 1, -1, true, nullptr, 9},
      // NULL in, NULL out
      {"abs", K::Scalar, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      {"round", K::Scalar, P::Strict, R::FirstArg, 1, 2, true, nullptr, 9},
      {"floor", K::Scalar, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      {"ceil", K::Scalar, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      {"substring", K::Scalar, P::Strict, R::FirstArg, 2, 3, true, nullptr, 9},
      {"upper", K::Scalar, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      {"lower", K::Scalar, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      // trim(s[, chars]): the characters of `chars` (a space) off both ends,
      // ltrim off the start, rtrim off the end (TRIM(BOTH | LEADING | TRAILING ...)).
      {"trim", K::Scalar, P::Strict, R::FirstArg, 1, 2, true, nullptr, 9},
      {"ltrim", K::Scalar, P::Strict, R::FirstArg, 1, 2, true, nullptr, 9},
      {"rtrim", K::Scalar, P::Strict, R::FirstArg, 1, 2, true, nullptr, 9},
      // power(x, y): a double; NULL where no real number is (pow(-8, 0.5)), as SQLite.
      {"power", K::Scalar, P::Strict, R::Double, 2, 2, true, nullptr, 9},
      {"length", K::Scalar, P::Strict, R::Int, 1, 1, true, nullptr, 9},
      {"extract", K::Scalar, P::Strict, R::Int, 2, 2, true, nullptr, 9},
      // date_trunc('month', d): the first day of d's year / quarter / month / week.
      {"date_trunc", K::Scalar, P::Strict, R::SecondArg, 2, 2, true, nullptr, 9},
      {"random", K::Scalar, P::NeverNull, R::Double, 0, 0, false, nullptr, 9},
      // nonzero_divisor(y, x), the divisor of x / y: y, where y is not 0; a
      // query that divides a value by 0 has no result in the dialect
      // (ir/dialect.h): an error in PostgreSQL and Calcite, DuckDB's ±inf or
      // NaN. NULL with x or y NULL, as x / y is.
      {"nonzero_divisor", K::Scalar, P::Strict, R::FirstArg, 2, 2, true, nullptr, 9},
      // recursion_done(n): TRUE where a WITH RECURSIVE's step after the last
      // one unrolled adds n = 0 rows; otherwise the query has no result here
      // (grammar/bind_recursive.cpp).
      {"recursion_done", K::Scalar, P::Strict, R::Boolean, 1, 1, true, nullptr, 9},
      // A composite key (a, b): under = it matches nothing when any part is NULL.
      {"row", K::Scalar, P::Strict, R::FirstArg, 2, -1, true, nullptr, 9},
      // aggregates
      {"count", K::Aggregate, P::NeverNull, R::BigInt, 0, 1, true, nullptr, 9},
      {"sum", K::Aggregate, P::Strict, R::Sum, 1, 1, true, nullptr, 9},
      {"avg", K::Aggregate, P::Strict, R::Average, 1, 1, true, nullptr, 9},
      {"min", K::Aggregate, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      {"max", K::Aggregate, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      // any_value(x): any of the group's values. rfguard evaluates it only where
      // the choice is none (every row's x one value, or NULL in every row) and
      // stops with an error otherwise: engines differ in what they pick and in
      // whether NULL may be picked, and no verdict may depend on it.
      {"any_value", K::Aggregate, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      // single_value(x) (Calcite): x of a group of one row, NULL of no rows, an
      // error over more rows (a scalar subquery's cardinality check).
      {"single_value", K::Aggregate, P::Strict, R::FirstArg, 1, 1, true, nullptr, 9},
      // Sample variance divides by n - 1 (NULL below two values), population by n.
      {"var_samp", K::Aggregate, P::Strict, R::Deviation, 1, 1, true, nullptr, 9},
      {"var_pop", K::Aggregate, P::Strict, R::Deviation, 1, 1, true, nullptr, 9},
      {"stddev_samp", K::Aggregate, P::Strict, R::Deviation, 1, 1, true, nullptr, 9},
      {"stddev_pop", K::Aggregate, P::Strict, R::Deviation, 1, 1, true, nullptr, 9},
      // grouping(k, ...): a bit per argument, 1 where the row's grouping set
      // leaves that key out (ROLLUP's subtotals); never NULL.
      {"grouping", K::Aggregate, P::NeverNull, R::Int, 1, 31, true, nullptr, 9},
      // window functions
      {"rank", K::Window, P::NeverNull, R::BigInt, 0, 0, true, nullptr, 9},
      {"dense_rank", K::Window, P::NeverNull, R::BigInt, 0, 0, true, nullptr, 9},
      {"row_number", K::Window, P::NeverNull, R::BigInt, 0, 0, true, nullptr, 9},
  };
}

const std::vector<FunctionInfo>& table() {
  static const std::vector<FunctionInfo> t = [] {
    std::vector<FunctionInfo> t = entries();
    for (auto& f : t) f.comparison = comparisonNamed(f.name);
    return t;
  }();
  return t;
}

struct Alias {
  const char* alias;
  const char* name;
};
constexpr Alias kAliases[] = {{"substr", "substring"},
                              {"ceiling", "ceil"},
                              {"!=", "<>"},
                              {"==", "="},
                              {"char_length", "length"},
                              {"prefix", "starts_with"},
                              {"suffix", "ends_with"},
                              {"instr", "strpos"},
                              {"stddev", "stddev_samp"},
                              {"variance", "var_samp"},
                              {"pow", "power"}};

using ColumnTest = std::function<bool(const std::string&)>;

bool anyNull(const std::vector<ExprPtr>& args, size_t from, size_t to, const ColumnTest& cols) {
  for (size_t i = from; i < to && i < args.size(); ++i)
    if (isNullPropagating(*args[i], cols)) return true;
  return false;
}

bool allNull(const std::vector<ExprPtr>& args, const ColumnTest& cols) {
  if (args.empty()) return false;
  for (const auto& a : args)
    if (!isNullPropagating(*a, cols)) return false;
  return true;
}

Type arithmeticType(const std::string& op, const Type& a, const Type& b) {
  if (a.isTemporal() && b.kind == TypeKind::Interval) return a;
  if (b.isTemporal() && a.kind == TypeKind::Interval) return b;
  if (a.kind == TypeKind::Date && b.kind == TypeKind::Date && op == "-")
    return Type::of(TypeKind::Int);
  if (a.kind == TypeKind::Decimal && b.kind == TypeKind::Decimal) {
    if (op == "*")
      return Type::of(TypeKind::Decimal, std::min(38, a.precision + b.precision),
                      a.scale + b.scale);
    if (op == "/") return Type::of(TypeKind::Decimal, 38, std::max(6, a.scale + b.scale));
  }
  auto c = commonType(a, b);
  return c ? *c : Type{};
}

}  // namespace

std::string arityText(const FunctionInfo& fn) {
  std::string want = std::to_string(fn.minArgs);
  if (fn.maxArgs != fn.minArgs)
    want += fn.maxArgs < 0 ? " or more" : " to " + std::to_string(fn.maxArgs);
  return want + (want == "1" ? " argument" : " arguments");
}

const std::vector<FunctionInfo>& allFunctions() {
  return table();
}

namespace {
/// FNV-1a over the lower-cased name: lookups hash names of a few bytes, where
/// std::hash's setup and the bucket modulo cost more than the bytes.
constexpr uint64_t fnv1aLower(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (char c : s) h = (h ^ static_cast<unsigned char>(asciiLower(c))) * 1099511628211ull;
  return h;
}

/// Every name and alias (lower case) in an open-addressed table, a power of
/// two at least four times their number.
class FunctionIndex {
 public:
  FunctionIndex() {
    std::vector<std::pair<std::string_view, const FunctionInfo*>> all;
    for (const auto& f : table()) all.emplace_back(f.name, &f);
    for (const auto& a : kAliases)
      for (const auto& f : table())
        if (a.name == f.name) all.emplace_back(a.alias, &f);
    slots_.resize(std::bit_ceil(std::max<size_t>(16, 4 * all.size())));
    mask_ = slots_.size() - 1;
    for (const auto& [name, fn] : all) {
      size_t at = fnv1aLower(name) & mask_;
      while (slots_[at].second && slots_[at].first != name) at = (at + 1) & mask_;
      if (!slots_[at].second) slots_[at] = {name, fn};  // the first entry of a name is kept
    }
  }
  const FunctionInfo* find(std::string_view raw) const {
    for (size_t at = fnv1aLower(raw) & mask_; slots_[at].second; at = (at + 1) & mask_)
      if (sameLower(slots_[at].first, raw)) return slots_[at].second;
    return nullptr;
  }

 private:
  static bool sameLower(std::string_view lower, std::string_view raw) {
    if (lower.size() != raw.size()) return false;
    for (size_t i = 0; i < raw.size(); ++i)
      if (lower[i] != asciiLower(raw[i])) return false;
    return true;
  }
  std::vector<std::pair<std::string_view, const FunctionInfo*>> slots_;
  size_t mask_ = 0;
};
}  // namespace

const FunctionInfo* lookupFunction(std::string_view raw) {
  // Binding, normalising and verifying look functions up for every call they meet.
  static const FunctionIndex index;
  return index.find(raw);
}

Type returnType(const FunctionInfo& fn, const std::vector<ExprPtr>& args) {
  auto argType = [&](size_t i) { return i < args.size() ? args[i]->type : Type{}; };
  switch (fn.ret) {
    case R::Boolean:
      return Type::of(TypeKind::Boolean);
    case R::FirstArg:
      return argType(0);
    case R::SecondArg:
      return argType(1);
    case R::BigInt:
      return Type::of(TypeKind::BigInt);
    case R::Double:
    case R::Deviation:
      return Type::of(TypeKind::Double);
    case R::Int:
      return Type::of(TypeKind::Int);
    case R::Text:
      return Type::of(TypeKind::Varchar);
    case R::Arithmetic:
      return arithmeticType(fn.name, argType(0), argType(1));
    case R::Sum: {
      Type t = argType(0);
      if (t.isInteger()) return Type::of(TypeKind::BigInt);
      if (t.kind == TypeKind::Decimal) return Type::of(TypeKind::Decimal, 38, t.scale);
      return t;
    }
    case R::Average: {
      Type t = argType(0);
      if (t.kind == TypeKind::Decimal) return Type::of(TypeKind::Decimal, 38, std::max(6, t.scale));
      return Type::of(TypeKind::Double);
    }
    case R::Common:
    case R::CaseCommon: {
      Type t;
      for (size_t i = 0; i < args.size(); ++i) {
        bool isResult = fn.ret == R::Common || i % 2 == 1 || i + 1 == args.size();
        if (!isResult) continue;
        auto c = commonType(t, args[i]->type);
        if (c) t = *c;
      }
      return t;
    }
  }
  return Type{};
}

bool isNullPropagating(const Expr& e, const std::set<std::string>& columns) {
  return isNullPropagating(e, [&](const std::string& id) { return columns.count(id) > 0; });
}

bool isNullPropagating(const Expr& e, const ColumnTest& cols) {
  switch (e.kind) {
    case ExprKind::Column:
      return cols(e.name);
    case ExprKind::Literal:
      return e.isNull;
    case ExprKind::Cast:
      return isNullPropagating(*e.args[0], cols);
    case ExprKind::Subquery:
      return false;  // unknown: assume it may produce a value
    case ExprKind::Call:
      break;
  }
  const FunctionInfo* fn = functionOf(e);
  assert(fn && "every call names a catalog function");
  if (!fn) return false;
  switch (fn->policy) {
    case P::Strict:
      return anyNull(e.args, 0, e.args.size(), cols);
    case P::FirstArg:
      return !e.args.empty() && isNullPropagating(*e.args[0], cols);
    case P::AllArgs:
      return allNull(e.args, cols);
    case P::NeverNull:
      return false;
    case P::CaseResults: {
      // args: cond1, result1, cond2, result2, ..., [else]; a missing ELSE yields NULL.
      // A branch whose condition is NULL on those columns is never taken there
      // (CASE WHEN b.k > 0 THEN 1 END is NULL when b.k is), whatever it returns.
      for (size_t i = 1; i < e.args.size(); i += 2)
        if (!isNullPropagating(*e.args[i - 1], cols) && !isNullPropagating(*e.args[i], cols))
          return false;
      if (e.args.size() % 2 == 1 && !isNullPropagating(*e.args.back(), cols)) return false;
      return true;
    }
  }
  return false;
}

}  // namespace rfguard
