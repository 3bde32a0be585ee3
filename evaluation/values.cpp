#include "evaluation/values.h"

#include "evaluation/evaluator.h"
#include "evaluation/patterns.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace rfguard::rt {

namespace {

bool isNumber(const Value& v) {
  return std::holds_alternative<int64_t>(v) || std::holds_alternative<double>(v);
}

bool integral(const Type& t) {
  return t.isInteger() || t.kind == TypeKind::Boolean || t.kind == TypeKind::Date;
}

std::optional<Value> dateShift(int64_t days, const std::string& interval, int sign,
                               std::string* error) {
  long long n = 0;
  char unit[16] = {0};
  if (std::sscanf(interval.c_str(), "%lld %15s", &n, unit) != 2) {
    *error = "interval `" + interval + "` not understood";
    return std::nullopt;
  }
  std::string u = unit;
  if (!u.empty() && u.back() == 's') u.pop_back();
  n *= sign;
  if (u == "day") return Value(days + n);
  if (u == "week") return Value(days + 7 * n);
  int months = u == "month"     ? static_cast<int>(n)
               : u == "quarter" ? static_cast<int>(3 * n)
               : u == "year"    ? static_cast<int>(12 * n)
                                : 0;
  if (!months && u != "month") {
    *error = "interval unit `" + u + "` is not supported on dates";
    return std::nullopt;
  }
  std::string c = civilFromDays(days);
  int y = std::stoi(c.substr(0, 4)), m = std::stoi(c.substr(5, 2)), d = std::stoi(c.substr(8, 2));
  int total = y * 12 + (m - 1) + months;
  y = total / 12;
  m = total % 12 + 1;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  int last = kDays[m - 1] + (m == 2 && leap);
  return Value(daysFromCivil(y, m, std::min(d, last)));
}

}  // namespace

double asDouble(const Value& v) {
  if (auto i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

int64_t daysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + static_cast<unsigned>(d) - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int64_t>(era) * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::string civilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

std::optional<Value> literalValue(const Expr& e, std::string* error) {
  if (e.isNull) return null();
  const Type& t = e.type;
  if (t.kind == TypeKind::Boolean) return boolean(e.value == "true");
  if (t.kind == TypeKind::Date) {
    int y, m, d;
    if (std::sscanf(e.value.c_str(), "%d-%d-%d", &y, &m, &d) != 3) {
      *error = "date literal `" + e.value + "` not understood";
      return std::nullopt;
    }
    return Value(daysFromCivil(y, m, d));
  }
  if (t.isInteger()) return Value(static_cast<int64_t>(std::stoll(e.value)));
  if (t.isNumeric()) return Value(std::stod(e.value));
  return Value(e.value);  // strings, timestamps (compare as text), intervals
}

std::optional<int> compare(const Value& a, const Value& b) {
  if (isNull(a) || isNull(b)) return std::nullopt;
  if (isNumber(a) && isNumber(b)) {
    if (std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b)) {
      int64_t x = std::get<int64_t>(a), y = std::get<int64_t>(b);
      return x < y ? -1 : x > y;
    }
    double x = asDouble(a), y = asDouble(b);
    return x < y ? -1 : x > y;
  }
  if (a.index() != b.index()) return a.index() < b.index() ? -1 : 1;
  const auto& x = std::get<std::string>(a);
  const auto& y = std::get<std::string>(b);
  return x < y ? -1 : x > y;
}

std::string valueKey(const Value& v) {
  std::string out;
  if (auto x = std::get_if<double>(&v))
    if (std::floor(*x) == *x && std::fabs(*x) < 9e15) {
      appendEncoded(static_cast<int64_t>(*x), out);
      return out;
    }
  appendEncoded(v, out);
  return out;
}

std::string bucketKey(const Value& v) {
  constexpr double kExact = 9007199254740992.0;  // 2^53
  std::string out;
  if (auto i = std::get_if<int64_t>(&v); i && std::fabs(static_cast<double>(*i)) >= kExact) {
    appendEncoded(Value(static_cast<double>(*i)), out);
    return out;
  }
  if (auto x = std::get_if<double>(&v); x && std::fabs(*x) >= kExact) {
    appendEncoded(v, out);
    return out;
  }
  return valueKey(v);
}

std::string rowKey(const Row& r) {
  std::string k;
  for (const auto& v : r) k += isNull(v) ? std::string("\x00N", 2) : valueKey(v);
  return k;
}

bool rowLess(const Row& a, const Row& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (isNull(a[i]) != isNull(b[i])) return isNull(a[i]);
    auto c = compare(a[i], b[i]);
    if (c && *c) return *c < 0;
  }
  return a.size() < b.size();
}

std::optional<Value> castTo(const Value& v, const Type& t, std::string* error) {
  if (isNull(v)) return null();
  if (t.isString()) {
    if (auto i = std::get_if<int64_t>(&v)) return Value(std::to_string(*i));
    if (auto d = std::get_if<double>(&v)) return Value(std::to_string(*d));
    return v;
  }
  if (t.kind == TypeKind::Date || t.kind == TypeKind::Timestamp) {
    // Dates are day numbers, timestamps text; a date's text is YYYY-MM-DD.
    if (auto s = std::get_if<std::string>(&v); s && t.kind == TypeKind::Date) {
      int y, m, d;
      char rest = 0;
      if (std::sscanf(s->c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &rest) < 3 ||
          (rest != 0 && rest != ' ' && rest != 'T') || m < 1 || m > 12 || d < 1 ||
          civilFromDays(daysFromCivil(y, m, d)) != s->substr(0, 10)) {
        *error = "cannot cast '" + *s + "' to date";
        return std::nullopt;
      }
      return Value(daysFromCivil(y, m, d));
    }
    if (auto i = std::get_if<int64_t>(&v); i && t.kind == TypeKind::Timestamp)
      return Value(civilFromDays(*i) + " 00:00:00");
    return v;
  }
  if (t.kind == TypeKind::Boolean) {
    // As SQL engines cast: a number is true unless 0; text is 'true', 't',
    // '1', 'false', 'f' or '0' in any case (DuckDB's spellings), else an error.
    if (auto i = std::get_if<int64_t>(&v)) return boolean(*i != 0);
    if (auto d = std::get_if<double>(&v)) return boolean(*d != 0);
    if (auto s = std::get_if<std::string>(&v)) {
      std::string l;
      for (char c : *s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (l == "true" || l == "t" || l == "1") return boolean(true);
      if (l == "false" || l == "f" || l == "0") return boolean(false);
      *error = "cannot cast '" + *s + "' to boolean";
      return std::nullopt;
    }
    return v;
  }
  if (integral(t) && t.kind != TypeKind::Date) {
    if (auto d = std::get_if<double>(&v)) return Value(static_cast<int64_t>(std::llround(*d)));
    if (auto s = std::get_if<std::string>(&v)) {
      try {
        return Value(static_cast<int64_t>(std::stoll(*s)));
      } catch (...) {
        *error = "cannot cast '" + *s + "' to " + t.toString();
        return std::nullopt;
      }
    }
    return v;
  }
  if (t.isNumeric()) {
    if (auto i = std::get_if<int64_t>(&v)) return Value(static_cast<double>(*i));
    if (auto s = std::get_if<std::string>(&v)) {
      try {
        return Value(std::stod(*s));
      } catch (...) {
        *error = "cannot cast '" + *s + "' to " + t.toString();
        return std::nullopt;
      }
    }
    return v;
  }
  return v;
}

std::optional<Value> applyFunction(const std::string& f, const std::vector<Value>& a,
                                   const Type& result, std::string* error) {
  // NULL in, NULL out for every strict function handled here.
  for (const auto& v : a)
    if (isNull(v)) return null();
  // Comparisons by name, as the oracle: independent of ir/comparison.h (eval_expr.cpp).
  auto cmp = [&]() { return *compare(a[0], a[1]); };
  if (f == "=") return boolean(cmp() == 0);
  if (f == "<>") return boolean(cmp() != 0);
  if (f == "<") return boolean(cmp() < 0);
  if (f == "<=") return boolean(cmp() <= 0);
  if (f == ">") return boolean(cmp() > 0);
  if (f == ">=") return boolean(cmp() >= 0);
  if (f == "recursion_done") {
    if (asDouble(a[0]) != 0)
      return *error = kQueryFails +
                      "WITH RECURSIVE goes on past the steps rfguard unrolls (docs/equiv.md)",
             std::nullopt;
    return boolean(true);
  }
  if (f == "nonzero_divisor") {
    if (isNumber(a[0]) && asDouble(a[0]) == 0)
      return *error = kQueryFails +
                      "a division by zero (an error in PostgreSQL and Calcite, "
                      "an infinity or NaN in DuckDB)",
             std::nullopt;
    return a[0];
  }
  if (f == "not") {
    if (!std::holds_alternative<int64_t>(a[0]))
      return *error = "NOT of a non-boolean", std::nullopt;
    return boolean(std::get<int64_t>(a[0]) == 0);
  }
  if (f == "like" || f == "ilike" || f == "similar_to" || f == "regexp_matches") {
    const auto* s = std::get_if<std::string>(&a[0]);
    const auto* p = std::get_if<std::string>(&a[1]);
    const std::string* esc = a.size() > 2 ? std::get_if<std::string>(&a[2]) : nullptr;
    if (!s || !p || (a.size() > 2 && !esc)) return *error = f + " of a non-string", std::nullopt;
    const PatternKind kind = f == "like"         ? PatternKind::Like
                             : f == "ilike"      ? PatternKind::ILike
                             : f == "similar_to" ? PatternKind::SimilarTo
                                                 : PatternKind::RegexMatch;
    auto m = matchPattern(kind, *s, *p, esc, error);
    if (!m) return std::nullopt;
    return boolean(*m);
  }
  if (f == "starts_with" || f == "ends_with" || f == "strpos") {
    const auto* s = std::get_if<std::string>(&a[0]);
    const auto* p = std::get_if<std::string>(&a[1]);
    if (!s || !p) return *error = f + " of a non-string", std::nullopt;
    if (f == "starts_with") return boolean(s->compare(0, p->size(), *p) == 0);
    if (f == "ends_with")
      return boolean(s->size() >= p->size() &&
                     s->compare(s->size() - p->size(), p->size(), *p) == 0);
    // 1-based character position of the first occurrence, 0 when absent.
    size_t at = s->find(*p);
    if (at == std::string::npos) return Value(int64_t{0});
    int64_t chars = 1;
    for (size_t i = 0; i < at; ++i) chars += (static_cast<unsigned char>((*s)[i]) & 0xC0) != 0x80;
    return Value(chars);
  }
  if (f == "date_trunc") {
    const auto* part = std::get_if<std::string>(&a[0]);
    if (!part) return *error = "date_trunc of a non-string part", std::nullopt;
    std::string c = std::holds_alternative<int64_t>(a[1])
                        ? civilFromDays(std::get<int64_t>(a[1]))
                        : std::get<std::string>(a[1]).substr(0, 10);
    int y = std::stoi(c.substr(0, 4)), m = std::stoi(c.substr(5, 2));
    int64_t days = daysFromCivil(y, m, std::stoi(c.substr(8, 2)));
    int64_t out;
    if (*part == "year")
      out = daysFromCivil(y, 1, 1);
    else if (*part == "quarter")
      out = daysFromCivil(y, (m - 1) / 3 * 3 + 1, 1);
    else if (*part == "month")
      out = daysFromCivil(y, m, 1);
    else if (*part == "week")  // ISO weeks start on Monday; 1970-01-01 was a Thursday
      out = days - ((days % 7 + 7 + 3) % 7);
    else if (*part == "day")
      out = days;
    else
      return *error = "date_trunc to " + *part + " is not supported", std::nullopt;
    if (std::holds_alternative<int64_t>(a[1])) return Value(out);
    return Value(civilFromDays(out) + " 00:00:00");
  }
  if (f == "+" || f == "-" || f == "*" || f == "/" || f == "%") {
    if (result.kind == TypeKind::Date && (f == "+" || f == "-")) {
      bool firstDate = std::holds_alternative<int64_t>(a[0]);
      const Value& d = firstDate ? a[0] : a[1];
      const Value& iv = firstDate ? a[1] : a[0];
      if (auto s = std::get_if<std::string>(&iv)) {
        const auto* days = std::get_if<int64_t>(&d);
        if (!days) return *error = "date arithmetic on a non-date", std::nullopt;
        return dateShift(*days, *s, f == "-" ? -1 : 1, error);
      }
    }
    if (!isNumber(a[0]) || !isNumber(a[1])) {
      *error = "arithmetic on non-numbers";
      return std::nullopt;
    }
    if (integral(result) && std::holds_alternative<int64_t>(a[0]) &&
        std::holds_alternative<int64_t>(a[1])) {
      int64_t x = std::get<int64_t>(a[0]), y = std::get<int64_t>(a[1]);
      if ((f == "/" || f == "%") && y == 0) return null();  // division by zero: NULL here
      if (f == "+") return Value(x + y);
      if (f == "-") return Value(x - y);
      if (f == "*") return Value(x * y);
      if (f == "/") return Value(x / y);
      return Value(x % y);
    }
    double x = asDouble(a[0]), y = asDouble(a[1]);
    if ((f == "/" || f == "%") && y == 0) return null();
    if (f == "+") return Value(x + y);
    if (f == "-") return Value(x - y);
    if (f == "*") return Value(x * y);
    if (f == "/") return Value(x / y);
    return Value(std::fmod(x, y));
  }
  if (f == "negate") {
    if (auto i = std::get_if<int64_t>(&a[0])) return Value(-*i);
    return Value(-asDouble(a[0]));
  }
  if (f == "abs") {
    if (auto i = std::get_if<int64_t>(&a[0])) return Value(*i < 0 ? -*i : *i);
    return Value(std::fabs(asDouble(a[0])));
  }
  if (f == "floor" || f == "ceil" || f == "round") {
    if (std::holds_alternative<int64_t>(a[0])) return a[0];
    double x = asDouble(a[0]);
    if (f == "floor") return Value(std::floor(x));
    if (f == "ceil") return Value(std::ceil(x));
    double scale = a.size() > 1 ? std::pow(10.0, asDouble(a[1])) : 1.0;
    return Value(std::round(x * scale) / scale);
  }
  if (f == "||") {
    std::string out;
    for (const auto& v : a) {
      std::string e;
      auto s = castTo(v, Type::of(TypeKind::Varchar), &e);
      out += std::get<std::string>(*s);
    }
    return Value(out);
  }
  if (f == "power") {
    const double r = std::pow(asDouble(a[0]), asDouble(a[1]));
    return std::isnan(r) ? null() : Value(r);
  }
  if (f == "upper" || f == "lower" || f == "trim" || f == "ltrim" || f == "rtrim" ||
      f == "length" || f == "substring") {
    const auto* s = std::get_if<std::string>(&a[0]);
    if (!s) {
      *error = f + " of a non-string";
      return std::nullopt;
    }
    std::string x = *s;
    if (f == "length") return Value(static_cast<int64_t>(x.size()));
    if (f == "upper")
      for (auto& c : x) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (f == "lower")
      for (auto& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (f == "trim" || f == "ltrim" || f == "rtrim") {
      std::string chars = " ";
      if (a.size() > 1) {
        const auto* c = std::get_if<std::string>(&a[1]);
        if (!c) {
          *error = f + " of non-string characters";
          return std::nullopt;
        }
        chars = *c;
      }
      const size_t b = f == "rtrim" ? 0 : x.find_first_not_of(chars);
      const size_t e = f == "ltrim" ? x.size() - 1 : x.find_last_not_of(chars);
      x = b == std::string::npos || e == std::string::npos || x.empty() ? ""
                                                                        : x.substr(b, e - b + 1);
    }
    if (f == "substring") {
      int64_t from = std::get<int64_t>(a[1]);
      int64_t len = a.size() > 2 ? std::get<int64_t>(a[2]) : static_cast<int64_t>(x.size());
      int64_t start = std::max<int64_t>(from, 1), end = from + len;
      x = end <= start || start > static_cast<int64_t>(x.size())
              ? ""
              : x.substr(static_cast<size_t>(start - 1), static_cast<size_t>(end - start));
    }
    return Value(x);
  }
  if (f == "extract") {
    std::string field = std::get<std::string>(a[0]);
    std::string c = std::holds_alternative<int64_t>(a[1])
                        ? civilFromDays(std::get<int64_t>(a[1]))
                        : std::get<std::string>(a[1]).substr(0, 10);
    if (field == "year") return Value(static_cast<int64_t>(std::stoi(c.substr(0, 4))));
    if (field == "month") return Value(static_cast<int64_t>(std::stoi(c.substr(5, 2))));
    if (field == "day") return Value(static_cast<int64_t>(std::stoi(c.substr(8, 2))));
    *error = "extract of " + field + " is not supported";
    return std::nullopt;
  }
  *error = "function " + f + " is not supported by the evaluator";
  return std::nullopt;
}

std::string sqlLiteral(const Value& v, const Type& t) {
  if (isNull(v)) return "NULL";
  if (t.kind == TypeKind::Date && std::holds_alternative<int64_t>(v))
    return "'" + civilFromDays(std::get<int64_t>(v)) + "'";
  if (auto i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (auto d = std::get_if<double>(&v)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    return buf;
  }
  std::string s = std::get<std::string>(v), out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace rfguard::rt
