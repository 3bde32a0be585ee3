#pragma once
// The DuckDB adapter: the only code that includes duckdb.h (its C API).
#include <memory>

#include "engines/engine.h"

namespace rfguard::engine {

/// A fresh in-memory DuckDB with `options.threads` threads.
std::unique_ptr<Engine> openDuckDb(const Options& options, std::string& error);

}  // namespace rfguard::engine
