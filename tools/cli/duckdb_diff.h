#pragma once
// `rfguard duckdb diff`: differential testing of DuckDB's join filter pushdown.
#include <cstdint>
#include <ostream>
#include <string>

#include "ir/catalog.h"

namespace rfguard {

struct DuckDbDiffArgs {
  uint64_t seed = 1;
  int queries = 100;
  int threads = 2;
  long long bigRows = 100000;  ///< rows of t0, the large probe table
  std::string format = "text";
  std::string out;        ///< a directory for the reproducer scripts
  int shrinkTests = 200;  ///< tests spent shrinking each difference (0: report it as found)
  /// Queries whose tables all have at most this many rows also go to rfguard's
  /// evaluator (a third opinion); 0: none.
  long long evaluatorRows = 2000;
  bool verbose = false;
};

/// SQL that spreads a table's INTEGER and BIGINT columns (the diff's wide
/// tables): 2% of the values of each move up by a multiple of 10^6 or 10^12,
/// so that DuckDB sorts them uncompressed and join filters can cross its ORDER
/// BYs; empty when the table has no such column.
std::string spreadSql(const TableDef& t, uint64_t seed);

/// Runs `rfguard duckdb diff`; exit 1 when a result differs, 2 on errors.
int runDuckDbDiff(const DuckDbDiffArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
