#include "tools/cli/placements.h"

#include <algorithm>
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

namespace {

/// A target without the casts that keep every value of what they cast: a
/// filter tests the same rows as `CAST(k AS BIGINT)` of an INT k as on k
/// (the verifier's arrivalCores), which one engine prints and the planner
/// writes the other way.
const Expr& core(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Cast && x->args.size() == 1 &&
         castKeepsValues(x->args[0]->type, x->type))
    x = x->args[0].get();
  return *x;
}

}  // namespace

std::vector<Placed> placements(const PlanNode& plan) {
  std::map<int, int> producerOf;  // filter id -> node
  std::vector<std::pair<int, const PlanNode*>> scans;
  // Subquery plans too: a Doris mark join's build input is one.
  forEachNode(plan, [&](const PlanNode& n) {
    for (const auto& f : n.runtimeFilters) producerOf[f.id] = n.id;
    if (!n.runtimeFilterTargets.empty()) scans.push_back({n.id, &n});
  });
  std::vector<Placed> out;
  for (const auto& [id, scan] : scans)
    for (const auto& t : scan->runtimeFilterTargets)
      out.push_back({producerOf[t.id], id, exprToString(core(*t.target))});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rfguard
