// DuckDB's printed expressions translated into rfguard's plan JSON expressions,
// names resolved against the columns DuckDB's operators output.
#include <algorithm>
#include <cctype>

#include "engines/duckdb/import_state.h"
#include "ir/comparison.h"

namespace rfguard::duckdb_import {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Json nullLiteral() {
  return Json{{"literal", nullptr}, {"type", "unknown"}};
}

/// A LIKE pattern matching `s` literally, or nullopt when `s` holds a wildcard.
std::optional<std::string> literalPattern(const std::string& s) {
  if (s.find_first_of("%_") != std::string::npos) return std::nullopt;
  return s;
}

/// DuckDB's interval text ("3 days", "1 year") as rfguard writes it ("3 day").
std::optional<std::string> interval(const std::string& s) {
  std::string t = lower(s);
  size_t sp = t.find(' ');
  if (sp == std::string::npos) return std::nullopt;
  std::string n = t.substr(0, sp), unit = t.substr(sp + 1);
  if (!unit.empty() && unit.back() == 's') unit.pop_back();
  if (unit != "day" && unit != "month" && unit != "year") return std::nullopt;
  for (char c : n)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-') return std::nullopt;
  return n + " " + unit;
}

/// Functions DuckDB and rfguard both know, under the same name.
const std::set<std::string>& sameName() {
  static const std::set<std::string> s = {"and",
                                          "or",
                                          "not",
                                          "=",
                                          "<>",
                                          "<",
                                          "<=",
                                          ">",
                                          ">=",
                                          "<=>",
                                          "is_distinct_from",
                                          "is_null",
                                          "is_not_null",
                                          "like",
                                          "in",
                                          "+",
                                          "-",
                                          "*",
                                          "/",
                                          "%",
                                          "negate",
                                          "||",
                                          "case",
                                          "coalesce",
                                          "ifnull",
                                          "nullif",
                                          "abs",
                                          "round",
                                          "floor",
                                          "ceil",
                                          "ceiling",
                                          "substring",
                                          "upper",
                                          "lower",
                                          "trim",
                                          "length",
                                          "concat",
                                          "count",
                                          "sum",
                                          "avg",
                                          "min",
                                          "max",
                                          "var_samp",
                                          "var_pop",
                                          "stddev_samp",
                                          "stddev_pop",
                                          "row_number",
                                          "rank",
                                          "dense_rank"};
  return s;
}

}  // namespace

const Col* Importer::column(const TextExprPtr& e, const Cols& scope, const std::string& ptr) {
  if (e->kind == TextExpr::Kind::Ref) {
    if (e->index < 0 || static_cast<size_t>(e->index) >= scope.size()) return nullptr;
    const Col& c = scope[e->index];
    if (c.uncertain && !ptr.empty())
      loss(ptr, e->text +
                    " counts columns after a join's build side, which DuckDB does not "
                    "print: it is taken as " +
                    c.id);
    return &c;
  }
  if (e->kind == TextExpr::Kind::Name) {
    std::string name = e->text, table;
    if (auto dot = name.rfind('.'); dot != std::string::npos) {
      table = name.substr(0, dot);
      if (auto d2 = table.rfind('.'); d2 != std::string::npos) table = table.substr(d2 + 1);
      name = name.substr(dot + 1);
    }
    std::vector<const Col*> hits;
    for (const auto& c : scope)
      if (c.name == name && (table.empty() || c.table.empty() || c.table == table))
        hits.push_back(&c);
    if (hits.empty())  // a key's other name across an inner equi-join
      for (const auto& c : scope)
        for (const auto& a : c.aliases)
          if (a == name && (hits.empty() || hits.back() != &c)) hits.push_back(&c);
    if (hits.size() > 1) {
      // The same column may appear twice (a projection of it), or columns an
      // inner equi-join made equal; other ones are ambiguous.
      bool same = true;
      for (const Col* h : hits)
        if (h->id != hits[0]->id &&
            std::find(hits[0]->equal.begin(), hits[0]->equal.end(), h->id) == hits[0]->equal.end())
          same = false;
      if (!same && !ptr.empty())
        loss(ptr, "\"" + e->text + "\" names " + std::to_string(hits.size()) +
                      " columns here (DuckDB prints names unqualified): taken as " + hits[0]->id);
    }
    if (hits.empty() && name == "rowid") {
      // DuckDB's row id, read without being projected: a hidden column of the scan.
      for (const auto& c : scope) {
        if (c.table.empty() || c.origin.empty()) continue;
        std::string alias = c.origin.substr(0, c.origin.find('.'));
        rowidCols.push_back(makeCol(alias + ".rowid", "rowid", c.table, alias + ".rowid"));
        rowidScans.insert(alias);
        return &rowidCols.back();
      }
    }
    return hits.empty() ? nullptr : hits[0];
  }
  if (e->kind == TextExpr::Kind::Call && !e->window) {
    // An aggregate's result, printed by its function (sum(#1), sum(memory.main.t.v)).
    std::string f = e->text == "count_star" ? "count" : e->text;
    std::vector<const Col*> hits;
    for (const auto& c : scope)
      if (!c.agg.empty() && c.agg == f) hits.push_back(&c);
    for (const auto& c : scope)
      if (c.name == e->text + "(" + ")" && hits.empty()) hits.push_back(&c);
    if (hits.size() == 1) return hits[0];
    if (hits.size() > 1 && !ptr.empty()) {
      loss(ptr, e->text + "(...) matches " + std::to_string(hits.size()) +
                    " aggregates here: taken as " + hits[0]->id);
      return hits[0];
    }
  }
  return nullptr;
}

std::string Importer::tableColumn(const Col& c) const {
  if (c.origin.empty()) return "";
  auto dot = c.origin.find('.');
  auto it = aliasTable.find(c.origin.substr(0, dot));
  return it == aliasTable.end() ? "" : it->second + "." + c.origin.substr(dot + 1);
}

bool Importer::hintedPair(const TextExprPtr& l, const Cols& ls, const TextExprPtr& r,
                          const Cols& rs, const Col*& a, const Col*& b) {
  if (hints.empty() || l->kind != TextExpr::Kind::Name || r->kind != TextExpr::Kind::Name)
    return false;
  auto named = [](const TextExprPtr& e, const Cols& scope) {
    std::string n = e->text.substr(e->text.rfind('.') + 1);
    std::vector<const Col*> out;
    for (const auto& c : scope)
      if (c.name == n && !c.id.empty()) out.push_back(&c);
    return out;
  };
  auto lc = named(l, ls), rc = named(r, rs);
  if (lc.size() < 2 && rc.size() < 2) return false;  // nothing ambiguous
  std::vector<std::pair<const Col*, const Col*>> fits;
  for (const Col* x : lc)
    for (const Col* y : rc) {
      std::string tx = tableColumn(*x), ty = tableColumn(*y);
      if (!tx.empty() && !ty.empty() && (hints.count({tx, ty}) || hints.count({ty, tx})))
        fits.push_back({x, y});
    }
  if (fits.size() != 1) return false;
  a = fits[0].first;
  b = fits[0].second;
  return true;
}

std::optional<Json> Importer::exprText(const std::string& text, const Cols& scope,
                                       const std::string& ptr) {
  std::string err;
  TextExprPtr e = parseExpr(text, err);
  if (!e) {
    error(ptr, "cannot read " + clipQuoted(text) + ": " + err);
    return std::nullopt;
  }
  return expr(e, scope, ptr);
}

std::optional<Json> Importer::expr(const TextExprPtr& e, const Cols& scope,
                                   const std::string& ptr) {
  using K = TextExpr::Kind;
  switch (e->kind) {
    case K::Name:
    case K::Ref: {
      const Col* c = column(e, scope, ptr);
      if (!c || c->id.empty()) {
        loss(ptr, "\"" + e->text +
                      "\" names no column DuckDB's operator below outputs: the "
                      "expression that reads it is left out");
        return std::nullopt;
      }
      return Json{{"column", c->id}};
    }
    case K::Integer: {
      long long v = 0;
      try {
        v = std::stoll(e->text);
      } catch (...) {
        return Json{{"literal", e->text}, {"type", "decimal(38,0)"}};
      }
      bool small = v >= -2147483648LL && v <= 2147483647LL;
      return Json{{"literal", v}, {"type", small ? "int" : "bigint"}};
    }
    case K::Decimal: {
      if (e->text.find_first_of("eE") != std::string::npos)
        return Json{{"literal", e->text}, {"type", "double"}};
      size_t dot = e->text.find('.');
      int scale = static_cast<int>(e->text.size() - dot - 1);
      int digits = 0;
      for (char c : e->text) digits += std::isdigit(static_cast<unsigned char>(c)) ? 1 : 0;
      return Json{{"literal", e->text},
                  {"type", "decimal(" + std::to_string(std::max(digits, scale + 1)) + "," +
                               std::to_string(scale) + ")"}};
    }
    case K::String:
      return Json{{"literal", e->text}, {"type", "varchar"}};
    case K::Null:
      return nullLiteral();
    case K::Boolean:
      return Json{{"literal", e->text == "true"}, {"type", "boolean"}};
    case K::Subquery: {
      // A subquery's result column; a MARK join's mark is consumed by FILTER.
      std::vector<const Col*> hits;
      for (const auto& c : scope)
        if (c.subquery && !c.id.empty()) hits.push_back(&c);
      if (hits.empty()) {
        error(ptr,
              "SUBQUERY names no subquery result here (a MARK join's mark used in an "
              "expression is not imported)");
        return std::nullopt;
      }
      if (hits.size() > 1)
        loss(ptr, "SUBQUERY: the subquery side outputs " + std::to_string(hits.size()) +
                      " columns: taken as its first, " + hits[0]->id);
      return Json{{"column", hits[0]->id}};
    }
    case K::Bloom:
      error(ptr, "BF(...) outside a dynamic filter");
      return std::nullopt;
    case K::Cast: {
      std::string type = typeFromDuckDb(e->type);
      const TextExprPtr& a = e->args[0];
      if (a->kind == K::String && (type == "date" || type == "timestamp"))
        return Json{{"literal", a->text}, {"type", type}};
      if (a->kind == K::String && type == "interval") {
        if (auto iv = interval(a->text)) return Json{{"literal", *iv}, {"type", "interval"}};
        loss(ptr, "interval '" + a->text + "' is not imported");
        return std::nullopt;
      }
      auto inner = expr(a, scope, ptr);
      if (!inner) return std::nullopt;
      if (type.empty()) {
        loss(ptr, "CAST to " + e->type + " is not imported: the cast is left out");
        return inner;
      }
      return Json{{"cast", *inner}, {"type", type}};
    }
    case K::Call:
      break;
  }
  // An aggregate already computed below, named by its printed form.
  if (!e->window && e->text != "in" && e->text != "like") {
    if (const Col* c = column(e, scope, "")) {
      if (!c->agg.empty()) return Json{{"column", c->id}};
    }
  }
  std::string f = lower(e->text);
  std::vector<TextExprPtr> argTexts = e->args;
  if (f == "case") {
    // DuckDB guards a scalar subquery with CASE WHEN count > 1 THEN error(...):
    // a branch that only raises changes no result; it is left out.
    std::vector<TextExprPtr> kept;
    for (size_t i = 0; i + 1 < argTexts.size(); i += 2) {
      const auto& then = argTexts[i + 1];
      if (then->kind == K::Call && lower(then->text) == "error") continue;
      kept.push_back(argTexts[i]);
      kept.push_back(then);
    }
    if (argTexts.size() % 2) {
      if (kept.empty()) return expr(argTexts.back(), scope, ptr);
      kept.push_back(argTexts.back());
    }
    argTexts = kept;
  }
  std::vector<Json> args;
  for (const auto& a : argTexts) {
    if (a->kind == K::Bloom) {
      error(ptr, "BF(...) outside a dynamic filter");
      return std::nullopt;
    }
    auto t = expr(a, scope, ptr);
    if (!t) return std::nullopt;
    args.push_back(*t);
  }
  // Integral compression (DuckDB's own, value - c) and string compression are
  // order-preserving encodings: with offset 0 the value itself.
  if (f.rfind("__internal_compress_integral", 0) == 0 ||
      f.rfind("__internal_decompress_integral", 0) == 0) {
    if (args.size() == 2 && args[1].contains("literal") && args[1]["literal"] == 0) return args[0];
    if (args.size() == 2) {
      bool down = f.rfind("__internal_compress", 0) == 0;
      return Json{{"call", down ? "-" : "+"}, {"args", args}};
    }
  }
  if (f.rfind("__internal_compress_string", 0) == 0 ||
      f.rfind("__internal_decompress_string", 0) == 0) {
    if (args.size() == 1) return args[0];
  }
  auto pattern = [&](const char* pre, const char* post) -> std::optional<Json> {
    if (e->args.size() != 2 || e->args[1]->kind != K::String) return std::nullopt;
    auto lit = literalPattern(e->args[1]->text);
    if (!lit) return std::nullopt;
    return Json{{"call", "like"},
                {"args", {args[0], {{"literal", pre + *lit + post}, {"type", "varchar"}}}}};
  };
  if (f == "prefix" || f == "starts_with") {
    if (auto j = pattern("", "%")) return j;
  } else if (f == "suffix" || f == "ends_with") {
    if (auto j = pattern("%", "")) return j;
  } else if (f == "contains") {
    if (auto j = pattern("%", "%")) return j;
  } else if (f == "ilike" && args.size() == 2) {
    return Json{
        {"call", "like"},
        {"args",
         {{{"call", "lower"}, {"args", {args[0]}}}, {{"call", "lower"}, {"args", {args[1]}}}}}};
  } else if (f == "count_star") {
    return Json{{"call", "count"}, {"args", Json::array()}};
  } else if (f == "date_part" || f == "datepart") {
    f = "extract";
  }
  if (!sameName().count(f) && f != "extract") {
    loss(ptr, "function " + e->text + "() is not in rfguard's catalog: the expression is left out");
    return std::nullopt;
  }
  Json j{{"call", f}, {"args", args}};
  if (e->distinct) j["distinct"] = true;
  const ComparisonInfo* cmp = comparisonNamed(f);
  if (((cmp && cmp->kind != Comparison::Distinct) || f == "in") && args.size() >= 2 &&
      args[0].contains("column"))
    for (size_t i = 1; i < args.size(); ++i)
      if (args[i].contains("literal") && args[i].contains("type"))
        for (const auto& c : scope)
          if (c.id == args[0]["column"] && !c.origin.empty()) noteType(c.origin, args[i]["type"]);
  return j;
}

void Importer::noteType(const std::string& id, const std::string& type) {
  if (type == "unknown") return;
  auto dot = id.find('.');
  auto it = aliasTable.find(id.substr(0, dot));
  if (dot == std::string::npos || it == aliasTable.end()) return;
  tables[it->second].types.emplace(id.substr(dot + 1), type);
}

}  // namespace rfguard::duckdb_import
