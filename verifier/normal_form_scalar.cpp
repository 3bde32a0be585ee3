// The normal form's scalar-subquery laws (normal_form_laws.h, kSubqueries): a
// correlated scalar subquery of an aggregate without group keys is a LEFT
// JOIN to that aggregate grouped by its correlated columns, one correlated by
// a key of its input a LEFT JOIN to that input; and the names of
// aggregates' results (kNames), after what they compute.
#include <map>
#include <set>

#include "ir/comparison.h"
#include "ir/join_type.h"
#include "ir/printers.h"
#include "verifier/normal_form_canon.h"
#include "verifier/normal_form_laws.h"
#include "verifier/row_keys.h"

namespace rfguard::normal_form {

namespace {

/// `e` with the node `target` (by identity) replaced by `with`.
ExprPtr replaced(const ExprPtr& e, const Expr* target, const ExprPtr& with) {
  if (!e) return e;
  if (e.get() == target) return with;
  return mapArgsIfChanged(e, [&](const ExprPtr& a) { return replaced(a, target, with); });
}

bool outputs(const PlanNode& n, const std::string& id) {
  for (const auto& c : n.output)
    if (c.id.str() == id) return true;
  return false;
}

/// The LEFT JOIN form of scalar subquery `s` read on the rows of `input`:
/// the join's other input, its condition, and the value that replaces `s`.
struct Grouped {
  PlanPtr aggregate;
  ExprPtr condition, value;
};

/// The conjuncts of filter `f` over its input `body`: those over the body
/// alone (`inner`) and `inner column = outer column` pairs with the outer one
/// a column of `input`. False when any other conjunct correlates.
bool splitCorrelation(const PlanNode& f, const PlanNode& body, const PlanNode& input,
                      std::vector<ExprPtr>& inner,
                      std::vector<std::pair<ExprPtr, ExprPtr>>& pairs) {
  bool ok = true;
  forEachConjunct(f.predicate, [&](const ExprPtr& c) {
    if (hasSubquery(*c) || !isDeterministic(*c)) return ok = false;
    if (allColumnRefs(*c, [&](const std::string& id) { return outputs(body, id); })) {
      inner.push_back(c);
      return true;
    }
    const ComparisonInfo* cmp = comparisonOf(*c);
    if (cmp && cmp->kind == Comparison::Eq && c->args[0]->kind == ExprKind::Column &&
        c->args[1]->kind == ExprKind::Column)
      for (int i = 0; i < 2; ++i)
        if (outputs(body, c->args[i]->name) && outputs(input, c->args[1 - i]->name)) {
          pairs.push_back({c->args[i], c->args[1 - i]});
          return true;
        }
    return ok = false;
  });
  return ok && !pairs.empty();
}

/// `body` filtered by `inner` (itself when there is none).
PlanPtr filtered(const PlanPtr& body, const std::vector<ExprPtr>& inner, int id) {
  if (inner.empty()) return body;
  auto filter = makePooled<PlanNode>();
  filter->op = PlanOp::Filter;
  filter->id = id;
  filter->predicate = makeAnd(inner);
  filter->children = {body};
  computeOutput(*filter);
  return filter;
}

/// A scalar subquery without an aggregate, `(SELECT e FROM b WHERE p AND b.x =
/// o.y)` where the x are a key of b: at most one row of b for each outer row,
/// found by a LEFT JOIN on y = x (padded with NULLs where there is none, as the
/// subquery is NULL). Without the key the subquery fails on two rows, where the
/// join would give both.
std::optional<Grouped> keyedForm(const PlanNode& f, const ExprPtr& e, const PlanNode& input) {
  const PlanPtr& body = f.children[0];
  if (!isDeterministic(*e) || hasSubquery(*e) || !freeColumns(*body).empty() ||
      !deterministicPlan(*body))
    return std::nullopt;
  std::vector<ExprPtr> inner;
  std::vector<std::pair<ExprPtr, ExprPtr>> pairs;
  if (!splitCorrelation(f, *body, input, inner, pairs)) return std::nullopt;
  std::set<std::string> keys;
  for (const auto& [in, out] : pairs) keys.insert(in->name);
  if (!hasRowKeyWithin(*body, keys)) return std::nullopt;
  for (const auto& c : body->output)
    if (outputs(input, c.id.str())) return std::nullopt;  // the join's columns must differ
  std::vector<ExprPtr> eqs;
  for (const auto& [in, out] : pairs)
    eqs.push_back(makeCall(comparisonInfo(Comparison::Eq).name, {out, in}));
  return Grouped{filtered(body, inner, f.id), makeAnd(eqs), e};
}

std::optional<Grouped> groupedForm(const Expr& s, const PlanNode& input, const PlanNode& root) {
  if (s.kind != ExprKind::Subquery || s.subquery != SubqueryKind::Scalar || !s.plan)
    return std::nullopt;
  const PlanNode* top = s.plan.get();
  ExprPtr e;
  if (top->op == PlanOp::Project && top->exprs.size() == 1 && top->children.size() == 1) {
    e = top->exprs[0].expr;
    top = top->children[0].get();
  }
  const PlanNode& a = *top;
  if (e && a.op == PlanOp::Filter && a.children.size() == 1) return keyedForm(a, e, input);
  if (a.op != PlanOp::Aggregate || !a.exprs.empty() || !a.groupingSets.empty() || a.aggs.empty() ||
      a.children.size() != 1 || a.children[0]->op != PlanOp::Filter)
    return std::nullopt;
  if (!e) {
    if (a.aggs.size() != 1) return std::nullopt;
    e = makeColumn(a.aggs[0].name, a.aggs[0].type, true);
  }
  if (!isDeterministic(*e) || hasSubquery(*e)) return std::nullopt;
  const PlanNode& f = *a.children[0];
  const PlanPtr& body = f.children[0];
  if (!freeColumns(*body).empty() || !deterministicPlan(*body)) return std::nullopt;
  // single_value and any_value may fail on a group no outer row reads, which
  // the grouped form computes too.
  for (const auto& call : a.aggs) {
    if (call.func == "single_value" || call.func == "any_value") return std::nullopt;
    for (const auto& x : call.args)
      if (!isDeterministic(*x) || hasSubquery(*x)) return std::nullopt;
  }
  // The filter: conjuncts over the body alone, and `inner = outer` pairs.
  std::vector<ExprPtr> inner;
  std::vector<std::pair<ExprPtr, ExprPtr>> pairs;  // (inner column, outer column)
  if (!splitCorrelation(f, *body, input, inner, pairs)) return std::nullopt;
  // Names no plan node makes: the grouped keys "$dec.<inner column>".
  std::set<std::string> taken;
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& c : n.output) taken.insert(c.id.str());
  });
  auto g = makePooled<PlanNode>();
  g->op = PlanOp::Aggregate;
  g->id = a.id;
  std::map<std::string, ExprPtr> keyOf;  // inner column -> the key's column
  for (const auto& [in, out] : pairs) {
    if (keyOf.count(in->name)) continue;
    const std::string name = "$dec." + in->name;
    if (taken.count(name)) return std::nullopt;
    g->exprs.push_back(NamedExpr{name, in});
    keyOf[in->name] = makeColumn(name, in->type, in->nullable);
  }
  g->aggs = a.aggs;
  g->children = {filtered(body, inner, f.id)};
  computeOutput(*g);
  std::vector<ExprPtr> eqs;
  for (const auto& [in, out] : pairs)
    eqs.push_back(makeCall(comparisonInfo(Comparison::Eq).name, {out, keyOf[in->name]}));
  // Over no rows count is 0, the others NULL: what the padded row gives,
  // once count's NULL is made 0.
  std::map<std::string, ExprPtr> as;
  for (const auto& call : g->aggs) {
    ExprPtr col = makeColumn(call.name, call.type, true);
    as[call.name] = call.func == "count"
                        ? makeCall("coalesce", {col, makeLiteral("0", Type::of(TypeKind::Int))})
                        : col;
  }
  return Grouped{g, makeAnd(eqs), substitute(e, as)};
}

PlanPtr leftJoin(const PlanPtr& input, const Grouped& g) {
  auto j = makePooled<PlanNode>();
  j->op = PlanOp::Join;
  j->joinType = JoinType::Left;
  j->id = g.aggregate->id;
  j->predicate = g.condition;
  j->children = {input, g.aggregate};
  computeOutput(*j);
  return j;
}

/// The first scalar subquery in `e` (not looking into subquery plans).
const Expr* firstScalar(const Expr& e) {
  if (e.kind == ExprKind::Subquery) return e.subquery == SubqueryKind::Scalar ? &e : nullptr;
  for (const auto& a : e.args)
    if (const Expr* s = firstScalar(*a)) return s;
  return nullptr;
}

}  // namespace

bool scalarAsLeftJoin(PlanPtr& slot) {
  // A scalar subquery `(SELECT f(agg) FROM b WHERE p AND b.x = o.y)` returns,
  // for each outer row, f of the aggregate over the rows of b that pass p and
  // whose x equals y: the row of `b GROUP BY x` whose key equals y, which a
  // LEFT JOIN on `y = x` finds (at most one: x is its key; none for a NULL y,
  // as none of b equals NULL), padded when there is none, where count over
  // no rows is 0 and the others NULL: count read as coalesce(count, 0). The
  // rows of the outer input stay as many. Not with other correlation than
  // such equalities, nor with group keys in the subquery (no row at all for
  // no group). Counterexamples: the count bug (an inner join, or count
  // without the coalesce: a department with no employee counts NULL).
  PlanNode& n = *slot;
  if ((n.op != PlanOp::Project && n.op != PlanOp::Filter) || n.children.size() != 1) return false;
  const Expr* s = nullptr;
  if (n.op == PlanOp::Project) {
    for (const auto& ne : n.exprs)
      if (!s) s = firstScalar(*ne.expr);
  } else if (n.predicate) {
    s = firstScalar(*n.predicate);
  }
  if (!s) return false;
  auto g = groupedForm(*s, *n.children[0], n);
  if (!g) return false;
  PlanPtr joined = leftJoin(n.children[0], *g);
  if (n.op == PlanOp::Project) {
    auto p = makePooled<PlanNode>(n);
    for (auto& ne : p->exprs) ne.expr = replaced(ne.expr, s, g->value);
    p->children = {joined};
    computeOutput(*p);
    slot = p;
    return true;
  }
  // A filter passes its input's columns on: a projection gives them back
  // without the joined ones.
  auto f = makePooled<PlanNode>(n);
  f->predicate = replaced(n.predicate, s, g->value);
  f->children = {joined};
  computeOutput(*f);
  slot = passingColumns(n.output, f, n.id);
  return true;
}

namespace {

/// The input of `s` when it is `(SELECT count(*) FROM input)`: a scalar
/// subquery of an aggregate without group keys whose one call is count(*).
PlanPtr countedInput(const Expr& s) {
  if (s.kind != ExprKind::Subquery || s.subquery != SubqueryKind::Scalar || !s.plan) return nullptr;
  const PlanNode* top = s.plan.get();
  if (top->op == PlanOp::Project && top->children.size() == 1 && top->exprs.size() == 1) {
    const Expr& e = *top->exprs[0].expr;
    top = top->children[0].get();
    if (e.kind != ExprKind::Column || top->aggs.size() != 1 || e.name != top->aggs[0].name)
      return nullptr;
  }
  if (top->op != PlanOp::Aggregate || !top->exprs.empty() || !top->groupingSets.empty() ||
      top->aggs.size() != 1 || top->aggs[0].func != "count" || !top->aggs[0].args.empty() ||
      top->children.size() != 1)
    return nullptr;
  return top->children[0];
}

ExprPtr countAsExists(const ExprPtr& e) {
  if (!e || e->kind != ExprKind::Call) return e;
  ExprPtr x = mapArgsIfChanged(e, countAsExists);
  const ComparisonInfo* cmp = comparisonOf(*x);
  if (!cmp || x->args.size() != 2) return x;
  for (int side = 0; side < 2; ++side) {
    const Expr& lit = *x->args[1 - side];
    PlanPtr input = countedInput(*x->args[side]);
    if (!input || lit.kind != ExprKind::Literal || lit.isNull ||
        (lit.value != "0" && lit.value != "1"))
      continue;
    // count ? L, with the count on the left: its truth for a count of 0, 1
    // and more than 1. EXISTS or NOT EXISTS where it is one for every count
    // above 0 and another for 0.
    const ComparisonInfo& c = side == 0 ? *cmp : comparisonInfo(cmp->flipped);
    auto truth = [&](int count) {
      const int l = lit.value == "0" ? 0 : 1;
      return count < l ? c.onLess : count == l ? c.onEqual : c.onGreater;
    };
    if (truth(1) != truth(2) || truth(0) == truth(1)) continue;
    ExprPtr exists =
        makeSubquery(SubqueryKind::Exists, input, nullptr, Type::of(TypeKind::Boolean));
    return truth(1) ? exists : makeCall("not", {exists});
  }
  return x;
}

}  // namespace

bool countsAsExists(PlanNode& n) {
  // count(*) is never NULL and 0 exactly where the subquery's input has no
  // row: a comparison with 0 or 1 that is one truth for 0 and another for
  // every count above is [NOT] EXISTS of that input. Counterexample with 2:
  // count(*) = 2 is not EXISTS (two rows and one differ).
  bool changed = false;
  mapExprs(n, [&](const ExprPtr& e) {
    ExprPtr s = countAsExists(e);
    if (s != e) changed = true;
    return s;
  });
  return changed;
}

void renameAggregates(PlanNode& root, std::vector<std::string>& columns) {
  // An aggregate's result named after what it computes over which keys,
  // "$agg(count(*) by emp.deptno)", where no column of the plan has that name
  // yet (two equal aggregates keep their own names): a one-to-one renaming.
  std::set<std::string> taken;
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& c : n.output) taken.insert(c.id.str());
  });
  std::map<std::string, std::string> to;
  forEachNode(root, [&](const PlanNode& n) {
    if (n.op != PlanOp::Aggregate || !n.groupingSets.empty()) return;
    std::string keys;
    for (const auto& ne : n.exprs) keys += (keys.empty() ? "" : ", ") + ne.name;
    for (const auto& call : n.aggs) {
      std::string args;
      for (const auto& x : call.args)
        args += (args.empty() ? "" : ", ") + stripped(exprToJson(*x)).dump();
      const std::string name = "$agg(" + call.func + "(" + (call.distinct ? "DISTINCT " : "") +
                               (call.args.empty() ? "*" : args) + ") by " + keys + ")";
      if (taken.insert(name).second) to[call.name] = name;
    }
  });
  if (!to.empty()) renameColumns(root, to, columns);
}

}  // namespace rfguard::normal_form
