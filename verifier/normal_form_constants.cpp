// The normal form's constant laws (normal_form_laws.h, kConstants):
// expressions folded and written one way (NOT pushed to the leaves, IN lists
// as ORs, AND / OR flat, coalesce and nullif as CASE, CASE without dead
// branches), and relations no row can reach as empty VALUES.
#include <algorithm>
#include <functional>

#include "evaluation/evaluator.h"
#include "ir/comparison.h"
#include "ir/functions.h"
#include "ir/join_type.h"
#include "verifier/normal_form_canon.h"
#include "verifier/normal_form_constants.h"
#include "verifier/normal_form_laws.h"

namespace rfguard::normal_form {

namespace {

bool isLiteral(const Expr& e) {
  return e.kind == ExprKind::Literal;
}
}  // namespace

bool isBoolLiteral(const Expr& e, bool v) {
  return isLiteral(e) && !e.isNull && e.type.kind == TypeKind::Boolean &&
         e.value == (v ? "true" : "false");
}
/// NULL or FALSE: a condition no row passes.
bool neverTrue(const Expr& e) {
  return isLiteral(e) && (e.isNull || isBoolLiteral(e, false));
}

namespace {

/// The value of an expression that reads no column, as the evaluator computes
/// it (over one row of nothing), as a literal of its type; null when it
/// cannot be (an error, or a type whose literal text is not exact: decimals,
/// floating point, timestamps).
ExprPtr folded(const ExprPtr& e) {
  const TypeKind k = e->type.kind;
  if (!(e->type.isInteger() || k == TypeKind::Boolean || k == TypeKind::Varchar ||
        k == TypeKind::Text || k == TypeKind::Date))
    return nullptr;
  auto values = makePooled<PlanNode>();
  values->op = PlanOp::Values;
  values->rows = {{}};
  computeOutput(*values);
  auto p = makePooled<PlanNode>();
  p->op = PlanOp::Project;
  p->exprs = {NamedExpr{"$fold.v", e}};
  p->children = {values};
  computeOutput(*p);
  rt::Relation out;
  std::string error;
  if (!rt::evaluate(*p, {}, {}, out, error) || out.rows.size() != 1) return nullptr;
  const rt::Value& v = out.rows[0][0];
  if (rt::isNull(v)) return makeNull(e->type);
  if (std::holds_alternative<int64_t>(v)) {
    const int64_t i = std::get<int64_t>(v);
    if (k == TypeKind::Boolean) return makeBool(i != 0);
    if (k == TypeKind::Date) return makeLiteral(rt::civilFromDays(i), e->type);
    if (e->type.isInteger()) return makeLiteral(std::to_string(i), e->type);
    return nullptr;
  }
  if (std::holds_alternative<std::string>(v) && (k == TypeKind::Varchar || k == TypeKind::Text))
    return makeLiteral(std::get<std::string>(v), e->type);
  return nullptr;
}

}  // namespace

/// Deterministic and free of subqueries: may be evaluated twice, or not at
/// all, with the same result and no error.
bool plain(const Expr& e) {
  return isDeterministic(e) && !hasSubquery(e) && !hasAggregate(e) && !hasWindow(e);
}

/// NOT e, pushed to the leaves: NOT NOT x is x; De Morgan (exact in
/// three-valued logic); NOT (a < b) is a >= b (NULL either way when an operand
/// is); NOT (x IS NULL) is x IS NOT NULL.
ExprPtr negation(const ExprPtr& e) {
  if (isCallOf(*e, "not") && e->args.size() == 1) return e->args[0];
  if ((isCallOf(*e, "and") || isCallOf(*e, "or")) && !hasSubquery(*e)) {
    std::vector<ExprPtr> parts;
    for (const auto& a : e->args) parts.push_back(negation(a));
    return simplify(makeCall(isCallOf(*e, "and") ? "or" : "and", parts));
  }
  if (const ComparisonInfo* c = comparisonOf(*e))
    return makeCall(comparisonInfo(c->negated).name, e->args);
  if (isCallOf(*e, "is_null") && e->args.size() == 1) return makeCall("is_not_null", e->args);
  if (isCallOf(*e, "is_not_null") && e->args.size() == 1) return makeCall("is_null", e->args);
  auto n = makeCall("not", {e});
  if (isLiteral(*e))
    if (ExprPtr f = folded(n)) return f;
  return n;
}

namespace {

/// AND / OR: nested ones flattened, the neutral literal dropped, repeated
/// operands once (both idempotent), the absorbing literal when no other
/// operand can fail.
ExprPtr logical(const ExprPtr& e, bool isAnd) {
  std::vector<ExprPtr> parts;
  std::function<void(const ExprPtr&)> add = [&](const ExprPtr& a) {
    if (isCallOf(*a, isAnd ? "and" : "or")) {
      for (const auto& x : a->args) add(x);
      return;
    }
    if (isBoolLiteral(*a, isAnd)) return;
    for (const auto& p : parts)
      if (exprEquals(p, a)) return;
    parts.push_back(a);
  };
  for (const auto& a : e->args) add(a);
  bool absorbed = false, allPlain = true;
  for (const auto& p : parts) {
    absorbed = absorbed || isBoolLiteral(*p, !isAnd);
    allPlain = allPlain && plain(*p);
  }
  if (absorbed && allPlain) return makeBool(!isAnd);
  if (parts.empty()) return makeBool(isAnd);
  if (parts.size() == 1) return parts[0];
  return makeCall(isAnd ? "and" : "or", parts);
}

/// CASE without dead branches: a WHEN that is NULL or FALSE goes, one that is
/// TRUE ends the CASE as its ELSE, a WHEN equal to an earlier one goes (the
/// earlier took its rows); the ELSE always written (NULL of the CASE's type
/// when missing); `CASE WHEN x IS NULL THEN u ELSE v END` as `CASE WHEN x IS
/// NOT NULL THEN v ELSE u END` (IS NULL is never NULL).
ExprPtr caseForm(const ExprPtr& e) {
  const Type t = e->type;
  auto value = [&](const ExprPtr& v) { return isLiteral(*v) && v->isNull ? makeNull(t) : v; };
  std::vector<ExprPtr> whens, thens;
  ExprPtr otherwise;
  size_t i = 0;
  for (; i + 1 < e->args.size(); i += 2) {
    const ExprPtr& c = e->args[i];
    if (neverTrue(*c) && plain(*c)) continue;
    if (isBoolLiteral(*c, true)) {
      otherwise = e->args[i + 1];
      break;
    }
    bool seen = false;
    for (const auto& w : whens) seen = seen || (exprEquals(w, c) && plain(*c));
    if (seen) continue;
    whens.push_back(c);
    thens.push_back(e->args[i + 1]);
  }
  if (!otherwise) otherwise = i < e->args.size() ? e->args[i] : makeNull(t);
  if (whens.empty())  // the CASE's type kept: its value is the ELSE's, cast
    return otherwise->type.toString() == t.toString() ||
                   (isLiteral(*otherwise) && otherwise->isNull)
               ? value(otherwise)
               : makeCast(otherwise, t);
  if (whens.size() == 1 && isCallOf(*whens[0], "is_null") && whens[0]->args.size() == 1) {
    ExprPtr c = makeCall("is_not_null", whens[0]->args);
    std::swap(thens[0], otherwise);
    whens[0] = c;
  }
  std::vector<ExprPtr> args;
  for (size_t j = 0; j < whens.size(); ++j) {
    args.push_back(whens[j]);
    args.push_back(value(thens[j]));
  }
  args.push_back(value(otherwise));
  return makeTypedCall("case", args, t);
}

bool isEmpty(const PlanNode& n) {
  return n.op == PlanOp::Values && n.rows.empty();
}

/// True when no row can come out of `n`: empty VALUES, under operators that
/// make rows only from their input's.
bool reachesNoRow(const PlanNode& n) {
  if (isEmpty(n)) return true;
  const bool rowWise = n.op == PlanOp::Project || n.op == PlanOp::Filter || n.op == PlanOp::Sort ||
                       n.op == PlanOp::Limit;
  return rowWise && n.children.size() == 1 && reachesNoRow(*n.children[0]);
}

/// True when `n` returns a row on every database and evaluates without an
/// error: an aggregate without group keys (one row over any input), under
/// projections and sorts, every expression of the plan free of subqueries.
bool alwaysARow(const PlanNode& n) {
  bool plainPlan = true;
  forEachNode(n, [&](const PlanNode& x) {
    forEachExpr(x, [&](const ExprPtr& e) { plainPlan = plainPlan && !hasSubquery(*e); });
  });
  const PlanNode* p = &n;
  while ((p->op == PlanOp::Project || p->op == PlanOp::Sort) && p->children.size() == 1)
    p = p->children[0].get();
  return plainPlan && p->op == PlanOp::Aggregate && p->exprs.empty() && p->groupingSets.empty();
}

}  // namespace

PlanPtr withoutDistinct(const PlanPtr& n) {
  // Where only whether a row is there counts (EXISTS, IN, the other input
  // of a semi or anti join), DISTINCT over its input keeps the same values:
  // the projection of its keys will do. Not where counts matter.
  if (n->op != PlanOp::Aggregate || !n->aggs.empty() || !n->groupingSets.empty() ||
      n->exprs.empty() || n->children.size() != 1)
    return nullptr;
  auto p = makePooled<PlanNode>();
  p->op = PlanOp::Project;
  p->id = n->id;
  p->exprs = n->exprs;
  p->children = n->children;
  computeOutput(*p);
  return p;
}

ExprPtr simplify(const ExprPtr& e) {
  if (e && e->kind == ExprKind::Subquery && e->plan && e->subquery != SubqueryKind::Scalar) {
    if (ExprPtr list = inListOf(*e)) return simplify(list);
    if (e->subquery == SubqueryKind::Exists && alwaysARow(*e->plan)) return makeBool(true);
    // EXISTS of a projection is EXISTS of its input: a row either way.
    if (const PlanNode& p = *e->plan;
        e->subquery == SubqueryKind::Exists && p.op == PlanOp::Project && p.children.size() == 1 &&
        std::all_of(p.exprs.begin(), p.exprs.end(), [](const auto& x) {
          return isDeterministic(*x.expr) && !hasSubquery(*x.expr);
        })) {
      auto copy = makePooled<Expr>(*e);
      copy->plan = p.children[0];
      return simplify(copy);
    }
    if (PlanPtr p = withoutDistinct(e->plan)) {
      auto copy = makePooled<Expr>(*e);
      copy->plan = p;
      return copy;
    }
  }
  if (e && e->kind == ExprKind::Subquery && e->plan && reachesNoRow(*e->plan)) {
    // A subquery of no row: EXISTS is FALSE, x IN it FALSE (even for a NULL
    // x), a scalar one NULL. Its operand is evaluated first: plain only.
    if (!e->args.empty() && !plain(*e->args[0])) return e;
    return e->subquery == SubqueryKind::Scalar ? makeNull(e->type) : makeBool(false);
  }
  if (!e || (e->kind != ExprKind::Call && e->kind != ExprKind::Cast)) return e;
  if (e->fn && (e->fn->kind == FunctionKind::Aggregate || e->fn->kind == FunctionKind::Window))
    return e;
  ExprPtr x = mapArgsIfChanged(e, simplify);
  bool literals = !x->args.empty();
  for (const auto& a : x->args) literals = literals && isLiteral(*a);
  if (x->kind == ExprKind::Cast) {
    if (literals)
      if (ExprPtr f = folded(x)) return f;
    return x;
  }
  if (isCallOf(*x, "not") && x->args.size() == 1) return negation(x->args[0]);
  if (isCallOf(*x, "and") || isCallOf(*x, "or")) return logical(x, isCallOf(*x, "and"));
  if (isCallOf(*x, "in") && x->args.size() >= 2 && plain(*x->args[0]) && !literals) {
    // x IN (a, b) is x = a OR x = b, as SQL defines it (NULLs included).
    std::vector<ExprPtr> eqs;
    for (size_t j = 1; j < x->args.size(); ++j)
      eqs.push_back(makeCall("=", {x->args[0], x->args[j]}));
    return eqs.size() == 1 ? eqs[0] : logical(makeCall("or", eqs), false);
  }
  if (isCallOf(*x, "coalesce") && !x->args.empty()) {
    // NULL arguments go, and those after one that is never NULL; then the
    // CASE that takes the first that is not NULL (each read twice: plain).
    std::vector<ExprPtr> kept;
    for (const auto& a : x->args) {
      if (isLiteral(*a) && a->isNull) continue;
      kept.push_back(a);
      if (isLiteral(*a)) break;
    }
    bool allPlain = true;
    for (const auto& a : x->args) allPlain = allPlain && plain(*a);
    if (!allPlain) return x;
    if (kept.empty()) return makeNull(x->type);
    std::vector<ExprPtr> cs;
    for (size_t j = 0; j + 1 < kept.size(); ++j) {
      cs.push_back(makeCall("is_not_null", {kept[j]}));
      cs.push_back(kept[j]);
    }
    cs.push_back(kept.back());
    return caseForm(makeTypedCall("case", cs, x->type));
  }
  if (isCallOf(*x, "nullif") && x->args.size() == 2 && plain(*x->args[0]) && !literals)
    // NULL when equal, else the first (a NULL operand: the first).
    return caseForm(makeTypedCall(
        "case", {makeCall("=", {x->args[0], x->args[1]}), makeNull(x->type), x->args[0]}, x->type));
  if (isCallOf(*x, "case")) return caseForm(x);
  if ((isCallOf(*x, "is_null") || isCallOf(*x, "is_not_null")) && x->args.size() == 1)
    if (const ComparisonInfo* cmp = comparisonOf(*x->args[0]); cmp && !cmp->nullSafe) {
      // A comparison is NULL exactly when an operand is: (a < b) IS NULL is
      // a IS NULL OR b IS NULL, IS NOT NULL both not NULL.
      const bool isNull = isCallOf(*x, "is_null");
      std::vector<ExprPtr> tests;
      for (const auto& a : x->args[0]->args) tests.push_back(simplify(makeCall(x->name, {a})));
      return simplify(makeCall(isNull ? "or" : "and", tests));
    }
  bool nullArg = false, allPlain = true;
  for (const auto& a : x->args) {
    nullArg = nullArg || (isLiteral(*a) && a->isNull);
    allPlain = allPlain && plain(*a);
  }
  if (x->fn && x->fn->policy == NullPolicy::Strict && nullArg && allPlain)
    return makeNull(x->type);  // NULL in, NULL out
  if (literals && plain(*x))
    if (ExprPtr f = folded(x)) return f;
  return x;
}

namespace {

/// An empty relation with `n`'s output columns.
PlanPtr emptyLike(const PlanNode& n) {
  auto v = makePooled<PlanNode>();
  v->op = PlanOp::Values;
  v->id = n.id;
  for (const auto& c : n.output) v->outNames.push_back(c.id.str());
  computeOutput(*v);
  return v;
}

/// `keep`'s rows with the other input's columns NULL: a LEFT (RIGHT) join
/// whose other input is empty, as a projection named like the join's output.
PlanPtr padded(const PlanNode& join, const PlanPtr& keep) {
  std::set<std::string> kept;
  for (const auto& c : keep->output) kept.insert(c.id.str());
  auto p = makePooled<PlanNode>();
  p->op = PlanOp::Project;
  p->id = join.id;
  for (const auto& c : join.output)
    p->exprs.push_back(NamedExpr{c.id.str(), kept.count(c.id.str())
                                                 ? makeColumn(c.id.str(), c.type, c.nullable)
                                                 : makeNull(c.type)});
  p->children = {keep};
  computeOutput(*p);
  return p;
}

}  // namespace

bool simplifyExpressions(PlanNode& n) {
  bool changed = false;
  mapExprs(n, [&](const ExprPtr& e) {
    ExprPtr s = simplify(e);
    if (s == e || exprEquals(s, e)) return e;
    changed = true;
    return s;
  });
  ExprPtr* condition = n.op == PlanOp::Filter                                    ? &n.predicate
                       : n.op == PlanOp::Join && !joinInfo(n.joinType).nullAware ? &n.predicate
                                                                                 : nullptr;
  if (condition && *condition) {
    std::vector<ExprPtr> parts;
    bool rewritten = false;
    forEachConjunct(*condition, [&](const ExprPtr& c) {
      ExprPtr r = asCondition(c, n);
      rewritten = rewritten || r != c;
      forEachConjunct(r, [&](const ExprPtr& part) {  // (an AND it made: its parts)
        parts.push_back(part);
        return true;
      });
      return true;
    });
    // `x IS NOT NULL` beside a comparison of x (not NULL-safe) says nothing
    // more: the comparison is not TRUE where x is NULL.
    std::vector<ExprPtr> kept;
    for (const auto& p : parts) {
      bool implied = false;
      if (isCallOf(*p, "is_not_null") && p->args.size() == 1)
        for (const auto& q : parts)
          if (const ComparisonInfo* cmp = comparisonOf(*q); cmp && !cmp->nullSafe)
            implied =
                implied || exprEquals(q->args[0], p->args[0]) || exprEquals(q->args[1], p->args[0]);
      if (!implied) kept.push_back(p);
    }
    rewritten = rewritten || kept.size() != parts.size();
    parts = kept;
    if (rewritten) {
      *condition = parts.empty() ? makeBool(true) : makeAnd(parts);
      changed = true;
    }
  }
  if (changed) n.outputStamp = {};
  return changed;
}

bool emptyRelation(PlanPtr& slot) {
  // No row reaches a filter that is never TRUE, a LIMIT 0, or an operator
  // that returns a row only for a row of an empty input: that relation is
  // empty VALUES with its columns. An aggregate without group keys stays (one
  // row over no input); a LEFT join with an empty other input pads its rows;
  // an anti join with one returns its input (NOT IN of no row is TRUE).
  PlanNode& n = *slot;
  if (isEmpty(n)) return false;
  bool rejectsAll = false;
  if (n.op == PlanOp::Filter && n.predicate)
    forEachConjunct(n.predicate, [&](const ExprPtr& c) {
      rejectsAll = rejectsAll || neverTrue(*c);
      return true;
    });
  if (rejectsAll || (n.op == PlanOp::Limit && n.limit && *n.limit == 0 && !n.unprinted)) {
    slot = emptyLike(n);
    return true;
  }
  std::vector<bool> empty;
  bool any = false;
  for (const auto& c : n.children) {
    empty.push_back(isEmpty(*c));
    any = any || empty.back();
  }
  if (!any) return false;
  switch (n.op) {
    case PlanOp::Filter:
    case PlanOp::Project:
    case PlanOp::Sort:
    case PlanOp::Limit:
    case PlanOp::Window:
      slot = emptyLike(n);
      return true;
    case PlanOp::Aggregate:
      if (n.exprs.empty() || !n.groupingSets.empty()) return false;
      slot = emptyLike(n);
      return true;
    case PlanOp::Intersect:
      slot = emptyLike(n);
      return true;
    case PlanOp::Except:
      if (!empty[0]) return false;
      slot = emptyLike(n);
      return true;
    case PlanOp::Union: {
      // UNION ALL adds its inputs' counts: an empty one adds nothing.
      std::vector<PlanPtr> rest;
      for (size_t i = 0; i < n.children.size(); ++i)
        if (!empty[i]) rest.push_back(n.children[i]);
      if (rest.empty()) {
        slot = emptyLike(n);
        return true;
      }
      if (!n.all) return false;
      if (rest.size() > 1) {
        n.children = rest;
        return true;
      }
      auto p = makePooled<PlanNode>();  // the one input under the union's names
      p->op = PlanOp::Project;
      p->id = n.id;
      const PlanNode& in = *rest[0];
      if (in.output.size() != n.outNames.size()) return false;
      for (size_t j = 0; j < n.outNames.size(); ++j)
        p->exprs.push_back(
            NamedExpr{n.outNames[j],
                      makeColumn(in.output[j].id.str(), in.output[j].type, in.output[j].nullable)});
      p->children = {rest[0]};
      computeOutput(*p);
      slot = p;
      return true;
    }
    case PlanOp::Join: {
      if (n.children.size() != 2) return false;
      const JoinTypeInfo& info = joinInfo(n.joinType);
      for (int side = 0; side < 2; ++side) {
        if (!empty[static_cast<size_t>(side)]) continue;
        const int other = 1 - side;
        // The other side's rows survive only where this side's unmatched
        // rows would: preserved and padded, or kept by an anti join.
        if (!info.preserves[other]) {
          slot = emptyLike(n);
          return true;
        }
        const PlanPtr& keep = n.children[static_cast<size_t>(other)];
        slot = padded(n, keep);
        return true;
      }
      return false;
    }
    default:
      return false;
  }
}

}  // namespace rfguard::normal_form
