// The normal form's aggregate laws (normal_form_laws.h, kAggregates): a filter
// on group keys below the aggregate, DISTINCT dropped where it changes nothing,
// count of a NOT NULL argument as count(*), constant keys out of the grouping.
#include <algorithm>
#include <map>
#include <set>

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

}  // namespace rfguard::normal_form
