#pragma once
// A lineage index over a plan, so that a filter on a plain column can skip in
// O(1) a run of nodes that would all pass it unchanged. Without it, each of n
// filters of a left-deep star walks the spine node by node: quadratic.
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/plan.h"
#include "rules/rf_rules.h"

namespace rfguard {

/// Euler-tour intervals, prefix counts and a key index over one plan.
class LineageIndex {
 public:
  /// Indexes the tree under `root` (node ids must be unique).
  explicit LineageIndex(PlanNode& root);

  /// The scan below `from` that produces column `col`, when every node from
  /// `from` down to the scan's parent would pass a filter on `col` unchanged:
  /// joins where `col` is not a key and not on a NULL-generating side, filters
  /// and sorts. nullptr otherwise (the caller then walks step by step).
  PlanNode* jumpTarget(const PlanNode& from, const std::string& col) const;

  /// The scan whose output holds column `col` (ids are unique in a plan), if any.
  PlanNode* scanOf(std::string_view col) const;

  /// The nodes from `from` down to, not including, `scan`, top first, each with
  /// the rule that passes the filter through it.
  std::vector<std::pair<int, RfRule>> path(int from, int scan) const;

 private:
  struct Info {
    int tin = 0, tout = 0, parent = -1;
    int nullEdges = 0;  ///< edges from the root to here that enter a NULL-generating side
    int barriers = 0;   ///< nodes from the root to here, inclusive, that are not join/filter/sort
    bool barrier = false;
    PlanOp op = PlanOp::Scan;
    PlanNode* node = nullptr;
  };
  void visit(PlanNode& n, int parent, int nullEdges, int barriers, int& clock);
  bool within(int outer, int inner) const;  ///< inner is outer or below it

  // Keys are views of the plan's column ids: like the nodes it points to, the
  // plan must outlive the index.
  std::unordered_map<int, Info> info_;
  /// Output column id -> producing scan. A filter's columns are output columns
  /// (a scan's other table columns are read by nothing above it).
  std::unordered_map<std::string_view, PlanNode*> owner_;
  std::unordered_map<std::string_view, std::vector<int>>
      keys_;  ///< column id -> joins comparing it
};

}  // namespace rfguard
