#pragma once
// A lineage index over a plan, so that a filter on a plain column can skip in
// O(1) a run of nodes that would all pass it unchanged. Without it, each of n
// filters of a left-deep star walks the spine node by node: quadratic.
#include <cstdint>
#include <string>
#include <string_view>
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

  /// How many nodes the plan has.
  size_t nodeCount() const { return info_.size(); }

  /// The nodes from `from` down to, not including, `scan`, top first, each with
  /// the rule that passes the filter through it.
  std::vector<std::pair<int, RfRule>> path(int from, int scan) const;

 private:
  struct Info {
    int id = 0;
    int tout = 0;       ///< the last position in visit order under this node (its own is its index)
    int parent = -1;    ///< the parent's position, -1 at the root
    int nullEdges = 0;  ///< edges from the root to here that enter a NULL-generating side
    int barriers = 0;   ///< nodes from the root to here, inclusive, that are not join/filter/sort
    bool barrier = false;
    PlanOp op = PlanOp::Scan;
    PlanNode* node = nullptr;
  };
  /// A column id with the scan that outputs it, or with a join that compares it
  /// (one slot per join: the table is a multimap). 16 bytes: a table of a
  /// TPC-H plan's columns stays small enough for glibc's quick paths.
  struct ColumnSlot {
    const char* data = nullptr;  ///< the id's text; null: a free slot
    uint32_t size = 0;
    int32_t at = 0;  ///< >= 0: the scan's position; < 0: -1 - the join's position
    std::string_view col() const { return {data, size}; }
    bool free() const { return data == nullptr; }
  };
  void count(const PlanNode& n, size_t& nodes, size_t& columns) const;
  void visit(PlanNode& n, int parent, int nullEdges, int barriers);
  bool within(int outer, int inner) const;  ///< positions: inner is outer or below it
  void addColumn(std::string_view col, size_t hash, int at);
  /// The position of node `id` in visit order, or -1.
  int positionOf(int id) const;
  /// The scan that outputs `col` (hashed as std::hash<std::string_view>), if any.
  PlanNode* scanOf(std::string_view col, size_t hash) const;

  // Columns are views of the plan's column ids: like the nodes it points to, the
  // plan must outlive the index. Open addressing over powers of two, no
  // allocation per entry (the planner builds an index per query).
  std::vector<Info> info_;                    ///< in visit order (Euler tour entry)
  std::vector<std::pair<int, int>> idSlots_;  ///< (node id, 1 + position); 0 free
  std::vector<ColumnSlot> columnSlots_;
};

}  // namespace rfguard
