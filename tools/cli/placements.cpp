#include "tools/cli/placements.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

#include "ir/expr.h"

namespace rfguard {

bool Placed::operator<(const Placed& o) const {
  return std::tie(producer, scan, target) < std::tie(o.producer, o.scan, o.target);
}

bool Placed::operator==(const Placed& o) const {
  return producer == o.producer && scan == o.scan && target == o.target;
}

std::vector<Placed> placements(const PlanNode& plan) {
  std::map<int, int> producerOf;  // filter id -> node
  std::vector<std::pair<int, const PlanNode*>> scans;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) producerOf[f.id] = n.id;
    if (!n.runtimeFilterTargets.empty()) scans.push_back({n.id, &n});
    for (const auto& c : n.children) walk(*c);
  };
  walk(plan);
  std::vector<Placed> out;
  for (const auto& [id, scan] : scans)
    for (const auto& t : scan->runtimeFilterTargets)
      out.push_back({producerOf[t.id], id, exprToString(*t.target)});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rfguard
