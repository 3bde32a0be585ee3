#pragma once
// A live engine as the bounded search's oracle (`--oracle duckdb`), the glue
// between engines/ and verifier/: the search's databases are loaded into it
// and the plans' SQL runs there, through the engine interface
// (engines/engine.h), so that any adapter can serve.
#include <memory>
#include <string>

#include "verifier/sqlite_oracle.h"

namespace rfguard::engine {

/// An oracle over engine `name` ("duckdb"), or null with `error` when this
/// build does not link it.
std::unique_ptr<SqlOracle> openOracle(const std::string& name, std::string& error);

/// Whether oracle `name` can be opened here (false with the reason).
bool oracleAvailable(const std::string& name, std::string& why);

/// A factory for BoundedOptions::oracleFactory; empty for "sqlite" (the default).
OracleFactory oracleFactory(const std::string& name);

}  // namespace rfguard::engine
