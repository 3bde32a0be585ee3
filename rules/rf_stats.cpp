#include "rules/rf_stats.h"

namespace rfguard {

std::optional<long long> estimateRows(const PlanNode& n,
                                      const std::map<std::string, long long>& rows) {
  switch (n.op) {
    case PlanOp::Scan: {
      auto it = rows.find(n.table);
      return it == rows.end() ? std::nullopt : std::optional<long long>(it->second);
    }
    case PlanOp::Values:
      return static_cast<long long>(n.rows.size());
    case PlanOp::Aggregate:
      if (n.exprs.empty() && n.groupingSets.empty()) return 1;
      return estimateRows(*n.children[0], rows);
    case PlanOp::Limit: {
      auto c = estimateRows(*n.children[0], rows);
      if (n.limit && (!c || *n.limit < *c)) return *n.limit;
      return c;
    }
    case PlanOp::Join: {
      const auto& info = joinInfo(n.joinType);
      if (!info.outputs[1]) return estimateRows(*n.children[0], rows);
      if (!info.outputs[0]) return estimateRows(*n.children[1], rows);
      return std::nullopt;
    }
    case PlanOp::Union: {
      long long sum = 0;
      for (const auto& c : n.children) {
        auto r = estimateRows(*c, rows);
        if (!r) return std::nullopt;
        sum += *r;
      }
      return sum;
    }
    default:
      return n.children.empty() ? std::nullopt : estimateRows(*n.children[0], rows);
  }
}

}  // namespace rfguard
