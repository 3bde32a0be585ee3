#pragma once
// `rfguard duckdb run`: a SQL file's queries run in DuckDB on generated data,
// DuckDB's executed plans imported and linted (docs/duckdb.md).
#include <cstdint>
#include <ostream>
#include <string>

namespace rfguard {

struct DuckDbRunArgs {
  std::string file;
  int threads = 2;
  double scale = 1.0;
  uint64_t seed = 1;
  std::string format = "text";  ///< text, json or sarif: lint's formats
  std::string savePlans;        ///< a directory for DuckDB's profiles, one per query
};

/// Runs `rfguard duckdb run`; returns lint's exit codes.
int runDuckDbRun(const DuckDbRunArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
