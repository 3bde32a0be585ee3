#include "rules/rf_stats.h"

#include <algorithm>

namespace rfguard {

namespace {
/// The scans that state a statistic, each with its place in plan order.
void collect(const PlanNode& n, std::vector<std::pair<const PlanNode*, size_t>>& scans) {
  if (n.op == PlanOp::Scan && (n.tableRows || !n.distributionKey.empty()))
    scans.emplace_back(&n, scans.size());
  for (const auto& c : n.children) collect(*c, scans);
}
}  // namespace

TableStats::TableStats(const PlanNode& root) {
  std::vector<std::pair<const PlanNode*, size_t>> scans;
  collect(root, scans);
  // By table, then plan order (a plain sort on both keys: a stable one asks for a buffer).
  std::sort(scans.begin(), scans.end(), [](const auto& a, const auto& b) {
    const int c = a.first->table.compare(b.first->table);
    return c != 0 ? c < 0 : a.second < b.second;
  });
  entries_.reserve(scans.size());
  for (const auto& [s, i] : scans) {  // a table's scans in plan order: later ones overwrite
    if (entries_.empty() || entries_.back().table != s->table)
      entries_.push_back({s->table, {}, {}});
    Entry& e = entries_.back();
    if (s->tableRows) e.rows = s->tableRows;
    if (!s->distributionKey.empty()) e.distributionKey = s->distributionKey;
  }
}

const TableStats::Entry* TableStats::find(std::string_view table) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), table,
                             [](const Entry& e, std::string_view t) { return e.table < t; });
  return it != entries_.end() && it->table == table ? &*it : nullptr;
}

std::optional<long long> TableStats::rows(std::string_view table) const {
  const Entry* e = find(table);
  return e ? e->rows : std::nullopt;
}

std::string_view TableStats::distributionKey(std::string_view table) const {
  const Entry* e = find(table);
  return e ? e->distributionKey : std::string_view();
}

std::optional<long long> estimateRows(const PlanNode& n, const TableStats& rows) {
  switch (n.op) {
    case PlanOp::Scan:
      return rows.rows(n.table);
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
