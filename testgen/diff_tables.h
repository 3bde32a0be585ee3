#pragma once
// The tables of the differential driver (`rfguard <engine> diff`,
// testgen/differential.h), drawn from the seed, and the SQL that spreads the
// wide ones.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engines/adapter.h"
#include "ir/catalog.h"

namespace rfguard {

/// The six tables, drawn from the seed by a generator of their own (so that
/// the queries a seed draws do not depend on them): t0 large (`--big` rows, a
/// probe side big enough that DuckDB's filters are ready before its scan
/// starts), t1 of 500 to 2,000 rows, t2 .. t5 of 20 to 300; NULLs in 5% of
/// t0's and t1's values and in 0% to 35% of the others'; k and v each SMALLINT
/// (one in five), INTEGER (one in two) or BIGINT; two tables in three wide
/// (spreadSql). Little skew (2% of rows on ten hot values), so that chains of
/// joins over the large table stay small.
struct DiffTableSpec {
  TableDef def;
  long long rows = 0;
  int nullPercent = 0;
  bool wide = false;
};

/// The six tables t0 .. t5 for `seed`, t0 with `big` rows.
std::vector<DiffTableSpec> tableSpecs(long long big, uint64_t seed);

/// The tables as "t0 100000 rows (k INTEGER, v BIGINT, wide), ...", types as `eng` names them.
std::string tablesText(const std::vector<DiffTableSpec>& specs, const engine::Adapter& eng);

/// The tables as JSON: name, rows, null_percent, the types of k and v (as
/// `eng` names them), wide.
nlohmann::ordered_json tablesJson(const std::vector<DiffTableSpec>& specs,
                                  const engine::Adapter& eng);

/// SQL that spreads a table's INTEGER and BIGINT columns (the diff's wide
/// tables): 2% of the values of each move up by a multiple of 10^6 or 10^12,
/// so that DuckDB sorts them uncompressed and join filters can cross its ORDER
/// BYs; empty when the table has no such column.
std::string spreadSql(const TableDef& t, uint64_t seed);

}  // namespace rfguard
