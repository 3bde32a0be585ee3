// The invariant check run after every rewrite in test builds (DuckDB's verify
// pass): a rule that breaks column lineage is caught at the rule that did it.
#include <functional>

#include "rules/normalize.h"

namespace rfguard {

namespace {

void check(const PlanNode& n, const std::set<std::string>& outer, std::set<std::string>& aliases,
           std::vector<std::string>& problems) {
  std::string where = std::string(opName(n.op)) + " #" + std::to_string(n.id);
  std::set<std::string> visible = outer;
  for (const auto& c : n.children)
    for (const auto& col : c->output) visible.insert(col.id);
  if (n.op == PlanOp::Window)
    for (const auto& w : n.windows) visible.insert(w.name);
  if (n.op == PlanOp::Scan) {
    if (!aliases.insert(n.alias).second)
      problems.push_back(where + ": scan alias " + n.alias + " is not unique");
    for (const auto& c : n.tableColumns) visible.insert(c.id);
  }
  forEachExpr(n, [&](const ExprPtr& e) {
    for (const auto& col : columnsOf(*e))
      if (!visible.count(col))
        problems.push_back(where + ": reads " + col + ", which no child produces");
    std::function<void(const Expr&)> subs = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) check(*x.plan, visible, aliases, problems);
      for (const auto& a : x.args) subs(*a);
    };
    subs(*e);
  });
  size_t arity = n.op == PlanOp::Join ? 2 : n.op == PlanOp::Scan || n.op == PlanOp::Values ? 0 : 1;
  bool setop = n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except;
  if (setop) {
    for (const auto& c : n.children)
      if (c->output.size() != n.outNames.size())
        problems.push_back(where + ": child column count differs");
  } else if (n.children.size() != arity) {
    problems.push_back(where + ": has " + std::to_string(n.children.size()) + " children");
  }
  if (n.op == PlanOp::Join && joinInfo(n.joinType).hasCondition != (n.predicate != nullptr))
    problems.push_back(where + ": condition does not fit join type " + joinInfo(n.joinType).name);
  for (const auto& c : n.children) check(*c, outer, aliases, problems);
}

}  // namespace

std::vector<std::string> verifyPlan(const PlanNode& root, const std::set<std::string>& outer) {
  std::vector<std::string> problems;
  std::set<std::string> aliases;
  check(root, outer, aliases, problems);
  return problems;
}

}  // namespace rfguard
