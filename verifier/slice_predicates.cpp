// Predicate abstraction for slices. A group of conjuncts (of one Filter or
// join condition) over the columns of one scan, where the slice reads those
// columns nowhere else, only ever tells the slice whether a row passes. Such a
// group becomes one NOT NULL boolean column of the scan: TRUE passes, FALSE
// does not (a NULL outcome acts as FALSE in a WHERE or ON condition). Every
// real row maps to an abstract row with the same behaviour, so the abstract
// slice returning the same rows with and without its filter for all inputs
// implies it for the real ones; and `lo_discount BETWEEN 4 AND 6 AND
// lo_quantity < 35` costs two values per row instead of 7 x 8.
#include <functional>
#include <map>
#include <set>

#include "verifier/slices.h"

namespace rfguard {

namespace {

std::vector<PlanNode*> nodesOf(PlanNode& root) {
  std::vector<PlanNode*> out;
  std::function<void(PlanNode&)> walk = [&](PlanNode& n) {
    out.push_back(&n);
    for (auto& c : n.children) walk(*c);
  };
  walk(root);
  return out;
}

bool bareProject(const PlanNode& n, const ExprPtr& e) {
  return n.op == PlanOp::Project && e->kind == ExprKind::Column;
}

/// How many expressions of the slice read each column: a predicate counts once
/// per conjunct; a bare Project column counts when its output is read.
std::map<std::string, int> readCounts(const std::vector<PlanNode*>& nodes) {
  std::map<std::string, int> count;
  auto add = [&](const Expr& e) {
    for (const auto& c : freeColumnsOf(e)) ++count[c];
  };
  for (PlanNode* n : nodes) {
    if ((n->op == PlanOp::Filter || n->op == PlanOp::Join) && n->predicate)
      for (const auto& c : conjuncts(n->predicate)) add(*c);
    else
      forEachExpr(*n, [&](const ExprPtr& e) {
        if (!bareProject(*n, e)) add(*e);
      });
    for (const auto& rf : n->runtimeFilters) add(*rf.probe), add(*rf.build);
    for (const auto& t : n->runtimeFilterTargets) add(*t.target);
    if (n->op == PlanOp::Union || n->op == PlanOp::Intersect || n->op == PlanOp::Except)
      for (const auto& c : n->children)
        for (const auto& col : c->output) ++count[col.id];  // set operations read every column
  }
  std::set<std::pair<const PlanNode*, size_t>> credited;
  for (bool changed = true; changed;) {
    changed = false;
    for (PlanNode* n : nodes)
      if (n->op == PlanOp::Project)
        for (size_t i = 0; i < n->exprs.size(); ++i)
          if (bareProject(*n, n->exprs[i].expr) && count[n->exprs[i].name] > 0 &&
              credited.insert({n, i}).second) {
            ++count[n->exprs[i].expr->name];
            changed = true;
          }
  }
  return count;
}

/// The scan below `n` (through any nodes) whose output holds every column of `cols`.
PlanNode* scanHolding(PlanNode& n, const std::set<std::string>& cols) {
  if (n.op == PlanOp::Scan) {
    for (const auto& c : cols)
      if (!produces(n, c)) return nullptr;
    return &n;
  }
  for (auto& c : n.children)
    if (PlanNode* s = scanHolding(*c, cols)) return s;
  return nullptr;
}

}  // namespace

int abstractPredicates(PlanNode& slice) {
  int made = 0;
  std::vector<PlanNode*> nodes = nodesOf(slice);
  for (PlanNode* n : nodes) {
    if ((n->op != PlanOp::Filter && n->op != PlanOp::Join) || !n->predicate) continue;
    std::map<std::string, int> count = readCounts(nodes);
    std::map<std::string, int> scans;  // a boolean column must be its table's own
    for (PlanNode* m : nodes)
      if (m->op == PlanOp::Scan) ++scans[m->table];
    std::vector<ExprPtr> parts = conjuncts(n->predicate);
    // Candidate groups: the deterministic conjuncts over one scan's columns.
    std::map<PlanNode*, std::vector<size_t>> groups;
    for (size_t i = 0; i < parts.size(); ++i) {
      std::set<std::string> cols = freeColumnsOf(*parts[i]);
      if (cols.empty() || hasSubquery(*parts[i]) || !isDeterministic(*parts[i])) continue;
      PlanNode* s = scanHolding(*n, cols);
      if (s && scans[s->table] == 1) groups[s].push_back(i);
    }
    std::set<size_t> replaced;
    std::vector<ExprPtr> kept;
    for (auto& [scan, members] : groups) {
      // Drop members whose columns something outside the group reads, until none does.
      for (bool changed = true; changed;) {
        changed = false;
        std::map<std::string, int> inGroup;
        for (size_t i : members)
          for (const auto& c : freeColumnsOf(*parts[i])) ++inGroup[c];
        for (size_t k = 0; k < members.size(); ++k) {
          bool outside = false;
          for (const auto& c : freeColumnsOf(*parts[members[k]]))
            outside = outside || count[c] > inGroup[c];
          if (outside) {
            members.erase(members.begin() + static_cast<long>(k));
            changed = true;
            break;
          }
        }
      }
      if (members.empty()) continue;
      Column col{scan->alias + ".pass" + std::to_string(n->id), Type::of(TypeKind::Boolean), false};
      scan->tableColumns.push_back(col);
      scan->scanColumns.push_back(col.id);
      scan->tableIndex.reset();
      kept.push_back(makeColumn(col.id, col.type, false, parts[members[0]]->loc));
      for (size_t i : members) replaced.insert(i);
      ++made;
    }
    if (replaced.empty()) continue;
    for (size_t i = 0; i < parts.size(); ++i)
      if (!replaced.count(i)) kept.push_back(parts[i]);
    n->predicate = kept.empty() ? makeBool(true, n->loc) : makeAnd(kept);
  }
  if (made) refreshOutputs(slice);
  return made;
}

}  // namespace rfguard
