#pragma once
// Internal to engines/duckdb/: the DuckDB adapter's answers for `compare`.
#include <string>

#include "engines/adapter.h"

namespace rfguard::engine {

/// Adapter::unreportedReason for DuckDB.
std::string duckDbUnreportedReason(const PlanNode& plan, const ImportedQuery& imp, int producer,
                                   int scan);
/// Adapter::unreadFilterConsumer for DuckDB: a loss at a scan's "Dynamic Filters".
std::string duckDbUnreadFilterConsumer(const ImportNote& loss);

}  // namespace rfguard::engine
