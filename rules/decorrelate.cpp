// Decorrelation of subqueries that are top-level conjuncts of a WHERE/HAVING
// filter. Subqueries anywhere else (under OR, in the select list) stay as they
// are: SELECT * FROM a WHERE a.x = 1 OR EXISTS (...) is not a semi join, since
// rows with a.x = 1 must survive without a match.
#include "rules/decorrelate.h"

#include "ir/comparison.h"
#include "ir/functions.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

/// Splits the correlated conjuncts off the Filter at the top of `body`. They
/// must read only `outer`'s output and `body`'s columns; nothing else may stay correlated.
bool pullCorrelated(PlanPtr& body, const PlanNode& outer, std::vector<ExprPtr>& corr) {
  if (body->op == PlanOp::Filter) {
    const PlanNode& input = *body->children[0];
    std::vector<ExprPtr> local;
    for (const auto& c : conjuncts(body->predicate)) {
      bool correlated = false;
      for (const auto& col : freeColumnsOf(*c)) {
        if (producedIn(input, col)) continue;
        if (!produces(outer, col) || hasSubquery(*c)) return false;
        correlated = true;
      }
      (correlated ? corr : local).push_back(c);
    }
    if (!corr.empty()) body = makeFilter(body->children[0], local, body->loc);
  }
  return freeColumns(*body).empty();
}

/// Replaces the first subquery expression equal to `target` inside `e` by `with`.
ExprPtr replaceSubquery(const ExprPtr& e, const Expr* target, const ExprPtr& with) {
  if (e.get() == target) return with;
  if (e->args.empty()) return e;
  return mapArgs(*e, [&](const ExprPtr& a) { return replaceSubquery(a, target, with); });
}

/// The EXISTS/IN subquery a conjunct is, possibly under NOT; nullptr otherwise.
const Expr* asSubquery(const ExprPtr& conjunct, SubqueryKind kind, bool& negated) {
  const Expr* e = conjunct.get();
  negated = e->kind == ExprKind::Call && e->name == "not";
  if (negated) e = e->args[0].get();
  return e->kind == ExprKind::Subquery && e->subquery == kind ? e : nullptr;
}

const Expr* findScalar(const Expr& e) {
  if (e.kind == ExprKind::Subquery && e.subquery == SubqueryKind::Scalar) return &e;
  for (const auto& a : e.args)
    if (const Expr* s = findScalar(*a)) return s;
  return nullptr;
}

/// Rebuilds the filter: `join` below, every conjunct except `index` (replaced by `keep`) above.
void finish(PlanPtr& node, PlanPtr join, const std::vector<ExprPtr>& conjs, size_t index,
            ExprPtr keep) {
  std::vector<ExprPtr> rest;
  for (size_t i = 0; i < conjs.size(); ++i) {
    if (i != index)
      rest.push_back(conjs[i]);
    else if (keep)
      rest.push_back(keep);
  }
  node = makeFilter(join, rest, node->loc);
}

}  // namespace

bool decorrelateExists(PlanPtr& node) {
  if (node->op != PlanOp::Filter || !hasSubquery(*node->predicate)) return false;
  auto conjs = conjuncts(node->predicate);
  const PlanNode& outer = *node->children[0];
  for (size_t i = 0; i < conjs.size(); ++i) {
    bool negated;
    const Expr* e = asSubquery(conjs[i], SubqueryKind::Exists, negated);
    if (!e) continue;
    PlanPtr body = e->plan;
    while (body->op == PlanOp::Project) body = body->children[0];  // EXISTS ignores the select list
    std::vector<ExprPtr> corr;
    if (!pullCorrelated(body, outer, corr)) continue;
    ExprPtr cond = corr.empty() ? makeBool(true, e->loc) : makeAnd(corr);
    PlanPtr join = makeJoin(negated ? JoinType::LeftAnti : JoinType::LeftSemi, node->children[0],
                            body, cond, conjs[i]->loc);
    finish(node, join, conjs, i, nullptr);
    return true;
  }
  return false;
}

// NOT IN only when uncorrelated: its NULL semantics (a NULL key on either side
// makes the row not qualify) apply to the key comparison alone, and a
// correlated conjunct in the same join condition would inherit them.
bool decorrelateIn(PlanPtr& node) {
  if (node->op != PlanOp::Filter || !hasSubquery(*node->predicate)) return false;
  auto conjs = conjuncts(node->predicate);
  const PlanNode& outer = *node->children[0];
  for (size_t i = 0; i < conjs.size(); ++i) {
    bool negated;
    const Expr* e = asSubquery(conjs[i], SubqueryKind::In, negated);
    if (!e) continue;
    if (!producesAll(outer, freeColumnsOf(*e->args[0])) || hasSubquery(*e->args[0])) continue;
    PlanPtr sub = clonePlan(*e->plan);
    std::vector<ExprPtr> corr;
    if (sub->op == PlanOp::Project && sub->exprs.size() == 1) {
      PlanPtr body = sub->children[0];
      if (!pullCorrelated(body, outer, corr)) continue;
      // Correlated conjuncts read inner columns the select list may not carry: pass them up.
      std::set<std::string> have = outputIds(*sub);
      for (const auto& c : corr)
        for (const auto& col : columnsOf(*c))
          if (!produces(outer, col) && !have.count(col))
            for (const auto& oc : body->output)
              if (oc.id == col)
                sub->exprs.push_back({col, makeColumn(col, oc.type, oc.nullable)}),
                    have.insert(col);
      sub->children[0] = body;
      computeOutput(*sub);
    } else if (!freeColumns(*sub).empty()) {
      continue;
    }
    if (negated && !corr.empty()) continue;
    const Column& key = sub->output[0];
    std::vector<ExprPtr> cond{
        makeCall("=", {e->args[0], makeColumn(key.id, key.type, key.nullable)}, e->loc)};
    cond.insert(cond.end(), corr.begin(), corr.end());
    PlanPtr join = makeJoin(negated ? JoinType::NullAwareLeftAnti : JoinType::LeftSemi,
                            node->children[0], sub, makeAnd(cond), conjs[i]->loc);
    finish(node, join, conjs, i, nullptr);
    return true;
  }
  return false;
}

// Uncorrelated: a cross join with the subquery, when it returns exactly one row
// (a global aggregate). A subquery that may return no rows would be NULL in the
// original but remove every row in the join, unless the conjunct rejects NULL.
// Correlated: only Project over a key-less Aggregate over a Filter whose
// correlated conjuncts are equalities inner = outer. The aggregate is grouped
// by the inner keys and LEFT-joined on them. Excluded: count, and projections
// that turn NULL into a value. SELECT * FROM a WHERE 0 = (SELECT count(*) FROM b
// WHERE b.k = a.k) keeps a row without matches (count is 0), but the grouped
// join gives NULL for it, so the row would be lost (the "count bug").
bool decorrelateScalarSubquery(PlanPtr& node) {
  if (node->op != PlanOp::Filter || !hasSubquery(*node->predicate)) return false;
  auto conjs = conjuncts(node->predicate);
  const PlanNode& outer = *node->children[0];
  for (size_t i = 0; i < conjs.size(); ++i) {
    const Expr* s = findScalar(*conjs[i]);
    if (!s || s->plan->op != PlanOp::Project || s->plan->exprs.size() != 1) continue;
    PlanPtr sub = clonePlan(*s->plan);
    PlanPtr agg = sub->children[0];
    bool globalAgg =
        agg->op == PlanOp::Aggregate && agg->exprs.empty() && agg->groupingSets.empty();
    std::vector<ExprPtr> corr;
    if (freeColumns(*sub).empty()) {
      ExprPtr probe = makeColumn(sub->output[0].id, sub->output[0].type, true);
      bool nullRejecting = isNullPropagating(*replaceSubquery(conjs[i], s, probe), {probe->name});
      if (!globalAgg && !nullRejecting) continue;
      PlanPtr join = makeJoin(JoinType::Cross, node->children[0], sub, nullptr, s->loc);
      finish(node, join, conjs, i, replaceSubquery(conjs[i], s, probe));
      return true;
    }
    if (!globalAgg || agg->children[0]->op != PlanOp::Filter) continue;
    bool countLike = false;
    std::set<std::string> aggCols;
    for (const auto& a : agg->aggs)
      countLike = countLike || aggregateNeverNull(a.func), aggCols.insert(a.name);
    if (countLike || !isNullPropagating(*sub->exprs[0].expr, aggCols)) continue;
    PlanPtr body = agg->children[0];
    if (!pullCorrelated(body, outer, corr) || corr.empty()) continue;
    std::vector<ExprPtr> cond;
    bool ok = true;
    std::string q = sub->exprs[0].name.substr(0, sub->exprs[0].name.find('.'));
    for (const auto& c : corr) {
      if (const ComparisonInfo* cmp = comparisonOf(*c); !cmp || cmp->kind != Comparison::Eq) {
        ok = false;
        break;
      }
      int outerArg = producesColumnsOf(outer, *c->args[0]) ? 0 : 1;
      const ExprPtr& o = c->args[outerArg];
      const ExprPtr& in = c->args[1 - outerArg];
      if (!producesColumnsOf(outer, *o) || !freeColumns(*body).empty() ||
          !allColumnRefs(*in, [&](const std::string& col) { return producedIn(*body, col); })) {
        ok = false;
        break;
      }
      std::string name =
          in->kind == ExprKind::Column ? in->name : q + ".key" + std::to_string(cond.size() + 1);
      agg->exprs.push_back({name, in});
      sub->exprs.push_back({name, makeColumn(name, in->type, in->nullable)});
      cond.push_back(makeCall("=", {o, makeColumn(name, in->type, in->nullable)}, c->loc));
    }
    if (!ok) continue;
    agg->children[0] = body;
    computeOutput(*agg);
    computeOutput(*sub);
    PlanPtr join = makeJoin(JoinType::Left, node->children[0], sub, makeAnd(cond), s->loc);
    ExprPtr value = makeColumn(sub->output[0].id, sub->output[0].type, true);
    finish(node, join, conjs, i, replaceSubquery(conjs[i], s, value));
    return true;
  }
  return false;
}

}  // namespace rfguard
