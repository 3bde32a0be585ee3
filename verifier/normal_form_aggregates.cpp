// The normal form's aggregate laws (normal_form_laws.h, kAggregates): a filter
// on group keys below the aggregate, DISTINCT dropped where it changes nothing,
// count of a NOT NULL argument as count(*), constant keys out of the grouping.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/comparison.h"
#include "ir/functions.h"
#include "verifier/normal_form_laws.h"
#include "verifier/row_keys.h"

namespace rfguard::normal_form {

namespace {

/// An aggregate of one grouping set over one input, its expressions
/// deterministic and free of subqueries.
bool plainAggregate(const PlanNode& a) {
  if (a.op != PlanOp::Aggregate || a.children.size() != 1 || !a.groupingSets.empty()) return false;
  bool ok = true;
  forEachExpr(a, [&](const ExprPtr& e) { ok = ok && movable(*e) && !hasSubquery(*e); });
  return ok;
}

}  // namespace

bool filterBelowAggregate(PlanPtr& slot) {
  // A conjunct that reads only group keys holds for a group exactly when it
  // holds for each of its rows (they all carry the key's values), so rows
  // filtered before grouping leave exactly the groups it keeps, and those
  // groups aggregate the same rows. Needs a key: without one the aggregate
  // returns a row over no input, `HAVING false` none. Counterexample on an
  // aggregate, `HAVING sum(v) > 10` as `WHERE v > 10`: rows 6 and 6 make one
  // group of 12, kept above and gone below.
  PlanNode& f = *slot;
  if (f.op != PlanOp::Filter || f.children.size() != 1 || !f.predicate) return false;
  const PlanNode& a = *f.children[0];
  if (!plainAggregate(a) || a.exprs.empty()) return false;
  std::map<std::string, ExprPtr> keys;
  for (const auto& ne : a.exprs) keys[ne.name] = ne.expr;
  return filterThrough(
      slot,
      [&](const ExprPtr& c) {
        return movable(*c) && !hasSubquery(*c) &&
               allColumnRefs(*c, [&](const std::string& id) { return keys.count(id); });
      },
      [&](const ExprPtr& c) { return substitute(c, keys); });
}

bool simplifyAggregateCalls(PlanNode& a) {
  // min, max and any_value of the distinct values are those of all values; an aggregate
  // of the distinct values of a column that is a key of the input (no two
  // rows share a value) sees every value once anyway. count(x) of a column the
  // input never makes NULL counts every row: count(*). Counterexamples:
  // count(DISTINCT v) over v = 1, 1 is 1, count(v) 2; count(v) over a NULL v
  // is 0, count(*) 1.
  if (!plainAggregate(a)) return false;
  const PlanNode& in = *a.children[0];
  bool changed = false;
  for (auto& call : a.aggs) {
    const bool oneColumn = call.args.size() == 1 && call.args[0]->kind == ExprKind::Column;
    if (call.distinct && (call.func == "min" || call.func == "max" || call.func == "any_value" ||
                          (oneColumn && hasRowKeyWithin(in, {call.args[0]->name})))) {
      call.distinct = false;
      changed = true;
    }
    if (call.func == "count" && !call.distinct && oneColumn) {
      const std::string& id = call.args[0]->name;
      auto it = std::find_if(in.output.begin(), in.output.end(),
                             [&](const Column& c) { return c.id.str() == id; });
      if (it != in.output.end() && !it->nullable) {
        call.args.clear();
        changed = true;
      }
    }
  }
  if (changed) a.outputStamp = {};
  return changed;
}

bool constantGroupKeys(PlanPtr& slot) {
  // A key that is a literal puts every row in the same place: grouping without
  // it makes the same groups, and a projection gives the literal back. Another
  // key must stay: over no input GROUP BY 7 returns no row, no GROUP BY one.
  PlanNode& a = *slot;
  if (!plainAggregate(a)) return false;
  std::vector<NamedExpr> kept;
  for (const auto& ne : a.exprs)
    if (ne.expr->kind != ExprKind::Literal) kept.push_back(ne);
  if (kept.size() == a.exprs.size() || kept.empty()) return false;
  auto project = makePooled<PlanNode>();
  project->op = PlanOp::Project;
  project->id = a.id;
  project->loc = a.loc;
  for (const auto& ne : a.exprs) {
    const bool literal = ne.expr->kind == ExprKind::Literal;
    project->exprs.push_back(NamedExpr{
        ne.name, literal ? ne.expr : makeColumn(ne.name, ne.expr->type, ne.expr->nullable)});
  }
  for (const auto& call : a.aggs)
    project->exprs.push_back(NamedExpr{call.name, makeColumn(call.name, call.type, true)});
  auto agg = makePooled<PlanNode>(a);
  agg->exprs = kept;
  computeOutput(*agg);
  // The columns as the aggregate makes them (their nullability).
  for (auto& ne : project->exprs)
    for (const auto& c : agg->output)
      if (ne.expr->kind == ExprKind::Column && c.id.str() == ne.name)
        ne.expr = makeColumn(ne.name, c.type, c.nullable);
  project->children = {agg};
  computeOutput(*project);
  slot = project;
  return true;
}

bool keysFixedByFilter(PlanNode& a) {
  // Every row of a filter with the conjunct `k = c` (c a literal, not NULL, of
  // k's exact type) has k equal to c, so a group key k is the literal c in
  // every group (constantGroupKeys then takes it out of the grouping): Calcite's
  // AGGREGATE_PROJECT_PULL_UP_CONSTANTS. Not floating point, whose 0 and -0
  // are equal but print apart. Counterexample without the filter's equality,
  // `k >= 1`: groups k = 1 and k = 2 are one group of key 1.
  if (!plainAggregate(a) || a.exprs.empty()) return false;
  const PlanNode& f = *a.children[0];
  if (f.op != PlanOp::Filter || f.children.size() != 1 || !f.predicate) return false;
  std::map<std::string, ExprPtr> fixed;
  forEachConjunct(f.predicate, [&](const ExprPtr& c) {
    const ComparisonInfo* cmp = comparisonOf(*c);
    if (!cmp || cmp->kind != Comparison::Eq || cmp->nullSafe) return true;
    for (int side = 0; side < 2; ++side) {
      const ExprPtr &k = c->args[static_cast<size_t>(side)],
                    &v = c->args[static_cast<size_t>(1 - side)];
      if (k->kind == ExprKind::Column && v->kind == ExprKind::Literal && !v->isNull &&
          k->type.toString() == v->type.toString() && k->type.kind != TypeKind::Real &&
          k->type.kind != TypeKind::Double)
        fixed.emplace(k->name, v);
    }
    return true;
  });
  bool changed = false;
  for (auto& ne : a.exprs)
    if (ne.expr->kind == ExprKind::Column)
      if (auto it = fixed.find(ne.expr->name); it != fixed.end()) {
        ne.expr = it->second;
        changed = true;
      }
  if (changed) a.outputStamp = {};
  return changed;
}

bool aggregateOfAggregates(PlanPtr& slot) {
  // GROUP BY g of f(s) over a UNION ALL whose inputs are each GROUP BY g of
  // f'(x) is GROUP BY g of f(x) over the UNION ALL of the inputs below them:
  // every row of the result's group g is one input's group g, so a sum of the
  // inputs' sums (min of mins, max of maxes) over g is the sum over all their
  // rows, and a sum of counts is the count (Calcite's
  // AGGREGATE_UNION_TRANSPOSE, read backwards). Sums skip NULL the same way
  // (all NULL: NULL either way); without keys both return one row. Each
  // column of the union a key or one such aggregate; no DISTINCT.
  // Counterexample with the outer count(s) for sum(s): it counts groups, two
  // inputs' group 1 of two rows each make 2 where the rows are 4.
  PlanNode& o = *slot;
  if (!plainAggregate(o)) return false;
  const PlanNode& u = *o.children[0];
  if (u.op != PlanOp::Union || !u.all || u.children.empty()) return false;
  auto position = [&](const ExprPtr& e) {
    for (size_t j = 0; e->kind == ExprKind::Column && j < u.output.size(); ++j)
      if (u.output[j].id == e->name) return static_cast<int>(j);
    return -1;
  };
  // What each column of the union is to the outer aggregate: a key, or the
  // argument of one aggregate call.
  std::vector<int> role(u.output.size(), -2);  // -1: a key; i: o.aggs[i]
  for (const auto& ne : o.exprs) {
    const int j = position(ne.expr);
    if (j < 0 || role[static_cast<size_t>(j)] != -2) return false;
    role[static_cast<size_t>(j)] = -1;
  }
  for (size_t i = 0; i < o.aggs.size(); ++i) {
    const AggCall& call = o.aggs[i];
    if (call.distinct || call.args.size() != 1 ||
        (call.func != "sum" && call.func != "min" && call.func != "max"))
      return false;
    const int j = position(call.args[0]);
    if (j < 0 || role[static_cast<size_t>(j)] != -2) return false;
    role[static_cast<size_t>(j)] = static_cast<int>(i);
  }
  if (std::count(role.begin(), role.end(), -2) > 0) return false;
  std::vector<std::string> outer(o.aggs.size());  // the calls' new functions
  // Per input, per column of the union: what the new union carries there (null:
  // a count(*), which needs no column).
  std::vector<std::vector<ExprPtr>> carried;
  std::vector<PlanPtr> below;
  for (const auto& child : u.children) {
    // The input: an aggregate, or a projection of its columns.
    const PlanNode* a = child.get();
    std::vector<std::string> ids;
    for (const auto& c : child->output) ids.push_back(c.id.str());
    if (a->op == PlanOp::Project && a->children.size() == 1) {
      for (size_t j = 0; j < ids.size(); ++j) {
        if (a->exprs[j].expr->kind != ExprKind::Column) return false;
        ids[j] = a->exprs[j].expr->name;
      }
      a = a->children[0].get();
    }
    if (!plainAggregate(*a) || a->exprs.size() != o.exprs.size() || ids.size() != role.size())
      return false;
    std::vector<ExprPtr> mine;
    std::set<std::string> keys;
    for (size_t j = 0; j < role.size(); ++j) {
      const std::string& id = ids[j];
      if (role[j] == -1) {
        auto k = std::find_if(a->exprs.begin(), a->exprs.end(),
                              [&](const NamedExpr& ne) { return ne.name == id; });
        if (k == a->exprs.end() || !keys.insert(id).second) return false;
        mine.push_back(k->expr);
        continue;
      }
      auto c = std::find_if(a->aggs.begin(), a->aggs.end(),
                            [&](const AggCall& call) { return call.name == id; });
      if (c == a->aggs.end() || c->distinct || c->args.size() > 1) return false;
      const AggCall& call = o.aggs[static_cast<size_t>(role[j])];
      std::string f;
      if (call.func == c->func && c->func != "count" && c->args.size() == 1)
        f = c->func;  // sum of sums, min of mins, max of maxes
      else if (call.func == "sum" && c->func == "count")
        f = "count";  // a sum of counts
      else
        return false;
      std::string& agreed = outer[static_cast<size_t>(role[j])];
      if (!agreed.empty() && agreed != f) return false;
      agreed = f;
      mine.push_back(c->args.empty() ? nullptr : c->args[0]);
    }
    carried.push_back(std::move(mine));
    below.push_back(a->children[0]);
  }
  // The new union's columns: one per position, but none for a count(*) in
  // every input, and one for positions that carry the same in every input.
  std::vector<int> at(role.size(), -1);  // position -> kept position
  std::vector<size_t> kept;
  for (size_t j = 0; j < role.size(); ++j) {
    bool star = true;
    for (const auto& mine : carried) star = star && !mine[j];
    if (star) continue;
    for (size_t i : kept) {
      bool same = true;
      for (const auto& mine : carried)
        same = same && mine[i] && mine[j] && exprEquals(mine[i], mine[j]);
      if (same) at[j] = static_cast<int>(i);
    }
    if (at[j] < 0) {
      at[j] = static_cast<int>(j);
      kept.push_back(j);
    }
  }
  auto copy = makePooled<PlanNode>(u);
  copy->outNames.clear();
  for (size_t j : kept) copy->outNames.push_back(u.outNames[j]);
  copy->children.clear();
  for (size_t i = 0; i < carried.size(); ++i) {
    auto p = makePooled<PlanNode>();
    p->op = PlanOp::Project;
    for (size_t j : kept)
      p->exprs.push_back(
          NamedExpr{"$agg." + std::to_string(j),
                    carried[i][j] ? carried[i][j] : makeLiteral("1", Type::of(TypeKind::Int))});
    p->children = {below[i]};
    computeOutput(*p);
    copy->children.push_back(p);
  }
  computeOutput(*copy);
  auto merged = makePooled<PlanNode>(o);
  merged->children = {copy};
  std::map<std::string, ExprPtr> as;
  for (size_t j = 0; j < role.size(); ++j)
    if (at[j] >= 0)
      for (const auto& c : copy->output)
        if (c.id == u.outNames[static_cast<size_t>(at[j])])
          as[u.output[j].id.str()] = makeColumn(c.id.str(), c.type, c.nullable);
  for (auto& ne : merged->exprs) ne.expr = substitute(ne.expr, as);
  for (size_t i = 0; i < merged->aggs.size(); ++i) {
    AggCall& call = merged->aggs[i];
    call.func = outer[i];
    const int j = position(call.args[0]);
    call.args = at[static_cast<size_t>(j)] < 0 ? std::vector<ExprPtr>{}
                                               : std::vector<ExprPtr>{substitute(call.args[0], as)};
  }
  merged->outputStamp = {};
  computeOutput(*merged);
  slot = merged;
  return true;
}

}  // namespace rfguard::normal_form
