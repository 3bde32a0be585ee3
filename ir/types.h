#pragma once
// SQL data types as the IR sees them.
#include <optional>
#include <string>
#include <string_view>

namespace rfguard {

/// The kinds of SQL type the subset knows.
enum class TypeKind {
  Unknown,  ///< the type of a bare NULL literal
  Boolean,
  TinyInt,
  SmallInt,
  Int,
  BigInt,
  Decimal,
  Real,
  Double,
  Char,
  Varchar,
  Text,
  Date,
  Timestamp,
  Interval,
};

/// A SQL type: a kind plus precision/length and scale where they apply.
struct Type {
  TypeKind kind = TypeKind::Unknown;
  int precision = 0;  ///< decimal precision, or char/varchar length (0: none given)
  int scale = 0;      ///< decimal scale

  /// Canonical spelling: "int", "decimal(15,2)", "varchar(25)".
  std::string toString() const;
  /// Integer, decimal or floating point.
  bool isNumeric() const;
  /// Integer kinds only.
  bool isInteger() const;
  /// REAL or DOUBLE.
  bool isFloating() const;
  /// CHAR, VARCHAR or TEXT.
  bool isString() const;
  /// Types with a total order usable by MinMax filters.
  bool isOrdered() const;
  /// DATE or TIMESTAMP.
  bool isTemporal() const { return kind == TypeKind::Date || kind == TypeKind::Timestamp; }

  bool operator==(const Type& o) const = default;

  static Type of(TypeKind k, int p = 0, int s = 0) { return Type{k, p, s}; }
};

/// Parses a canonical or SQL type name ("int", "integer", "decimal(15,2)", "float").
std::optional<Type> parseType(std::string_view name);

/// True when comparing a value of `a` with a value of `b` (in their common type)
/// is equality of the values themselves, so that a key set of one type decides
/// membership for the other exactly: false where the common type loses
/// precision (BIGINT against DOUBLE: 2^53 + 1 = 2^53 there; INT against REAL;
/// DECIMAL against DOUBLE), and across kinds that compare by conversion (text
/// against numbers, CHAR's padding against VARCHAR, DATE against TIMESTAMP).
/// A filter may be copied across an equality, or a MinMax range applied to
/// another type, only where this holds.
bool comparesExactly(const Type& a, const Type& b);

/// True when CAST(x AS to) for x of type `from` keeps every value as it is, so
/// that distinct values stay distinct and compare as before: integer widening,
/// integers into a DOUBLE (up to 53 bits), REAL or DECIMAL wide enough, REAL
/// into DOUBLE, DECIMAL to no fewer digits on either side of the point, VARCHAR
/// into TEXT or a VARCHAR at least as long. Not DOUBLE to an integer (1.5
/// becomes 2), not a shorter VARCHAR (it truncates), not DATE to TIMESTAMP
/// (they compare by conversion). A filter may reach a scan through such a cast.
bool castKeepsValues(const Type& from, const Type& to);

/// The common supertype used for comparisons and arithmetic, if any.
std::optional<Type> commonType(const Type& a, const Type& b);

/// True when values of `from` may be compared with or cast to `to` without error.
bool comparable(const Type& a, const Type& b);

}  // namespace rfguard
