#pragma once
// `rfguard duckdb diff`: differential testing of DuckDB's join filter pushdown.
#include <cstdint>
#include <ostream>
#include <string>

#include "tools/cli/engine_run.h"

namespace rfguard {

struct DuckDbDiffArgs {
  const engine::Adapter* engine = nullptr;  ///< an adapter whose differential() is true
  uint64_t seed = 1;
  int queries = 100;
  int threads = 2;
  EngineLimits limits;
  long long bigRows = 100000;  ///< rows of t0, the large probe table
  std::string format = "text";
  std::string out;        ///< a directory for the reproducer scripts
  int shrinkTests = 200;  ///< tests spent shrinking each difference (0: report it as found)
  /// Queries whose tables all have at most this many rows also go to rfguard's
  /// evaluator (a third opinion); 0: none.
  long long evaluatorRows = 2000;
  bool verbose = false;
};

/// Runs `rfguard duckdb diff`; exit 1 when a result differs, 2 on errors.
int runDuckDbDiff(const DuckDbDiffArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
