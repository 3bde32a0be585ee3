// The normal form's plan laws (normal_form_laws.h): projections merged, GROUP
// BY over a key as a projection, joins nothing reads dropped.
#include "verifier/normal_form_laws.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/join_keys.h"
#include "ir/join_type.h"
#include "verifier/row_keys.h"

namespace rfguard::normal_form {

namespace {

bool deterministicExprs(const PlanNode& n) {
  bool ok = true;
  forEachExpr(n, [&](const ExprPtr& e) { ok = ok && movable(*e); });
  return ok;
}

/// Project `p`'s expressions by the ids they make, when `p` is a projection
/// whose expressions may be substituted for those ids: deterministic (a
/// substituted expression is evaluated once per use: the same value, since it
/// reads only the row) and free of subqueries (a correlated one reads the
/// columns around it by id).
std::optional<std::map<std::string, ExprPtr>> substitutable(const PlanNode& p) {
  if (p.op != PlanOp::Project || p.children.size() != 1 || !deterministicExprs(p))
    return std::nullopt;
  std::map<std::string, ExprPtr> as;
  for (const auto& ne : p.exprs) {
    if (hasSubquery(*ne.expr)) return std::nullopt;
    as[ne.name] = ne.expr;
  }
  return as;
}

/// Project P over Project C is one projection: P's expressions with C's
/// substituted for the columns C makes. Both deterministic (a substituted
/// expression is evaluated once per use: the same value, since it reads only
/// the row), and no subqueries in either (a correlated one reads C's columns
/// by id).
bool mergeProjections(PlanNode& p) {
  if (!substitutable(p)) return false;
  const PlanNode& c = *p.children[0];
  auto as = substitutable(c);
  if (!as) return false;
  for (auto& ne : p.exprs) ne.expr = substitute(ne.expr, *as);
  PlanPtr below = c.children[0];
  p.children[0] = below;
  return true;
}

/// A filter whose condition may be evaluated elsewhere, substituted:
/// deterministic, no subqueries.
bool plainFilter(const PlanNode& f) {
  return f.op == PlanOp::Filter && f.children.size() == 1 && f.predicate && movable(*f.predicate) &&
         !hasSubquery(*f.predicate);
}

/// A filter over a projection is the projection over the filter, its
/// condition reading the projection's expressions: a row passes the condition
/// on its projected values exactly when it passes the substituted condition.
/// Both deterministic and free of subqueries (as for mergeProjections).
bool filterBelowProjection(PlanPtr& slot) {
  PlanNode& f = *slot;
  if (!plainFilter(f)) return false;
  const PlanNode& p = *f.children[0];
  auto as = substitutable(p);
  if (!as) return false;
  auto below = makePooled<PlanNode>(f);
  below->predicate = substitute(f.predicate, *as);
  below->children = {p.children[0]};
  computeOutput(*below);
  auto above = makePooled<PlanNode>(p);
  above->children = {below};
  computeOutput(*above);
  slot = above;
  return true;
}

/// An aggregate over a projection is the aggregate of the substituted keys and
/// arguments over the projection's input: each group and each argument reads
/// the same values. Both deterministic, no subqueries, one grouping set.
bool aggregateOverProjection(PlanNode& a) {
  if (a.op != PlanOp::Aggregate || a.children.size() != 1 || !a.groupingSets.empty() ||
      !deterministicExprs(a))
    return false;
  const PlanNode& p = *a.children[0];
  auto as = substitutable(p);
  if (!as) return false;
  bool plain = true;
  forEachExpr(a, [&](const ExprPtr& e) { plain = plain && !hasSubquery(*e); });
  if (!plain) return false;
  for (auto& ne : a.exprs) ne.expr = substitute(ne.expr, *as);
  for (auto& call : a.aggs)
    for (auto& e : call.args) e = substitute(e, *as);
  PlanPtr below = p.children[0];
  a.children[0] = below;
  return true;
}

/// A filter over a set operation filters each of its inputs, its condition
/// reading their columns in the same positions: a row of the result passes
/// exactly when its copies in the inputs do, so for UNION, INTERSECT and
/// EXCEPT, ALL or not, the counts of the rows that pass are unchanged and the
/// others are gone either way.
bool filterIntoSetOperation(PlanPtr& slot) {
  PlanNode& f = *slot;
  if (!plainFilter(f)) return false;
  const PlanNode& op = *f.children[0];
  if (op.op != PlanOp::Union && op.op != PlanOp::Intersect && op.op != PlanOp::Except) return false;
  auto copy = makePooled<PlanNode>(op);
  for (auto& child : copy->children) {
    if (child->output.size() != op.outNames.size()) return false;
    std::map<std::string, ExprPtr> as;
    for (size_t j = 0; j < op.outNames.size(); ++j) {
      const Column& c = child->output[j];
      as[op.outNames[j]] = makeColumn(c.id.str(), c.type, c.nullable);
    }
    auto filter = makePooled<PlanNode>();
    filter->op = PlanOp::Filter;
    filter->predicate = substitute(f.predicate, as);
    filter->children = {child};
    computeOutput(*filter);
    child = filter;
  }
  computeOutput(*copy);
  slot = copy;
  return true;
}

/// A projection that only renames the columns of the set operation below it,
/// all of them in their order, is that set operation under the new names:
/// nothing but the projection reads the set operation's own names.
bool renamingOverSetOperation(PlanPtr& slot) {
  PlanNode& p = *slot;
  if (p.op != PlanOp::Project || p.children.size() != 1) return false;
  const PlanNode& op = *p.children[0];
  if ((op.op != PlanOp::Union && op.op != PlanOp::Intersect && op.op != PlanOp::Except) ||
      p.exprs.size() != op.outNames.size())
    return false;
  std::set<std::string> names;
  for (size_t j = 0; j < p.exprs.size(); ++j)
    if (p.exprs[j].expr->kind != ExprKind::Column || p.exprs[j].expr->name != op.outNames[j] ||
        !names.insert(p.exprs[j].name).second)
      return false;
  auto copy = makePooled<PlanNode>(op);
  for (size_t j = 0; j < p.exprs.size(); ++j) copy->outNames[j] = p.exprs[j].name;
  computeOutput(*copy);
  slot = copy;
  return true;
}

/// UNION (INTERSECT) of a UNION (INTERSECT) among its inputs is one set
/// operation over all their inputs: counts add up (take the least) either way
/// round, and DISTINCT of DISTINCT is DISTINCT, so an input of the same kind
/// flattens when both are ALL or the outer one is DISTINCT (the inner one's
/// duplicates go anyway). Counterexample: a DISTINCT input of an ALL, rows
/// (1), (1) in A: A UNION ALL (B UNION C) has one 1 from the inner union where
/// A UNION ALL B UNION ALL C... has two. EXCEPT is neither.
bool flattenSetOperation(PlanNode& n) {
  if (n.op != PlanOp::Union && n.op != PlanOp::Intersect) return false;
  std::vector<PlanPtr> inputs;
  bool changed = false;
  for (const auto& c : n.children) {
    if (c->op == n.op && (c->all == n.all || !n.all)) {
      inputs.insert(inputs.end(), c->children.begin(), c->children.end());
      changed = true;
    } else {
      inputs.push_back(c);
    }
  }
  if (changed) n.children = std::move(inputs);
  return changed;
}

/// What the aggregate `a` computes over a group of one input row, or null when
/// it is not one of those: count(*) is 1; min, max, sum and avg (DISTINCT or
/// not) are their argument, cast to their type where it differs (sum of an int
/// is a bigint, avg a double).
ExprPtr overOneRow(const AggCall& a) {
  if (a.func == "count" && a.args.empty()) return makeLiteral("1", a.type);
  if (a.args.size() != 1 || !movable(*a.args[0])) return nullptr;
  static const char* const kOfOne[] = {"min", "max", "sum", "avg"};
  if (std::find_if(std::begin(kOfOne), std::end(kOfOne),
                   [&](const char* f) { return a.func == f; }) == std::end(kOfOne))
    return nullptr;
  const ExprPtr& x = a.args[0];
  return x->type.toString() == a.type.toString() ? x : makeCast(x, a.type);
}

/// GROUP BY over columns of its input among which is a key of it (PRIMARY KEY,
/// UNIQUE over NOT NULL columns, group keys; row_keys.h): each group is one
/// input row, so the aggregate is a projection of its keys and of what its
/// aggregates make of one row (overOneRow). Without grouping keys it stays: it
/// returns a row even over no input. Counterexample without the key: two rows
/// of one `v` make one group, count(*) = 2. A DISTINCT over its input's columns,
/// in order and under their ids, is its input itself.
bool groupByOverKey(PlanPtr& slot) {
  PlanNode& n = *slot;
  if (n.op != PlanOp::Aggregate || !n.groupingSets.empty() || n.children.size() != 1 ||
      n.exprs.empty())
    return false;
  const PlanNode& in = *n.children[0];
  std::set<std::string> columns;
  for (const auto& ne : n.exprs) {
    if (ne.expr->kind != ExprKind::Column) return false;
    columns.insert(ne.expr->name);
  }
  if (!hasRowKeyWithin(in, columns)) return false;
  std::vector<NamedExpr> exprs = n.exprs;
  for (const auto& a : n.aggs) {
    ExprPtr one = overOneRow(a);
    if (!one) return false;
    exprs.push_back(NamedExpr{a.name, one});
  }
  bool identity = n.aggs.empty() && exprs.size() == in.output.size();
  for (size_t i = 0; identity && i < exprs.size(); ++i)
    identity = exprs[i].name == in.output[i].id && exprs[i].expr->name == exprs[i].name;
  if (identity) {
    slot = n.children[0];
    return true;
  }
  auto p = makePooled<PlanNode>();
  p->op = PlanOp::Project;
  p->id = n.id;
  p->loc = n.loc;
  p->exprs = std::move(exprs);
  p->children = n.children;
  computeOutput(*p);
  slot = p;
  return true;
}

/// The scan whose column `id` reaches `n`'s output with its table's values on
/// every row: through filters, sorts, limits, windows, projections that pass it
/// under its id, and joins on a side they never NULL-fill. Null otherwise.
const PlanNode* sourceScan(const PlanNode& n, const std::string& id) {
  switch (n.op) {
    case PlanOp::Scan:
      return produces(n, id) ? &n : nullptr;
    case PlanOp::Filter:
    case PlanOp::Sort:
    case PlanOp::Limit:
    case PlanOp::Window:
      return n.children.size() == 1 ? sourceScan(*n.children[0], id) : nullptr;
    case PlanOp::Project:
      for (const auto& ne : n.exprs)
        if (ne.name == id)
          return ne.expr->kind == ExprKind::Column && ne.expr->name == id
                     ? sourceScan(*n.children[0], id)
                     : nullptr;
      return nullptr;
    case PlanOp::Join:
      for (size_t s = 0; s < n.children.size() && s < 2; ++s)
        if (produces(*n.children[s], id))
          return joinInfo(n.joinType).generatesNulls[s] ? nullptr : sourceScan(*n.children[s], id);
      return nullptr;
    default:
      return nullptr;
  }
}

/// Columns each expression of the plan reads, counted once per conjunct.
using Reads = std::map<std::string, int>;

void countReads(const PlanNode& root, Reads& reads) {
  forEachNode(root, [&](const PlanNode& x) {
    forEachExpr(x, [&](const ExprPtr& e) {
      for (const auto& conjunct : conjuncts(e))
        for (const auto& c : columnsOf(*conjunct)) ++reads[c];
    });
  });
}

/// Columns read by position, not by id: the root's, a set operation's inputs',
/// a subquery's result.
std::set<std::string> readByPosition(const PlanNode& root) {
  std::set<std::string> out = outputIds(root);
  forEachNode(root, [&](const PlanNode& x) {
    if (x.op == PlanOp::Union || x.op == PlanOp::Intersect || x.op == PlanOp::Except)
      for (const auto& c : x.children)
        for (const auto& col : c->output) out.insert(col.id);
    forEachSubqueryPlan(x, [&](const PlanNode& q) {
      for (const auto& col : q.output) out.insert(col.id);
    });
  });
  return out;
}

/// Join `n`'s condition split into equalities between a column of input 0 and
/// a column of input 1 and the rest; `parts` holds its conjuncts meanwhile.
SplitCondition columnKeys(const PlanNode& n, std::vector<const Expr*>& parts) {
  auto reads = [](const PlanNode& c) {
    return [&c](const Expr& e) { return e.kind == ExprKind::Column && produces(c, e.name); };
  };
  for (const auto& c : conjuncts(n.predicate)) parts.push_back(c.get());
  return splitJoinCondition(parts, reads(*n.children[0]), reads(*n.children[1]), {CmpOp::Eq});
}

/// The equalities of join `n`'s condition between a column of input 0 and a
/// column of input 1 (id pairs), when the condition is nothing else.
std::optional<std::vector<std::pair<std::string, std::string>>> columnEqualities(
    const PlanNode& n) {
  std::vector<const Expr*> parts;
  const SplitCondition split = columnKeys(n, parts);
  if (!split.residue.empty() || split.keys.empty()) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  for (const JoinKey& k : split.keys) out.emplace_back(k.left()->name, k.right()->name);
  return out;
}

/// True when inner join `n`'s condition is exactly a FOREIGN KEY of a table
/// scanned in its input `keep` equated with the columns it references in a
/// scan of that table, the other input (no filter: every row of the table): with
/// the key's columns NOT NULL, each row of `keep` meets exactly one row of it.
/// So too a key of the table equated with itself in another scan of it.
/// Counterexample with a nullable key column: a row whose key is NULL meets
/// none, and the join drops it.
bool foreignKeyJoin(const PlanNode& n, int keep) {
  const PlanNode& other = *n.children[static_cast<size_t>(1 - keep)];
  if (other.op != PlanOp::Scan) return false;
  auto eqs = columnEqualities(n);
  if (!eqs) return false;
  std::map<std::string, std::string> kept;  // the other scan's bare column -> kept column id
  const std::string prefix = other.alias + ".";
  for (auto [a, b] : *eqs) {
    if (keep == 1) std::swap(a, b);
    // A referenced column equated twice (e.boss = d.deptno AND e.deptno =
    // d.deptno) also equates the two: a filter, not the key alone.
    if (b.rfind(prefix, 0) != 0 || !kept.emplace(b.substr(prefix.size()), a).second) return false;
  }
  const PlanNode* scan = sourceScan(*n.children[static_cast<size_t>(keep)], kept.begin()->second);
  if (!scan) return false;
  // The same table's key, column for column: each row meets itself alone (a
  // key's columns NOT NULL). Counterexample with a key over nullable columns:
  // a row whose key is NULL meets none.
  if (scan->table == other.table) {
    std::set<std::string> same;
    for (const auto& [bare, id] : kept)
      if (id == scan->alias + "." + bare &&
          sourceScan(*n.children[static_cast<size_t>(keep)], id) == scan)
        same.insert(id);
    // (A scan's keys are a PRIMARY KEY or UNIQUE over NOT NULL columns: row_keys.h.)
    if (same.size() == kept.size() && hasRowKeyWithin(*scan, same)) return true;
  }
  for (const auto& fk : scan->foreignKeys) {
    if (fk.refTable != other.table || fk.columns.size() != kept.size()) continue;
    bool match = true;
    for (size_t i = 0; match && i < fk.columns.size(); ++i) {
      auto it = kept.find(fk.refColumns[i]);
      match = it != kept.end() && it->second == fk.columns[i].str() &&
              sourceScan(*n.children[static_cast<size_t>(keep)], it->second) == scan;
      bool notNull = false;
      for (const auto& c : scan->tableColumns)
        if (c.id == fk.columns[i]) notNull = !c.nullable;
      for (const auto& c : scan->primaryKey) notNull = notNull || c == fk.columns[i];
      match = match && notNull;
    }
    if (match) return true;
  }
  return false;
}

/// True when LEFT (RIGHT) join `n` keeps input `keep` whole and each of its
/// rows meets at most one row of the other: its condition equates a key of the
/// other input with columns of `keep`. Every row of `keep` then appears once,
/// matched or padded. Counterexample without the key: two rows of the other
/// input match one row, which appears twice.
bool atMostOneMatch(const PlanNode& n, int keep) {
  const auto& info = joinInfo(n.joinType);
  if (!info.preserves[keep] || info.preserves[1 - keep] || !n.predicate) return false;
  const PlanNode& other = *n.children[static_cast<size_t>(1 - keep)];
  std::set<std::string> equated;
  std::vector<const Expr*> parts;
  for (const JoinKey& k : columnKeys(n, parts).keys)
    equated.insert((keep == 0 ? k.right() : k.left())->name);
  return hasRowKeyWithin(other, equated);
}

/// The input join `n` keeps when the other one may go (kJoins): no one but the
/// condition and that input itself reads its columns (`reads` counted over the
/// whole plan, `pinned` read by position), and every kept row appears once in
/// the join's result (foreignKeyJoin, atMostOneMatch). -1 when neither.
int droppable(const PlanNode& n, const Reads& reads, const std::set<std::string>& pinned) {
  if (n.op != PlanOp::Join || n.children.size() != 2 || !n.predicate || !movable(*n.predicate) ||
      hasSubquery(*n.predicate))
    return -1;
  const auto& info = joinInfo(n.joinType);
  for (int keep = 0; keep < 2; ++keep) {
    const PlanNode& other = *n.children[static_cast<size_t>(1 - keep)];
    if (!info.outputs[keep] || !freeColumns(other).empty() || !deterministicPlan(other)) continue;
    Reads local;
    countReads(other, local);
    for (const auto& c : conjuncts(n.predicate))
      for (const auto& col : columnsOf(*c)) ++local[col];
    bool unread = true;
    for (const auto& col : other.output) {
      auto it = reads.find(col.id);
      const int total = it == reads.end() ? 0 : it->second;
      unread = unread && !pinned.count(col.id) && total == local[col.id];
    }
    const bool inner = info.freelyReordered && info.hasCondition;
    if (unread && (inner ? foreignKeyJoin(n, keep) : atMostOneMatch(n, keep))) return keep;
  }
  return -1;
}

/// A filter's equalities between columns of the two inputs of the inner (or
/// cross) join below it, as that join's condition: sigma_p(A x B) is
/// A join_p B, so a join written in WHERE may go as one written in ON. Null
/// when there are none; `kept` gets the filter's other conjuncts.
PlanPtr withEqualitiesOf(const PlanNode& f, Conjuncts& kept) {
  if (f.op != PlanOp::Filter || f.children.size() != 1 || !f.predicate || !movable(*f.predicate))
    return nullptr;
  const PlanNode& j = *f.children[0];
  if (j.op != PlanOp::Join || j.children.size() != 2 || !joinInfo(j.joinType).freelyReordered ||
      (j.predicate && !movable(*j.predicate)))
    return nullptr;
  Conjuncts moved;
  for (const auto& c : conjuncts(f.predicate)) {
    const ComparisonInfo* cmp = comparisonOf(*c);
    const bool pair = cmp && cmp->kind == Comparison::Eq && c->args[0]->kind == ExprKind::Column &&
                      c->args[1]->kind == ExprKind::Column;
    bool across = false;
    for (size_t s = 0; pair && s < 2; ++s)
      across = across || (produces(*j.children[s], c->args[0]->name) &&
                          produces(*j.children[1 - s], c->args[1]->name));
    (across ? moved : kept).push_back(c);
  }
  if (moved.empty()) return nullptr;
  if (j.predicate) moved.insert(moved.begin(), j.predicate);
  auto copy = makePooled<PlanNode>(j);
  copy->predicate = makeAnd(moved);
  copy->joinType = JoinType::Inner;
  return copy;
}

/// Drops one join below `slot` that may go (droppable), written in ON or, for
/// an inner join, in the WHERE above it (withEqualitiesOf).
bool dropUnreadJoin(PlanPtr& slot, const Reads& reads, const std::set<std::string>& pinned) {
  if (int keep = droppable(*slot, reads, pinned); keep >= 0) {
    slot = slot->children[static_cast<size_t>(keep)];
    return true;
  }
  Conjuncts kept;
  if (PlanPtr join = withEqualitiesOf(*slot, kept)) {
    if (int keep = droppable(*join, reads, pinned); keep >= 0) {
      PlanPtr input = join->children[static_cast<size_t>(keep)];
      if (kept.empty()) {
        slot = input;
      } else {
        slot->predicate = makeAnd(kept);
        slot->children[0] = input;
      }
      return true;
    }
  }
  for (auto& c : slot->children)
    if (dropUnreadJoin(c, reads, pinned)) return true;
  return false;
}

/// Applies the projection and key laws bottom-up in the tree below `slot`, and
/// below the roots of the subquery plans it holds (their roots keep their place).
bool bottomUp(PlanPtr& slot, unsigned identities) {
  bool changed = false;
  auto below = [&](PlanNode& n) {
    for (auto& c : n.children) changed = bottomUp(c, identities) || changed;
  };
  below(*slot);
  // The copy is deep (deepClonePlan): its subquery plans are its own to edit.
  forEachSubqueryPlan(*slot, [&](const PlanNode& q) {
    below(const_cast<PlanNode&>(q));
    changed =
        ((identities & kProjections) && mergeProjections(const_cast<PlanNode&>(q))) || changed;
  });
  if ((identities & kKeys) && groupByOverKey(slot)) changed = true;
  if ((identities & kProjections) && filterBelowProjection(slot)) changed = true;
  if ((identities & kProjections) && mergeProjections(*slot)) changed = true;
  if ((identities & kProjections) && aggregateOverProjection(*slot)) changed = true;
  if ((identities & kSetOps) && filterIntoSetOperation(slot)) changed = true;
  if ((identities & kSetOps) && flattenSetOperation(*slot)) changed = true;
  if ((identities & kSetOps) && renamingOverSetOperation(slot)) changed = true;
  return changed;
}

}  // namespace

PlanPtr withLaws(const PlanNode& root, unsigned identities, const Naming* naming) {
  PlanPtr copy = deepClonePlan(root);
  // Each law keeps the root's columns and ids; a dropped join's columns are
  // read by no one, so the nodes above it lose only columns nothing reads.
  // Names last: a self-join dropped leaves its table read once.
  for (int round = 0; round < 16 && (identities & (kKeys | kJoins | kProjections | kSetOps));
       ++round) {
    bool changed = bottomUp(copy, identities);
    if (identities & kJoins) {
      Reads reads;
      countReads(*copy, reads);
      if (dropUnreadJoin(copy, reads, readByPosition(*copy))) changed = true;
    }
    if (!changed) break;
    refreshOutputs(*copy);
  }
  if (identities & kSetOps) {
    // A set operation reads its inputs by position: the names their
    // projections give their columns are read by no one else, so they go.
    forEachNode(*copy, [&](const PlanNode& n) {
      if (n.op != PlanOp::Union && n.op != PlanOp::Intersect && n.op != PlanOp::Except) return;
      for (const auto& c : n.children)
        if (c->op == PlanOp::Project)
          for (size_t j = 0; j < c->exprs.size(); ++j)
            c->exprs[j].name = "$in." + std::to_string(j);
    });
    refreshOutputs(*copy);
  }
  if (identities & kProjections) {
    // Group keys that are plain columns now, named after them.
    std::vector<PlanNode*> aggregates;
    forEachNode(*copy, [&](const PlanNode& n) {
      if (n.op == PlanOp::Aggregate) aggregates.push_back(const_cast<PlanNode*>(&n));
    });
    bool renamed = false;
    for (PlanNode* a : aggregates) renamed = renameGroupKeys(*copy, *a) || renamed;
    if (renamed) refreshOutputs(*copy);
  }
  if (identities & kNames) {
    renameTables(*copy, naming);
    renameOutputs(*copy);
  }
  return copy;
}

}  // namespace rfguard::normal_form
