#include "ir/types.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "ir/ascii.h"

namespace rfguard {

namespace {

struct KindName {
  TypeKind kind;
  const char* name;
};

// The canonical name comes first for each kind; the rest are accepted aliases.
constexpr KindName kNames[] = {
    {TypeKind::Boolean, "boolean"},
    {TypeKind::Boolean, "bool"},
    {TypeKind::TinyInt, "tinyint"},
    {TypeKind::SmallInt, "smallint"},
    {TypeKind::Int, "int"},
    {TypeKind::Int, "integer"},
    {TypeKind::BigInt, "bigint"},
    {TypeKind::Decimal, "decimal"},
    {TypeKind::Decimal, "numeric"},
    {TypeKind::Real, "real"},
    {TypeKind::Double, "double"},
    {TypeKind::Double, "float"},
    {TypeKind::Double, "double precision"},
    {TypeKind::Char, "char"},
    {TypeKind::Char, "character"},
    {TypeKind::Varchar, "varchar"},
    {TypeKind::Varchar, "character varying"},
    {TypeKind::Varchar, "char varying"},
    {TypeKind::Text, "text"},
    {TypeKind::Text, "string"},
    {TypeKind::Date, "date"},
    {TypeKind::Timestamp, "timestamp"},
    {TypeKind::Interval, "interval"},
    {TypeKind::Unknown, "unknown"},
};

int rank(TypeKind k) {
  switch (k) {
    case TypeKind::TinyInt:
      return 1;
    case TypeKind::SmallInt:
      return 2;
    case TypeKind::Int:
      return 3;
    case TypeKind::BigInt:
      return 4;
    case TypeKind::Decimal:
      return 5;
    case TypeKind::Real:
      return 6;
    case TypeKind::Double:
      return 7;
    default:
      return 0;
  }
}

}  // namespace

std::string Type::toString() const {
  std::string base;
  for (const auto& kn : kNames) {
    if (kn.kind == kind) {
      base = kn.name;
      break;
    }
  }
  if (kind == TypeKind::Decimal)
    return base + "(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  if ((kind == TypeKind::Char || kind == TypeKind::Varchar) && precision > 0)
    return base + "(" + std::to_string(precision) + ")";
  return base;
}

bool Type::isInteger() const {
  return kind == TypeKind::TinyInt || kind == TypeKind::SmallInt || kind == TypeKind::Int ||
         kind == TypeKind::BigInt;
}
bool Type::isFloating() const {
  return kind == TypeKind::Real || kind == TypeKind::Double;
}
bool Type::isNumeric() const {
  return isInteger() || isFloating() || kind == TypeKind::Decimal;
}
bool Type::isString() const {
  return kind == TypeKind::Char || kind == TypeKind::Varchar || kind == TypeKind::Text;
}
bool Type::isOrdered() const {
  // Booleans order false < true in SQL (PostgreSQL, DuckDB): MIN/MAX and
  // MinMax filters are defined on them.
  return isNumeric() || isString() || isTemporal() || kind == TypeKind::Boolean;
}

std::optional<Type> parseType(std::string_view text) {
  std::string s;
  for (char c : text) s += asciiLower(c);
  std::string base = s;
  int args[2] = {0, 0};
  int nargs = 0;
  if (auto open = s.find('('); open != std::string::npos) {
    if (s.back() != ')') return std::nullopt;
    base = s.substr(0, open);
    std::string inner = s.substr(open + 1, s.size() - open - 2);
    size_t pos = 0;
    while (pos <= inner.size() && nargs < 3) {
      size_t comma = inner.find(',', pos);
      std::string part =
          inner.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (part.empty() || !std::all_of(part.begin(), part.end(), ::isdigit) || part.size() > 4)
        return std::nullopt;
      if (nargs == 2) return std::nullopt;
      args[nargs++] = std::atoi(part.c_str());
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  while (!base.empty() && base.back() == ' ') base.pop_back();
  for (const auto& kn : kNames) {
    if (base != kn.name) continue;
    Type t{kn.kind, 0, 0};
    if (kn.kind == TypeKind::Decimal) {
      t.precision = nargs >= 1 ? args[0] : 18;
      t.scale = nargs >= 2 ? args[1] : 0;
      if (t.scale > t.precision || t.precision == 0) return std::nullopt;
    } else if (kn.kind == TypeKind::Char || kn.kind == TypeKind::Varchar) {
      if (nargs > 1) return std::nullopt;
      t.precision = nargs == 1 ? args[0] : 0;
    } else if (nargs != 0) {
      return std::nullopt;
    }
    return t;
  }
  return std::nullopt;
}

std::optional<Type> commonType(const Type& a, const Type& b) {
  if (a.kind == TypeKind::Unknown) return b;
  if (b.kind == TypeKind::Unknown) return a;
  if (a.isNumeric() && b.isNumeric()) {
    if (a.kind == TypeKind::Decimal && b.kind == TypeKind::Decimal) {
      int scale = std::max(a.scale, b.scale);
      int whole = std::max(a.precision - a.scale, b.precision - b.scale);
      return Type{TypeKind::Decimal, std::min(38, whole + scale), scale};
    }
    return rank(a.kind) >= rank(b.kind) ? a : b;
  }
  if (a.isString() && b.isString()) {
    if (a.kind == b.kind) return Type{a.kind, std::max(a.precision, b.precision), 0};
    return Type{TypeKind::Varchar, 0, 0};
  }
  if (a.isTemporal() && b.isTemporal()) return a.kind == TypeKind::Timestamp ? a : b;
  if (a.kind == b.kind) return a;
  // Strings compare with dates and numbers by implicit cast, as most engines allow.
  if (a.isString() && (b.isTemporal() || b.isNumeric())) return b;
  if (b.isString() && (a.isTemporal() || a.isNumeric())) return a;
  return std::nullopt;
}

bool comparable(const Type& a, const Type& b) {
  return commonType(a, b).has_value();
}

namespace {
/// The bits of precision an integer kind needs: how many a float must carry.
int integerBits(TypeKind k) {
  switch (k) {
    case TypeKind::TinyInt:
      return 8;
    case TypeKind::SmallInt:
      return 16;
    case TypeKind::Int:
      return 32;
    default:
      return 64;
  }
}
}  // namespace

bool castKeepsValues(const Type& from, const Type& to) {
  auto digits = [](TypeKind k) {  // decimal digits an integer kind needs
    return k == TypeKind::TinyInt ? 3 : k == TypeKind::SmallInt ? 5 : k == TypeKind::Int ? 10 : 19;
  };
  if (from.isInteger() && to.isInteger()) return integerBits(to.kind) >= integerBits(from.kind);
  if (from.isInteger() && to.isFloating())
    return integerBits(from.kind) <= (to.kind == TypeKind::Double ? 53 : 24);
  if (from.isInteger() && to.kind == TypeKind::Decimal)
    return to.precision - to.scale >= digits(from.kind);
  if (from.kind == TypeKind::Decimal && to.kind == TypeKind::Decimal)
    return from.precision > 0 && to.scale >= from.scale &&
           to.precision - to.scale >= from.precision - from.scale;
  if (from.isFloating() && to.kind == TypeKind::Double) return true;
  if (from.kind == TypeKind::Varchar && to.kind == TypeKind::Varchar)
    return to.precision == 0 || (from.precision > 0 && to.precision >= from.precision);
  if ((from.kind == TypeKind::Varchar || from.kind == TypeKind::Text) && to.kind == TypeKind::Text)
    return true;
  return from.kind == to.kind && from.precision == to.precision && from.scale == to.scale &&
         (to.kind == TypeKind::Real || to.kind == TypeKind::Date ||
          to.kind == TypeKind::Timestamp || to.kind == TypeKind::Boolean);
}

bool comparesExactly(const Type& a, const Type& b) {
  if (a.kind == TypeKind::Unknown || b.kind == TypeKind::Unknown || a.kind == b.kind) return true;
  if (a.isInteger() && b.isInteger()) return true;
  if ((a.isInteger() || a.kind == TypeKind::Decimal) &&
      (b.isInteger() || b.kind == TypeKind::Decimal))
    return true;
  if (a.isFloating() && b.isFloating()) return true;  // REAL widens to DOUBLE exactly
  if (a.isFloating() != b.isFloating() && (a.isInteger() || b.isInteger())) {
    const Type& f = a.isFloating() ? a : b;
    const Type& i = a.isFloating() ? b : a;
    return integerBits(i.kind) <= (f.kind == TypeKind::Double ? 53 : 24);
  }
  // VARCHAR and TEXT compare as the same strings; CHAR pads, so it matches
  // only itself.
  auto plain = [](const Type& t) {
    return t.kind == TypeKind::Varchar || t.kind == TypeKind::Text;
  };
  return plain(a) && plain(b);
}

}  // namespace rfguard
