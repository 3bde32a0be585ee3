#pragma once
// The differential driver (`rfguard <engine> diff`, for an adapter whose
// differential() is true; DuckDB's today): random join queries
// (testgen/join_queries.h) run in the live engine with its runtime filters on
// and off; a different result is a wrong-result bug of the filters. Each
// difference is shrunk (testgen/shrink.h) to the simplest query and the fewest
// rows that still show it, and comes with the engine's plan for that
// reproducer imported and linted, rfguard's evaluator's opinion on it
// (testgen/opinion.h) and a script that runs it in the engine. Written over
// the engine interface (engines/adapter.h, engines/engine.h) only.
#include <cstdint>
#include <ostream>
#include <string>

#include "engines/adapter.h"

namespace rfguard {

struct DiffArgs {
  const engine::Adapter* engine = nullptr;  ///< an adapter whose differential() is true
  uint64_t seed = 1;
  int queries = 100;
  /// The engine's threads, memory and statement time limit.
  engine::Options options{2, 4096, 300};
  long long bigRows = 100000;  ///< rows of t0, the large probe table
  std::string format = "text";
  std::string out;        ///< a directory for the reproducer scripts
  int shrinkTests = 200;  ///< tests spent shrinking each difference (0: report it as found)
  /// Queries whose tables all have at most this many rows also go to rfguard's
  /// evaluator (a third opinion); 0: none.
  long long evaluatorRows = 2000;
  bool verbose = false;
};

/// How a differential run ended.
enum class DiffOutcome {
  Clean,        ///< every query gave one result, and rfguard's evaluator agreed
  Differences,  ///< a result differed with the filters on and off, or the evaluator disagreed
  Error,        ///< the engine could not be opened or refused the data (said on `err`)
};

/// Runs `args.queries` random queries; the report goes to `out` (text or JSON).
DiffOutcome runDifferential(const DiffArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rfguard
