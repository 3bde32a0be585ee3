// The normal form's plan laws (normal_form_laws.h): projections merged and
// read through, GROUP BY over a key as a projection, filters into set
// operations, set operations flattened; joins in normal_form_joins.cpp, names
// in normal_form_names.cpp.
#include "verifier/normal_form_laws.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ir/functions.h"
#include "ir/join_type.h"
#include "verifier/row_keys.h"

namespace rfguard::normal_form {

namespace {

bool deterministicExprs(const PlanNode& n) {
  bool ok = true;
  forEachExpr(n, [&](const ExprPtr& e) { ok = ok && movable(*e); });
  return ok;
}

}  // namespace

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

PlanPtr passingColumns(const std::vector<Column>& columns, const PlanPtr& input, int id) {
  auto p = makePooled<PlanNode>();
  p->op = PlanOp::Project;
  p->id = id;
  for (const auto& c : columns)
    p->exprs.push_back(NamedExpr{c.id.str(), makeColumn(c.id.str(), c.type, c.nullable)});
  p->children = {input};
  computeOutput(*p);
  return p;
}

/// A filter whose condition may be evaluated elsewhere, substituted:
/// deterministic, no subqueries.
bool plainFilter(const PlanNode& f) {
  return f.op == PlanOp::Filter && f.children.size() == 1 && f.predicate && movable(*f.predicate) &&
         !hasSubquery(*f.predicate);
}

/// The set operation `op`'s columns as `input`'s columns in the same
/// positions; nullopt when their counts differ.
std::optional<std::map<std::string, ExprPtr>> byPosition(const PlanNode& op,
                                                         const PlanNode& input) {
  if (input.output.size() != op.outNames.size()) return std::nullopt;
  std::map<std::string, ExprPtr> as;
  for (size_t j = 0; j < op.outNames.size(); ++j) {
    const Column& c = input.output[j];
    as[op.outNames[j]] = makeColumn(c.id.str(), c.type, c.nullable);
  }
  return as;
}

namespace {

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

}  // namespace

bool filterInto(PlanPtr& slot, const std::function<int(const ExprPtr&)>& inputOf,
                const std::function<ExprPtr(const ExprPtr&)>& rewrite) {
  const PlanPtr self = slot;  // (slot is reassigned below: f stays alive)
  PlanNode& f = *self;
  if (f.op != PlanOp::Filter || f.children.size() != 1 || !f.predicate) return false;
  const PlanNode& m = *f.children[0];
  std::vector<Conjuncts> under(m.children.size());
  Conjuncts over;
  bool moved = false;
  forEachConjunct(f.predicate, [&](const ExprPtr& c) {
    const int i = inputOf(c);
    if (i >= 0 && static_cast<size_t>(i) < under.size()) {
      under[static_cast<size_t>(i)].push_back(rewrite(c));
      moved = true;
    } else {
      over.push_back(c);
    }
    return true;
  });
  if (!moved) return false;
  auto middle = makePooled<PlanNode>(m);
  for (size_t i = 0; i < under.size(); ++i) {
    if (under[i].empty()) continue;
    auto filter = makePooled<PlanNode>();
    filter->op = PlanOp::Filter;
    filter->id = f.id;
    filter->predicate = makeAnd(under[i]);
    filter->children = {m.children[i]};
    computeOutput(*filter);
    middle->children[i] = filter;
  }
  computeOutput(*middle);
  slot = middle;
  if (over.empty()) return true;
  auto rest = makePooled<PlanNode>(f);
  rest->predicate = makeAnd(over);
  rest->children = {middle};
  computeOutput(*rest);
  slot = rest;
  return true;
}

bool filterThrough(PlanPtr& slot, const std::function<bool(const ExprPtr&)>& below,
                   const std::function<ExprPtr(const ExprPtr&)>& rewrite) {
  if (slot->children.size() != 1 || slot->children[0]->children.size() != 1) return false;
  return filterInto(
      slot, [&](const ExprPtr& c) { return below(c) ? 0 : -1; }, rewrite);
}

namespace {

bool projectionIntoUnionAll(PlanPtr& slot) {
  // UNION ALL adds its inputs' rows: projecting the sum is summing the
  // projections, each input's columns by position in the expressions.
  // Deterministic and no subqueries (as for mergeProjections). Not UNION
  // (DISTINCT), INTERSECT or EXCEPT: a projection may make rows equal that
  // were not (`k % 2` over the distinct 1 and 3).
  PlanNode& p = *slot;
  if (!substitutable(p)) return false;
  const PlanNode& u = *p.children[0];
  if (u.op != PlanOp::Union || !u.all) return false;
  auto copy = makePooled<PlanNode>(u);
  for (auto& child : copy->children) {
    auto as = byPosition(u, *child);
    if (!as) return false;
    auto proj = makePooled<PlanNode>(p);
    for (auto& ne : proj->exprs) ne.expr = substitute(ne.expr, *as);
    proj->children = {child};
    computeOutput(*proj);
    child = proj;
  }
  copy->outNames.clear();
  for (const auto& ne : p.exprs) copy->outNames.push_back(ne.name);
  computeOutput(*copy);
  slot = copy;
  return true;
}

bool filterBelowWindow(PlanPtr& slot) {
  // A conjunct over columns every window function of the node partitions by
  // keeps or drops whole partitions, so each kept row's partition, and its
  // window values, are the same below. Counterexample on another column:
  // row_number over (PARTITION BY k ORDER BY v) with v = 0, 1 in one
  // partition numbers v = 1 as 2 above a filter `v = 1`, as 1 below it.
  PlanNode& f = *slot;
  if (!plainFilter(f)) return false;
  const PlanNode& w = *f.children[0];
  if (w.op != PlanOp::Window || w.children.size() != 1 || w.windows.empty()) return false;
  std::set<std::string> keys;
  bool first = true;
  for (const auto& call : w.windows) {
    std::set<std::string> mine;
    for (const auto& e : call.partitionBy)
      if (e->kind == ExprKind::Column) mine.insert(e->name);
    if (first) keys = mine;
    std::set<std::string> both;
    for (const auto& k : keys)
      if (mine.count(k)) both.insert(k);
    keys = both;
    first = false;
  }
  return filterThrough(
      slot,
      [&](const ExprPtr& c) {
        return hasColumnRef(*c) &&
               allColumnRefs(*c, [&](const std::string& id) { return keys.count(id); });
      },
      [](const ExprPtr& c) { return c; });
}

/// Where only whether a row is there counts: the other input of a semi or
/// anti join (NOT IN's too), a DISTINCT as the projection of its keys.
bool distinctUnderSemiJoin(PlanNode& n) {
  if (n.op != PlanOp::Join || n.children.size() != 2) return false;
  const JoinTypeInfo& info = joinInfo(n.joinType);
  for (size_t i = 0; i < 2; ++i)
    if (!info.outputs[i] && info.outputs[1 - i])
      if (PlanPtr p = withoutDistinct(n.children[i])) {
        n.children[i] = p;
        return true;
      }
  return false;
}

/// What the aggregate `a` computes over a group of one input row, or null when
/// it is not one of those: count(*) is 1; min, max, sum and avg (DISTINCT or
/// not), any_value and single_value are their argument, cast to their type where it differs (sum of
/// an int is a bigint, avg a double).
ExprPtr overOneRow(const AggCall& a) {
  if (a.func == "count" && a.args.empty()) return makeLiteral("1", a.type);
  if (a.args.size() != 1 || !movable(*a.args[0])) return nullptr;
  static const char* const kOfOne[] = {"min", "max", "sum", "avg", "any_value", "single_value"};
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
  if ((identities & kConstants) && simplifyExpressions(*slot)) changed = true;
  if ((identities & kConstants) && emptyRelation(slot)) changed = true;
  if ((identities & kSubqueries) && countsAsExists(*slot)) changed = true;
  if ((identities & kSubqueries) && scalarAsLeftJoin(slot)) changed = true;
  if ((identities & kKeys) && groupByOverKey(slot)) changed = true;
  if ((identities & kProjections) && filterBelowProjection(slot)) changed = true;
  if ((identities & kProjections) && mergeProjections(*slot)) changed = true;
  if ((identities & kProjections) && aggregateOverProjection(*slot)) changed = true;
  if ((identities & kAggregates) && filterBelowAggregate(slot)) changed = true;
  if ((identities & kAggregates) && simplifyAggregateCalls(*slot)) changed = true;
  if ((identities & kFixedKeys) && keysFixedByFilter(*slot)) changed = true;
  if ((identities & kAggregateUnion) && aggregateOfAggregates(slot)) changed = true;
  if ((identities & kAggregateJoin) && keysByEqualities(slot)) changed = true;
  if ((identities & kAggregates) && constantGroupKeys(slot)) changed = true;
  if ((identities & kProjections) && projectionIntoUnionAll(slot)) changed = true;
  if ((identities & kProjections) && filterBelowWindow(slot)) changed = true;
  if ((identities & kConstants) && distinctUnderSemiJoin(*slot)) changed = true;
  if ((identities & kSetOps) && filterIntoSetOperation(slot)) changed = true;
  if ((identities & kSetOps) && flattenSetOperation(*slot)) changed = true;
  if ((identities & kAcross) && filtersAcrossSetOperation(*slot, identities)) changed = true;
  if ((identities & kSetJoins) && distinctSemiAsSetOperation(slot)) changed = true;
  if ((identities & kAssociate) && leftJoinsLeftDeep(slot)) changed = true;
  if ((identities & kSetOps) && renamingOverSetOperation(slot)) changed = true;
  return changed;
}

}  // namespace

PlanPtr withLaws(const PlanNode& root, unsigned identities, const Naming* naming,
                 std::vector<std::string>* output) {
  PlanPtr copy = deepClonePlan(root);
  // Each law keeps the root's columns and ids; a dropped join's columns are
  // read by no one, so the nodes above it lose only columns nothing reads.
  // Names last: a self-join dropped leaves its table read once.
  auto settle = [&] {
    for (int round = 0;
         round < 16 && (identities & (kKeys | kJoins | kProjections | kSetOps | kAggregates |
                                      kConstants | kSubqueries | kAcross | kAssociate | kFixedKeys |
                                      kSemi | kAggregateUnion | kSetJoins | kAggregateJoin));
         ++round) {
      bool changed = bottomUp(copy, identities);
      if ((identities & (kJoins | kSemi)) && dropUnreadJoin(copy, identities)) changed = true;
      if ((identities & kAggregateJoin) && aggregateAboveKeyJoin(copy)) changed = true;
      if ((identities & kProjections) && dropRenamings(*copy)) changed = true;
      if (!changed) break;
      refreshOutputs(*copy);
    }
  };
  settle();
  // Repeated inputs out and UNION as DISTINCT over UNION ALL once the set
  // operations are flat (an inner UNION flattens into an outer one first),
  // then the laws again.
  const bool repeated = (identities & kRepeated) && repeatedInputs(copy, identities);
  if (((identities & kSetOps) && unionsAsDistinct(copy)) || repeated) {
    refreshOutputs(*copy);
    settle();
  }
  if (identities & kSetOps) renameSetOperationInputs(*copy);
  if (identities & kNames) renameSetOperationOutputs(*copy);
  if (identities & kProjections) renameGroupKeys(*copy);
  std::vector<std::string> columns = rootColumns(copy, identities & kNames);
  if (identities & kNames) {
    renameTables(*copy, naming, &columns);
    renameSubqueryOutputs(*copy);
    renameAggregates(*copy, columns);
    renameOutputs(*copy, columns);
  }
  if (output) *output = columns;
  return copy;
}

}  // namespace rfguard::normal_form
