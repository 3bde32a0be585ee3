// PruneScanColumns: each scan lists only the columns some node reads. Column
// ids are unique per scan alias, so a column is needed exactly when an
// expression anywhere in the plan (subqueries included) or a set operation's
// positional mapping reads it, or the root returns it.
#include "ir/view_set.h"
#include "rules/normalize.h"

namespace rfguard {

namespace {

/// Column ids read anywhere, as views of the plan's own strings (expressions'
/// column names and output ids), which outlive the pruning.
using Needed = ViewSet;

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
      for (const auto& col : c->output) needed.insert(col.id);
  for (const auto& c : n.children) collectNeeded(*c, needed);
}

bool prune(PlanNode& n, const Needed& needed);

/// Prunes the plans of the subqueries in `x`.
bool pruneSubqueries(const Expr& x, const Needed& needed) {
  if (!hasSubquery(x)) return false;
  bool changed = x.kind == ExprKind::Subquery && x.plan && prune(*x.plan, needed);
  for (const auto& a : x.args) changed = pruneSubqueries(*a, needed) || changed;
  return changed;
}

/// Makes the scan list exactly its table's needed columns, in table order,
/// sharing the table's ids.
bool pruneScan(PlanNode& n, const Needed& needed) {
  auto& cols = n.scanColumns;
  size_t kept = 0;
  bool same = true;
  for (const auto& c : n.tableColumns) {
    if (!needed.contains(c.id)) continue;
    same = same && kept < cols.size() && cols[kept] == c.id;
    ++kept;
  }
  if (same && kept == cols.size()) return false;
  std::vector<ColumnId> keep;
  keep.reserve(kept);
  for (const auto& c : n.tableColumns)
    if (needed.contains(c.id)) keep.push_back(c.id);
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
  // Room for TPC-H's and JOB's queries (up to about 60 distinct ids) at once.
  Needed needed(64);
  for (const auto& c : root->output) needed.insert(c.id);
  collectNeeded(*root, needed);
  bool changed = prune(*root, needed);
  if (changed) refreshOutputs(*root);
  return changed;
}

}  // namespace rfguard
