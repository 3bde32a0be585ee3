#include "rules/rule_util.h"

namespace rfguard {

PlanPtr makeFilter(PlanPtr child, const std::vector<ExprPtr>& conjs, SourceLoc loc) {
  if (conjs.empty()) return child;
  auto f = makePooled<PlanNode>();
  f->op = PlanOp::Filter;
  f->predicate = makeAnd(conjs);
  f->loc = loc.line ? loc : conjs[0]->loc;
  f->children = {std::move(child)};
  computeOutput(*f);
  return f;
}

PlanPtr makeJoin(JoinType type, PlanPtr left, PlanPtr right, ExprPtr condition, SourceLoc loc) {
  auto j = makePooled<PlanNode>();
  j->op = PlanOp::Join;
  j->joinType = type;
  j->predicate = std::move(condition);
  j->children = {std::move(left), std::move(right)};
  j->loc = loc;
  computeOutput(*j);
  return j;
}

bool subsetOf(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& x : a)
    if (!b.count(x)) return false;
  return true;
}

void addFilterAbove(PlanPtr& child, const std::vector<ExprPtr>& conjs) {
  if (conjs.empty()) return;
  if (child->op == PlanOp::Filter) {
    auto all = conjuncts(child->predicate);
    all.insert(all.end(), conjs.begin(), conjs.end());
    child->predicate = makeAnd(all);
    return;
  }
  child = makeFilter(child, conjs);
}

bool movable(const Expr& e) {
  return isDeterministic(e) && !hasSubquery(e);
}

}  // namespace rfguard
