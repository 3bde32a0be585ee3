// PruneScanColumns: each scan lists only the columns some node reads. Column
// ids are unique per scan alias, so a column is needed exactly when an
// expression anywhere in the plan (subqueries included) or a set operation's
// positional mapping reads it, or the root returns it.
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "rules/normalize.h"

namespace rfguard {

namespace {

/// Column ids read anywhere, as views of the plan's own strings (expressions'
/// column names and output ids), which outlive the pruning.
using Needed = std::unordered_set<std::string_view>;

void collectNeeded(const PlanNode& n, Needed& needed);

void collectNeeded(const Expr& x, Needed& needed) {
  if (x.kind == ExprKind::Column) needed.insert(x.name);
  if (x.kind == ExprKind::Subquery && x.plan) collectNeeded(*x.plan, needed);
  for (const auto& a : x.args) collectNeeded(*a, needed);
}

// Every column reference of every expression, and of every subquery plan's
// expressions (which include the subquery's free references to the outside).
void collectNeeded(const PlanNode& n, Needed& needed) {
  forEachExpr(n, [&](const ExprPtr& e) { collectNeeded(*e, needed); });
  if (n.op == PlanOp::Union || n.op == PlanOp::Intersect || n.op == PlanOp::Except)
    for (const auto& c : n.children)
      for (const auto& col : c->output) needed.insert(col.id.view());
  for (const auto& c : n.children) collectNeeded(*c, needed);
}

bool prune(PlanNode& n, const Needed& needed);

/// Prunes the plans of the subqueries in `x`.
bool pruneSubqueries(const Expr& x, const Needed& needed) {
  bool changed = x.kind == ExprKind::Subquery && x.plan && prune(*x.plan, needed);
  for (const auto& a : x.args) changed = pruneSubqueries(*a, needed) || changed;
  return changed;
}

/// Makes the scan list exactly its table's needed columns, in table order.
bool pruneScan(PlanNode& n, const Needed& needed) {
  // A list that is the table's columns in order with every needed one among
  // them (as the binder lists them) only loses the others, in place: the
  // strings of those kept stay (an id is longer than a string holds without
  // allocating). Any other list (plan JSON may give one) is rebuilt.
  auto& cols = n.scanColumns;
  size_t kept = 0, listed = 0;
  bool holdsNeeded = true;
  for (const auto& c : n.tableColumns) {
    const bool here = listed < cols.size() && cols[listed] == c.id;
    listed += here;
    if (!needed.count(c.id.view())) continue;
    holdsNeeded = holdsNeeded && here;
    ++kept;
  }
  if (holdsNeeded && listed == cols.size()) {
    const size_t before = cols.size();
    cols.erase(std::remove_if(cols.begin(), cols.end(),
                              [&](const std::string& id) { return !needed.count(id); }),
               cols.end());
    return cols.size() != before;
  }
  std::vector<std::string> keep;
  keep.reserve(kept);
  for (const auto& c : n.tableColumns)
    if (needed.count(c.id.view())) keep.push_back(c.id);
  cols = std::move(keep);
  return true;
}

bool prune(PlanNode& n, const Needed& needed) {
  bool changed = n.op == PlanOp::Scan && pruneScan(n, needed);
  forEachExpr(n, [&](const ExprPtr& e) { changed = pruneSubqueries(*e, needed) || changed; });
  for (auto& c : n.children) changed = prune(*c, needed) || changed;
  return changed;
}

}  // namespace

bool pruneScanColumns(PlanPtr& root) {
  Needed needed;
  for (const auto& c : root->output) needed.insert(c.id.view());
  collectNeeded(*root, needed);
  bool changed = prune(*root, needed);
  if (changed) refreshOutputs(*root);
  return changed;
}

}  // namespace rfguard
