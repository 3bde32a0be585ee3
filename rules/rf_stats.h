#pragma once
// Row-count estimates from table statistics, for the filter kind, the scope
// and the cost thresholds of the runtime-filter planner.
#include <optional>
#include <string_view>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

/// The statistics the scans of one plan state, by table: its row count and its
/// distribution key. Where scans of one table differ, the last in plan order
/// that states one wins. Views of the plan's strings: the plan must outlive it.
class TableStats {
 public:
  explicit TableStats(const PlanNode& root);
  /// The table's row count, if a scan states one.
  std::optional<long long> rows(std::string_view table) const;
  /// The table's distribution key; empty if no scan states one.
  std::string_view distributionKey(std::string_view table) const;

 private:
  struct Entry {
    std::string_view table;
    std::optional<long long> rows;
    std::string_view distributionKey;
  };
  const Entry* find(std::string_view table) const;
  std::vector<Entry> entries_;  ///< one per table, sorted by name
};

/// An upper bound on a node's row count from table statistics, if one is known.
std::optional<long long> estimateRows(const PlanNode& n, const TableStats& stats);

}  // namespace rfguard
