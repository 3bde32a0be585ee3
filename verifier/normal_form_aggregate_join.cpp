// The normal form's aggregate-join laws (normal_form_laws.h, kAggregateJoin):
// an aggregate joined on all its group keys to a key of another input is the
// aggregate over the join (Calcite's AGGREGATE_JOIN_TRANSPOSE, read
// backwards), and group keys the conditions below make equal are one key.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/join_type.h"
#include "verifier/normal_form_laws.h"
#include "verifier/row_keys.h"

namespace rfguard::normal_form {

namespace {

bool plainGrouping(const PlanNode& a) {
  if (a.op != PlanOp::Aggregate || a.children.size() != 1 || !a.groupingSets.empty() ||
      a.exprs.empty())
    return false;
  bool ok = true;
  forEachExpr(a, [&](const ExprPtr& e) { ok = ok && movable(*e) && !hasSubquery(*e); });
  return ok;
}

}  // namespace

namespace {

bool aboveKeyJoin(PlanPtr& slot) {
  // G = GROUP BY K of X joined to D on equalities of every key of G with
  // columns of D among which is a key of D: each group of G meets at most one
  // row d of D, and each row of X in that group meets that same d alone (its
  // K values are the group's). So the join is GROUP BY K and D's columns of
  // X joined to D on the same equalities (K read as X's expressions): a group
  // (v, d) holds all the rows of X of G's group v, so its aggregates are G's,
  // and a group with no d has no row either way. The columns in the join's
  // order above. Counterexamples: without D's key, D = {(1, 'x'), (1, 'x')}:
  // the join returns G's row of group 1 twice, the aggregate over the join one
  // row with twice its count(*); without every key of G equated, one D row
  // meets several groups, which the aggregate over the join merges.
  PlanNode& j = *slot;
  if (j.op != PlanOp::Join || j.children.size() != 2 || !j.predicate ||
      !joinInfo(j.joinType).freelyReordered || !joinInfo(j.joinType).hasCondition)
    return false;
  for (size_t g = 0; g < 2; ++g) {
    const PlanNode& agg = *j.children[g];
    const PlanNode& d = *j.children[1 - g];
    if (!plainGrouping(agg) || !freeColumns(d).empty() || !deterministicPlan(d)) continue;
    std::map<std::string, ExprPtr> keyOf;  // G's key id -> its expression over X
    for (const auto& ne : agg.exprs) keyOf[ne.name] = ne.expr;
    std::set<std::string> equatedKeys, equatedOfD;
    bool ok = true;
    forEachConjunct(j.predicate, [&](const ExprPtr& c) {
      ok = ok && columnEquality(*c);
      if (!ok) return false;
      for (size_t s = 0; s < 2; ++s) {
        const std::string &k = c->args[s]->name, &o = c->args[1 - s]->name;
        if (keyOf.count(k) && produces(d, o)) {
          equatedKeys.insert(k);
          equatedOfD.insert(o);
          return true;
        }
      }
      ok = false;
      return false;
    });
    if (!ok || equatedKeys.size() != keyOf.size() || !hasRowKeyWithin(d, equatedOfD)) continue;
    auto join = makePooled<PlanNode>(j);
    join->children[g] = agg.children[0];
    join->predicate = substitute(j.predicate, keyOf);
    join->runtimeFilters.clear();
    computeOutput(*join);
    auto above = makePooled<PlanNode>(agg);
    for (const auto& c : d.output)
      above->exprs.push_back(NamedExpr{c.id.str(), makeColumn(c.id.str(), c.type, c.nullable)});
    above->children = {join};
    above->outputStamp = {};
    computeOutput(*above);
    slot = passingColumns(j.output, above, j.id);
    return true;
  }
  return false;
}

/// aboveKeyJoin at the first join below `slot` that is a block of two inputs
/// (a filter over it, its conjuncts the join's condition): in a larger block
/// which join reads the aggregate depends on the order the query joins them
/// in, and the form must not. `inBlock`: an inner join is above `slot`
/// through filters and projections of columns.
bool walk(PlanPtr& slot, bool inBlock) {
  const bool filtered = slot->op == PlanOp::Filter && slot->children.size() == 1 &&
                        slot->predicate && innerJoin(*slot->children[0]);
  const PlanNode& j = filtered ? *slot->children[0] : *slot;
  if (!inBlock && innerJoin(j) && j.children.size() == 2 &&
      std::none_of(j.children.begin(), j.children.end(),
                   [](const PlanPtr& c) { return joinsMore(*c); })) {
    if (!filtered && aboveKeyJoin(slot)) return true;
    if (filtered) {
      PlanPtr join = makePooled<PlanNode>(j);
      join->predicate = j.predicate ? makeAnd({j.predicate, slot->predicate}) : slot->predicate;
      join->joinType = withCondition(j.joinType, true);
      computeOutput(*join);
      if (aboveKeyJoin(join)) {
        slot = join;
        return true;
      }
    }
  }
  const bool below = innerJoin(*slot) || (inBlock && passing(*slot));
  for (auto& c : slot->children)
    if (walk(c, below)) return true;
  return false;
}

}  // namespace

bool aggregateAboveKeyJoin(PlanPtr& root) {
  return walk(root, false);
}

bool keysByEqualities(PlanPtr& slot) {
  // Where the conjuncts below hold `x = y` on every row, x and y are one
  // value there: grouping by x is grouping by y, and x's value is y's. So each
  // plain key is the first column of its class of such equalities (by name,
  // columns of the aggregate's input), and a key that is then another key's
  // expression goes, a projection above giving both columns back.
  // Counterexample with `x >= y` for `x = y`: rows (1, 1) and (2, 1) are two
  // groups by x, one by y.
  PlanNode& a = *slot;
  if (!plainGrouping(a)) return false;
  const PlanNode& in = *a.children[0];
  Conjuncts equalities;  // between columns of the aggregate's input
  for (const auto& c : knownOf(in))
    if (columnEquality(*c) && produces(in, c->args[0]->name) && produces(in, c->args[1]->name))
      equalities.push_back(c);
  std::map<std::string, ExprPtr> first;  // a column -> the first of its class by name
  for (const auto& members : equalityClasses(equalities))
    for (const auto& m : members) first[m->name] = members.front();
  if (first.empty()) return false;
  bool changed = false;
  std::vector<NamedExpr> keys;
  std::map<std::string, std::string> same;  // a dropped key -> the key it is
  for (const auto& ne : a.exprs) {
    ExprPtr e = ne.expr;
    if (e->kind == ExprKind::Column && first.count(e->name) && first[e->name]->name != e->name) {
      e = first[e->name];
      changed = true;
    }
    auto twin = std::find_if(keys.begin(), keys.end(),
                             [&](const NamedExpr& k) { return exprEquals(k.expr, e); });
    if (twin != keys.end()) {
      same[ne.name] = twin->name;
      changed = true;
      continue;
    }
    keys.push_back(NamedExpr{ne.name, e});
  }
  if (!changed) return false;
  auto agg = makePooled<PlanNode>(a);
  agg->exprs = keys;
  agg->outputStamp = {};
  computeOutput(*agg);
  if (same.empty()) {
    slot = agg;
    return true;
  }
  auto back = makePooled<PlanNode>();
  back->op = PlanOp::Project;
  back->id = a.id;
  for (const auto& c : a.output) {
    auto it = same.find(c.id.str());
    const std::string from = it == same.end() ? c.id.str() : it->second;
    for (const auto& o : agg->output)
      if (o.id == from)
        back->exprs.push_back(NamedExpr{c.id.str(), makeColumn(from, o.type, o.nullable)});
  }
  back->children = {agg};
  computeOutput(*back);
  slot = back;
  return true;
}

}  // namespace rfguard::normal_form
