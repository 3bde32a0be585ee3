// Binding of row values, `(a, b)` and `ROW(a, b)`, which rfguard's
// expressions do not hold: each predicate over one becomes comparisons of its
// items with SQL's NULL semantics. `(a, b) = (c, d)` is a = c AND b = d (NULL
// when no pair differs for sure and one pair is NULL), `<>` its negation, an
// OR; `<=>` compares NULLs as values; IN a list is OR of equalities, IN a
// subquery an EXISTS of an equal row (TRUE), else NULL when some row may be
// equal (no pair differs for sure), else FALSE.
#include <algorithm>
#include <map>

#include "grammar/binder.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

std::vector<P::ExprContext*> Binder::rowItems(P::PrimaryExprContext* ctx) {
  if (auto* p = alt<P::ParenExprContext>(ctx); p && !p->sub && !p->more.empty()) {
    std::vector<P::ExprContext*> out{p->inner};
    out.insert(out.end(), p->more.begin(), p->more.end());
    return out;
  }
  if (auto* n = alt<P::NameExprContext>(ctx); n && n->call && !n->star && !n->quant && !n->window &&
                                              !n->filterCond && !n->args.empty() &&
                                              identText(n->name) == "row")
    return n->args;
  return {};
}

namespace {

/// The row value an expression is, when it is one alone (`(c, d)` in `IN
/// ((a, b), (c, d))`).
std::vector<P::ExprContext*> rowOf(P::ExprContext* e) {
  if (!e->ops.empty()) return {};
  auto* t = alt<P::PredicatedContext>(e->first);
  if (!t || !t->ops.empty() || t->pred) return {};
  return Binder::rowItems(t->first);
}

}  // namespace

const std::vector<P::ValuesRowContext*>* Binder::bareValues(P::QueryContext* q) {
  if (q->ctes || q->order || q->limit || !q->body->ops.empty()) return nullptr;
  auto* qp = q->body->first;
  return qp->rows.empty() ? nullptr : &qp->rows;
}

ExprPtr Binder::rowInSubquery(const std::vector<ExprPtr>& left, P::QueryContext* sub,
                              const Scope& scope, SourceLoc loc) {
  // The subquery filtered by the row's equalities, each `=` (an equal row)
  // or each `= IS NOT FALSE` (a row that may be equal): correlated EXISTS.
  auto matching = [&](bool mayBe) -> ExprPtr {
    BoundRel b = bindQuery(sub, &scope, "sq");
    if (b.plan->output.size() != left.size()) {
      error(sub, "IN subquery must return " + std::to_string(left.size()) +
                     " columns for a row of as many, it returns " +
                     std::to_string(b.plan->output.size()));
      return nullptr;
    }
    std::vector<ExprPtr> eqs;
    for (size_t i = 0; i < left.size(); ++i) {
      const Column& c = b.plan->output[i];
      if (!comparable(left[i]->type, c.type))
        error(sub, "cannot compare " + left[i]->type.toString() + " with " + c.type.toString());
      ExprPtr eq = call("=", {left[i], makeColumn(c.id.str(), c.type, c.nullable, loc)}, loc);
      eqs.push_back(mayBe ? call("coalesce", {eq, makeBool(true, loc)}, loc) : eq);
    }
    // Below the subquery's projection where it computes without a function
    // that may differ call to call, as EXISTS (SELECT ... WHERE ...) has it.
    PlanPtr top = b.plan, below = b.plan;
    ExprPtr pred = makeAnd(eqs);
    if (top->op == PlanOp::Project &&
        std::all_of(top->exprs.begin(), top->exprs.end(),
                    [](const NamedExpr& x) { return isDeterministic(*x.expr); })) {
      std::map<std::string, ExprPtr> defs;
      for (const auto& x : top->exprs) defs[x.name] = x.expr;
      pred = substitute(pred, defs);
      below = top->children[0];
    }
    auto f = makePooled<PlanNode>();
    f->op = PlanOp::Filter;
    f->loc = loc;
    f->children = {below};
    f->predicate = pred;
    computeOutput(*f);
    if (below != top) {
      top->children[0] = f;
      f = top;
    }
    return makeSubquery(SubqueryKind::Exists, f, nullptr, Type::of(TypeKind::Boolean), loc);
  };
  ExprPtr equal = matching(false);
  if (!equal) return makeNull({}, loc);
  // With no NULL on either side a row may be equal only when it is: EXISTS.
  bool nullable = false;
  for (const auto& l : left) nullable = nullable || l->nullable;
  for (const auto& c : equal->plan->output) nullable = nullable || c.nullable;
  if (!nullable) return equal;
  ExprPtr mayBe = matching(true);
  if (!mayBe) return makeNull({}, loc);
  // TRUE when an equal row exists; else NULL when a row may be equal, else FALSE.
  return call("or", {equal, call("nullif", {mayBe, makeBool(true, loc)}, loc)}, loc);
}

ExprPtr Binder::bindRowPredicate(P::PredicatedContext* ctx,
                                 const std::vector<P::ExprContext*>& items, const Scope& scope,
                                 BlockState& block) {
  SourceLoc loc = locOf(ctx);
  std::vector<ExprPtr> left;
  for (auto* i : items) left.push_back(bindExpr(i, scope, block));
  auto refuse = [&](antlr4::ParserRuleContext* at, const std::string& why) {
    error(at, why);
    return makeNull({}, loc);
  };
  // Item-wise comparisons of `left` with `right`, joined by `joiner`.
  auto pairwise = [&](const std::vector<P::ExprContext*>& right, const std::string& op,
                      const std::string& joiner, antlr4::ParserRuleContext* at) -> ExprPtr {
    if (right.size() != left.size())
      return refuse(at, "a row of " + std::to_string(left.size()) +
                            " values compared with one of " + std::to_string(right.size()));
    std::vector<ExprPtr> parts;
    for (size_t i = 0; i < left.size(); ++i) {
      ExprPtr r = bindExpr(right[i], scope, block);
      if (!comparable(left[i]->type, r->type))
        error(right[i],
              "cannot compare " + left[i]->type.toString() + " with " + r->type.toString());
      parts.push_back(call(op, {left[i], r}, loc));
    }
    return parts.size() == 1 ? parts[0] : call(joiner, std::move(parts), loc);
  };
  P::PredicateContext* pred = ctx->pred;
  if (!pred)
    return refuse(ctx,
                  "a row value (a, b, ...) is only supported compared with =, <>, <=> or IN, "
                  "or tested with IS [NOT] NULL");
  if (auto* c = alt<P::ComparisonContext>(pred)) {
    std::string op = c->op->getText();
    if (op == "!=") op = "<>";
    if (op == "==") op = "=";
    if (c->sub) {  // = ANY / SOME is IN, <> ALL is NOT IN
      const std::string quant = c->quant ? "all" : identText(c->quantName);
      const bool in = quant != "all" && op == "=", notIn = quant == "all" && op == "<>";
      if (!in && !notIn)
        return refuse(c, "a row value compared with " + op + " " + quant +
                             " (subquery): only = ANY, = SOME and <> ALL");
      ExprPtr e = rowInSubquery(left, c->sub, scope, loc);
      return notIn ? call("not", {e}, loc) : e;
    }
    std::vector<P::ExprContext*> right =
        c->right->ops.empty() ? rowItems(c->right->first) : std::vector<P::ExprContext*>{};
    if (right.empty()) return refuse(c->right, "a row value compared with a value that is no row");
    if (op == "=" || op == "<=>") return pairwise(right, op, "and", c);
    if (op == "<>") return pairwise(right, "<>", "or", c);
    return refuse(c, "a row value compared with " + op +
                         " (an order of rows) is not supported: only =, <> and <=>");
  }
  if (auto* is = alt<P::IsPredicateContext>(pred)) {
    if (is->right || is->truth || is->word)
      return refuse(is, "a row value is tested with IS [NOT] NULL only");
    std::vector<ExprPtr> parts;
    for (const auto& l : left)
      parts.push_back(call(is->negated ? "is_not_null" : "is_null", {l}, loc));
    return makeAnd(parts);
  }
  auto* n = alt<P::NegatableContext>(pred);
  if (!n->in) return refuse(n, "a row value is compared with =, <>, <=> or IN only");
  const bool negated = n->negated != nullptr;
  ExprPtr e;
  if (const auto* rows = n->sub ? bareValues(n->sub) : nullptr) {
    std::vector<ExprPtr> anyOf;
    for (auto* row : *rows) anyOf.push_back(pairwise(row->items, "=", "and", row));
    e = anyOf.size() == 1 ? anyOf[0] : call("or", std::move(anyOf), loc);
  } else if (n->sub) {
    e = rowInSubquery(left, n->sub, scope, loc);
  } else {
    std::vector<ExprPtr> anyOf;
    for (auto* item : n->items) {
      std::vector<P::ExprContext*> right = rowOf(item);
      if (right.empty()) return refuse(item, "a row value IN a list of values that are no rows");
      anyOf.push_back(pairwise(right, "=", "and", item));
    }
    e = anyOf.size() == 1 ? anyOf[0] : call("or", std::move(anyOf), loc);
  }
  return negated ? call("not", {e}, loc) : e;
}

}  // namespace rfguard
