// ExtractCommonOrConjuncts: a conjunct present in every branch of an OR holds
// whenever the OR does, so (a AND x) OR (a AND y) is a AND (x OR y). TPC-H Q19
// only has its join key inside such an OR; pulled out, it becomes an equi-join
// conjunct that pushdown and runtime filters can use. Only conjuncts common to
// every branch are pulled: (a AND x) OR y does not imply a.
#include "rules/push_filter.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

std::vector<ExprPtr> disjuncts(const ExprPtr& e) {
  if (e->kind == ExprKind::Call && e->name == "or") return e->args;
  return {e};
}

bool contains(const std::vector<ExprPtr>& list, const ExprPtr& e) {
  for (const auto& x : list)
    if (exprEquals(x, e)) return true;
  return false;
}

/// The rewritten conjunct list, or an empty list when nothing is common.
std::vector<ExprPtr> extract(const ExprPtr& orExpr) {
  auto branches = disjuncts(orExpr);
  if (branches.size() < 2 || !isDeterministic(*orExpr)) return {};
  std::vector<std::vector<ExprPtr>> parts;
  for (const auto& b : branches) parts.push_back(conjuncts(b));
  std::vector<ExprPtr> common;
  for (const auto& c : parts[0]) {
    bool everywhere = !contains(common, c);
    for (size_t i = 1; i < parts.size() && everywhere; ++i) everywhere = contains(parts[i], c);
    if (everywhere) common.push_back(c);
  }
  if (common.empty()) return {};
  std::vector<ExprPtr> rest;
  for (const auto& p : parts) {
    std::vector<ExprPtr> left;
    for (const auto& c : p)
      if (!contains(common, c)) left.push_back(c);
    if (left.empty()) return common;  // one branch is just the common part: the OR is implied
    rest.push_back(makeAnd(left));
  }
  common.push_back(makeCall("or", rest, orExpr->loc));
  return common;
}

}  // namespace

bool extractCommonOrConjuncts(PlanPtr& node) {
  if ((node->op != PlanOp::Filter && node->op != PlanOp::Join) || !node->predicate) return false;
  const bool anyOr =
      !forEachConjunct(node->predicate, [](const ExprPtr& c) { return !(isCallOf(*c, "or")); });
  if (!anyOr) return false;
  bool changed = false;
  std::vector<ExprPtr> out;
  for (const auto& c : conjuncts(node->predicate)) {
    auto pulled = isCallOf(*c, "or") ? extract(c) : std::vector<ExprPtr>{};
    if (pulled.empty()) {
      out.push_back(c);
    } else {
      out.insert(out.end(), pulled.begin(), pulled.end());
      changed = true;
    }
  }
  if (changed) node->predicate = makeAnd(out);
  return changed;
}

}  // namespace rfguard
