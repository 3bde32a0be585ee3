// What holds on every row a node returns (normal_form_canon.h,
// normal_form_laws.h): the conjuncts known of it, the columns its equalities
// make one value, and the columns it never makes NULL.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/comparison.h"
#include "ir/join_type.h"
#include "verifier/normal_form_laws.h"

namespace rfguard::normal_form {

/// Conjuncts that hold on every row `n` returns, over its output columns: a
/// plain filter's, and those of its input; a projection's input's over the
/// columns it passes; an aggregate's input's over its plain group keys (a
/// group's rows share those values); an inner join's condition and its
/// inputs'.
Conjuncts knownOf(const PlanNode& n) {
  Conjuncts out;
  if (n.children.size() == 1 && n.op == PlanOp::Filter && plainFilter(n)) {
    forEachConjunct(n.predicate, [&](const ExprPtr& c) {
      out.push_back(c);
      return true;
    });
    const Conjuncts more = knownOf(*n.children[0]);
    out.insert(out.end(), more.begin(), more.end());
    return out;
  }
  const bool projection = n.op == PlanOp::Project && substitutable(n);
  const bool grouping = n.op == PlanOp::Aggregate && n.groupingSets.empty() && !n.exprs.empty();
  if ((projection || grouping) && n.children.size() == 1) {
    std::map<std::string, ExprPtr> as;
    for (const auto& ne : n.exprs)
      if (ne.expr->kind == ExprKind::Column && !as.count(ne.expr->name))
        as[ne.expr->name] = makeColumn(ne.name, ne.expr->type, ne.expr->nullable);
    for (const auto& c : knownOf(*n.children[0]))
      if (allColumnRefs(*c, [&](const std::string& id) { return as.count(id) > 0; }))
        out.push_back(substitute(c, as));
    return out;
  }
  if (n.op == PlanOp::Join && n.children.size() == 2 && joinInfo(n.joinType).freelyReordered) {
    if (n.predicate && movable(*n.predicate) && !hasSubquery(*n.predicate))
      forEachConjunct(n.predicate, [&](const ExprPtr& c) {
        out.push_back(c);
        return true;
      });
    for (const auto& child : n.children) {
      const Conjuncts more = knownOf(*child);
      out.insert(out.end(), more.begin(), more.end());
    }
  }
  return out;
}

bool columnEquality(const Expr& e) {
  const ComparisonInfo* cmp = comparisonOf(e);
  if (!cmp || cmp->kind != Comparison::Eq) return false;
  const Expr &x = *e.args[0], &y = *e.args[1];
  return x.kind == ExprKind::Column && y.kind == ExprKind::Column && x.name != y.name &&
         x.type.toString() == y.type.toString() && !x.type.isFloating();
}

std::vector<std::vector<ExprPtr>> equalityClasses(const Conjuncts& cs) {
  std::map<std::string, std::string> parent;
  std::map<std::string, ExprPtr> column;
  std::function<std::string(const std::string&)> root = [&](const std::string& x) {
    auto it = parent.find(x);
    return it == parent.end() || it->second == x ? x : root(it->second);
  };
  for (const auto& c : cs) {
    if (!columnEquality(*c)) continue;
    const ExprPtr &x = c->args[0], &y = c->args[1];
    column.emplace(x->name, x);
    column.emplace(y->name, y);
    parent.emplace(x->name, x->name);
    parent.emplace(y->name, y->name);
    parent[root(x->name)] = root(y->name);
  }
  std::map<std::string, std::vector<ExprPtr>> byRoot;
  for (const auto& [id, e] : column) byRoot[root(id)].push_back(e);  // by name
  std::vector<std::vector<ExprPtr>> out;
  for (auto& [r, members] : byRoot) out.push_back(std::move(members));
  return out;
}

// By `n`'s output, not the expression's own flag: bound in a subquery's
// scope, that may come from the table.
bool neverNull(const Expr& e, const PlanNode& n) {
  if (e.kind != ExprKind::Column) return false;
  for (const auto& c : n.output)
    if (c.id.str() == e.name) return !c.nullable;
  return false;
}

}  // namespace rfguard::normal_form
