#pragma once
// `rfguard duckdb run`: a SQL file's queries run in DuckDB on generated data,
// DuckDB's executed plans imported and linted (docs/duckdb.md).
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engines/engine.h"
#include "ir/catalog.h"
#include "ir/plan.h"

namespace rfguard {

/// DuckDB's resources in `duckdb run`, `compare` and `diff`: a machine's
/// memory is not DuckDB's to fill, and a query that explodes ends with an
/// error at its position, not with the kernel killing rfguard.
struct DuckDbLimits {
  long long memoryLimitMb = 4096;  ///< --memory-limit
  double timeoutSeconds = 300;     ///< --timeout, per statement
};

struct DuckDbRunArgs {
  std::string file;
  int threads = 2;
  double scale = 1.0;
  uint64_t seed = 1;
  DuckDbLimits limits;
  std::string format = "text";  ///< text, json or sarif: lint's formats
  std::string savePlans;        ///< a directory for DuckDB's profiles, one per query
};

/// Runs `rfguard duckdb run`; returns lint's exit codes.
int runDuckDbRun(const DuckDbRunArgs& args, std::ostream& out, std::ostream& err);

/// A SQL file's tables created and filled in a fresh DuckDB.
struct DuckDbSetup {
  std::unique_ptr<engine::Engine> db;
  Catalog declared;            ///< as the file declares it
  Catalog schema;              ///< as DuckDB declares it, with the file's table properties
  std::vector<Query> queries;  ///< bound by rfguard
};
/// Reads `file`, opens DuckDB with `threads` and `limits`, creates and fills
/// the tables (rows times `scale`, `seed`) and views. False after errors on `err`.
bool setUpDuckDb(const std::string& file, int threads, const DuckDbLimits& limits, double scale,
                 uint64_t seed, DuckDbSetup& out, std::ostream& err);

struct DuckDbCompareArgs {
  std::string file;
  int threads = 1;  ///< one thread: DuckDB runs pipelines in a fixed order
  double scale = 0.01;
  uint64_t seed = 1;
  DuckDbLimits limits;
  std::string format = "text";
};
/// `rfguard duckdb compare`: per query, the consumers DuckDB reports against
/// the ones the duckdb profile places on DuckDB's own join tree, each
/// difference with its explanation. Exit 0 when every difference is
/// explained, 1 otherwise, 2 on input errors.
int runDuckDbCompare(const DuckDbCompareArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
