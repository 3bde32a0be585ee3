// The normal form's condition laws (normal_form_constants.h): a conjunct of a
// filter's or a join's condition only needs to be TRUE where it is, so NULL
// and FALSE alike reject: EXISTS on a NOT NULL foreign key, disjuncts that are
// never TRUE, IN as EXISTS and NOT IN as NOT EXISTS without NULLs.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/join_type.h"
#include "verifier/normal_form_canon.h"
#include "verifier/normal_form_constants.h"
#include "verifier/normal_form_laws.h"

namespace rfguard::normal_form {

namespace {

using Rows = std::vector<std::vector<ExprPtr>>;

/// The rows of `n` as expressions without columns, when it returns a fixed
/// list of at most 64 such rows on every database: VALUES of plain
/// expressions, a projection of those, a UNION [ALL] of those (its duplicates,
/// for IN, do not matter: see inListOf).
std::optional<Rows> constantRows(const PlanNode& n) {
  auto constant = [](const ExprPtr& e) { return plain(*e) && !hasColumnRef(*e); };
  Rows out;
  if (n.op == PlanOp::Values && n.children.empty()) {
    for (const auto& row : n.rows) {
      if (row.size() != n.output.size() || !std::all_of(row.begin(), row.end(), constant))
        return std::nullopt;
      out.push_back(row);
    }
  } else if (n.op == PlanOp::Project && n.children.size() == 1 && substitutable(n)) {
    auto below = constantRows(*n.children[0]);
    if (!below) return std::nullopt;
    const PlanNode& c = *n.children[0];
    for (const auto& row : *below) {
      std::map<std::string, ExprPtr> as;
      for (size_t j = 0; j < c.output.size(); ++j) as[c.output[j].id.str()] = row[j];
      std::vector<ExprPtr> mine;
      for (const auto& ne : n.exprs) mine.push_back(substitute(ne.expr, as));
      if (!std::all_of(mine.begin(), mine.end(), constant)) return std::nullopt;
      out.push_back(mine);
    }
  } else if (n.op == PlanOp::Union) {
    for (const auto& c : n.children) {
      auto rows = constantRows(*c);
      if (!rows || c->output.size() != n.output.size()) return std::nullopt;
      out.insert(out.end(), rows->begin(), rows->end());
    }
  } else {
    return std::nullopt;
  }
  if (out.size() > 64) return std::nullopt;
  return out;
}

}  // namespace

ExprPtr inListOf(const Expr& in) {
  // x IN (subquery) is TRUE when some row's o equals x, else NULL when some
  // comparison is NULL, else FALSE: what x IN (o1, o2, ...) is over the same
  // values, duplicates or not (Calcite's SUB_QUERY_REMOVE of IN over VALUES).
  // Only where the subquery's rows are fixed expressions without columns; an
  // empty list is FALSE (as IN over no row is, even for a NULL x).
  if (in.kind != ExprKind::Subquery || in.subquery != SubqueryKind::In || !in.plan ||
      in.args.size() != 1 || !plain(*in.args[0]) || in.plan->output.size() != 1)
    return nullptr;
  auto rows = constantRows(*in.plan);
  if (!rows) return nullptr;
  if (rows->empty()) return makeBool(false);
  std::vector<ExprPtr> args{in.args[0]};
  for (const auto& row : *rows) args.push_back(row[0]);
  return makeCall("in", args);
}

namespace {

/// `[NOT] EXISTS (SELECT ... FROM s WHERE s.ref = fk)` over the rows of `n`'s
/// input, where the conjuncts are exactly a NOT NULL FOREIGN KEY of that input
/// equated with the columns of the whole table s it references: each row
/// meets exactly one row of s, so EXISTS is TRUE (NOT EXISTS FALSE). Null when
/// it is no such subquery. Counterexamples: a nullable reference (a NULL meets
/// nothing), a filter on s (the referenced row may fail it).
ExprPtr existsOnForeignKey(const Expr& c, const PlanNode& n) {
  const bool negated = isCallOf(c, "not") && c.args.size() == 1;
  const Expr& e = negated ? *c.args[0] : c;
  if (e.kind != ExprKind::Subquery || e.subquery != SubqueryKind::Exists || !e.plan ||
      n.children.size() != 1)
    return nullptr;
  const PlanNode* body = e.plan.get();
  while (body->op == PlanOp::Project && body->children.size() == 1) body = body->children[0].get();
  if (body->op != PlanOp::Filter || body->children.size() != 1 ||
      body->children[0]->op != PlanOp::Scan || !body->predicate || !plain(*body->predicate))
    return nullptr;
  auto join = makePooled<PlanNode>();
  join->op = PlanOp::Join;
  join->joinType = JoinType::Inner;
  join->predicate = body->predicate;
  join->children = {n.children[0], body->children[0]};
  computeOutput(*join);
  if (!foreignKeyJoin(*join, 0)) return nullptr;
  return makeBool(!negated);
}

/// A conjunct of a condition that only needs to be TRUE where it is (a
/// filter's, a join's but NOT IN's): NULL and FALSE alike reject. `CASE WHEN p
/// THEN TRUE ELSE FALSE END` is p; `x = x` is `x IS NOT NULL`; `x IS NOT
/// DISTINCT FROM y` where the inputs never make x (or y) NULL is `x = y`: both
/// are TRUE exactly when y is not NULL and equal to x.
/// True when `e` is never TRUE: NULL or FALSE, nullif(x, TRUE), or `CASE WHEN
/// x THEN <never TRUE> ELSE x END` (or WHEN x = TRUE: nullif's CASE form),
/// whose ELSE is reached only where x is not TRUE.
bool neverTrueCase(const Expr& e) {
  if (neverTrue(e)) return true;
  // nullif(x, TRUE): NULL where x is TRUE, else x, which is not.
  if (isCallOf(e, "nullif") && e.args.size() == 2 && isBoolLiteral(*e.args[1], true)) return true;
  if (!isCallOf(e, "case") || e.args.size() != 3 || !neverTrue(*e.args[1])) return false;
  const ExprPtr& when = e.args[0];
  const ExprPtr& x = e.args[2];
  // x must be the same value both times it is computed.
  std::function<bool(const Expr&)> same = [&](const Expr& y) {
    if (y.kind == ExprKind::Subquery && y.plan && !deterministicPlan(*y.plan)) return false;
    for (const auto& a : y.args)
      if (!same(*a)) return false;
    return true;
  };
  if (!isDeterministic(*x) || !same(*x)) return false;
  if (exprEquals(when, x)) return true;
  const ComparisonInfo* cmp = comparisonOf(*when);
  return cmp && cmp->kind == Comparison::Eq &&
         ((exprEquals(when->args[0], x) && isBoolLiteral(*when->args[1], true)) ||
          (exprEquals(when->args[1], x) && isBoolLiteral(*when->args[0], true)));
}

ExprPtr asExists(const Expr& in, bool negated, const PlanNode& n);

/// `x IN (SELECT o FROM body)` as `EXISTS (SELECT ... FROM body WHERE o = x)`
/// where only TRUE counts: both are TRUE exactly when a row of the body has
/// o = x TRUE (correlated or not). With `negated`, NOT IN as NOT EXISTS, which
/// needs x and o never NULL: NOT IN is NULL, so rejects, when either is
/// (`k NOT IN (SELECT w ...)` with a NULL w rejects every k, NOT EXISTS keeps
/// those no w equals). Null when `in` is no such subquery.
ExprPtr asExists(const Expr& in, bool negated, const PlanNode& n) {
  if (in.kind != ExprKind::Subquery || in.subquery != SubqueryKind::In || !in.plan ||
      in.args.size() != 1 || !plain(*in.args[0]))
    return nullptr;
  const PlanNode& root = *in.plan;
  if (root.op != PlanOp::Project || root.exprs.size() != 1 || root.children.size() != 1 ||
      !plain(*root.exprs[0].expr))
    return nullptr;
  const ExprPtr& x = in.args[0];
  ExprPtr o = root.exprs[0].expr;
  PlanPtr body = root.children[0];
  // Through projections below: o in their inputs' columns (EXISTS reads no
  // select list).
  while (body->op == PlanOp::Project && body->children.size() == 1) {
    std::map<std::string, ExprPtr> as;
    for (const auto& ne : body->exprs) {
      if (!plain(*ne.expr)) return nullptr;
      as[ne.name] = ne.expr;
    }
    o = substitute(o, as);
    body = body->children[0];
  }
  if (negated) {
    if (n.children.size() != 1 || !neverNull(*x, *n.children[0]) || !neverNull(*o, *body))
      return nullptr;
  }
  auto filter = makePooled<PlanNode>();
  filter->op = PlanOp::Filter;
  filter->id = body->id;
  ExprPtr eq = makeCall(comparisonInfo(Comparison::Eq).name, {o, x});
  if (body->op == PlanOp::Filter && body->children.size() == 1) {
    filter->predicate = makeAnd({body->predicate, eq});
    filter->children = body->children;
  } else {
    filter->predicate = eq;
    filter->children = {body};
  }
  computeOutput(*filter);
  ExprPtr exists = makeSubquery(SubqueryKind::Exists, filter, nullptr, Type::of(TypeKind::Boolean));
  return negated ? makeCall("not", {exists}) : exists;
}

}  // namespace

ExprPtr asCondition(const ExprPtr& c, const PlanNode& n) {
  // A disjunct never TRUE goes: the OR is TRUE exactly when another is, and
  // NULL and FALSE reject alike (a row IN a subquery's NULL branch,
  // `nullif(EXISTS (...), TRUE)`, is one).
  if (isCallOf(*c, "or")) {
    std::vector<ExprPtr> kept;
    for (const auto& a : c->args)
      if (!neverTrueCase(*a)) kept.push_back(a);
    if (kept.size() != c->args.size())
      return kept.empty() ? makeBool(false) : kept.size() == 1 ? kept[0] : makeCall("or", kept);
  }
  auto notNull = [&](const ExprPtr& x) {
    if (x->kind != ExprKind::Column) return false;
    for (const auto& child : n.children)
      for (const auto& col : child->output)
        if (col.id.str() == x->name) return !col.nullable;
    return false;
  };
  if (isCallOf(*c, "case") && c->args.size() == 3 && isBoolLiteral(*c->args[1], true) &&
      neverTrue(*c->args[2]))
    return c->args[0];
  // CASE WHEN t THEN x ELSE y END with t never NULL (IS [NOT] NULL) and y a
  // literal: TRUE exactly when t and x are (y never TRUE), or when x is or t
  // is not (y TRUE).
  if (isCallOf(*c, "case") && c->args.size() == 3 && plain(*c) &&
      (isCallOf(*c->args[0], "is_null") || isCallOf(*c->args[0], "is_not_null"))) {
    if (neverTrue(*c->args[2])) return simplify(makeCall("and", {c->args[0], c->args[1]}));
    if (isBoolLiteral(*c->args[2], true))
      return simplify(makeCall("or", {negation(c->args[0]), c->args[1]}));
  }
  const ComparisonInfo* cmp = comparisonOf(*c);
  if (cmp && cmp->kind == Comparison::Eq && exprEquals(c->args[0], c->args[1]) &&
      plain(*c->args[0]))
    return makeCall("is_not_null", {c->args[0]});
  if (cmp && cmp->kind == Comparison::NotDistinct && (notNull(c->args[0]) || notNull(c->args[1])))
    return makeCall(comparisonInfo(Comparison::Eq).name, c->args);
  if (n.op == PlanOp::Filter)
    if (ExprPtr b = existsOnForeignKey(*c, n)) return b;
  if (n.op == PlanOp::Filter) {
    const bool negated = isCallOf(*c, "not") && c->args.size() == 1;
    if (ExprPtr e = asExists(negated ? *c->args[0] : *c, negated, n)) return e;
  }
  return c;
}

}  // namespace rfguard::normal_form
