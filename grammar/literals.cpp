#include "grammar/literals.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "grammar/binder.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

ExprPtr integerLiteral(const std::string& text, SourceLoc loc) {
  std::string digits = text;
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  if (digits.size() < 10 || (digits.size() == 10 && digits <= "2147483647"))
    return makeLiteral(digits, Type::of(TypeKind::Int), loc);
  if (digits.size() < 19 || (digits.size() == 19 && digits <= "9223372036854775807"))
    return makeLiteral(digits, Type::of(TypeKind::BigInt), loc);
  int p = std::min<int>(38, static_cast<int>(digits.size()));
  return makeLiteral(digits, Type::of(TypeKind::Decimal, p, 0), loc);
}

ExprPtr decimalLiteral(const std::string& text, SourceLoc loc) {
  std::string v = text;
  if (v.front() == '.') v = "0" + v;
  if (v.back() == '.') v.pop_back();
  auto dot = v.find('.');
  int scale = dot == std::string::npos ? 0 : static_cast<int>(v.size() - dot - 1);
  int whole = static_cast<int>(dot == std::string::npos ? v.size() : dot);
  int precision = std::min(38, std::max(1, whole + scale));
  return makeLiteral(v, Type::of(TypeKind::Decimal, precision, std::min(scale, precision)), loc);
}

std::string unquote(const std::string& text, char quote) {
  std::string out;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    out += text[i];
    if (text[i] == quote && i + 2 < text.size() && text[i + 1] == quote) ++i;
  }
  return out;
}

namespace {
bool digitsAt(const std::string& v, size_t pos, size_t n) {
  if (pos + n > v.size()) return false;
  return std::all_of(v.begin() + pos, v.begin() + pos + n, ::isdigit);
}
int num(const std::string& v, size_t pos, size_t n) {
  return std::atoi(v.substr(pos, n).c_str());
}
}  // namespace

bool validDate(const std::string& v) {
  if (v.size() != 10 || v[4] != '-' || v[7] != '-' || !digitsAt(v, 0, 4) || !digitsAt(v, 5, 2) ||
      !digitsAt(v, 8, 2))
    return false;
  int y = num(v, 0, 4), m = num(v, 5, 2), d = num(v, 8, 2);
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1 || d > days[m - 1]) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && d == 29 && !leap);
}

bool validTimestamp(const std::string& v) {
  if (v.size() == 10) return validDate(v);
  if (v.size() < 19 || !validDate(v.substr(0, 10)) || v[10] != ' ') return false;
  if (!digitsAt(v, 11, 2) || v[13] != ':' || !digitsAt(v, 14, 2) || v[16] != ':' ||
      !digitsAt(v, 17, 2))
    return false;
  if (num(v, 11, 2) > 23 || num(v, 14, 2) > 59 || num(v, 17, 2) > 59) return false;
  if (v.size() == 19) return true;
  return v[19] == '.' && v.size() > 20 && digitsAt(v, 20, v.size() - 20);
}

bool validIntervalUnit(const std::string& unit) {
  for (const char* u : {"year", "month", "day", "hour", "minute", "second", "quarter", "week"})
    if (unit == u) return true;
  return false;
}

std::string typeText(rfsql::RfSqlParser::TypeNameContext* ctx) {
  if (!ctx->name) {  // DOUBLE PRECISION?, DATE, TIMESTAMP
    const size_t type = ctx->getStart()->getType();
    return type == P::DOUBLE ? "double" : type == P::DATE ? "date" : "timestamp";
  }
  std::string out = Binder::identText(ctx->name);
  if (ctx->varying) out += " varying";  // character varying(n), char varying(n)
  const auto& nums = ctx->sizes;
  if (!nums.empty()) {
    out += "(" + nums[0]->getText();
    if (nums.size() > 1) out += "," + nums[1]->getText();
    out += ")";
  }
  return out;
}

}  // namespace rfguard
