#include "engines/duckdb/schema_sql.h"

#include <re2/re2.h>

#include <algorithm>
#include <functional>

namespace rfguard::duckdb_import {

namespace {

std::string quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string duckdbType(const Type& t) {
  switch (t.kind) {
    case TypeKind::Boolean:
      return "BOOLEAN";
    case TypeKind::TinyInt:
      return "TINYINT";
    case TypeKind::SmallInt:
      return "SMALLINT";
    case TypeKind::Int:
      return "INTEGER";
    case TypeKind::BigInt:
      return "BIGINT";
    case TypeKind::Decimal:
      return "DECIMAL(" + std::to_string(std::min(t.precision ? t.precision : 18, 38)) + "," +
             std::to_string(t.scale) + ")";
    case TypeKind::Real:
      return "REAL";
    case TypeKind::Double:
      return "DOUBLE";
    case TypeKind::Char:
    case TypeKind::Varchar:
    case TypeKind::Text:
      return "VARCHAR";
    case TypeKind::Date:
      return "DATE";
    case TypeKind::Timestamp:
      return "TIMESTAMP";
    case TypeKind::Interval:
      return "INTERVAL";
    case TypeKind::Unknown:
      return "INTEGER";
  }
  return "INTEGER";
}

std::string createViewSql(const ViewDef& v) {
  std::string sql = "CREATE VIEW " + quoted(v.name);
  if (!v.columnNames.empty()) {
    sql += " (";
    for (size_t i = 0; i < v.columnNames.size(); ++i)
      sql += (i ? ", " : "") + quoted(v.columnNames[i]);
    sql += ")";
  }
  return sql + " AS " + duckdbDialect(v.sql);
}

std::string duckdbDialect(const std::string& sql) {
  static const RE2 precision(
      R"((?i)(interval\s*'[^']*'\s*(?:year|month|day|hour|minute|second))\s*\(\s*\d+\s*\))");
  static const RE2 leftSemiAnti(R"((?i)\bleft\s+(semi|anti)\s+join\b)");
  static const RE2 nullSafe(R"(<=>)");
  std::string out = sql;
  RE2::GlobalReplace(&out, precision, "\\1");
  RE2::GlobalReplace(&out, leftSemiAnti, "\\1 JOIN");
  RE2::GlobalReplace(&out, nullSafe, "IS NOT DISTINCT FROM");
  return out;
}

std::string createTableSql(const TableDef& t) {
  std::string sql = "CREATE TABLE " + quoted(t.name) + " (";
  for (size_t i = 0; i < t.columns.size(); ++i) {
    const ColumnDef& c = t.columns[i];
    sql += (i ? ", " : "") + quoted(c.name) + " " + duckdbType(c.type) +
           (c.nullable ? "" : " NOT NULL");
  }
  return sql + ")";
}

namespace {

std::string sqlString(const std::string& v) {
  std::string out = "'";
  for (char c : v) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// The column under casts, or null.
const Expr* columnOf(const ExprPtr& e) {
  const Expr* x = e.get();
  while (x && x->kind == ExprKind::Cast && !x->args.empty()) x = x->args[0].get();
  return x && x->kind == ExprKind::Column ? x : nullptr;
}

const Expr* literalOf(const ExprPtr& e) {
  const Expr* x = e.get();
  while (x && x->kind == ExprKind::Cast && !x->args.empty()) x = x->args[0].get();
  return x && x->kind == ExprKind::Literal && !x->isNull ? x : nullptr;
}

void collect(const PlanNode& n, std::map<std::string, std::string>& aliases,
             std::vector<ExprPtr>& exprs) {
  if (n.op == PlanOp::Scan) aliases[n.alias] = n.table;
  forEachExpr(n, [&](const ExprPtr& e) {
    std::vector<const Expr*> stack{e.get()};
    while (!stack.empty()) {
      const Expr* x = stack.back();
      stack.pop_back();
      if (!x) continue;
      if (x->kind == ExprKind::Call) exprs.push_back(makePooled<Expr>(*x));
      if (x->plan) collect(*x->plan, aliases, exprs);
      for (const auto& a : x->args) stack.push_back(a.get());
    }
  });
  for (const auto& c : n.children) collect(*c, aliases, exprs);
}

}  // namespace

std::map<std::string, std::set<std::string>> comparedLiterals(const std::vector<Query>& queries) {
  std::map<std::string, std::set<std::string>> out;
  static const std::set<std::string> cmps = {"=", "<>", "<", "<=", ">", ">=", "in", "like"};
  for (const auto& q : queries) {
    std::map<std::string, std::string> aliases;
    std::vector<ExprPtr> calls;
    collect(*q.plan, aliases, calls);
    for (const auto& c : calls) {
      if (!cmps.count(c->name) || c->args.size() < 2) continue;
      const Expr* col = columnOf(c->args[0]);
      if (!col) continue;
      auto dot = col->name.find('.');
      auto it = aliases.find(col->name.substr(0, dot));
      if (dot == std::string::npos || it == aliases.end()) continue;
      std::string key = it->second + "." + col->name.substr(dot + 1);
      for (size_t i = 1; i < c->args.size(); ++i) {
        const Expr* lit = literalOf(c->args[i]);
        if (!lit) continue;
        std::string v = lit->value;
        if (c->name == "like") {  // a value the pattern matches
          std::string m;
          for (char ch : v) m += ch == '%' ? "" : ch == '_' ? "x" : std::string(1, ch);
          v = m;
        }
        out[key].insert(v);
      }
    }
  }
  return out;
}

std::set<std::pair<std::string, std::string>> equatedColumns(const std::vector<Query>& queries) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& q : queries) {
    std::map<std::string, std::string> aliases;
    std::vector<ExprPtr> calls;
    collect(*q.plan, aliases, calls);
    auto name = [&](const Expr* col) -> std::string {
      if (!col) return "";
      auto dot = col->name.find('.');
      auto it = aliases.find(col->name.substr(0, dot));
      if (dot == std::string::npos || it == aliases.end()) return "";
      return it->second + "." + col->name.substr(dot + 1);
    };
    for (const auto& c : calls) {
      if ((c->name != "=" && c->name != "<=>") || c->args.size() != 2) continue;
      std::string a = name(columnOf(c->args[0])), b = name(columnOf(c->args[1]));
      if (!a.empty() && !b.empty()) out.insert({a, b});
    }
  }
  return out;
}

std::map<std::string, long long> joinKeyDomains(const std::vector<Query>& queries,
                                                const Catalog& catalog,
                                                const std::map<std::string, long long>& rows) {
  // The rows of `table.column`'s table when the column is its numbered key.
  auto numberedKey = [&](const std::string& tc) -> long long {
    const auto dot = tc.find('.');
    const TableDef* t = catalog.table(tc.substr(0, dot));
    if (!t) return 0;
    int pk = 0;
    const ColumnDef* key = nullptr;
    for (const auto& c : t->columns)
      if (c.primaryKey) ++pk, key = &c;
    if (pk != 1 || key->name != tc.substr(dot + 1) || !key->type.isInteger()) return 0;
    auto r = rows.find(t->name);
    return r == rows.end() ? 0 : r->second;
  };
  // Columns the queries equate, as classes (mk.movie_id = mi.movie_id and
  // t.id = mk.movie_id put mi.movie_id with t.id too).
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string&)> find = [&](const std::string& x) {
    auto it = parent.find(x);
    if (it == parent.end() || it->second == x) return parent[x] = x;
    return it->second = find(it->second);
  };
  for (const auto& [a, b] : equatedColumns(queries))
    if (a.substr(0, a.find('.')) != b.substr(0, b.find('.'))) parent[find(a)] = find(b);
  // A class with a numbered key: its other columns draw over the smallest such key.
  std::map<std::string, long long> classKey;
  for (const auto& [col, p] : parent) {
    const long long d = numberedKey(col);
    if (d <= 0) continue;
    auto [it, fresh] = classKey.emplace(find(col), d);
    if (!fresh) it->second = std::min(it->second, d);
  }
  std::map<std::string, long long> out;
  for (const auto& [col, p] : parent) {
    auto k = classKey.find(find(col));
    out[col] = numberedKey(col) > 0 || k == classKey.end() ? 0 : k->second;
  }
  return out;
}

std::string populateSql(const TableDef& t, long long rows, uint64_t seed,
                        const std::map<std::string, std::set<std::string>>& hot, int nullPercent,
                        int skewPercent, const std::map<std::string, long long>& joinKeys) {
  int pkInts = 0;
  for (const auto& c : t.columns) pkInts += c.primaryKey ? 1 : 0;
  const long long domain = std::max(10LL, rows / 4);
  std::string sql = "INSERT INTO " + quoted(t.name) + " SELECT ";
  for (size_t ci = 0; ci < t.columns.size(); ++ci) {
    const ColumnDef& c = t.columns[ci];
    const std::string s = std::to_string(seed), k = std::to_string(ci);
    const std::string h = "hash(i, " + s + ", " + k + ")";
    const std::string h2 = "hash(i, " + s + ", " + k + ", 1)";
    const long long d = c.ndv && *c.ndv > 0 ? *c.ndv : domain;
    // Skewed draw: 30% of rows from ten hot values, the rest over the domain.
    // A join key draws evenly: over the numbers of the key it joins, or its domain.
    const auto jk = joinKeys.find(t.name + "." + c.name);
    const std::string draw =
        jk != joinKeys.end()
            ? "(" + h2 + " % " + std::to_string(jk->second > 0 ? jk->second : d) + ")"
            : "(CASE WHEN " + h + " % 100 < " + std::to_string(skewPercent) + " THEN " + h2 +
                  " % 10 ELSE " + h2 + " % " + std::to_string(d) + " END)";
    std::string v, hotValue;
    auto hv = hot.find(t.name + "." + c.name);
    if (hv != hot.end() && !hv->second.empty() && !(c.primaryKey && pkInts == 1)) {
      // The queries' own literals are the hot values.
      std::string list = "[";
      for (const auto& x : hv->second)
        list += (list.size() > 1 ? ", " : "") + std::string("TRY_CAST(") + sqlString(x) + " AS " +
                duckdbType(c.type) + ")";
      list += "]";
      hotValue = "CASE WHEN hash(i, " + s + ", " + k + ", 3) % 10 < 4 THEN " + list + "[1 + (" +
                 h2 + " % " + std::to_string(hv->second.size()) + ")::INTEGER] END";
    }
    if (c.primaryKey && pkInts == 1 && c.type.isInteger()) {
      v = "i::" + duckdbType(c.type);
    } else {
      switch (c.type.kind) {
        case TypeKind::Boolean:
          v = "(" + h2 + " % 2 = 0)";
          break;
        case TypeKind::TinyInt:
          v = "(" + draw + " % 100)::TINYINT";
          break;
        case TypeKind::SmallInt:
          v = "(" + draw + " % 10000)::SMALLINT";
          break;
        case TypeKind::Decimal: {
          int p = std::min(c.type.precision ? c.type.precision : 18, 38), sc = c.type.scale;
          long long cap = 1;
          // Small magnitudes: sums of products (TPC-H's revenue) stay within DECIMAL(18).
          for (int e = 0; e < std::min(p - sc, 2); ++e) cap *= 10;
          v = "((" + draw + " % " + std::to_string(cap) + ")::DOUBLE + (" + h2 +
              " % 100) / 100.0)::" + duckdbType(c.type);
          if (p - sc <= 0) v = "0::" + duckdbType(c.type);
          break;
        }
        case TypeKind::Real:
        case TypeKind::Double:
          v = "(" + draw + "::DOUBLE / 4)::" + duckdbType(c.type);
          break;
        case TypeKind::Char:
        case TypeKind::Varchar:
        case TypeKind::Text: {
          std::string text = "(" + draw + ")::VARCHAR || '_v'";
          v = c.type.precision > 0 ? "left(" + text + ", " + std::to_string(c.type.precision) + ")"
                                   : "(" + text + ")";
          break;
        }
        case TypeKind::Date:
          v = "(DATE '1992-01-01' + (" + draw + " % 2557)::INTEGER)";
          break;
        case TypeKind::Timestamp:
          v = "(DATE '1992-01-01' + (" + draw + " % 2557)::INTEGER)::TIMESTAMP";
          break;
        case TypeKind::Interval:
          v = "to_days((" + draw + " % 100)::INTEGER)";
          break;
        default:
          v = "(" + draw + ")::" + duckdbType(c.type);
          break;
      }
      if (!hotValue.empty()) v = "COALESCE(" + hotValue + ", " + v + ")";
      if (c.nullable)
        v = "CASE WHEN hash(i, " + s + ", " + k + ", 2) % 100 < " + std::to_string(nullPercent) +
            " THEN NULL ELSE " + v + " END";
    }
    sql += (ci ? ", " : "") + v;
  }
  return sql + " FROM range(" + std::to_string(rows) + ") r(i)";
}

}  // namespace rfguard::duckdb_import
