#include "ir/movement.h"

#include <cassert>
#include <set>

namespace rfguard {

namespace {

// One row per operator, in PlanOp order.
const OperatorMovement kTable[] = {
    {PlanOp::Scan, Passage::Leaf, "a scan has no inputs"},
    {PlanOp::Filter, Passage::Unchanged, "a filter keeps rows without changing them"},
    {PlanOp::Project, Passage::Substituted,
     // SELECT * FROM (SELECT random() AS r FROM t) x WHERE x.r < 0.5 draws one
     // number per row; substituted below, the predicate would draw another.
     "a deterministic projection computes the same value below"},
    {PlanOp::Join, Passage::JoinSides, "the join-type table decides each side"},
    {PlanOp::Aggregate, Passage::GroupKeys,
     // With ROLLUP(k) the grand-total row has k = NULL: a predicate on k below
     // the aggregate would shrink the total. A key-less aggregate returns a row
     // even for no input, so nothing enters it.
     "a predicate over keys in every grouping set removes whole groups"},
    {PlanOp::Window, Passage::PartitionKeys,
     // rank() OVER (ORDER BY v) ranks a row among all rows: removing rows of
     // other partitions below would change its rank.
     "a predicate over every window's PARTITION BY columns removes whole partitions"},
    {PlanOp::Sort, Passage::Unchanged, "a sort reorders rows without changing them"},
    {PlanOp::Limit, Passage::Blocked,
     // SELECT * FROM (SELECT * FROM t ORDER BY k LIMIT 1) x WHERE x.v = 1 is empty
     // when the first row has v = 2; below the limit it would pick a row with v = 1.
     "filtering below LIMIT/OFFSET changes which rows are picked"},
    {PlanOp::Union, Passage::Positional, "every input, by column position"},
    {PlanOp::Intersect, Passage::Positional, "every input, by column position"},
    {PlanOp::Except, Passage::Positional,
     // EXCEPT's right input only removes rows: filtering it could let rows through.
     "the left input, by column position; the right one only removes rows"},
    {PlanOp::Values, Passage::Leaf, "VALUES has no inputs"},
};

bool readsOnly(const Expr& e, const std::map<std::string, ExprPtr>& mapping) {
  return allColumnRefs(e, [&](const std::string& c) { return mapping.count(c) > 0; });
}

/// PARTITION BY columns common to every window of `n`.
std::map<std::string, ExprPtr> commonPartitionColumns(const PlanNode& n) {
  std::map<std::string, ExprPtr> common;
  for (size_t i = 0; i < n.windows.size(); ++i) {
    std::map<std::string, ExprPtr> part;
    for (const auto& p : n.windows[i].partitionBy)
      if (p->kind == ExprKind::Column && (i == 0 || common.count(p->name))) part[p->name] = p;
    common = std::move(part);
  }
  return common;
}

}  // namespace

const OperatorMovement& movementOf(PlanOp op) {
  const auto& row = kTable[static_cast<size_t>(op)];
  assert(row.op == op && "table rows are in PlanOp order");
  return row;
}

const ExprPtr* projectedAs(const PlanNode& project, const std::string& id) {
  for (auto it = project.exprs.rbegin(); it != project.exprs.rend(); ++it)
    if (it->name == id) return &it->expr;
  return nullptr;
}

bool opensInto(const PlanNode& n, size_t child) {
  switch (movementOf(n.op).passage) {
    case Passage::Unchanged:
    case Passage::Substituted:
    case Passage::PartitionKeys:
      return true;
    case Passage::GroupKeys:
      return !n.exprs.empty();
    case Passage::Positional:
      return n.op != PlanOp::Except || child == 0;
    case Passage::JoinSides:
    case Passage::Blocked:
    case Passage::Leaf:
      return false;
  }
  return false;
}

ExprPtr positionalInto(const PlanNode& n, size_t child, const ExprPtr& e) {
  std::map<std::string, ExprPtr> mapping;
  const PlanNode& c = *n.children[child];
  for (size_t i = 0; i < n.outNames.size() && i < c.output.size(); ++i)
    mapping[n.outNames[i]] = makeColumn(c.output[i].id, c.output[i].type, c.output[i].nullable);
  return substitute(e, mapping);
}

ExprPtr moveInto(const PlanNode& n, size_t child, const ExprPtr& e) {
  if (!opensInto(n, child)) return nullptr;
  switch (movementOf(n.op).passage) {
    case Passage::Unchanged:
      return e;
    case Passage::Substituted: {
      ExprPtr below = substituteBy(e, [&n](const std::string& id) { return projectedAs(n, id); });
      return isDeterministic(*below) ? below : nullptr;
    }
    case Passage::GroupKeys: {
      auto key = [&n](const std::string& id) { return stableKeyAs(n, id); };
      if (!allColumnRefs(*e, [&](const std::string& c) { return key(c) != nullptr; }))
        return nullptr;
      return substituteBy(e, key);
    }
    case Passage::PartitionKeys:
      return readsOnly(*e, commonPartitionColumns(n)) ? e : nullptr;
    case Passage::Positional:
      return positionalInto(n, child, e);
    case Passage::JoinSides:
    case Passage::Blocked:
    case Passage::Leaf:
      return nullptr;
  }
  return nullptr;
}

}  // namespace rfguard
