// Per-filter slices: see slices.h for the construction and why checking each
// slice alone is sound for the plan.
#include "verifier/slices.h"

#include <functional>
#include <map>
#include <set>

#include "ir/cmp_op.h"

namespace rfguard {

namespace {

constexpr const char* kFreeTablePrefix = "sub";

struct Index {
  std::map<const PlanNode*, const PlanNode*> parent;
  std::map<int, const PlanNode*> producer;
  std::map<int, std::vector<const PlanNode*>> consumers;
};

void index(const PlanNode& n, const PlanNode* parent, Index& ix) {
  ix.parent[&n] = parent;
  for (const auto& rf : n.runtimeFilters) ix.producer[rf.id] = &n;
  for (const auto& t : n.runtimeFilterTargets) ix.consumers[t.id].push_back(&n);
  for (const auto& c : n.children) index(*c, &n, ix);
}

/// The id of a filter produced or consumed inside a subquery expression, or 0.
int inSubquery(const PlanNode& n, bool inside = false) {
  if (inside) {
    for (const auto& rf : n.runtimeFilters) return rf.id;
    for (const auto& t : n.runtimeFilterTargets) return t.id;
  }
  int found = 0;
  forEachExpr(n, [&](const ExprPtr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.plan && !found) found = inSubquery(*x.plan, true);
      for (const auto& a : x.args) visit(*a);
    };
    visit(*e);
  });
  for (const auto& c : n.children)
    if (!found) found = inSubquery(*c, inside);
  return found;
}

/// Whether `=` between two values of type `t` holds only when they are the same
/// value: not for floating point or decimal, where 0 equals -0.
bool equalMeansSame(const Type& t) {
  return t.isInteger() || t.isString() || t.kind == TypeKind::Boolean || t.kind == TypeKind::Date;
}

/// The sides of `c` when it is `a = b` or `a <=> b` over one type for which
/// equal means the same value; nulls otherwise.
std::pair<const Expr*, const Expr*> equalitySides(const Expr& c) {
  if (c.kind != ExprKind::Call || c.args.size() != 2) return {};
  auto op = parseCmpOp(c.name);
  const Expr& a = *c.args[0];
  const Expr& b = *c.args[1];
  if (!op || !isEquality(*op) || !(a.type == b.type) || !equalMeansSame(a.type)) return {};
  return {&a, &b};
}

/// A free table standing for `child`: a scan of "sub<id>" renamed back to the child's
/// columns, consuming `targets` (over the child's columns) at the scan. A column
/// `same` maps to another is that column again, not one of its own.
PlanPtr freeTable(const PlanNode& child, const std::vector<FilterTarget>& targets = {},
                  const std::map<std::string, std::string>& same = {}) {
  auto scan = makePooled<PlanNode>();
  scan->op = PlanOp::Scan;
  scan->table = kFreeTablePrefix + std::to_string(child.id);
  scan->alias = scan->table;
  scan->loc = child.loc;
  auto project = makePooled<PlanNode>();
  project->op = PlanOp::Project;
  project->loc = child.loc;
  std::map<std::string, ExprPtr> raw;
  for (const auto& c : child.output) {
    if (same.count(c.id)) continue;
    std::string bare = c.id;
    for (auto& ch : bare) ch = ch == '.' ? '_' : ch;
    Column col{scan->alias + "." + bare, c.type, c.nullable};
    scan->tableColumns.push_back(col);
    scan->scanColumns.push_back(col.id);
    raw[c.id] = makeColumn(col.id, c.type, c.nullable, child.loc);
  }
  for (const auto& c : child.output) {
    auto to = same.find(c.id);
    if (to != same.end()) raw[c.id] = raw.at(to->second);
    project->exprs.push_back({c.id, raw.at(c.id)});
  }
  for (const auto& t : targets) {
    FilterTarget over{t.id, substitute(t.target, raw)};
    bool repeated = false;  // targets on equated columns are one target
    for (const auto& had : scan->runtimeFilterTargets)
      repeated = repeated || (had.id == over.id && exprEquals(*had.target, *over.target));
    if (!repeated) scan->runtimeFilterTargets.push_back(std::move(over));
  }
  project->children.push_back(scan);
  return project;
}

/// The columns of `child` that the conditions kept over its free table equate
/// (equalitySides of two columns), each mapped to the first of its group in
/// output order. A row of the free table in which they differ never passes the
/// conditions, with the filter or without: the free table may as well hold one
/// column for them.
std::map<std::string, std::string> equatedColumns(const PlanNode& child,
                                                  const std::vector<ExprPtr>& conds) {
  std::map<std::string, std::string> up;  // union-find over column ids
  std::function<std::string(const std::string&)> root = [&](const std::string& id) {
    auto it = up.find(id);
    return it == up.end() ? id : root(it->second);
  };
  for (const auto& cond : conds)
    forEachConjunct(cond, [&](const ExprPtr& c) {
      auto [a, b] = equalitySides(*c);
      if (!a || a->kind != ExprKind::Column || b->kind != ExprKind::Column) return true;
      std::string x = root(a->name), y = root(b->name);
      if (x != y) up[y] = x;
      return true;
    });
  std::map<std::string, std::string> first, same;  // group -> its first output column
  for (const auto& c : child.output)
    if (auto [it, fresh] = first.emplace(root(c.id), c.id); !fresh) same[c.id] = it->second;
  return same;
}

/// Lifting: a consumer's row predicate over a child's columns commutes with a
/// parent that keeps those columns row by row: a Filter, a Project passing them
/// unchanged, a join into whose side a WHERE conjunct may move (the join-type
/// table's whereIntoSide). The consumer may then sit at the parent, and all
/// below it is one free table.
bool liftable(const PlanNode& parent, const PlanNode& child, const std::set<std::string>& cols) {
  auto deterministic = [](const ExprPtr& e) { return !e || isDeterministic(*e); };
  switch (parent.op) {
    case PlanOp::Filter:
      return deterministic(parent.predicate);
    case PlanOp::Project:
      for (const auto& c : cols)
        if (!passesUnchanged(parent, c)) return false;
      return true;
    case PlanOp::Join: {
      const size_t side = parent.children[0].get() == &child ? 0 : 1;
      const JoinTypeInfo& info = joinInfo(parent.joinType);
      return info.whereIntoSide[side] && info.outputs[side] && deterministic(parent.predicate);
    }
    default:
      return false;
  }
}

/// An inner or cross join: both sides' columns out, no unmatched row kept, no NULL made.
bool product(const PlanNode& n) {
  if (n.op != PlanOp::Join) return false;
  const JoinTypeInfo& i = joinInfo(n.joinType);
  return i.outputs[0] && i.outputs[1] && !i.preserves[0] && !i.preserves[1] &&
         !i.generatesNulls[0] && !i.generatesNulls[1] &&
         (!n.predicate || isDeterministic(*n.predicate));
}

/// Where a filter's consumers sit in its slice: a consumer node, or (moved) a node
/// they were lifted to, which becomes a free table carrying the targets, with the
/// conditions that relate them to the key kept as a Filter over it.
struct Point {
  std::vector<FilterTarget> targets;
  std::set<std::string> cols;  ///< the columns the targets and kept conditions read
  std::vector<ExprPtr> conds;
  bool moved = false;
};

/// Whether `cond` has a conjunct whose equalitySides are `x` and `y`, in either
/// order (structurally).
bool equates(const ExprPtr& cond, const Expr& x, const Expr& y) {
  return !forEachConjunct(cond, [&](const ExprPtr& c) {
    auto [a, b] = equalitySides(*c);
    return !a ||
           !((exprEquals(*a, x) && exprEquals(*b, y)) || (exprEquals(*a, y) && exprEquals(*b, x)));
  });
}

/// Points on the two sides of a join that is not a product lift together when
/// the join outputs one side's rows as they are (that side's whereIntoSide), not
/// the other side's columns, and the other side's targets follow from the first
/// side's: each is one side of an equality conjunct of the join's condition
/// (equalitySides) whose other side is a target of the first. Then
/// `J(T(P), T'(B)) = T(J(P, B))`: a row of P that T passes matches only rows of B
/// equal to it on those keys, which the same filter passes too (the equality the
/// planner copies a filter across), and a row T drops goes either way. The case:
/// `NOT EXISTS (SELECT 1 FROM e WHERE e.d0 = f.d0)` under a filter on f.d0
/// consumed at f.d0 and e.d0. Not a LEFT JOIN: its free table would lose that
/// the right key is the left key or NULL. Not NOT IN: one NULL key on its build
/// side rejects every row, and an `=` filter drops that NULL. Returns the first
/// side's member, or null.
const PlanNode* impliedLift(const PlanNode& up, const PlanNode* a, const PlanNode* b,
                            const std::map<const PlanNode*, Point>& points) {
  if (up.op != PlanOp::Join || joinInfo(up.joinType).nullAware || !up.predicate) return nullptr;
  for (const PlanNode* kept : {a, b}) {
    const PlanNode* implied = kept == a ? b : a;
    if (joinInfo(up.joinType).outputs[up.children[0].get() == implied ? 0 : 1]) continue;
    const Point& k = points.at(kept);
    if (!liftable(up, *kept, k.cols)) continue;
    bool all = true;
    for (const auto& t : points.at(implied).targets) {
      bool found = false;
      for (const auto& from : k.targets)
        found = found || equates(up.predicate, *from.target, *t.target);
      all = all && found;
    }
    if (all) return kept;
  }
  return nullptr;
}

bool below(const Index& ix, const PlanNode* n, const PlanNode* ancestor) {
  for (; n; n = ix.parent.at(n))
    if (n == ancestor) return true;
  return false;
}

/// Copies the nodes in `keep` below `n`, with only filter `f`'s descriptors and
/// targets, and a free table for every child outside `keep`; a lifted consumer
/// point becomes a free table consuming its targets.
PlanPtr build(const PlanNode& n, const std::set<const PlanNode*>& keep, int f,
              const std::map<const PlanNode*, Point>& points) {
  if (auto l = points.find(&n); l != points.end() && l->second.moved) {
    PlanPtr free = freeTable(n, l->second.targets, equatedColumns(n, l->second.conds));
    if (l->second.conds.empty()) return free;
    auto filter = makePooled<PlanNode>();
    filter->op = PlanOp::Filter;
    filter->loc = n.loc;
    filter->predicate = makeAnd(l->second.conds);
    filter->children.push_back(free);
    return filter;
  }
  auto copy = makePooled<PlanNode>(n);
  copy->runtimeFilters.clear();
  for (const auto& rf : n.runtimeFilters)
    if (rf.id == f) copy->runtimeFilters.push_back(rf);
  copy->runtimeFilterTargets.clear();
  for (const auto& t : n.runtimeFilterTargets)
    if (t.id == f) copy->runtimeFilterTargets.push_back(t);
  for (auto& c : copy->children)
    c = keep.count(c.get()) ? build(*c, keep, f, points) : freeTable(*c);
  return copy;
}

}  // namespace

bool isFreeTableScan(const PlanNode& n) {
  return n.op == PlanOp::Scan && n.table.rfind(kFreeTablePrefix, 0) == 0;
}

bool passesUnchanged(const PlanNode& project, const std::string& column) {
  for (const auto& ne : project.exprs)
    if (ne.name == column && ne.expr->kind == ExprKind::Column && ne.expr->name == column)
      return true;
  return false;
}

std::vector<Slice> filterSlices(const PlanNode& root, std::string& why, bool dropJoins) {
  Index ix;
  index(root, nullptr, ix);
  for (const auto& [h, nodes] : ix.consumers)
    if (!ix.producer.count(h)) {
      why = "RF" + std::to_string(h) + " has no producer in the plan";
      return {};
    }
  if (int h = inSubquery(root)) {
    why = "RF" + std::to_string(h) + " is inside a subquery";
    return {};
  }
  std::vector<Slice> out;
  for (const auto& [f, producer] : ix.producer) {
    const std::string rf = "RF" + std::to_string(f);
    if (!freeColumns(*producer).empty()) {
      why = rf + "'s producer refers to columns outside it";
      return {};
    }
    // The slice's root: the producer, or the join above it whose other side a
    // consumer placed sideways sits in (CopySideways). All the filter changes
    // is under that join: equal outputs there are equal outputs of the plan.
    const PlanNode* top = producer;
    for (const PlanNode* c : ix.consumers[f])
      while (top && !below(ix, c, top)) top = ix.parent.at(top);
    if (!top) {
      why = rf + " has a consumer outside the plan's tree";
      return {};
    }
    if (top != producer && !freeColumns(*top).empty()) {
      why = rf +
            "'s consumers sit beside its producer under a node that refers to columns "
            "outside it";
      return {};
    }
    // Consumer points, lifted while every point below the parent sits at one of its
    // children and commutes with it (two sides of an inner join lift together),
    // never onto the producer's path (its free table would swallow the producer).
    std::map<const PlanNode*, Point> points;
    for (const PlanNode* c : ix.consumers[f]) {
      Point& pt = points[c];
      for (const auto& t : c->runtimeFilterTargets)
        if (t.id == f) {
          pt.targets.push_back(t);
          for (const auto& col : columnsOf(*t.target)) pt.cols.insert(col);
        }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [node, pt] : points) {
        const PlanNode* up = ix.parent[node];
        if (up == top || below(ix, producer, up)) continue;
        std::vector<const PlanNode*> members;
        bool ok = true;
        for (const auto& [other, opt] : points)
          if (below(ix, other, up)) {
            ok = ok && ix.parent[other] == up;
            members.push_back(other);
          }
        // Points on two sides meet at an inner join, which is its condition over the
        // product of its sides: the free table stands for the product, the condition
        // stays. At another join, one side's targets must imply the other's.
        std::vector<const PlanNode*> merging = members;
        if (ok && members.size() == 2 && !product(*up)) {
          const PlanNode* kept = impliedLift(*up, members[0], members[1], points);
          if (!kept) continue;
          merging = {kept};
        } else {
          for (const PlanNode* m : members) ok = ok && liftable(*up, *m, points[m].cols);
          if (!ok) continue;
        }
        Point merged;
        merged.moved = true;
        for (const PlanNode* m : merging) {
          const Point& mp = points[m];
          merged.targets.insert(merged.targets.end(), mp.targets.begin(), mp.targets.end());
          merged.cols.insert(mp.cols.begin(), mp.cols.end());
          merged.conds.insert(merged.conds.end(), mp.conds.begin(), mp.conds.end());
        }
        // A filter or inner-join condition that reads the point's columns stays too: a
        // copied filter is safe through the equalities that relate its target to the
        // producer's key (r0.k = r1.k below a filter on r1.k consumed at r0.k).
        if (up->predicate && (up->op == PlanOp::Filter || product(*up))) {
          std::set<std::string> read = columnsOf(*up->predicate);
          bool related = members.size() > 1;
          for (const auto& c : read) related = related || merged.cols.count(c);
          if (related) {
            merged.conds.push_back(up->predicate);
            merged.cols.insert(read.begin(), read.end());
          }
        }
        for (const PlanNode* m : members) points.erase(m);
        points[up] = merged;
        changed = true;
        break;
      }
    }
    std::set<const PlanNode*> keep{top};
    for (const PlanNode* at = producer; at != top; at = ix.parent[at]) keep.insert(at);
    for (const auto& [node, pt] : points)
      for (const PlanNode* at = node; at != top; at = ix.parent[at]) keep.insert(at);
    auto lifted = [&](const PlanNode* n) {
      auto p = points.find(n);
      return p != points.end() && p->second.moved;
    };
    // Other filters may act on the paths only as smaller tables: at scans of tables
    // that no other scan on the paths reads.
    std::map<std::string, int> tables;
    for (const PlanNode* n : keep)
      if (n->op == PlanOp::Scan && !lifted(n)) ++tables[n->table];
    for (const auto& [h, nodes] : ix.consumers) {
      if (h == f) continue;
      for (const PlanNode* n : nodes)
        if (keep.count(n) && !lifted(n) && (n->op != PlanOp::Scan || tables[n->table] > 1)) {
          why = "RF" + std::to_string(h) + " is consumed at " + nodeRef(*n) + " on " + rf +
                "'s path, not at a scan of a table of its own";
          return {};
        }
    }
    PlanPtr plan = build(*top, keep, f, points);
    refreshOutputs(*plan);
    if (dropJoins) dropFreeJoins(plan);
    abstractPredicates(*plan);
    out.push_back({f, plan});
  }
  return out;
}

}  // namespace rfguard
