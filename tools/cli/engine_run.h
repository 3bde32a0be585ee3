#pragma once
// `rfguard <engine> run` and `compare`, written once over the adapter
// interface (engines/adapter.h): a SQL file's queries run in a live engine on
// generated data, the engine's executed plans imported and linted, or their
// runtime filters compared with the engine's profile (docs/duckdb.md).
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engines/adapter.h"
#include "ir/catalog.h"
#include "ir/plan.h"

namespace rfguard {

/// A live engine's resources in `run`, `compare` and `diff`: a machine's
/// memory is not the engine's to fill, and a query that explodes ends with an
/// error at its position, not with the kernel killing rfguard.
struct EngineLimits {
  long long memoryLimitMb = 4096;  ///< --memory-limit
  double timeoutSeconds = 300;     ///< --timeout, per statement
};

struct EngineRunArgs {
  const engine::Adapter* engine = nullptr;
  std::string file;
  int threads = 2;
  double scale = 1.0;
  uint64_t seed = 1;
  EngineLimits limits;
  std::string format = "text";  ///< text, json or sarif: lint's formats
  std::string savePlans;        ///< a directory for the engine's plans, one per query
  bool verbose = false;         ///< every import note, not one line per kind
};

/// Runs `rfguard <engine> run`; returns lint's exit codes.
int runEngineRun(const EngineRunArgs& args, std::ostream& out, std::ostream& err);

/// A SQL file's tables created and filled in a fresh engine.
struct EngineSetup {
  std::unique_ptr<engine::Engine> db;
  Catalog declared;            ///< as the file declares it
  Catalog schema;              ///< as the engine declares it, with the file's table properties
  std::vector<Query> queries;  ///< bound by rfguard
};
/// Reads `file`, opens `engine` with `threads` and `limits`, creates and fills
/// the tables (rows times `scale`, `seed`) and views. False after errors on `err`.
bool setUpEngine(const engine::Adapter& engine, const std::string& file, int threads,
                 const EngineLimits& limits, double scale, uint64_t seed, EngineSetup& out,
                 std::ostream& err);

struct EngineCompareArgs {
  const engine::Adapter* engine = nullptr;
  std::string file;
  int threads = 1;  ///< one thread: an engine runs pipelines in a fixed order
  double scale = 0.01;
  uint64_t seed = 1;
  EngineLimits limits;
  std::string format = "text";
};
/// `rfguard <engine> compare`: per query, the consumers the engine reports
/// against the ones its profile places on the engine's own join tree, each
/// difference with its explanation (Adapter::unreportedReason). Exit 0 when
/// every difference is explained, 1 otherwise, 2 on input errors.
int runEngineCompare(const EngineCompareArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
