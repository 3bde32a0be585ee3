#pragma once
// Values of the reference evaluator: NULL, integers (also booleans as 0/1 and
// dates as days since 1970-01-01), doubles (also decimals) and strings, with
// SQL's three-valued comparisons and the scalar functions of the catalog.
#include <optional>
#include <string>
#include <vector>

#include "execution/key.h"
#include "ir/expr.h"

namespace rfguard::rt {

using Value = Datum;
using Row = std::vector<Value>;

inline bool isNull(const Value& v) {
  return std::holds_alternative<std::monostate>(v);
}
inline Value null() {
  return std::monostate{};
}
inline Value boolean(bool b) {
  return int64_t{b};
}

/// The value of a literal expression; nullopt with `error` set when it cannot be represented.
std::optional<Value> literalValue(const Expr& e, std::string* error);
/// A number (int or double) as a double.
double asDouble(const Value& v);
/// Three-way comparison of non-NULL values (numbers compare across int and double);
/// nullopt when either is NULL.
std::optional<int> compare(const Value& a, const Value& b);
/// SQL `=` equality of non-NULL values, for grouping and set membership: a canonical key.
std::string valueKey(const Value& v);
/// A hash bucket for `v` under compare()'s equality: values compare() holds equal
/// share a bucket (an integer and a double past 2^53 are equal when the integer
/// rounds to the double, so both go by the double there); a bucket may hold
/// values that differ, so its members are compared again.
std::string bucketKey(const Value& v);
/// A strict scalar function or operator over evaluated arguments (NULL handling
/// included); nullopt with `error` set when unsupported.
std::optional<Value> applyFunction(const std::string& name, const std::vector<Value>& args,
                                   const Type& result, std::string* error);
/// CAST(v AS t).
std::optional<Value> castTo(const Value& v, const Type& t, std::string* error);
/// Days since 1970-01-01 of "YYYY-MM-DD", and back.
int64_t daysFromCivil(int y, int m, int d);
std::string civilFromDays(int64_t days);
/// A canonical key of a row (NULL distinct from every value), for grouping and set operations.
std::string rowKey(const Row& r);
/// The SQL literal for a value of type `t` (for SQLite scripts): NULL, 3, 1.5, 'x'.
std::string sqlLiteral(const Value& v, const Type& t);
/// Canonical row order (for deterministic LIMIT and printing): by value, NULL first.
bool rowLess(const Row& a, const Row& b);

}  // namespace rfguard::rt
