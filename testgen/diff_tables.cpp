#include "testgen/diff_tables.h"

#include <random>

#include "testgen/join_queries.h"
#include "testgen/random_queries.h"

namespace rfguard {

std::vector<DiffTableSpec> tableSpecs(long long big, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x7461626c6573ULL);
  auto type = [&] {
    const int t = randomBelow(rng, 10);
    return t < 2 ? TypeKind::SmallInt : t < 7 ? TypeKind::Int : TypeKind::BigInt;
  };
  std::vector<DiffTableSpec> specs;
  for (int i = 0; i < 6; ++i) {
    DiffTableSpec s;
    const TypeKind k = type();
    const TypeKind v = type();
    s.def = diffQueryTable(i, k, v);
    s.rows = i == 0 ? big : i == 1 ? 500 + randomBelow(rng, 1501) : 20 + randomBelow(rng, 281);
    s.nullPercent = i <= 1 ? 5 : randomBelow(rng, 36);
    s.wide = randomBelow(rng, 3) != 0 && !spreadSql(s.def, seed).empty();
    specs.push_back(s);
  }
  return specs;
}

std::string tablesText(const std::vector<DiffTableSpec>& specs, const engine::Adapter& eng) {
  std::string out;
  for (const auto& s : specs)
    out += (out.empty() ? "" : ", ") + s.def.name + " " + std::to_string(s.rows) + " rows (k " +
           eng.typeName(s.def.columns[0].type) + ", v " + eng.typeName(s.def.columns[1].type) +
           (s.wide ? ", wide" : "") + ")";
  return out;
}

nlohmann::ordered_json tablesJson(const std::vector<DiffTableSpec>& specs,
                                  const engine::Adapter& eng) {
  nlohmann::ordered_json tables = nlohmann::ordered_json::array();
  for (const auto& spec : specs)
    tables.push_back({{"name", spec.def.name},
                      {"rows", spec.rows},
                      {"null_percent", spec.nullPercent},
                      {"k", eng.typeName(spec.def.columns[0].type)},
                      {"v", eng.typeName(spec.def.columns[1].type)},
                      {"wide", spec.wide}});
  return tables;
}

// Spreads a wide table's k and v: 2% of the values of each INTEGER column
// move up by a multiple of a million (below 2^31, so that k + 1 stays an
// INTEGER), of each BIGINT column by a multiple of 10^12 (beyond any INTEGER).
// The rest still join as generated. Over narrow columns DuckDB's statistics
// let it sort compressed keys: it puts an __internal_compress_integral
// projection below each ORDER BY, and join filters stop there, so that no
// filter ever reached a scan below an ORDER BY ... OFFSET or LIMIT, and
// 1.5.6's wrong results there (docs/duckdb.md) never showed. A value range
// wider than 65,535 compresses into nothing smaller than INTEGER. SMALLINT
// columns and the narrow tables keep that path tested.
std::string spreadSql(const TableDef& t, uint64_t seed) {
  const std::string s = std::to_string(seed);
  std::string items;
  bool spread = false;
  int salt = 7;
  for (const ColumnDef& c : t.columns) {
    const std::string which = "hash(rowid, " + s + ", " + std::to_string(salt) + ")",
                      by = "hash(rowid, " + s + ", " + std::to_string(salt) + ", 1)";
    ++salt;
    const bool big = c.type.kind == TypeKind::BigInt;
    std::string item = c.name;
    if (big || c.type.kind == TypeKind::Int) {
      const std::string type = big ? "BIGINT" : "INTEGER", step = big ? "1000000000000" : "1000000";
      item = "CASE WHEN " + which + " % 50 = 0 THEN " + c.name + " + (" + step + " * (1 + " + by +
             " % 1000))::" + type + " ELSE " + c.name + " END AS " + c.name;
      spread = true;
    }
    items += (items.empty() ? "" : ", ") + item;
  }
  if (!spread) return "";
  return "CREATE OR REPLACE TABLE " + t.name + " AS SELECT " + items + " FROM " + t.name +
         " ORDER BY rowid";
}

}  // namespace rfguard
