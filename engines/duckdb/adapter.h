#pragma once
// DuckDB's room: the adapter that engines/registry.cpp lists.
#include "engines/adapter.h"

namespace rfguard::engine {

/// DuckDB 1.5: its JSON profiles and EXPLAIN (FORMAT JSON) plans, its SQL, and
/// (when linked) a live in-memory database (docs/duckdb.md).
const Adapter& duckDbAdapter();

/// DuckDB's spelling of the SQL the verifier writes.
const SqlSpelling& duckDbSpelling();

}  // namespace rfguard::engine
