// PruneScanColumns: each scan lists only the columns some node reads. Column
// ids are unique per scan alias, so a column is needed exactly when an
// expression anywhere in the plan (subqueries included) or a set operation's
// positional mapping reads it, or the root returns it.
#include "rules/normalize.h"

namespace rfguard {

namespace {

void collectNeeded(const PlanNode& n, std::set<std::string>& needed) {
  forEachExpr(n, [&](const ExprPtr& e) {
    auto cols = freeColumnsOf(*e);
    needed.insert(cols.begin(), cols.end());
    std::function<void(const Expr&)> subs = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) collectNeeded(*x.plan, needed);
      for (const auto& a : x.args) subs(*a);
    };
    subs(*e);
  });
  if (n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except)
    for (const auto& c : n.children)
      for (const auto& col : c->output) needed.insert(col.id);
  for (const auto& c : n.children) collectNeeded(*c, needed);
}

bool prune(PlanNode& n, const std::set<std::string>& needed) {
  bool changed = false;
  if (n.op == PlanOp::Scan) {
    std::vector<std::string> keep;
    for (const auto& c : n.tableColumns)
      if (needed.count(c.id)) keep.push_back(c.id);
    changed = keep != n.scanColumns;
    n.scanColumns = keep;
  }
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> subs = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.plan) changed = prune(*x.plan, needed) || changed;
      for (const auto& a : x.args) subs(*a);
    };
    subs(*e);
  });
  for (auto& c : n.children) changed = prune(*c, needed) || changed;
  return changed;
}

}  // namespace

bool pruneScanColumns(PlanPtr& root) {
  std::set<std::string> needed = outputIds(*root);
  collectNeeded(*root, needed);
  bool changed = prune(*root, needed);
  if (changed) refreshOutputs(*root);
  return changed;
}

}  // namespace rfguard
