#pragma once
// Shared by the importers of engines' plan text: a filter an engine applies
// above a scan (at an exchange, at a CTE consumer) imported at the scan, where
// rfguard applies filters, when the operators between remove the same rows
// whether it is applied above them or below.
#include <nlohmann/json.hpp>
#include <string>

namespace rfguard::engine {

/// Where a filter over `expr` (a plan JSON expression over `node`'s output)
/// can sit at a scan below `node` and remove the same rows: `scan` is that
/// scan node (null: nowhere) and `target` the expression over its columns.
struct ScanBelow {
  nlohmann::json* scan = nullptr;
  nlohmann::json target;
  /// True when the way down crosses an aggregate through its group keys.
  bool throughKeys = false;
};

/// Follows `expr` down through filters (they keep or remove whole rows, the
/// same ones either way), projections (their expressions substituted) and
/// aggregates without grouping sets whose group keys `expr` reads only (a
/// group is all rows of its key: removing the key's input rows removes the
/// group, no other group changes) to a scan whose columns it then reads.
/// Anything else (a join, a limit, a window, a union) stops it: below such an
/// operator a filter may remove other rows.
ScanBelow scanBelow(nlohmann::json& node, const nlohmann::json& expr);

}  // namespace rfguard::engine
