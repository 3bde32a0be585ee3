// Runtime filters removed from a plan before the planner places its own.
#include "rules/rf_clear.h"

namespace rfguard {

namespace {

/// `e` with the runtime filters of its subquery plans removed, on copies
/// (clonePlan shares subquery plans with the plan it copied).
ExprPtr withoutFilters(const ExprPtr& e) {
  if (!e) return e;
  if (e->kind == ExprKind::Subquery && e->plan) {
    bool any = false;
    forEachNode(*e->plan, [&](const PlanNode& x) {
      any = any || !x.runtimeFilters.empty() || !x.runtimeFilterTargets.empty();
    });
    if (!any) return e;
    auto copy = makePooled<Expr>(*e);
    copy->plan = deepClonePlan(*e->plan);
    clearRuntimeFilters(*copy->plan);
    return copy;
  }
  return mapArgsIfChanged(e, withoutFilters);
}

}  // namespace

void clearRuntimeFilters(PlanNode& n) {
  n.runtimeFilters.clear();
  n.runtimeFilterTargets.clear();
  mapExprs(n, withoutFilters);
  for (auto& c : n.children) clearRuntimeFilters(*c);
}

}  // namespace rfguard
