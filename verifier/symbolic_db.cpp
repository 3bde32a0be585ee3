// Databases to and from the symbolic encoding (verifier/symbolic_encode.h):
// a solver's model as the database it describes, and a database pinned as the
// encoding's tables.
#include <cstdio>
#include <map>
#include <optional>

#include "verifier/symbolic_encode.h"

namespace rfguard::sym {

namespace {

/// A short string strictly between `lo` and `hi` in byte order (either may be
/// absent: no bound), preferring printable characters; nullopt when there is none.
std::optional<std::string> between(const std::optional<std::string>& lo,
                                   const std::optional<std::string>& hi) {
  const std::string base = lo ? *lo : "";
  static const std::string kChars = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (char c : kChars)
    if (!hi || base + c < *hi) return base + c;
  for (int c = 1; c < 256; ++c)
    if (!hi || base + static_cast<char>(c) < *hi) return base + static_cast<char>(c);
  return std::nullopt;
}

}  // namespace

/// The model's database: every table the plans read, its present rows. A text
/// code becomes its constant, or a string in its place among them; nullopt when
/// no string fits (the encoding's dense order has no such gap in byte order).
std::optional<rt::Database> decode(const Encoder& enc, const z3::model& m) {
  auto num = [&](const z3::expr& e) { return m.eval(e, true).get_numeral_int64(); };
  // Every code in the model, with the constant it is, if any.
  std::map<int64_t, std::optional<std::string>> codes;
  for (const auto& [s, code] : enc.textCodes) codes[num(code)] = s;
  for (const auto& [name, t] : enc.tables)
    for (const auto& row : t.rows)
      for (size_t j = 0; j < t.columns.size(); ++j)
        if (t.kinds[j] == Kind::Text) codes.try_emplace(num(row.cols[j].v));
  std::map<int64_t, std::string> text;
  std::optional<std::string> last;  // the string of the code before
  for (auto it = codes.begin(); it != codes.end(); ++it) {
    if (it->second) {
      text[it->first] = *it->second;
      last = it->second;
      continue;
    }
    std::optional<std::string> next;  // the next constant above
    for (auto up = std::next(it); up != codes.end() && !next; ++up) next = up->second;
    auto s = between(last, next);
    if (!s) return std::nullopt;
    text[it->first] = *s;
    last = s;
  }
  rt::Database db;
  for (const auto& [name, t] : enc.tables) {
    rt::Table& out = db[name];
    out.columns = t.columns;
    for (const auto& row : t.rows) {
      if (!m.eval(row.present, true).is_true()) continue;
      rt::Row r;
      for (size_t j = 0; j < t.columns.size(); ++j) {
        if (m.eval(row.cols[j].null, true).is_true()) {
          r.push_back(rt::null());
          continue;
        }
        if (t.kinds[j] == Kind::Real) {  // the evaluator's double
          std::string d = m.eval(row.cols[j].v, true).get_decimal_string(20);
          if (!d.empty() && d.back() == '?') d.pop_back();
          r.push_back(rt::Value(std::stod(d)));
          continue;
        }
        const int64_t v = num(row.cols[j].v);
        r.push_back(t.kinds[j] == Kind::Text ? rt::Value(text[v]) : rt::Value(v));
      }
      out.rows.push_back(std::move(r));
    }
  }
  return db;
}

/// Fixes the encoding's tables to `db`'s rows: a row of `db` per symbolic row,
/// the rest absent. False when a table has more rows than the encoding.
bool fix(z3::context& c, Encoder& enc, z3::solver& s, const rt::Database& db) {
  for (auto& [name, t] : enc.tables) {
    auto it = db.find(name);
    const size_t n = it == db.end() ? 0 : it->second.rows.size();
    if (n > t.rows.size()) return false;
    for (size_t i = 0; i < t.rows.size(); ++i) {
      const Row& row = t.rows[i];
      if (i >= n) {
        s.add(!row.present);
        continue;
      }
      s.add(row.present);
      const rt::Table& table = it->second;
      for (size_t j = 0; j < t.columns.size(); ++j) {
        size_t at = 0;
        while (at < table.columns.size() && table.columns[at] != t.columns[j]) ++at;
        if (at == table.columns.size()) return false;
        const rt::Value& v = table.rows[i][at];
        if (rt::isNull(v)) {
          s.add(row.cols[j].null);
        } else if (auto x = std::get_if<int64_t>(&v)) {
          s.add(!row.cols[j].null &&
                asReal(row.cols[j].v) == c.real_val(std::to_string(*x).c_str()));
        } else if (auto d = std::get_if<double>(&v)) {
          // A decimal column's value to its scale; a double's as printed.
          char buf[64];
          const Type& type = t.types[j];
          if (type.kind == TypeKind::Decimal)
            std::snprintf(buf, sizeof buf, "%.*f", type.scale, *d);
          else
            std::snprintf(buf, sizeof buf, "%.17g", *d);
          if (std::string(buf).find_first_of("eEn") != std::string::npos) return false;
          s.add(!row.cols[j].null && asReal(row.cols[j].v) == c.real_val(buf));
        } else if (auto str = std::get_if<std::string>(&v)) {
          s.add(!row.cols[j].null && row.cols[j].v == enc.textCode(*str));
        } else {
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace rfguard::sym
