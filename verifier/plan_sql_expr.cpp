// The oracles' SQL for expressions (plan_sql_printer.h).
#include "verifier/plan_sql_printer.h"
#include "verifier/sql_forms.h"

namespace rfguard::plan_sql {

std::string q(const std::string& id) {
  return sqlIdentifier(id);
}

std::optional<std::string> likeToGlob(const std::string& like, const std::string& escape) {
  if (escape.size() > 1) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < like.size(); ++i) {
    char c = like[i];
    if (!escape.empty() && c == escape[0]) {
      if (++i == like.size()) return std::nullopt;
      c = like[i];
    } else if (c == '%') {
      out += '*';
      continue;
    } else if (c == '_') {
      out += '?';
      continue;
    }
    if (c == '*' || c == '?' || c == '[')
      out += std::string("[") + c + "]";
    else
      out += c;
  }
  return out;
}

std::string Printer::lit(const Expr& e) {
  if (e.isNull) return "NULL";
  std::string err;
  auto v = rt::literalValue(e, &err);
  if (!v) return fail(err), "NULL";
  if (e.type.kind == TypeKind::Date) return std::to_string(std::get<int64_t>(*v));
  if (e.type.kind == TypeKind::Interval) return fail("interval arithmetic"), "NULL";
  return rt::sqlLiteral(*v, e.type);
}

std::string Printer::ex(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Column: {
      auto it = rename.find(e.name);
      return it == rename.end() ? q(e.name) : it->second;
    }
    case ExprKind::Literal:
      return lit(e);
    case ExprKind::Cast: {
      if (f.spelling)
        if (auto s = f.spelling->spell(e, [this](const Expr& x) { return ex(x); })) return *s;
      const Type& t = e.type;
      if (t.kind == TypeKind::Boolean) {
        // As the evaluator casts (evaluation/values.cpp castTo); SQLite's own
        // CAST(x AS boolean) is a numeric affinity that keeps 5 as 5.
        const std::string x = ex(*e.args[0]);
        if (e.args[0]->type.isString())
          return "(CASE WHEN lower(" + x + ") IN ('true', 't', '1') THEN 1 WHEN lower(" + x +
                 ") IN ('false', 'f', '0') THEN 0 END)";
        return "(CASE WHEN " + x + " IS NULL THEN NULL WHEN " + x + " <> 0 THEN 1 ELSE 0 END)";
      }
      std::string to = t.isString()    ? "VARCHAR"
                       : t.isInteger() ? "BIGINT"
                       : t.isNumeric() ? "DOUBLE"
                                       : "";
      if (to.empty()) return fail("CAST to " + t.toString()), "NULL";
      return "CAST(" + ex(*e.args[0]) + " AS " + to + ")";
    }
    case ExprKind::Subquery: {
      std::string sub = node(*e.plan);
      if (e.subquery == SubqueryKind::Exists) return "EXISTS (" + sub + ")";
      if (e.subquery == SubqueryKind::Scalar) return "(" + sub + ")";
      return "(" + ex(*e.args[0]) + " IN (" + sub + "))";
    }
    case ExprKind::Call:
      break;
  }
  // An engine's own spelling first (ir/sql_spelling.h), else SQLite's.
  if (f.spelling)
    if (auto s = f.spelling->spell(e, [this](const Expr& x) { return ex(x); })) return *s;
  const std::string& n = e.name;
  if ((n == "+" || n == "-") && e.type.kind == TypeKind::Date && e.args.size() == 2)
    for (size_t i = 0; i < 2; ++i)
      if (e.args[i]->type.kind == TypeKind::Interval && e.args[i]->kind == ExprKind::Literal)
        return sqliteDateShift(ex(*e.args[1 - i]), e.args[i]->value, n == "+" ? 1 : -1);
  std::vector<std::string> a;
  for (const auto& x : e.args) a.push_back(ex(*x));
  auto join = [&](const std::string& sep) {
    std::string s;
    for (size_t i = 0; i < a.size(); ++i) s += (i ? sep : "") + a[i];
    return s;
  };
  static const std::map<std::string, std::string> kInfix = {
      {"and", " AND "},
      {"or", " OR "},
      {"=", " = "},
      {"<>", " <> "},
      {"<", " < "},
      {"<=", " <= "},
      {">", " > "},
      {">=", " >= "},
      {"+", " + "},
      {"-", " - "},
      {"*", " * "},
      {"/", " / "},
      {"%", " % "},
      {"||", " || "},
      {"<=>", " IS NOT DISTINCT FROM "},
      {"is_distinct_from", " IS DISTINCT FROM "}};
  // Integer division truncates (the evaluator, SQLite); some engines' `/`
  // (DuckDB's) divides exactly, so write the truncation out: a - a % b is a
  // multiple of b.
  if (n == "/" && a.size() == 2 && e.type.isInteger())
    return "CAST((" + a[0] + " - " + a[0] + " % " + a[1] + ") / " + a[1] + " AS BIGINT)";
  // LIKE is case-sensitive: SQLite's ignores ASCII case, so a constant pattern
  // becomes a GLOB there, and any other needs case_sensitive_like (the oracle
  // sets it; a script says so). ILIKE compares lower-cased sides.
  // SQLite has no SIMILAR TO or regexp_matches.
  const bool caseSensitiveLike = f.spelling && f.spelling->likeIsCaseSensitive();
  if (n == "like" && !caseSensitiveLike && e.args[1]->kind == ExprKind::Literal &&
      !e.args[1]->isNull &&
      (a.size() < 3 || (e.args[2]->kind == ExprKind::Literal && !e.args[2]->isNull)))
    if (auto glob = likeToGlob(e.args[1]->value, a.size() > 2 ? e.args[2]->value : ""))
      return "(" + a[0] + " GLOB " + rt::sqlLiteral(rt::Value(*glob), Type::of(TypeKind::Varchar)) +
             ")";
  if (n == "like" || n == "ilike") {
    std::string s =
        n == "like" ? a[0] + " LIKE " + a[1] : "lower(" + a[0] + ") LIKE lower(" + a[1] + ")";
    return "(" + s + (a.size() > 2 ? " ESCAPE " + a[2] : "") + ")";
  }
  if (n == "similar_to" || n == "regexp_matches") return fail(n + " (no SQLite form)"), "NULL";
  if (n == "starts_with") return "(substr(" + a[0] + ", 1, length(" + a[1] + ")) = " + a[1] + ")";
  if (n == "ends_with")
    return "(length(" + a[1] + ") = 0 OR substr(" + a[0] + ", -length(" + a[1] + ")) = " + a[1] +
           ")";
  if (n == "strpos") return "instr(" + a[0] + ", " + a[1] + ")";
  if (n == "date_trunc") {
    const std::string part = e.args[0]->kind == ExprKind::Literal ? e.args[0]->value : "";
    const char* start = part == "year"    ? "'start of year'"
                        : part == "month" ? "'start of month'"
                                          : nullptr;
    if (part == "day") return a[1];
    if (!start || e.args[1]->type.kind != TypeKind::Date)
      return fail("date_trunc to " + (part.empty() ? std::string("a computed part") : part)),
             "NULL";
    return "CAST(julianday(date(" + a[1] + " * 86400, 'unixepoch', " + start +
           ")) - 2440587.5 AS INTEGER)";
  }
  if (auto it = kInfix.find(n); it != kInfix.end()) {
    return "(" + join(it->second) + ")";
  }
  if (n == "not") return "(NOT " + a[0] + ")";
  if (n == "negate") return "(-" + a[0] + ")";
  if (n == "is_null") return "(" + a[0] + " IS NULL)";
  if (n == "is_not_null") return "(" + a[0] + " IS NOT NULL)";
  if (n == "in") {
    std::vector<std::string> rest(a.begin() + 1, a.end());
    std::string s;
    for (size_t i = 0; i < rest.size(); ++i) s += (i ? ", " : "") + rest[i];
    return "(" + a[0] + " IN (" + s + "))";
  }
  if (n == "case") {
    std::string s = "CASE";
    size_t i = 0;
    for (; i + 1 < a.size(); i += 2) s += " WHEN " + a[i] + " THEN " + a[i + 1];
    if (i < a.size()) s += " ELSE " + a[i];
    return s + " END";
  }
  if (n == "concat") {
    std::string s;
    for (size_t i = 0; i < a.size(); ++i) s += (i ? " || " : "") + ("coalesce(" + a[i] + ", '')");
    return "(" + s + ")";
  }
  if (n == "row") return "(" + join(", ") + ")";
  // The evaluator stops where the divisor is 0: elsewhere it is the divisor.
  if (n == "nonzero_divisor") return a[0];
  if (n == "recursion_done") return "(1 = 1)";  // evaluated only where the recursion ended
  if (n == "nvl") return "ifnull(" + join(", ") + ")";
  if (n == "substring") return "substr(" + join(", ") + ")";
  if (n == "extract") {
    std::string field = e.args[0]->value;
    std::string fmt = field == "year" ? "%Y" : field == "month" ? "%m" : field == "day" ? "%d" : "";
    if (fmt.empty()) return fail("extract of " + field), "NULL";
    return "CAST(strftime('" + fmt + "', " + a[1] + " * 86400, 'unixepoch') AS INTEGER)";
  }
  for (const char* same : {"coalesce", "ifnull", "nullif", "abs", "round", "upper", "lower", "trim",
                           "ltrim", "rtrim", "length", "power"})
    if (n == same) return n + "(" + join(", ") + ")";
  fail("function " + n);
  return "NULL";
}

}  // namespace rfguard::plan_sql
