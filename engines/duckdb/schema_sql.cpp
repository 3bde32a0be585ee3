#include "engines/duckdb/schema_sql.h"

#include <re2/re2.h>

#include <algorithm>
#include <functional>

namespace rfguard::duckdb_import {

namespace {

std::string sqlString(const std::string& v) {
  std::string out = "'";
  for (char c : v) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

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
